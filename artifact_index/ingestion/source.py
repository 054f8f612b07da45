"""Reading a transcript file into text, one JSON document or JSON lines.

A :class:`Source` is read once and handed to format detection and then to
one adapter.  It never raises for a malformed line: the line is skipped and
recorded in :attr:`Source.skipped` with its number, so the caller can report
what was lost while still using everything else.
"""

from __future__ import annotations

import gzip
import json
import re
import sys
import zlib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from artifact_index.exceptions import BinaryInput, UnreadableInput

__all__ = ["Skipped", "Source", "parse_json_line", "read_source"]


@dataclass(frozen=True)
class Skipped:
    """A part of the input that could not be used, and why."""

    line: int | None
    reason: str


@dataclass
class Source:
    """The raw content of one transcript and its lazily parsed JSON views."""

    name: str
    text: str
    skipped: list[Skipped] = field(default_factory=list)
    damage: str | None = None  # why a JSON document could not be read whole, when it could not

    @cached_property
    def document(self) -> Any | None:
        """The whole text parsed as one JSON value, or None if it is not one.

        A JSON document that is cut off or damaged part-way gives what came
        before the damage (closed where it broke off), with the damage
        recorded in :attr:`skipped` and :attr:`damage`.
        """
        stripped = self.text.lstrip()
        if not stripped or stripped[0] not in "[{":
            return None
        try:
            return _without_lone_surrogates(json.loads(self.text), self.text)
        except RecursionError:
            self.damage = "it is nested too deeply to read"
            return None
        except json.JSONDecodeError as exc:
            # Several values, or lines of their own: JSON lines, not a damaged document.
            if exc.msg == "Extra data" or len(self.records) >= 2:
                return None
            self.damage = f"it is damaged at line {exc.lineno} column {exc.colno} ({exc.msg})"
            salvaged = _salvage(self.text, exc.pos)
            if salvaged is not None:
                self.skip(exc.lineno, f"the JSON document is damaged here ({exc.msg}); what came before was read")
            return salvaged

    @cached_property
    def _lines(self) -> tuple[list[tuple[int, Any]], list[Skipped]]:
        records: list[tuple[int, Any]] = []
        bad: list[Skipped] = []
        # Only "\n" ends a record: U+2028, U+2029 and U+0085 are ordinary characters inside one.
        for number, raw in enumerate(self.text.split("\n"), start=1):
            values, problem = parse_json_line(raw)
            records.extend((number, value) for value in values)
            if problem is not None:
                bad.append(Skipped(number, problem))
        return records, bad

    @property
    def records(self) -> list[tuple[int, Any]]:
        """JSON-lines view: ``(line number, value)`` for every parsable line."""
        return self._lines[0]

    @property
    def bad_lines(self) -> list[Skipped]:
        """Lines of the JSON-lines view that did not parse."""
        return self._lines[1]

    def looks_like_jsonl(self) -> bool:
        """True when most non-empty lines are JSON objects (a few bad ones allowed)."""
        if self.document is not None:
            return False
        good, bad = len(self.records), len(self.bad_lines)
        return good >= 2 and good >= 2 * bad and any(isinstance(r, dict) for _, r in self.records)

    def skip(self, line: int | None, reason: str) -> None:
        """Record that part of the input was not used."""
        self.skipped.append(Skipped(line, reason))


_LINE_SPACE = " \t\r\f\v"
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _without_lone_surrogates(value: Any, raw: str) -> Any:
    """``value`` with each lone surrogate (``\\ud83d`` from an emoji cut in half) as U+FFFD.

    Such a string cannot be written as UTF-8; Claude Code writes them when it
    cuts a tool output.  Only text whose raw form holds a surrogate escape is
    walked, so the common case costs one search.
    """
    if not _SURROGATE_ESCAPE.search(raw):
        return value
    # Iterative, so a deep (but parsable) record cannot exhaust the stack here.
    root = [value]
    stack: list[tuple[Any, Any]] = [(root, 0)]
    while stack:
        container, key = stack.pop()
        item = container[key]
        if isinstance(item, str):
            if _LONE_SURROGATE.search(item):
                container[key] = item.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        elif isinstance(item, dict):
            for name in list(item):
                if isinstance(name, str) and _LONE_SURROGATE.search(name):
                    item[_LONE_SURROGATE.sub("\ufffd", name)] = item.pop(name)
            stack.extend((item, name) for name in item)
        elif isinstance(item, list):
            stack.extend((item, position) for position in range(len(item)))
    return root[0]


_STRUCTURE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{},]')


def _salvage(text: str, damaged_at: int) -> Any | None:
    """The JSON value of ``text`` up to the last complete element before ``damaged_at``, closed; or None."""
    stack: list[str] = []
    cut: tuple[int, str] | None = None  # where to cut, and the brackets that close it there
    for token in _STRUCTURE.finditer(text, 0, damaged_at):
        mark = token.group()
        if mark in "[{":
            stack.append("]" if mark == "[" else "}")
            cut = (token.end(), "".join(reversed(stack)))
        elif mark in "]}":
            if not stack or stack.pop() != mark:
                return None
            if not stack:
                return None  # a complete value ended before the damage: trailing garbage, not a cut
            cut = (token.end(), "".join(reversed(stack)))
        elif mark == ",":
            cut = (token.start(), "".join(reversed(stack)))
    if cut is None:
        return None
    try:
        return _without_lone_surrogates(json.loads(text[: cut[0]] + cut[1]), text)
    except (json.JSONDecodeError, RecursionError):
        return None

def parse_json_line(raw: str) -> tuple[list[Any], str | None]:
    """The JSON values of one line of a JSON-lines file, or why it has none.

    A blank line has no value and no problem; a line holding several joined
    records (see :func:`_split_joined`) has them all.  A record nested too
    deeply is a problem; a lone surrogate in it becomes U+FFFD.
    """
    line = raw.strip(_LINE_SPACE)
    if not line:
        return [], None
    try:
        return [_without_lone_surrogates(json.loads(line), line)], None
    except RecursionError:
        return [], "nested too deeply to read"
    except json.JSONDecodeError as exc:
        joined = _split_joined(line) if exc.msg == "Extra data" else None
        if joined:
            return [_without_lone_surrogates(value, line) for value in joined], None
        return [], f"not valid JSON ({exc.msg})"


def _split_joined(line: str) -> list[Any] | None:
    """The JSON objects of a line that holds several, or None.

    Agents that append records from concurrent writers (Claude Code) can
    lose a newline, leaving two complete records on one line; both are good.
    """
    decoder = json.JSONDecoder()
    values: list[Any] = []
    position = 0
    try:
        while position < len(line):
            value, position = decoder.raw_decode(line, position)
            values.append(value)
            while position < len(line) and line[position].isspace():
                position += 1
    except json.JSONDecodeError:
        return None
    return values if len(values) > 1 and all(isinstance(v, dict) for v in values) else None


def _decode(data: bytes, name: str) -> str:
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as exc:
            raise UnreadableInput(f"{name} is not a valid gzip file ({exc})") from exc
    if b"\x00" in data[:4096] and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise BinaryInput(f"{name} is a binary file, not a transcript")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    # Transcripts are UTF-8; a stray invalid byte in one tool output must not
    # make the rest unreadable, so it becomes U+FFFD.
    return data.decode("utf-8", errors="replace")


def read_source(path: str | Path) -> Source:
    """Read ``path`` (``-`` for standard input; gzip detected from content)."""
    name = str(path)
    if name == "-":
        data = sys.stdin.buffer.read()
        return Source("<stdin>", _decode(data, "standard input"))
    file = Path(path)
    try:
        data = file.read_bytes()
    except FileNotFoundError as exc:
        raise UnreadableInput(f"{name}: no such file") from exc
    except IsADirectoryError as exc:
        raise UnreadableInput(f"{name} is a directory, not a transcript file") from exc
    except OSError as exc:
        raise UnreadableInput(f"{name} cannot be read ({exc.strerror or exc})") from exc
    return Source(name, _decode(data, name))
