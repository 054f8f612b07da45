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

import textwrap
from collections.abc import Iterable, Sequence
from typing import Literal, cast

from pydantic import BaseModel, ConfigDict

from artifact_index.facts.symbols.extraction import (
    MAX_SOURCE_CHARS,
    Found,
    SymbolKind,
    analyze,
    usable,
)
from artifact_index.facts.symbols.languages import language_for_path, tags_query

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

ChangeKind = Literal["added", "modified", "removed"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


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


def _definition(found: Found) -> Definition:
    return Definition.model_construct(
        name=found.name,
        kind=cast(SymbolKind, found.kind),
        container=found.container,
        start_line=found.start_line,
        end_line=found.end_line,
    )


def definitions(source: str, language: str) -> list[Definition]:
    """Every definition in ``source``, in source order (scope-only kinds left out)."""
    return [_definition(f) for f in analyze(source, language) if not f.scope_only]


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
    before, after = _normalize(before), _normalize(after)
    if not all(usable(side) for side in (before, after) if side is not None):
        # Comparing against a side that cannot be parsed would report every
        # definition of the other side as added or removed.
        return []
    old = analyze(before, language, path=path) if before is not None else []
    new = analyze(after, language, path=path) if after is not None else []
    return _compare(old, new)


def _normalize(text: str | None) -> str | None:
    return text.replace("\r\n", "\n") if text is not None else None


def _compare(old: Sequence[Found], new: Sequence[Found]) -> list[SymbolChange]:
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


def _texts_by_key(found: Iterable[Found]) -> dict[tuple[str, str, str | None], list[str]]:
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
    old_text = _normalize(old) or ""
    new_text = _normalize(new) or ""
    if language is None or old_text == new_text:
        return []
    if not (usable(old_text) and usable(new_text)):
        return []
    context = _normalize(context)
    if context and usable(context):
        sides = _rebuild(context, old_text, new_text)
        if sides is not None:
            before, after = sides
            return _compare(
                analyze(before, language, path=path), analyze(after, language, path=path)
            )
    return _compare(
        analyze(textwrap.dedent(old_text), language),
        analyze(textwrap.dedent(new_text), language),
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
        _definition(f)
        for f in analyze(_normalize(source) or "", language, first_line, path=path)
        if not f.scope_only and f.start_line <= high and f.end_line >= low
    ]
