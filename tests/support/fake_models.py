"""A local stand-in for the model APIs the real agents call, for running them in tests.

The agents (Claude Code, Codex, OpenCode) stream their model's answers, so
this server speaks the streaming forms: Anthropic's Messages API (server-sent
events ``message_start`` ... ``message_stop``: Claude Code, and OpenCode's
Anthropic provider) and OpenAI's Responses API (Codex).  It listens on
127.0.0.1 on an ephemeral port, records every request body, and answers by a
rule rather than a queue, because an agent sends requests of its own
(titles, warm-ups, the compaction) in an order that changes between
versions:

* a request whose conversation asks for a file (the user's text holds
  ``WRITE path: content``), offers the agent's file-writing tool and has no
  tool result yet is answered with a call of that tool, once per file;
* a compaction request (its text asks for a summary of the conversation) is
  answered with :data:`SUMMARY`;
* anything else is answered with :data:`DONE`.

Nothing leaves the machine.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from tests.loopback import Loopback, LoopbackFake, QuietHandler

__all__ = ["DONE", "SUMMARY", "FakeModels", "Recorded", "WriteRequest"]

DONE = "Done."
SUMMARY = "Summary of the conversation so far: the user asked for a file and it was written."
_WRITE = re.compile(r"WRITE (\S+): ([^\"\n<]+)")
# Words of each agent's compaction prompt, the last message of the request: Claude Code 2.1.328 ("Please
# provide your summary based on the conversation so far"), Codex 0.169.0 ("CONTEXT CHECKPOINT COMPACTION
# ... handoff summary"), OpenCode 1.18.33 ("Create a new anchored summary").
_COMPACTION = re.compile(
    r"provide your summary|create a detailed summary|summarize the conversation|anchored summary|"
    r"handoff summary|context checkpoint",
    re.IGNORECASE,
)


@dataclass
class Recorded:
    path: str
    body: dict[str, Any]

    @property
    def text(self) -> str:
        """Every string in the request body, joined: what the model was shown."""
        return "\n".join(_strings(self.body))


@dataclass(frozen=True)
class WriteRequest:
    """The file the user's prompt asks for (`WRITE path: content`)."""

    path: str
    content: str


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


@dataclass
class FakeModels(LoopbackFake):
    """Every request lands in ``requests``; ``writer`` names the tool and input that write a file for an agent."""

    writer: Callable[[WriteRequest], tuple[str, dict[str, Any]]] = field(
        default=lambda w: ("Write", {"file_path": w.path, "content": w.content})
    )
    # The input tokens a reply with a tool call reports: near the agent's context window, it makes the agent
    # compact on its own (an automatic compaction) before it sends the tool's result.
    tool_call_tokens: int = 100
    requests: list[Recorded] = field(default_factory=list)
    _loopback: Loopback | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _asked: set[str] = field(default_factory=set)

    def __enter__(self) -> FakeModels:
        fake = self

        class Handler(QuietHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0]
                fake._record(path, {})
                if path.endswith("/models"):
                    self._json(
                        200,
                        {
                            "object": "list",
                            "data": [{"id": "fake-model", "object": "model"}],
                            "models": [],
                        },
                    )
                else:
                    self._json(404, {"error": {"message": f"no route {path}"}})

            def do_HEAD(self) -> None:
                self.send_response(200)
                self.send_header("content-length", "0")
                self.end_headers()

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw or b"{}")
                except json.JSONDecodeError:
                    body = {"raw": raw.decode("utf-8", "replace")}
                path = self.path.split("?", 1)[0]
                fake._record(path, body)
                if path.endswith("/messages/count_tokens"):
                    self._json(200, {"input_tokens": 1000})
                elif path.endswith("/messages"):
                    self._events(fake._anthropic(body))
                elif path.endswith("/responses"):
                    self._events(fake._responses(body))
                else:
                    self._json(404, {"error": {"message": f"no route {path}"}})

            def _json(self, status: int, answer: dict[str, Any]) -> None:
                self.reply(status, "application/json", json.dumps(answer).encode())

            def _events(self, events: list[tuple[str, dict[str, Any]]]) -> None:
                payload = "".join(
                    f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in events
                ).encode()
                self.reply(200, "text/event-stream", payload, cache_control="no-cache")

        self._loopback = Loopback(Handler)
        return self

    def _record(self, path: str, body: dict[str, Any]) -> int:
        with self._lock:
            self.requests.append(Recorded(path, body))
            return len(self.requests)

    # -- what to answer ---------------------------------------------------------------------------------
    def _decide(
        self, body: dict[str, Any], conversation: list[Any], has_result: bool
    ) -> tuple[str, Any]:
        """``("tool", (name, input))`` or ``("text", text)`` for a request."""
        last = "\n".join(_strings(conversation[-1:]))
        if _COMPACTION.search(last):
            return (
                "text",
                f"<analysis>A file was asked for and written.</analysis>\n<summary>{SUMMARY}</summary>",
            )
        wanted = _WRITE.search("\n".join(_strings(conversation)))
        if not wanted or has_result or wanted.group(1) in self._asked:
            # Each file is asked for once: after a compaction the request no longer shows the tool's result,
            # and asking again would loop.
            return "text", DONE
        name, tool_input = self.writer(WriteRequest(wanted.group(1), wanted.group(2)))
        offered = {
            tool.get("name") or tool.get("function", {}).get("name")
            for tool in body.get("tools") or []
            if isinstance(tool, dict)
        }
        if name not in offered:  # a side request (a title, a summary of the prompt) offers no tools
            return "text", DONE
        self._asked.add(wanted.group(1))
        return "tool", (name, tool_input)

    def _anthropic(self, body: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        messages = body.get("messages") or []
        has_result = any(
            isinstance(block, dict) and block.get("type") == "tool_result"
            for message in messages
            if isinstance(message.get("content"), list)
            for block in message["content"]
        )
        kind, what = self._decide(body, messages, has_result)
        number = len(self.requests)
        start = {
            "type": "message_start",
            "message": {
                "id": f"msg_fake_{number}",
                "type": "message",
                "role": "assistant",
                "model": body.get("model", ""),
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {
                    "input_tokens": self.tool_call_tokens if kind == "tool" else 100,
                    "output_tokens": 1,
                },
            },
        }
        if kind == "tool":
            name, tool_input = what
            block = {"type": "tool_use", "id": f"toolu_fake_{number}", "name": name, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(tool_input)}
            stop = "tool_use"
        else:
            block = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": what}
            stop = "end_turn"
        return [
            ("message_start", start),
            (
                "content_block_start",
                {"type": "content_block_start", "index": 0, "content_block": block},
            ),
            ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            (
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": stop, "stop_sequence": None},
                    "usage": {"output_tokens": 20},
                },
            ),
            ("message_stop", {"type": "message_stop"}),
        ]

    def _responses(self, body: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """OpenAI's Responses API, streamed (Codex)."""
        items = body.get("input") if isinstance(body.get("input"), list) else []
        conversation = [
            item for item in items if isinstance(item, dict) and item.get("role") in ("user", None)
        ]
        has_result = any(
            isinstance(item, dict) and str(item.get("type", "")).endswith("call_output")
            for item in items
        )
        kind, what = self._decide(body, conversation, has_result)
        number = len(self.requests)
        if kind == "tool":
            name, arguments = what
            item = {
                "type": "function_call",
                "id": f"fc_fake_{number}",
                "call_id": f"call_fake_{number}",
                "name": name,
                "arguments": json.dumps(arguments),
                "status": "completed",
            }
        else:
            item = {
                "type": "message",
                "id": f"msg_fake_{number}",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": what, "annotations": []}],
            }
        tokens = self.tool_call_tokens if kind == "tool" else 100
        response = {
            "id": f"resp_fake_{number}",
            "object": "response",
            "model": body.get("model", ""),
            "output": [],
        }
        done = {
            **response,
            "status": "completed",
            "output": [item],
            "usage": {
                "input_tokens": tokens,
                "input_tokens_details": {"cached_tokens": 0},
                "output_tokens": 20,
                "output_tokens_details": {"reasoning_tokens": 0},
                "total_tokens": tokens + 20,
            },
        }
        return [
            (
                "response.created",
                {"type": "response.created", "response": {**response, "status": "in_progress"}},
            ),
            (
                "response.output_item.added",
                {"type": "response.output_item.added", "output_index": 0, "item": item},
            ),
            (
                "response.output_item.done",
                {"type": "response.output_item.done", "output_index": 0, "item": item},
            ),
            ("response.completed", {"type": "response.completed", "response": done}),
        ]
