"""From a transcript path to its artifact index: the library's front door."""

from __future__ import annotations

from pathlib import Path

from artifact_index.ingestion.loading import Loaded, open_transcript
from artifact_index.trail.collection import collector_spared
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.tracker import Tracker

__all__ = ["build_index"]


def build_index(path: str | Path, format: str | None = None) -> tuple[ArtifactIndex, Loaded]:
    """The artifact index of a whole transcript, and the loaded transcript."""
    loaded = open_transcript(path, format)
    tracker = Tracker(format=loaded.adapter.name)
    events = collector_spared(loaded.events())
    try:
        tracker.feed_all(events)
    finally:
        events.close()
    return tracker.index, loaded
