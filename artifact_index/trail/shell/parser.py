"""Shell command text -> a small typed model, parsed with tree-sitter-bash.

The model keeps what the effect inference needs and nothing else: simple
commands with their argv words (quoting removed, expansions kept as typed
parts), assignments and redirections; heredoc bodies; the list structure
(``&&``, ``||``, ``;``, ``&``), pipelines, subshells, ``{ ...; }`` groups,
``for`` loops, and conditionals (``if``/``while``/``case``, whose bodies may
or may not run).

Quirks of the bash grammar bundled with ``tree-sitter-languages`` shape
this module:

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
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from functools import cache, lru_cache

from tree_sitter import Node as TSNode
from tree_sitter import Parser, Tree

from artifact_index.facts.symbols.grammars import parser as grammar_parser

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


# ---------------------------------------------------------------------------
# The model


@dataclass(frozen=True)
class Lit:
    """Literal text; ``quoted`` text is not subject to globbing or brace expansion."""

    text: str
    quoted: bool = False


@dataclass(frozen=True)
class Var:
    """``$name`` or ``${name}``."""

    name: str


@dataclass(frozen=True)
class Sub:
    """``$(...)``, a backquoted command, or a ``<(...)`` process substitution."""

    script: Node
    raw: str
    process: bool = False


@dataclass(frozen=True)
class Opaque:
    """An expansion whose value is only known at run time (``$((..))``, ``${x:-y}``, ``$1``)."""

    raw: str


Part = Lit | Var | Sub | Opaque


@dataclass(frozen=True)
class Word:
    parts: tuple[Part, ...]
    raw: str

    @property
    def literal(self) -> str | None:
        """The word's value when it has no expansion at all."""
        if all(isinstance(p, Lit) for p in self.parts):
            return "".join(p.text for p in self.parts if isinstance(p, Lit))
        return None


@dataclass(frozen=True)
class Redirect:
    """One redirection.

    ``op`` is one of ``>``, ``>>``, ``>|``, ``&>``, ``&>>``, ``>&``, ``<``,
    ``<&``, ``<>``, ``<<`` (a heredoc; ``body`` holds its text) or ``<<<``
    (a here-string; ``body`` holds the word).  ``body`` is None for a heredoc
    whose text the parser could not find.
    """

    op: str
    fd: int | None = None
    target: Word | None = None
    body: Word | None = None


@dataclass(frozen=True)
class Command:
    """A simple command: ``A=1 prog arg ... > out``."""

    argv: tuple[Word, ...]
    assignments: tuple[tuple[str, Word], ...] = ()
    redirects: tuple[Redirect, ...] = ()
    text: str = ""


@dataclass(frozen=True)
class Pipeline:
    commands: tuple[Node, ...]
    negated: bool = False


@dataclass(frozen=True)
class Sequence:
    """Items joined by operators: ``operators[i]`` joins ``items[i]`` and ``items[i + 1]``.

    Operators are ``&&``, ``||``, ``;`` (also a newline) and ``&``.
    """

    items: tuple[Node, ...]
    operators: tuple[str, ...] = ()


@dataclass(frozen=True)
class Subshell:
    """``( ... )``: runs in a child process, so ``cd`` inside does not leak."""

    body: Node
    redirects: tuple[Redirect, ...] = ()


@dataclass(frozen=True)
class Group:
    """``{ ...; }``: runs in the current shell."""

    body: Node
    redirects: tuple[Redirect, ...] = ()


@dataclass(frozen=True)
class Conditional:
    """``if``/``while``/``until``/``case``/C-style ``for``: parts of the body may not run."""

    kind: str
    body: Node
    redirects: tuple[Redirect, ...] = ()


@dataclass(frozen=True)
class ForLoop:
    """``for NAME in WORDS; do BODY; done`` (``values`` None for ``for NAME; do``, i.e. ``"$@"``)."""

    variable: str
    values: tuple[Word, ...] | None
    body: Node
    redirects: tuple[Redirect, ...] = ()


Node = Command | Pipeline | Sequence | Subshell | Group | Conditional | ForLoop


@dataclass(frozen=True)
class Script:
    body: Sequence
    text: str
    has_errors: bool = False
    heredocs: int = 0  # how many heredocs the command holds


# ---------------------------------------------------------------------------
# Parsing


@cache
def _parser() -> Parser | None:
    return grammar_parser("bash")


# Every byte of a multi-byte UTF-8 character becomes "_".  The grammars
# bundled with tree-sitter-languages crash (segfault, not an exception) on
# some non-ASCII input, e.g. "<<x\n$" followed by U+FF466; an ASCII word
# character of the same byte length tokenises the same way and keeps every
# offset, and all text is read from the original bytes.
_ASCII = bytes(range(128)) + b"_" * 128


def safe_parse(parser: Parser, data: bytes) -> Tree:
    """Parse ``data`` as the grammar sees it with non-ASCII bytes masked (offsets unchanged)."""
    return parser.parse(data.translate(_ASCII))


_MARKER = "__artifact_index_heredoc_{}__"


@dataclass
class _Heredoc:
    op_start: int
    delim_end: int
    cut_start: int
    cut_end: int
    body: Word | None


class _Source:
    """The bytes a tree was parsed from and the map back to the original command."""

    def __init__(
        self,
        data: bytes,
        original: bytes,
        segments: list[tuple[int, int, int, bool]],
        heredocs: list[Word | None] | None = None,
    ):
        self.data = data
        self.heredocs = heredocs or []
        self.original = original
        # (skeleton start, original start, original end, is placeholder), sorted by skeleton start
        self.segments = segments
        self.starts = [s[0] for s in segments]

    def text(self, node: TSNode) -> str:
        return self.data[node.start_byte:node.end_byte].decode("utf-8", "replace")

    def span(self, start: int, end: int) -> str:
        """Original text for the skeleton range ``[start, end)``."""
        if not self.segments:
            return self.data[start:end].decode("utf-8", "replace")
        return self.original[self.map(start, False):self.map(end, True)].decode("utf-8", "replace")

    def map(self, pos: int, is_end: bool) -> int:
        """The original offset of skeleton offset ``pos`` (a placeholder maps to its whole operator)."""
        if not self.segments:
            return pos
        i = bisect.bisect_right(self.starts, pos) - 1
        if i < 0:
            return pos
        skel, orig_start, orig_end, placeholder = self.segments[i]
        if placeholder:
            if pos == skel and not is_end:
                return orig_start
            return orig_end
        return min(orig_start + (pos - skel), orig_end)


_SYNTHETIC = b"__artifact_index_eof__"


def _heredoc_body_word(raw: str, quoted: bool, strip_tabs: bool) -> Word:
    """The text a heredoc feeds, with the expansions of an unquoted one kept as parts."""
    text = _strip_tabs(raw) if strip_tabs else raw
    if quoted or not any(ch in text for ch in "$`\\"):
        return Word((Lit(text, quoted=True),), raw)
    # Re-parse the body under a delimiter no line can start with, so the
    # grammar reports its expansions (see _find_heredocs on the grammar's
    # early-terminator bug).
    ts = _parser()
    body = text.encode("utf-8", "surrogatepass")
    header = b"cat <<" + _SYNTHETIC + b"\n"
    synthetic = header + body + _SYNTHETIC + b"\n"
    expansions: list[TSNode] = []
    if ts is not None:
        stack = [safe_parse(ts, synthetic).root_node]
        while stack:
            n = stack.pop()
            if n.type == "heredoc_body":
                expansions.extend(c for c in n.children if c.type in _EXPANSIONS)
            else:
                stack.extend(n.children)
    expansions.sort(key=lambda n: n.start_byte)
    helper = _Source(synthetic, synthetic, [])
    parts: list[Part] = []
    pos = len(header)
    stop = len(header) + len(body)
    for child in expansions:
        if child.start_byte < pos or child.end_byte > stop:
            continue
        parts.append(Lit(_heredoc_unescape(synthetic[pos:child.start_byte].decode("utf-8", "replace")), quoted=True))
        parts.extend(_parts(child, helper))
        pos = child.end_byte
    parts.append(Lit(_heredoc_unescape(synthetic[pos:stop].decode("utf-8", "replace")), quoted=True))
    return Word(tuple(p for p in parts if not (isinstance(p, Lit) and not p.text)), raw)


def _strip_tabs(text: str) -> str:
    return "\n".join(line.lstrip("\t") for line in text.split("\n"))


def _heredoc_unescape(text: str) -> str:
    """Backslash escapes of an unquoted heredoc: only ``\\$``, ``\\```, ``\\\\`` and line joins."""
    return _unescape(text, "$`\\\n")


def _unescape(text: str, escapable: str) -> str:
    """``text`` with a backslash before one of ``escapable`` removed (a backslash-newline joins lines)."""
    if "\\" not in text:
        return text
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text) and text[i + 1] in escapable:
            if text[i + 1] != "\n":
                out.append(text[i + 1])
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


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
    still tokenises the first operator.
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
        stack.extend(c for c in children if c.type not in ("heredoc_body", "heredoc_start", "heredoc_end"))
    found.sort(key=lambda item: item[0].start_byte)
    return found


def _find_heredocs(ts: Parser, src: bytes) -> tuple[list[_Heredoc], _Source, Tree]:
    """Locate heredocs one at a time, each on a skeleton with the earlier ones cut out.

    The grammar ends a heredoc at the first line that merely *starts* with
    the delimiter (``    except EOFError:`` ends an ``EOF`` heredoc), so the
    tree only says where each heredoc operator is; its body is found by
    bash's rule (the first line equal to the delimiter).  After each cut the
    rest is parsed again, because text after a wrongly ended body may have
    hidden the next heredoc.  Returns the heredocs and the final skeleton's
    source and tree.
    """
    found: list[_Heredoc] = []
    failed: set[int] = set()
    while True:
        data, segments = _skeleton(src, found) if found else (src, [])
        source = _Source(data, src, segments, [h.body for h in found])
        tree = safe_parse(ts, data)
        candidates = _heredoc_operators(tree.root_node) if len(found) < 64 else []
        pick = next((c for c in candidates if source.map(c[0].start_byte, False) not in failed), None)
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
        body_end, cut_end = _terminator(src, body_start, delimiter.encode("utf-8", "surrogatepass"), strip_tabs)
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


def _skeleton(src: bytes, heredocs: list[_Heredoc]) -> tuple[bytes, list[tuple[int, int, int, bool]]]:
    """``src`` with heredoc bodies cut and operators replaced by placeholders."""
    edits: list[tuple[int, int, bytes]] = []
    for i, h in enumerate(heredocs):
        edits.append((h.op_start, h.delim_end, ("< " + _MARKER.format(i)).encode()))
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


@lru_cache(maxsize=4096)
def parse_command(text: str) -> Script:
    """The model of a shell command (an empty sequence when no grammar is available)."""
    ts = _parser()
    if ts is None:
        return Script(Sequence(()), text, has_errors=True)
    original = text.encode("utf-8", "surrogatepass")
    if b"<<" in original:
        heredocs, source, tree = _find_heredocs(ts, original)
    else:
        heredocs, source, tree = [], _Source(original, original, []), safe_parse(ts, original)
    body = _Builder(source).statements(tree.root_node.children)
    return Script(body, text, has_errors=tree.root_node.has_error, heredocs=len(heredocs))


# ---------------------------------------------------------------------------
# Words

_EXPANSIONS = {
    "simple_expansion",
    "expansion",
    "command_substitution",
    "arithmetic_expansion",
    "process_substitution",
}

_ANSI_ESCAPES = {
    "n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
    "e": "\x1b", "E": "\x1b", "\\": "\\", "'": "'", '"': '"', "?": "?",
}


def _unquoted_parts(raw: str) -> list[Part]:
    """An unquoted word: a backslash quotes the next character; backslash-newline vanishes."""
    if "\\" not in raw:
        return [Lit(raw)]
    parts: list[Part] = []
    buf: list[str] = []
    i = 0
    while i < len(raw):
        ch = raw[i]
        if ch == "\\" and i + 1 < len(raw):
            if buf:
                parts.append(Lit("".join(buf)))
                buf = []
            if raw[i + 1] != "\n":
                parts.append(Lit(raw[i + 1], quoted=True))
            i += 2
            continue
        buf.append(ch)
        i += 1
    if buf:
        parts.append(Lit("".join(buf)))
    return parts


def _double_quoted(raw: str) -> str:
    """Inside double quotes a backslash escapes only ``$``, `````, ``"``, ``\\\\`` and a newline."""
    return _unescape(raw, '$`"\\\n')


def _ansi_c(raw: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(raw):
        ch = raw[i]
        if ch != "\\" or i + 1 >= len(raw):
            out.append(ch)
            i += 1
            continue
        nxt = raw[i + 1]
        if nxt in _ANSI_ESCAPES:
            out.append(_ANSI_ESCAPES[nxt])
            i += 2
        elif nxt in "xuU":
            width = {"x": 2, "u": 4, "U": 8}[nxt]
            digits = ""
            j = i + 2
            while j < len(raw) and len(digits) < width and raw[j] in "0123456789abcdefABCDEF":
                digits += raw[j]
                j += 1
            out.append(chr(int(digits, 16)) if digits else "\\" + nxt)
            i = j
        elif nxt in "01234567":
            digits = ""
            j = i + 1
            while j < len(raw) and len(digits) < 3 and raw[j] in "01234567":
                digits += raw[j]
                j += 1
            out.append(chr(int(digits, 8)))
            i = j
        else:
            out.append("\\" + nxt)
            i += 2
    return "".join(out)


def _parts(node: TSNode, source: _Source) -> list[Part]:
    kind = node.type
    raw = source.text(node)
    if kind in ("word", "number", "special_variable_name", "variable_name"):
        return _unquoted_parts(raw)
    if kind == "raw_string":
        return [Lit(raw[1:-1] if len(raw) >= 2 else "", quoted=True)]
    if kind == "ansi_c_string":
        return [Lit(_ansi_c(raw[2:-1] if len(raw) >= 3 else ""), quoted=True)]
    if kind in ("string", "translated_string"):
        return _string_parts(node, source)
    if kind == "concatenation":
        out: list[Part] = []
        for child in node.children:
            out.extend(_parts(child, source))
        return out
    if kind == "simple_expansion":
        name = raw[1:]
        if name.isidentifier():
            return [Var(name)]
        return [Opaque(raw)]
    if kind == "expansion":
        inner = raw[2:-1] if raw.startswith("${") and raw.endswith("}") else ""
        if inner.isidentifier():
            return [Var(inner)]
        return [Opaque(raw)]
    if kind == "command_substitution":
        return [Sub(_Builder(source).statements(_inner(node)), raw)]
    if kind == "process_substitution":
        return [Sub(_Builder(source).statements(_inner(node)), raw, process=True)]
    if not node.is_named:
        return [Lit(raw)]
    return [Opaque(raw)]


def _inner(node: TSNode) -> list[TSNode]:
    return [c for c in node.children if c.type not in ("$(", ")", "`", "<(", ">(")]


def _string_parts(node: TSNode, source: _Source) -> list[Part]:
    """A double-quoted string: literal gaps between the expansions it holds."""
    out: list[Part] = []
    data = source.data
    start = node.start_byte
    end = node.end_byte
    # Skip the opening `"` (or `$"`) and the closing `"`.
    first = node.children[0] if node.children else None
    last = node.children[-1] if node.children else None
    pos = first.end_byte if first is not None and first.type in ('"', '$"') else start
    stop = last.start_byte if last is not None and last.type == '"' and last is not first else end
    for child in node.children:
        if child.type not in _EXPANSIONS:
            continue
        if child.start_byte > pos:
            out.append(Lit(_double_quoted(data[pos:child.start_byte].decode("utf-8", "replace")), quoted=True))
        out.extend(_parts(child, source))
        pos = child.end_byte
    if stop > pos:
        out.append(Lit(_double_quoted(data[pos:stop].decode("utf-8", "replace")), quoted=True))
    if not out:
        out.append(Lit("", quoted=True))
    return out


def _word(node: TSNode, source: _Source) -> Word:
    return Word(tuple(_parts(node, source)), source.span(node.start_byte, node.end_byte))


# ---------------------------------------------------------------------------
# Statements

_WORD_TYPES = {
    "word", "string", "raw_string", "ansi_c_string", "translated_string", "concatenation",
    "simple_expansion", "expansion", "command_substitution", "number",
    "process_substitution", "arithmetic_expansion",
}
_REDIRECT_TYPES = {"file_redirect", "heredoc_redirect", "herestring_redirect"}
_CONDITIONALS = {
    "if_statement": "if",
    "while_statement": "while",
    "case_statement": "case",
    "c_style_for_statement": "for",
}
_SEPARATORS = {";", "&", ";;", "\n"}


class _Builder:
    def __init__(self, source: _Source):
        self.source = source
        self.heredocs = source.heredocs

    def statements(self, nodes: list[TSNode]) -> Sequence:
        items: list[Node] = []
        operators: list[str] = []
        for n in nodes:
            if n.type in _SEPARATORS:
                if items and len(operators) == len(items) - 1:
                    operators.append("&" if n.type == "&" else ";")
                continue
            converted = self.node(n)
            if converted is None:
                continue
            if len(operators) < len(items):
                operators.append(";")
            if isinstance(converted, Sequence) and converted.items:
                # Lists are left-associative with equal precedence, so `a; b && c`
                # behaves as the flat list a ; b && c.
                items.extend(converted.items)
                operators.extend(converted.operators)
            else:
                items.append(converted)
        del operators[max(len(items) - 1, 0):]
        return Sequence(tuple(items), tuple(operators))

    def node(self, n: TSNode) -> Node | None:
        kind = n.type
        if kind == "command":
            return self.command(n, [])
        if kind == "redirected_statement":
            return self.redirected(n)
        if kind == "list":
            return self.flat_list(n)
        if kind == "pipeline":
            cmds = [c for c in (self.node(ch) for ch in n.children if ch.type not in ("|", "|&")) if c]
            return Pipeline(tuple(cmds)) if len(cmds) != 1 else cmds[0]
        if kind == "negated_command":
            inner = [c for c in (self.node(ch) for ch in n.children if ch.type != "!") if c]
            return Pipeline(tuple(inner), negated=True) if inner else None
        if kind == "subshell":
            return Subshell(self.statements([c for c in n.children if c.type not in ("(", ")")]))
        if kind == "compound_statement":
            return Group(self.statements([c for c in n.children if c.type not in ("{", "}")]))
        if kind in _CONDITIONALS:
            return Conditional(_CONDITIONALS[kind], self.statements(self._flatten_clauses(n)))
        if kind == "for_statement":
            return self.for_loop(n)
        if kind in ("variable_assignment", "variable_assignments"):
            assignments = self.assignments([n] if kind == "variable_assignment" else n.children)
            return Command((), assignments, (), self.source.span(n.start_byte, n.end_byte))
        if kind == "declaration_command":
            return self.declaration(n)
        if kind in ("unset_command", "test_command"):
            return Command((Word((Lit(kind.split("_")[0]),), kind),), (), (), self.source.span(n.start_byte, n.end_byte))
        if kind == "ERROR":
            # Salvage the statements the parser could still recognise.
            salvaged = self.statements(n.children)
            return salvaged if salvaged.items else None
        return None

    def _flatten_clauses(self, n: TSNode) -> list[TSNode]:
        out: list[TSNode] = []
        for c in n.children:
            if c.type in ("elif_clause", "else_clause", "case_item", "do_group", "compound_statement"):
                out.extend(self._flatten_clauses(c))
            elif c.is_named and c.type not in ("word", "comment", "extglob_pattern"):
                out.append(c)
        return out

    def flat_list(self, n: TSNode) -> Sequence:
        """``a && b || c``: the grammar nests lists on the left; walk them without recursion."""
        items: list[Node] = []
        operators: list[str] = []
        stack = [iter(n.children)]
        while stack:
            c = next(stack[-1], None)
            if c is None:
                stack.pop()
                continue
            if c.type == "list":
                stack.append(iter(c.children))
                continue
            if c.type in ("&&", "||"):
                operators.append(c.type)
                continue
            converted = self.node(c)
            if converted is None:
                continue
            if len(operators) < len(items):
                operators.append(";")
            if isinstance(converted, Sequence):
                items.extend(converted.items)
                operators.extend(converted.operators)
            else:
                items.append(converted)
        del operators[max(len(items) - 1, 0):]
        return Sequence(tuple(items), tuple(operators))

    def for_loop(self, n: TSNode) -> ForLoop | None:
        var = n.child_by_field_name("variable")
        body = n.child_by_field_name("body")
        if var is None or body is None:
            return None
        values = [c for c in n.children_by_field_name("value")]
        has_in = any(c.type == "in" for c in n.children)
        words = tuple(_word(v, self.source) for v in values) if has_in else None
        stmts = self.statements([c for c in body.children if c.type not in ("do", "done")])
        return ForLoop(self.source.text(var), words, stmts)

    def assignments(self, nodes: list[TSNode]) -> tuple[tuple[str, Word], ...]:
        out: list[tuple[str, Word]] = []
        for a in nodes:
            if a.type != "variable_assignment":
                continue
            name = a.child_by_field_name("name")
            value = a.child_by_field_name("value")
            if name is None:
                continue
            word = _word(value, self.source) if value is not None else Word((Lit(""),), "")
            out.append((self.source.text(name), word))
        return tuple(out)

    def declaration(self, n: TSNode) -> Command:
        keyword = n.children[0] if n.children else None
        argv: list[Word] = []
        if keyword is not None:
            argv.append(Word((Lit(self.source.text(keyword)),), self.source.text(keyword)))
        for c in n.children[1:]:
            if c.type in _WORD_TYPES:
                argv.append(_word(c, self.source))
        return Command(
            tuple(argv),
            self.assignments(list(n.children)),
            (),
            self.source.span(n.start_byte, n.end_byte),
        )

    def command(self, n: TSNode, extra: list[Redirect]) -> Command:
        argv: list[Word] = []
        assignments: list[TSNode] = []
        redirects: list[Redirect] = []
        for c in n.children:
            if c.type == "variable_assignment":
                assignments.append(c)
            elif c.type == "command_name":
                inner = c.children[0] if c.children else c
                argv.append(_word(inner, self.source))
            elif c.type in _REDIRECT_TYPES:
                r = self.redirect(c)
                if r is not None:
                    redirects.append(r)
            elif c.type in _WORD_TYPES:
                argv.append(_word(c, self.source))
        return Command(
            tuple(argv),
            self.assignments(assignments),
            tuple(redirects + extra),
            self.source.span(n.start_byte, n.end_byte),
        )

    def redirected(self, n: TSNode) -> Node | None:
        redirects = [r for r in (self.redirect(c) for c in n.children_by_field_name("redirect")) if r]
        body_node = n.child_by_field_name("body")
        end = n.end_byte
        if body_node is None:
            # `> file` on its own truncates or creates the file.
            return Command((), (), tuple(redirects), self.source.span(n.start_byte, end))
        if body_node.type == "command":
            cmd = self.command(body_node, redirects)
            return Command(cmd.argv, cmd.assignments, cmd.redirects, self.source.span(n.start_byte, end))
        body = self.node(body_node)
        if body is None:
            return None
        last = body_node
        while last.type in ("list", "pipeline", "redirected_statement") and last.named_children:
            inner = [c for c in last.named_children if c.type not in _REDIRECT_TYPES]
            if not inner:
                break
            last = inner[-1]
        return _attach(body, tuple(redirects), self.source.span(last.start_byte, end))

    def redirect(self, n: TSNode) -> Redirect | None:
        if n.type == "herestring_redirect":
            words = [c for c in n.children if c.type in _WORD_TYPES]
            return Redirect("<<<", body=_word(words[0], self.source) if words else None)
        if n.type == "heredoc_redirect":
            return Redirect("<<")  # a heredoc the first pass could not cut out
        fd_node = n.child_by_field_name("descriptor")
        fd = int(self.source.text(fd_node)) if fd_node is not None and self.source.text(fd_node).isdigit() else None
        op = next((c.type for c in n.children if not c.is_named), None)
        targets = n.children_by_field_name("destination")
        if op is None:
            return None
        target = _word(targets[0], self.source) if targets else None
        if op == "<" and target is not None:
            literal = target.literal or ""
            if literal.startswith("__artifact_index_heredoc_") and literal.endswith("__"):
                index = literal[len("__artifact_index_heredoc_"):-2]
                if index.isdigit() and int(index) < len(self.heredocs):
                    return Redirect("<<", fd=fd, body=self.heredocs[int(index)])
        return Redirect(op, fd=fd, target=target)


def _attach(body: Node, redirects: tuple[Redirect, ...], text: str) -> Node:
    """Bind redirections to ``body`` the way bash does: to the last element of a list or pipeline."""
    if not redirects:
        return body
    if isinstance(body, Sequence) and body.items:
        return Sequence(body.items[:-1] + (_attach(body.items[-1], redirects, text),), body.operators)
    if isinstance(body, Pipeline) and body.commands and not body.negated:
        return Pipeline(body.commands[:-1] + (_attach(body.commands[-1], redirects, text),))
    if isinstance(body, Command):
        return Command(body.argv, body.assignments, body.redirects + redirects, text)
    if isinstance(body, Subshell):
        return Subshell(body.body, body.redirects + redirects)
    if isinstance(body, Group):
        return Group(body.body, body.redirects + redirects)
    if isinstance(body, Conditional):
        return Conditional(body.kind, body.body, body.redirects + redirects)
    if isinstance(body, ForLoop):
        return ForLoop(body.variable, body.values, body.body, body.redirects + redirects)
    return body
