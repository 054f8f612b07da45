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
import pickle
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from artifact_index.exceptions import StateError
from artifact_index.ingestion.events import CompactionBoundary, Event
from artifact_index.ingestion.following import Reread
from artifact_index.ingestion.loading import open_transcript
from artifact_index.live.record import EventTally, session_record
from artifact_index.live.store import Compaction, SessionStore
from artifact_index.trail.file_reports import ReportCache
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.tracker import Tracker
from summarizer.evaluation.probes import probe_summary
from summarizer.integrations.hook_state import HookStates
from summarizer.sections.session_facts import session_facts

__all__ = [
    "ReadTranscript",
    "follow_transcript",
    "read_transcript",
    "score_summary",
    "snapshot",
]

_CHANGED = frozenset({"created", "modified", "deleted"})


def _nothing_to_keep() -> str | None:
    return None


@dataclass(frozen=True)
class ReadTranscript:
    path: Path
    index: ArtifactIndex
    tally: EventTally  # what the session record says of the events
    skipped: int
    stat: os.stat_result
    events: list[Event] | None = None  # every event, when read whole (scoring a summary needs them)
    problem: str | None = None  # one sentence, when what a later run would reuse could not be kept
    # A followed transcript's files' reports as the last run made them (see ReportCache), and how to
    # keep the state for the next run once this run's reports are made (a sentence when it fails).
    reports: ReportCache | None = None
    keep: Callable[[], str | None] = _nothing_to_keep


def read_transcript(path: Path) -> ReadTranscript:
    """The transcript read whole, with its events and index."""
    loaded = open_transcript(path)
    events = list(loaded.events())
    index = Tracker(format=loaded.adapter.name).feed_all(events)
    return ReadTranscript(
        path, index, EventTally.of(events), len(loaded.skipped), path.stat(), events=events
    )


def follow_transcript(path: Path, states: HookStates) -> ReadTranscript:
    """The transcript's index, reading only what was appended since a hook last read it.

    What the next run starts from is taken before the end of the file is
    read (the end closes calls still running, which the next run must see
    open) and kept by the returned ``keep``, once this run's reports are
    made; a transcript no stream can follow is read whole.
    """
    live, reports = states.load_kept(path)
    live.refresh()
    if not live.followed:
        return read_transcript(path)  # said in the same words as reading it whole would
    stat = path.stat()
    problem = None
    pickled: bytes | None = None
    try:
        live.index.settle()  # what the next run reuses, its symbols found once
        pickled = states.pickled(live)
    except (OSError, pickle.PicklingError, StateError) as exc:
        problem = f"the session's state for the next hook could not be kept ({exc})"
    try:
        index = live.finish()
    except Reread:
        return read_transcript(path)

    def keep() -> str | None:
        if pickled is None:
            return problem
        try:
            states.save(live, reports, pickled=pickled)
        except (OSError, StateError) as exc:
            return f"the session's state for the next hook could not be kept ({exc})"
        return None

    return ReadTranscript(
        path, index, live.tally, len(live.skipped), stat, reports=reports, keep=keep
    )


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _changed(index: ArtifactIndex) -> int:
    return sum(1 for entry in index.changed_files() if entry.status in _CHANGED)


def _store(read: ReadTranscript, store: SessionStore) -> str:
    record = session_record(read.path, read.index, read.tally, read.skipped, read.stat)
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
    if read.events is None:
        read = read_transcript(read.path)
    assert read.events is not None
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
