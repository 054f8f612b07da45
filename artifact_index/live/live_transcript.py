"""Following a transcript while its agent writes it.

Claude Code, Codex, Copilot CLI and Gemini CLI append one JSON record per
line as a session goes on.  :class:`LiveTranscript` keeps the byte offset it
has read up to; each :meth:`~LiveTranscript.refresh` reads only the bytes
appended since, parses only the lines they complete, and feeds the tracker
only the events it has not fed yet.  A last line without its newline waits
for the rest, unless it already holds a whole JSON record (a writer that
never ends its last line must not hide it).

Adapters read a transcript as a whole: some look ahead (Claude Code takes
the session's model from the first response), so the events of a prefix are
not always a prefix of the events of the whole.  Each refresh therefore runs
the adapter over the records read so far (records are parsed once, as their
lines arrive) and compares the events already fed with what the adapter now
says they are; when they differ the index is rebuilt from the start.  The
index after any refresh is the index of the file as it then stands, the
same as reading it whole.

Files that are not JSON lines (a JSON document rewritten at each step, an
Aider history, a gzip file) are re-read whole when their size or
modification time changes; a file replaced by another (a new inode, a
shorter file, different bytes before the offset) is read again from the
start.
"""

from __future__ import annotations

import os
import stat as file_kind
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from artifact_index.exceptions import UnknownFormat, UnreadableInput
from artifact_index.ingestion.adapters import Adapter, adapter_named, detect
from artifact_index.ingestion.events import Event
from artifact_index.ingestion.loading import Loaded
from artifact_index.ingestion.reading import input_limit, kind_of, too_large
from artifact_index.ingestion.source import Skipped, Source, parse_json_line, read_source
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.tracker import Tracker

__all__ = ["LiveTranscript", "Refresh"]

_GZIP_MAGIC = b"\x1f\x8b"
_BOM = b"\xef\xbb\xbf"
# Bytes just before the offset, read again to notice a file rewritten in place.
_GUARD = 64


@dataclass(frozen=True)
class Refresh:
    """What one :meth:`LiveTranscript.refresh` did."""

    new_events: int  # events fed by this refresh
    rebuilt: bool  # the index was rebuilt from the start (see the module docstring)
    waiting: bool  # bytes wait for more: a partial last line, or a start no format recognizes yet


def _whole_record(line: bytes) -> bool:
    """True when a line without its newline already holds whole JSON records (no longer line starts so)."""
    values, problem = parse_json_line(line.decode("utf-8", errors="replace"))
    return bool(values) and problem is None and all(isinstance(v, dict | list) for v in values)


class _LinesSoFar(Source):
    """The JSON-lines records read so far, parsed once each, seen as one :class:`Source`."""

    def __init__(
        self, name: str, text: str, records: list[tuple[int, Any]], bad: list[Skipped]
    ) -> None:
        super().__init__(name, text)
        self._parsed = (records, bad)

    @property
    def _lines(self) -> tuple[list[tuple[int, Any]], list[Skipped]]:
        return self._parsed


class LiveTranscript:
    """One transcript, followed as it grows; :attr:`index` is always its current index."""

    def __init__(self, path: str | Path, format: str | None = None) -> None:
        self.path = Path(path)
        self._format = format
        if format is not None:
            adapter_named(format)  # an unknown --format is the caller's mistake: say so now
        self._start()

    def _start(self) -> None:
        self._identity: tuple[int, int] | None = None
        self._mode: Literal["lines", "document"] | None = None
        self._offset = 0
        self._guard = b""
        self._pending = b""
        self._open_line = False  # the last line was taken without its newline (a whole record)
        self._line_count = 0
        self._texts: list[str] = []
        self._records: list[tuple[int, Any]] = []
        self._bad: list[Skipped] = []
        self._stamp: tuple[int, int] | None = None
        self._adapter: Adapter | None = None
        self._tracker = Tracker(format=self._format)
        self._fed: list[Event] = []
        self.skipped: list[Skipped] = []

    # -- what is known ------------------------------------------------------------
    @property
    def index(self) -> ArtifactIndex:
        return self._tracker.index

    @property
    def format(self) -> str | None:
        """The detected (or given) format; None until the start is recognized."""
        return self._adapter.name if self._adapter is not None else None

    @property
    def events(self) -> Sequence[Event]:
        """Every event fed so far, in order."""
        return self._fed

    @property
    def offset(self) -> int:
        """Bytes read so far (a partial last line waiting is not counted)."""
        return self._offset - len(self._pending)

    # -- reading --------------------------------------------------------------------
    def refresh(self) -> Refresh:
        """Read what was appended and feed its events; raises :class:`UnreadableInput` if the file is gone."""
        try:
            stat = self.path.stat()
        except FileNotFoundError as exc:
            raise UnreadableInput(f"{self.path}: no such file") from exc
        except OSError as exc:
            raise UnreadableInput(f"{self.path} cannot be read ({exc.strerror or exc})") from exc
        if not file_kind.S_ISREG(stat.st_mode):  # a FIFO has no size to follow: a read would wait
            raise UnreadableInput(f"{self.path} is {kind_of(stat.st_mode)}, not a transcript file")
        restarted = self._replaced(stat)
        if restarted:
            self._start()
        self._identity = (stat.st_dev, stat.st_ino)
        source = self._whole(stat) if self._mode == "document" else self._new_lines(stat)
        if source is None:
            return Refresh(0, restarted, bool(self._pending) or self._adapter is None)
        refresh = self._feed(source)
        return Refresh(
            refresh.new_events, refresh.rebuilt or restarted, refresh.waiting or bool(self._pending)
        )

    def _replaced(self, stat: os.stat_result) -> bool:
        if self._identity is None:
            return False
        if (stat.st_dev, stat.st_ino) != self._identity or stat.st_size < self._offset:
            return True
        if self._mode != "lines" or not self._guard:
            return False
        with self.path.open("rb") as handle:
            handle.seek(self._offset - len(self._guard))
            return handle.read(len(self._guard)) != self._guard

    def _whole(self, stat: os.stat_result) -> Source | None:
        stamp = (stat.st_size, stat.st_mtime_ns)
        if stamp == self._stamp:
            return None
        self._stamp = stamp
        self._offset = stat.st_size
        return read_source(self.path)

    def _new_lines(self, stat: os.stat_result) -> Source | None:
        if stat.st_size == self._offset:
            return None
        try:
            limit = input_limit()
            with self.path.open("rb") as handle:
                handle.seek(self._offset)
                # A session followed past the input limit is refused as a whole read of it is.
                data = handle.read(max(limit - self._offset, 0) + 1)
        except OSError as exc:
            raise UnreadableInput(f"{self.path} cannot be read ({exc.strerror or exc})") from exc
        if self._offset + len(data) > limit:
            raise too_large(str(self.path), limit)
        if not data:
            return None
        if self._offset == 0 and data.startswith(_GZIP_MAGIC):
            self._mode = "document"
            return self._whole(stat)
        start = self._offset
        self._offset += len(data)
        self._guard = (self._guard + data)[-_GUARD:]
        if start == 0 and data.startswith(_BOM):
            data = data[len(_BOM) :]
        data = self._pending + data
        end = data.rfind(b"\n") + 1
        complete, self._pending = data[:end], data[end:]
        if _whole_record(self._pending):
            complete, self._pending = data, b""
        if complete:
            self._take(complete.decode("utf-8", errors="replace"))
        if self._mode is None:
            return self._choose_mode(stat)
        return self._lines_source()

    def _take(self, text: str) -> None:
        # Only "\n" ends a record (as in Source): U+2028 and its kin are text inside one.
        pieces = text.split("\n")
        if pieces[-1] == "":
            pieces.pop()  # the text ended with its newline
        if self._open_line and pieces:
            # The line taken without its newline goes on: its rest belongs to it.
            self._add(self._line_count, pieces.pop(0))
        for piece in pieces:
            self._line_count += 1
            self._add(self._line_count, piece)
        self._open_line = not text.endswith("\n")
        self._texts.append(text)

    def _add(self, number: int, raw: str) -> None:
        values, problem = parse_json_line(raw)
        self._records.extend((number, value) for value in values)
        if problem is not None:
            self._bad.append(Skipped(number, problem))

    def _choose_mode(self, stat: os.stat_result) -> Source | None:
        """JSON lines when the first line is JSON; otherwise the file is read whole from now on."""
        if not self._records and not self._bad:
            return None  # nothing but blank lines, or a first line still incomplete
        if self._records and (not self._bad or (self._bad[0].line or 0) > self._records[0][0]):
            self._mode = "lines"
            return self._lines_source()
        self._mode = "document"
        return self._whole(stat)

    def _lines_source(self) -> Source:
        return _LinesSoFar(
            str(self.path), "".join(self._texts), list(self._records), list(self._bad)
        )

    # -- feeding --------------------------------------------------------------------
    def _feed(self, source: Source) -> Refresh:
        try:
            adapter = adapter_named(self._format) if self._format else detect(source)
        except UnknownFormat:
            # A new transcript's first line may not say what it is yet; wait for more.
            return Refresh(0, False, True)
        events = _settled(list(Loaded(source, adapter).events()))
        fed = len(self._fed)
        if adapter is self._adapter and events[:fed] == self._fed:
            for event in events[fed:]:
                self._tracker.feed(event)
            rebuilt = False
        else:
            rebuilt = self._adapter is not None
            self._adapter = adapter
            self._tracker = Tracker(format=adapter.name)
            self._tracker.feed_all(events)
            fed = 0
        self._fed = events
        self.skipped = list(source.skipped)
        return Refresh(len(events) - fed, rebuilt, False)


def _settled(events: list[Event]) -> list[Event]:
    """The events up to the last one read from a line of the file.

    What an adapter emits after its last record, without a line of its own,
    is its end-of-file flush: a call still open is closed with an unknown
    outcome.  In a live file that call is usually still running, so these
    events wait until a later line settles them.
    """
    last = len(events)
    while last and events[last - 1].line is None:
        last -= 1
    return events[:last] if last else events
