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
* After ``$DIR/`` the grammar reads a second variable wrongly: ``$T/$c.json``
  becomes the word ``$T/$`` followed by a separate word ``c.json``, and
  ``$S/c$side.txt`` the word ``$S/c$`` followed by ``side.txt`` (and
  ``X=$T/$c.json`` an assignment followed by a command named ``c.json``).
  Where the tree shows that split, the variable is given to the grammar
  braced (``${c}``, the same to bash) and the command parsed again.

The package: :mod:`.model` (the typed model), :mod:`.source` (the grammar and
the offset map), :mod:`.heredocs` (finding and cutting out heredocs) and
:mod:`.tree` (walking the tree into the model).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING

from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.parser.syntax_tree import (
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

if TYPE_CHECKING:
    from tree_sitter import Node as TSNode

    from artifact_index.shell.parser.bash_grammar import Source, safe_parse
    from artifact_index.shell.parser.heredocs import Rewrite

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


def __getattr__(name: str) -> object:
    # The grammar and the tree walk are loaded with the first command parsed: the model's classes
    # alone are what most readers of a command's words need at their import (a hook that reads
    # nothing new parses nothing).
    if name == "safe_parse":
        from artifact_index.shell.parser.bash_grammar import safe_parse

        return safe_parse
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_NAME = lazy_pattern(rb"[A-Za-z_][A-Za-z0-9_]*|[0-9]")


def _split_variables(root: TSNode, source: Source) -> list[Rewrite]:
    """Braced rewrites of the variables the grammar split off a word (see the module docstring).

    The split shows as a word ending in a bare ``$`` with the variable's name
    right after it, outside the word.
    """
    rewrites: list[Rewrite] = []
    stack = [root]
    data = source.data
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        if node.type != "concatenation" or not node.children:
            continue
        last = node.children[-1]
        if last.type != "$" or last.is_named:
            continue
        name = _NAME.match(data, last.end_byte)
        if name is None:
            continue
        start = source.map(last.start_byte, False)
        end = source.map(name.end(), True)
        if start < end:
            rewrites.append((start, end, b"${" + name.group() + b"}"))
    return sorted(rewrites)


@lru_cache(maxsize=4096)
def parse_command(text: str) -> Script:
    """The model of a shell command (an empty sequence when no grammar is available)."""
    from artifact_index.shell.parser.bash_grammar import Source, bash_parser, safe_parse
    from artifact_index.shell.parser.heredocs import find_heredocs, skeleton
    from artifact_index.shell.parser.tree import Builder

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
    # The split needs a second `$` in the word (`$T/$c.json`, `$S/c$side.txt`).
    rewrites = _split_variables(tree.root_node, source) if original.count(b"$") > 1 else []
    if rewrites:
        if heredocs:
            heredocs, source, tree = find_heredocs(ts, original, rewrites)
        else:
            data, segments = skeleton(original, [], rewrites)
            source, tree = Source(data, original, segments), safe_parse(ts, data)
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
                if before.type == "comment":
                    continue  # its newline ends the comment: a `;` there would be commented out
                gap = data[before.end_byte : after.start_byte]
                at = gap.find(b"\n")
                if at >= 0 and not gap[:at].rstrip(b" \t").endswith(b"\\"):
                    found.append(before.end_byte + at)
        stack.extend(node.children)
    return found
