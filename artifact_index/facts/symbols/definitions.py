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
from artifact_index.lazy_pattern import lazy_pattern

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
    "symbols_in_hunks",
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
    return _compare(old, new, language)


def _normalize(text: str | None) -> str | None:
    return text.replace("\r\n", "\n") if text is not None else None


# Languages whose indentation is part of the code: elsewhere a definition only re-indented (an
# enclosing `if` turned into a ternary around it) is the same definition.
_INDENTATION_MATTERS = frozenset({"python"})


def _differ(old: list[str], new: list[str], language: str) -> bool:
    """Whether a definition's texts on the two sides differ, as its language reads them."""
    if language not in _INDENTATION_MATTERS:
        old, new = [_unindented(t) for t in old], [_unindented(t) for t in new]
    return sorted(old) != sorted(new)


def _unindented(text: str) -> str:
    return "\n".join(line.strip() for line in text.splitlines())


def _compare(old: Sequence[Found], new: Sequence[Found], language: str) -> list[SymbolChange]:
    old_texts = _texts_by_key(old)
    new_texts = _texts_by_key(new)
    changes: list[SymbolChange] = []
    for key, texts in new_texts.items():
        if key not in old_texts:
            changes.append(_change(key, "added"))
        elif _differ(texts, old_texts[key], language):
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
                analyze(before, language, path=path),
                analyze(after, language, path=path),
                language,
            )
    return _compare_fragments(textwrap.dedent(old_text), textwrap.dedent(new_text), language)


def symbols_in_hunks(
    hunks: Sequence[tuple[str, str]], path: str, context: str | None = None
) -> list[SymbolChange]:
    """The definitions a diff changed, from its hunks' (old, new) texts, when the full contents are not known.

    Each hunk is compared on its own (:func:`symbols_in_edit`): joined, the hunks' texts read as
    one piece of code whose definitions run from one hunk into the next (a string a hunk opens
    swallows the hunks after it; a method of one hunk becomes a member of a type of the one
    before).  A definition that one hunk adds and another removes moved: modified.
    """
    merged: dict[tuple[str, str, str | None], ChangeKind] = {}
    for old, new in hunks:
        for change in symbols_in_edit(old, new, path, context=context):
            key = (change.name, change.kind, change.container)
            seen = merged.get(key)
            if seen is None or seen == "modified":
                merged[key] = change.change
            elif seen != change.change and change.change != "modified":
                merged[key] = "modified"
    changes = [_change(key, kind) for key, kind in merged.items() if kind != "removed"]
    return changes + [_change(key, kind) for key, kind in merged.items() if kind == "removed"]


# --- an edit's texts on their own ---------------------------------------------


def _compare_fragments(old: str, new: str, language: str) -> list[SymbolChange]:
    """What an edit's ``old`` and ``new`` texts say of the definitions they hold, parsed on their own.

    Each text is usually a piece of a file: tree-sitter recovers from it, but a piece cut inside a
    definition (an old text that stops before a component's closing brace, a diff's context that
    ends on a function's first line) parses differently on the two sides.  What is certain is what
    the texts show line by line, so:

    * a definition found on both sides under containers that differ only because one side lost
      its enclosing definition to the cut (``validate`` against ``SignUpForm.validate``) is one
      definition, named as the side that found its container names it;
    * a definition one side found and the other did not is added (or removed) only when the other
      text does not hold its first line either, as far as that side's own definitions do not
      account for it; held there (an unchanged line of context, a signature whose parameters
      changed), it was there before and after: modified when its lines changed, else unchanged.
    """
    old_found = [f for f in analyze(_closed(old, language), language) if not f.scope_only]
    new_found = [f for f in analyze(_closed(new, language), language) if not f.scope_only]
    old_texts = _texts_by_key(old_found)
    new_texts = _texts_by_key(new_found)
    renamed = _lost_containers(old_texts, new_texts)
    changes: list[SymbolChange] = []
    old_lines = _stripped_lines(old)
    new_lines = _stripped_lines(new)
    for found in _first_of_each(new_found):
        key = found.key
        before = old_texts.get(renamed.get(key, key))
        if before is not None:
            if _differ(new_texts[key], before, language):
                changes.append(_change(key, "modified"))
            continue
        held = _held(found, old_lines, old_found)
        if held is None:
            changes.append(_change(key, "added"))
        elif not held:
            changes.append(_change(key, "modified"))
    matched = set(renamed.values())
    for found in _first_of_each(old_found):
        key = found.key
        if key in new_texts or key in matched:
            continue
        held = _held(found, new_lines, new_found)
        if held is None:
            changes.append(_change(key, "removed"))
        elif not held:
            changes.append(_change(key, "modified"))
    return changes


# Languages whose blocks close with brackets: a piece cut inside one is closed before parsing.
_BRACKETED = frozenset(
    {
        "javascript",
        "typescript",
        "tsx",
        "go",
        "rust",
        "java",
        "c",
        "cpp",
        "c_sharp",
        "php",
        "kotlin",
    }
)
# What a bracket count skips: comments and string literals (a string left open ends at its line).
_SKIPPED = r"//[^\n]*|/\*.*?(?:\*/|\Z)|\"(?:\\.|[^\"\\\n])*\"?|`(?:\\.|[^`\\])*`?|"
_BRACKETS_OUTSIDE_LITERALS = lazy_pattern(_SKIPPED + r"'(?:\\.|[^'\\\n])*'?|[()\[\]{}]", re.DOTALL)
# In Rust a quote starts a character (`'{'`) or a lifetime (`&'a str`), never a string.
_RUST_BRACKETS_OUTSIDE_LITERALS = lazy_pattern(
    _SKIPPED + r"'(?:\\[^']{1,8}|[^'\\\n])'|[()\[\]{}]", re.DOTALL
)
_CLOSING = {"(": ")", "[": "]", "{": "}"}


def _closed(text: str, language: str) -> str:
    """``text`` with the brackets it leaves open closed at its end.

    An edit's piece that stops inside a function (a diff hunk ending three lines into its body)
    parses as no function at all: closed, it parses as the function it begins, with the lines
    the piece shows.  Left as it is when the count cannot be trusted: a literal left open (a
    quote inside a regular expression) or a bracket closing another kind than the one open.
    Closers with nothing open are the ends of blocks opened before the piece.
    """
    if language not in _BRACKETED:
        return text
    open_brackets: list[str] = []
    skipped = _RUST_BRACKETS_OUTSIDE_LITERALS if language == "rust" else _BRACKETS_OUTSIDE_LITERALS
    for token in skipped.finditer(text):
        found = token.group(0)
        if found in _CLOSING:
            open_brackets.append(found)
        elif found in (")", "]", "}"):
            if open_brackets and _CLOSING[open_brackets[-1]] != found:
                return text
            if open_brackets:
                open_brackets.pop()
        elif found[0] in "\"'`" and (len(found) < 2 or found[-1] != found[0]):
            return text
    if not open_brackets:
        return text
    return text + "\n" + "".join(_CLOSING[b] for b in reversed(open_brackets)) + "\n"


def _first_of_each(found: Sequence[Found]) -> list[Found]:
    """Each key's first definition, in source order."""
    first: dict[tuple[str, str, str | None], Found] = {}
    for f in found:
        first.setdefault(f.key, f)
    return list(first.values())


def _lost_containers(
    old: dict[tuple[str, str, str | None], list[str]],
    new: dict[tuple[str, str, str | None], list[str]],
) -> dict[tuple[str, str, str | None], tuple[str, str, str | None]]:
    """New key -> old key, for a definition one side found with no container and the other inside one.

    Only a name found once on each side is paired: with two, which is which is not known.
    """
    only_old = [k for k in old if k not in new]
    only_new = [k for k in new if k not in old]
    pairs: dict[tuple[str, str, str | None], tuple[str, str, str | None]] = {}
    for key in only_new:
        same = [k for k in only_old if k[0] == key[0] and _same_kind(k[1], key[1])]
        if len(same) != 1 or sum(k[0] == key[0] for k in only_new) != 1:
            continue
        other = same[0]
        if (other[2] is None) != (key[2] is None):
            pairs[key] = other
    return pairs


def _same_kind(a: str, b: str) -> bool:
    # A function inside a class is a method: losing the class makes it a function.
    return a == b or {a, b} == {"function", "method"}


def _stripped_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def _head(found: Found) -> str | None:
    """The first line of a definition that names it (its signature's first line), stripped."""
    for line in found.own_text.splitlines():
        if _names_at(line, found.name) is not None:
            return line.strip()
    return None


def _names_at(line: str, name: str) -> int | None:
    """Where ``name`` ends in ``line`` as a whole word, or None."""
    start = line.find(name)
    while start != -1:
        end = start + len(name)
        before = line[start - 1] if start else ""
        after = line[end] if end < len(line) else ""
        if not _word(before) and not _word(after):
            return end
        start = line.find(name, start + 1)
    return None


def _word(char: str) -> bool:
    return bool(char) and (char.isalnum() or char in "_$")


def _held(found: Found, other_lines: Sequence[str], other_found: Sequence[Found]) -> bool | None:
    """Whether the other text holds ``found``: None when it does not, else whether unchanged there.

    Held: a line of the other text starts with the definition's first line up to its name
    (``func snapshotSource``, ``export const SignUpForm``, ``def dns_dir``), more such lines than
    the other side's own definitions start with it.  Unchanged: every line of the definition is
    there, in order.
    """
    head = _head(found)
    if head is None:
        return None
    end = _names_at(head, found.name)
    assert end is not None
    prefix = head[:end]
    # A head that starts with the bare name (a class's method, `reset() {`) is told from a call
    # (`reset();`) by opening a body as it does.
    bare = prefix == found.name
    lines = sum(
        _starts(line, prefix) and (not bare or line.endswith(("{", ":", "=>")))
        for line in other_lines
    )
    own = sum(1 for f in other_found if (h := _head(f)) is not None and _starts(h, prefix))
    if lines <= own:
        return None
    return _in_order(_stripped_lines(found.own_text), other_lines)


def _starts(line: str, prefix: str) -> bool:
    return line.startswith(prefix) and not _word(line[len(prefix) : len(prefix) + 1])


def _in_order(wanted: Sequence[str], lines: Sequence[str]) -> bool:
    """Whether ``lines`` hold every line of ``wanted`` in order; closers alone (``}``, ``});``, the
    ends :func:`_closed` may have added) are layout and left out."""
    remaining = iter(lines)
    return all(any(line == w for line in remaining) for w in wanted if not _CLOSERS_ONLY.match(w))


_CLOSERS_ONLY = lazy_pattern(r"^[)\]}\s;,]*$")


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
