"""Builders for hand-written event streams."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import count
from typing import Any

import pytest

from artifact_index.ingestion.events import (
    Event,
    FileOperation,
    ReportedChange,
    SessionInfo,
    ToolCall,
    ToolResult,
)

Call = Callable[..., list[Event]]


def make_call(ids: Iterator[int]) -> Call:
    def call(
        *ops: FileOperation,
        tool: str = "Edit",
        status: str = "success",
        failure: str | None = None,
        reported: tuple[ReportedChange, ...] | None = None,
        turn: int = 1,
        **args: Any,
    ) -> list[Event]:
        call_id = f"c{next(ids)}"
        return [
            ToolCall(turn=turn, call_id=call_id, tool=tool, arguments=args, operations=ops),
            ToolResult(
                turn=turn, call_id=call_id, status=status, failure=failure, reported=reported
            ),  # type: ignore[arg-type]
        ]

    return call


@pytest.fixture
def call() -> Call:
    return make_call(count(1))


@pytest.fixture
def session() -> list[Event]:
    return [SessionInfo(turn=0, cwd="/repo", session_id="s1")]
