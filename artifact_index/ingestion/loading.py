"""From a transcript path to its adapter and events."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from artifact_index.ingestion.adapters import Adapter, adapter_named, detect
from artifact_index.ingestion.events import Event
from artifact_index.ingestion.source import Skipped, Source, read_source

__all__ = ["Loaded", "load_events", "open_transcript"]


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

    Raises :class:`~artifact_index.exceptions.UnreadableInput` or
    :class:`~artifact_index.exceptions.UnknownFormat`.
    """
    source = read_source(path)
    adapter = adapter_named(format) if format else detect(source)
    return Loaded(source, adapter)


def load_events(path: str | Path, format: str | None = None) -> list[Event]:
    """All normalised events of a transcript."""
    return list(open_transcript(path, format).events())
