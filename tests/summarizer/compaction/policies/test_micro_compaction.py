"""Micro-compaction (the context service's design): old long outputs of compressible tools lose their middle."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from summarizer.compaction.compactor import Compactor, CompactorConfig
from summarizer.compaction.event_log import CompactEvent, EventLog
from summarizer.compaction.policies import MicroCompactionConfig
from summarizer.tokens import estimate_prompt
from tests.support.compaction_chat import SHAPES, Chat, Shape, tool_output

LONG = "".join(f"line {n:04d} of the file\n" for n in range(200))  # 4,400 characters
NOW = datetime(2025, 5, 1, 12, 0, tzinfo=UTC)


def _compactor(window: int, log: EventLog | None = None, **micro: object) -> Compactor:
    config = CompactorConfig(
        context_window=window,
        micro_compaction=MicroCompactionConfig.model_validate(micro),
        pruning=None,
        triggers=(),
    )
    return Compactor(config, None, log, counter=len, clock=lambda: NOW)


def _session(shape: Shape, tool: str = "Read") -> tuple[Chat, list[str]]:
    chat = Chat(shape)
    chat.user("tidy the module")  # turn 1
    ids = [chat.tool(tool, LONG) for _ in range(4)]  # turns 2-5
    return chat, ids


@pytest.mark.parametrize("shape", SHAPES)
def test_threshold_is_strictly_above_a_quarter_of_the_window(shape: Shape) -> None:
    chat, ids = _session(shape)
    estimate = estimate_prompt(chat.messages, counter=len)
    at_quarter, _ = _compactor(4 * estimate).compact(chat.messages)
    assert at_quarter == chat.messages
    above, result = _compactor(4 * estimate - 1).compact(chat.messages)
    assert tool_output(above, ids[0]) != LONG
    assert result.did_compress and result.released > 0


@pytest.mark.parametrize("shape", SHAPES)
def test_only_turns_older_than_the_previous_one(shape: Shape) -> None:
    chat, ids = _session(shape)
    compacted, _ = _compactor(1000).compact(chat.messages)
    # Current turn 5, previous 4: turns 2 and 3 are old.
    assert [tool_output(compacted, i) == LONG for i in ids] == [False, False, True, True]


@pytest.mark.parametrize("shape", SHAPES)
def test_head_and_tail_kept_and_the_elision_measured(shape: Shape) -> None:
    chat, ids = _session(shape)
    compacted, _ = _compactor(1000, head_chars=200, tail_chars=100).compact(chat.messages)
    text = tool_output(compacted, ids[0])
    assert text is not None
    assert text.startswith(LONG[:200]) and text.endswith(LONG[-100:])
    elided = LONG[200:-100]
    assert f"[... {len(elided):,} characters ({elided.count(chr(10)) + 1:,} lines)" in text
    assert len(text) < 400


@pytest.mark.parametrize("shape", SHAPES)
def test_outputs_under_120_characters_are_kept(shape: Shape) -> None:
    chat = Chat(shape)
    chat.user("go")
    short = chat.tool("Bash", "y" * 119)
    edge = chat.tool("Bash", "z" * 120)
    chat.tool("Bash", "recent")
    chat.tool("Bash", "current")
    compacted, _ = _compactor(10, head_chars=10, tail_chars=10).compact(chat.messages)
    assert tool_output(compacted, short) == "y" * 119
    edged = tool_output(compacted, edge)
    assert edged is not None and edged.startswith("z" * 10) and "elided" in edged


@pytest.mark.parametrize(
    ("tool", "truncated"),
    [
        ("read_file", True),
        ("Read", True),
        ("Bash", True),
        ("exec_command", True),
        ("Grep", True),
        ("Glob", True),
        ("WebFetch", True),
        ("web_search", True),
        ("edit_file", True),
        ("TodoWrite", False),
        ("skill", False),
        ("my_custom_tool", False),
    ],
)
def test_only_compressible_tools(tool: str, truncated: bool) -> None:
    chat, ids = _session("anthropic", tool)
    compacted, _ = _compactor(1000).compact(chat.messages)
    assert (tool_output(compacted, ids[0]) != LONG) is truncated


def test_the_tool_list_is_configurable_by_any_agents_names() -> None:
    chat, ids = _session("openai", "my_custom_tool")
    compacted, _ = _compactor(1000, tools=("my_custom_tool",)).compact(chat.messages)
    assert tool_output(compacted, ids[0]) != LONG
    chat, ids = _session("openai", "Bash")
    compacted, _ = _compactor(1000, tools=("read_file",)).compact(chat.messages)
    assert tool_output(compacted, ids[0]) == LONG


@pytest.mark.parametrize("shape", SHAPES)
def test_error_outputs_keep_their_exact_text(shape: Shape) -> None:
    chat = Chat(shape)
    chat.user("go")
    failed = chat.tool("Bash", LONG, errors=True)
    chat.tool("Bash", "recent")
    chat.tool("Bash", "current")
    compacted, _ = _compactor(10).compact(chat.messages)
    if shape == "anthropic":  # OpenAI tool messages carry no error flag
        assert tool_output(compacted, failed) == LONG


@pytest.mark.parametrize("shape", SHAPES)
def test_truncation_is_idempotent_and_the_input_untouched(shape: Shape) -> None:
    chat, _ = _session(shape)
    before = copy.deepcopy(chat.messages)
    compactor = _compactor(1000)
    once, _ = compactor.compact(chat.messages)
    twice, result = compactor.compact(once)
    assert chat.messages == before
    assert twice == once
    assert not result.did_compress and result.released == 0


def test_one_compact_event_per_pass(tmp_path: Path) -> None:
    chat, _ = _session("anthropic")
    log = EventLog(tmp_path / "session.jsonl")
    compactor = _compactor(1000, log)
    compactor.compact(chat.messages)
    [event] = log.events()
    assert isinstance(event, CompactEvent)
    assert (event.start_turn_id, event.end_turn_id, event.policy) == (2, 3, "micro_compaction")
    record = json.loads((tmp_path / "session.jsonl").read_text())
    assert {"type", "uuid", "startTurnId", "endTurnId", "timestamp"} <= record.keys()
    assert record["type"] == "compact" and record["timestamp"].startswith("2025-05-01T12:00:00")
    # The same truncation of a resent history is not logged again.
    compactor.compact(chat.messages)
    assert len(log.events()) == 1
