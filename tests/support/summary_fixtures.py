"""Helpers for the summary tests: hand-written event fixtures, a scripted writer, golden files."""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import pytest
from pydantic import TypeAdapter

from artifact_index.ingestion.events import Event
from summarizer.narrative.narrative_model import NarrativeReply, NarrativeRequest, SectionReply
from tests.support.paths import FIXTURES

__all__ = ["SUMMARIES", "ScriptedWriter", "assert_golden", "load_events", "reply"]

SUMMARIES = FIXTURES / "summaries"
_EVENT = TypeAdapter(Event)


def load_events(name: str) -> list[Event]:
    """The events of ``tests/fixtures/summaries/NAME.events.jsonl`` (one event per line)."""
    path = SUMMARIES / f"{name}.events.jsonl"
    return [
        _EVENT.validate_json(line)
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]


def reply(
    sections: Mapping[str, Sequence[str] | tuple[Sequence[str], Sequence[int]]],
) -> NarrativeReply:
    """A writer's reply: ``{key: [items]}`` or ``{key: ([items], [superseded numbers])}``."""
    parsed: dict[str, SectionReply] = {}
    for key, value in sections.items():
        if isinstance(value, tuple):
            items, superseded = value
            parsed[key] = SectionReply(items=list(items), superseded=list(superseded))
        else:
            parsed[key] = SectionReply(items=list(value))
    return NarrativeReply(sections=parsed, origin="llm")


class ScriptedWriter:
    """A narrative writer that returns queued replies and keeps every request it got."""

    needs_span = True

    def __init__(self, replies: Iterable[NarrativeReply]) -> None:
        self.replies = list(replies)
        self.requests: list[NarrativeRequest] = []

    def write(self, request: NarrativeRequest) -> NarrativeReply:
        self.requests.append(request)
        if not self.replies:
            raise AssertionError(
                "the summarizer asked for more narrative replies than the test scripted"
            )
        return self.replies.pop(0)


def assert_golden(path: Path, rendered: str) -> None:
    """``rendered`` equals the golden file; UPDATE_GOLDENS=1 rewrites the file instead."""
    if os.environ.get("UPDATE_GOLDENS") == "1":
        path.write_text(rendered, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"golden file {path.name} is missing; run with UPDATE_GOLDENS=1 to write it")
    expected = path.read_text(encoding="utf-8")
    if rendered != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True),
                rendered.splitlines(keepends=True),
                fromfile=f"golden/{path.name}",
                tofile="rendered",
                n=2,
            )
        )
        pytest.fail(
            f"the rendered summary differs from {path.name} (UPDATE_GOLDENS=1 regenerates it if the "
            f"change is intended):\n{diff}",
            pytrace=False,
        )
