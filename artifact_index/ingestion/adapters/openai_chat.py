"""A plain OpenAI chat-completions conversation: the generic fallback for GPT-style logs.

Accepted shapes: a JSON array of messages, the same messages one per line
(JSONL), or a request body ``{"model", "messages": [...]}``.  Assistant
messages carry ``tool_calls`` whose ``function.arguments`` is a JSON string;
results are ``role: "tool"`` messages naming the ``tool_call_id``.  The
legacy ``function_call`` / ``role: "function"`` pair is read the same way.

There is no error flag in this format, so a result whose text starts with
``Error`` is a failure, its reason read from the text.  Tool names go through
the shared vocabulary (``read_file``, ``write_file``, ``edit_file``,
``execute_command``, ...).  Tried last (priority 90).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from artifact_index.ingestion.adapters import register
from artifact_index.ingestion.adapters.anthropic_messages import result_from_text
from artifact_index.ingestion.adapters.base import (
    Adapter,
    TurnCounter,
    as_text,
    parse_json_object,
    report_bad_lines,
)
from artifact_index.ingestion.adapters.narrowing import as_dict
from artifact_index.ingestion.events import (
    AssistantMessage,
    Event,
    JSONObject,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
)
from artifact_index.ingestion.source import Source
from artifact_index.ingestion.vocabulary import operations_for

__all__ = ["OpenAIChatAdapter"]

_ROLES = {"system", "developer", "user", "assistant", "tool", "function"}


def _numbered(source: Source) -> list[tuple[int, Any]] | None:
    """``(line or index, message)`` pairs, or None when this is not a message log."""
    document = source.document
    if isinstance(document, dict) and isinstance(document.get("messages"), list):
        return list(enumerate(document["messages"], start=1))
    if isinstance(document, list):
        return list(enumerate(document, start=1))
    if document is None and source.looks_like_jsonl():
        reported = len(source.skipped)
        records = list(source.records)
        report_bad_lines(source, reported)
        return records
    return None


def _is_chat(messages: list[tuple[int, Any]]) -> bool:
    if not messages:
        return False
    if not all(isinstance(m, dict) and m.get("role") in _ROLES for _, m in messages):
        return False
    # A list of only user/assistant string messages is Anthropic's too; this
    # adapter claims it when something OpenAI-specific is present.
    return any(
        m.get("role") in ("system", "developer", "tool", "function")
        or "tool_calls" in m
        or "function_call" in m
        for _, m in messages
    ) or not all(isinstance(m.get("content"), str | list) for _, m in messages)


@register
class OpenAIChatAdapter(Adapter):
    name = "openai-chat"
    description = "plain OpenAI chat-completions message list, JSONL or request body (generic)"
    priority = 90

    def sniff(self, source: Source) -> bool:
        document = source.document
        if isinstance(document, dict) and "model" not in document and "messages" in document:
            return False
        messages = _numbered(Source(source.name, source.text))
        return messages is not None and _is_chat(messages)

    def events(self, source: Source) -> Iterator[Event]:
        messages = _numbered(source)
        if messages is None:
            source.skip(None, "not a chat message list, JSONL or request body")
            return
        document = source.document
        model = as_dict(document).get("model")
        yield SessionInfo(
            turn=0, line=None, agent="openai-chat", model=model if isinstance(model, str) else None
        )
        turns = TurnCounter()
        pending: dict[str, tuple[str, int]] = {}  # call id -> (tool, turn)
        for line, message in messages:
            role = as_dict(message).get("role")
            if not isinstance(role, str) or role not in _ROLES:
                source.skip(line, "not a chat message")
                continue
            text = as_text(message.get("content"))
            if role in ("system", "developer"):
                yield UserMessage(turn=turns.current, line=line, text=text, synthetic=True)
            elif role == "user":
                yield UserMessage(turn=turns.user(), line=line, text=text)
            elif role == "assistant":
                yield from self.assistant(source, line, message, text, turns, pending)
            else:
                call_id = message.get("tool_call_id")
                if not isinstance(call_id, str) and role == "function":
                    # Legacy function results name the function, not a call id.
                    name = message.get("name")
                    call_id = next((c for c, (t, _) in pending.items() if t == name), None)
                if not isinstance(call_id, str):
                    source.skip(line, "tool message without a tool_call_id")
                    continue
                _tool, turn = pending.pop(call_id, ("", turns.current))
                yield result_from_text(turn, line, call_id, text, False)
        last = messages[-1][0] if messages else None
        for call_id, (_tool, turn) in pending.items():
            yield ToolResult(turn=turn, line=last, call_id=call_id, status="unknown")

    @staticmethod
    def assistant(
        source: Source,
        line: int,
        message: JSONObject,
        text: str,
        turns: TurnCounter,
        pending: dict[str, tuple[str, int]],
    ) -> Iterator[Event]:
        turn = turns.assistant()
        if text.strip():
            model = message.get("model")
            yield AssistantMessage(
                turn=turn, line=line, text=text, model=model if isinstance(model, str) else None
            )
        calls = message.get("tool_calls")
        calls = list(calls) if isinstance(calls, list) else []
        if isinstance(message.get("function_call"), dict):
            calls.append({"id": f"call-{line}", "function": message["function_call"]})
        for index, call in enumerate(calls):
            function = as_dict(call).get("function")
            if not isinstance(function, dict) or not isinstance(function.get("name"), str):
                source.skip(line, "tool call without a function name")
                continue
            name = function["name"]
            arguments = parse_json_object(function.get("arguments"))
            call_id = str(call.get("id") or f"call-{line}-{index}")
            pending[call_id] = (name, turn)
            yield ToolCall(
                turn=turn,
                line=line,
                call_id=call_id,
                tool=name,
                arguments=arguments,
                operations=tuple(operations_for(name, arguments)),
            )
