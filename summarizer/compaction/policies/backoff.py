"""Failure back-off (the context service's design): three consecutive LLM-compaction failures stop it for 24 h.

The state is derived from the event log, so it survives a restart:
failures are counted since the last successful ``summary`` or the last
``compaction_backoff_reset``.  Once ``max_failures`` are reached, LLM
compaction is blocked until ``cooldown`` after the latest failure; after
that a reset is due (the compactor records it) and counting starts afresh.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from pydantic import BaseModel, ConfigDict, Field

from summarizer.compaction.event_log import (
    BackoffResetEvent,
    CompactionFailureEvent,
    LogEvent,
    SummaryEvent,
)

__all__ = ["Backoff", "BackoffConfig", "BackoffState"]


class BackoffConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    # The context service's REACTIVE_COMPACT_MAX_RETRIES and its 24 h TTL.
    max_failures: int = Field(3, ge=1)
    cooldown: timedelta = timedelta(hours=24)


@dataclass(frozen=True, slots=True)
class BackoffState:
    consecutive_failures: int
    blocked_until: datetime | None
    reset_due: bool

    @property
    def blocked(self) -> bool:
        return self.blocked_until is not None


class Backoff:
    def __init__(self, config: BackoffConfig) -> None:
        self.config = config

    def state(self, events: Sequence[LogEvent], now: datetime) -> BackoffState:
        failures: list[CompactionFailureEvent] = []
        for event in events:
            if isinstance(event, SummaryEvent | BackoffResetEvent):
                failures = []
            elif isinstance(event, CompactionFailureEvent):
                failures.append(event)
        if len(failures) < self.config.max_failures:
            return BackoffState(len(failures), None, False)
        until = failures[-1].timestamp + self.config.cooldown
        if now < until:
            return BackoffState(len(failures), until, False)
        return BackoffState(len(failures), None, True)
