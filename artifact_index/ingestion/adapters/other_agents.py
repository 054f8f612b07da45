"""Single-file transcripts of smaller agents, one adapter class per format.

Each shape here was read from one real session file captured by git-ai's
test fixtures; they are small, so they share this module:

* ``cursor``: Cursor agent JSONL, ``{"role", "message": {"content": [blocks]}}``.
  Tool calls have no ids and no results are written, so every result is
  ``unknown``.
* ``windsurf``: Windsurf trajectory JSONL, ``{"type": T, T: {...}, "status"}``;
  each step is a call and its result at once (``view_file``, ``code_action``
  with ``original_content``/``new_content``, ``run_command`` with
  ``exit_code``/``user_rejected``).  Paths are ``file://`` URIs.
* ``droid``: Factory Droid JSONL, ``session_start`` (with ``cwd``) then
  ``message`` records holding Anthropic-style ``tool_use``/``tool_result``.
* ``continue-cli``: Continue CLI session JSON, ``history[]`` of messages with
  OpenAI-style ``toolCalls`` and ``toolCallStates`` holding status and output.
* ``amp``: Amp thread JSON, ``messages[]`` with ``tool_use`` blocks and
  ``tool_result`` blocks whose ``run`` holds ``status`` and ``result``.
* ``copilot-vscode``: VS Code Copilot chat session, a JSONL mutation log whose
  first record (``kind`` 0) is the whole session; later records set (``kind``
  1) or append to (``kind`` 2) a path in it.  Tool calls and results are in
  each request's ``result.metadata.toolCallRounds``/``toolCallResults``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote, urlparse

from artifact_index.ingestion.adapters import register
from artifact_index.ingestion.adapters.anthropic_messages import MessageReader, result_from_text
from artifact_index.ingestion.adapters.base import Adapter, TurnCounter, as_text, parse_json_object
from artifact_index.ingestion.adapters.failures import classify_failure
from artifact_index.ingestion.events import (
    AssistantMessage,
    Event,
    FailureReason,
    FileOperation,
    ReportedChange,
    ResultStatus,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
)
from artifact_index.ingestion.source import Source
from artifact_index.ingestion.vocabulary import operations_for

__all__ = [
    "AmpAdapter",
    "ContinueCliAdapter",
    "CopilotVscodeAdapter",
    "CursorAdapter",
    "DroidAdapter",
    "WindsurfAdapter",
    "uri_to_path",
]


def uri_to_path(value: str) -> str:
    """``file:///Users/x/a.py`` -> ``/Users/x/a.py``; ``file:///c%3A/x`` -> ``c:/x``.

    A URI is how these agents name a file, not a path anyone typed, so it is
    decoded; anything that is not a ``file:`` URI is returned unchanged.
    """
    if not value.startswith("file:"):
        return value
    path = unquote(urlparse(value).path)
    if len(path) > 2 and path[0] == "/" and path[2] == ":":
        path = path[1:]  # /c:/Users -> c:/Users
    return path


def _records(source: Source) -> list[tuple[int, dict[str, Any]]]:
    """The JSON-object lines of ``source``; other lines are skipped and counted."""
    for bad in source.bad_lines:
        source.skip(bad.line, bad.reason)
    out: list[tuple[int, dict[str, Any]]] = []
    for line, record in source.records:
        if isinstance(record, dict):
            out.append((line, record))
        else:
            source.skip(line, "not a JSON object")
    return out


def _list(value: Any) -> list[Any]:
    """A list field, or no items when the record holds something else there."""
    return value if isinstance(value, list) else []


def _failure(text: str) -> FailureReason:
    return classify_failure(text)


def _result(
    turn: int, line: int, call_id: str, status: ResultStatus, output: str = "",
    failure: FailureReason | None = None, exit_code: int | None = None,
    reported: tuple[ReportedChange, ...] | None = None,
) -> ToolResult:
    return ToolResult(
        turn=turn, line=line, call_id=call_id, status=status, output=output,
        failure=failure if status == "failure" else None, exit_code=exit_code, reported=reported,
    )


def _text_result(turn: int, line: int, call_id: str, text: str, is_error: bool) -> ToolResult:
    return result_from_text(turn, line, call_id, text, is_error)


# Cursor ------------------------------------------------------------------------


@register
class CursorAdapter(Adapter):
    name = "cursor"
    description = "Cursor agent transcript JSONL (role/message records, no tool results)"

    def sniff(self, source: Source) -> bool:
        if not source.looks_like_jsonl():
            return False
        head = [r for _, r in source.records[:10] if isinstance(r, dict)]
        return bool(head) and all(
            "role" in r and isinstance(r.get("message"), dict) and "type" not in r for r in head
        )

    def events(self, source: Source) -> Iterator[Event]:
        turns = TurnCounter()
        yield SessionInfo(turn=0, line=1, agent="cursor")
        for line, record in _records(source):
            role = record.get("role")
            message = record.get("message")
            if role not in ("user", "assistant") or not isinstance(message, dict):
                source.skip(line, "not a user or assistant record")
                continue
            content = message.get("content")
            if role == "user":
                yield UserMessage(turn=turns.user(), line=line, text=as_text(content))
                continue
            turn = turns.assistant()
            text = as_text(
                [b for b in content if isinstance(b, dict) and b.get("type") == "text"]
                if isinstance(content, list) else content
            )
            if text.strip():
                yield AssistantMessage(turn=turn, line=line, text=text)
            blocks = content if isinstance(content, list) else []
            for index, block in enumerate(blocks):
                if not isinstance(block, dict) or block.get("type") != "tool_use":
                    continue
                name, arguments = block.get("name"), block.get("input")
                if not isinstance(name, str) or not isinstance(arguments, dict):
                    source.skip(line, "tool_use block without a name or input")
                    continue
                call_id = str(block.get("id") or f"cursor-{line}-{index}")
                yield ToolCall(
                    turn=turn, line=line, call_id=call_id, tool=name, arguments=arguments,
                    operations=tuple(operations_for(name, arguments)),
                )
                # Cursor writes no tool results.
                yield _result(turn, line, call_id, "unknown")


# Windsurf ----------------------------------------------------------------------

_WINDSURF_TYPES = {"user_input", "planner_response", "view_file", "code_action", "run_command"}


def _windsurf_operations(kind: str, data: dict[str, Any], cwd: str | None) -> list[FileOperation]:
    raw = data.get("path") or data.get("file_path") or data.get("uri")
    path = uri_to_path(raw) if isinstance(raw, str) and raw else None
    if kind == "view_file" and path:
        return [FileOperation(action="read", path=path)]
    if kind == "code_action" and path:
        original = data.get("original_content")
        new = data.get("new_content")
        content = new if isinstance(new, str) else None
        action = "create" if original is None and "original_content" not in data else "write"
        return [FileOperation(action=action, path=path, content=content)]
    if kind == "run_command":
        command = data.get("command")
        workdir = data.get("cwd")
        if isinstance(command, str) and command.strip():
            return [FileOperation(
                action="shell", command=command, source="shell",
                cwd=uri_to_path(workdir) if isinstance(workdir, str) else cwd,
            )]
    return []


@register
class WindsurfAdapter(Adapter):
    name = "windsurf"
    description = "Windsurf (Cascade) trajectory JSONL"

    def sniff(self, source: Source) -> bool:
        if not source.looks_like_jsonl():
            return False
        kinds = {
            r.get("type") for _, r in source.records[:30]
            if isinstance(r, dict) and isinstance(r.get(r.get("type", "")), dict)
        }
        return bool(kinds & _WINDSURF_TYPES)

    def events(self, source: Source) -> Iterator[Event]:
        turns = TurnCounter()
        turn = 0
        cwd: str | None = None
        session_sent = False
        for line, record in _records(source):
            kind = record.get("type")
            data = record.get(kind) if isinstance(kind, str) else None
            if not isinstance(kind, str) or not isinstance(data, dict):
                source.skip(line, "record without a type and its payload")
                continue
            stamp = record.get("timestamp") if isinstance(record.get("timestamp"), str) else None
            if not session_sent:
                session_sent = True
                workdir = data.get("cwd")
                cwd = workdir if isinstance(workdir, str) else None
                yield SessionInfo(turn=0, line=line, agent="windsurf", cwd=cwd)
            if kind == "user_input":
                turn = turns.user()
                yield UserMessage(turn=turn, line=line, text=str(data.get("user_response", "")),
                                  timestamp=stamp)
                continue
            if kind == "planner_response":
                turn = turns.assistant()
                yield AssistantMessage(turn=turn, line=line, text=str(data.get("response", "")),
                                       timestamp=stamp)
                continue
            call_id = f"windsurf-{line}"
            yield ToolCall(
                turn=turn, line=line, call_id=call_id, tool=kind, arguments=data, timestamp=stamp,
                operations=tuple(_windsurf_operations(kind, data, cwd)),
            )
            yield self.result(turn, line, call_id, kind, record.get("status"), data)

    @staticmethod
    def result(
        turn: int, line: int, call_id: str, kind: str, status: Any, data: dict[str, Any]
    ) -> ToolResult:
        raw_output = data.get("content") if kind == "view_file" else data.get("output")
        output = raw_output if isinstance(raw_output, str) else ""
        if data.get("user_rejected") is True or "REJECT" in str(data.get("acknowledgement_type", "")):
            return _result(turn, line, call_id, "failure", output, "rejected")
        if status == "error":
            return _result(turn, line, call_id, "failure", output, _failure(output))
        exit_code = data.get("exit_code")
        if isinstance(exit_code, int) and not isinstance(exit_code, bool):
            status_text: ResultStatus = "success" if exit_code == 0 else "failure"
            return _result(turn, line, call_id, status_text, output, "exit_status", exit_code)
        if status not in ("done", None):
            return _result(turn, line, call_id, "unknown", output)
        reported = None
        path = data.get("path")
        if kind == "code_action" and isinstance(path, str) and isinstance(data.get("new_content"), str):
            change = "created" if data.get("original_content") is None else "modified"
            reported = (ReportedChange(path=uri_to_path(path), change=change,
                                       content=data["new_content"]),)
        return _result(turn, line, call_id, "success", output, reported=reported)


# Droid (Factory) ---------------------------------------------------------------


@register
class DroidAdapter(Adapter):
    name = "droid"
    description = "Factory Droid session JSONL"

    def sniff(self, source: Source) -> bool:
        if not source.looks_like_jsonl():
            return False
        head = [r for _, r in source.records[:5] if isinstance(r, dict)]
        return bool(head) and head[0].get("type") == "session_start" and any(
            isinstance(r, dict) and r.get("type") == "message" and isinstance(r.get("message"), dict)
            for _, r in source.records[:30]
        )

    def events(self, source: Source) -> Iterator[Event]:
        reader = _DroidReader(source)
        for line, record in _records(source):
            kind = record.get("type")
            stamp = record.get("timestamp") if isinstance(record.get("timestamp"), str) else None
            if kind == "session_start":
                workdir = record.get("cwd")
                reader.cwd = workdir if isinstance(workdir, str) else None
                yield SessionInfo(
                    turn=0, line=line, agent="droid", cwd=reader.cwd,
                    session_id=str(record.get("id")) if record.get("id") else None,
                )
                continue
            if kind != "message":
                continue  # todo_state and other bookkeeping records
            message = record.get("message")
            if not isinstance(message, dict) or message.get("role") not in ("user", "assistant"):
                source.skip(line, "message record without a role")
                continue
            yield from reader.message(line, message, stamp)
        yield from reader.finish(None)


class _DroidReader(MessageReader):
    """Droid's ApplyPatch answers with a JSON object whose ``success`` may be false."""

    def result(self, turn: int, line: int, call_id: str, text: str, is_error: bool) -> ToolResult:
        result = super().result(turn, line, call_id, text, is_error)
        if result.status == "success" and text.lstrip().startswith("{"):
            payload = parse_json_object(text)
            if payload.get("success") is False:
                error = str(payload.get("error") or text)
                return _result(turn, line, call_id, "failure", text, _failure(error))
        return result


# Continue CLI ------------------------------------------------------------------

_CONTINUE_FAILED = {"errored": "other", "canceled": "rejected", "cancelled": "rejected"}


@register
class ContinueCliAdapter(Adapter):
    name = "continue-cli"
    description = "Continue CLI session JSON (history with toolCallStates)"

    def sniff(self, source: Source) -> bool:
        document = source.document
        return (
            isinstance(document, dict)
            and isinstance(document.get("history"), list)
            and ("sessionId" in document or "workspaceDirectory" in document)
        )

    def events(self, source: Source) -> Iterator[Event]:
        document = source.document
        if not isinstance(document, dict) or not isinstance(document.get("history"), list):
            source.skip(None, "not a Continue session object")
            return
        cwd = document.get("workspaceDirectory")
        cwd = cwd if isinstance(cwd, str) else None
        yield SessionInfo(
            turn=0, line=None, agent="continue-cli", cwd=cwd,
            session_id=str(document["sessionId"]) if document.get("sessionId") else None,
        )
        turns = TurnCounter()
        for index, item in enumerate(document["history"], start=1):
            message = item.get("message") if isinstance(item, dict) else None
            if not isinstance(message, dict) or message.get("role") not in ("user", "assistant"):
                source.skip(index, "history item without a user or assistant message")
                continue
            text = as_text(message.get("content"))
            if message["role"] == "user":
                yield UserMessage(turn=turns.user(), line=index, text=text)
                continue
            turn = turns.assistant()
            if text.strip():
                yield AssistantMessage(turn=turn, line=index, text=text)
            states = {
                str(s.get("toolCallId")): s for s in _list(item.get("toolCallStates"))
                if isinstance(s, dict)
            }
            for call in _list(message.get("toolCalls")):
                function = call.get("function") if isinstance(call, dict) else None
                if not isinstance(function, dict) or not isinstance(function.get("name"), str):
                    source.skip(index, "tool call without a function name")
                    continue
                call_id = str(call.get("id") or f"continue-{index}")
                state = states.get(call_id, {})
                arguments = state.get("parsedArgs")
                if not isinstance(arguments, dict):
                    arguments = parse_json_object(function.get("arguments"))
                name = function["name"]
                yield ToolCall(
                    turn=turn, line=index, call_id=call_id, tool=name, arguments=arguments,
                    operations=tuple(operations_for(name, arguments, cwd)),
                )
                yield self.result(turn, index, call_id, state)

    @staticmethod
    def result(turn: int, line: int, call_id: str, state: dict[str, Any]) -> ToolResult:
        output = "\n".join(
            str(o.get("content", "")) for o in _list(state.get("output")) if isinstance(o, dict)
        )
        status = state.get("status")
        if isinstance(status, str) and status in _CONTINUE_FAILED:
            reason: FailureReason = "rejected" if status != "errored" else _failure(output)
            return _result(turn, line, call_id, "failure", output, reason)
        if status == "done":
            return _text_result(turn, line, call_id, output, False)
        return _result(turn, line, call_id, "unknown", output)


# Amp ---------------------------------------------------------------------------


@register
class AmpAdapter(Adapter):
    name = "amp"
    description = "Amp thread JSON"

    def sniff(self, source: Source) -> bool:
        document = source.document
        if not isinstance(document, dict) or not isinstance(document.get("messages"), list):
            return False
        return str(document.get("id", "")).startswith("T-") or any(
            isinstance(m, dict) and "messageId" in m for m in document["messages"][:5]
        )

    def events(self, source: Source) -> Iterator[Event]:
        document = source.document
        if not isinstance(document, dict) or not isinstance(document.get("messages"), list):
            source.skip(None, "not an Amp thread object")
            return
        yield SessionInfo(
            turn=0, line=None, agent="amp", cwd=_amp_root(document),
            session_id=str(document["id"]) if document.get("id") else None,
        )
        messages = document["messages"]
        # Results are read ahead so a Read of a directory can be told from a file read.
        results: dict[str, dict[str, Any]] = {}
        for message in messages:
            content = message.get("content") if isinstance(message, dict) else None
            for block in content if isinstance(content, list) else []:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    run = block.get("run")
                    results[str(block.get("toolUseID"))] = run if isinstance(run, dict) else {}
        turns = TurnCounter()
        calls: dict[str, int] = {}
        for index, message in enumerate(messages, start=1):
            if not isinstance(message, dict) or message.get("role") not in ("user", "assistant"):
                source.skip(index, "not a user or assistant message")
                continue
            blocks = message.get("content")
            blocks = blocks if isinstance(blocks, list) else [{"type": "text", "text": blocks}]
            texts = [b for b in blocks if isinstance(b, dict) and b.get("type") == "text"]
            if message["role"] == "user":
                tool_results = [b for b in blocks if isinstance(b, dict) and b.get("type") == "tool_result"]
                if texts or not tool_results:
                    yield UserMessage(turn=turns.user(), line=index, text=as_text(texts))
                for block in tool_results:
                    call_id = str(block.get("toolUseID"))
                    yield self.result(calls.get(call_id, turns.current), index, call_id,
                                      results.get(call_id, {}))
                continue
            turn = turns.assistant()
            usage = message.get("usage")
            model = usage.get("model") if isinstance(usage, dict) else None
            model = model if isinstance(model, str) else None
            text = as_text(texts)
            if text.strip():
                yield AssistantMessage(turn=turn, line=index, text=text, model=model)
            for block in blocks:
                if not isinstance(block, dict) or block.get("type") != "tool_use":
                    continue
                name, arguments = block.get("name"), block.get("input")
                if not isinstance(name, str) or not isinstance(arguments, dict):
                    source.skip(index, "tool_use block without a name or input")
                    continue
                call_id = str(block.get("id"))
                calls[call_id] = turn
                ops = operations_for(name, arguments)
                run_result = results.get(call_id, {}).get("result")
                if isinstance(run_result, dict) and run_result.get("isDirectory"):
                    ops = [op for op in ops if op.action != "read"]
                yield ToolCall(
                    turn=turn, line=index, call_id=call_id, tool=name, arguments=arguments,
                    operations=tuple(ops),
                )

    @staticmethod
    def result(turn: int, line: int, call_id: str, run: dict[str, Any]) -> ToolResult:
        result = run.get("result")
        if isinstance(result, dict):
            output = str(result.get("output") or result.get("content") or result.get("diff") or "")
        else:
            output = as_text(result)
        status = run.get("status")
        error = run.get("error")
        if status == "done":
            exit_code = result.get("exitCode") if isinstance(result, dict) else None
            if isinstance(exit_code, int) and not isinstance(exit_code, bool) and exit_code != 0:
                return _result(turn, line, call_id, "failure", output, "exit_status", exit_code)
            return _result(turn, line, call_id, "success", output,
                           exit_code=exit_code if isinstance(exit_code, int) else None)
        if status == "rejected-by-user":
            return _result(turn, line, call_id, "failure", output, "rejected")
        if status in ("cancelled", "canceled"):
            return _result(turn, line, call_id, "failure", output, "interrupted")
        if status == "error":
            message = error.get("message") if isinstance(error, dict) else error
            text = str(message or output)
            return _result(turn, line, call_id, "failure", text, _failure(text))
        return _result(turn, line, call_id, "unknown", output)


def _amp_root(document: dict[str, Any]) -> str | None:
    env = document.get("env")
    initial = env.get("initial") if isinstance(env, dict) else None
    trees = initial.get("trees") if isinstance(initial, dict) else None
    if isinstance(trees, list) and trees and isinstance(trees[0], dict):
        uri = trees[0].get("uri")
        if isinstance(uri, str):
            return uri_to_path(uri)
    return None


# Copilot (VS Code chat sessions) ----------------------------------------------


def _apply_mutation(state: Any, record: dict[str, Any]) -> tuple[Any, str | None]:
    """Apply one record of VS Code's chat-session mutation log to ``state``.

    Returns the new state and, when the record could not be applied, why.
    """
    kind = record.get("kind")
    if kind == 0:
        return record.get("v"), None
    keys = record.get("k")
    if not isinstance(keys, list) or not keys:
        return state, None
    target = state
    for key in keys[:-1]:
        target = _child(target, key)
        if target is None:
            # The log and the state disagree (edited or truncated file).
            return state, "mutation path does not exist in the session"
    last = keys[-1]
    value = record.get("v")
    if kind == 1 and _fits(target, last):
        target[last] = value
    elif kind == 2:
        container = _child(target, last)
        if not isinstance(container, list) or not isinstance(value, list):
            return state, "append mutation to something that is not a list"
        start = record.get("i")
        if isinstance(start, int):
            del container[start:]
        container.extend(value)
    elif kind == 1:
        return state, "mutation path does not exist in the session"
    return state, None


def _fits(container: Any, key: Any) -> bool:
    """True when ``key`` addresses ``container``: a string key of a dict or an index of a list."""
    if isinstance(container, dict):
        return isinstance(key, str)
    return (
        isinstance(container, list) and isinstance(key, int) and not isinstance(key, bool)
        and 0 <= key < len(container)
    )


def _child(container: Any, key: Any) -> Any:
    """``container[key]`` when the key fits the container, else None."""
    if not _fits(container, key):
        return None
    return container.get(key) if isinstance(container, dict) else container[key]


def _node_text(node: Any) -> str:
    """The text of a Copilot tool result: prompt-tsx nodes nest ``text`` leaves."""
    parts: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            text = value.get("text")
            if isinstance(text, str):
                parts.append(text)
            for key, child in value.items():
                if key != "text":
                    walk(child)
        elif isinstance(value, list):
            for child in value:
                walk(child)

    walk(node)
    return "".join(parts)


def _copilot_session(source: Source) -> tuple[dict[str, Any] | None, dict[int, int]]:
    """The final session state and, per request index, the line that added it."""
    document = source.document
    if isinstance(document, dict) and isinstance(document.get("requests"), list):
        # A whole-session JSON document: a request's "line" is its index.
        return document, {i: i + 1 for i in range(len(document["requests"]))}
    if source.document is not None and not isinstance(document, dict):
        return None, {}
    state: Any = None
    lines: dict[int, int] = {}
    for line, record in _records(source):
        state, problem = _apply_mutation(state, record)
        if state is None:
            source.skip(line, "mutation before the session snapshot")
            continue
        if problem is not None:
            source.skip(line, problem)
        requests = state.get("requests") if isinstance(state, dict) else None
        for index in range(len(requests) if isinstance(requests, list) else 0):
            lines.setdefault(index, line)
    return (state if isinstance(state, dict) else None), lines


@register
class CopilotVscodeAdapter(Adapter):
    name = "copilot-vscode"
    description = "GitHub Copilot chat session (VS Code chatSessions JSON/JSONL)"

    def sniff(self, source: Source) -> bool:
        document = source.document
        if isinstance(document, dict) and "kind" not in document:
            return isinstance(document.get("requests"), list) and (
                "requesterUsername" in document or "responderUsername" in document
            )
        # A log holding only its snapshot is one line, so it also parses as a document.
        first = source.records[0][1] if source.records else None
        return (
            isinstance(first, dict) and first.get("kind") == 0 and isinstance(first.get("v"), dict)
            and "requests" in first["v"]
        )

    def events(self, source: Source) -> Iterator[Event]:
        session, lines = _copilot_session(source)
        if session is None:
            source.skip(None, "no chat session snapshot found")
            return
        requests = [r for r in _list(session.get("requests")) if isinstance(r, dict)]
        yield SessionInfo(
            turn=0, line=1, agent="copilot-vscode", cwd=_copilot_root(requests),
            session_id=str(session["sessionId"]) if session.get("sessionId") else None,
        )
        turns = TurnCounter()
        for position, request in enumerate(requests):
            index = lines.get(position, 1)
            message = request.get("message")
            text = message.get("text") if isinstance(message, dict) else None
            stamp = request.get("timestamp")
            stamp_text = str(stamp) if stamp is not None else None
            yield UserMessage(turn=turns.user(), line=index, text=str(text or ""),
                              timestamp=stamp_text)
            result = request.get("result")
            metadata = result.get("metadata") if isinstance(result, dict) else None
            if not isinstance(metadata, dict):
                continue
            rounds = _list(metadata.get("toolCallRounds"))
            outputs = metadata.get("toolCallResults") or {}
            model = request.get("modelId") if isinstance(request.get("modelId"), str) else None
            denied = _denied_calls(request)
            count = 0
            for round_ in rounds:
                if not isinstance(round_, dict):
                    continue
                turn = turns.assistant()
                reply = round_.get("response")
                if isinstance(reply, str) and reply.strip():
                    yield AssistantMessage(turn=turn, line=index, text=reply, model=model)
                for call in _list(round_.get("toolCalls")):
                    if not isinstance(call, dict) or not isinstance(call.get("name"), str):
                        source.skip(index, "tool call without a name")
                        continue
                    call_id = str(call.get("id") or f"copilot-{position}-{count}")
                    arguments = parse_json_object(call.get("arguments"))
                    yield ToolCall(
                        turn=turn, line=index, call_id=call_id, tool=call["name"],
                        arguments=arguments,
                        operations=tuple(operations_for(call["name"], arguments)),
                    )
                    if count in denied:
                        yield _result(turn, index, call_id, "failure", "", "rejected")
                    elif isinstance(outputs, dict) and call_id in outputs:
                        output = _node_text(outputs[call_id])
                        yield _text_result(turn, index, call_id, output, False)
                    elif request.get("isCanceled") is True:
                        yield _result(turn, index, call_id, "failure", "", "interrupted")
                    else:
                        yield _result(turn, index, call_id, "unknown")
                    count += 1


def _denied_calls(request: dict[str, Any]) -> set[int]:
    """Positions of the calls the user denied or skipped in the confirmation UI."""
    denied: set[int] = set()
    invocations = [
        part for part in _list(request.get("response"))
        if isinstance(part, dict) and part.get("kind") == "toolInvocationSerialized"
    ]
    for position, part in enumerate(invocations):
        confirmed = part.get("isConfirmed")
        # VS Code's ToolConfirmKind: 0 = denied, 5 = skipped; ``false`` in older builds.
        if confirmed is False or (isinstance(confirmed, dict) and confirmed.get("type") in (0, 5)):
            denied.add(position)
    return denied


def _copilot_root(requests: list[dict[str, Any]]) -> str | None:
    for request in requests:
        for part in _list(request.get("response")):
            base = part.get("baseUri") if isinstance(part, dict) else None
            if isinstance(base, dict) and isinstance(base.get("path"), str):
                return str(base["path"]).rstrip("/") or "/"
    return None

