"""Cline task logs: ``api_conversation_history.json`` and ``ui_messages.json``.

Cline keeps two files per task, and either may be all that is left:

* ``api_conversation_history.json`` ("cline") is the Anthropic message list
  Cline sent to the model.  Newer Cline uses native ``tool_use`` blocks, older
  Cline wrote its tools as XML in the assistant text (``<write_to_file>
  <path>…</path>…``).  Results are never ``tool_result`` blocks: Cline puts
  ``[tool for 'path'] Result:\\n…`` text into the next user message, so
  results are matched to calls in order.
* ``ui_messages.json`` ("cline-ui") is what the chat panel showed: ``say`` /
  ``ask`` records whose ``text`` is a JSON string for tools
  (``readFile``, ``newFileCreated``, ``editedExistingFile``), shell commands
  (``command`` + ``command_output``), and ``api_req_started`` records whose
  ``request`` repeats the result texts sent to the model, which is where the
  outcome of each tool is read.

Both files share the result texts, the SEARCH/REPLACE diff language and the
working-directory notes, so one module serves both adapters.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from artifact_index.ingestion.adapters import register
from artifact_index.ingestion.adapters.base import Adapter, TurnCounter, as_text
from artifact_index.ingestion.adapters.narrowing import as_dict
from artifact_index.ingestion.adapters.search_replace import parse_blocks
from artifact_index.ingestion.events import (
    AssistantMessage,
    CompactionBoundary,
    Event,
    FailureReason,
    FileOperation,
    JSONObject,
    ReportedChange,
    ResultStatus,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserChannel,
    UserMessage,
    WorkingDirectory,
)
from artifact_index.ingestion.source import Source
from artifact_index.ingestion.vocabulary import operations_for, path_argument
from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["ClineAdapter", "ClineUiAdapter", "classify_result", "diff_operations"]

# A header starts a line: the lookbehind after the leading "[" says so, as MULTILINE's ``^`` would,
# while letting the search skip to each "[" instead of trying every position of a long request.
_RESULT_HEAD = lazy_pattern(r"\[(?<![^\n]\[)([a-z_]+)(?: for '(.*?)')?\] Result:", re.DOTALL)
_SKIPPED = lazy_pattern(
    r"^(?:Skipping tool|Tool) \[([a-z_]+)(?: for '(.*?)')?\] (?:due to|was not executed|was interrupted)",
    re.MULTILINE | re.DOTALL,
)
_CWD = lazy_pattern(r"# Current Working Directory \((.+?)\) Files")
_CWD_NOW = lazy_pattern(r"The current working directory is now '(.+?)'")
_EXIT = lazy_pattern(r"(?:exit code|exited with code) (-?\d+)", re.IGNORECASE)
# The saved content is found up to its closing tag with str.find: a lazy ``(.*?)`` would test
# for the closing tag at every character of a whole file's content.
_FINAL_CONTENT = lazy_pattern(r"<final_file_content path=\"[^\"]*\">\n?")
_FINAL_CONTENT_END = "</final_file_content>"
_XML_TOOLS = (
    "write_to_file",
    "replace_in_file",
    "read_file",
    "execute_command",
    "list_files",
    "search_files",
    "list_code_definition_names",
    "browser_action",
    "use_mcp_tool",
    "access_mcp_resource",
    "ask_followup_question",
    "attempt_completion",
    "new_task",
    "plan_mode_respond",
    "web_fetch",
    "condense",
    "summarize_task",
    "new_rule",
    "load_mcp_documentation",
)
_XML_CALL = lazy_pattern(r"<(" + "|".join(_XML_TOOLS) + r")>(.*?)</\1>", re.DOTALL)
_XML_PARAM = lazy_pattern(r"<([a-z_]+)>\n?(.*?)\n?</\1>", re.DOTALL)
_COMPACTION_TOOLS = {"condense", "summarize_task"}
_EDIT_TOOLS = {"write_to_file", "replace_in_file"}


def diff_operations(path: str, diff: str) -> list[FileOperation]:
    """One edit per SEARCH/REPLACE block of a ``replace_in_file`` diff."""
    lines = diff.split("\n")
    ops = [
        FileOperation(action="edit", path=path, old=block.old, new=block.new)
        for block in parse_blocks(lines)
    ]
    return ops or [FileOperation(action="edit", path=path, diff=diff or None)]


def _operations(tool: str, arguments: JSONObject, cwd: str | None) -> list[FileOperation]:
    if tool == "replace_in_file":
        path = path_argument(arguments)
        diff = arguments.get("diff")
        if path is None:
            return []
        return _in_workspace(diff_operations(path, diff if isinstance(diff, str) else ""), cwd)
    return _in_workspace(operations_for(tool, arguments, cwd), cwd)


def _in_workspace(operations: list[FileOperation], cwd: str | None) -> list[FileOperation]:
    """Cline's file tools take paths relative to the workspace, wherever its terminal has cd'ed to."""
    if cwd is None:
        return operations
    return [
        op if op.action == "shell" or op.cwd else op.model_copy(update={"cwd": cwd})
        for op in operations
    ]


def classify_result(tool: str, text: str) -> tuple[ResultStatus, FailureReason | None, int | None]:
    """Status, failure reason and exit code of one ``[tool] Result:`` text."""
    body = text.strip()
    if body.startswith("The user denied this operation"):
        return "failure", "rejected", None
    if "is blocked by the .clineignore" in body:
        return "failure", "permission", None
    if body.startswith("Missing value for required parameter"):
        return "failure", "invalid", None
    if (
        body.startswith("The tool execution failed")
        or body.startswith("<error>")
        or (body.startswith("Error") and tool != "execute_command")
    ):
        if "does not match anything in the file" in body or "SEARCH block" in body:
            return "failure", "not_found", None
        lower = (
            body.lower()
        )  # only an error's words are looked up in any case: a body can be a whole file
        if "ENOENT" in body or "no such file" in lower or "not found" in lower:
            return "failure", "not_found", None
        if "missing value for required parameter" in lower or "invalid" in lower:
            return "failure", "invalid", None
        return "failure", "other", None
    if tool == "execute_command":
        exit_match = _EXIT.search(body.split("\n", 1)[0])
        if exit_match:
            code = int(exit_match.group(1))
            return (
                ("success" if code == 0 else "failure"),
                (None if code == 0 else "exit_status"),
                code,
            )
        return "success", None, None
    return "success", None, None


@dataclass
class _Pending:
    call_id: str
    tool: str
    turn: int
    line: int
    path: str | None


# Where Cline puts what the person typed inside its own messages: the task, a reply
# to a question, feedback on a refused call or a finished attempt, a resumed task.
_TYPED = lazy_pattern(r"<(task|user_message|answer|feedback)>\s*(.*?)\s*</\1>", re.DOTALL)
_TYPED_CHANNEL: dict[str, UserChannel] = {
    "task": "prompt",
    "user_message": "prompt",
    "answer": "prompt",
    "feedback": "feedback",
}


def _typed(text: str) -> list[tuple[UserChannel, str]]:
    """The person's words in one user message, in order, with how they were given."""
    return [(_TYPED_CHANNEL[tag], words) for tag, words in _TYPED.findall(text) if words.strip()]


def _results(text: str) -> list[tuple[str, str | None, str]]:
    """``(tool, subject, body)`` for every result header in a user message text."""
    found: list[tuple[int, int, str, str | None]] = []
    # The substring tests run far faster than the line-anchored patterns, which
    # try every line start of messages that can be hundreds of kilobytes.
    if "] Result:" in text:
        for match in _RESULT_HEAD.finditer(text):
            found.append((match.start(), match.end(), match.group(1), match.group(2)))
    if "ool [" in text:  # "Tool [" or "Skipping tool ["
        for match in _SKIPPED.finditer(text):
            found.append((match.start(), match.end(), match.group(1), match.group(2)))
    found.sort()
    out: list[tuple[str, str | None, str]] = []
    for index, (start, end, tool, subject) in enumerate(found):
        stop = found[index + 1][0] if index + 1 < len(found) else len(text)
        body = text[end:stop]
        if text.startswith(("Skipping tool", "Tool ["), start):
            body = text[start:stop]
        # The environment details Cline appends are not part of the result.
        body = body.split("<environment_details>", 1)[0]
        out.append((tool, subject, body.strip("\n")))
    return out


class _Matcher:
    """Hands result texts to the pending calls they answer, in call order."""

    def __init__(self) -> None:
        self.pending: list[_Pending] = []

    def add(self, pending: _Pending) -> None:
        self.pending.append(pending)

    def resolve(
        self, results: list[tuple[str, str | None, str]], line: int
    ) -> Iterator[ToolResult]:
        """Results for the pending calls that ``results`` (what :func:`_results` found) answer."""
        for tool, _subject, body in results:
            index = next((i for i, p in enumerate(self.pending) if _same_tool(p.tool, tool)), None)
            if index is None:
                continue
            call = self.pending.pop(index)
            skipped = body.startswith(("Skipping tool", "Tool ["))
            status, failure, code = classify_result(call.tool, body)
            if skipped:
                status, failure, code = (
                    "failure",
                    ("rejected" if "rejecting" in body else "interrupted"),
                    None,
                )
            yield ToolResult(
                turn=call.turn,
                line=line,
                call_id=call.call_id,
                status=status,
                failure=failure,
                exit_code=code,
                output=body,
                reported=_reported(call, body) if status == "success" else None,
            )

    def abandon(self, line: int) -> Iterator[ToolResult]:
        """Calls that never got a result: the task was interrupted before they ran."""
        for call in self.pending:
            yield ToolResult(
                turn=call.turn,
                line=line,
                call_id=call.call_id,
                status="failure",
                failure="interrupted",
                output="no result was recorded for this call",
            )
        self.pending = []


def _same_tool(call_tool: str, result_tool: str) -> bool:
    return call_tool == result_tool or (call_tool in _EDIT_TOOLS and result_tool in _EDIT_TOOLS)


def _reported(call: _Pending, body: str) -> tuple[ReportedChange, ...] | None:
    """The saved file content Cline echoes back after ``replace_in_file``."""
    if call.tool != "replace_in_file" or call.path is None:
        return None
    match = _FINAL_CONTENT.search(body)
    end = body.find(_FINAL_CONTENT_END, match.end()) if match else -1
    if match is None or end < 0:
        return None
    if end > match.end() and body[end - 1] == "\n":
        end -= 1  # the newline before the closing tag is not content
    return (ReportedChange(path=call.path, change="modified", content=body[match.end() : end]),)


def _session_start(line: int, notes: list[str], stamp: str | None) -> Iterator[Event]:
    """The session (rooted where the task ends) and the folder it starts in."""
    yield SessionInfo(
        turn=0, line=line, agent="cline", cwd=notes[-1] if notes else None, timestamp=stamp
    )
    if notes and notes[0] != notes[-1]:
        yield WorkingDirectory(turn=0, line=line, cwd=notes[0])


def _cwd_notes(text: str) -> list[str]:
    return [m.group(1) for m in _CWD.finditer(text)] + [m.group(1) for m in _CWD_NOW.finditer(text)]


def _looks_like_api_history(document: Any) -> bool:
    if not isinstance(document, list) or not document:
        return False
    head = document[:20]
    valid = [m for m in head if isinstance(m, dict) and m.get("role") in ("user", "assistant")]
    if len(valid) * 5 < len(head) * 4:  # a few malformed entries are tolerated
        return False
    for message in document[:40]:
        if not isinstance(message, dict):
            continue
        content = message.get("content")
        blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
        for block in blocks:
            if not isinstance(block, dict):
                continue
            text = block.get("text")
            if isinstance(text, str) and (
                _RESULT_HEAD.search(text)
                or "<environment_details>" in text
                or text.lstrip().startswith("<task>")
            ):
                return True
            if block.get("type") == "tool_use" and block.get("name") in _XML_TOOLS:
                return True
    return False


@register
class ClineAdapter(Adapter):
    name = "cline"
    description = "Cline api_conversation_history.json (Anthropic messages, results as text)"
    priority = 45

    def sniff(self, source: Source) -> bool:
        return _looks_like_api_history(source.document)

    def events(self, source: Source) -> Iterator[Event]:
        document = source.document
        if not isinstance(document, list):
            source.skip(None, "not a JSON list of messages")
            return
        turns = TurnCounter()
        matcher = _Matcher()
        # A resumed task may move to another folder; the folder it ends in is
        # the workspace root, the one it starts in is where early paths resolve.
        notes = [
            note
            for message in document
            if isinstance(message, dict)
            for note in _cwd_notes(as_text(message.get("content")))
        ]
        cwd: str | None = notes[0] if notes else None
        yield from _session_start(1, notes, None)
        calls = 0
        for index, message in enumerate(document, start=1):
            if not isinstance(message, dict) or message.get("role") not in ("user", "assistant"):
                source.skip(index, "not a user or assistant message")
                continue
            content = message.get("content")
            blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
            text = as_text(content)
            if message["role"] == "user":
                turn = turns.user()
                for note in _cwd_notes(text):
                    if note != cwd:
                        cwd = note
                        yield WorkingDirectory(turn=turn, line=index, cwd=note)
                results = _results(text)
                if not results and matcher.pending:
                    # A user message that answers none of the calls: they never ran.
                    yield from matcher.abandon(index)
                yield from matcher.resolve(results, index)
                typed = _typed(text)
                for channel, words in typed:
                    yield UserMessage(turn=turn, line=index, text=words, channel=channel)
                if not typed:
                    # Results, or the harness speaking ("[TASK RESUMPTION]", "[ERROR] You did not use a tool").
                    harness = bool(results) or text.lstrip().startswith("[")
                    yield UserMessage(turn=turn, line=index, text=text, synthetic=harness)
                continue
            if matcher.pending:
                yield from matcher.abandon(index)
            turn = turns.assistant()
            info = message.get("modelInfo")
            model_id = as_dict(info).get("modelId")
            model_id = (
                model_id if isinstance(model_id, str) else None
            )  # a damaged id costs only itself
            prose = "\n".join(
                b["text"]
                for b in blocks
                if isinstance(b, dict)
                and b.get("type") == "text"
                and isinstance(b.get("text"), str)
            )
            if prose.strip():
                yield AssistantMessage(turn=turn, line=index, text=prose, model=model_id)
            uses: list[tuple[str, str, JSONObject]] = []
            for block in blocks:
                if isinstance(block, dict) and block.get("type") == "tool_use":
                    arguments = block.get("input")
                    if not isinstance(block.get("name"), str) or not isinstance(arguments, dict):
                        source.skip(index, "tool_use block without a name or input")
                        continue
                    calls += 1
                    uses.append(
                        (str(block.get("id") or f"cline-{index}-{calls}"), block["name"], arguments)
                    )
            if not uses:
                # Older Cline: tools written as XML in the reply text.
                for match in _XML_CALL.finditer(prose):
                    calls += 1
                    arguments = {
                        m.group(1): m.group(2) for m in _XML_PARAM.finditer(match.group(2))
                    }
                    uses.append((f"cline-{index}-{calls}", match.group(1), arguments))
            for call_id, tool, arguments in uses:
                if tool in _COMPACTION_TOOLS:
                    summary = arguments.get("context")
                    yield CompactionBoundary(
                        turn=turn,
                        line=index,
                        trigger=tool,
                        summary=summary if isinstance(summary, str) else None,
                    )
                yield ToolCall(
                    turn=turn,
                    line=index,
                    call_id=call_id,
                    tool=tool,
                    arguments=arguments,
                    operations=tuple(_operations(tool, arguments, cwd)),
                )
                matcher.add(_Pending(call_id, tool, turn, index, path_argument(arguments)))
        yield from matcher.abandon(len(document))


# ui_messages.json ---------------------------------------------------------------

# The say/ask ``tool`` names and the tool whose result text answers them.
_UI_TOOLS = {
    "readFile": "read_file",
    "newFileCreated": "write_to_file",
    "editedExistingFile": "replace_in_file",
    "fileDeleted": "delete_file",
    "listFilesTopLevel": "list_files",
    "listFilesRecursive": "list_files",
    "listCodeDefinitionNames": "list_code_definition_names",
    "searchFiles": "search_files",
    "webFetch": "web_fetch",
    "summarizeTask": "summarize_task",
}


def _ui_operations(tool: str, data: JSONObject) -> list[FileOperation]:
    path = data.get("path")
    if not isinstance(path, str) or not path:
        return []
    content = data.get("content")
    content = content if isinstance(content, str) else data.get("diff")
    content = content if isinstance(content, str) else None
    if tool == "readFile":
        return [FileOperation(action="read", path=path)]
    if tool == "newFileCreated":
        return [FileOperation(action="create", path=path, content=content)]
    if tool == "editedExistingFile":
        # replace_in_file shows its SEARCH/REPLACE diff; write_to_file on an
        # existing file shows the whole new content.
        if content is not None and parse_blocks(content.split("\n")):
            return diff_operations(path, content)
        return [FileOperation(action="write", path=path, content=content)]
    if tool == "fileDeleted":
        return [FileOperation(action="delete", path=path)]
    return []


def _looks_like_ui_messages(document: Any) -> bool:
    if not isinstance(document, list) or not document:
        return False
    head = document[:20]
    valid = [
        m for m in head if isinstance(m, dict) and m.get("type") in ("say", "ask") and "ts" in m
    ]
    return bool(valid) and len(valid) * 5 >= len(head) * 4


@register
class ClineUiAdapter(Adapter):
    name = "cline-ui"
    description = "Cline ui_messages.json (the chat panel's say/ask records)"
    priority = 45

    def sniff(self, source: Source) -> bool:
        return _looks_like_ui_messages(source.document)

    def events(self, source: Source) -> Iterator[Event]:
        document = source.document
        if not isinstance(document, list):
            source.skip(None, "not a JSON list of say/ask records")
            return
        turns = TurnCounter()
        matcher = _Matcher()
        # Each request's text is parsed out of its record once, for the notes here and the results below.
        requests = {
            index: _request_text(record["text"])
            for index, record in enumerate(document, start=1)
            if isinstance(record, dict)
            and record.get("say") == "api_req_started"
            and isinstance(record.get("text"), str)
        }
        notes = [note for request in requests.values() for note in _cwd_notes(request)]
        cwd: str | None = notes[0] if notes else None
        first = document[0] if document and isinstance(document[0], dict) else {}
        yield from _session_start(1, notes, _timestamp(first.get("ts")))
        turn = 0
        in_reply = False
        for index, record in enumerate(document, start=1):
            if not isinstance(record, dict) or record.get("type") not in ("say", "ask"):
                source.skip(index, "not a say/ask record")
                continue
            raw_kind = record.get("say") if record["type"] == "say" else record.get("ask")
            kind = raw_kind if isinstance(raw_kind, str) else ""
            raw_text = record.get("text")
            text = raw_text if isinstance(raw_text, str) else ""
            stamp = _timestamp(record.get("ts"))
            if kind == "api_req_started":
                request = requests[index] if index in requests else _request_text(text)
                for note in _cwd_notes(request):
                    if note != cwd:
                        cwd = note
                        yield WorkingDirectory(turn=turn, line=index, cwd=note)
                yield from matcher.resolve(_results(request), index)
                in_reply = False
                continue
            if kind in ("task", "user_feedback") or (kind == "text" and turn == 0):
                turn = turns.user()
                in_reply = False
                yield UserMessage(
                    turn=turn,
                    line=index,
                    text=text,
                    timestamp=stamp,
                    channel="feedback" if kind == "user_feedback" else "prompt",
                )
                continue
            if (
                kind in ("text", "reasoning", "completion_result", "tool", "command")
                and not in_reply
            ):
                turn = turns.assistant()
                in_reply = True
            if kind in ("text", "completion_result") and text.strip():
                yield AssistantMessage(turn=turn, line=index, text=text, timestamp=stamp)
            elif kind == "tool":
                try:
                    data = json.loads(text)
                except json.JSONDecodeError:
                    source.skip(index, "tool record whose text is not JSON")
                    continue
                if not isinstance(data, dict) or not isinstance(data.get("tool"), str):
                    source.skip(index, "tool record without a tool name")
                    continue
                tool = str(data["tool"])
                call_id = f"cline-ui-{index}"
                yield ToolCall(
                    turn=turn,
                    line=index,
                    call_id=call_id,
                    tool=tool,
                    arguments=data,
                    timestamp=stamp,
                    operations=tuple(_in_workspace(_ui_operations(tool, data), cwd)),
                )
                path = data.get("path") if isinstance(data.get("path"), str) else None
                matcher.add(_Pending(call_id, _UI_TOOLS.get(tool) or tool, turn, index, path))
            elif kind == "command" and text.strip():
                call_id = f"cline-ui-{index}"
                yield ToolCall(
                    turn=turn,
                    line=index,
                    call_id=call_id,
                    tool="execute_command",
                    arguments={"command": text},
                    timestamp=stamp,
                    operations=tuple(operations_for("execute_command", {"command": text}, cwd)),
                )
                matcher.add(_Pending(call_id, "execute_command", turn, index, None))
            elif kind == "task_progress" and text.strip():
                # Cline records the checklist it carries on its tool calls as a
                # message of its own; as a call it updates the task list.
                call_id = f"cline-ui-{index}"
                yield ToolCall(
                    turn=turn,
                    line=index,
                    call_id=call_id,
                    tool="task_progress",
                    arguments={"task_progress": text},
                    timestamp=stamp,
                )
                yield ToolResult(turn=turn, line=index, call_id=call_id, status="success")
            elif kind == "condense_context" or kind == "condense":
                yield CompactionBoundary(turn=turn, line=index, trigger=kind, summary=text or None)
        # Calls after the last request: their results were never sent.
        for call in matcher.pending:
            yield ToolResult(turn=call.turn, line=call.line, call_id=call.call_id, status="unknown")


def _request_text(text: str) -> str:
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return ""
    request = as_dict(data).get("request")
    return request if isinstance(request, str) else ""


def _timestamp(value: Any) -> str | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            return datetime.fromtimestamp(value / 1000, tz=UTC).isoformat().replace("+00:00", "Z")
        except (OverflowError, OSError, ValueError):
            return None  # a time out of range loses the time, not the record
    return None
