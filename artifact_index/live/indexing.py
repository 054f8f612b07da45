"""Indexing one transcript for the session store (the per-file function of ``artifact-index store``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from artifact_index.batch.discovery import Candidate
from artifact_index.exceptions import ArtifactIndexError, BinaryInput, UnknownFormat
from artifact_index.ingestion.loading import open_transcript
from artifact_index.live.record import EventTally, SessionRecord, session_record
from artifact_index.trail.collection import collector_spared
from artifact_index.trail.tracker import Tracker

__all__ = ["Indexed", "index_for_store"]


@dataclass(frozen=True)
class Indexed:
    """One transcript's record for the store, or why there is none."""

    kind: Literal["done", "failed", "not_transcript"]
    record: SessionRecord | None = None
    message: str | None = None


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
