"""GitHub Copilot CLI session logs (``~/.copilot/session-state/<id>/events.jsonl``).

One event per line: ``{"type", "data", "id", "timestamp", "parentId"}``.

* ``session.start`` (``data.context.cwd``, ``copilotVersion``), later
  ``session.resume``; ``session.model_change``.
* ``user.message`` (``content``), ``system.notification`` (text the harness
  injects, e.g. "shell command completed"); ``abort`` with ``reason``
  ``user_initiated``: the person stopped the agent (a synthetic message); a
  call still open then did not complete (it fails as interrupted).
* ``assistant.message``: one model response (``messageId``, ``content``,
  ``toolRequests`` mirroring the calls that follow).
* ``tool.execution_start`` (``toolCallId``, ``toolName``, ``arguments``) and
  ``tool.execution_complete`` (``success``, ``result.content`` as the model
  saw it, ``result.detailedContent`` a git diff for file tools, or
  ``error.message``).  Tools: ``view``, ``create``, ``edit`` (the
  str_replace_editor family split into tools), ``bash`` / ``write_bash`` /
  ``read_bash`` / ``stop_bash``, ``glob``, ``grep``, ``apply_patch`` (GPT
  models), ``task`` (sub-agents; their events carry ``parentToolCallId``).
* ``session.compaction_complete`` (``summaryContent``, ``preCompactionTokens``).
* ``permission.requested`` (``requestId``, ``permissionRequest.toolCallId``)
  when a started call needs the person's approval, then
  ``permission.completed`` (``requestId``, ``result.kind``: ``approved``,
  ``approved-for-session``, ``denied-interactively-by-user``,
  ``denied-by-rules``, ...).  A call runs only once approved: one whose
  request was never answered (the session ended at the prompt) did not run
  and has no result (it is pending), and one denied failed whether or not a
  ``tool.execution_complete`` follows.

A bash result ends with ``<shellId: N completed with exit code C>`` or
``<exited with exit code C>``.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from dataclasses import dataclass, field

from artifact_index.ingestion.adapters import register
from artifact_index.ingestion.adapters.base import Adapter, TurnCounter, as_text, report_bad_lines
from artifact_index.ingestion.adapters.failures import classify_failure
from artifact_index.ingestion.adapters.narrowing import as_dict, string_or_none
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
    ShellDialect,
    ToolCall,
    ToolResult,
    UserMessage,
    WorkingDirectory,
)
from artifact_index.ingestion.source import Source
from artifact_index.ingestion.vocabulary import operations_for, path_argument
from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["CopilotCliAdapter"]

_SHELL_TOOLS = {"bash", "powershell", "shell"}
_SHELL_INPUT_TOOLS = {"write_bash", "write_powershell"}
# Tools that change exactly the file named by their ``path`` argument.
_FILE_TOOLS = {"create", "edit", "insert", "str_replace", "str_replace_editor"}
_SHELL_BINARIES = {"bash", "sh", "zsh", "fish", "dash", "pwsh", "powershell"}

_EXIT = lazy_pattern(r"<(?:shellId: \S+ completed with|exited with) exit code (-?\d+)>\s*$")
_SHELL_ID = lazy_pattern(r"shellId:? (\w+)")


@dataclass
class _Call:
    call_id: str
    tool: str
    turn: int
    sidechain: str | None
    command: str | None = None
    path: str | None = None
    answered: bool = False
    position: int = -1  # where the call's ToolCall is in the output
    # The call waits for the person's approval: the permission requests not answered yet.
    awaiting: set[str] = field(default_factory=set)
    refused: str | None = None  # the permission result kind that refused it, or _STOPPED


def _reported(call: _Call, detailed: str) -> tuple[ReportedChange, ...] | None:
    """The change a file tool's diff (``result.detailedContent``) shows."""
    if call.path is None or "diff --git" not in detailed:
        return None
    head = detailed[:2000]
    if "deleted file mode" in head:
        return (ReportedChange(path=call.path, change="deleted"),)
    if "new file mode" in head or "create file mode" in head or "--- a/dev/null" in head:
        return (ReportedChange(path=call.path, change="created"),)
    return (ReportedChange(path=call.path, change="modified", diff=detailed.strip() or None),)


# What stands for a permission result when the person stopped the agent while the call was open.
_STOPPED = "interrupted-by-user"


def _denial(kind: str) -> FailureReason:
    """Why a refused call failed: the person said no or stopped it, or a rule or policy refused it."""
    if kind == _STOPPED:
        return "interrupted"
    return "rejected" if "by-user" in kind else "permission"


def _refusal_text(kind: str) -> str:
    if kind == _STOPPED:
        return "stopped by the user before it completed"
    return f"permission {kind}"


class _Reader:
    def __init__(self, source: Source) -> None:
        self.source = source
        self.turns = TurnCounter()
        self.cwd: str | None = None
        self.model: str | None = None
        self.session_emitted = False
        self.calls: dict[str, _Call] = {}
        self.shells: dict[str, _Call] = {}
        self.permissions: dict[str, _Call] = {}  # request id -> the call it asks for
        self.asked_early: dict[str, set[str]] = {}  # call id -> requests logged before its start
        self.out: list[Event] = []

    def read(self) -> list[Event]:
        reported = len(self.source.skipped)
        for line, obj in self.source.records:
            if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
                self.source.skip(line, "not a Copilot CLI event")
                continue
            self.event(line, obj)
        report_bad_lines(self.source, reported)
        for call in self.calls.values():
            if call.answered or (call.awaiting and call.refused is None):
                # Still waiting for approval when the log ends: it never ran (or has not yet).
                continue
            if call.refused is not None:
                self.out.append(
                    ToolResult(
                        turn=call.turn,
                        call_id=call.call_id,
                        status="failure",
                        output=_refusal_text(call.refused),
                        failure=_denial(call.refused),
                        sidechain=call.sidechain,
                    )
                )
                continue
            # Started, never completed: cut off while it ran, so it may have done its work.
            self.out.append(
                ToolResult(
                    turn=call.turn,
                    call_id=call.call_id,
                    status="unknown",
                    sidechain=call.sidechain,
                )
            )
        return self.out

    def ensure_session(self, line: int, timestamp: str | None, data: JSONObject | None) -> None:
        if self.session_emitted:
            return
        self.session_emitted = True
        data = data or {}
        cwd = as_dict(data.get("context")).get("cwd")
        self.cwd = cwd if isinstance(cwd, str) and cwd else None
        version = data.get("copilotVersion")
        session_id = data.get("sessionId")
        self.out.append(
            SessionInfo(
                turn=0,
                line=line,
                timestamp=timestamp,
                session_id=str(session_id) if session_id else None,
                agent="copilot-cli",
                cwd=self.cwd,
                version=str(version) if version else None,
            )
        )

    def event(self, line: int, obj: JSONObject) -> None:
        kind = str(obj["type"])
        data = as_dict(obj.get("data"))
        timestamp = string_or_none(obj.get("timestamp"))
        self.ensure_session(line, timestamp, data if kind == "session.start" else None)
        sidechain = string_or_none(data.get("parentToolCallId"))
        if kind in ("session.start", "session.resume"):
            cwd = as_dict(data.get("context")).get("cwd")
            if isinstance(cwd, str) and cwd and cwd != self.cwd:
                self.cwd = cwd
                self.out.append(
                    WorkingDirectory(
                        turn=self.turns.current, line=line, timestamp=timestamp, cwd=cwd
                    )
                )
        elif kind == "session.model_change":
            if isinstance(model := data.get("newModel"), str):
                self.model = model
        elif kind in ("user.message", "system.notification"):
            text = as_text(data.get("content"))
            if text.strip():
                self.out.append(
                    UserMessage(
                        turn=self.turns.user(),
                        line=line,
                        timestamp=timestamp,
                        text=text,
                        synthetic=kind == "system.notification" or data.get("source") == "system",
                        sidechain=sidechain,
                    )
                )
        elif kind == "abort" and data.get("reason") == "user_initiated":
            # The person stopped the agent (Esc): no words, but the summary says they intervened.
            # A call still open then was stopped before it finished (most often at its
            # approval prompt): like an interrupted call of any harness, it counts as failed.
            for call in self.calls.values():
                if not call.answered and call.refused is None:
                    call.refused = _STOPPED
            self.out.append(
                UserMessage(
                    turn=self.turns.current,
                    line=line,
                    timestamp=timestamp,
                    text="[abort: user_initiated]",
                    synthetic=True,
                    sidechain=sidechain,
                )
            )
        elif kind == "assistant.message":
            message_id = data.get("messageId")
            turn = self.turns.assistant(str(message_id) if message_id else None)
            text = as_text(data.get("content"))
            if text.strip():
                model = data.get("model") if isinstance(data.get("model"), str) else self.model
                self.out.append(
                    AssistantMessage(
                        turn=turn,
                        line=line,
                        timestamp=timestamp,
                        text=text,
                        model=model,
                        sidechain=sidechain,
                    )
                )
        elif kind == "tool.execution_start":
            self.start(line, timestamp, data, sidechain)
        elif kind == "tool.execution_complete":
            self.complete(line, timestamp, data)
        elif kind == "permission.requested":
            self.permission_requested(data)
        elif kind == "permission.completed":
            self.permission_completed(data)
        elif kind == "session.compaction_complete" and data.get("success") is not False:
            pre = data.get("preCompactionTokens")
            summary = data.get("summaryContent")
            self.out.append(
                CompactionBoundary(
                    turn=self.turns.current,
                    line=line,
                    timestamp=timestamp,
                    trigger="auto",
                    pre_tokens=pre if isinstance(pre, int) else None,
                    summary=summary if isinstance(summary, str) and summary else None,
                )
            )
        elif kind == "session.truncation":
            self.out.append(
                CompactionBoundary(
                    turn=self.turns.current, line=line, timestamp=timestamp, trigger="truncation"
                )
            )

    def start(
        self, line: int, timestamp: str | None, data: JSONObject, sidechain: str | None
    ) -> None:
        call_id = data.get("toolCallId")
        if not isinstance(call_id, str) or not call_id:
            self.source.skip(line, "Copilot tool.execution_start without toolCallId")
            return
        tool = str(data.get("toolName") or "unknown")
        arguments = data.get("arguments")
        if isinstance(arguments, str):
            arguments = {"input": arguments}
        if not isinstance(arguments, dict):
            arguments = {}
        # The call belongs to the model response that requested it.
        call = _Call(
            call_id=call_id, tool=tool, turn=max(self.turns.current, 1), sidechain=sidechain
        )
        operations = self.operations(call, arguments)
        self.calls[call_id] = call
        for request_id in self.asked_early.pop(call_id, ()):
            call.awaiting.add(request_id)
            self.permissions[request_id] = call
        call.position = len(self.out)
        self.out.append(
            ToolCall(
                turn=call.turn,
                line=line,
                timestamp=timestamp,
                call_id=call_id,
                tool=tool,
                arguments=arguments,
                operations=tuple(operations),
                sidechain=sidechain,
            )
        )

    def operations(self, call: _Call, arguments: JSONObject) -> list[FileOperation]:
        name = call.tool.lower()
        if name in _SHELL_TOOLS:
            command = arguments.get("command")
            if not isinstance(command, str) or not command.strip():
                return []
            call.command = command
            dialect: ShellDialect | None = "powershell" if name == "powershell" else None
            return [
                FileOperation(
                    action="shell", command=command, cwd=self.cwd, source="shell", dialect=dialect
                )
            ]
        if name in _SHELL_INPUT_TOOLS:
            return self.shell_input(arguments)
        if name in _FILE_TOOLS:
            call.path = path_argument(arguments)
        return operations_for(call.tool, arguments, self.cwd)

    def shell_input(self, arguments: JSONObject) -> list[FileOperation]:
        """Text sent to a running shell: a command only if that shell is idle at a prompt."""
        text = arguments.get("input")
        if not isinstance(text, str) or not text.strip() or not text.strip().isprintable():
            return []
        started = self.shells.get(str(arguments.get("shellId")))
        if started is not None and started.command:
            words = started.command.split()
            if words and posixpath.basename(words[0]) not in _SHELL_BINARIES:
                return []
        detail = f"typed into shell {arguments.get('shellId')}"
        return [
            FileOperation(action="shell", command=text, cwd=self.cwd, source="shell", detail=detail)
        ]

    def permission_requested(self, data: JSONObject) -> None:
        request_id = data.get("requestId")
        call_id = as_dict(data.get("permissionRequest")).get("toolCallId")
        if not isinstance(request_id, str) or not isinstance(call_id, str):
            return
        call = self.calls.get(call_id)
        if call is None:
            # Asked before the call's start was logged: the start takes it up.
            self.asked_early.setdefault(call_id, set()).add(request_id)
            return
        if not call.answered:
            call.awaiting.add(request_id)
            self.permissions[request_id] = call

    def permission_completed(self, data: JSONObject) -> None:
        request_id = data.get("requestId")
        call = self.permissions.pop(request_id, None) if isinstance(request_id, str) else None
        if call is None:
            return
        call.awaiting.discard(str(request_id))
        kind = as_dict(data.get("result")).get("kind")
        if isinstance(kind, str) and kind.startswith("denied"):
            call.refused = kind

    def complete(self, line: int, timestamp: str | None, data: JSONObject) -> None:
        call_id = data.get("toolCallId")
        call = self.calls.get(call_id) if isinstance(call_id, str) else None
        if call is None:
            self.source.skip(line, f"Copilot tool.execution_complete for unknown call {call_id!r}")
            return
        if call.answered:
            return
        call.answered = True
        result, error = as_dict(data.get("result")), as_dict(data.get("error"))
        output = as_text(result.get("content"))
        detailed = as_text(result.get("detailedContent"))
        exit_code: int | None = None
        found = _EXIT.search(output.rstrip()[-200:])
        if found:
            exit_code = int(found.group(1))
        if call.command is not None:
            shell_id = _SHELL_ID.search(output[-200:])
            if shell_id:
                self.shells[shell_id.group(1)] = call
        status: ResultStatus
        failure: FailureReason | None = None
        reported = None
        if call.refused is not None and call.refused != _STOPPED:
            # Refused before it could run, whatever the harness wrote after.
            status, failure = "failure", _denial(call.refused)
            output = output or as_text(error.get("message")) or _refusal_text(call.refused)
        elif data.get("success") is False:
            status = "failure"
            message = as_text(error.get("message")) or output
            failure = classify_failure(message)
            output = output or message
        elif exit_code not in (
            None,
            0,
        ) and call.tool.lower() in _SHELL_TOOLS | _SHELL_INPUT_TOOLS | {"read_bash"}:
            status, failure = "failure", "exit_status"
        else:
            status = "success"
            reported = _reported(call, detailed) if call.tool.lower() in _FILE_TOOLS else None
            if (
                as_dict(as_dict(data.get("toolTelemetry")).get("properties")).get("viewType")
                == "directory"
            ):
                # ``view`` of a directory lists it: no file was read.
                listed = self.out[call.position]
                self.out[call.position] = listed.model_copy(update={"operations": ()})
        self.out.append(
            ToolResult(
                turn=call.turn,
                line=line,
                timestamp=timestamp,
                call_id=call.call_id,
                status=status,
                output=output,
                exit_code=exit_code,
                failure=failure,
                reported=reported,
                sidechain=call.sidechain,
            )
        )


@register
class CopilotCliAdapter(Adapter):
    """GitHub Copilot CLI ``events.jsonl``."""

    name = "copilot-cli"
    description = (
        "GitHub Copilot CLI session events.jsonl (session.start / tool.execution_* events)"
    )
    priority = 20

    def sniff(self, source: Source) -> bool:
        if source.document is not None:
            return False
        for _, obj in source.records[:30]:
            if not isinstance(obj, dict) or not isinstance(obj.get("data"), dict):
                continue
            kind = obj.get("type")
            if kind == "session.start" and obj["data"].get("producer") == "copilot-agent":
                return True
            if kind in ("tool.execution_start", "tool.execution_complete", "assistant.turn_start"):
                return True
        return False

    def events(self, source: Source) -> Iterator[Event]:
        return iter(_Reader(source).read())
