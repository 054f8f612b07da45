"""A local stand-in for an OpenAI-compatible Chat Completions API, for driving the real ``openai`` SDK in tests.

It listens on 127.0.0.1 on an ephemeral port, records every request (its
path, headers and body), and answers ``POST /v1/chat/completions`` with
scripted replies: a function call, plain text, or an error status.  It is
what OpenAI, OpenRouter and the local model servers (Ollama, llama.cpp,
vLLM) all speak.  Nothing leaves the machine.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from tests.loopback import Loopback, LoopbackFake, QuietHandler
from tests.support.file_lines import complete_file_lines

__all__ = ["FakeOpenAI", "Recorded", "error_reply", "function_reply", "text_reply"]


def function_reply(arguments: Any, *, name: str = "record_narrative") -> dict[str, Any]:
    """A reply that calls ``name``; ``arguments`` is sent as JSON text unless it is already a string."""
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {
        "message": {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "", "type": "function", "function": {"name": name, "arguments": text}}
            ],
        },
        "finish_reason": "tool_calls",
    }


def text_reply(text: str) -> dict[str, Any]:
    """A reply in text instead of the function call."""
    return {"message": {"role": "assistant", "content": text}, "finish_reason": "stop"}


def error_reply(status: int, message: str) -> dict[str, Any]:
    """An HTTP error answer, as the API words it."""
    return {"status": status, "error": {"message": message, "type": "invalid_request_error"}}


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def prompt(self) -> str:
        """The text of the first user message (the narrative prompt)."""
        return str(next(m["content"] for m in self.body["messages"] if m["role"] == "user"))


@dataclass
class FakeOpenAI(LoopbackFake):
    """Scripted replies in ``replies``; every request lands in ``requests``."""

    replies: list[dict[str, Any]] = field(default_factory=list)
    requests: list[Recorded] = field(default_factory=list)
    _loopback: Loopback | None = None

    @property
    def base_url(self) -> str:
        """What a client is given as its base URL (the SDK appends ``/chat/completions``)."""
        return f"{self.url}/v1"

    def __enter__(self) -> FakeOpenAI:
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
        if path != "/v1/chat/completions":
            return 404, {"error": {"message": f"no route {path}", "type": "not_found"}}
        if not self.replies:
            return 400, {"error": {"message": "the test scripted no more replies"}}
        reply = self.replies.pop(0)
        if "status" in reply:
            return int(reply["status"]), {"error": reply["error"]}
        number = len(self.requests)
        message = json.loads(json.dumps(reply["message"]))
        tools = {
            t["function"]["name"]: t["function"].get("parameters", {})
            for t in body.get("tools") or []
            if "function" in t
        }
        for position, call in enumerate(message.get("tool_calls") or []):
            if not call.get("id"):
                call["id"] = f"call_fake_{number}_{position}"
            function = call.get("function", {})
            try:
                arguments = json.loads(function.get("arguments", ""))
            except json.JSONDecodeError:
                continue  # a malformed reply the test sends on purpose
            completed = complete_file_lines(arguments, tools.get(function.get("name"), {}))
            if completed is not arguments:
                function["arguments"] = json.dumps(completed)
        return 200, {
            "id": f"chatcmpl-fake-{number}",
            "object": "chat.completion",
            "created": 0,
            "model": body.get("model", ""),
            "choices": [{"index": 0, "message": message, "finish_reason": reply["finish_reason"]}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
        }
