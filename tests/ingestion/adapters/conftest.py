"""Helpers for adapter tests: run an adapter and look at what it says about files."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from artifact_index.ingestion.adapters import adapter_named, detect
from artifact_index.ingestion.events import Event, ToolCall, ToolResult
from artifact_index.ingestion.source import Source, read_source


@dataclass(frozen=True)
class Touch:
    """One operation on one path with the outcome of its call."""

    action: str
    status: str
    failure: str | None
    turn: int
    tool: str


@dataclass
class Run:
    source: Source
    events: list[Event]
    detected: str
    calls: list[ToolCall] = field(default_factory=list)
    results: dict[str, ToolResult] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.calls = [e for e in self.events if isinstance(e, ToolCall)]
        self.results = {e.call_id: e for e in self.events if isinstance(e, ToolResult)}

    def touches(self) -> dict[str, list[Touch]]:
        """``path -> operations`` (shell operations keyed by their command)."""
        out: dict[str, list[Touch]] = defaultdict(list)
        for call in self.calls:
            result = self.results[call.call_id]
            for op in call.operations:
                key = op.path if op.path is not None else op.command or ""
                out[key].append(
                    Touch(op.action, result.status, result.failure, call.turn, call.tool)
                )
        return dict(out)

    def changed(self) -> set[str]:
        """Paths a successful call created, wrote or edited."""
        return {
            path
            for path, touches in self.touches().items()
            if any(
                t.action in ("create", "write", "edit") and t.status == "success" for t in touches
            )
        }


Loader = Callable[[str, Path], Run]


@pytest.fixture(scope="session")
def load() -> Loader:
    def run(format_name: str, path: Path) -> Run:
        source = read_source(path)
        detected = detect(source).name
        events = list(adapter_named(format_name).events(source))
        return Run(source, events, detected)

    return run
