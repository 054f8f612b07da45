"""From source text to its definitions, parsing each file once and each edit incrementally.

The text is parsed with tree-sitter, the language's tags query is matched
against the tree (see :mod:`artifact_index.facts.symbols.definitions` for its
conventions), and the matches become :class:`Found` definitions: nesting
resolved (a function inside a class is a method; the enclosing definition is
the container) and each with its own text, nested definitions cut out.

A long session edits the same files again and again, and a fresh parse costs
the size of the file each time.  So the last tree of each file (by path) is
kept, and the next version of that file is parsed incrementally: the bytes
that differ are found (the common prefix and suffix), the old tree is told
of the edit (``Tree.edit``) and tree-sitter reparses only what it touched.
The query then runs only over the top-level nodes around the change (the
edited bytes and the ranges whose structure changed); the definitions of
the other top-level nodes are carried over, moved by the edit's shift.  An
incremental parse whose tree holds a syntax error is redone from scratch, so
broken code is recovered exactly as a fresh parse would.  Reading a file
whose content is unchanged reuses its definitions.
"""

from __future__ import annotations

import threading
from array import array
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import TYPE_CHECKING, Literal, get_args

from artifact_index import grammars
from artifact_index.facts.symbols.languages import tags_query

if TYPE_CHECKING:
    from tree_sitter import Node, Parser, Tree

__all__ = ["MAX_SOURCE_CHARS", "Found", "SymbolKind", "analyze", "clear_caches", "usable"]

SymbolKind = Literal[
    "function",
    "method",
    "class",
    "interface",
    "struct",
    "enum",
    "union",
    "trait",
    "object",  # Kotlin object declarations
    "module",  # modules, namespaces, packages declared in code
    "type",  # type aliases and other named types
    "macro",
]

# Past this size a file is generated or data, not code anyone edits by hand;
# parsing it would cost time for symbols nobody reads.
MAX_SOURCE_CHARS = 4_000_000

_KINDS: frozenset[str] = frozenset(get_args(SymbolKind))
_SCOPE_ONLY = "impl"
# A function directly inside one of these is a method.
_CLASS_LIKE = frozenset(
    {"class", "interface", "struct", "enum", "union", "trait", "object", _SCOPE_ONLY}
)
# Nodes that wrap a definition and belong to it: a decorator or `export` line
# edited is the definition edited.
_WRAPPERS = frozenset(
    {"decorated_definition", "export_statement", "template_declaration", "ambient_declaration"}
)
# Sibling nodes written just before a definition that belong to it (Rust
# `#[derive(...)]`, `#[test]`).
_LEADING = frozenset({"attribute_item"})

# Results kept for texts up to this size: a file edited several times is
# analyzed as the "after" of one edit and the "before" of the next.
_CACHED_CHARS = 500_000
# A long session comes back to hundreds of files; definitions are small.
_TEXTS_KEPT = 512
# Files whose last tree is kept for incremental parsing.
_FILES_KEPT = 256


@dataclass(frozen=True, slots=True)
class Found:
    """A definition or scope, with its text for change detection."""

    name: str
    kind: str  # a SymbolKind, or the scope-only "impl"
    container: str | None
    start_line: int
    end_line: int
    own_text: str  # the text without nested definitions, normalized

    @property
    def scope_only(self) -> bool:
        return self.kind == _SCOPE_ONLY

    @property
    def key(self) -> tuple[str, str, str | None]:
        return (self.name, self.kind, self.container)

    def shifted(self, by_lines: int) -> Found:
        if not by_lines:
            return self
        return Found(
            self.name,
            self.kind,
            self.container,
            self.start_line + by_lines,
            self.end_line + by_lines,
            self.own_text,
        )


@dataclass(slots=True)
class _Raw:
    """One definition as the query matched it, before nesting is resolved."""

    kind: str
    name: str
    start_byte: int
    end_byte: int
    start_row: int
    end_row: int
    pattern: int
    container: str | None
    anchor: int  # where its name starts: which top-level node holds it
    parent: _Raw | None = None

    def shifted(self, by_bytes: int, by_rows: int) -> _Raw:
        return _Raw(
            self.kind,
            self.name,
            self.start_byte + by_bytes,
            self.end_byte + by_bytes,
            self.start_row + by_rows,
            self.end_row + by_rows,
            self.pattern,
            self.container,
            self.anchor + by_bytes,
        )


@dataclass
class _Parsed:
    """One version of one file: its text, tree and definitions."""

    text: str
    data: bytes
    tree: Tree
    raws: list[_Raw]
    found: tuple[Found, ...]


_texts: OrderedDict[tuple[str, str, int], tuple[Found, ...]] = OrderedDict()
_files: OrderedDict[tuple[str, str], _Parsed] = OrderedDict()
# A kept tree is edited in place when its file changes: one change at a time.
_lock = threading.Lock()


def clear_caches() -> None:
    """Forget every kept result and tree (after grammars or queries changed)."""
    with _lock:
        _texts.clear()
        _files.clear()


def analyze(
    source: str, language: str, first_line: int = 1, path: str | None = None
) -> Sequence[Found]:
    """The definitions and scopes of ``source``, in source order.

    ``path``: the file ``source`` is the whole content of, so that its next
    version can be parsed incrementally; leave it out for fragments.
    ``first_line``: the file line of the text's first line.
    """
    if not usable(source):
        return ()
    kept = len(source) <= _CACHED_CHARS
    key = (source, language, first_line)
    if kept:
        with _lock:
            found = _texts.get(key)
            if found is not None:
                _texts.move_to_end(key)
                return found
    if kept and path is not None and first_line == 1:
        with _lock:
            found = _analyze_file(path, source, language)
    else:
        parsed = _parse(source, language, first_line)
        found = parsed.found if parsed is not None else ()
    if kept:
        with _lock:
            _texts[key] = found
            if len(_texts) > _TEXTS_KEPT:
                _texts.popitem(last=False)
    return found


def _analyze_file(path: str, source: str, language: str) -> tuple[Found, ...]:
    """Definitions of the whole content of ``path``, from its last tree when there is one."""
    file = (path, language)
    previous = _files.pop(file, None)
    if previous is not None and previous.text == source:
        parsed: _Parsed | None = previous
    elif previous is not None:
        parsed = _reparse(previous, source, language)
    else:
        parsed = _parse(source, language, 1)
    if parsed is None:
        return ()
    _files[file] = parsed
    if len(_files) > _FILES_KEPT:
        _files.popitem(last=False)
    return parsed.found


def _parse(source: str, language: str, first_line: int) -> _Parsed | None:
    # Imported by the first parse, with the grammar (see artifact_index.grammars).
    from tree_sitter import QueryCursor

    query = tags_query(language)
    parser = grammars.parser(language)
    if query is None or parser is None:
        return None
    data = source.encode("utf-8", "surrogatepass")
    tree = _parse_bytes(parser, language, data)
    raws = _collect(QueryCursor(query).matches(tree.root_node), data)
    return _Parsed(source, data, tree, raws, tuple(_resolve(raws, data, first_line)))


def _reparse(previous: _Parsed, source: str, language: str) -> _Parsed | None:
    """``source`` parsed from ``previous``, the last version of the same file."""
    from tree_sitter import QueryCursor

    query = tags_query(language)
    parser = grammars.parser(language)
    if query is None or parser is None:
        return None
    old, data = previous.data, source.encode("utf-8", "surrogatepass")
    start = _common_prefix(old, data)
    suffix = _common_suffix(old, data, min(len(old), len(data)) - start)
    old_end, new_end = len(old) - suffix, len(data) - suffix
    tree = previous.tree
    old_end_point = _point(old, old_end)
    new_end_point = _point(data, new_end)
    tree.edit(
        start_byte=start,
        old_end_byte=old_end,
        new_end_byte=new_end,
        start_point=_point(old, start),
        old_end_point=old_end_point,
        new_end_point=new_end_point,
    )
    new_tree = _parse_bytes(parser, language, data, tree)
    if new_tree.root_node.has_error:
        return _parse(source, language, 1)
    low, high = start, new_end
    for changed in tree.changed_ranges(new_tree):
        low, high = min(low, changed.start_byte), max(high, changed.end_byte)
    low, high = _whole_top_level(new_tree.root_node.children, low, high)
    cursor = QueryCursor(query)
    cursor.set_byte_range(low, high)
    fresh = [
        raw
        for raw in _collect(cursor.matches(new_tree.root_node), data)
        if low <= raw.anchor < high
    ]
    fresh_found = _resolve(fresh, data, 1)
    # Definitions outside the reparsed top-level nodes keep their nesting and
    # text; those after it move by the edit's shift.
    by_bytes, by_rows = new_end - old_end, new_end_point[0] - old_end_point[0]
    raws, found = [], []
    for raw, definition in zip(previous.raws, previous.found, strict=True):
        if raw.anchor < low:
            raws.append(raw)
            found.append(definition)
    raws += fresh
    found += fresh_found
    for raw, definition in zip(previous.raws, previous.found, strict=True):
        if raw.anchor >= high - by_bytes:
            raws.append(raw.shifted(by_bytes, by_rows))
            found.append(definition.shifted(by_rows))
    return _Parsed(source, data, new_tree, raws, tuple(found))


def _parse_bytes(parser: Parser, language: str, data: bytes, old_tree: Tree | None = None) -> Tree:
    # The bash grammar crashes the process on some non-ASCII input (see
    # grammars.safe_parse); names are read from the original bytes all the same.
    if language == "bash":
        return grammars.safe_parse(parser, data, old_tree)
    return parser.parse(data) if old_tree is None else parser.parse(data, old_tree)


def _whole_top_level(children: list[Node], low: int, high: int) -> tuple[int, int]:
    """``low``..``high`` widened to the top-level nodes it touches (and a definition its attributes lead to)."""
    touched = [
        i for i, child in enumerate(children) if child.end_byte >= low and child.start_byte <= high
    ]
    if not touched:
        return low, high
    first, last = touched[0], touched[-1]
    while last + 1 < len(children) and children[last].type in _LEADING:
        last += 1
    return min(low, children[first].start_byte), max(high, children[last].end_byte)


def _common_prefix(a: bytes, b: bytes) -> int:
    """The length of the longest common prefix of ``a`` and ``b`` (memory compares, halving)."""
    left, right = memoryview(a), memoryview(b)
    low, high = 0, min(len(a), len(b))
    if left[:high] == right[:high]:
        return high
    while high - low > 1:  # left[:low] == right[:low], left[:high] != right[:high]
        middle = (low + high) // 2
        if left[low:middle] == right[low:middle]:
            low = middle
        else:
            high = middle
    return low


def _common_suffix(a: bytes, b: bytes, limit: int) -> int:
    """The length of the longest common suffix of ``a`` and ``b``, at most ``limit``."""
    left, right = memoryview(a), memoryview(b)
    low, high = 0, limit
    if left[len(a) - high :] == right[len(b) - high :]:
        return high
    while high - low > 1:  # the last ``low`` bytes agree, the last ``high`` do not
        middle = (low + high) // 2
        if left[len(a) - middle : len(a) - low] == right[len(b) - middle : len(b) - low]:
            low = middle
        else:
            high = middle
    return low


def _point(data: bytes, position: int) -> tuple[int, int]:
    """Row and byte column of ``position``."""
    return data.count(b"\n", 0, position), position - (data.rfind(b"\n", 0, position) + 1)


def usable(source: str) -> bool:
    """Whether ``source`` is worth parsing: text, not too large, not pathologically nested."""
    if len(source) > MAX_SOURCE_CHARS or "\x00" in source:
        return False
    # Query matching slows down with the square of the tree's depth (a file of
    # 60,000 "(" takes seconds); no hand-written code nests brackets this deep.
    data = source.encode("utf-8", "surrogatepass")
    if data.count(b"(") + data.count(b"[") + data.count(b"{") < _MAX_NESTING:
        return True
    steps = array("b", data.translate(_BRACKET_STEPS, _NOT_BRACKETS))
    return max(accumulate(steps), default=0) < _MAX_NESTING


_MAX_NESTING = 1000
_NOT_BRACKETS = bytes(range(256)).translate(None, b"()[]{}")
_BRACKET_STEPS = bytes.maketrans(b"([{)]}", b"\x01\x01\x01\xff\xff\xff")


def _collect(matches: Iterable[tuple[int, dict[str, list[Node]]]], data: bytes) -> list[_Raw]:
    by_name: dict[tuple[int, int], _Raw] = {}
    for pattern, captures in matches:
        kind = None
        for capture in captures:
            if capture.startswith("definition."):
                kind = capture.removeprefix("definition.")
        if kind is None or (kind not in _KINDS and kind != _SCOPE_ONLY):
            continue
        nodes = captures.get(f"definition.{kind}")
        names = captures.get(f"name.definition.{kind}")
        if not nodes or not names:
            continue
        name_node = names[0]
        name = _clean(_text(data, name_node))
        if not name:
            continue
        node = _extent(nodes[0])
        if _runtime_assignment(node):
            continue
        start_byte, start_row = node.start_byte, node.start_point.row
        leading = node.prev_named_sibling
        while leading is not None and leading.type in _LEADING:
            start_byte, start_row = leading.start_byte, leading.start_point.row
            leading = leading.prev_named_sibling
        end_row = node.end_point.row
        if node.end_point.column == 0 and end_row > start_row:
            end_row -= 1  # the node ends with its newline
        container_nodes = captures.get("container")
        container = _clean(_text(data, container_nodes[0])) if container_nodes else None
        raw = _Raw(
            kind,
            name,
            start_byte,
            node.end_byte,
            start_row,
            end_row,
            pattern,
            container or None,
            name_node.start_byte,
        )
        key = (name_node.start_byte, name_node.end_byte)
        previous = by_name.get(key)
        if previous is None:
            by_name[key] = raw
            continue
        if raw.pattern < previous.pattern:
            previous.kind, previous.pattern = raw.kind, raw.pattern
            previous.container = raw.container or previous.container
        if raw.end_byte - raw.start_byte > previous.end_byte - previous.start_byte:
            previous.start_byte, previous.end_byte = raw.start_byte, raw.end_byte
            previous.start_row, previous.end_row = raw.start_row, raw.end_row
    return list(by_name.values())


# Statement keywords: tree-sitter recovering from partial code (an edit's fragment of a class
# body) reads `if (x) { ... }` as a method named `if`; no definition worth naming has one.
_STATEMENTS = frozenset(
    {"if", "else", "for", "while", "do", "switch", "case", "catch", "try", "finally", "return"}
)


# Nodes whose body runs when called: an assignment in one runs then, it defines nothing of the file.
_FUNCTION_BODIES = frozenset(
    {
        "arrow_function",
        "function",
        "function_expression",
        "generator_function",
        "function_declaration",
        "generator_function_declaration",
        "method_definition",
    }
)


def _runtime_assignment(node: Node) -> bool:
    """Whether ``node`` stubs a member for a while inside a function: a patch, not a definition.

    ``Store.prototype.get = async () => stub`` in a test's callback, with the original kept
    (``const original = Store.prototype.get``) or put back (``finally { Store.prototype.get =
    original }``): the function names the member again.  A member assigned once in a callback
    (``window.deleteThought = function`` in a ``DOMContentLoaded`` handler, exposing it to the
    page) still defines, as do the file's top-level assignments, those in a function called
    where it is written and a constructor's own ``this.handler``.
    """
    if node.type != "expression_statement":
        return False
    assignment = node.named_children[0] if node.named_child_count else None
    if assignment is None or assignment.type != "assignment_expression":
        return False
    target = assignment.child_by_field_name("left")
    if target is None or target.type != "member_expression":
        return False
    holder = target.child_by_field_name("object")
    if holder is not None and holder.type == "this":
        return False
    parent = node.parent
    while parent is not None and parent.type not in _FUNCTION_BODIES:
        parent = parent.parent
    if parent is None or _called_where_written(parent):
        return False
    named, body = target.text, parent.text
    return named is not None and body is not None and body.count(named) > 1


def _called_where_written(function: Node) -> bool:
    outer = function.parent
    while outer is not None and outer.type == "parenthesized_expression":
        outer = outer.parent
    return (
        outer is not None
        and outer.type == "call_expression"
        and (outer.child_by_field_name("function") in (function, function.parent))
    )


def _extent(node: Node) -> Node:
    while node.parent is not None and node.parent.type in _WRAPPERS:
        node = node.parent
    return node


def _text(data: bytes, node: Node) -> str:
    return data[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _clean(name: str) -> str:
    return " ".join(name.split())


def _resolve(raws: list[_Raw], data: bytes, first_line: int) -> list[Found]:
    """The definitions of ``raws`` (sorted in place into source order, local properties dropped), in the same order."""
    raws[:] = [raw for raw in raws if raw.name not in _STATEMENTS]
    raws.sort(key=lambda r: (r.start_byte, -r.end_byte, r.pattern))
    children: dict[int, list[_Raw]] = {}
    stack: list[_Raw] = []
    for raw in raws:
        while stack and stack[-1].end_byte <= raw.start_byte:
            stack.pop()
        if stack and raw.end_byte <= stack[-1].end_byte:
            raw.parent = stack[-1]
            children.setdefault(id(stack[-1]), []).append(raw)
        stack.append(raw)
    # Dropped from ``raws`` too: a reparse keeps the two lists side by side.
    raws[:] = [raw for raw in raws if not _local_property(raw)]
    found: list[Found] = []
    for raw in raws:
        parent = raw.parent
        kind = raw.kind
        if kind == "function" and parent is not None and parent.kind in _CLASS_LIKE:
            kind = "method"
        container = raw.container or (parent.name if parent is not None else None)
        own = _own_text(data, raw, [c for c in children.get(id(raw), []) if not _local_property(c)])
        start, end = raw.start_row + first_line, raw.end_row + first_line
        found.append(Found(raw.name, kind, container, start, end, own))
    return found


def _local_property(raw: _Raw) -> bool:
    """Whether ``raw`` is a method of an object a function builds (``return {o, core: {info: () => {}}}``).

    Such a property is part of the function's body, not a definition of the file: told as the
    function's method (``mk.info``) it says something the code does not.
    """
    parent = raw.parent
    return raw.kind == "method" and parent is not None and parent.kind in ("function", "method")


def _own_text(data: bytes, raw: _Raw, nested: Sequence[_Raw]) -> str:
    pieces: list[bytes] = []
    position = raw.start_byte
    for child in nested:
        pieces.append(data[position : child.start_byte])
        position = max(position, child.end_byte)
    pieces.append(data[position : raw.end_byte])
    text = b"".join(pieces).decode("utf-8", "replace")
    # Blank lines, trailing spaces and the separators left where nested
    # definitions were cut out are layout, not a change to the definition.
    return "\n".join(line.rstrip() for line in text.splitlines() if line.strip(" \t;,"))
