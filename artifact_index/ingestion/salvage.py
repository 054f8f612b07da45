"""Reading what can be read of a damaged JSON document.

A transcript saved as one JSON document (an OpenCode export, a Cline
history, a SWE-agent trajectory) is lost whole to a JSON parser by one bad
byte, a cut, or one field nested deeper than any reader goes.  Here the
damage is repaired one place at a time, where the parser stopped:

- a single character is tried as the structural character it most likely
  replaced (``}``, ``]``, ``,``, ``:``, ``"``) or as nothing, and kept when
  the parser then gets past the damaged element;
- otherwise the damaged element (an array item, or an object member with
  its key) is skipped, and reading goes on with its next sibling;
- a document that ends early (a cut) keeps everything before the last
  element it began, and is closed there;
- a field nested deeper than :data:`MAX_DEPTH` is skipped.

Every repair is reported with its line, so what was skipped is counted.
Repairs keep the text's length and line breaks (a skipped element becomes
spaces), so a repair's line is the line in the file.  Finding elements
relies on a fact of JSON: a string never holds a raw line break, so a
pretty-printed document is re-synchronized at every line even when a
damaged quote throws the line it is on out of step.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["MAX_DEPTH", "Repair", "Salvaged", "loads", "nested_deeper", "salvage_document"]

# Deeper values are skipped on every Python alike (3.11's parser gives up near 1,000 levels,
# 3.13's does not), so no recursive walk over a record can exhaust the stack later.
MAX_DEPTH = 512

# Repairs past this many end the document at the next damage: a text this damaged is
# something other than a JSON document, and each repair parses the whole text again.
_MAX_REPAIRS = 64

# A string (possibly cut at its line's end) or a structural character.
_TOKEN = lazy_pattern(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"?|[\[\]{},]')
_CLOSER = {"{": "}", "[": "]"}
_STAND_INS = (" ", "}", "]", ",", '"', ":")


@dataclass(frozen=True)
class Repair:
    """One place where the document was damaged, and what reading did there."""

    line: int
    reason: str


@dataclass(frozen=True)
class Salvaged:
    """What could be read of a damaged document (None: nothing), the repairs it took, and its first damage."""

    value: Any | None
    repairs: tuple[Repair, ...]
    first_damage: str


@dataclass
class _Frame:
    """An open array or object: where its current element starts, and the comma before it."""

    opener: str
    element: int
    comma: int | None = None


class _Text:
    """The document being repaired: same length as the original, so positions keep their lines."""

    def __init__(self, text: str) -> None:
        self.chars = text
        self.tail = ""  # closing brackets added after a cut

    @property
    def whole(self) -> str:
        return self.chars + self.tail

    def blank(self, start: int, end: int) -> str:
        """The text with ``[start, end)`` turned to spaces, line breaks kept."""
        gap = re.sub(r"[^\n]", " ", self.chars[start:end])
        return self.chars[:start] + gap + self.chars[end:]

    def line_of(self, position: int) -> int:
        return self.chars.count("\n", 0, min(position, len(self.chars))) + 1


# Raw control characters inside strings are read (strict=False): a stray byte is no reason to lose a document.
_DECODER = json.JSONDecoder(strict=False)


def loads(text: str) -> Any:
    """``text`` parsed as one JSON document, control characters in strings allowed."""
    return _DECODER.decode(text)


def salvage_document(text: str) -> Salvaged:
    """The value of the JSON document ``text``, repaired where damaged (a value of None: nothing could be read)."""
    work = _Text(text)
    repairs: list[Repair] = []
    first_damage: str | None = None
    while len(repairs) <= _MAX_REPAIRS:
        try:
            value = loads(work.whole)
        except RecursionError:
            deep = _too_deep_at(work.chars)
            if deep is None or len(repairs) >= _MAX_REPAIRS:
                return _result(None, repairs, first_damage or "it is nested too deeply to read")
            first_damage = (
                first_damage or f"a value at line {work.line_of(deep[0])} is nested too deeply"
            )
            repairs.append(_skip_deep(work, deep))
            continue
        except json.JSONDecodeError as exc:
            first_damage = first_damage or (
                f"it is damaged at line {exc.lineno} column {exc.colno} ({exc.msg})"
            )
            if exc.pos >= len(work.chars) and work.tail:
                return _result(None, repairs, first_damage)  # the closing brackets did not fit
            if exc.msg == "Extra data":
                # The document closed before its text ended: what followed is not read.
                value = _DECODER.raw_decode(work.whole)[0]
                repairs.append(
                    Repair(
                        exc.lineno,
                        f"the JSON document is damaged here ({exc.msg}); what came before was read, "
                        f"the rest ({_lines(work.chars.count(chr(10), exc.pos) + 1)}) was not",
                    )
                )
                return _result(value, repairs, first_damage)
            repair = _repair(work, exc, last=len(repairs) >= _MAX_REPAIRS)
            if repair is None:
                return _result(None, repairs, first_damage)
            repairs.append(repair)
            continue
        if not _may_nest_deeper(work.chars) or not nested_deeper(value, MAX_DEPTH):
            return _result(value, repairs, first_damage)
        deep = _too_deep_at(work.chars)
        if deep is None or len(repairs) >= _MAX_REPAIRS:
            return _result(None, repairs, first_damage or "it is nested too deeply to read")
        first_damage = (
            first_damage or f"a value at line {work.line_of(deep[0])} is nested too deeply"
        )
        repairs.append(_skip_deep(work, deep))
    return _result(None, repairs, first_damage)


def _result(value: Any, repairs: list[Repair], first_damage: str | None) -> Salvaged:
    return Salvaged(value, tuple(repairs), first_damage or "it could not be read")


def _repair(work: _Text, exc: json.JSONDecodeError, last: bool) -> Repair | None:
    """Change ``work`` where ``exc`` says the parser stopped; what was done, or None when nothing can be."""
    position = exc.pos
    stack = _frames_at(work.chars, position)
    if not stack:
        return None  # damage before the document opened, or after it closed
    frame = stack[-1]
    end = _element_end(work.chars, frame.element)
    line = work.line_of(position)
    where = f"the JSON document is damaged here ({exc.msg})"
    if end is None or last:
        return _cut(work, stack, position, line, where)
    if position < len(work.chars):
        for stand_in in _STAND_INS:
            trial = work.chars[:position] + stand_in + work.chars[position + 1 :]
            if _gets_past(trial + work.tail, end):
                work.chars = trial
                what = "skipped" if stand_in == " " else f"read as {stand_in!r}"
                return Repair(line, f"{where}; one character was {what}")
    start = frame.element if frame.comma is None else frame.comma
    if frame.comma is None and work.chars[end : end + 1] == ",":
        end += 1  # the first element goes with the comma after it
    trial = work.blank(start, end)
    if _gets_past(trial + work.tail, position):
        lines = work.chars.count("\n", start, end) + 1
        work.chars = trial
        return Repair(line, f"{where}; the damaged element was skipped ({_lines(lines)})")
    return _cut(work, stack, position, line, where)


def _cut(
    work: _Text,
    stack: list[_Frame],
    position: int,
    line: int,
    where: str,
) -> Repair:
    """End the document at the damage: closed right there if that reads, else before the element it is in."""
    closers = "".join(_CLOSER[frame.opener] for frame in reversed(stack))
    rest_lines = work.chars.count("\n", position) + 1
    ends_here = work.blank(position, len(work.chars))
    if _gets_past(ends_here + closers, len(work.chars) + len(closers)):
        work.chars, work.tail = ends_here, closers
    else:
        frame = stack[-1]
        start = frame.element if frame.comma is None else frame.comma
        work.chars, work.tail = work.blank(start, len(work.chars)), closers
    if rest_lines <= 1:
        return Repair(line, f"{where}; what came before was read")
    return Repair(
        line, f"{where}; what came before was read, the rest ({_lines(rest_lines)}) was not"
    )


def _skip_deep(work: _Text, deep: tuple[int, _Frame]) -> Repair:
    position, frame = deep
    start = frame.element if frame.comma is None else frame.comma
    end = _element_end(work.chars, frame.element)
    if end is None:
        end = len(work.chars)
    elif frame.comma is None and work.chars[end : end + 1] == ",":
        end += 1
    work.chars = work.blank(start, end)
    return Repair(
        work.line_of(position),
        f"a value nested too deeply to read (over {MAX_DEPTH} levels) was skipped",
    )


def _lines(count: int) -> str:
    return "1 line" if count == 1 else f"{count} lines"


def _gets_past(trial: str, position: int) -> bool:
    """Whether the parser reads ``trial`` whole, or stops only after ``position``."""
    try:
        loads(trial)
    except json.JSONDecodeError as exc:
        return exc.pos > position
    except RecursionError:
        return True  # past the damage: depth is repaired on its own
    return True


def _frames_at(text: str, position: int) -> list[_Frame]:
    """The arrays and objects open at ``position``, outermost first."""
    stack: list[_Frame] = []
    for token in _TOKEN.finditer(text, 0, position):
        mark = token.group()
        if mark[0] == '"':
            continue
        if mark in "[{":
            stack.append(_Frame(mark, token.end()))
        elif mark == ",":
            if stack:
                stack[-1].element, stack[-1].comma = token.end(), token.start()
        elif stack:
            stack.pop()
    return stack


def _element_end(text: str, start: int) -> int | None:
    """Where the element starting at ``start`` ends (its ``,`` or its container's closer); None at the end of text."""
    depth = 0
    for token in _TOKEN.finditer(text, start):
        mark = token.group()
        if mark[0] == '"':
            continue
        if mark in "[{":
            depth += 1
        elif depth == 0:
            return token.start()
        elif mark != ",":
            depth -= 1
    return None


def _too_deep_at(text: str) -> tuple[int, _Frame] | None:
    """The first bracket that opens level ``MAX_DEPTH + 1``, and the frame whose element holds it."""
    stack: list[_Frame] = []
    for token in _TOKEN.finditer(text):
        mark = token.group()
        if mark[0] == '"':
            continue
        if mark in "[{":
            if len(stack) == MAX_DEPTH:
                return token.start(), stack[-1]
            stack.append(_Frame(mark, token.end()))
        elif mark == ",":
            if stack:
                stack[-1].element, stack[-1].comma = token.end(), token.start()
        elif stack:
            stack.pop()
    return None


def _may_nest_deeper(text: str) -> bool:
    """Whether ``text`` has brackets enough to nest past :data:`MAX_DEPTH` (counted in C)."""
    return len(text) > MAX_DEPTH and text.count("[") + text.count("{") > MAX_DEPTH


def nested_deeper(value: Any, limit: int) -> bool:
    """Whether lists and objects nest more than ``limit`` deep in ``value`` (walked level by level)."""
    level = [value] if isinstance(value, dict | list) else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return True
        level = [
            item
            for container in level
            for item in (container.values() if isinstance(container, dict) else container)
            if isinstance(item, dict | list)
        ]
    return False
