"""Reading a JSON-lines transcript while it grows: each record parsed once, each event handed on once.

An adapter reads a transcript whole, and some of its answers depend on
what comes later: Claude Code names the session's model from the first
response, pairs a compaction boundary with the summary a few lines below
it and delivers a queued message where it left the queue; Codex takes a
patch's outcome from a ``patch_apply_end`` that may follow the call's
output.  An adapter that can be followed gives a :class:`RecordStream`
(:meth:`~artifact_index.ingestion.adapters.base.Adapter.stream`): records
go in as their lines are appended, and out come only the events no later
line can change, in the order reading the file whole gives them.  A record
whose events depend on what has not been written yet is *held* (with the
records after it) until that arrives; :meth:`RecordStream.finish` then
reads what is held as reading the file whole as it stands would.

A question about the future that has waited long enough is answered with
what is known, and the answer is remembered: a later record that
contradicts it raises :class:`Reread`, and the caller reads the file whole
again.  So the events are always those of reading the file whole.

:class:`AppendedLines` turns appended bytes into records, parsed exactly as
:class:`~artifact_index.ingestion.source.Source` parses a whole file.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, Protocol, TypeVar

from artifact_index.ingestion.events import Event
from artifact_index.ingestion.source import Records, Skipped

__all__ = ["AppendedLines", "RecordStream", "Reread", "Window"]

# Records a question about the future waits before it is answered with what is known.
PATIENCE = 32
_BOM = b"\xef\xbb\xbf"


class Reread(Exception):
    """A record contradicted what earlier events assumed: the file must be read whole again."""


class RecordStream(Protocol):
    """One transcript's records in, its settled events out (see the module docstring)."""

    skipped: list[Skipped]

    def add(self, records: Sequence[tuple[int, Any]]) -> list[Event]:
        """Take the records of newly completed lines; the events that are now settled.

        Raises :class:`Reread` when a record contradicts an event already handed on.
        """
        ...

    def finish(self) -> list[Event]:
        """The events reading the whole file as it stands adds to those handed on; the stream is spent.

        Raises :class:`Reread` like :meth:`add`.
        """
        ...

    @property
    def holding(self) -> bool:
        """Whether records wait for later lines before their events are handed on."""
        ...


T = TypeVar("T")


class Window(Sequence[T], Generic[T]):
    """The records of a stream by their index in the whole file, from the first one still needed.

    ``len`` counts every record added so far; an index before :meth:`release`'s
    cut is gone.
    """

    def __init__(self) -> None:
        self._base = 0
        self._items: list[T] = []

    def extend(self, records: Sequence[T]) -> None:
        self._items.extend(records)

    def release(self, before: int) -> None:
        """Let go of the records before index ``before``."""
        cut = min(before, len(self)) - self._base
        if cut > 0:
            del self._items[:cut]
            self._base += cut

    def __len__(self) -> int:
        return self._base + len(self._items)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if start < self._base:
                raise IndexError(f"record {start} was released")
            return self._items[start - self._base : stop - self._base : step]
        if index < 0:
            index += len(self)
        if not self._base <= index < len(self):
            raise IndexError(f"record {index} is not in the window")
        return self._items[index - self._base]


class AppendedLines:
    """The records of a JSON-lines file's bytes, fed as they are appended.

    :meth:`feed` takes the new bytes and returns the records of the lines they
    complete (a last line without its newline waits); :meth:`tail` reads that
    last line as reading the whole file would, and :meth:`take_open` counts it
    as read (a writer that never ends its last line): bytes that then go on
    with that line instead of its newline raise :class:`Reread`.
    """

    def __init__(self) -> None:
        self.lines = 0  # complete lines taken so far
        self._pending = b""
        self._started = False
        self._open = False  # the last line was taken without its newline

    @property
    def pending(self) -> bytes:
        """The bytes of a last line still without its newline."""
        return self._pending

    def feed(self, data: bytes) -> tuple[list[tuple[int, Any]], list[Skipped]]:
        """The records and unparsable lines of the lines ``data`` completes."""
        if not self._started:
            self._started = True
            if data.startswith(_BOM):
                data = data[len(_BOM) :]
        if self._open:
            if not data.startswith(b"\n"):
                raise Reread("the last line, read without its newline, went on")
            self._open = False
            data = data[1:]
        data = self._pending + data
        end = data.rfind(b"\n") + 1
        complete, self._pending = data[:end], data[end:]
        if not complete:
            return [], []
        found = self._parse(complete[:-1], self.lines)
        self.lines += complete.count(b"\n")
        return found

    def take_open(self) -> None:
        """Count the last line as read although its newline has not come (see :meth:`feed`)."""
        self._pending = b""
        self.lines += 1
        self._open = True

    def tail(self) -> tuple[list[tuple[int, Any]], list[Skipped]]:
        """The last line without its newline, read as reading the whole file reads it."""
        if not self._pending:
            return [], []
        return self._parse(self._pending, self.lines)

    @staticmethod
    def _parse(data: bytes, before: int) -> tuple[list[tuple[int, Any]], list[Skipped]]:
        records = Records(data, "replace")
        found = [(number + before, value) for number, value in records]
        bad = [
            Skipped(s.line + before if s.line is not None else None, s.reason)
            for s in records.bad_lines
        ]
        return found, bad
