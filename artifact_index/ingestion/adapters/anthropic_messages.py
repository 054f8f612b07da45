"""A plain Anthropic Messages conversation: the generic fallback for Claude-style logs.

Accepted shapes: a JSON array of ``{"role", "content"}`` messages, or a
Messages API request body ``{"model", "system", "messages": [...]}``.  Tool
calls are ``tool_use`` blocks in assistant messages and their results are
``tool_result`` blocks (``is_error`` marks a failure) in the next user
message.  Tool names go through the shared vocabulary, which covers the
generic ``read_file``/``write_file``/``edit_file``/``execute_command`` tools.

This adapter is tried last (priority 90): agents that log Anthropic messages
with extra structure (Claude Code, Cline, Amp, Droid) have their own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from artifact_index.ingestion.adapters import register
from artifact_index.ingestion.adapters.base import Adapter, TurnCounter, as_text
from artifact_index.ingestion.adapters.failures import classify_failure
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
from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["AnthropicMessagesAdapter", "MessageReader", "result_from_text"]

_ROLES = ("user", "assistant")
_EXIT_CODE = lazy_pattern(r"\bexit(?:ed with)? code:? (-?\d+)", re.IGNORECASE)


def result_from_text(
    turn: int, line: int | None, call_id: str, text: str, is_error: bool
) -> ToolResult:
    """A tool result known by its text: ``is_error`` or an ``Error`` prefix fails it."""
    head = text.lstrip()
    if is_error or head.startswith(("Error", "ERROR", "<tool_use_error>")):
        code = _EXIT_CODE.search(head[:200])
        if code:
            return ToolResult(
                turn=turn,
                line=line,
                call_id=call_id,
                status="failure",
                output=text,
                failure="exit_status",
                exit_code=int(code.group(1)),
            )
        return ToolResult(
            turn=turn,
            line=line,
            call_id=call_id,
            status="failure",
            output=text,
            failure=classify_failure(text),
        )
    return ToolResult(turn=turn, line=line, call_id=call_id, status="success", output=text)


class MessageReader:
    """Turns Anthropic messages into events, one message at a time.

    It keeps the turn counter and the calls still waiting for a result, so
    formats that wrap Anthropic messages in their own records can reuse it.
    """

    def __init__(self, source: Source, cwd: str | None = None) -> None:
        self.source = source
        self.cwd = cwd
        self.turns = TurnCounter()
        self.pending: dict[str, int] = {}  # call id -> turn of the call

    def message(
        self,
        line: int,
        message: JSONObject,
        timestamp: str | None = None,
        model: str | None = None,
    ) -> Iterator[Event]:
        content = message.get("content")
        blocks: list[Any] = (
            content
            if isinstance(content, list)
            else [{"type": "text", "text": content if isinstance(content, str) else ""}]
        )
        if message.get("role") == "user":
            yield from self._user(line, blocks, timestamp)
        else:
            yield from self._assistant(line, blocks, timestamp, model)

    def _user(self, line: int, blocks: list[Any], timestamp: str | None) -> Iterator[Event]:
        results = [b for b in blocks if isinstance(b, dict) and b.get("type") == "tool_result"]
        texts = [b for b in blocks if not (isinstance(b, dict) and b.get("type") == "tool_result")]
        if texts or not results:
            yield UserMessage(
                turn=self.turns.user(), line=line, text=as_text(texts), timestamp=timestamp
            )
        for block in results:
            call_id = str(block.get("tool_use_id", ""))
            turn = self.pending.pop(call_id, self.turns.current)
            result = self.result(
                turn, line, call_id, as_text(block.get("content")), block.get("is_error") is True
            )
            yield result.model_copy(update={"timestamp": timestamp}) if timestamp else result

    def result(self, turn: int, line: int, call_id: str, text: str, is_error: bool) -> ToolResult:
        """The result of one ``tool_result`` block; formats with richer results override it."""
        return result_from_text(turn, line, call_id, text, is_error)

    def _assistant(
        self, line: int, blocks: list[Any], timestamp: str | None, model: str | None
    ) -> Iterator[Event]:
        turn = self.turns.assistant()
        text = as_text([b for b in blocks if isinstance(b, dict) and b.get("type") == "text"])
        if text.strip():
            yield AssistantMessage(
                turn=turn, line=line, text=text, model=model, timestamp=timestamp
            )
        for index, block in enumerate(blocks):
            if not isinstance(block, dict) or block.get("type") != "tool_use":
                continue
            name, arguments = block.get("name"), block.get("input")
            if not isinstance(name, str) or not isinstance(arguments, dict):
                self.source.skip(line, "tool_use block without a name or input")
                continue
            call_id = str(block.get("id") or f"call-{line}-{index}")
            self.pending[call_id] = turn
            yield ToolCall(
                turn=turn,
                line=line,
                call_id=call_id,
                tool=name,
                arguments=arguments,
                timestamp=timestamp,
                operations=tuple(operations_for(name, arguments, self.cwd)),
            )

    def finish(self, line: int | None) -> Iterator[Event]:
        """Results for calls that never got one: the log ends before they returned."""
        for call_id, turn in self.pending.items():
            yield ToolResult(turn=turn, line=line, call_id=call_id, status="unknown")
        self.pending = {}


def _messages(document: Any) -> list[Any] | None:
    if isinstance(document, list):
        return document
    if (
        isinstance(document, dict)
        and isinstance(document.get("messages"), list)
        and any(key in document for key in ("model", "system", "max_tokens", "tools"))
    ):
        return list(document["messages"])
    return None


def _is_message(value: Any) -> bool:
    if not isinstance(value, dict) or value.get("role") not in _ROLES:
        return False
    if "tool_calls" in value or "function_call" in value:
        return False  # OpenAI chat completions
    content = value.get("content")
    return isinstance(content, str) or (
        isinstance(content, list)
        and all(isinstance(b, dict) and isinstance(b.get("type"), str) for b in content)
    )


@register
class AnthropicMessagesAdapter(Adapter):
    name = "anthropic-messages"
    description = "plain Anthropic Messages list or request body (generic fallback)"
    priority = 90

    def sniff(self, source: Source) -> bool:
        messages = _messages(source.document)
        if not messages:
            return False
        head = messages[:50]
        good = sum(1 for m in head if _is_message(m))
        # A stray malformed entry is skipped later; an OpenAI message is not ours.
        return good * 5 >= len(head) * 4 and not any(
            isinstance(m, dict) and ("tool_calls" in m or m.get("role") in ("tool", "system"))
            for m in head
        )

    def events(self, source: Source) -> Iterator[Event]:
        document = source.document
        messages = _messages(document)
        if messages is None:
            source.skip(None, "not a message list or a request body with messages")
            return
        model = as_dict(document).get("model")
        model = model if isinstance(model, str) else None
        yield SessionInfo(turn=0, line=None, agent="anthropic-messages", model=model)
        reader = MessageReader(source)
        for index, message in enumerate(messages, start=1):
            if not isinstance(message, dict) or message.get("role") not in _ROLES:
                source.skip(index, "not a user or assistant message")
                continue
            yield from reader.message(index, message, model=model)
        yield from reader.finish(len(messages))
