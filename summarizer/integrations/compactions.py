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
from typing import TYPE_CHECKING

from artifact_index.exceptions import StateError
from artifact_index.ingestion.adapters import detect
from artifact_index.ingestion.events import CompactionBoundary, Event
from artifact_index.ingestion.following import Reread
from artifact_index.ingestion.loading import Loaded, open_transcript
from artifact_index.ingestion.reading import transcript_bytes
from artifact_index.ingestion.source import Source
from artifact_index.live.record import EventTally, session_record
from artifact_index.trail.collection import collector_spared_in_steps
from artifact_index.trail.file_reports import ReportCache
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.tracker import Tracker
from summarizer.integrations.hook_limits import check_regular_file, read_bounded
from summarizer.integrations.hook_state import HookStates, worth_keeping
from summarizer.sections.session_facts import session_facts

if TYPE_CHECKING:
    # The store (sqlite) and the probes are imported by the compaction events that use them: a
    # SessionStart only reads.
    from artifact_index.live.store import SessionStore

__all__ = [
    "ReadTranscript",
    "follow_transcript",
    "read_transcript",
    "score_summary",
    "snapshot",
]

_CHANGED = frozenset({"created", "modified", "deleted"})
_MB = 2**20
# Bytes of a followed transcript read between two looks at the deadline.
_FOLLOWED_PIECE = 2 * _MB


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
    cut: str | None = None  # how much was read, when it was not the whole transcript
    # A followed transcript's files' reports as the last run made them (see ReportCache), and how
    # to keep them for the next run once this run's reports are made (a sentence when that fails).
    reports: ReportCache | None = None
    keep: Callable[[], str | None] = _nothing_to_keep


def _open(path: Path, status: os.stat_result, max_bytes: int | None) -> tuple[Loaded, str | None]:
    if max_bytes is None or status.st_size <= max_bytes:
        return open_transcript(path), None
    data = read_bounded(path, max_bytes)
    if data.startswith(b"\x1f\x8b"):  # compressed: the reader's own bounds apply to what it holds
        return open_transcript(path), None
    source = Source.from_bytes(str(path), transcript_bytes(data, str(path)))
    return Loaded(source, detect(source)), _first(len(data), status.st_size)


def _first(read: int, size: int) -> str:
    return f"its first {_amount(read)} of {_amount(size)}"


def _amount(size: int) -> str:
    return f"{size / _MB:.0f} MB" if size >= _MB else f"{size / 1024:.0f} KB"


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
    return ReadTranscript(
        path, tracker.index, EventTally.of(events), len(loaded.skipped), status, events, cut=cut
    )


def follow_transcript(
    path: Path,
    states: HookStates,
    *,
    stop: Callable[[], bool] | None = None,
    max_bytes: int | None = None,
    piece: int | None = None,
    on_read: Callable[[ReadTranscript], None] | None = None,
) -> ReadTranscript:
    """The transcript's index, reading only what was appended since a hook last read it.

    What the next run reuses is kept in ``states`` before the end of the
    file is read (the end closes calls still running, which the next run
    must see open); a transcript no stream can follow is read whole (within
    the same bounds).  The appended bytes are read a piece at a time (``piece`` bytes): once
    ``stop()`` says so, or ``max_bytes`` were read in this run, reading
    stops at a line's end, what was read is kept for the next run to go on
    from, and :attr:`ReadTranscript.cut` says how much was read.
    ``on_read`` gets the index as soon as reading stops (the calls still
    running not closed yet), for an answer that cannot wait for the rest.
    The files' reports the last run made are kept with the state; the
    returned ``keep`` keeps this run's instead, once they are made.
    """
    status = check_regular_file(path)
    live, reports = states.load_kept(path)
    kept_at = live.read_up_to
    piece = piece or _FOLLOWED_PIECE
    read_here = 0
    restarted = False
    with collector_spared_in_steps() as spare:
        while True:
            before = live.read_up_to
            room = piece if max_bytes is None else min(piece, max_bytes - read_here)
            restarted |= live.refresh(most=room).rebuilt
            read_here += max(live.read_up_to - before, 0)
            spare()  # what the piece built lives on with the index
            if live.format is not None and not live.followed:
                break  # no stream follows it: read whole below, within the same bounds
            if live.read_up_to >= status.st_size or live.read_up_to == before:
                break
            if (stop is not None and stop()) or (max_bytes is not None and read_here >= max_bytes):
                break
    if not live.followed:
        return read_transcript(path, stop=stop, max_bytes=max_bytes)
    stat = path.stat()
    cut = _first(live.read_up_to, stat.st_size) if live.read_up_to < status.st_size else None
    if on_read is not None:
        on_read(ReadTranscript(path, live.index, live.tally, len(live.skipped), stat, cut=cut))
    problem = None
    pickled: bytes | None = None
    live.index.remember_symbols()
    # Little appended since the state kept: the next run reads it again from the transcript (the
    # journal of what came since), which costs less than writing the whole state anew.
    if cut is None and not restarted and not worth_keeping(kept_at, live.read_up_to):
        live.index.settle()
        states.used(live)
        reports.snapshots = False  # nor are this run's reports kept
    else:
        try:
            if cut is None:  # (cut short, time is short: what was read is kept first, found later)
                live.index.settle()  # what the next run reuses, its symbols found once
                # Each symbol's net change, worked out before the end of the file adds what a
                # later line may contradict: the next run works out only the symbols it adds to.
                live.index.symbols()
            pickled = states.pickled(live)
            states.save(live, reports, pickled=pickled)
        except (OSError, pickle.PicklingError, StateError) as exc:
            problem = f"the session's state for the next hook could not be kept ({exc})"
    try:
        index = live.finish()
    except Reread:
        return read_transcript(path, stop=stop, max_bytes=max_bytes)

    def keep() -> str | None:
        # Kept again, now with this run's reports (``reports`` is updated as they are made).
        if pickled is None or problem is not None:
            return None
        try:
            states.save(live, reports, pickled=pickled)
        except (OSError, StateError) as exc:
            return f"the session's state for the next hook could not be kept ({exc})"
        return None

    return ReadTranscript(
        path,
        index,
        live.tally,
        len(live.skipped),
        stat,
        problem=problem,
        cut=cut,
        reports=reports,
        keep=keep,
    )


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _changed(index: ArtifactIndex) -> int:
    return sum(1 for _, status in index.changed_paths() if status in _CHANGED)


def _store(read: ReadTranscript, store: SessionStore) -> str:
    record = session_record(read.path, read.index, read.tally, read.skipped, read.stat)
    store.save(record)
    return record.id


def snapshot(read: ReadTranscript, trigger: str | None, store: SessionStore) -> None:
    """Store the session as it stands before the compaction, and log it."""
    from artifact_index.live.store import Compaction

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
    from artifact_index.live.store import Compaction
    from summarizer.evaluation.probes import probe_summary

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
