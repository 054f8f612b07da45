"""Builds one conversation in either API shape, for the summarizer tests.

Imported by the tests of this directory (pytest puts it on ``sys.path``);
hypothesis tests cannot take function-scoped fixtures, so it is a module.
"""

from __future__ import annotations

import json
from typing import Any, Literal

Shape = Literal["anthropic", "openai"]
SHAPES: tuple[Shape, ...] = ("anthropic", "openai")


class Chat:
    def __init__(self, shape: Shape, *, system: str | None = None) -> None:
        self.shape = shape
        self.messages: list[dict[str, Any]] = []
        self._ids = 0
        if system is not None and shape == "openai":
            self.messages.append({"role": "system", "content": system})

    def _id(self) -> str:
        self._ids += 1
        return f"call_{self._ids}"

    def user(self, text: str) -> Chat:
        self.messages.append({"role": "user", "content": text})
        return self

    def assistant(self, text: str) -> Chat:
        if self.shape == "anthropic":
            self.messages.append({"role": "assistant", "content": [{"type": "text", "text": text}]})
        else:
            self.messages.append({"role": "assistant", "content": text})
        return self

    def tools(
        self,
        calls: list[tuple[str, str | None]],
        *,
        args: dict[str, Any] | None = None,
        errors: bool = False,
        text: str | None = None,
    ) -> list[str]:
        """One assistant message calling every tool; the results follow (``None``: no result)."""
        ids = [self._id() for _ in calls]
        arguments = args or {"path": "src/app.py"}
        if self.shape == "anthropic":
            blocks: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
            blocks += [
                {"type": "tool_use", "id": call_id, "name": name, "input": arguments}
                for call_id, (name, _) in zip(ids, calls, strict=True)
            ]
            self.messages.append({"role": "assistant", "content": blocks})
            results = [
                {"type": "tool_result", "tool_use_id": call_id, "content": output}
                | ({"is_error": True} if errors else {})
                for call_id, (_, output) in zip(ids, calls, strict=True)
                if output is not None
            ]
            if results:
                self.messages.append({"role": "user", "content": results})
        else:
            self.messages.append(
                {
                    "role": "assistant",
                    "content": text,
                    "tool_calls": [
                        {
                            "id": call_id,
                            "type": "function",
                            "function": {"name": name, "arguments": json.dumps(arguments)},
                        }
                        for call_id, (name, _) in zip(ids, calls, strict=True)
                    ],
                }
            )
            for call_id, (_, output) in zip(ids, calls, strict=True):
                if output is not None:
                    self.messages.append(
                        {"role": "tool", "tool_call_id": call_id, "content": output}
                    )
        return ids

    def tool(self, name: str, output: str | None, **kwargs: Any) -> str:
        return self.tools([(name, output)], **kwargs)[0]


def tool_output(messages: list[dict[str, Any]], call_id: str) -> str | None:
    """The text of the result of ``call_id`` in ``messages`` (either shape)."""
    for message in messages:
        if message.get("role") == "tool" and message.get("tool_call_id") == call_id:
            content = message["content"]
            return content if isinstance(content, str) else json.dumps(content)
        content = message.get("content")
        if message.get("role") == "user" and isinstance(content, list):
            for block in content:
                if block.get("type") == "tool_result" and block.get("tool_use_id") == call_id:
                    inner = block["content"]
                    return inner if isinstance(inner, str) else json.dumps(inner)
    return None


def call_ids(messages: list[dict[str, Any]]) -> list[str]:
    ids = []
    for message in messages:
        for call in message.get("tool_calls") or []:
            ids.append(call["id"])
        content = message.get("content")
        if message.get("role") == "assistant" and isinstance(content, list):
            ids += [block["id"] for block in content if block.get("type") == "tool_use"]
    return ids


def result_ids(messages: list[dict[str, Any]]) -> list[str]:
    ids = []
    for message in messages:
        if message.get("role") == "tool":
            ids.append(message["tool_call_id"])
        content = message.get("content")
        if message.get("role") == "user" and isinstance(content, list):
            ids += [b["tool_use_id"] for b in content if b.get("type") == "tool_result"]
    return ids


class StaticSummarizer:
    """A test double of the narrative summarizer: returns queued replies, records calls.

    A queued exception is raised instead of returned.
    """

    def __init__(self, *replies: str | Exception) -> None:
        self.replies = list(replies)
        self.calls: list[tuple[list[dict[str, Any]], str | None, int]] = []

    def summarize(self, dropped_messages: Any, previous_summary: str | None, cycle: int) -> str:
        self.calls.append((list(dropped_messages), previous_summary, cycle))
        reply = self.replies.pop(0) if self.replies else f"## Summary {cycle}\n- work so far"
        if isinstance(reply, Exception):
            raise reply
        return reply
