"""The corpus's compaction points: where each session's main agent compacted its context, every format.

A point is the events before a compaction boundary of the main agent (a
sub-agent compacting its own context is not a compaction of the session),
with the tracker's index fed up to it.  Shared by the budget test and
``benchmarks/summary_budgets.py``.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from artifact_index.ingestion.events import CompactionBoundary, Event
from artifact_index.ingestion.loading import open_transcript
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.tracker import Tracker

__all__ = ["CompactionPoint", "compaction_points", "transcripts_with_compactions"]


@dataclass(frozen=True)
class CompactionPoint:
    path: Path
    number: int  # 1-based, among the main agent's boundaries
    events: list[Event]  # the events before the boundary
    # The tracker fed those events; shared between the points of one transcript.
    index: ArtifactIndex


def _boundaries(events: list[Event]) -> list[int]:
    return [
        position
        for position, event in enumerate(events)
        if isinstance(event, CompactionBoundary) and event.sidechain is None
    ]


def corpus_transcripts(corpus: Path) -> list[Path]:
    """Every transcript the corpus manifest lists."""
    with (corpus / "MANIFEST.tsv").open(encoding="utf-8") as handle:
        return [corpus / row["local_path"] for row in csv.DictReader(handle, delimiter="\t")]


def transcripts_with_compactions(corpus: Path) -> list[Path]:
    """The corpus's transcripts whose main agent compacted at least once (every format)."""
    found = []
    for path in corpus_transcripts(corpus):
        if not path.exists():
            continue
        loaded = open_transcript(path)
        if _boundaries(list(loaded.events())):
            found.append(path)
    return found


def compaction_points(path: Path) -> Iterator[CompactionPoint]:
    """The points of one transcript, in order; each point's index is only valid until the next is taken."""
    loaded = open_transcript(path)
    events = list(loaded.events())
    tracker = Tracker(format=loaded.adapter.name)
    fed = 0
    for number, position in enumerate(_boundaries(events), start=1):
        for event in events[fed:position]:
            tracker.feed(event)
        fed = position
        yield CompactionPoint(path, number, events[:position], tracker.index)
