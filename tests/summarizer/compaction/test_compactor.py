"""The Compactor: order of steps, the summary message, what is never touched, the result."""

from __future__ import annotations

import copy
import json

import pytest

from summarizer.compaction.compactor import Compactor, CompactorConfig
from summarizer.compaction.result import CompressResult
from summarizer.compaction.summary_message import SUMMARY_PREFIX, read_summary, summary_message
from tests.support.compaction_chat import SHAPES, Chat, Shape, StaticSummarizer, tool_output


def test_compress_result_uses_the_seeds_json_names() -> None:
    result = CompressResult(did_compress=True, released=1200, prompt_estimate=3400)
    assert result.to_json_dict() == {"didCompress": True, "released": 1200, "promptEstimate": 3400}
    assert json.loads(result.model_dump_json(by_alias=True)) == result.to_json_dict()
    assert CompressResult.model_validate(result.to_json_dict()) == result


def _session(shape: Shape) -> Chat:
    chat = Chat(shape, system="You are a coding agent.")
    chat.user("make the tests pass")
    for n in range(5):
        chat.tool("Read", f"file {n}\n" + "x" * 3_000, text=f"reading file {n}")
    chat.assistant("tests pass now")
    chat.user("thanks, now document it")
    return chat


@pytest.mark.parametrize("shape", SHAPES)
def test_below_every_threshold_nothing_changes(shape: Shape) -> None:
    chat = _session(shape)
    messages, result = Compactor(CompactorConfig(), StaticSummarizer()).compact(chat.messages)
    assert messages == chat.messages
    assert result == CompressResult(
        did_compress=False, released=0, prompt_estimate=result.prompt_estimate
    )
    assert result.prompt_estimate > 0


@pytest.mark.parametrize("shape", SHAPES)
def test_llm_compaction_replaces_the_span_with_one_marked_summary(shape: Shape) -> None:
    chat = _session(shape)
    before = copy.deepcopy(chat.messages)
    summarizer = StaticSummarizer("## Session Intent\nmake the tests pass")
    compactor = Compactor(CompactorConfig(context_window=400), summarizer)
    messages, result = compactor.compact(chat.messages)
    assert chat.messages == before  # the caller's list is never mutated
    if shape == "openai":
        assert messages[0] == {"role": "system", "content": "You are a coding agent."}
        messages = messages[1:]
    summary, kept = messages[0], messages[1:]
    assert summary["role"] == "user"
    text = summary["content"] if shape == "openai" else summary["content"][0]["text"]
    assert text.startswith(SUMMARY_PREFIX) and text.endswith("make the tests pass")
    assert kept == [{"role": "user", "content": "thanks, now document it"}]
    assert result.did_compress and result.released > 0
    assert compactor.last_report.trigger is not None
    assert compactor.last_report.trigger.startswith("threshold")


@pytest.mark.parametrize("shape", SHAPES)
def test_the_summarizer_gets_the_original_dropped_messages(shape: Shape) -> None:
    chat = _session(shape)
    summarizer = StaticSummarizer()
    Compactor(CompactorConfig(context_window=400), summarizer).compact(chat.messages)
    [(dropped, previous, cycle)] = summarizer.calls
    # Micro-compaction ran first, but the summarizer sees full outputs.
    assert tool_output(dropped, "call_1") == "file 0\n" + "x" * 3_000
    assert all(message.get("role") != "system" for message in dropped)
    assert (previous, cycle) == (None, 1)


@pytest.mark.parametrize("shape", SHAPES)
def test_history_before_the_latest_summary_is_dropped(shape: Shape) -> None:
    compactor = Compactor()
    old = summary_message(shape, "## old", last_turn=3, cycle=1, key=compactor.summary_key)
    new = summary_message(shape, "## new", last_turn=9, cycle=2, key=compactor.summary_key)
    messages = [
        {"role": "user", "content": "ancient"},
        old,
        {"role": "assistant", "content": "stale"},
        new,
        {"role": "user", "content": "current"},
    ]
    compacted, result = compactor.compact(messages)
    assert compacted == [new, {"role": "user", "content": "current"}]
    assert result.did_compress and result.released > 0


def test_openai_system_messages_are_kept_verbatim_and_first() -> None:
    chat = _session("openai")
    chat.messages.insert(3, {"role": "developer", "content": "mid-session rule"})
    compactor = Compactor(CompactorConfig(context_window=400), StaticSummarizer())
    messages, _ = compactor.compact(chat.messages)
    assert messages[:2] == [
        {"role": "system", "content": "You are a coding agent."},
        {"role": "developer", "content": "mid-session rule"},
    ]
    assert read_summary(messages[2], compactor.summary_key) is not None


def test_without_a_summarizer_only_the_cheap_policies_run() -> None:
    chat = _session("anthropic")
    messages, result = Compactor(CompactorConfig(context_window=400)).compact(chat.messages)
    assert len(messages) == len(chat.messages) and result.did_compress
    assert tool_output(messages, "call_1") != tool_output(chat.messages, "call_1")


def test_force_with_a_single_turn_has_nothing_to_summarize() -> None:
    summarizer = StaticSummarizer()
    _, result = Compactor(CompactorConfig(), summarizer).compact(
        [{"role": "user", "content": "hi"}], force=True
    )
    assert summarizer.calls == [] and not result.did_compress
