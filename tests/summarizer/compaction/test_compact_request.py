"""``run_compact``: a whole Anthropic or OpenAI request body in, messages and result out."""

from __future__ import annotations

import contextlib
import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from artifact_index.exceptions import ArtifactIndexError
from summarizer.compaction.request import run_compact
from summarizer.compaction.summary_message import new_summary_key, read_summary
from summarizer.exceptions import MessageFormatError
from summarizer.summary_commands import compact_request
from tests.support.compaction_chat import SHAPES, Chat, Shape, StaticSummarizer

TOOLS = [
    {
        "name": "Read",
        "description": "Read a file " + "in detail " * 200,
        "input_schema": {"type": "object", "properties": {"file_path": {"type": "string"}}},
    }
]


def _body(shape: Shape) -> dict[str, object]:
    chat = Chat(shape, system="You are a careful coding agent.")
    chat.user("refactor the parser")
    for n in range(4):
        chat.tool("Read", f"def parse_{n}(text):\n" + "    return text.split()\n" * 100)
    chat.assistant("done")
    chat.user("now add tests")
    body: dict[str, object] = {"model": "some-model", "messages": chat.messages, "tools": TOOLS}
    if shape == "anthropic":
        body["system"] = [{"type": "text", "text": "You are a careful coding agent."}]
        body["max_tokens"] = 4096
    return body


@pytest.mark.parametrize("shape", SHAPES)
def test_output_shape_and_untouched_system_and_tools(shape: Shape) -> None:
    body = _body(shape)
    original = copy.deepcopy(body)
    key = new_summary_key()
    out = run_compact(
        body, 900, StaticSummarizer("## Intent\nrefactor the parser"), summary_key=key
    )
    assert body == original
    assert set(out) == {"messages", "result"}
    assert set(out["result"]) == {"didCompress", "released", "promptEstimate"}
    assert out["result"]["didCompress"] is True
    json.dumps(out)  # plain JSON, ready to print
    first = out["messages"][1 if shape == "openai" else 0]
    assert read_summary(first, key) is not None
    if shape == "openai":
        assert out["messages"][0] == {
            "role": "system",
            "content": "You are a careful coding agent.",
        }


@pytest.mark.parametrize("shape", SHAPES)
def test_tool_definitions_count_towards_the_estimate(shape: Shape) -> None:
    body = _body(shape)
    with_tools = run_compact(body, None, None)["result"]["promptEstimate"]
    without = run_compact({**body, "tools": []}, None, None)["result"]["promptEstimate"]
    assert with_tools > without + 400


def test_the_window_decides_and_defaults_to_200k() -> None:
    body = _body("anthropic")
    summarizer = StaticSummarizer()
    assert run_compact(body, None, summarizer)["result"]["didCompress"] is False
    assert summarizer.calls == []
    # Micro-compaction (above 25%) shrinks the request enough; no LLM call yet.
    assert run_compact(body, 2_000, summarizer)["result"]["didCompress"] is True
    assert summarizer.calls == []
    out = run_compact(body, 900, summarizer)
    assert len(summarizer.calls) == 1 and out["result"]["promptEstimate"] < 900
    with pytest.raises(ValidationError):
        run_compact(body, 0, summarizer)


def test_manual_trigger_through_force() -> None:
    summarizer = StaticSummarizer()
    out = run_compact(_body("openai"), None, summarizer, force=True)
    assert len(summarizer.calls) == 1 and out["result"]["didCompress"] is True


@pytest.mark.parametrize(
    "body",
    [
        [],
        {"model": "x"},
        {"messages": "hello"},
        {"messages": [{"role": "wizard", "content": "hi"}]},
    ],
)
def test_a_body_of_neither_api_is_rejected(body: object) -> None:
    with pytest.raises(MessageFormatError):
        run_compact(body, None, None)  # type: ignore[arg-type]


_ANY = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["type", "text", "id", "name", "input"]), inner, max_size=3
        )
    ),
    max_leaves=8,
)
_BLOCK = st.fixed_dictionaries(
    {"type": st.sampled_from(["text", "tool_use", "tool_result", "image"]) | _ANY},
    optional={"text": _ANY, "id": _ANY, "tool_use_id": _ANY, "name": _ANY, "content": _ANY},
)
_MESSAGE = st.fixed_dictionaries(
    {"role": st.sampled_from(["user", "assistant", "system", "tool"]) | _ANY},
    optional={
        "content": st.text(max_size=20) | st.lists(_BLOCK | _ANY, max_size=3) | _ANY,
        "tool_calls": _ANY,
        "tool_call_id": _ANY,
    },
)
_REQUEST = st.fixed_dictionaries(
    {"messages": st.lists(_MESSAGE, max_size=6)},
    optional={"usage": _ANY, "system": _ANY, "tools": _ANY, "model": _ANY},
)


def _answered_in_one_sentence(body: dict[str, Any]) -> None:
    """Whatever a client sends, the answer is a MessageFormatError (the HTTP API's 422), or a result."""
    with contextlib.suppress(ArtifactIndexError):
        compact_request(body, use_llm=False, force=True, context_window=1_000)


@settings(max_examples=50, deadline=None)
@given(_REQUEST)
def test_a_malformed_request_is_one_sentence_never_an_internal_error(body: dict[str, Any]) -> None:
    _answered_in_one_sentence(body)


# The rare bodies (one in several hundred) are looked for by the slow run.
@pytest.mark.slow
@settings(max_examples=2_000, deadline=None)
@given(_REQUEST)
def test_many_malformed_requests_are_one_sentence_never_an_internal_error(
    body: dict[str, Any],
) -> None:
    _answered_in_one_sentence(body)
