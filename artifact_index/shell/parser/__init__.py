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
from itertools import pairwise
from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
    from tree_sitter import Node as TSNode

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
        tree = safe_parse(ts, original)
        joined = _lines_joined(tree.root_node, original) if b"\n" in original else []
        if joined:
            # Each newline the grammar read as a space ends its command: `;` in its place, same length.
            fixed = bytearray(original)
            for at in joined:
                fixed[at] = ord(";")
            original = bytes(fixed)
            tree = safe_parse(ts, original)
        heredocs, source = [], Source(original, original, [])
    body = Builder(source).statements(tree.root_node.children)
    return Script(body, text, has_errors=tree.root_node.has_error, heredocs=len(heredocs))


def _lines_joined(root: TSNode, data: bytes) -> list[int]:
    """The newlines between two words of one command in ``root``'s tree: where the grammar read on.

    tree-sitter-bash joins ``a | grep x | head`` and a next line with a redirection
    (``ls 2>/dev/null``) into one command, ``head ls``: the next line's words became
    arguments (files ``head`` would read).  An unescaped newline never continues a command.
    """
    found: list[int] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "command":
            children = node.children
            for before, after in pairwise(children):
                gap = data[before.end_byte : after.start_byte]
                at = gap.find(b"\n")
                if at >= 0 and not gap[:at].rstrip(b" \t").endswith(b"\\"):
                    found.append(before.end_byte + at)
        stack.extend(node.children)
    return found
