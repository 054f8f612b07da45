"""Indexing one transcript for the session store (the per-file functions of ``artifact-index store`` and ``watch``)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from artifact_index.batch.discovery import Candidate
from artifact_index.exceptions import ArtifactIndexError, BinaryInput, UnknownFormat
from artifact_index.ingestion.loading import open_transcript
from artifact_index.live.live_transcript import LiveTranscript
from artifact_index.live.record import EventTally, KeptRows, SessionRecord, session_record
from artifact_index.trail.collection import collector_spared
from artifact_index.trail.tracker import Tracker

__all__ = ["Indexed", "index_for_store", "index_to_follow"]


@dataclass(frozen=True)
class Indexed:
    """One transcript's record for the store, or why there is none."""

    kind: Literal["done", "failed", "not_transcript"]
    record: SessionRecord | None = None
    message: str | None = None
    live: LiveTranscript | None = (
        None  # the transcript as followed from here on (see index_to_follow)
    )
    rows: KeptRows | None = (
        None  # the record's rows, for the next record of the followed transcript
    )


def index_for_store(candidate: Candidate, format: str | None = None) -> Indexed:
    """Read ``candidate`` whole and make its :class:`SessionRecord`."""
    if candidate.path == "-":
        return Indexed(
            "failed", message="the store keeps transcript files; standard input has no path to keep"
        )
    try:
        path = Path(candidate.path)
        stat = path.stat()
        loaded = open_transcript(path, format)
        tracker = Tracker(format=loaded.adapter.name)
        tally = EventTally()
        # The events are counted as they are fed, never held: a long session's are most of its memory.
        events = collector_spared(loaded.events())
        try:
            for event in events:
                tracker.feed(event)
                tally.add(event)
        finally:
            events.close()
        return Indexed(
            "done", session_record(path, tracker.index, tally, len(loaded.skipped), stat)
        )
    except (UnknownFormat, BinaryInput) as exc:
        return Indexed("failed" if candidate.named else "not_transcript", message=str(exc))
    except FileNotFoundError:
        return Indexed("failed", message=f"{candidate.path}: no such file")
    except ArtifactIndexError as exc:
        return Indexed("failed", message=str(exc))
    except Exception as exc:  # one transcript's bug must not end the others
        return Indexed("failed", message=f"internal error: {type(exc).__name__}: {exc}")


def index_to_follow(candidate: Candidate, format: str | None, follow: frozenset[str]) -> Indexed:
    """:func:`index_for_store`, except that a transcript in ``follow`` is read as followed from here on.

    Its :class:`~artifact_index.live.live_transcript.LiveTranscript` comes back
    with the record (which says the file as it stands, less what waits for a
    later line), so the first line appended after the watch starts costs
    that line, not the whole file again; and so do the record's rows
    (:class:`~artifact_index.live.record.KeptRows`), so that the next record
    makes only the rows that line changed.
    """
    if candidate.path not in follow:
        return index_for_store(candidate, format)
    try:
        live = LiveTranscript(candidate.path, format)
        live.refresh()
        if not live.followed:
            return index_for_store(candidate, format)
        rows = KeptRows()
        record = session_record(
            candidate.path,
            live.index,
            live.tally,
            len(live.skipped),
            os.stat(candidate.path),
            rows,
        )
        return Indexed("done", record, live=live, rows=rows)
    except ArtifactIndexError as exc:
        return Indexed("failed", message=str(exc))
    except OSError as exc:
        return Indexed("failed", message=f"{candidate.path} cannot be read ({exc.strerror or exc})")
    except Exception as exc:  # one transcript's bug must not end the others
        return Indexed("failed", message=f"internal error: {type(exc).__name__}: {exc}")
