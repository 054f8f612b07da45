"""Definitions in source code, and which of them a change added, modified or removed.

Each language has one tree-sitter tags query, kept as package data in
``artifact_index/facts/symbols/queries/<language>-tags.scm`` and loaded with
:mod:`importlib.resources`.  The queries follow Aider's convention:

``@definition.<kind>``
    the node whose extent is the definition (its lines, its text);
``@name.definition.<kind>``
    the node naming it;
``@container``
    optional: a container named outside the definition's lexical nesting
    (a Go method's receiver type, the ``Foo`` of C++ ``void Foo::bar()``).

Kind ``impl`` (a Rust ``impl`` block, an Elixir ``defimpl``) is a scope only:
it names the container of what is inside it and is never reported itself.  A
query file may start with ``; inherits: <language>`` to include another
language's query (TypeScript extends JavaScript, C++ extends C).  When several
patterns capture the same name node, the widest definition node gives the
extent and the earliest pattern gives the kind, so a specific pattern (a
Kotlin ``enum class``) placed before a general one (any ``class``) wins.

Change detection compares definitions by identity ``(name, kind, container)``:
present only after a change means added, only before means removed, present on
both sides with different text means modified.  The text compared is the
definition's *own* text, with nested definitions cut out, so a changed method
reports the method and not its class.  Comparing texts rather than intersecting
:mod:`difflib` hunks with line ranges gives the same answer wherever the diff is
aligned well and avoids its alignment artefacts (an inserted function whose
first lines repeat the end of the previous one makes difflib report a hunk
inside the previous function), and a definition that only moved is not
reported.

Every public function returns an empty list rather than raising on input it
cannot use: an unknown language, text with NUL bytes, text over
:data:`MAX_SOURCE_CHARS` or nesting brackets a thousand deep.  A supported
language whose grammar is not installed raises
:class:`~artifact_index.exceptions.GrammarUnavailable`.
"""

from __future__ import annotations

import re
import textwrap
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from itertools import accumulate
from typing import Literal, cast, get_args

from pydantic import BaseModel, ConfigDict
from tree_sitter import Node, Query, QueryCursor

from artifact_index.facts.symbols import grammars
from artifact_index.facts.symbols.query_compat import compile_tags_query

__all__ = [
    "MAX_SOURCE_CHARS",
    "ChangeKind",
    "Definition",
    "SymbolChange",
    "SymbolKind",
    "changed_symbols",
    "definitions",
    "language_for_path",
    "symbols_in_edit",
    "symbols_in_range",
    "tags_query",
]

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

ChangeKind = Literal["added", "modified", "removed"]

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

_EXTENSIONS: dict[str, str] = {
    ".py": "python",
    ".pyi": "python",
    ".pyw": "python",
    ".js": "javascript",
    ".jsx": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".c++": "cpp",
    ".hh": "cpp",
    ".hpp": "cpp",
    ".hxx": "cpp",
    ".h++": "cpp",
    ".ipp": "cpp",
    ".inl": "cpp",
    ".cs": "c_sharp",
    ".rb": "ruby",
    ".rake": "ruby",
    ".gemspec": "ruby",
    ".php": "php",
    ".phtml": "php",
    ".kt": "kotlin",
    ".kts": "kotlin",
    ".sh": "bash",
    ".bash": "bash",
    ".zsh": "bash",
    ".ksh": "bash",
    ".ex": "elixir",
    ".exs": "elixir",
}

_FILENAMES: dict[str, str] = {
    "rakefile": "ruby",
    "gemfile": "ruby",
    "guardfile": "ruby",
    "vagrantfile": "ruby",
    ".bashrc": "bash",
    ".bash_profile": "bash",
    ".bash_aliases": "bash",
    ".profile": "bash",
    ".zshrc": "bash",
    ".zprofile": "bash",
}

_INHERITS = re.compile(r"\A\s*;\s*inherits:\s*([\w,\s]+?)\s*$", re.MULTILINE)


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Definition(_Model):
    """A named definition and the lines it spans (1-based, inclusive)."""

    name: str
    kind: SymbolKind
    container: str | None = None  # the enclosing class / impl / module / function
    start_line: int
    end_line: int


class SymbolChange(_Model):
    """A definition that a change added, modified or removed."""

    name: str
    kind: SymbolKind
    container: str | None = None
    change: ChangeKind


@dataclass(frozen=True, slots=True)
class _Found:
    """A definition or scope, with its text for change detection."""

    name: str
    kind: str  # a SymbolKind, or the scope-only "impl"
    container: str | None
    start_line: int
    end_line: int
    own_text: str  # the text without nested definitions, normalised

    @property
    def scope_only(self) -> bool:
        return self.kind == _SCOPE_ONLY

    @property
    def key(self) -> tuple[str, str, str | None]:
        return (self.name, self.kind, self.container)

    def definition(self) -> Definition:
        return Definition.model_construct(
            name=self.name,
            kind=cast(SymbolKind, self.kind),
            container=self.container,
            start_line=self.start_line,
            end_line=self.end_line,
        )


@dataclass(slots=True)
class _Raw:
    kind: str
    name: str
    start_byte: int
    end_byte: int
    start_row: int
    end_row: int
    pattern: int
    container: str | None
    parent: _Raw | None = None


# --- languages and queries ----------------------------------------------------


def language_for_path(path: str) -> str | None:
    """The grammar name for ``path`` (by extension or well-known file name), or None."""
    name = re.split(r"[\\/]", path)[-1].lower()
    if name in _FILENAMES:
        return _FILENAMES[name]
    dot = name.rfind(".")
    return _EXTENSIONS.get(name[dot:]) if dot > 0 else None


@cache
def _query_text(language: str, seen: frozenset[str] = frozenset()) -> str:
    if language in seen:
        raise ValueError(f"query inheritance cycle through {language}")
    text = resources.files("artifact_index.facts.symbols").joinpath("queries", f"{language}-tags.scm")
    source = text.read_text(encoding="utf-8")
    parts: list[str] = []
    match = _INHERITS.search(source.split("\n", 1)[0])
    if match:
        for parent in match.group(1).split(","):
            parts.append(_query_text(parent.strip(), seen | {language}))
    parts.append(source)
    return "\n".join(parts)


@cache
def tags_query(language: str) -> Query | None:
    """The compiled tags query for ``language``; None without a grammar or query file."""
    lang = grammars.language(language)
    if lang is None:
        return None
    try:
        text = _query_text(language)
    except FileNotFoundError:
        return None
    return compile_tags_query(lang, language, text)


# --- definitions ----------------------------------------------------------------


def definitions(source: str, language: str) -> list[Definition]:
    """Every definition in ``source``, in source order (scope-only kinds left out)."""
    return [f.definition() for f in _analyse(source, language) if not f.scope_only]


def _analyse(source: str, language: str, first_line: int = 1) -> Sequence[_Found]:
    if not _usable(source):
        return ()
    if len(source) <= _CACHED_CHARS:
        return _analyse_cached(source, language, first_line)
    return _parse(source, language, first_line)


# A file edited several times is analysed as the "after" of one edit and the
# "before" of the next: remember the last few results.
_CACHED_CHARS = 500_000


@lru_cache(maxsize=32)
def _analyse_cached(source: str, language: str, first_line: int) -> tuple[_Found, ...]:
    return _parse(source, language, first_line)


def _parse(source: str, language: str, first_line: int) -> tuple[_Found, ...]:
    query = tags_query(language)
    parser = grammars.parser(language)
    if query is None or parser is None:
        return ()
    data = source.encode("utf-8", "surrogatepass")
    tree = parser.parse(data)
    raws = _collect(QueryCursor(query).matches(tree.root_node), data)
    return tuple(_resolve(raws, data, first_line))


def _usable(source: str) -> bool:
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
            kind, name, start_byte, node.end_byte, start_row, end_row, pattern, container or None
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


def _extent(node: Node) -> Node:
    while node.parent is not None and node.parent.type in _WRAPPERS:
        node = node.parent
    return node


def _text(data: bytes, node: Node) -> str:
    return data[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _clean(name: str) -> str:
    return " ".join(name.split())


def _resolve(raws: list[_Raw], data: bytes, first_line: int) -> list[_Found]:
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
    found: list[_Found] = []
    for raw in raws:
        parent = raw.parent
        kind = raw.kind
        if kind == "function" and parent is not None and parent.kind in _CLASS_LIKE:
            kind = "method"
        container = raw.container or (parent.name if parent is not None else None)
        own = _own_text(data, raw, children.get(id(raw), []))
        start, end = raw.start_row + first_line, raw.end_row + first_line
        found.append(_Found(raw.name, kind, container, start, end, own))
    return found


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


# --- changes ------------------------------------------------------------------


def changed_symbols(before: str | None, after: str | None, path: str) -> list[SymbolChange]:
    """The definitions added, modified or removed between two full contents of ``path``.

    ``before=None`` means the file was created, ``after=None`` that it was
    deleted.  Definitions are matched by name, kind and container; added and
    modified ones come in the order of ``after``, removed ones after them.
    """
    language = language_for_path(path)
    if language is None or before == after:
        return []
    before, after = _normalise(before), _normalise(after)
    if not all(_usable(side) for side in (before, after) if side is not None):
        # Comparing against a side that cannot be parsed would report every
        # definition of the other side as added or removed.
        return []
    old = _analyse(before, language) if before is not None else []
    new = _analyse(after, language) if after is not None else []
    return _compare(old, new)


def _normalise(text: str | None) -> str | None:
    return text.replace("\r\n", "\n") if text is not None else None


def _compare(old: Sequence[_Found], new: Sequence[_Found]) -> list[SymbolChange]:
    old_texts = _texts_by_key(old)
    new_texts = _texts_by_key(new)
    changes: list[SymbolChange] = []
    for key, texts in new_texts.items():
        if key not in old_texts:
            changes.append(_change(key, "added"))
        elif sorted(texts) != sorted(old_texts[key]):
            changes.append(_change(key, "modified"))
    changes.extend(_change(key, "removed") for key in old_texts if key not in new_texts)
    return changes


def _texts_by_key(found: Iterable[_Found]) -> dict[tuple[str, str, str | None], list[str]]:
    texts: dict[tuple[str, str, str | None], list[str]] = {}
    for f in found:
        if not f.scope_only:
            texts.setdefault(f.key, []).append(f.own_text)
    return texts


def _change(key: tuple[str, str, str | None], change: ChangeKind) -> SymbolChange:
    name, kind, container = key
    return SymbolChange.model_construct(
        name=name, kind=cast(SymbolKind, kind), container=container, change=change
    )


def symbols_in_edit(
    old: str | None, new: str | None, path: str, context: str | None = None
) -> list[SymbolChange]:
    """The definitions an edit changed, when the full file contents are not known.

    When ``context`` (known file content around the edit, from before or after
    it) contains ``old`` or ``new``, the other side of that content is rebuilt
    by the replacement and compared like :func:`changed_symbols`, which places
    the change in its enclosing definitions.  Otherwise ``old`` and ``new``
    (either may be None or empty) are parsed on their own, tree-sitter
    recovering from the partial code an edit usually holds: definitions in
    ``new`` only are added, in ``old`` only removed, in both with different
    text modified.  An edit whose texts hold no definition and that cannot be
    placed in ``context`` gives no symbols rather than a guess.
    """
    language = language_for_path(path)
    old_text = _normalise(old) or ""
    new_text = _normalise(new) or ""
    if language is None or old_text == new_text:
        return []
    if not (_usable(old_text) and _usable(new_text)):
        return []
    context = _normalise(context)
    if context and _usable(context):
        sides = _rebuild(context, old_text, new_text)
        if sides is not None:
            before, after = sides
            return _compare(_analyse(before, language), _analyse(after, language))
    return _compare(
        _analyse(textwrap.dedent(old_text), language),
        _analyse(textwrap.dedent(new_text), language),
    )


def _rebuild(context: str, old: str, new: str) -> tuple[str, str] | None:
    """``context`` before and after the edit, or None when the edit is not found in it.

    Edits are written against the content before them, so ``old`` found in
    ``context`` makes it the "before" side, unless ``new`` is found too and
    contains ``old`` (an append: ``old`` is then inside ``new`` in the content
    after the edit).  Every occurrence is replaced, as a replace-all edit does;
    a single-occurrence edit finds only one.
    """
    has_old = bool(old.strip()) and old in context
    has_new = bool(new.strip()) and new in context
    if has_old and not (has_new and old in new):
        return context, context.replace(old, new)
    if has_new:
        return context.replace(new, old), context
    return None


def symbols_in_range(
    source: str,
    path: str,
    start_line: int | None,
    end_line: int | None,
    *,
    first_line: int = 1,
) -> list[Definition]:
    """The definitions that a read of lines ``start_line``..``end_line`` showed.

    ``None`` leaves that end of the window open.  ``source`` is what is known
    of the file; when it is only the window itself, ``first_line`` is the file
    line its first line has, so the results carry file line numbers.
    """
    language = language_for_path(path)
    if language is None:
        return []
    low = start_line if start_line is not None else first_line
    high = end_line if end_line is not None else first_line + source.count("\n")
    return [
        f.definition()
        for f in _analyse(_normalise(source) or "", language, first_line)
        if not f.scope_only and f.start_line <= high and f.end_line >= low
    ]
