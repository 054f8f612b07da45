"""The corpus's transcripts, and the points inside each session where a summary could be asked for.

Shared by the benchmarks that count how often a summary fact applies
(``current_facts.py``, ``current_thread.py``): a point is before each user
message after the first, every ``every_calls`` tool calls of the main agent,
and the end of the session.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from artifact_index.ingestion.events import Event, ToolCall, UserMessage
from artifact_index.ingestion.loading import open_transcript
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.tracker import Tracker


@dataclass(frozen=True)
class Point:
    number: int  # how many events came before it
    events: list[Event]  # the whole session's events; those before the point are events[:number]
    index: ArtifactIndex  # the tracker's index, fed up to the point
    at_end: bool


def corpus_transcripts(corpus: Path) -> list[Path] | None:
    """Every transcript the corpus manifest lists, or None when there is no manifest."""
    manifest = corpus / "MANIFEST.tsv"
    if not manifest.exists():
        return None
    with manifest.open(encoding="utf-8") as handle:
        return [corpus / row["local_path"] for row in csv.DictReader(handle, delimiter="\t")]


def session_points(path: Path, every_calls: int) -> Iterator[Point]:
    """The points of one session, its tracker fed incrementally (the index is the same object at each)."""
    loaded = open_transcript(path)
    events = list(loaded.events())
    tracker = Tracker(format=loaded.adapter.name)
    seen_user = False
    calls = 0
    for number, event in enumerate([*events, None]):
        spoke = isinstance(event, UserMessage) and not event.synthetic and event.sidechain is None
        working = isinstance(event, ToolCall) and event.sidechain is None
        calls += working
        if event is None or (spoke and seen_user) or (working and calls % every_calls == 0):
            yield Point(number, events, tracker.index, at_end=event is None)
        if event is not None:
            seen_user = seen_user or spoke
            tracker.feed(event)
