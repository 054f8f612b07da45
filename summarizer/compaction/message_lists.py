"""A neutral view over Anthropic Messages and OpenAI chat message lists.

The context policies work on either shape through :class:`Conversation`: it
detects the shape, numbers the turns, pairs every tool call with its result
(Anthropic ``tool_use.id`` ↔ ``tool_result.tool_use_id``; OpenAI
``tool_calls[].id`` ↔ a ``tool`` message's ``tool_call_id``), knows which
tool produced each result, and says where the list may be cut without
separating a call from its result.  :class:`MessageEditor` writes changed
tool output back in the shape it came in, copy-on-write, so the caller's
list is never mutated.

Turns follow the project's convention (``artifact_index.ingestion.adapters.base.
TurnCounter``): every user message and every model response is one turn, and
a tool result belongs to the turn of its call.  A *user turn* groups a
human prompt with every step that answers it, which is what the session-compaction design means
by "the last 2 turns".  OpenAI ``system``/``developer`` messages are no turn
at all: they are never compressed or dropped.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

from artifact_index.ingestion.events import JSONObject
from summarizer.exceptions import MessageFormatError

__all__ = [
    "Conversation",
    "Message",
    "MessageEditor",
    "Shape",
    "ToolCallRef",
    "ToolOutputRef",
    "Turn",
    "TurnUnit",
    "content_text",
    "detect_shape",
    "is_system_message",
    "stable_message_id",
]

# One message of a chat request, in the Anthropic or OpenAI API's JSON (the client's, not ours).
Message = JSONObject
Shape = Literal["anthropic", "openai"]
TurnUnit = Literal["step", "user"]

_SYSTEM_ROLES = frozenset({"system", "developer"})
_OPENAI_ROLES = frozenset({"system", "developer", "user", "assistant", "tool", "function"})
_ANTHROPIC_ROLES = frozenset({"user", "assistant"})
_ANTHROPIC_BLOCKS = frozenset(
    {"tool_use", "tool_result", "thinking", "redacted_thinking", "server_tool_use", "document"}
)
_OPENAI_PARTS = frozenset({"image_url", "input_audio", "refusal", "file"})


def _block_type(block: Any) -> Any:
    return block.get("type") if isinstance(block, Mapping) else None


def detect_shape(messages: Sequence[Any], body: Mapping[str, Any] | None = None) -> Shape:
    """Which API shape ``messages`` is in; raises :class:`MessageFormatError` if neither.

    A list of plain-text user/assistant messages is valid in both shapes;
    it is reported as ``anthropic`` unless ``body`` says otherwise, which is
    harmless because such messages are written back unchanged either way.
    """
    if not isinstance(messages, Sequence) or isinstance(messages, str | bytes):
        raise MessageFormatError("messages must be a list of message objects")
    openai = anthropic = False
    for index, message in enumerate(messages):
        if not isinstance(message, Mapping):
            raise MessageFormatError(f"message {index} is not an object")
        role = message.get("role")
        if not isinstance(role, str) or role not in _OPENAI_ROLES:
            shown = repr(role) if isinstance(role, str | None) else f"of type {type(role).__name__}"
            raise MessageFormatError(f"message {index} has an unknown role {shown[:100]}")
        if role not in _ANTHROPIC_ROLES or "tool_calls" in message or "function_call" in message:
            openai = True
        content = message.get("content")
        if isinstance(content, list):
            for block in content:
                kind = _block_type(block)
                if kind in _ANTHROPIC_BLOCKS or (
                    kind == "image" and isinstance(block, Mapping) and "source" in block
                ):
                    anthropic = True
                elif kind in _OPENAI_PARTS:
                    openai = True
    if openai and anthropic:
        raise MessageFormatError("messages mix Anthropic content blocks with OpenAI roles")
    if openai:
        return "openai"
    if anthropic:
        return "anthropic"
    if (
        body is not None
        and "system" not in body
        and any(
            key in body for key in ("n", "logprobs", "response_format", "max_completion_tokens")
        )
    ):
        return "openai"
    return "anthropic"


def is_system_message(message: Mapping[str, Any]) -> bool:
    """An OpenAI system/developer message: never compressed, never dropped."""
    return message.get("role") in _SYSTEM_ROLES


def content_text(content: Any) -> str:
    """The text of a message's or tool result's content, blocks joined by newlines."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, Mapping):
        content = [content]
    if not isinstance(content, list):
        return str(content)
    parts: list[str] = []
    for block in content:
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, Mapping):
            if isinstance(block.get("text"), str):
                parts.append(block["text"])
            elif block.get("type") == "tool_result":
                parts.append(content_text(block.get("content")))
    return "\n".join(part for part in parts if part)


def _non_text_parts(content: Any) -> int:
    if not isinstance(content, list):
        return 0
    return sum(
        1
        for block in content
        if isinstance(block, Mapping) and not isinstance(block.get("text"), str)
    )


def stable_message_id(message: Mapping[str, Any], turn_id: int) -> str:
    """An id for a message that has none: its turn and a hash of its content.

    Used in ``summary`` events' ``replaces`` so a later compaction can check
    that the history it is given is the history that summary replaced.
    """
    for key in ("uuid", "id"):
        value = message.get(key)
        if isinstance(value, str) and value:
            return value
    canonical = json.dumps(message, sort_keys=True, ensure_ascii=False, default=str)
    digest = hashlib.sha1(canonical.encode("utf-8")).hexdigest()[:16]
    return f"t{turn_id}-{digest}"


@dataclass(frozen=True, slots=True)
class ToolCallRef:
    """A tool call: ``message`` is its message index, ``block`` its index in
    ``content`` (Anthropic) or ``tool_calls`` (OpenAI)."""

    id: str
    name: str
    arguments: Any
    message: int
    block: int | None


@dataclass(frozen=True, slots=True)
class ToolOutputRef:
    """A tool result: ``block`` is its index in ``content`` (Anthropic) or
    ``None`` (an OpenAI ``tool`` message).  ``tool`` names the tool that
    produced it, ``None`` when no call with ``call_id`` is in the list."""

    call_id: str
    message: int
    block: int | None
    tool: str | None
    text: str
    is_error: bool
    non_text_parts: int


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn: ``id`` counts from the conversation's ``first_turn``;
    ``user_turn`` is the ordinal of the human prompt it answers (0 before
    any); ``messages`` are the message indices in it, in order."""

    id: int
    kind: Literal["user", "assistant"]
    user_turn: int
    messages: tuple[int, ...]

    @property
    def start(self) -> int:
        return self.messages[0]


def _call_refs(message: Mapping[str, Any], index: int, shape: Shape) -> list[ToolCallRef]:
    refs: list[ToolCallRef] = []
    if shape == "anthropic":
        content = message.get("content")
        if isinstance(content, list):
            for position, block in enumerate(content):
                if _block_type(block) == "tool_use" and isinstance(block.get("id"), str):
                    refs.append(
                        ToolCallRef(
                            block["id"],
                            str(block.get("name", "")),
                            block.get("input"),
                            index,
                            position,
                        )
                    )
        return refs
    calls = message.get("tool_calls")
    if isinstance(calls, list):
        for position, call in enumerate(calls):
            if not isinstance(call, Mapping) or not isinstance(call.get("id"), str):
                continue
            function = call.get("function")
            function = function if isinstance(function, Mapping) else {}
            refs.append(
                ToolCallRef(
                    call["id"],
                    str(function.get("name", "")),
                    function.get("arguments"),
                    index,
                    position,
                )
            )
    function_call = message.get("function_call")
    if isinstance(function_call, Mapping):
        # Legacy function calling has no ids: the next ``function`` message answers it.
        refs.append(
            ToolCallRef(
                f"function_call@{index}",
                str(function_call.get("name", "")),
                function_call.get("arguments"),
                index,
                None,
            )
        )
    return refs


class Conversation:
    """Read-only structure of a message list: shape, turns, tool calls and results."""

    def __init__(
        self,
        messages: Sequence[Message],
        shape: Shape | None = None,
        *,
        first_turn: int = 1,
    ) -> None:
        self.messages: list[Message] = list(messages)
        self.shape: Shape = shape or detect_shape(self.messages)
        self.first_turn = first_turn
        self.calls: dict[str, ToolCallRef] = {}
        self.outputs: list[ToolOutputRef] = []
        self.system_indices: list[int] = []
        self.turn_of_message: list[int | None] = [None] * len(self.messages)
        self.turns: list[Turn] = []
        self._build()
        self._cuts = self._allowed_cuts()

    # -- construction -------------------------------------------------------

    def _result_blocks(self, message: Mapping[str, Any]) -> list[tuple[int, Mapping[str, Any]]]:
        content = message.get("content")
        if (
            self.shape != "anthropic"
            or message.get("role") != "user"
            or not isinstance(content, list)
        ):
            return []
        return [
            (position, block)
            for position, block in enumerate(content)
            if _block_type(block) == "tool_result"
        ]

    def _build(self) -> None:
        members: list[list[int]] = []
        kinds: list[Literal["user", "assistant"]] = []
        user_turns: list[int] = []
        user_turn = 0
        last_function_call: str | None = None

        def open_turn(index: int, kind: Literal["user", "assistant"]) -> None:
            members.append([index])
            kinds.append(kind)
            user_turns.append(user_turn)
            self.turn_of_message[index] = len(members) - 1

        def join_turn(index: int, call_ids: Sequence[str]) -> None:
            # A result joins the turn of its call; several calls of different
            # turns answered in one message join the latest of those turns.
            owners = [
                self.turn_of_message[self.calls[call_id].message]
                for call_id in call_ids
                if call_id in self.calls
            ]
            known = [owner for owner in owners if owner is not None]
            if known:
                owner = max(known)
            elif members:
                owner = len(members) - 1
            else:
                open_turn(index, "user")
                return
            members[owner].append(index)
            self.turn_of_message[index] = owner

        for index, message in enumerate(self.messages):
            role = message.get("role")
            if role in _SYSTEM_ROLES:
                self.system_indices.append(index)
                continue
            if role == "assistant":
                open_turn(index, "assistant")
                for ref in _call_refs(message, index, self.shape):
                    self.calls[ref.id] = ref
                    if ref.block is None:
                        last_function_call = ref.id
                continue
            if role in ("tool", "function"):
                if role == "tool":
                    call_id = str(message.get("tool_call_id", ""))
                else:
                    call_id = last_function_call or f"function@{index}"
                    last_function_call = None
                self._add_output(call_id, index, None, message.get("content"), False)
                join_turn(index, [call_id])
                continue
            results = self._result_blocks(message)
            if results:
                ids = []
                for position, block in results:
                    call_id = str(block.get("tool_use_id", ""))
                    ids.append(call_id)
                    self._add_output(
                        call_id, index, position, block.get("content"), bool(block.get("is_error"))
                    )
                join_turn(index, ids)
                continue
            user_turn += 1
            open_turn(index, "user")

        self.turns = [
            Turn(
                self.first_turn + ordinal,
                kinds[ordinal],
                user_turns[ordinal],
                tuple(sorted(indices)),
            )
            for ordinal, indices in enumerate(members)
        ]

    def _add_output(
        self, call_id: str, index: int, block: int | None, content: Any, is_error: bool
    ) -> None:
        call = self.calls.get(call_id)
        self.outputs.append(
            ToolOutputRef(
                call_id=call_id,
                message=index,
                block=block,
                tool=call.name if call is not None else None,
                text=content_text(content),
                is_error=is_error,
                non_text_parts=_non_text_parts(content),
            )
        )

    def _allowed_cuts(self) -> list[bool]:
        """``cuts[c]``: may the list be split into ``messages[:c]`` and ``messages[c:]``?"""
        count = len(self.messages)
        blocked = [0] * (count + 2)

        def span(low: int, high: int) -> None:
            # Cuts c with low < c <= high would split the span.
            if high > low:
                blocked[low + 1] += 1
                blocked[high + 1] -= 1

        for turn in self.turns:
            span(turn.messages[0], turn.messages[-1])
        for output in self.outputs:
            call = self.calls.get(output.call_id)
            if call is not None:
                span(min(call.message, output.message), max(call.message, output.message))
        cuts: list[bool] = []
        running = 0
        for position in range(count + 1):
            running += blocked[position]
            cuts.append(running == 0)
        return cuts

    # -- queries ------------------------------------------------------------

    def turn_id(self, message_index: int) -> int | None:
        """The turn id of a message; ``None`` for a system message."""
        ordinal = self.turn_of_message[message_index]
        return None if ordinal is None else self.turns[ordinal].id

    def output_turn(self, output: ToolOutputRef) -> int:
        """The turn of a tool result: that of its call when the call is present."""
        call = self.calls.get(output.call_id)
        index = call.message if call is not None else output.message
        turn = self.turn_id(index)
        return turn if turn is not None else self.first_turn

    @property
    def last_turn(self) -> int | None:
        return self.turns[-1].id if self.turns else None

    def can_cut(self, index: int) -> bool:
        """True when ``messages[:index]`` and ``messages[index:]`` separate no call from its result."""
        return 0 <= index <= len(self.messages) and self._cuts[index]

    def user_turn_count(self) -> int:
        return max((turn.user_turn for turn in self.turns), default=0)

    def turn_count(self, unit: TurnUnit) -> int:
        return len(self.turns) if unit == "step" else self.user_turn_count()

    def recent_turn_start(self, count: int, unit: TurnUnit) -> int | None:
        """The first message index of the last ``count`` turns; ``None`` if there are not more.

        With ``unit="user"`` the last ``count`` human prompts and everything
        after them; assistant steps before the first prompt count as older.
        """
        if count <= 0:
            return len(self.messages)
        if unit == "step":
            if len(self.turns) <= count:
                return None
            return self.turns[-count].start
        prompts = [turn for turn in self.turns if turn.kind == "user"]
        if len(prompts) < count or (len(prompts) == count and self.turns[0] is prompts[0]):
            return None
        return prompts[-count].start

    def latest_allowed_cut(self, at_most: int) -> int | None:
        """The largest allowed cut ``c <= at_most`` that leaves a non-system message before it."""
        first_content = next(
            (i for i in range(len(self.messages)) if self.turn_of_message[i] is not None), None
        )
        if first_content is None:
            return None
        for cut in range(min(at_most, len(self.messages)), first_content, -1):
            if self._cuts[cut]:
                return cut
        return None

    def prose_of(self, index: int) -> str:
        """The text a user or the model wrote in a message, without tool result content."""
        content = self.messages[index].get("content")
        if isinstance(content, list):
            content = [block for block in content if _block_type(block) != "tool_result"]
        return content_text(content)


class MessageEditor:
    """Rewrites tool output in place of a copy of the list, in its original shape.

    Only the messages it touches are copied (and within them only the
    content list and the changed block), so the caller's messages stay as
    they were and untouched messages keep their identity.
    """

    def __init__(self, messages: Sequence[Message]) -> None:
        self._messages: list[Message] = list(messages)
        self._owned: set[int] = set()
        self.changed = 0

    @property
    def messages(self) -> list[Message]:
        return self._messages

    def _own(self, index: int) -> Message:
        if index not in self._owned:
            copy = dict(self._messages[index])
            if isinstance(content := copy.get("content"), list):
                copy["content"] = list(content)
            self._messages[index] = copy
            self._owned.add(index)
        return self._messages[index]

    def set_output(self, output: ToolOutputRef, text: str) -> None:
        """Replace a tool result's content with ``text`` (images and other parts are dropped)."""
        message = self._own(output.message)
        if output.block is None:
            message["content"] = text
        else:
            # A block is only referred to in a message whose content is a list of blocks.
            content = cast("list[JSONObject]", message["content"])
            block = dict(content[output.block])
            block["content"] = text
            content[output.block] = block
        self.changed += 1
