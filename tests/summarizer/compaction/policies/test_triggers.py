"""Triggers (threshold, sliding window, task boundary), keep-recent, and the registry."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from summarizer.compaction.compactor import Compactor, CompactorConfig
from summarizer.compaction.message_lists import Conversation
from summarizer.compaction.policies import (
    KeepRecentConfig,
    MicroCompaction,
    MicroCompactionConfig,
    SlidingWindowTriggerConfig,
    TaskBoundaryTriggerConfig,
    Threshold,
    ThresholdTriggerConfig,
    compaction_cut,
    content_policy_for,
    trigger_for,
)
from summarizer.compaction.summary_message import read_summary
from summarizer.tokens import estimate_prompt
from tests.support.compaction_chat import (
    SHAPES,
    Chat,
    Shape,
    StaticSummarizer,
    call_ids,
    result_ids,
)


def _compactor(*triggers: object, keep: int = 1) -> tuple[Compactor, StaticSummarizer]:
    summarizer = StaticSummarizer()
    config = CompactorConfig.model_validate(
        {
            "micro_compaction": None,
            "pruning": None,
            "triggers": triggers,
            "keep_recent": {"turns": keep},
        }
    )
    return Compactor(config, summarizer, counter=len), summarizer


def _talk(shape: Shape, turns: int) -> Chat:
    chat = Chat(shape)
    for n in range(turns // 2):
        chat.user(f"request {n} " + "x" * 100)
        chat.assistant(f"answer {n}")
    return chat


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("ratio", [0.90, 0.75])
def test_threshold_fires_strictly_above_its_ratio(shape: Shape, ratio: float) -> None:
    chat = _talk(shape, 6)
    estimate = estimate_prompt(chat.messages, counter=len)
    at_limit = int(estimate / ratio) + 1  # estimate <= ratio * window
    while estimate > ratio * at_limit:
        at_limit += 1
    compactor, summarizer = _compactor({"kind": "threshold", "ratio": ratio})
    compactor.config = compactor.config.model_copy(update={"context_window": at_limit})
    compactor.compact(chat.messages)
    assert summarizer.calls == []
    compactor.config = compactor.config.model_copy(update={"context_window": at_limit - 2})
    compactor.compact(chat.messages)
    assert len(summarizer.calls) == 1


def test_threshold_default_is_the_context_services_90_percent() -> None:
    assert ThresholdTriggerConfig().ratio == 0.90
    kinds = [trigger.kind for trigger in CompactorConfig().triggers]
    assert kinds == ["threshold", "overflow"]


@pytest.mark.parametrize("shape", SHAPES)
def test_sliding_window_fires_above_n_turns(shape: Shape) -> None:
    compactor, summarizer = _compactor({"kind": "sliding_window", "max_turns": 6})
    compactor.compact(_talk(shape, 6).messages)
    assert summarizer.calls == []
    compacted, _ = compactor.compact(_talk(shape, 8).messages)
    assert len(summarizer.calls) == 1
    assert read_summary(compacted[0], compactor.summary_key) is not None and len(compacted) == 2


def _todo_session(shape: Shape, statuses: list[str], tool: str, key: str) -> Chat:
    chat = Chat(shape)
    chat.user("build the feature")
    items = [{"content": f"step {n}", "status": status} for n, status in enumerate(statuses)]
    chat.tool(tool, "Todos updated", args={key: items})
    chat.assistant("all done")
    chat.user("next task please")
    return chat


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize(("tool", "key"), [("TodoWrite", "todos"), ("update_plan", "plan")])
def test_task_boundary_when_every_todo_is_completed(shape: Shape, tool: str, key: str) -> None:
    compactor, summarizer = _compactor({"kind": "task_boundary"})
    compactor.compact(_todo_session(shape, ["completed", "in_progress"], tool, key).messages)
    assert summarizer.calls == []
    compacted, _ = compactor.compact(
        _todo_session(shape, ["completed", "completed"], tool, key).messages
    )
    assert len(summarizer.calls) == 1
    # The finished task went into the summary, so the boundary cannot fire again.
    compactor.compact(compacted)
    assert len(summarizer.calls) == 1


@pytest.mark.parametrize("shape", SHAPES)
def test_task_boundary_waits_while_the_todo_list_is_in_the_kept_turn(shape: Shape) -> None:
    chat = Chat(shape)
    chat.user("build it")
    chat.tool("TodoWrite", "ok", args={"todos": [{"content": "a", "status": "completed"}]})
    compactor, summarizer = _compactor({"kind": "task_boundary"})
    compactor.compact(chat.messages)
    assert summarizer.calls == []


@pytest.mark.parametrize("shape", SHAPES)
def test_task_boundary_marker(shape: Shape) -> None:
    chat = Chat(shape)
    chat.user("do it")
    chat.assistant("Finished. <task-complete/>")
    chat.user("thanks")
    compactor, summarizer = _compactor({"kind": "task_boundary"})
    compactor.compact(chat.messages)
    assert len(summarizer.calls) == 1
    # A marker inside tool output (e.g. a file that was read) is not the agent's marker.
    chat = Chat(shape)
    chat.user("do it")
    chat.tool("Read", "docs mention <task-complete/> here")
    chat.user("thanks")
    compactor, summarizer = _compactor({"kind": "task_boundary"})
    compactor.compact(chat.messages)
    assert summarizer.calls == []


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("keep", [1, 2, 3])
def test_keep_recent_turns_and_the_cut_never_splits_a_pair(shape: Shape, keep: int) -> None:
    chat = Chat(shape)
    chat.user("go")
    for _ in range(4):
        chat.tools([("Read", "file"), ("Bash", "ok")])
    compactor, summarizer = _compactor(keep=keep)
    compacted, _ = compactor.compact(chat.messages, force=True)
    kept = compacted[1:]
    # Each kept step is one assistant message and its results.
    assert sorted(call_ids(kept)) == sorted(result_ids(kept))
    assert len(call_ids(kept)) == 2 * keep
    dropped = summarizer.calls[0][0]
    assert sorted(call_ids(dropped)) == sorted(result_ids(dropped))


def test_keep_recent_counts_user_turns_when_asked() -> None:
    chat = _talk("anthropic", 6)
    conversation = Conversation(chat.messages)
    assert compaction_cut(conversation, KeepRecentConfig(turns=1)) == 5
    assert compaction_cut(conversation, KeepRecentConfig(turns=2, turn_unit="user")) == 2
    assert compaction_cut(conversation, KeepRecentConfig(turns=3, turn_unit="user")) is None
    assert compaction_cut(conversation, KeepRecentConfig(turns=6)) is None


def test_registry_maps_configs_to_policies() -> None:
    assert isinstance(content_policy_for(MicroCompactionConfig()), MicroCompaction)
    assert isinstance(trigger_for(ThresholdTriggerConfig(ratio=0.8)), Threshold)
    with pytest.raises(TypeError, match="no trigger"):
        trigger_for(MicroCompactionConfig())
    with pytest.raises(TypeError, match="no content policy"):
        content_policy_for(SlidingWindowTriggerConfig())


def test_configs_reject_unknown_keys() -> None:
    with pytest.raises(ValidationError):
        MicroCompactionConfig.model_validate({"threshold": 0.3, "treshold": 0.3})
    with pytest.raises(ValidationError):
        CompactorConfig.model_validate({"triggers": [{"kind": "threshold", "percent": 80}]})
    with pytest.raises(ValidationError):
        TaskBoundaryTriggerConfig.model_validate({"marker": "x"})
    with pytest.raises(ValidationError):
        CompactorConfig.model_validate({"context_window": 0})
