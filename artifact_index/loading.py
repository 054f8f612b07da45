"""From a transcript path to events and an index: the library's front door."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .adapters import Adapter, adapter_named, detect
from .events import Event
from .index import ArtifactIndex
from .source import Skipped, Source, read_source
from .tracker import Tracker

__all__ = ["Loaded", "build_index", "load_events", "open_transcript"]


@dataclass
class Loaded:
    """A read transcript, the adapter that understood it, and what was skipped."""

    source: Source
    adapter: Adapter

    def events(self) -> Iterator[Event]:
        """The adapter's events; afterwards, unparsable JSON lines are in :attr:`skipped`."""
        yield from self.adapter.events(self.source)
        source = self.source
        if source.document is None and source.looks_like_jsonl():
            seen = {s.line for s in source.skipped}
            source.skipped.extend(s for s in source.bad_lines if s.line not in seen)
            source.skipped.sort(key=lambda s: (s.line is None, s.line or 0))

    @property
    def skipped(self) -> list[Skipped]:
        return self.source.skipped


def open_transcript(path: str | Path, format: str | None = None) -> Loaded:
    """Read ``path`` (``-`` for stdin, gzip allowed) and pick its adapter.

    Raises :class:`~artifact_index.errors.UnreadableInput` or
    :class:`~artifact_index.errors.UnknownFormat`.
    """
    source = read_source(path)
    adapter = adapter_named(format) if format else detect(source)
    return Loaded(source, adapter)


def load_events(path: str | Path, format: str | None = None) -> list[Event]:
    """All normalised events of a transcript."""
    return list(open_transcript(path, format).events())


def build_index(path: str | Path, format: str | None = None) -> tuple[ArtifactIndex, Loaded]:
    """The artifact index of a whole transcript, and the loaded transcript."""
    loaded = open_transcript(path, format)
    tracker = Tracker(format=loaded.adapter.name)
    tracker.feed_all(loaded.events())
    return tracker.index, loaded
