"""The append-only JSONL log of compactions (the context service's event types).

The context service's design writes compaction events into the session's JSONL file next to the
session's own events:

* ``compact`` ``{type, uuid, startTurnId, endTurnId, timestamp}``: tool
  outputs of those turns were truncated (micro-compaction) or cleared
  (pruning; ``policy`` says which);
* ``summary`` ``{type, uuid, replaces, summaryText, lastSummarizedTurnId,
  timestamp}``: an LLM summary replaced the listed messages; the next
  compaction resumes after ``lastSummarizedTurnId``;
* ``compaction_failure`` and ``compaction_backoff_reset`` carry the
  back-off state (three consecutive failures stop LLM compaction for 24 h),
  so it survives a restart.

Lines of other types belong to the host and are passed over; a malformed
line of one of ours is skipped and remembered in :attr:`EventLog.skipped`
with its line number.  The file is read incrementally: a long session log is
parsed once, and a half-written last line waits until it is complete.  The
file is created ``0600`` in a ``0700`` directory, and each event is one
``O_APPEND`` write, so concurrent writers never interleave within a line.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator
from pydantic.alias_generators import to_camel

from artifact_index.exceptions import StateError
from artifact_index.redaction import redact_json
from artifact_index.state_files import append_private
from summarizer.exceptions import EventLogError

__all__ = [
    "BackoffResetEvent",
    "CompactEvent",
    "CompactionFailureEvent",
    "EventLog",
    "LogEvent",
    "SummaryEvent",
]


class _Event(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="forbid",
        frozen=True,
        defer_build=True,
    )

    uuid: str
    timestamp: datetime

    @field_validator("timestamp")
    @classmethod
    def _aware(cls, value: datetime) -> datetime:
        # Naive times are taken as UTC so back-off arithmetic never mixes the two.
        return value if value.tzinfo is not None else value.replace(tzinfo=UTC)

    def to_json(self) -> str:
        """The log line, secrets redacted (summaries and errors quote the session)."""
        return json.dumps(
            redact_json(self.model_dump(mode="json", by_alias=True, exclude_none=True)),
            ensure_ascii=False,
        )


class CompactEvent(_Event):
    """Tool outputs in turns ``start_turn_id..end_turn_id`` were truncated or cleared."""

    type: Literal["compact"] = "compact"
    start_turn_id: int
    end_turn_id: int
    policy: str | None = None
    released: int | None = None


class SummaryEvent(_Event):
    """An LLM summary replaced ``replaces``, covering turns up to ``last_summarized_turn_id``."""

    type: Literal["summary"] = "summary"
    replaces: list[str]
    summary_text: str
    last_summarized_turn_id: int
    cycle: int | None = None


class CompactionFailureEvent(_Event):
    """An LLM compaction attempt failed."""

    type: Literal["compaction_failure"] = "compaction_failure"
    error: str


class BackoffResetEvent(_Event):
    """The back-off period ended; failures are counted afresh."""

    type: Literal["compaction_backoff_reset"] = "compaction_backoff_reset"


LogEvent = Annotated[
    CompactEvent | SummaryEvent | CompactionFailureEvent | BackoffResetEvent,
    Field(discriminator="type"),
]
_ADAPTER: TypeAdapter[LogEvent] = TypeAdapter(LogEvent)
_TYPES = frozenset({"compact", "summary", "compaction_failure", "compaction_backoff_reset"})


class EventLog:
    """Compaction events, in memory and (with a ``path``) in an append-only JSONL file."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self.skipped: list[tuple[int, str]] = []
        self._events: list[LogEvent] = []
        self._offset = 0
        self._line = 0

    def _refresh(self) -> None:
        """Parse what was appended to the file since the last read (by anyone)."""
        if self.path is None:
            return
        try:
            with self.path.open("rb") as handle:
                handle.seek(self._offset)
                data = handle.read()
        except FileNotFoundError:
            return
        except OSError as exc:
            raise EventLogError(f"cannot read event log {self.path}: {exc}") from exc
        complete = data.rfind(b"\n") + 1
        for raw in data[:complete].splitlines():
            self._line += 1
            self._parse(raw)
        self._offset += complete

    def _parse(self, raw: bytes) -> None:
        if not raw.strip():
            return
        try:
            record = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            self.skipped.append((self._line, f"not JSON: {exc}"))
            return
        if not isinstance(record, dict) or record.get("type") not in _TYPES:
            return
        try:
            self._events.append(_ADAPTER.validate_python(record))
        except ValidationError as exc:
            reason = "; ".join(error["msg"] for error in exc.errors()[:3])
            self.skipped.append((self._line, f"malformed {record['type']} event: {reason}"))

    def append(self, event: LogEvent) -> None:
        """Append one event (to the file first, so memory never runs ahead of it)."""
        if self.path is None:
            self._events.append(event)
            return
        line = (event.to_json() + "\n").encode("utf-8")
        try:
            # A torn last line (a writer died mid-line) must not swallow ours.
            if (
                self.path.exists()
                and self.path.stat().st_size > 0
                and not self._ends_with_newline()
            ):
                line = b"\n" + line
            append_private(self.path, line)
        except (OSError, StateError) as exc:
            raise EventLogError(f"cannot append to event log {self.path}: {exc}") from exc
        # Memory mirrors the file: read back what is there, ours included.
        self._refresh()

    def _ends_with_newline(self) -> bool:
        assert self.path is not None
        with self.path.open("rb") as handle:
            handle.seek(-1, os.SEEK_END)
            return handle.read(1) == b"\n"

    def events(self) -> Sequence[LogEvent]:
        """Every compaction event so far, oldest first."""
        self._refresh()
        return tuple(self._events)

    def last_summary(self) -> SummaryEvent | None:
        for event in reversed(self.events()):
            if isinstance(event, SummaryEvent):
                return event
        return None

    def last_compact(self, policy: str) -> CompactEvent | None:
        for event in reversed(self.events()):
            if isinstance(event, CompactEvent) and event.policy == policy:
                return event
        return None

    def summary_count(self) -> int:
        return sum(1 for event in self.events() if isinstance(event, SummaryEvent))
