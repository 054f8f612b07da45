"""Reading a fixture with one adapter, and finding a call or its result among the events."""

from __future__ import annotations

from pathlib import Path

from artifact_index.ingestion.adapters import Adapter
from artifact_index.ingestion.events import Event, ToolCall, ToolResult
from artifact_index.ingestion.source import Source, read_source


def read_events(adapter: Adapter, path: Path) -> tuple[list[Event], Source]:
    """The events ``adapter`` reads from ``path``, which it must recognize as its own format."""
    source = read_source(path)
    assert adapter.sniff(source), path.name
    return list(adapter.events(source)), source


def call_with(events: list[Event], call_id: str) -> ToolCall:
    return next(e for e in events if isinstance(e, ToolCall) and e.call_id == call_id)


def result_of(events: list[Event], call_id: str) -> ToolResult:
    """The one result of ``call_id`` (a second one would be a bug)."""
    (result,) = [e for e in events if isinstance(e, ToolResult) and e.call_id == call_id]
    return result
