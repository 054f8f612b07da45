"""Following a transcript while its agent writes it.

Claude Code, Codex, Copilot CLI and Gemini CLI append one JSON record per
line as a session goes on.  :class:`LiveTranscript` keeps the byte offset it
has read up to; each :meth:`~LiveTranscript.refresh` reads only the bytes
appended since, parses only the lines they complete, and feeds the tracker
only the events it has not fed yet.  A last line without its newline waits
for the rest, unless it already holds a whole JSON record (a writer that
never ends its last line must not hide it).

A format whose adapter can be followed (Claude Code, Codex: see
:mod:`artifact_index.ingestion.following`) hands on each event once, when
no later line can change it, so a refresh costs what was appended and
nothing of the file is kept but the index.  Records whose events wait for
a later line are *held* (:attr:`Refresh.waiting`); when a line contradicts
what was read earlier, the file is read whole again (:attr:`Refresh.rebuilt`).
Other JSON-lines formats run their adapter over the whole file at each
refresh and feed the events that follow those already fed, rebuilding the
index when the earlier ones changed.  Either way, the index after a refresh
is the index of the file as it then stands, less what waits.

Files that are not JSON lines (a JSON document rewritten at each step, an
Aider history, a gzip file) are re-read whole when their size or
modification time changes; a file replaced by another (a new inode, a
shorter file, different bytes at its start or before the offset) is read
again from the start.

The whole state is plain data: :mod:`summarizer.integrations.hook_state`
keeps a :class:`LiveTranscript` between the runs of a hook.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Literal

from artifact_index.exceptions import UnknownFormat, UnreadableInput
from artifact_index.ingestion.adapters import Adapter, adapter_named, detect
from artifact_index.ingestion.events import Event
from artifact_index.ingestion.following import AppendedLines, RecordStream, Reread
from artifact_index.ingestion.loading import Loaded
from artifact_index.ingestion.reading import input_limit, require_regular, too_large
from artifact_index.ingestion.source import Skipped, Source, read_source
from artifact_index.live.record import EventTally
from artifact_index.trail.collection import collector_paused, collector_spared
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.tracker import Tracker

__all__ = ["LiveTranscript", "Refresh"]

_GZIP_MAGIC = b"\x1f\x8b"
# Bytes just before the offset, read again to notice a file rewritten in place.
_GUARD = 64
# Bytes at the start whose hash tells this file from another one written in its place.
_HEAD = 4096
# Bytes of lines parsed at a time: a first read of a long session never holds all its records.
_PIECE = 4 << 20
# Bytes of complete lines a format is recognized from (the sniffers look at the first records).
_RECOGNIZED_FROM = 1 << 20


@dataclass(frozen=True)
class Refresh:
    """What one :meth:`LiveTranscript.refresh` did."""

    new_events: int  # events fed by this refresh
    rebuilt: bool  # the index was rebuilt from the start (see the module docstring)
    waiting: bool  # bytes wait for more: a partial last line, held records, a start no format recognizes yet


def _head_hash(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


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
        self._head = b""  # the first bytes, up to _HEAD, and their hash once there are that many
        self._head_digest: bytes | None = None
        self._lines = AppendedLines()
        self._unknown = b""  # bytes read while the format is not known yet
        self._bad: list[Skipped] = []  # lines that are not JSON
        self._stamp: tuple[int, int] | None = None
        self._adapter: Adapter | None = None
        self._stream: RecordStream | None = None
        self._fed: list[Event] = []  # formats read whole each time: the events fed, to compare
        self._tracker = Tracker(format=self._format)
        self.tally = EventTally()
        self._skipped: list[Skipped] = []

    # -- what is known ------------------------------------------------------------
    @property
    def index(self) -> ArtifactIndex:
        return self._tracker.index

    @property
    def tracker(self) -> Tracker:
        return self._tracker

    @property
    def followed(self) -> bool:
        """Whether its format is read record by record (else it is read whole at each change)."""
        return self._stream is not None

    @property
    def format(self) -> str | None:
        """The detected (or given) format; None until the start is recognized."""
        return self._adapter.name if self._adapter is not None else None

    @property
    def skipped(self) -> list[Skipped]:
        """The parts of the file that could not be used, so far."""
        if self._stream is not None:
            return sorted(
                [*self._bad, *self._stream.skipped], key=lambda s: (s.line is None, s.line or 0)
            )
        return self._skipped

    @property
    def offset(self) -> int:
        """Bytes read so far (a partial last line waiting is not counted)."""
        unknown = self._unknown
        return self._offset - len(self._lines.pending) - (len(unknown) - unknown.rfind(b"\n") - 1)

    @property
    def read_up_to(self) -> int:
        """Bytes of the file read so far, a partial last line included."""
        return self._offset

    def events_so_far(self) -> list[Event]:
        """The events fed so far, in order (read again from the file: they are not kept)."""
        if self._adapter is None:
            return []
        loaded = Loaded(read_source(self.path), self._adapter)
        return list(islice(loaded.events(), self.tally.events))

    # -- reading --------------------------------------------------------------------
    def refresh(self, most: int | None = None) -> Refresh:
        """Read what was appended and feed its events; raises :class:`UnreadableInput` if the file is gone.

        With ``most``, a JSON-lines file is read no further than ``most``
        bytes past the offset, ending at a line's end: the rest is read by
        the next refresh, as if it had not been written yet (a caller with
        a deadline reads a long file a piece at a time).
        """
        try:
            stat = self.path.stat()
        except FileNotFoundError as exc:
            raise UnreadableInput(f"{self.path}: no such file") from exc
        except OSError as exc:
            raise UnreadableInput(f"{self.path} cannot be read ({exc.strerror or exc})") from exc
        require_regular(str(self.path), stat.st_mode)  # a FIFO would block the follower forever
        restarted = self._replaced(stat)
        if restarted:
            self._start()
        try:
            refresh = self._read(stat, most)
        except Reread:
            # A line changed what earlier lines were read as: read the file whole again.
            self._start()
            refresh = self._read(stat, most)
            restarted = True
        return Refresh(refresh.new_events, refresh.rebuilt or restarted, refresh.waiting)

    def _read(self, stat: os.stat_result, most: int | None) -> Refresh:
        self._identity = (stat.st_dev, stat.st_ino)
        if self._mode == "document":
            return self._whole(stat)
        return self._new_lines(stat, most)

    def _replaced(self, stat: os.stat_result) -> bool:
        if self._identity is None:
            return False
        if (stat.st_dev, stat.st_ino) != self._identity or stat.st_size < self._offset:
            return True
        if self._mode != "lines":
            return False
        with self.path.open("rb") as handle:
            if (
                self._head_digest is not None
                and _head_hash(handle.read(_HEAD)) != self._head_digest
            ):
                return True
            if not self._guard:
                return False
            handle.seek(self._offset - len(self._guard))
            return handle.read(len(self._guard)) != self._guard

    def _whole(self, stat: os.stat_result) -> Refresh:
        stamp = (stat.st_size, stat.st_mtime_ns)
        if stamp == self._stamp:
            return Refresh(0, False, False)
        self._stamp = stamp
        self._offset = stat.st_size
        return self._replay(read_source(self.path))

    def _new_lines(self, stat: os.stat_result, most: int | None) -> Refresh:
        if stat.st_size == self._offset:
            return self._nothing_new()
        try:
            limit = input_limit()
            # A session followed past the input limit is refused as a whole read of it is.
            wanted = max(limit - self._offset, 0) + 1
            with self.path.open("rb") as handle:
                handle.seek(self._offset)
                data = handle.read(wanted if most is None else min(wanted, most))
        except OSError as exc:
            raise UnreadableInput(f"{self.path} cannot be read ({exc.strerror or exc})") from exc
        if self._offset + len(data) > limit:
            raise too_large(str(self.path), limit)
        if most is not None and len(data) == most and self._offset + most < stat.st_size:
            end = data.rfind(b"\n")  # the rest of the line is read with the next piece
            data = data[: end + 1] if end >= 0 else data
        if not data:
            return self._nothing_new()
        if self._offset == 0 and data.startswith(_GZIP_MAGIC):
            self._mode = "document"
            return self._whole(stat)
        self._offset += len(data)
        self._guard = (self._guard + data)[-_GUARD:]
        if self._head_digest is None:
            self._head = (self._head + data)[:_HEAD]
            if len(self._head) == _HEAD:
                self._head_digest = _head_hash(self._head)
        if self._adapter is None:
            return self._recognize(stat, data)
        if self._stream is None:
            return self._whole_lines(stat)
        return self._take(data)

    def _nothing_new(self) -> Refresh:
        return Refresh(0, False, self._waiting())

    def _waiting(self) -> bool:
        return bool(self._lines.pending) or self._adapter is None or self._holding()

    def _holding(self) -> bool:
        return self._stream is not None and self._stream.holding

    def _recognize(self, stat: os.stat_result, data: bytes) -> Refresh:
        """Until the format is known: the bytes so far, read as a file's start; its mode once known."""
        self._unknown += data
        text = self._unknown.removeprefix(b"\xef\xbb\xbf")
        complete = text[: text.rfind(b"\n", 0, _RECOGNIZED_FROM) + 1 or text.rfind(b"\n") + 1]
        lines = Source.from_bytes(str(self.path), complete)
        if not (lines.records or lines.bad_lines):
            # Nothing but blank lines, or a first line still incomplete: unless it is a whole record, wait.
            whole = Source.from_bytes(str(self.path), text)
            if not _whole_records(whole):
                return Refresh(0, False, True)
            lines = whole
        if self._mode is None:
            first_bad = lines.bad_lines[0].line if lines.bad_lines else None
            if lines.records and (first_bad is None or first_bad > lines.records[0][0]):
                self._mode = "lines"
            else:
                # Not JSON lines: read whole from now on.
                self._mode = "document"
                self._unknown = b""
                return self._whole(stat)
        try:
            adapter = adapter_named(self._format) if self._format else detect(lines)
        except UnknownFormat:
            # A new transcript's first line may not say what it is yet; wait for more.
            return Refresh(0, False, True)
        self._adapter = adapter
        self._tracker = Tracker(format=adapter.name)
        self._stream = adapter.stream()
        data, self._unknown = self._unknown, b""
        if self._stream is None:
            return self._whole_lines(stat)
        return self._take(data)

    def _take(self, data: bytes) -> Refresh:
        """Feed the events of the lines ``data`` completes."""
        fed = self._feed(self._events_of(data))
        return Refresh(fed, False, self._waiting())

    def _events_of(self, data: bytes) -> Iterator[Event]:
        """The settled events of ``data``'s lines, read a piece at a time (a first read may be the whole file)."""
        stream = self._stream
        assert stream is not None
        start = 0
        while start < len(data):
            cut = data.rfind(b"\n", start, start + _PIECE)
            end = cut + 1 if cut >= 0 else len(data)
            records, bad = self._lines.feed(data[start:end])
            start = end
            self._bad.extend(bad)
            yield from stream.add(records)
        if self._lines.pending:
            tail, tail_bad = self._lines.tail()
            if tail and not tail_bad and all(isinstance(value, dict | list) for _, value in tail):
                # A last line without its newline that holds whole records: a writer that never
                # ends its last line must not hide it.
                self._lines.take_open()
                yield from stream.add(tail)

    def _feed(self, events: Iterable[Event]) -> int:
        """Feed ``events`` to the tracker and count them; how many there were."""
        tracker, tally = self._tracker, self.tally
        count = 0
        spared = collector_spared(events)
        try:
            for event in spared:
                tracker.feed(event)
                tally.add(event)
                count += 1
        finally:
            spared.close()
        return count

    def _whole_lines(self, stat: os.stat_result) -> Refresh:
        """A JSON-lines format without a stream: its adapter over the whole file as it stands."""
        self._lines = AppendedLines()
        return self._replay(read_source(self.path))

    def _replay(self, source: Source) -> Refresh:
        """Run the adapter over the whole ``source``; feed what follows the events already fed."""
        if self._adapter is None:
            try:
                self._adapter = adapter_named(self._format) if self._format else detect(source)
            except UnknownFormat:
                return Refresh(0, False, True)
        adapter = self._adapter
        events = _settled(list(Loaded(source, adapter).events()))
        fed = len(self._fed)
        if self._fed and events[:fed] == self._fed:
            self._feed(events[fed:])
            rebuilt = False
        else:
            rebuilt = bool(self._fed)
            self._tracker = Tracker(format=adapter.name)
            self.tally = EventTally()
            self._feed(events)
            fed = 0
        self._fed = events
        self._skipped = list(source.skipped)
        return Refresh(len(events) - fed, rebuilt, False)

    # -- the end of what is written now ------------------------------------------------
    def as_it_stands(self) -> LiveTranscript:
        """What reading the file whole now says, while this transcript goes on following it.

        Itself when nothing waits for a later line; else a copy of it,
        finished (see :meth:`finish`), or the file read afresh when the copy
        cannot be finished.  An answer to a question (a tool asking what the
        session changed) must not leave out the records still held.
        """
        if not self._waiting():
            return self
        try:
            with collector_paused():
                copy: LiveTranscript = pickle.loads(
                    pickle.dumps(self, protocol=pickle.HIGHEST_PROTOCOL)
                )
            copy.finish()
        except Reread:
            copy = LiveTranscript(self.path, self._format)
            copy.refresh()
            try:
                copy.finish()
            except Reread:
                return self  # the file keeps changing under the reader: what was read so far
        return copy

    def finish(self) -> ArtifactIndex:
        """The index of the whole file as it stands now, as reading it whole gives it.

        What is held and a last line without its newline are read, and the
        end of the file closes what it closes (a call whose result is not
        written yet).  The transcript is spent: this is its last use.
        Raises :class:`~artifact_index.ingestion.following.Reread` when the
        file must be read whole instead.
        """
        if self._stream is not None:
            records, bad = self._lines.tail()
            self._bad.extend(bad)
            events = self._stream.add(records)
            events.extend(self._stream.finish())
            self._feed(events)
        elif self._fed:
            # Read whole: what the end of the file adds was kept back from a live index.
            source = read_source(self.path)
            assert self._adapter is not None
            events = list(Loaded(source, self._adapter).events())
            if events[: len(self._fed)] != self._fed:
                raise Reread("the file changed since it was read")
            self._feed(events[len(self._fed) :])
        return self.index


def _whole_records(source: Source) -> bool:
    """True when a text without a newline already holds whole JSON records (the only line of a file so far)."""
    records = source.records
    return (
        bool(records)
        and not source.bad_lines
        and all(isinstance(value, dict | list) for _, value in records)
    )


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
