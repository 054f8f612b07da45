"""What the compaction hooks keep: a snapshot of the trail before, and how the agent's own summary scored after.

``PreCompact`` stores the session (its trail as it stands) in the session
store and logs a ``pre`` entry.  ``PostCompact`` gets the summary the agent
wrote (Claude Code's ``compact_summary``), scores it with the probes the
index can answer (``artifact-index probe``) against the trail of what came
before the compaction, and logs what it missed as a ``post`` entry; the log
shows with ``artifact-index sessions --compactions``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from artifact_index.ingestion.adapters import detect
from artifact_index.ingestion.events import CompactionBoundary, Event
from artifact_index.ingestion.loading import Loaded, open_transcript
from artifact_index.ingestion.reading import transcript_bytes
from artifact_index.ingestion.source import Source
from artifact_index.live.record import session_record
from artifact_index.live.store import Compaction, SessionStore
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.tracker import Tracker
from summarizer.evaluation.probes import probe_summary
from summarizer.integrations.hook_limits import check_regular_file, read_bounded
from summarizer.sections.session_facts import session_facts

__all__ = ["ReadTranscript", "read_transcript", "score_summary", "snapshot"]

_CHANGED = frozenset({"created", "modified", "deleted"})


@dataclass(frozen=True)
class ReadTranscript:
    path: Path
    events: list[Event]
    index: ArtifactIndex
    skipped: int
    stat: os.stat_result
    cut: str | None = None  # how much was read, when it was not the whole transcript


def _open(path: Path, status: os.stat_result, max_bytes: int | None) -> tuple[Loaded, str | None]:
    if max_bytes is None or status.st_size <= max_bytes:
        return open_transcript(path), None
    data = read_bounded(path, max_bytes)
    if data.startswith(b"\x1f\x8b"):  # compressed: the reader's own bounds apply to what it holds
        return open_transcript(path), None
    source = Source.from_bytes(str(path), transcript_bytes(data, str(path)))
    cut = f"its first {len(data) / 2**20:.0f} MB of {status.st_size / 2**20:.0f} MB"
    return Loaded(source, detect(source)), cut


def read_transcript(
    path: Path, *, stop: Callable[[], bool] | None = None, max_bytes: int | None = None
) -> ReadTranscript:
    """The transcript read, with its events and index: whole, unless bounded.

    Only a regular file is read (a FIFO would never end).  At most
    ``max_bytes`` of it are read, and events stop once ``stop()`` says so;
    :attr:`ReadTranscript.cut` then says how much was read.
    """
    status = check_regular_file(path)
    loaded, cut = _open(path, status, max_bytes)
    tracker = Tracker(format=loaded.adapter.name)
    events: list[Event] = []
    for event in loaded.events():
        if stop is not None and stop():
            cut = f"up to turn {event.turn}"
            break
        tracker.feed(event)
        events.append(event)
    return ReadTranscript(path, events, tracker.index, len(loaded.skipped), status, cut)


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _changed(index: ArtifactIndex) -> int:
    return sum(1 for entry in index.changed_files() if entry.status in _CHANGED)


def _store(read: ReadTranscript, store: SessionStore) -> str:
    record = session_record(read.path, read.index, read.events, read.skipped, read.stat)
    store.save(record)
    return record.id


def snapshot(read: ReadTranscript, trigger: str | None, store: SessionStore) -> None:
    """Store the session as it stands before the compaction, and log it."""
    session = _store(read, store)
    store.log_compaction(
        session, Compaction(at=_now(), phase="pre", trigger=trigger, changed=_changed(read.index))
    )


def _before_last_compaction(events: Sequence[Event]) -> list[Event]:
    """What the last compaction summarized: the events before its boundary (all, if it is not written yet)."""
    boundaries = [
        n for n, e in enumerate(events) if isinstance(e, CompactionBoundary) and e.sidechain is None
    ]
    return list(events[: boundaries[-1]]) if boundaries else list(events)


def score_summary(
    read: ReadTranscript, summary: str, trigger: str | None, store: SessionStore | None
) -> str:
    """Score the agent's summary; log it when there is a store; one line saying what it missed."""
    before = _before_last_compaction(read.events)
    index = Tracker(format=read.index.format).feed_all(before)
    report = probe_summary(summary, session_facts(index))
    asked = [p for p in report.probes if p.expected]
    logged = Compaction(
        at=_now(),
        phase="post",
        trigger=trigger,
        changed=_changed(index),
        summary_chars=len(summary),
        overall=report.overall if asked else None,
        probes=[
            {"kind": p.kind, "score": p.score, "expected": len(p.expected), "missing": p.missing}
            for p in asked
        ],
    )
    if store is not None:
        store.log_compaction(_store(read, store), logged)
    if not asked:
        return "artifact-index: nothing the index knows was at stake in this compaction"
    return f"artifact-index: the compaction summary scored {logged.score_line()}"
