"""Pruning (the session-compaction design): completed outputs beyond 40k protected tokens are cleared, if >= 20k."""

from __future__ import annotations

import pytest

from summarizer.compaction.compactor import Compactor, CompactorConfig
from summarizer.compaction.policies import CLEARED, PruningConfig
from tests.support.compaction_chat import SHAPES, Chat, Shape, tool_output


def _prune(messages: list[dict[str, object]], **settings: object) -> list[dict[str, object]]:
    config = CompactorConfig(
        micro_compaction=None,
        pruning=PruningConfig.model_validate(settings),
        triggers=(),
    )
    # counter=len: one character is one token, so the budgets are exact.
    compacted, _ = Compactor(config, None, counter=len).compact(messages)
    return compacted


def _session(shape: Shape, old: list[tuple[str, int]]) -> tuple[Chat, list[str], list[str]]:
    """Old outputs under a first prompt, then two more prompts with an output each."""
    chat = Chat(shape)
    chat.user("first task")
    old_ids = [chat.tool(tool, "o" * size) for tool, size in old]
    chat.user("second task")
    recent = [chat.tool("Read", "r" * 50_000)]
    chat.user("third task")
    recent.append(chat.tool("Read", "r" * 50_000))
    return chat, old_ids, recent


@pytest.mark.parametrize("shape", SHAPES)
def test_outputs_beyond_the_protected_budget_are_cleared(shape: Shape) -> None:
    # Newest first: 40,000 fills the budget exactly (protected); the next
    # crosses it and is cleared, as is everything older.
    chat, old, recent = _session(shape, [("Read", 10_000), ("Bash", 10_000), ("Grep", 40_000)])
    compacted = _prune(chat.messages)
    assert [tool_output(compacted, i) for i in old[:2]] == [CLEARED, CLEARED]
    assert tool_output(compacted, old[2]) == "o" * 40_000
    assert all(tool_output(compacted, i) == "r" * 50_000 for i in recent)


@pytest.mark.parametrize(("oldest", "pruned"), [(10_000, True), (9_999, False)])
@pytest.mark.parametrize("shape", SHAPES)
def test_nothing_is_cleared_unless_20k_can_be_freed(
    shape: Shape, oldest: int, pruned: bool
) -> None:
    chat, old, _ = _session(shape, [("Read", oldest), ("Read", 10_000), ("Read", 40_000)])
    compacted = _prune(chat.messages)
    assert (tool_output(compacted, old[0]) == CLEARED) is pruned
    assert (tool_output(compacted, old[1]) == CLEARED) is pruned


@pytest.mark.parametrize("shape", SHAPES)
def test_the_last_two_user_turns_are_never_pruned(shape: Shape) -> None:
    chat = Chat(shape)
    chat.user("only two prompts")
    first = [chat.tool("Read", "a" * 60_000) for _ in range(3)]
    chat.user("second")
    second = chat.tool("Read", "b" * 60_000)
    compacted = _prune(chat.messages)
    assert compacted == chat.messages
    assert tool_output(compacted, first[0]) == "a" * 60_000 and tool_output(compacted, second)


@pytest.mark.parametrize("shape", SHAPES)
def test_protected_tools_are_neither_pruned_nor_counted(shape: Shape) -> None:
    chat, old, _ = _session(shape, [("Read", 25_000), ("skill", 30_000), ("Read", 40_000)])
    compacted = _prune(chat.messages)
    assert tool_output(compacted, old[1]) == "o" * 30_000
    assert tool_output(compacted, old[0]) == CLEARED
    # Protected tools are matched case-insensitively; the list is configurable.
    compacted = _prune(chat.messages, protected_tools=("Skill", "Read"))
    assert compacted == chat.messages


def test_error_results_are_not_completed_outputs() -> None:
    chat = Chat("anthropic")
    chat.user("first")
    failed = chat.tool("Bash", "E" * 30_000, errors=True)
    for _ in range(3):
        chat.tool("Read", "o" * 20_000)
    chat.user("second")
    chat.user("third")
    compacted = _prune(chat.messages)
    assert tool_output(compacted, failed) == "E" * 30_000


def test_budgets_and_turns_are_configurable() -> None:
    chat, old, recent = _session("openai", [("Read", 100), ("Read", 100)])
    compacted = _prune(chat.messages, protect_tokens=0, minimum_tokens=1, protect_turns=1)
    assert [tool_output(compacted, i) for i in [*old, recent[0]]] == [CLEARED] * 3
    assert tool_output(compacted, recent[1]) == "r" * 50_000
