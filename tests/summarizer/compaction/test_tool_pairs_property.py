"""Property: no compaction ever separates a tool call from its result, in either shape.

Random conversations (several calls per step, errors, pending calls,
mid-session system messages) go through random compactor configurations,
twice in a row; the output must still be a valid request: every result right
after its call, every answered call still answered, system messages intact.
"""

from __future__ import annotations

import copy
from typing import Any, cast

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from summarizer.compaction.compactor import Compactor, CompactorConfig
from summarizer.compaction.summary_message import read_summary
from tests.support.compaction_chat import SHAPES, Chat, StaticSummarizer, call_ids, result_ids

TOOLS = ["Read", "Bash", "Grep", "skill", "TodoWrite", "custom"]

step = st.one_of(
    st.tuples(st.just("user"), st.integers(0, 300)),
    st.tuples(st.just("assistant"), st.integers(0, 300)),
    st.tuples(st.just("system"), st.integers(1, 50)),
    st.tuples(
        st.just("tools"),
        st.lists(
            st.tuples(st.sampled_from(TOOLS), st.integers(0, 3_000), st.booleans()),
            min_size=1,
            max_size=3,
        ),
    ),
)


@st.composite
def conversations(draw: st.DrawFn) -> tuple[str, list[dict[str, Any]]]:
    shape = draw(st.sampled_from(SHAPES))
    chat = Chat(shape, system="rules" if shape == "openai" else None)
    chat.user("start")
    for kind, detail in cast(list[tuple[str, Any]], draw(st.lists(step, max_size=25))):
        if kind == "user":
            chat.user("u" * detail)
        elif kind == "assistant":
            chat.assistant("a" * detail)
        elif kind == "system":
            if shape == "openai":
                chat.messages.append({"role": "developer", "content": "d" * detail})
        else:
            error = any(failed for _, _, failed in detail)
            chat.tools([(tool, "o" * size) for tool, size, _ in detail], errors=error)
    if draw(st.booleans()):
        chat.tool("Bash", None)  # a call still running at the end
    return shape, chat.messages


configs = st.builds(
    lambda window, micro, prune, keep, unit, ratio: CompactorConfig.model_validate(
        {
            "context_window": window,
            "micro_compaction": {"head_chars": 20, "tail_chars": 10} if micro else None,
            "pruning": {"protect_tokens": prune[0], "minimum_tokens": prune[1]} if prune else None,
            "keep_recent": {"turns": keep, "turn_unit": unit},
            "triggers": [{"kind": "threshold", "ratio": ratio}],
        }
    ),
    st.sampled_from([100, 1_000, 5_000, 100_000]),
    st.booleans(),
    st.one_of(st.none(), st.tuples(st.integers(0, 2_000), st.integers(0, 1_000))),
    st.integers(0, 3),
    st.sampled_from(["step", "user"]),
    st.sampled_from([0.1, 0.75, 0.9]),
)


def _answered(messages: list[dict[str, Any]]) -> set[str]:
    return set(result_ids(messages))


def _assert_valid(shape: str, messages: list[dict[str, Any]], answered: set[str]) -> None:
    seen_calls: set[str] = set()
    for index, message in enumerate(messages):
        calls = call_ids([message])
        seen_calls.update(calls)
        results = result_ids([message])
        assert set(results) <= seen_calls, f"result before its call at {index}"
        expected = [call for call in calls if call in answered]
        if not expected:
            continue
        # The results of this step follow it immediately.
        if shape == "anthropic":
            following = messages[index + 1] if index + 1 < len(messages) else {}
            got = result_ids([following])
        else:
            got = []
            for later in messages[index + 1 :]:
                if later.get("role") != "tool":
                    break
                got.append(later["tool_call_id"])
        assert sorted(got) == sorted(expected), f"step {index} lost its results"
    assert set(result_ids(messages)) <= set(call_ids(messages))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(conversations(), configs, st.booleans())
def test_compaction_keeps_every_call_with_its_result(
    conversation: tuple[str, list[dict[str, Any]]], config: CompactorConfig, force: bool
) -> None:
    shape, messages = conversation
    before = copy.deepcopy(messages)
    answered = _answered(messages)
    compactor = Compactor(config, StaticSummarizer(), counter=len)

    once, result = compactor.compact(messages, force=force)
    assert messages == before
    _assert_valid(shape, once, answered)
    twice, _ = compactor.compact(once, force=True)
    _assert_valid(shape, twice, answered)

    for output in (once, twice):
        systems = [m for m in output if m.get("role") in ("system", "developer")]
        assert systems == [m for m in before if m.get("role") in ("system", "developer")]
        rest = [m for m in output if m.get("role") not in ("system", "developer")]
        summaries = [
            i for i, m in enumerate(rest) if read_summary(m, compactor.summary_key) is not None
        ]
        assert summaries in ([], [0])
    if result.did_compress:
        assert result.released != 0 or once != messages
