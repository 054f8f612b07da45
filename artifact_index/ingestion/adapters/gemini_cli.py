"""Gemini CLI chat recordings (``~/.gemini/tmp/<project hash>/chats/session-*.json[l]``).

Two layouts of the same records:

* JSON (until 2026-01): ``{"sessionId", "projectHash", "startTime",
  "lastUpdated", "messages": [...]}``.
* JSONL (newer): a metadata line ``{"sessionId", "projectHash", ...}``, then
  one message per line.  A message is written again, whole, each time it
  grows (tool results arrive, tokens are counted), so a repeated ``id``
  updates the message rather than adding one; ``{"$set": {...}}`` updates the
  metadata (``{"$set": {"messages": [...]}}`` rewrites the history, as
  ``/compress`` does) and ``{"$rewindTo": id}`` drops messages from ``id``
  on from the conversation.  Their tool calls had already run and the
  recording does not say whether files were restored, so they are kept.

A message is ``{"id", "timestamp", "type": "user" | "gemini" | "info" |
"warning" | "error", "content", "toolCalls": [...]}``; a tool call is
``{"id", "name", "args", "status": "success" | "error" | "cancelled",
"result": [{"functionResponse": {"response": {"output" | "error"}}}]}``.
Hand-trimmed recordings carry calls with no status or result at all; their
results are ``unknown``.

The recording does not name the workspace.  It is taken from the context
setup Gemini CLI sends first ("Workspace Directories:", "working in the
directory"), else recovered from a tool's own answer that spells the
absolute form of a relative path argument ("Successfully overwrote file:
/abs/root/docs/a.md." for ``docs/a.md``).

A session saved as its Gemini API history (``/chat save``, checkpoints) is
a third shape, read by :mod:`.gemini_api` under the same format name.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from artifact_index.ingestion.adapters import register
from artifact_index.ingestion.adapters.base import Adapter, TurnCounter, as_text, report_bad_lines
from artifact_index.ingestion.adapters.gemini_api import api_contents, read_api_history
from artifact_index.ingestion.adapters.gemini_tools import (
    reported_change,
    tool_operations,
    tool_outcome,
)
from artifact_index.ingestion.adapters.narrowing import as_dict, as_list, string_or_none
from artifact_index.ingestion.events import (
    AssistantMessage,
    CompactionBoundary,
    Event,
    JSONObject,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
)
from artifact_index.ingestion.source import Source
from artifact_index.ingestion.vocabulary import path_argument
from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["GeminiCliAdapter"]

_MESSAGE_TYPES = {"user", "gemini", "info", "warning", "error"}
# What Gemini CLI sends as a user turn itself when the model stopped early.
_INJECTED = {"System: Please continue.", "Please continue."}
_ABSOLUTE_IN_OUTPUT = lazy_pattern(r"(/[^\s:]+|[A-Za-z]:\\[^\s:]+)")


def _response(call: JSONObject) -> tuple[str, str | None]:
    """``(output, error)`` of a tool call's ``functionResponse`` parts."""
    outputs: list[str] = []
    error: str | None = None
    result = call.get("result")
    for part in as_list(result):
        response = as_dict(as_dict(as_dict(part).get("functionResponse")).get("response"))
        if isinstance(output := response.get("output"), str):
            outputs.append(output)
        elif "content" in response:
            outputs.append(as_text(response["content"]))
        if isinstance(failure := response.get("error"), str):
            error = failure
    return "\n".join(outputs), error


def _message_text(message: JSONObject) -> str:
    content = message.get("content")
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return as_text(content)


# The context setup Gemini CLI sends first names the workspace: "- **Workspace Directories:**"
# then one "  - PATH" line per folder (the first is the project), or, in older versions,
# "I'm currently working in the directory: PATH".
_STATED_WORKSPACE = lazy_pattern(
    r"Workspace Directories:\**[ \t]*\n[ \t]*-[ \t]+(\S[^\n]*?)[ \t]*$"
    r"|working in the directory:?[ \t]+[`']?(\S[^`'\n]*?)[`']?[ \t]*$",
    re.MULTILINE | re.IGNORECASE,
)


def _stated_workspace(items: list[tuple[int, JSONObject]]) -> str | None:
    """The workspace root the context setup states, when a message holds one."""
    for _, item in items:
        update = item.get("$set")
        messages = as_list(as_dict(update).get("messages")) if isinstance(update, dict) else [item]
        for message in messages:
            if not isinstance(message, dict) or message.get("type") != "user":
                continue
            text = _message_text(message)
            if "<session_context>" not in text and "setting up the context" not in text:
                continue
            found = _STATED_WORKSPACE.search(text)
            if found is not None:
                return found.group(1) or found.group(2)
    return None


def _workspace(messages: list[tuple[int, JSONObject]]) -> str | None:
    """The workspace root, from an answer that spells a relative path argument absolutely."""
    for _, message in messages:
        for call in as_list(message.get("toolCalls")):
            if not isinstance(call, dict):
                continue
            path = path_argument(as_dict(call.get("args")))
            if not path or path.startswith("/") or re.match(r"^[A-Za-z]:[\\/]", path):
                continue
            output, _ = _response(call)
            suffix = "/" + path.removeprefix("./")
            for found in _ABSOLUTE_IN_OUTPUT.finditer(output):
                candidate = found.group(0).rstrip(".,;)")
                if candidate.endswith(suffix) and len(candidate) > len(suffix):
                    return candidate[: -len(suffix)]
    return None


@dataclass
class _Emitted:
    """What has been emitted for one message id (a message is rewritten as it grows)."""

    turn: int
    text: bool = False
    calls: set[str] = field(default_factory=set)
    results: set[str] = field(default_factory=set)


class _Reader:
    def __init__(
        self, source: Source, metadata: JSONObject, items: list[tuple[int, JSONObject]]
    ) -> None:
        self.source = source
        self.metadata = metadata
        self.items = items
        self.turns = TurnCounter()
        self.out: list[Event] = []
        self.seen: dict[str, _Emitted] = {}
        self.open_calls: dict[str, tuple[int, int]] = {}  # call id -> (turn, line)
        messages = [(line, m) for line, m in items if "$set" not in m]
        directories = metadata.get("directories")
        first_dir = directories[0] if isinstance(directories, list) and directories else None
        self.root = (
            first_dir
            if isinstance(first_dir, str)
            else _stated_workspace(items) or _workspace(messages)
        )

    def read(self) -> list[Event]:
        session_id = self.metadata.get("sessionId")
        self.out.append(
            SessionInfo(
                turn=0,
                line=1 if self.metadata else None,
                timestamp=self.metadata.get("startTime")
                if isinstance(self.metadata.get("startTime"), str)
                else None,
                session_id=str(session_id) if session_id else None,
                agent="gemini-cli",
                cwd=self.root,
            )
        )
        for line, item in self.items:
            rewrite = as_dict(item.get("$set")).get("messages")
            if isinstance(rewrite, list):
                self.rewrite(line, [m for m in rewrite if isinstance(m, dict)])
            elif "$set" not in item:
                self.message(line, item)
        self.close_open_calls()
        return self.out

    def close_open_calls(self) -> None:
        for call_id, (turn, line) in self.open_calls.items():
            self.out.append(ToolResult(turn=turn, line=line, call_id=call_id, status="unknown"))
        self.open_calls.clear()

    def rewrite(self, line: int, messages: list[JSONObject]) -> None:
        """A whole new history: a compression when earlier messages are gone from it."""
        ids = {str(m.get("id")) for m in messages}
        if any(seen not in ids for seen in self.seen):
            summary = "\n".join(
                _message_text(m) for m in messages if str(m.get("id")) not in self.seen
            ).strip()
            for message in messages:
                self.seen.setdefault(
                    str(message.get("id")), _Emitted(turn=self.turns.current, text=True)
                )
            self.out.append(
                CompactionBoundary(
                    turn=self.turns.current, line=line, trigger="compress", summary=summary or None
                )
            )
            return
        for message in messages:
            self.message(line, message)

    def message(self, line: int, message: JSONObject) -> None:
        kind = message.get("type")
        if not isinstance(kind, str) or kind not in _MESSAGE_TYPES:
            self.source.skip(line, f"Gemini CLI record of unknown type {kind!r}")
            return
        if kind in ("info", "warning", "error"):
            return  # UI notices: not part of the conversation the model saw
        message_id = str(message.get("id") or f"line-{line}")
        timestamp = string_or_none(message.get("timestamp"))
        emitted = self.seen.get(message_id)
        text = _message_text(message)
        if emitted is None:
            # Gemini writes a call's result into the message that made the
            # call before it starts another message: calls still open now
            # were recorded without a result.
            self.close_open_calls()
            turn = self.turns.user() if kind == "user" else self.turns.assistant(message_id)
            emitted = self.seen[message_id] = _Emitted(turn=turn)
        if text.strip() and not emitted.text:
            emitted.text = True
            if kind == "user":
                self.out.append(
                    UserMessage(
                        turn=emitted.turn,
                        line=line,
                        timestamp=timestamp,
                        text=text,
                        synthetic=text.strip() in _INJECTED,
                    )
                )
            else:
                model = string_or_none(message.get("model"))
                self.out.append(
                    AssistantMessage(
                        turn=emitted.turn, line=line, timestamp=timestamp, text=text, model=model
                    )
                )
        for call in as_list(message.get("toolCalls")):
            if isinstance(call, dict):
                self.tool_call(line, timestamp, emitted, call)

    def tool_call(
        self, line: int, timestamp: str | None, emitted: _Emitted, call: JSONObject
    ) -> None:
        call_id = str(call.get("id") or f"{call.get('name')}-{line}-{len(emitted.calls)}")
        tool = str(call.get("name") or "unknown")
        arguments = as_dict(call.get("args"))
        if call_id not in emitted.calls:
            emitted.calls.add(call_id)
            self.open_calls[call_id] = (emitted.turn, line)
            self.out.append(
                ToolCall(
                    turn=emitted.turn,
                    line=line,
                    timestamp=timestamp,
                    call_id=call_id,
                    tool=tool,
                    arguments=arguments,
                    operations=tuple(tool_operations(tool, arguments, self.root)),
                )
            )
        status = call.get("status")
        if call_id in emitted.results or status not in ("success", "error", "cancelled"):
            return
        emitted.results.add(call_id)
        self.open_calls.pop(call_id, None)
        output, error = _response(call)
        result_status, failure, exit_code = tool_outcome(tool, str(status), output, error)
        reported = reported_change(tool, arguments, output) if result_status == "success" else None
        call_time = call.get("timestamp") if isinstance(call.get("timestamp"), str) else timestamp
        self.out.append(
            ToolResult(
                turn=emitted.turn,
                line=line,
                timestamp=call_time,
                call_id=call_id,
                status=result_status,
                output=error if error is not None and not output else output,
                exit_code=exit_code,
                failure=failure,
                reported=reported,
            )
        )


def _metadata_and_items(source: Source) -> tuple[JSONObject, list[tuple[int, JSONObject]]]:
    document = source.document
    if isinstance(document, dict):
        messages = document.get("messages")
        items = [(n + 1, m) for n, m in enumerate(as_list(messages))]
        metadata = {k: v for k, v in document.items() if k != "messages"}
    else:
        reported = len(source.skipped)
        metadata, items = {}, []
        for line, obj in source.records:
            if not isinstance(obj, dict):
                source.skip(line, "not a Gemini CLI record")
            elif "$rewindTo" in obj:
                # The rewound messages still ran their tools; nothing to undo here.
                continue
            elif "sessionId" in obj and "projectHash" in obj and "type" not in obj:
                metadata.update(obj)
            elif isinstance(obj.get("$set"), dict):
                metadata.update({k: v for k, v in obj["$set"].items() if k != "messages"})
                items.append((line, obj))
            else:
                items.append((line, obj))
        report_bad_lines(source, reported)
    good: list[tuple[int, JSONObject]] = []
    for line, item in items:
        if isinstance(item, dict):
            good.append((line, item))
        else:
            source.skip(line, "Gemini CLI message that is not an object")
    return metadata, good


@register
class GeminiCliAdapter(Adapter):
    """Gemini CLI chat recording, JSON or JSONL."""

    name = "gemini-cli"
    description = (
        "Gemini CLI chat recording (session-*.json / .jsonl with user/gemini messages and toolCalls), "
        "or its Gemini API history (/chat save, checkpoints: role/parts Content entries)"
    )
    priority = 25

    def sniff(self, source: Source) -> bool:
        document = source.document
        if api_contents(document) is not None:
            return True
        if isinstance(document, dict):
            messages = document.get("messages")
            if not isinstance(messages, list) or not (
                "projectHash" in document or "sessionId" in document
            ):
                return False
            # Most of the first messages must be Gemini CLI's, not all: one damaged
            # message must cost only itself, never the whole session.
            head = messages[:5]
            known = sum(isinstance(m, dict) and str(m.get("type")) in _MESSAGE_TYPES for m in head)
            return known > 0 and 2 * known >= len(head)
        if document is not None:
            return False
        for _, obj in source.records[:20]:
            if not isinstance(obj, dict):
                continue
            if "sessionId" in obj and "projectHash" in obj:
                return True
            if obj.get("type") == "gemini" and "id" in obj and "content" in obj:
                return True
        return False

    def events(self, source: Source) -> Iterator[Event]:
        contents = api_contents(source.document)
        if contents is not None:
            return read_api_history(source, contents)
        metadata, items = _metadata_and_items(source)
        return iter(_Reader(source, metadata, items).read())
