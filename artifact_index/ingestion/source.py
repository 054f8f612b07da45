"""Reading a transcript file into text, one JSON document or JSON lines.

A :class:`Source` is read once and handed to format detection and then to
one adapter.  It never raises for a malformed line: the line is skipped and
recorded in :attr:`Source.skipped` with its number, so the caller can report
what was lost while still using everything else.

A transcript can be hundreds of megabytes, several times that as Python
objects.  So a source keeps its bytes and where each line starts, and parses
a JSON line (with ``orjson``) each time an adapter reads it, keeping nothing;
its text is decoded only when an adapter asks for it.  What ``orjson`` does
not read exactly as the standard library does (``NaN``, a lone surrogate
escape, a number past a double, bytes that are not UTF-8) is read the
standard library's way.  One difference is kept: an integer outside 64 bits
(beyond 18446744073709551615) is read as a float; no transcript field holds
one.
"""

from __future__ import annotations

import bisect
import json
import re
import sys
from array import array
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from itertools import accumulate
from pathlib import Path
from typing import Any, overload

import orjson

from artifact_index.ingestion.reading import read_path, read_stream
from artifact_index.ingestion.salvage import MAX_DEPTH, nested_deeper, salvage_document
from artifact_index.ingestion.salvage import loads as salvage_loads
from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["HeadShape", "Records", "Skipped", "Source", "parse_json_line", "read_source"]


@dataclass(frozen=True)
class HeadShape:
    """What the first lines of a JSON-lines view hold (see :meth:`Records.head_shape`)."""

    records: int
    bad_lines: int
    objects: int  # records that are JSON objects
    whole_containers: int  # lines holding a non-empty object or array


@dataclass(frozen=True)
class Skipped:
    """A part of the input that could not be used, and why."""

    line: int | None
    reason: str


class Source:
    """The content of one transcript and its lazily parsed JSON views.

    ``Source(name, text)`` holds a text; :meth:`from_bytes` holds the bytes a
    file was read as, and decodes them only if :attr:`text` is asked for.
    """

    def __init__(
        self,
        name: str,
        text: str | None = None,
        skipped: list[Skipped] | None = None,
        damage: str | None = None,
    ) -> None:
        self.name = name
        self.skipped: list[Skipped] = skipped if skipped is not None else []
        self.damage = damage  # why a JSON document could not be read whole, when it could not
        self._jsonl: bool | None = None  # looks_like_jsonl's verdict, once given
        self._text = text
        self._data: bytes | None = None if text is not None else b""
        # How a line that orjson cannot read becomes text again: exactly as the
        # whole text was given, or as a file's bytes are decoded.
        self._errors = "surrogatepass" if text is not None else "replace"

    @classmethod
    def from_bytes(cls, name: str, data: bytes) -> Source:
        """A source of a file's (decompressed, BOM-less) bytes; invalid UTF-8 reads as U+FFFD."""
        source = cls(name)
        source._data = data
        return source

    @property
    def data(self) -> bytes:
        """The content as UTF-8 bytes (a given text is encoded when first asked for)."""
        if self._data is None:
            self._data = (self._text or "").encode("utf-8", "surrogatepass")
        return self._data

    @property
    def text(self) -> str:
        if self._text is None:
            # Transcripts are UTF-8; a stray invalid byte in one tool output must
            # not make the rest unreadable, so it becomes U+FFFD.
            self._text = self.data.decode("utf-8", self._errors)
        return self._text

    def text_head(self, characters: int) -> str:
        """``text[:characters]``, decoding only the bytes it needs (a sniffer's look at a long file)."""
        if self._text is not None:
            return self._text[:characters]
        # A character is at most 4 bytes; the last 4 bytes of the cut may end inside one,
        # but the characters before them decode exactly as in the whole text.
        return self.data[: 4 * characters + 4].decode("utf-8", self._errors)[:characters]

    @cached_property
    def document(self) -> Any | None:
        """The whole text parsed as one JSON value, or None if it is not one.

        A JSON document damaged somewhere (cut off, a bad byte, a field
        nested too deeply) gives what could be read of it
        (:mod:`~artifact_index.ingestion.salvage`), with each repair
        recorded in :attr:`skipped` and the first damage in :attr:`damage`.
        """
        start = _content_start(self.data, _NOT_ASCII_SPACE)  # bytes.lstrip would copy them all
        first = self.data[start : start + 1]
        if first not in (b"[", b"{"):
            # Whitespace beyond ASCII's (U+0085, U+00A0, U+001C...) can only be told from the text.
            if not first or (first < b"\x80" and first not in b"\x1c\x1d\x1e\x1f"):
                return None
            stripped = self.text.lstrip()
            if not stripped or stripped[0] not in "[{":
                return None
        if _first_line_is_a_whole_value(self.data):
            return None  # several values: JSON lines, not a document
        try:
            value = orjson.loads(self.data)
        except orjson.JSONDecodeError as exc:
            if exc.msg == _ORJSON_EXTRA_DATA:
                return None  # several values: JSON lines, not a document
            if self._head_holds_records():
                return None  # JSON lines whose first line is damaged
        else:
            brackets = self.data.count(b"[") + self.data.count(b"{")  # counted in C
            if brackets <= MAX_DEPTH or not nested_deeper(value, MAX_DEPTH):
                return value
        try:
            value = salvage_loads(self.text)
        except RecursionError:
            pass
        except json.JSONDecodeError as exc:
            if exc.msg == "Extra data":
                return None  # several values: JSON lines, not a document
        else:
            # How deep the standard parser goes depends on the Python version (3.13 reads
            # far deeper than 3.11): the depth limit is this reader's, the same everywhere.
            if not nested_deeper(value, MAX_DEPTH):
                return _without_lone_surrogates(value, self.text)
        salvaged = salvage_document(self.text)
        self.damage = salvaged.first_damage
        for repair in salvaged.repairs:
            self.skip(repair.line, repair.reason)
        if salvaged.value is None:
            return None
        return _without_lone_surrogates(salvaged.value, self.text)

    def _head_holds_records(self) -> bool:
        """Whether two of the first lines are whole non-empty objects or arrays: JSON lines, not a document.

        A pretty-printed document puts a non-empty object or array on one
        line of its own never; JSON lines put one on every line.
        """
        return self.records.head_shape().whole_containers >= 2

    @cached_property
    def records(self) -> Records:
        """JSON-lines view: ``(line number, value)`` for every parsable line."""
        # Only "\n" ends a record: U+2028, U+2029 and U+0085 are ordinary characters inside one.
        return Records(self.data, self._errors)

    @property
    def bad_lines(self) -> list[Skipped]:
        """Lines of the JSON-lines view that did not parse."""
        return self.records.bad_lines

    def looks_like_jsonl(self) -> bool:
        """True when most non-empty lines of the file's head are JSON objects (a few bad ones allowed).

        Only the first lines are looked at: what a file is shows at its
        start, and a verdict on the whole would parse every line before the
        adapter reads them.
        """
        if self._jsonl is None:
            if self.document is not None:
                self._jsonl = False
            else:
                head = self.records.head_shape()
                self._jsonl = (
                    head.records >= 2 and head.records >= 2 * head.bad_lines and head.objects > 0
                )
        return self._jsonl

    def skip(self, line: int | None, reason: str) -> None:
        """Record that part of the input was not used."""
        self.skipped.append(Skipped(line, reason))


class Records(Sequence[tuple[int, Any]]):
    """The values of a JSON-lines source as ``(line number, value)``, each parsed when it is read.

    Nothing parsed is kept once read: reading the records again parses them
    again, which costs far less than holding every record of a long session.
    The lines are indexed only as far as they are read: detection, which
    looks at the first records of a file, parses only those, and the first
    pass over all records indexes them as it goes instead of in a pass of its
    own.

    A reader that looks ahead before it reads (detection's sniffers, an
    adapter that must know what comes later) does not cost a second parse:
    what it looks at is parsed once and kept for the reader that reaches it
    (:meth:`peek`, :meth:`lines_matching`), each value handed on once.
    """

    def __init__(self, data: bytes, errors: str) -> None:
        self._data, self._errors = data, errors
        # Where each record's line starts, its number, and which of the line's values it is.
        self._starts, self._numbers, self._picks = array("q"), array("q"), array("l")
        self._bad: list[Skipped] = []
        # A line no value can end is known bad at once; why (what reading it says) is
        # worked out only if asked: its place in _bad and its bytes' span until then.
        self._unexplained: list[tuple[int, int, int]] = []
        self._next_start, self._next_number = 0, 1  # the first line not indexed yet
        self._shared: dict[int, tuple[int, Any]] | None = None  # see shared_head
        # Records parsed before a reader asked for them (by detection, a look-ahead, the indexing
        # of a short way ahead), by index: each is handed to the next reader that asks for it.
        self._handed: dict[int, tuple[int, Any]] = {}
        # Lines beyond the indexed ones that a look-ahead parsed, by their start: indexing takes
        # their values from here instead of parsing them again.
        self._ahead: dict[int, tuple[list[Any], str | None]] = {}
        self._ahead_bytes = 0  # the length of the lines kept there, ever (a budget, not a gauge)
        # What the first HEAD_LINES lines hold, counted as they are indexed (see head_shape).
        self._head_objects = self._head_containers = 0
        # The other values of the last line holding several records that was parsed for one of
        # them (by line start and pick): the next read of each takes it, so the line, which can
        # be megabytes of records joined together, is parsed once and not once per record.
        self._spare: tuple[int, dict[int, Any]] | None = None

    @contextmanager
    def shared_head(self) -> Iterator[None]:
        """While inside, each of the first records is parsed once and its value handed to every reader.

        Detection asks up to twenty sniffers about the same first records, and
        sniffers only look.  Afterwards each of those values goes to the next
        reader that asks for it, once; later reads parse afresh, so no adapter
        is handed a value another reader holds.
        """
        self._shared = {}
        try:
            yield
        finally:
            # Sniffers only look: the first reader after them (the adapter) is handed what
            # they parsed instead of parsing it again, each value once.
            self._handed, self._shared = self._shared, None

    def head_shape(self) -> HeadShape:
        """What the file's first :data:`HEAD_LINES` lines hold, learned as they are indexed.

        It is known from indexing alone, so asking once all records were read
        parses nothing again.
        """
        while self._next_start <= len(self._data) and self._next_number <= HEAD_LINES:
            first = len(self._starts)
            values = self._index_line()
            if self._shared is None and len(self._handed) < _KEPT:
                for offset, value in enumerate(values):
                    self._handed[first + offset] = (self._numbers[first + offset], value)
        return HeadShape(
            records=bisect.bisect_right(self._numbers, HEAD_LINES),
            bad_lines=sum(
                1 for bad in self._bad if bad.line is not None and bad.line <= HEAD_LINES
            ),
            objects=self._head_objects,
            whole_containers=self._head_containers,
        )

    @property
    def bad_lines(self) -> list[Skipped]:
        """The lines that did not parse (all lines are indexed to know them)."""
        self._index_to(None)
        for place, start, end in self._unexplained:
            self._bad[place] = Skipped(
                self._bad[place].line, _why_not_json(self._data[start:end], self._errors)
            )
        self._unexplained.clear()
        return self._bad

    @property
    def indexed(self) -> int:
        """How many records are indexed so far (read, or looked at)."""
        return len(self._starts)

    def __len__(self) -> int:
        self._index_to(None)
        return len(self._starts)

    def __bool__(self) -> bool:
        self._index_to(1)
        return len(self._starts) > 0

    @overload
    def __getitem__(self, index: int) -> tuple[int, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[int, Any]]: ...

    def __getitem__(self, index: int | slice) -> tuple[int, Any] | list[tuple[int, Any]]:
        if isinstance(index, slice):
            head = (
                index.stop is not None
                and index.stop >= 0
                and (index.start or 0) >= 0
                and (index.step or 1) > 0
            )
            self._index_to(index.stop if head else None)
            return [self._record(i) for i in range(*index.indices(len(self._starts)))]
        if index < 0:
            self._index_to(None)
            index += len(self._starts)
        else:
            self._index_to(index + 1)
        if not 0 <= index < len(self._starts):
            raise IndexError("record index out of range")
        return self._record(index)

    def __iter__(self) -> Iterator[tuple[int, Any]]:
        index = 0
        while True:
            if index < len(self._starts):
                yield self._record(index)
                index += 1
            elif self._next_start > len(self._data):
                return
            else:
                # A line read for the first time: its values come from the parse that indexed it.
                number, values = self._next_number, self._index_line()
                for value in values:
                    yield number, value
                    index += 1

    def place(self, index: int) -> tuple[int, int]:
        """Where record ``index`` (one read already) is: its line's number, and which of the line's values it is."""
        return self._numbers[index], self._picks[index]

    def find(self, needle: bytes) -> int | None:
        """Where ``needle`` first occurs in the bytes (searched without parsing), or None."""
        found = self._data.find(needle)
        return None if found < 0 else found

    def line_number_at(self, offset: int) -> int:
        """The number of the line holding byte ``offset``."""
        if offset < self._next_start and self._starts:
            index = bisect.bisect_right(self._starts, offset) - 1
            if index >= 0 and self._data.find(b"\n", self._starts[index], offset) < 0:
                return self._numbers[index]
        return self._data.count(b"\n", 0, offset) + 1

    def line_holds(self, start: int, end: int, needles: tuple[bytes, ...]) -> bool:
        """Whether the line ``[start, end)`` from :meth:`lines_from` holds one of ``needles`` (not parsed)."""
        return any(self._data.find(needle, start, end) >= 0 for needle in needles)

    def peek(self, index: int) -> tuple[int, Any]:
        """Record ``index`` for a reader that only looks: parsed once, and kept for the reader that reads it.

        Raises :class:`IndexError` past the last record.  At most
        :data:`_KEPT` records are kept at a time; past that a peeked record
        is parsed again when it is read.
        """
        self._index_to(index + 1)
        if not 0 <= index < len(self._starts):
            raise IndexError("record index out of range")
        if self._shared is not None and index < _SHARED_HEAD:
            return self._record(index)
        record = self._handed.get(index)
        if record is None:
            record = self._parsed(index)
            if len(self._handed) < _KEPT:
                self._handed[index] = record
        return record

    def lines_matching(self, pattern: re.Pattern[bytes] | bytes) -> Iterator[tuple[int, list[Any]]]:
        """``(line start, values)`` of each line not indexed yet whose bytes match ``pattern``, in order.

        ``pattern`` is a regular expression, or bytes to find as they are
        (much cheaper than a pattern made of them).

        Only those lines are parsed, once: their values are kept until
        indexing reaches them, and handed to the reader then.  This is how a
        reader learns what a rare record later in the file says (a record
        type is never escaped in JSON, so its name is found in the bytes)
        without a pass of its own over every line.
        """
        data = self._data
        position = self._next_start
        while position <= len(data):
            if isinstance(pattern, bytes):
                at = data.find(pattern, position)
                if at < 0:
                    return
                found_start, found_end = at, at + len(pattern)
            else:
                found = pattern.search(data, position)
                if found is None:
                    return
                found_start, found_end = found.start(), found.end()
            start = data.rfind(b"\n", position, found_start) + 1 or position
            end = data.find(b"\n", found_end)
            end = len(data) if end == -1 else end
            if start >= self._next_start:  # the reader may have indexed it meanwhile
                yield start, self._values_kept(start, end)
            position = end + 1

    def lines_from(self, offset: int) -> Iterator[tuple[int, int]]:
        """``(start, end)`` of each line from the one holding byte ``offset`` on, without parsing any."""
        data = self._data
        start = data.rfind(b"\n", 0, offset) + 1
        while start <= len(data):
            end = data.find(b"\n", start)
            end = len(data) if end == -1 else end
            yield start, end
            start = end + 1

    def values_on(self, start: int, end: int, keep: bool) -> list[Any]:
        """The values of the line ``[start, end)`` (from :meth:`lines_from`), for a reader that only looks.

        A line not indexed yet is kept for the reader that reaches it when
        ``keep`` (a rare, small record), else parsed again then (a large
        one, not worth holding); an indexed line is peeked.
        """
        if start < self._next_start:
            first = bisect.bisect_left(self._starts, start)
            last = bisect.bisect_right(self._starts, start)
            return [self.peek(index)[1] for index in range(first, last)]
        if keep:
            return self._values_kept(start, end)
        ahead = self._ahead.get(start)
        return (
            ahead[0] if ahead is not None else _parse_line(self._data[start:end], self._errors)[0]
        )

    def _values_kept(self, start: int, end: int) -> list[Any]:
        ahead = self._ahead.get(start)
        if ahead is None:
            ahead = _parse_line(self._data[start:end], self._errors)
            # Kept within a budget: a look-ahead that finds much more than it expected
            # costs a second parse of the surplus, not memory without bound.
            if self._ahead_bytes + end - start <= _AHEAD_BYTES:
                self._ahead[start] = ahead
                self._ahead_bytes += end - start
        return ahead[0]

    def _index_to(self, count: int | None) -> None:
        """Index lines until ``count`` records are known, or all of them for None.

        Indexing parses each line; when the records are wanted a short way
        ahead of what was read, their values are kept for their reader.
        """
        keep = count is not None and count - len(self._starts) <= _KEPT
        while self._next_start <= len(self._data) and (count is None or len(self._starts) < count):
            first = len(self._starts)
            values = self._index_line()
            if keep and self._shared is None:
                for offset, value in enumerate(values):
                    if len(self._handed) < _KEPT:
                        self._handed[first + offset] = (self._numbers[first + offset], value)

    def _index_line(self) -> list[Any]:
        """Index the next line; its values."""
        data, start, number = self._data, self._next_start, self._next_number
        end = data.find(b"\n", start)
        end = len(data) if end == -1 else end
        ahead = self._ahead.pop(start, None) if self._ahead else None
        if ahead is not None:
            values, problem = ahead
        elif (raw := data[start:end])[:1] == b"{" and raw[-1:] == b"}":
            # The common line, one record with nothing around it, read as _parse_line reads it.
            values, problem = _parse_record_line(raw, self._errors)
        else:
            last = raw.rstrip(_LINE_BYTES_SPACE)[-1:]
            if (
                last
                and last not in _CAN_END_A_VALUE
                and raw.lstrip(_LINE_BYTES_SPACE) != _BYTE_ORDER_MARK
            ):
                # Most lines of a pretty-printed document end in "," or "{": none holds a value.
                self._unexplained.append((len(self._bad), start, end))
                self._bad.append(Skipped(number, ""))
                self._next_start, self._next_number = end + 1, number + 1
                return []
            values, problem = _parse_line(raw, self._errors)
        if number <= HEAD_LINES and values:
            self._head_objects += sum(isinstance(value, dict) for value in values)
            self._head_containers += any(isinstance(v, dict | list) and bool(v) for v in values)
        for pick, value in enumerate(values):
            if self._shared is not None and len(self._starts) < _SHARED_HEAD:
                self._shared[len(self._starts)] = (
                    number,
                    value,
                )  # detection reads it next: no second parse
            self._starts.append(start)
            self._numbers.append(number)
            self._picks.append(pick)
        if problem is not None:
            self._bad.append(Skipped(number, problem))
        self._next_start, self._next_number = end + 1, number + 1
        return values

    def _record(self, index: int) -> tuple[int, Any]:
        shared = self._shared
        if shared is None or index >= _SHARED_HEAD:
            if self._handed and index in self._handed:
                return self._handed.pop(index)
            return self._parsed(index)
        record = shared.get(index)
        if record is None:
            record = shared[index] = self._parsed(index)
        return record

    def _parsed(self, index: int) -> tuple[int, Any]:
        data, start, pick = self._data, self._starts[index], self._picks[index]
        spare = self._spare
        if spare is not None and spare[0] == start and pick in spare[1]:
            return self._numbers[index], spare[1].pop(pick)
        end = data.find(b"\n", start)
        raw = data[start:] if end == -1 else data[start:end]
        if pick == 0 and (index + 1 == len(self._starts) or self._starts[index + 1] != start):
            # The line was indexed, so it is neither blank nor too deep: when orjson reads it
            # now, it read it then, and that value was the record.
            try:
                return self._numbers[index], orjson.loads(raw.strip(_LINE_BYTES_SPACE))
            except orjson.JSONDecodeError:
                pass
        values, _ = _parse_line(raw, self._errors)
        if len(values) > 1:
            self._spare = (start, {other: v for other, v in enumerate(values) if other != pick})
        return self._numbers[index], values[pick]


# More than any sniffer reads: Claude Code's looks at 30 records, Codex's at 40.
_SHARED_HEAD = 64
# The most records parsed ahead of their reader that are kept for it at a time.
_KEPT = 256
# The most bytes of lines found ahead by their content whose values are kept for their reader.
_AHEAD_BYTES = 64 << 20
# The lines whose records tell JSON lines from other text.
HEAD_LINES = 64


def _first_line_is_a_whole_value(data: bytes) -> bool:
    """Whether the first line holds a complete JSON value and something follows it: JSON lines.

    Parsing the whole of a long JSON-lines file as one document would also
    fail there, but only after orjson has read every byte of it.
    """
    start = _content_start(
        data, _NOT_JSON_SPACE
    )  # the bytes are never copied: they can be hundreds of MB
    if data[start : start + 1] not in (b"{", b"["):
        return False
    end = data.find(b"\n", start)
    if end < 0 or not _NOT_ASCII_SPACE.search(data, end):
        return False
    try:
        orjson.loads(data[start:end])
    except orjson.JSONDecodeError:
        return False
    return True


_NOT_JSON_SPACE = lazy_pattern(rb"[^ \t\r\n]")
_NOT_ASCII_SPACE = lazy_pattern(rb"[^ \t\n\r\x0b\x0c]")  # what bytes.strip() keeps


def _content_start(data: bytes, not_space: re.Pattern[bytes]) -> int:
    """Where the first byte that is not space is (the length when there is none)."""
    found = not_space.search(data)
    return found.start() if found else len(data)


# orjson's message when a complete value is followed by more (the standard library's "Extra data").
_ORJSON_EXTRA_DATA = "unexpected content after document"


def _parse_line(raw: bytes, errors: str) -> tuple[list[Any], str | None]:
    """The JSON values of one line's bytes: orjson first, the standard library where they differ."""
    line = raw.strip(_LINE_BYTES_SPACE)
    if line.startswith(_BYTE_ORDER_MARK):
        # Files joined from pieces (or appended to by a tool that writes one) carry a mark per line.
        line = line[len(_BYTE_ORDER_MARK) :].lstrip(_LINE_BYTES_SPACE)
    if not line:
        return [], None
    # Only a line with more brackets than MAX_DEPTH can nest deeper; counting them is cheap.
    may_be_too_deep = len(line) > MAX_DEPTH and line.count(b"[") + line.count(b"{") > MAX_DEPTH
    if line[0] in _CANNOT_START_A_VALUE:
        # The standard library's verdict on such a line, without asking it: a text
        # transcript's lines all fail here, and detection reads every one.
        return [], _TOO_DEEP if may_be_too_deep and _too_deep(line) else _NO_VALUE
    if line[0] == _QUOTE and not may_be_too_deep:
        # A line of pretty-printed JSON ("key": value) starts with a plain string and goes on:
        # orjson and the standard library alike read the string and refuse what follows it.
        plain = _PLAIN_STRING.match(line)
        if plain is not None and plain.end() < len(line):
            return [], _EXTRA_DATA
    try:
        value = orjson.loads(line)
    except orjson.JSONDecodeError as exc:
        if may_be_too_deep and _too_deep(line):
            return [], _TOO_DEEP
        if line[0] != _OPEN_BRACE and exc.msg == _ORJSON_EXTRA_DATA:
            # One value and more after it, as in a line of pretty-printed JSON
            # (`"key": value,`); records joined on one line are objects.
            return [], _EXTRA_DATA
        return parse_json_line(line.decode("utf-8", errors))
    # orjson read valid JSON, nested as deep as the value it gave: measuring the value
    # is far cheaper than finding the strings of a long line (most of its bytes).
    if may_be_too_deep and nested_deeper(value, MAX_DEPTH):
        return [], _TOO_DEEP
    return [value], None


def _parse_record_line(raw: bytes, errors: str) -> tuple[list[Any], str | None]:
    """:func:`_parse_line` for a line from "{" to "}", with none of its checks for other lines."""
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return _parse_line(raw, errors)
    many_brackets = len(raw) > MAX_DEPTH and raw.count(b"[") + raw.count(b"{") > MAX_DEPTH
    if many_brackets and nested_deeper(value, MAX_DEPTH):
        return [], _TOO_DEEP
    return [value], None


def _why_not_json(raw: bytes, errors: str) -> str:
    """Why a line that holds no value does not: what reading it says."""
    values, problem = _parse_line(raw, errors)
    assert not values and problem is not None, "a line that holds a value is not bad"
    return problem


# The last bytes of every JSON value: a string, an object, an array, a number, true,
# false, null, and the standard library's NaN, Infinity and -Infinity.
_CAN_END_A_VALUE = b'"}]0123456789elNy'

# ASCII bytes no JSON value starts with (the standard library also reads NaN and Infinity).
_CANNOT_START_A_VALUE = frozenset(set(range(128)) - set(b'{["-0123456789tfnNI'))
_OPEN_BRACE = ord("{")
_QUOTE = ord('"')
_PLAIN_STRING = lazy_pattern(
    rb'"[^"\\\x00-\x1f\x80-\xff]*"'
)  # no escape, control or non-ASCII byte: valid everywhere
_NO_VALUE = "not valid JSON (Expecting value)"
_EXTRA_DATA = "not valid JSON (Extra data)"


_TOO_DEEP = f"nested too deeply to read (over {MAX_DEPTH} levels)"


def _too_deep(line: bytes) -> bool:
    # The brackets outside strings, as depth steps summed in C: a one-line
    # document of megabytes holds tens of thousands of them.  It reads the
    # UTF-8 bytes, not their text: quotes, backslashes and brackets are the
    # same bytes in both, and a line is not decoded only to be measured.
    brackets = _JSON_STRING.sub(b"", line).translate(None, _NOT_BRACKET)
    return max(accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0) > MAX_DEPTH


_JSON_STRING = lazy_pattern(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = bytes(set(range(256)) - set(b"[]{}"))
_DEPTH_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


# What may surround a record on its line.  NUL too: a writer that crashed leaves a run of zero
# bytes where its record was to go, and the next record is appended right after them.
_LINE_SPACE = " \t\r\f\v\x00"
_BYTE_ORDER_MARK = "\ufeff".encode()
_LINE_BYTES_SPACE = _LINE_SPACE.encode()
_SURROGATE_ESCAPE = lazy_pattern(r"\\u[dD][89a-fA-F]")
_LONE_SURROGATE = lazy_pattern("[\ud800-\udfff]")


def _without_lone_surrogates(value: Any, raw: str) -> Any:
    """``value`` with each lone surrogate (``\\ud83d`` from an emoji cut in half) as U+FFFD.

    Such a string cannot be written as UTF-8; Claude Code writes them when it
    cuts a tool output.  Only text whose raw form holds a surrogate escape is
    walked, so the common case costs one search.
    """
    if not _SURROGATE_ESCAPE.search(raw):
        return value
    return _replace_lone_surrogates(value)


def _replace_lone_surrogates(value: Any) -> Any:
    """``value`` with each lone surrogate in its strings and keys as U+FFFD (walked without recursion)."""
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


def parse_json_line(raw: str) -> tuple[list[Any], str | None]:
    """The JSON values of one line of a JSON-lines file, or why it has none.

    A blank line has no value and no problem; a line holding several joined
    records (see :func:`_split_joined`) has them all.  A record nested too
    deeply is a problem; a lone surrogate in it becomes U+FFFD.
    """
    line = raw.strip(_LINE_SPACE).removeprefix("\ufeff").lstrip(_LINE_SPACE)
    if not line:
        return [], None
    if line.count("[") + line.count("{") > MAX_DEPTH and _too_deep(
        line.encode("utf-8", "surrogatepass")
    ):
        return [], _TOO_DEEP
    try:
        return [_without_lone_surrogates(json.loads(line), line)], None
    except RecursionError:
        return [], _TOO_DEEP
    except json.JSONDecodeError as exc:
        if exc.msg.startswith("Invalid control character"):
            # A raw control byte (a NUL, a tab) inside a string: the writer's damage, not the record's.
            try:
                return [_without_lone_surrogates(json.loads(line, strict=False), line)], None
            except json.JSONDecodeError as lenient:
                exc = lenient
            except RecursionError:
                return [], _TOO_DEEP
        joined = _split_joined(line) if exc.msg == "Extra data" else None
        if joined:
            # One search of the line for all its records: it can hold thousands.
            if _SURROGATE_ESCAPE.search(line):
                joined = [_replace_lone_surrogates(value) for value in joined]
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


def read_source(path: str | Path, limit: int | None = None) -> Source:
    """Read ``path`` (``-`` for standard input; gzip detected from content).

    Only a regular file or standard input is read, to ``limit`` bytes
    (:func:`~artifact_index.ingestion.reading.input_limit` when None); see
    :mod:`artifact_index.ingestion.reading` for the bounds and encodings.
    """
    name = str(path)
    if name == "-":
        return Source.from_bytes("<stdin>", read_stream(sys.stdin.buffer, "standard input", limit))
    return Source.from_bytes(name, read_path(path, limit))
