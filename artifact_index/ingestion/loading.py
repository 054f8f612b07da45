"""From a transcript path to its adapter and events."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from artifact_index.exceptions import ArtifactIndexError, UnknownFormat
from artifact_index.ingestion.adapters import Adapter, adapter_named, detect
from artifact_index.ingestion.events import Event, SessionInfo, WorkingDirectory
from artifact_index.ingestion.source import Skipped, Source, read_source

__all__ = ["Loaded", "load_events", "open_transcript"]


@dataclass
class Loaded:
    """A read transcript, the adapter that understood it, and what was skipped."""

    source: Source
    adapter: Adapter
    forced: bool = False  # the format was named (--format), not detected

    def events(self) -> Iterator[Event]:
        """The adapter's events; afterwards, unparsable JSON lines are in :attr:`skipped`.

        Raises :class:`~artifact_index.exceptions.UnknownFormat` when nothing
        at all could be read although the format was forced or parts were
        damaged: an empty result must never pass for an empty session.
        """
        source = self.source
        produced = 0
        last_line: int | None = None
        try:
            for event in self.adapter.events(source):
                # Session metadata alone is not something read from the transcript.
                produced += not isinstance(event, SessionInfo | WorkingDirectory)
                last_line = event.line if event.line is not None else last_line
                yield event
        except ArtifactIndexError:
            raise
        except Exception as exc:  # an adapter's bug must not cost what was already read
            reason = " ".join(str(exc).split())[:300]
            source.skip(
                last_line, f"reading stopped after this point ({type(exc).__name__}: {reason})"
            )
        if source.document is None and source.looks_like_jsonl():
            seen = {s.line for s in source.skipped}
            source.skipped.extend(s for s in source.bad_lines if s.line not in seen)
            source.skipped.sort(key=lambda s: (s.line is None, s.line or 0))
        if produced == 0 and (self.forced or source.skipped):
            if self.forced:
                raise UnknownFormat(
                    f"{source.name} read as {self.adapter.name} yields nothing: it is not a "
                    f"{self.adapter.name} transcript, or it is damaged"
                )
            first = source.skipped[0]
            where = f"line {first.line}: " if first.line is not None else ""
            raise UnknownFormat(
                f"nothing could be read from {source.name}: {len(source.skipped)} damaged "
                f"part(s), the first at {where}{first.reason}"
            )

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
    return Loaded(source, adapter, forced=format is not None)


def load_events(path: str | Path, format: str | None = None) -> list[Event]:
    """All normalized events of a transcript."""
    return list(open_transcript(path, format).events())
