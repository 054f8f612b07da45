"""The neutral view: shape detection, turns, call/result pairs, safe cuts, write-back."""

from __future__ import annotations

import copy

import pytest

from summarizer.compaction.message_lists import (
    Conversation,
    MessageEditor,
    detect_shape,
    stable_message_id,
)
from summarizer.exceptions import MessageFormatError
from tests.support.compaction_chat import SHAPES, Chat, Shape, tool_output


def _chat(shape: Shape) -> tuple[Chat, list[str]]:
    chat = Chat(shape, system="be brief")
    chat.user("fix the failing test")
    first = chat.tools([("Read", "line\n" * 10), ("Grep", "match")], text="looking")
    chat.assistant("found it")
    chat.user("go on")
    second = chat.tool("Bash", "1 passed")
    return chat, [*first, second]


@pytest.mark.parametrize("shape", SHAPES)
def test_shape_is_detected(shape: Shape) -> None:
    chat, _ = _chat(shape)
    assert detect_shape(chat.messages) == shape


def test_plain_text_lists_default_to_anthropic_and_bad_lists_are_rejected() -> None:
    plain = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    assert detect_shape(plain) == "anthropic"
    with pytest.raises(MessageFormatError, match="unknown role"):
        detect_shape([{"role": "robot", "content": "hi"}])
    with pytest.raises(MessageFormatError, match="not an object"):
        detect_shape(["hi"])
    with pytest.raises(MessageFormatError, match="mix"):
        detect_shape(
            [
                {"role": "system", "content": "s"},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "x"}]},
            ]
        )


@pytest.mark.parametrize("shape", SHAPES)
def test_results_belong_to_the_turn_of_their_call(shape: Shape) -> None:
    chat, ids = _chat(shape)
    conversation = Conversation(chat.messages)
    # user, assistant(+2 results), assistant, user, assistant(+result)
    assert [turn.kind for turn in conversation.turns] == [
        "user",
        "assistant",
        "assistant",
        "user",
        "assistant",
    ]
    assert [turn.user_turn for turn in conversation.turns] == [1, 1, 1, 2, 2]
    outputs = {output.call_id: output for output in conversation.outputs}
    assert [outputs[i].tool for i in ids] == ["Read", "Grep", "Bash"]
    assert [conversation.output_turn(outputs[i]) for i in ids] == [2, 2, 5]
    assert outputs[ids[1]].text == "match"


@pytest.mark.parametrize("shape", SHAPES)
def test_no_cut_between_a_call_and_its_result(shape: Shape) -> None:
    chat, _ = _chat(shape)
    conversation = Conversation(chat.messages)
    for index, message in enumerate(chat.messages):
        is_result = message.get("role") == "tool" or (
            isinstance(message.get("content"), list)
            and any(block.get("type") == "tool_result" for block in message["content"])
        )
        if is_result:
            assert not conversation.can_cut(index), index
    assert conversation.can_cut(len(chat.messages))


def test_system_messages_are_no_turn() -> None:
    chat, _ = _chat("openai")
    conversation = Conversation(chat.messages)
    assert conversation.system_indices == [0]
    assert conversation.turn_id(0) is None


@pytest.mark.parametrize("shape", SHAPES)
def test_editor_writes_back_in_shape_without_touching_the_input(shape: Shape) -> None:
    chat, ids = _chat(shape)
    before = copy.deepcopy(chat.messages)
    conversation = Conversation(chat.messages)
    editor = MessageEditor(chat.messages)
    target = next(output for output in conversation.outputs if output.call_id == ids[0])
    editor.set_output(target, "short")
    assert chat.messages == before
    assert tool_output(editor.messages, ids[0]) == "short"
    assert tool_output(editor.messages, ids[1]) == "match"
    # Untouched messages are the very same objects.
    assert (
        sum(a is b for a, b in zip(editor.messages, chat.messages, strict=True))
        == len(chat.messages) - 1
    )
    if shape == "anthropic":
        block = editor.messages[target.message]["content"][target.block]
        assert block["tool_use_id"] == ids[0] and block["type"] == "tool_result"
    else:
        assert editor.messages[target.message]["tool_call_id"] == ids[0]


def test_stable_ids_follow_content_and_turn() -> None:
    message = {"role": "user", "content": "hi"}
    assert stable_message_id(message, 3) == stable_message_id(dict(message), 3)
    assert stable_message_id(message, 3) != stable_message_id(message, 4)
    assert stable_message_id({"role": "user", "content": "ho"}, 3) != stable_message_id(message, 3)
    assert stable_message_id({"role": "user", "content": "x", "uuid": "u-1"}, 1) == "u-1"
