"""A local stand-in for the Anthropic Messages API, for driving the real SDK in tests.

It listens on 127.0.0.1 on an ephemeral port, records every request body,
and answers ``POST /v1/messages`` with scripted replies (a forced tool call,
plain text, or any message body) and ``POST /v1/messages/count_tokens`` with
a scripted count.  Nothing leaves the machine.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from tests.loopback import Loopback, LoopbackFake, QuietHandler
from tests.support.file_lines import complete_file_lines

__all__ = ["FakeAnthropic", "Recorded", "text_reply", "tool_reply"]


def tool_reply(tool_input: Any, *, name: str = "record_narrative") -> dict[str, Any]:
    """A reply whose only content is a call of ``name`` with ``tool_input``."""
    return {
        "content": [{"type": "tool_use", "id": "", "name": name, "input": tool_input}],
        "stop_reason": "tool_use",
    }


def text_reply(text: str) -> dict[str, Any]:
    """A reply that answers in prose instead of calling the tool."""
    return {"content": [{"type": "text", "text": text}], "stop_reason": "end_turn"}


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def prompt(self) -> str:
        """The text of the first user message (the narrative prompt)."""
        content = self.body["messages"][0]["content"]
        return content if isinstance(content, str) else "".join(b.get("text", "") for b in content)


@dataclass
class FakeAnthropic(LoopbackFake):
    """Scripted replies in ``replies``; every request lands in ``requests``."""

    replies: list[dict[str, Any]] = field(default_factory=list)
    token_counts: list[int] = field(default_factory=list)
    requests: list[Recorded] = field(default_factory=list)
    _loopback: Loopback | None = None

    @property
    def messages_requests(self) -> list[Recorded]:
        return [r for r in self.requests if r.path == "/v1/messages"]

    def __enter__(self) -> FakeAnthropic:
        fake = self

        class Handler(QuietHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                path = self.path.split("?", 1)[0]
                fake.requests.append(
                    Recorded(path, {k.lower(): v for k, v in self.headers.items()}, body)
                )
                status, answer = fake._answer(path, body)
                self.reply(status, "application/json", json.dumps(answer).encode())

        self._loopback = Loopback(Handler)
        return self

    def _answer(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if path == "/v1/messages/count_tokens":
            if not self.token_counts:
                return 400, _error("the test scripted no token count")
            return 200, {"input_tokens": self.token_counts.pop(0)}
        if path != "/v1/messages":
            return 404, _error(f"no route {path}")
        if not self.replies:
            return 400, _error("the test scripted no more replies")
        reply = self.replies.pop(0)
        number = len(self.messages_requests)
        content = [dict(block) for block in reply["content"]]
        tools = {t.get("name"): t.get("input_schema", {}) for t in body.get("tools") or []}
        for position, block in enumerate(content):
            if block["type"] == "tool_use" and not block.get("id"):
                block["id"] = f"toolu_fake_{number}_{position}"
            if block["type"] == "tool_use":
                block["input"] = complete_file_lines(block["input"], tools.get(block["name"], {}))
        return 200, {
            "id": f"msg_fake_{number}",
            "type": "message",
            "role": "assistant",
            "model": body.get("model", ""),
            "content": content,
            "stop_reason": reply["stop_reason"],
            "stop_sequence": None,
            "usage": {"input_tokens": 100, "output_tokens": 20},
        }


def _error(message: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": "invalid_request_error", "message": message}}
