"""A Gemini CLI session saved as its Gemini API history: a list of ``Content`` entries.

``/chat save TAG`` writes the conversation the model saw, as the Gemini API
holds it (``checkpoint-TAG.json``): either a bare list of ``Content``
entries or ``{"history": [...], "authType": ...}``; the restore points of
``--checkpointing`` hold the same list as ``clientHistory``.  A ``Content``
is ``{"role": "user" | "model", "parts": [...]}`` and a part is one of:

* ``{"text": ...}`` (``"thought": true`` marks the model's reasoning);
* ``{"functionCall": {"id", "name", "args"}}`` in a model entry;
* ``{"functionResponse": {"id", "name", "response": {"output" | "error"}}}``
  in the user entry that follows, one per call, in the calls' order.

Calls are paired with responses by ``id`` when both carry one, else by name
in order.  A response whose ``error`` says the call was cancelled is a
rejection; any other ``error`` a failure.  A call with no response never
ran as far as the history knows: its result is ``unknown``.

The history has no session metadata.  Gemini CLI's first user entry sets up
the context ("I'm currently working in the directory: /home/dev/app"), which
names the workspace; that entry and the model's "Got it." are not typed by
anyone and are marked synthetic.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from artifact_index.ingestion.adapters.base import TurnCounter
from artifact_index.ingestion.adapters.gemini_tools import (
    reported_change,
    tool_operations,
    tool_outcome,
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
from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["api_contents", "read_api_history"]

_ROLES = frozenset({"user", "model"})
_WORKSPACE = lazy_pattern(
    r"working in the directory:? [`']?(\S[^`'\n]*?)[`']?\s*$", re.MULTILINE | re.IGNORECASE
)
_CONTEXT_SETUP = ("This is the Gemini CLI. We are setting up the context", "<session_context>")
_CANCELLED = lazy_pattern(r"cancel|did not allow|declined|rejected", re.IGNORECASE)
_HISTORY_KEYS = ("history", "clientHistory")


def api_contents(document: Any) -> list[Any] | None:
    """The ``Content`` list of a saved history, or None when ``document`` is not one.

    A checkpoint's ``history`` may instead hold the UI's items (``{"type":
    "user", "text"}``), so each candidate list is checked.
    """
    if isinstance(document, dict):
        return next(
            (
                found
                for key in _HISTORY_KEYS
                if (found := api_contents(document.get(key))) is not None
            ),
            None,
        )
    contents = document
    if not isinstance(contents, list) or not contents:
        return None
    head = [c for c in contents[:20] if isinstance(c, dict)]
    shaped = [c for c in head if _role(c) is not None and isinstance(c.get("parts"), list)]
    # A few malformed entries are tolerated, as in every list format.
    if not shaped or len(shaped) * 5 < len(head) * 4:
        return None
    return contents


def _role(entry: JSONObject) -> str | None:
    role = entry.get("role")
    return role if isinstance(role, str) and role in _ROLES else None


@dataclass(frozen=True)
class _Open:
    """A call still waiting for its response."""

    call_id: str
    tool: str
    arguments: JSONObject
    turn: int
    line: int


def _text(parts: list[Any], *, thoughts: bool = False) -> str:
    return "".join(
        str(p["text"])
        for p in parts
        if isinstance(p, dict)
        and isinstance(p.get("text"), str)
        and bool(p.get("thought")) == thoughts
    )


class _Reader:
    def __init__(self, source: Source, contents: list[Any]) -> None:
        self.source = source
        self.contents = contents
        self.turns = TurnCounter()
        self.out: list[Event] = []
        self.open: list[_Open] = []
        self.calls = 0
        self.root = self._workspace()

    def _workspace(self) -> str | None:
        for entry in self.contents[:4]:
            if (
                isinstance(entry, dict)
                and _role(entry) == "user"
                and isinstance(entry.get("parts"), list)
            ):
                found = _WORKSPACE.search(_text(entry["parts"]))
                if found:
                    return found.group(1).rstrip("/\\") or "/"
        return None

    def read(self) -> list[Event]:
        self.out.append(SessionInfo(turn=0, line=1, agent="gemini-cli", cwd=self.root))
        for number, entry in enumerate(self.contents, start=1):
            if (
                not isinstance(entry, dict)
                or _role(entry) is None
                or not isinstance(entry.get("parts"), list)
            ):
                self.source.skip(number, "not a Gemini API Content entry (role and parts)")
                continue
            if _role(entry) == "model":
                self.model(number, entry["parts"])
            else:
                self.user(number, entry["parts"])
        self.close_open()
        return self.out

    def close_open(self) -> None:
        for call in self.open:
            self.out.append(
                ToolResult(turn=call.turn, line=call.line, call_id=call.call_id, status="unknown")
            )
        self.open.clear()

    def model(self, line: int, parts: list[Any]) -> None:
        self.close_open()  # a response comes in the user entry right after its call
        turn = self.turns.assistant()
        text = _text(parts)
        if text.strip():
            self.out.append(AssistantMessage(turn=turn, line=line, text=text))
        for part in parts:
            call = as_dict(part).get("functionCall")
            if isinstance(call, dict):
                self.call(line, turn, call)

    def call(self, line: int, turn: int, call: JSONObject) -> None:
        self.calls += 1
        tool = str(call.get("name") or "unknown")
        call_id = str(call.get("id") or f"{tool}-{line}-{self.calls}")
        arguments = as_dict(call.get("args"))
        self.open.append(_Open(call_id, tool, arguments, turn, line))
        self.out.append(
            ToolCall(
                turn=turn,
                line=line,
                call_id=call_id,
                tool=tool,
                arguments=arguments,
                operations=tuple(tool_operations(tool, arguments, self.root)),
            )
        )

    def user(self, line: int, parts: list[Any]) -> None:
        responses = [
            p["functionResponse"]
            for p in parts
            if isinstance(p, dict) and isinstance(p.get("functionResponse"), dict)
        ]
        for response in responses:
            self.response(line, response)
        text = _text(parts)
        if not text.strip():
            return
        self.close_open()
        synthetic = bool(responses) or text.lstrip().startswith(_CONTEXT_SETUP)
        self.out.append(
            UserMessage(turn=self.turns.user(), line=line, text=text, synthetic=synthetic)
        )

    def response(self, line: int, response: JSONObject) -> None:
        wanted_id, name = response.get("id"), response.get("name")
        call = next((c for c in self.open if wanted_id and c.call_id == wanted_id), None) or next(
            (c for c in self.open if c.tool == name), None
        )
        if call is None:
            self.source.skip(line, f"Gemini functionResponse for no open call ({name!r})")
            return
        self.open.remove(call)
        body = as_dict(response.get("response"))
        output = str(body["output"]) if isinstance(body.get("output"), str) else ""
        error = str(body["error"]) if isinstance(body.get("error"), str) else None
        status = (
            "success" if error is None else ("cancelled" if _CANCELLED.search(error) else "error")
        )
        result_status, failure, exit_code = tool_outcome(call.tool, status, output, error)
        self.out.append(
            ToolResult(
                turn=call.turn,
                line=line,
                call_id=call.call_id,
                status=result_status,
                output=output or error or "",
                exit_code=exit_code,
                failure=failure,
                reported=reported_change(call.tool, call.arguments, output)
                if result_status == "success"
                else None,
            )
        )


def read_api_history(source: Source, contents: list[Any]) -> Iterator[Event]:
    """The events of a Gemini API history (see the module docstring)."""
    return iter(_Reader(source, contents).read())
