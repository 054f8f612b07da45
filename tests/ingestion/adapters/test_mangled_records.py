"""Codex, OpenCode, Copilot CLI and Gemini CLI adapters never raise on damaged records.

A transcript cut mid-write, or written by a release with other field types,
must still yield whatever can be read: fields of the hand-written fixtures
are replaced at random by values of the wrong type and every adapter must
finish without an exception.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from artifact_index.ingestion.adapters.base import Adapter
from artifact_index.ingestion.adapters.codex import CodexAdapter
from artifact_index.ingestion.adapters.copilot_cli import CopilotCliAdapter
from artifact_index.ingestion.adapters.gemini_cli import GeminiCliAdapter
from artifact_index.ingestion.adapters.opencode import OpenCodeAdapter
from artifact_index.ingestion.events import ToolCall, ToolResult
from artifact_index.ingestion.source import Source

_WRONG: list[Any] = [None, 0, -1, True, "", "x", [], {}, [1, "a"], {"a": 1}, 2.5]

CASES = [
    (CodexAdapter(), "codex"),
    (OpenCodeAdapter(), "opencode"),
    (CopilotCliAdapter(), "copilot_cli"),
    (GeminiCliAdapter(), "gemini_cli"),
]


def _mangle(value: Any, rnd: random.Random, rate: float) -> Any:
    if isinstance(value, dict):
        return {
            k: rnd.choice(_WRONG) if rnd.random() < rate else _mangle(v, rnd, rate)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [rnd.choice(_WRONG) if rnd.random() < rate else _mangle(v, rnd, rate) for v in value]
    return value


def _mangled_text(text: str, rnd: random.Random, rate: float) -> str:
    try:
        return json.dumps(_mangle(json.loads(text), rnd, rate))
    except json.JSONDecodeError:
        lines = []
        for line in text.splitlines():
            try:
                lines.append(json.dumps(_mangle(json.loads(line), rnd, rate)))
            except json.JSONDecodeError:
                lines.append(line)
        return "\n".join(lines)


@pytest.mark.parametrize(("adapter", "folder"), CASES, ids=[folder for _, folder in CASES])
def test_damaged_fixtures_never_raise(adapter: Adapter, folder: str, fixtures_dir: Path) -> None:
    rnd = random.Random(20260301)
    for path in sorted((fixtures_dir / folder).iterdir()):
        text = path.read_text(encoding="utf-8")
        for rate in (0.05, 0.2, 0.5):
            source = Source(path.name, _mangled_text(text, rnd, rate))
            adapter.sniff(source)
            events = list(adapter.events(source))
            calls = {e.call_id for e in events if isinstance(e, ToolCall)}
            # Whatever survives keeps its pairing: no result without a call.
            assert {e.call_id for e in events if isinstance(e, ToolResult)} <= calls


@pytest.mark.parametrize(("adapter", "folder"), CASES, ids=[folder for _, folder in CASES])
@pytest.mark.parametrize("text", ["", "[]", "{}", "null", "[1, 2]\n[3]", '{"messages": {"a": 1}}'])
def test_inputs_of_the_wrong_shape(adapter: Adapter, folder: str, text: str) -> None:
    source = Source(folder, text)
    adapter.sniff(source)
    assert not [e for e in adapter.events(source) if isinstance(e, ToolCall)]
