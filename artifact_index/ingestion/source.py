"""Reading a transcript file into text, one JSON document or JSON lines.

A :class:`Source` is read once and handed to format detection and then to
one adapter.  It never raises for a malformed line: the line is skipped and
recorded in :attr:`Source.skipped` with its number, so the caller can report
what was lost while still using everything else.
"""

from __future__ import annotations

import gzip
import json
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

    @cached_property
    def document(self) -> Any | None:
        """The whole text parsed as one JSON value, or None if it is not one."""
        stripped = self.text.lstrip()
        if not stripped or stripped[0] not in "[{":
            return None
        try:
            return json.loads(self.text)
        except json.JSONDecodeError:
            return None

    @cached_property
    def _lines(self) -> tuple[list[tuple[int, Any]], list[Skipped]]:
        records: list[tuple[int, Any]] = []
        bad: list[Skipped] = []
        for number, raw in enumerate(self.text.splitlines(), start=1):
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


def parse_json_line(raw: str) -> tuple[list[Any], str | None]:
    """The JSON values of one line of a JSON-lines file, or why it has none.

    A blank line has no value and no problem; a line holding several joined
    records (see :func:`_split_joined`) has them all.
    """
    line = raw.strip()
    if not line:
        return [], None
    try:
        return [json.loads(line)], None
    except json.JSONDecodeError as exc:
        joined = _split_joined(line) if exc.msg == "Extra data" else None
        if joined:
            return joined, None
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
