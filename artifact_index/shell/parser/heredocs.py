"""Heredocs, found by bash's rule and cut out one at a time, so the rest of the command parses cleanly.

The grammar ends a heredoc at the first line that merely *starts* with the
delimiter and parses whatever follows the operator on its line inside the
heredoc node; see :func:`find_heredocs`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tree_sitter import Node as TSNode
from tree_sitter import Parser, Tree

from artifact_index.shell.parser.bash_grammar import (
    HEREDOC_PLACEHOLDER,
    Source,
    bash_parser,
    safe_parse,
)
from artifact_index.shell.parser.syntax_tree import Lit, Part, Word
from artifact_index.shell.parser.tree import EXPANSIONS, unescape, word_parts

__all__ = [
    "Rewrite",
    "find_heredocs",
    "skeleton",
]

# (original start, original end, replacement): a span of the command given to the grammar
# as other text, which means the same to bash but which the grammar reads right.
Rewrite = tuple[int, int, bytes]


@dataclass
class _Heredoc:
    op_start: int
    delim_end: int
    cut_start: int
    cut_end: int
    body: Word | None


_SYNTHETIC = b"__artifact_index_eof__"


def _heredoc_body_word(raw: str, quoted: bool, strip_tabs: bool) -> Word:
    """The text a heredoc feeds, with the expansions of an unquoted one kept as parts."""
    text = _strip_tabs(raw) if strip_tabs else raw
    if quoted or not any(ch in text for ch in "$`\\"):
        return Word((Lit(text, quoted=True),), raw)
    # Re-parse the body under a delimiter no line can start with, so the
    # grammar reports its expansions (see find_heredocs on the grammar's
    # early-terminator bug).
    ts = bash_parser()
    body = text.encode("utf-8", "surrogatepass")
    header = b"cat <<" + _SYNTHETIC + b"\n"
    synthetic = header + body + _SYNTHETIC + b"\n"
    expansions: list[TSNode] = []
    if ts is not None:
        stack = [safe_parse(ts, synthetic).root_node]
        while stack:
            n = stack.pop()
            if n.type == "heredoc_body":
                expansions.extend(c for c in n.children if c.type in EXPANSIONS)
            else:
                stack.extend(n.children)
    expansions.sort(key=lambda n: n.start_byte)
    helper = Source(synthetic, synthetic, [])
    parts: list[Part] = []
    pos = len(header)
    stop = len(header) + len(body)
    for child in expansions:
        if child.start_byte < pos or child.end_byte > stop:
            continue
        parts.append(
            Lit(
                _heredoc_unescape(synthetic[pos : child.start_byte].decode("utf-8", "replace")),
                quoted=True,
            )
        )
        parts.extend(word_parts(child, helper))
        pos = child.end_byte
    parts.append(
        Lit(_heredoc_unescape(synthetic[pos:stop].decode("utf-8", "replace")), quoted=True)
    )
    return Word(tuple(p for p in parts if not (isinstance(p, Lit) and not p.text)), raw)


def _strip_tabs(text: str) -> str:
    return "\n".join(line.lstrip("\t") for line in text.split("\n"))


def _heredoc_unescape(text: str) -> str:
    """Backslash escapes of an unquoted heredoc: only ``\\$``, ``\\```, ``\\\\`` and line joins."""
    return unescape(text, "$`\\\n")


def _delimiter(raw: str) -> tuple[str, bool]:
    """The heredoc delimiter with its quoting removed, and whether it was quoted."""
    quoted = any(ch in raw for ch in "'\"\\")
    out: list[str] = []
    i = 0
    while i < len(raw):
        ch = raw[i]
        if ch == "\\" and i + 1 < len(raw):
            out.append(raw[i + 1])
            i += 2
            continue
        if ch not in "'\"":
            out.append(ch)
        i += 1
    return "".join(out), quoted


def _terminator(src: bytes, start: int, delimiter: bytes, strip_tabs: bool) -> tuple[int, int]:
    """(end of body, end of terminator line) by bash's rule: the first line equal to the delimiter."""
    pos = start
    while pos < len(src):
        newline = src.find(b"\n", pos)
        line_end = newline if newline >= 0 else len(src)
        line = src[pos:line_end]
        if (line.lstrip(b"\t") if strip_tabs else line) == delimiter:
            return pos, line_end + 1 if newline >= 0 else line_end
        if newline < 0:
            break
        pos = newline + 1
    return len(src), len(src)  # unterminated: bash reads to the end


def _heredoc_operators(root: TSNode) -> list[tuple[TSNode, TSNode, int]]:
    """(operator, delimiter, end of the operator's line content) for every heredoc, in text order.

    Delimiters are looked for anywhere, ERROR nodes included: the grammar
    fails on two heredocs on one line (``cat <<A > a; cat <<B > b``) but
    still tokenizes the first operator.
    """
    found: list[tuple[TSNode, TSNode, int]] = []
    stack = [root]
    while stack:
        n = stack.pop()
        children = n.children
        for i, child in enumerate(children):
            if child.type != "heredoc_start" or i == 0 or children[i - 1].type not in ("<<", "<<-"):
                continue
            line_from = child.end_byte
            if n.type == "heredoc_redirect":
                # What follows the operator on its line is parsed inside the heredoc node.
                line_from = max(
                    (c.end_byte for c in children if c.type not in ("heredoc_body", "heredoc_end")),
                    default=line_from,
                )
            found.append((children[i - 1], child, line_from))
        stack.extend(
            c for c in children if c.type not in ("heredoc_body", "heredoc_start", "heredoc_end")
        )
    found.sort(key=lambda item: item[0].start_byte)
    return found


def find_heredocs(
    ts: Parser, src: bytes, rewrites: Sequence[Rewrite] = ()
) -> tuple[list[_Heredoc], Source, Tree]:
    """Locate heredocs one at a time, each on a skeleton with the earlier ones cut out.

    The grammar ends a heredoc at the first line that merely *starts* with
    the delimiter (``    except EOFError:`` ends an ``EOF`` heredoc), so the
    tree only says where each heredoc operator is; its body is found by
    bash's rule (the first line equal to the delimiter).  After each cut the
    rest is parsed again, because text after a wrongly ended body may have
    hidden the next heredoc.  Returns the heredocs and the final skeleton's
    source and tree.  ``rewrites`` (original start, original end, text) are
    applied to every skeleton, each mapped back to the whole range it replaces.
    """
    found: list[_Heredoc] = []
    failed: set[int] = set()
    while True:
        data, segments = skeleton(src, found, rewrites) if found or rewrites else (src, [])
        source = Source(data, src, segments, [h.body for h in found])
        tree = safe_parse(ts, data)
        candidates = _heredoc_operators(tree.root_node) if len(found) < 64 else []
        pick = next(
            (c for c in candidates if source.map(c[0].start_byte, False) not in failed), None
        )
        if pick is None:
            return found, source, tree
        op, start_node, line_from = pick
        newline = data.find(b"\n", line_from)
        if newline < 0:
            failed.add(source.map(op.start_byte, False))
            continue
        # The body starts on the line after the operator's line, after the
        # bodies of earlier heredocs opened on that same line.
        body_start = source.map(newline, True) + 1
        same_line = [h.cut_end for h in found if h.cut_start >= body_start]
        if same_line:
            body_start = max(same_line)
        delimiter, quoted = _delimiter(source.text(start_node))
        strip_tabs = op.type == "<<-"
        body_end, cut_end = _terminator(
            src, body_start, delimiter.encode("utf-8", "surrogatepass"), strip_tabs
        )
        raw = src[body_start:body_end].decode("utf-8", "replace")
        found.append(
            _Heredoc(
                source.map(op.start_byte, False),
                source.map(start_node.end_byte, True),
                body_start,
                cut_end,
                _heredoc_body_word(raw, quoted, strip_tabs),
            )
        )


def skeleton(
    src: bytes, heredocs: list[_Heredoc], rewrites: Sequence[Rewrite] = ()
) -> tuple[bytes, list[tuple[int, int, int, bool]]]:
    """``src`` with heredoc bodies cut, operators replaced by placeholders, and ``rewrites`` made."""
    edits: list[tuple[int, int, bytes]] = list(rewrites)
    for i, h in enumerate(heredocs):
        edits.append((h.op_start, h.delim_end, ("< " + HEREDOC_PLACEHOLDER.format(i)).encode()))
        edits.append((h.cut_start, h.cut_end, b""))
    edits.sort()
    out = bytearray()
    segments: list[tuple[int, int, int, bool]] = []
    pos = 0
    for start, end, replacement in edits:
        if start < pos:
            continue
        if start > pos:
            segments.append((len(out), pos, start, False))
            out += src[pos:start]
        if replacement:
            segments.append((len(out), start, end, True))
            out += replacement
        pos = end
    segments.append((len(out), pos, len(src), False))
    out += src[pos:]
    return bytes(out), segments
