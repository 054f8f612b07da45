"""Shell command text -> a small typed model, parsed with tree-sitter-bash.

The model keeps what the effect inference needs and nothing else: simple
commands with their argv words (quoting removed, expansions kept as typed
parts), assignments and redirections; heredoc bodies; the list structure
(``&&``, ``||``, ``;``, ``&``), pipelines, subshells, ``{ ...; }`` groups,
``for`` loops, and conditionals (``if``/``while``/``case``, whose bodies may
or may not run).

Quirks of the bash grammar bundled with ``tree-sitter-languages`` shape
this package:

* Whatever follows a heredoc operator on its line (``<<'EOF' > f && python
  f``, ``<<EOF | tail``) is parsed *inside* the heredoc node, often as an
  ERROR; a heredoc ends at the first line that merely starts with the
  delimiter; two heredocs opened on one line are an ERROR.  So the tree is
  only trusted to say where each ``<<DELIM`` operator is.  Heredocs are
  taken one at a time: the body is found by bash's rule, cut out, the
  operator replaced by a placeholder input redirection, and the rest parsed
  again.  The final skeleton parses cleanly; byte offsets are mapped back so
  command texts quote the original.
* ``a && b > f`` parses as a redirected *list*.  In bash a redirection binds
  to the command just before it, so redirections of a list or pipeline are
  moved to its last element.
* Some non-ASCII input crashes the grammar's scanner: the grammar only ever
  sees the text with non-ASCII bytes masked (:func:`safe_parse`).

The package: :mod:`.model` (the typed model), :mod:`.source` (the grammar and
the offset map), :mod:`.heredocs` (finding and cutting out heredocs) and
:mod:`.tree` (walking the tree into the model).
"""

from __future__ import annotations

from functools import lru_cache

from artifact_index.shell.parser.heredocs import find_heredocs
from artifact_index.shell.parser.model import (
    Command,
    Conditional,
    ForLoop,
    Group,
    Lit,
    Node,
    Opaque,
    Part,
    Pipeline,
    Redirect,
    Script,
    Sequence,
    Sub,
    Subshell,
    Var,
    Word,
)
from artifact_index.shell.parser.source import Source, bash_parser, safe_parse
from artifact_index.shell.parser.tree import Builder

__all__ = [
    "Command",
    "Conditional",
    "ForLoop",
    "Group",
    "Lit",
    "Node",
    "Opaque",
    "Part",
    "Pipeline",
    "Redirect",
    "Script",
    "Sequence",
    "Sub",
    "Subshell",
    "Var",
    "Word",
    "parse_command",
    "safe_parse",
]


@lru_cache(maxsize=4096)
def parse_command(text: str) -> Script:
    """The model of a shell command (an empty sequence when no grammar is available)."""
    ts = bash_parser()
    if ts is None:
        return Script(Sequence(()), text, has_errors=True)
    original = text.encode("utf-8", "surrogatepass")
    if b"<<" in original:
        heredocs, source, tree = find_heredocs(ts, original)
    else:
        heredocs, source, tree = [], Source(original, original, []), safe_parse(ts, original)
    body = Builder(source).statements(tree.root_node.children)
    return Script(body, text, has_errors=tree.root_node.has_error, heredocs=len(heredocs))
