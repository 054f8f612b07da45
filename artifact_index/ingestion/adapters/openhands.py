"""OpenHands histories in their three shapes.

A. The legacy event stream (``output.jsonl`` records ``{instance_id,
   test_result, instruction, metadata, history}`` or a bare event list):
   actions ``{"id", "source", "action", "args", "tool_call_metadata"}`` and
   observations ``{"id", "cause", "observation", "content", "extras"}``.
   ``read`` / ``edit`` carry the ``str_replace_editor`` sub-command in
   ``args`` (or, early 2025, only inside ``translated_ipython_code``); a
   failed edit is still an ``edit`` observation whose ``content`` starts with
   ``ERROR:`` and whose ``extras.diff`` is empty; ``run`` reports
   ``extras.metadata.exit_code`` and ``working_dir``.
B. The older resolver output: flat history items without ``args``
   (``{"action": "run", "command": ...}`` then ``{"observation": "run",
   "content", "exit_code"}``), edits through IPython cells calling the
   ``agentskills`` helpers (``edit_file_by_replace``, ``create_file``, ...).
C. The software-agent SDK (V1): ``{"kind": "ActionEvent", "action": {"kind":
   "FileEditorAction" | "ExecuteBashAction", ...}, "tool_call_id"}`` answered
   by ``ObservationEvent`` with ``FileEditorObservation{error, prev_exist,
   new_content}`` or ``ExecuteBashObservation{exit_code, metadata}``.

The workspace root is the repository the task names (``<uploaded_files>``),
else ``/workspace``.  ``line`` is the event's 1-based position in
``history`` (the JSON line for JSON-lines input).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from artifact_index.ingestion.adapters import register
from artifact_index.ingestion.adapters.base import Adapter, TurnCounter, as_text
from artifact_index.ingestion.adapters.failures import classify_failure
from artifact_index.ingestion.adapters.str_replace_editor import (
    EDITOR_COMMANDS,
    editor_failure,
    is_directory_listing,
)
from artifact_index.ingestion.events import (
    AssistantMessage,
    CompactionBoundary,
    Event,
    FailureReason,
    FileOperation,
    ReportedChange,
    ResultStatus,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
    WorkingDirectory,
)
from artifact_index.ingestion.patches import parse_patch
from artifact_index.ingestion.source import Source
from artifact_index.ingestion.vocabulary import operations_for

__all__ = ["OpenHandsAdapter", "ipython_operations"]

_SDK_KINDS = frozenset(
    {
        "ActionEvent", "ObservationEvent", "MessageEvent", "SystemPromptEvent", "AgentErrorEvent",
        "UserRejectObservation", "Condensation", "CondensationRequest", "CondensationSummaryEvent",
        "ConversationStateUpdateEvent", "PauseEvent",
    }
)
_SDK_EDITOR_ACTIONS = frozenset({"FileEditorAction", "StrReplaceEditorAction", "PlanningFileEditorAction"})
_SDK_SHELL_ACTIONS = frozenset({"ExecuteBashAction", "TerminalAction", "BashAction"})
# Legacy action types that are conversation, not tool calls.
_SILENT_ACTIONS = frozenset({"system", "recall", "change_agent_state", "null", "pause", "resume"})

_UPLOADED = re.compile(r"<uploaded_files>\s*(/[^\s<]+?)/?\s*</uploaded_files>")
_REPOSITORY_IN = re.compile(r"\b(?:repository|repo|directory) (?:in|at) (/workspace[\w./-]*?)[.,]?(?:\s|$)")
_PROMPT_CWD = re.compile(r"\S+@[\w.-]+:(/[^\s#$]*)\s*[#$]\s*$")
_JUPYTER_CWD = re.compile(r"\[Jupyter current working directory: (/[^\]]*)\]")
_PY_TRACEBACK = re.compile(r"^(?:Traceback \(most recent call last\)|\w+(?:Error|Exception)\s+Traceback \(most recent call last\))", re.M)
_SKILL_FAILURE = re.compile(r"^\[?(?:ERROR|Your proposed edit has introduced new syntax error|No exact match found)", re.I)


@register
class OpenHandsAdapter(Adapter):
    name = "openhands"
    description = "OpenHands histories: legacy event stream, older resolver output, software-agent SDK events"
    priority = 30

    def sniff(self, source: Source) -> bool:
        doc = source.document
        if isinstance(doc, list):
            return _is_history(doc)
        if isinstance(doc, dict):
            return "trajectory" not in doc and _is_history(doc.get("history"))
        if source.looks_like_jsonl():
            first = next((record for _, record in source.records if isinstance(record, dict)), None)
            return first is not None and (_is_history(first.get("history")) or _is_history([first]))
        return False

    def events(self, source: Source) -> Iterator[Event]:
        doc = source.document
        if isinstance(doc, list):
            yield from _Session(source, {}, doc).events()
        elif isinstance(doc, dict):
            history = doc.get("history")
            if not isinstance(history, list):
                source.skip(None, "not an OpenHands history (no 'history' list)")
                return
            yield from _Session(source, doc, history).events()
        else:
            yield from self._jsonl(source)

    def _jsonl(self, source: Source) -> Iterator[Event]:
        events: list[Any] = []
        lines: list[int] = []
        for line, record in source.records:
            if not isinstance(record, dict):
                source.skip(line, "JSON line is not an object")
            elif isinstance(record.get("history"), list):
                # One evaluation record per line: each is its own session.
                yield from _Session(source, record, record["history"], line_of=lambda _, n=line: n).events()
            elif _is_history([record]):
                events.append(record)
                lines.append(line)
            else:
                source.skip(line, "not an OpenHands event")
        if events:
            yield from _Session(source, {}, events, line_of=lambda i: lines[i]).events()


def _is_history(value: Any) -> bool:
    if not isinstance(value, list) or not value:
        return False
    first = next((item for item in value if isinstance(item, dict)), None)
    if first is None:
        return False
    if isinstance(first.get("kind"), str):
        return first["kind"] in _SDK_KINDS
    return ("action" in first or "observation" in first) and not ("role" in first and "content" in first and "action" not in first)


@dataclass
class _Call:
    """A tool call that was emitted and waits for its observation."""

    call_id: str
    turn: int
    kind: str  # legacy action type or SDK action kind
    command: str | None  # the editor sub-command, when an editor call
    path: str | None


class _Session:
    def __init__(
        self,
        source: Source,
        record: dict[str, Any],
        history: list[Any],
        line_of: Any = None,
    ) -> None:
        self.source = source
        self.record = record
        self.history = history
        self.line_of = line_of or (lambda index: index + 1)
        self.turns = TurnCounter()
        self.sdk = any(isinstance(e, dict) and isinstance(e.get("kind"), str) for e in history[:5])
        self.root = _root(record, history)
        self.cwd = self.root
        self.ipython_cwd = self.root
        self.current_file: str | None = None  # agentskills' open file
        self.calls: dict[str, _Call] = {}  # pairing key -> emitted call
        self.used_ids: set[str] = set()
        self.pairs = self._pair()
        self.answers = {observation: action for action, observation in self.pairs.items()}

    # -- the stream ----------------------------------------------------------------------
    def events(self) -> Iterator[Event]:
        yield SessionInfo(
            turn=0,
            session_id=_str(self.record.get("instance_id")),
            agent="openhands",
            cwd=self.root,
            model=_model(self.record),
        )
        start = self._initial_cwd()
        if start and start != self.cwd:
            self.cwd = start
            yield WorkingDirectory(turn=0, cwd=start)
        if not self._has_user_message() and isinstance(self.record.get("instruction"), str):
            yield UserMessage(turn=self.turns.user(), text=self.record["instruction"])
        for index, event in enumerate(self.history):
            line = self.line_of(index)
            if not isinstance(event, dict):
                self.source.skip(line, "history item is not an object")
                continue
            if self.sdk:
                yield from self._sdk_event(index, event, line)
            elif "observation" in event:
                yield from self._observation(index, event, line)
            elif "action" in event:
                yield from self._action(index, event, line)
            else:
                self.source.skip(line, "history item is neither an action nor an observation")
        for call in self.calls.values():
            yield ToolResult(turn=call.turn, call_id=call.call_id, status="unknown")

    # -- pairing -----------------------------------------------------------------------------
    def _pair(self) -> dict[int, int]:
        """Action index -> index of the observation that answers it."""
        pairs: dict[int, int] = {}
        by_id: dict[int | str, int] = {}
        by_call: dict[str, int] = {}
        waiting: list[int] = []
        for index, event in enumerate(self.history):
            if not isinstance(event, dict):
                continue
            if self._is_action(event):
                event_id = _event_id(event.get("id"))
                if event_id is not None:
                    by_id[event_id] = index
                call_id = _tool_call_id(event)
                if call_id:
                    by_call[call_id] = index
                waiting.append(index)
            elif self._is_observation(event):
                target = None
                cause = _event_id(event.get("cause", event.get("action_id")))
                if cause is not None and cause in by_id:
                    target = by_id[cause]
                elif _tool_call_id(event) in by_call:
                    target = by_call[_tool_call_id(event) or ""]
                elif cause is None and not self.sdk and waiting and "id" not in event:
                    target = waiting[-1]  # the flat resolver history answers in order
                if target is not None and target in waiting:
                    pairs[target] = index
                    waiting.remove(target)
        return pairs

    def _is_action(self, event: dict[str, Any]) -> bool:
        if self.sdk:
            return event.get("kind") == "ActionEvent"
        return "action" in event and "observation" not in event

    def _is_observation(self, event: dict[str, Any]) -> bool:
        if self.sdk:
            return event.get("kind") in ("ObservationEvent", "AgentErrorEvent", "UserRejectObservation")
        return "observation" in event

    def _call_id(self, event: dict[str, Any], line: int) -> str:
        call_id = _tool_call_id(event) or (f"event-{event['id']}" if event.get("id") is not None else f"event-{line}")
        if call_id in self.used_ids:
            call_id = f"{call_id}#{line}"
        self.used_ids.add(call_id)
        return call_id

    def _observation_for(self, index: int) -> dict[str, Any] | None:
        target = self.pairs.get(index)
        event = self.history[target] if target is not None else None
        return event if isinstance(event, dict) else None

    # -- legacy and resolver events --------------------------------------------------------------
    def _action(self, index: int, event: dict[str, Any], line: int) -> Iterator[Event]:
        kind = str(event.get("action"))
        args = event["args"] if isinstance(event.get("args"), dict) else _flat_args(event)
        source = event.get("source")
        timestamp = _str(event.get("timestamp"))
        if kind in _SILENT_ACTIONS:
            return
        if kind == "message":
            text = as_text(args.get("content")) or as_text(event.get("message"))
            if source == "agent":
                yield AssistantMessage(turn=self.turns.assistant(), line=line, timestamp=timestamp, text=text)
            elif source != "environment":
                yield UserMessage(turn=self.turns.user(), line=line, timestamp=timestamp, text=text)
            return
        if kind == "condensation":
            summary = args.get("summary")
            yield CompactionBoundary(
                turn=self.turns.current, line=line, timestamp=timestamp, summary=summary if isinstance(summary, str) else None
            )
            return
        turn = self.turns.assistant(_response_id(event))
        thought = as_text(args.get("thought")) or as_text(args.get("final_thought"))
        if kind in ("finish", "reject") and not thought.strip():
            thought = as_text(event.get("message"))
        if thought.strip():
            yield AssistantMessage(turn=turn, line=line, timestamp=timestamp, text=thought)
        if kind in ("finish", "reject") and index not in self.pairs:
            return
        observation = self._observation_for(index)
        operations, command, path = self._legacy_operations(kind, args, observation)
        call_id = self._call_id(event, line)
        self.calls[str(index)] = _Call(call_id, turn, kind, command, path)
        yield ToolCall(
            turn=turn,
            line=line,
            timestamp=timestamp,
            call_id=call_id,
            tool=_tool_name(event) or kind,
            arguments=args,
            operations=tuple(operations),
        )

    def _legacy_operations(
        self, kind: str, args: dict[str, Any], observation: dict[str, Any] | None
    ) -> tuple[list[FileOperation], str | None, str | None]:
        content = as_text(observation.get("content")) if observation else ""
        path = args.get("path") if isinstance(args.get("path"), str) else None
        if kind == "read":
            if not path or is_directory_listing(content):
                return [], "view", path
            return operations_for("read", args), "view", path
        if kind == "write":
            text = args.get("content")
            ops = [FileOperation(action="write", path=path, content=text if isinstance(text, str) else None)] if path else []
            return ops, None, path
        if kind == "edit":
            editor = _editor_arguments(args)
            if editor is not None:
                if editor.get("command") == "view" and is_directory_listing(content):
                    return [], "view", path
                return operations_for("str_replace_editor", editor), str(editor.get("command")), path
            if not path:
                return [], None, None
            # The LLM-based editor: `content` replaces lines start..end (-1: to the end).
            start, end = _int(args.get("start")), _int(args.get("end"))
            new = args.get("content")
            op = FileOperation(
                action="edit",
                path=path,
                new=new if isinstance(new, str) else None,
                start_line=start,
                end_line=end if end is not None and end > 0 else None,
                detail="LLM-based edit",
            )
            return [op], "llm_edit", path
        if kind == "run":
            command = args.get("command")
            if not isinstance(command, str) or not command.strip() or args.get("is_input") in (True, "true"):
                return [], None, None
            cwd = args.get("cwd") if isinstance(args.get("cwd"), str) and args.get("cwd") else self.cwd
            return [FileOperation(action="shell", command=command, cwd=cwd, source="shell")], None, None
        if kind == "run_ipython":
            code = args.get("code")
            if not isinstance(code, str):
                return [], None, None
            ops, self.current_file = ipython_operations(code, self.ipython_cwd, self.current_file)
            return ops, None, None
        return [], None, None

    def _observation(self, index: int, event: dict[str, Any], line: int) -> Iterator[Event]:
        kind = str(event.get("observation"))
        content = as_text(event.get("content"))
        extras = event["extras"] if isinstance(event.get("extras"), dict) else _flat_extras(event)
        action_index = self.answers.get(index)
        call = self.calls.pop(str(action_index), None) if action_index is not None else None
        if call is None:
            if kind == "error" and content.strip():
                # An error the agent saw for a call the history does not hold (bad tool arguments).
                yield UserMessage(turn=self.turns.user(), line=line, text=content, synthetic=True)
            return
        status, failure, exit_code = self._legacy_status(kind, call, content, extras, event)
        reported = self._reported(call, status, extras) if kind == "edit" else None
        yield ToolResult(
            turn=call.turn,
            line=line,
            timestamp=_str(event.get("timestamp")),
            call_id=call.call_id,
            status=status,
            output=content,
            exit_code=exit_code,
            failure=failure,
            reported=reported,
        )
        yield from self._follow_directory(kind, content, extras)

    def _legacy_status(
        self, kind: str, call: _Call, content: str, extras: dict[str, Any], event: dict[str, Any]
    ) -> tuple[ResultStatus, FailureReason | None, int | None]:
        if kind == "user_rejected":
            return "failure", "rejected", None
        if kind == "error":
            return "failure", classify_failure(content, default="invalid"), None
        if kind == "run":
            return _exit_status(_exit_code(extras, event))
        if kind == "run_ipython":
            reason = _ipython_failure(content)
            return ("failure", reason, None) if reason else ("success", None, None)
        if kind in ("edit", "read", "write"):
            explicit = content.lstrip().upper().startswith("ERROR")
            if explicit:
                return "failure", editor_failure(content, explicit_error=True), None
            if kind == "edit" and call.command not in ("view", "llm_edit") and extras.get("diff") == "":
                # A failed str_replace still says "I edited the file"; its diff is empty.
                return "failure", editor_failure(content, explicit_error=True), None
            return "success", None, None
        return "success", None, None

    def _reported(self, call: _Call, status: ResultStatus, extras: dict[str, Any]) -> tuple[ReportedChange, ...] | None:
        """What OpenHands itself recorded about a successful edit."""
        if status != "success" or call.command in (None, "view"):
            return None
        path = extras.get("path") if isinstance(extras.get("path"), str) else call.path
        if not path:
            return None
        diff = extras.get("diff") if isinstance(extras.get("diff"), str) and extras.get("diff") else None
        new_content = extras.get("new_content")
        # Only `create` (and the LLM editor on a new file) records the whole
        # file in new_content; for str_replace it is just new_str.
        created = call.command == "create" or (call.command == "llm_edit" and extras.get("prev_exist") is False)
        return (
            ReportedChange(
                path=path,
                change="created" if created else "modified",
                content=new_content if created and isinstance(new_content, str) else None,
                diff=diff,
            ),
        )

    def _follow_directory(self, kind: str, content: str, extras: dict[str, Any]) -> Iterator[Event]:
        """The bash session's directory after a command, when the observation says it."""
        if kind == "run_ipython":
            match = _JUPYTER_CWD.search(content[-300:])
            if match:
                self.ipython_cwd = match.group(1)
            return
        if kind != "run":
            return
        metadata = _obj(extras.get("metadata"))
        directory = metadata.get("working_dir")
        if not isinstance(directory, str) or not directory.startswith("/"):
            last = content.rstrip().rsplit("\n", 1)[-1]
            match = _PROMPT_CWD.search(last)
            directory = match.group(1) if match else None
        if directory and directory != self.cwd:
            self.cwd = directory
            yield WorkingDirectory(turn=self.turns.current, cwd=directory)

    # -- SDK events ----------------------------------------------------------------------------------
    def _sdk_event(self, index: int, event: dict[str, Any], line: int) -> Iterator[Event]:
        kind = event.get("kind")
        timestamp = _str(event.get("timestamp"))
        if kind == "MessageEvent":
            message = _obj(event.get("llm_message"))
            text = as_text(message.get("content"))
            if event.get("source") == "agent" or message.get("role") == "assistant":
                yield AssistantMessage(turn=self.turns.assistant(), line=line, timestamp=timestamp, text=text)
            else:
                yield UserMessage(turn=self.turns.user(), line=line, timestamp=timestamp, text=text)
        elif kind == "ActionEvent":
            yield from self._sdk_action(index, event, line, timestamp)
        elif kind in ("ObservationEvent", "AgentErrorEvent", "UserRejectObservation"):
            yield from self._sdk_observation(index, event, line, timestamp)
        elif kind == "Condensation":
            summary = event.get("summary")
            yield CompactionBoundary(
                turn=self.turns.current, line=line, timestamp=timestamp, summary=summary if isinstance(summary, str) else None
            )

    def _sdk_action(self, index: int, event: dict[str, Any], line: int, timestamp: str | None) -> Iterator[Event]:
        action = _obj(event.get("action"))
        kind = str(action.get("kind") or "")
        turn = self.turns.assistant(_str(event.get("llm_response_id")))
        thought = as_text(event.get("thought")) or as_text(event.get("reasoning_content"))
        if kind == "FinishAction":
            thought = as_text(action.get("message")) or thought
        elif kind == "ThinkAction":
            thought = as_text(action.get("thought")) or thought
        if thought.strip():
            yield AssistantMessage(turn=turn, line=line, timestamp=timestamp, text=thought)
        observation = self._observation_for(index)
        output = ""
        if observation is not None:
            body = _obj(observation.get("observation"))
            output = as_text(body.get("output")) or as_text(body.get("content"))
        operations: list[FileOperation] = []
        command = action.get("command") if isinstance(action.get("command"), str) else None
        path = action.get("path") if isinstance(action.get("path"), str) else None
        editor = kind in _SDK_EDITOR_ACTIONS or (command in EDITOR_COMMANDS and path is not None)
        if editor:
            if not (command == "view" and is_directory_listing(output)):
                operations = operations_for("str_replace_editor", action)
        elif kind in _SDK_SHELL_ACTIONS or event.get("tool_name") in ("execute_bash", "bash", "terminal"):
            if command and command.strip() and not action.get("is_input"):
                operations = [FileOperation(action="shell", command=command, cwd=self.cwd, source="shell")]
            command = None
        else:
            patch = next((action[k] for k in ("patch", "input", "patch_text") if isinstance(action.get(k), str)), None)
            if patch:
                operations = parse_patch(patch)
            command = None
        call_id = self._call_id(event, line)
        self.calls[str(index)] = _Call(call_id, turn, kind, command if editor else None, path)
        arguments = {k: v for k, v in action.items() if k != "kind"}
        yield ToolCall(
            turn=turn,
            line=line,
            timestamp=timestamp,
            call_id=call_id,
            tool=_str(event.get("tool_name")) or kind,
            arguments=arguments,
            operations=tuple(operations),
        )

    def _sdk_observation(self, index: int, event: dict[str, Any], line: int, timestamp: str | None) -> Iterator[Event]:
        kind = event.get("kind")
        action_index = self.answers.get(index)
        call = self.calls.pop(str(action_index), None) if action_index is not None else None
        if call is None:
            text = as_text(event.get("error")) or as_text(event.get("rejection_reason"))
            if text.strip():
                yield UserMessage(turn=self.turns.user(), line=line, timestamp=timestamp, text=text, synthetic=True)
            return
        status: ResultStatus = "success"
        failure: FailureReason | None = None
        exit_code: int | None = None
        reported: tuple[ReportedChange, ...] | None = None
        body = _obj(event.get("observation"))
        output = as_text(body.get("output")) or as_text(body.get("content"))
        if kind == "UserRejectObservation":
            status, failure = "failure", "rejected"
            output = as_text(event.get("rejection_reason"))
        elif kind == "AgentErrorEvent":
            output = as_text(event.get("error"))
            status, failure = "failure", classify_failure(output, default="invalid")
        elif call.command is not None:  # the file editor
            error = body.get("error")
            if isinstance(error, str) and error.strip():
                status, failure = "failure", editor_failure(error, explicit_error=True)
                output = output or error
            elif call.command != "view":
                reported = self._sdk_reported(call, body)
        elif call.kind in _SDK_SHELL_ACTIONS or "exit_code" in body or "metadata" in body:
            metadata = _obj(body.get("metadata"))
            code = body.get("exit_code")
            code = code if isinstance(code, int) and not isinstance(code, bool) else _int(metadata.get("exit_code"))
            if body.get("timeout") is True:
                status, failure = "failure", "interrupted"
            else:
                status, failure, exit_code = _exit_status(code)
                if body.get("error") is True and status != "failure":
                    status, failure = "failure", "other"
            directory = metadata.get("working_dir")
            if isinstance(directory, str) and directory.startswith("/") and directory != self.cwd:
                self.cwd = directory
                yield ToolResult(
                    turn=call.turn, line=line, timestamp=timestamp, call_id=call.call_id,
                    status=status, output=output, exit_code=exit_code, failure=failure,
                )
                yield WorkingDirectory(turn=self.turns.current, cwd=directory)
                return
        elif isinstance(body.get("error"), str) and body["error"].strip():
            status, failure = "failure", classify_failure(body["error"])
        yield ToolResult(
            turn=call.turn,
            line=line,
            timestamp=timestamp,
            call_id=call.call_id,
            status=status,
            output=output,
            exit_code=exit_code,
            failure=failure,
            reported=reported,
        )

    @staticmethod
    def _sdk_reported(call: _Call, body: dict[str, Any]) -> tuple[ReportedChange, ...] | None:
        path = body.get("path") if isinstance(body.get("path"), str) else call.path
        if not path:
            return None
        created = call.command == "create" and body.get("prev_exist") is not True
        content = body.get("new_content")
        return (
            ReportedChange(
                path=path,
                change="created" if created else "modified",
                content=content if created and isinstance(content, str) else None,
            ),
        )

    # -- the session's frame ------------------------------------------------------------------------
    def _has_user_message(self) -> bool:
        """Whether the history itself opens with the task (else the record's ``instruction`` is it)."""
        for event in self.history:
            if not isinstance(event, dict):
                continue
            if event.get("kind") == "MessageEvent" or event.get("action") == "message":
                if event.get("source") in ("user", None):
                    return True
            elif event.get("kind") == "ActionEvent" or event.get("action") not in (None, "system", "recall"):
                return False
        return False

    def _initial_cwd(self) -> str | None:
        """The bash session's directory before the first command, when the first command shows it."""
        for index, event in enumerate(self.history):
            if not isinstance(event, dict) or not self._is_action(event):
                continue
            action = event.get("action") if self.sdk else event.get("args")
            action = action if isinstance(action, dict) else _flat_args(event)
            command = action.get("command") if isinstance(action.get("command"), str) else None
            shell = (event.get("action") == "run") or (self.sdk and str(action.get("kind")) in _SDK_SHELL_ACTIONS)
            if not shell or command is None:
                continue
            observation = self._observation_for(index)
            if observation is None or re.search(r"(^|[;&|\s])(cd|pushd|popd)\b", command):
                return None
            extras = observation.get("observation") if self.sdk else observation.get("extras")
            metadata = extras.get("metadata") if isinstance(extras, dict) else None
            directory = metadata.get("working_dir") if isinstance(metadata, dict) else None
            return directory if isinstance(directory, str) and directory.startswith("/") else None
        return None


# -- helpers -----------------------------------------------------------------------------------------
def _root(record: dict[str, Any], history: list[Any]) -> str | None:
    """The repository the task is about: ``<uploaded_files>``, else the workspace."""
    texts = [record.get("instruction")]
    for event in history[:6]:
        if isinstance(event, dict):
            args = event["args"] if isinstance(event.get("args"), dict) else event
            texts.extend((args.get("content"), event.get("message")))
            message = event.get("llm_message")
            if isinstance(message, dict):
                texts.append(as_text(message.get("content")))
    for text in texts:
        if isinstance(text, str):
            match = _UPLOADED.search(text) or _REPOSITORY_IN.search(text)
            if match:
                return match.group(1).rstrip("/")
    if any("/workspace" in str(event)[:4000] for event in history[:40]):
        return "/workspace"
    return None


def _model(record: dict[str, Any]) -> str | None:
    metadata = record.get("metadata")
    if not isinstance(metadata, dict):
        return None
    for key in ("llm_config", "llm"):
        config = metadata.get(key)
        if isinstance(config, dict) and isinstance(config.get("model"), str):
            return str(config["model"])
    return None


def _event_id(value: Any) -> int | str | None:
    """An event id or cause; ids are ints (V0) or strings (SDK), anything else is no id."""
    return value if isinstance(value, (int, str)) and not isinstance(value, bool) else None


def _tool_call_id(event: dict[str, Any]) -> str | None:
    if isinstance(event.get("tool_call_id"), str) and event["tool_call_id"]:
        return str(event["tool_call_id"])
    metadata = event.get("tool_call_metadata")
    if isinstance(metadata, dict) and isinstance(metadata.get("tool_call_id"), str):
        return str(metadata["tool_call_id"])
    return None


def _tool_name(event: dict[str, Any]) -> str | None:
    metadata = event.get("tool_call_metadata")
    if isinstance(metadata, dict) and isinstance(metadata.get("function_name"), str):
        return str(metadata["function_name"])
    return None


def _response_id(event: dict[str, Any]) -> str | None:
    """The model response an action came from, so parallel calls share a turn."""
    metadata = event.get("tool_call_metadata")
    response = metadata.get("model_response") if isinstance(metadata, dict) else None
    if isinstance(response, dict) and isinstance(response.get("id"), str):
        return str(response["id"])
    return None


_FLAT_META = frozenset({"action", "observation", "id", "source", "timestamp", "message", "cause", "action_risk"})


def _flat_args(event: dict[str, Any]) -> dict[str, Any]:
    """The resolver history keeps an action's arguments at the top level."""
    return {k: v for k, v in event.items() if k not in _FLAT_META}


def _flat_extras(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k not in _FLAT_META and k != "content"}


def _editor_arguments(args: dict[str, Any]) -> dict[str, Any] | None:
    """The ``str_replace_editor`` call of an ``edit`` action, or None for the LLM-based editor."""
    if isinstance(args.get("command"), str) and args["command"] in EDITOR_COMMANDS:
        return args
    code = args.get("translated_ipython_code")
    if isinstance(code, str) and "file_editor" in code:
        match = re.search(r"file_editor\(\*\*(\{.*\})\)\)?\s*$", code, re.DOTALL)
        if match:
            try:
                value = ast.literal_eval(match.group(1))
            except (ValueError, SyntaxError, MemoryError, RecursionError):
                value = None
            if isinstance(value, dict) and value.get("command") in EDITOR_COMMANDS:
                return {str(k): v for k, v in value.items()}
    return None


def _exit_code(extras: dict[str, Any], event: dict[str, Any]) -> int | None:
    metadata = extras.get("metadata")
    if isinstance(metadata, dict):
        code = _int(metadata.get("exit_code"))
        if code is not None:
            return code
    for value in (extras.get("exit_code"), event.get("exit_code")):
        code = _int(value)
        if code is not None:
            return code
    return None


def _exit_status(code: int | None) -> tuple[ResultStatus, FailureReason | None, int | None]:
    # -1: the command was still running when OpenHands returned (a server,
    # a timeout); it neither succeeded nor failed yet.
    if code is None or code == -1:
        return "unknown", None, None
    if code == 0:
        return "success", None, 0
    return "failure", "exit_status", code


def _ipython_failure(content: str) -> FailureReason | None:
    head = content.lstrip()[:400]
    if _SKILL_FAILURE.match(head):
        reason = editor_failure(head, explicit_error=True)
        return reason
    if _PY_TRACEBACK.search(content):
        return "other"
    return None


def _obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(r"\s*-?\d+\s*", value):
        return int(value)
    return None


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


# -- IPython cells and agentskills ----------------------------------------------------------------------
# agentskills helpers -> their parameter names, in order.
_SKILLS: dict[str, tuple[str, ...]] = {
    "open_file": ("path", "line_number", "context_lines"),
    "goto_line": ("line_number",),
    "scroll_down": (),
    "scroll_up": (),
    "create_file": ("filename",),
    "edit_file_by_replace": ("file_name", "to_replace", "new_content"),
    "insert_content_at_line": ("file_name", "line_number", "content"),
    "append_file": ("file_name", "content"),
    "edit_file": ("file_name", "start", "start_str", "end", "end_str", "content"),
    "search_file": ("search_term", "file_path"),
    "search_dir": ("search_term", "dir_path"),
    "find_file": ("file_name", "dir_path"),
    "parse_pdf": ("file_path",),
    "parse_docx": ("file_path",),
    "parse_latex": ("file_path",),
    "parse_pptx": ("file_path",),
}


def ipython_operations(code: str, cwd: str | None, current_file: str | None) -> tuple[list[FileOperation], str | None]:
    """The file operations of an OpenHands IPython cell, and agentskills' open file after it.

    Calls of the ``agentskills`` helpers become exact operations.  ``!cmd``
    lines are shell commands.  Any other Python is handed to the shell
    module as ``python3 - <<'EOF' ... EOF`` so that what it writes is
    inferred like any script run from a shell.
    """
    ops: list[FileOperation] = []
    shell_lines: list[str] = []
    python_lines: list[str] = []
    for line in code.splitlines():
        stripped = line.lstrip()
        if stripped.startswith("!"):
            shell_lines.append(stripped[1:].strip())
        elif not stripped.startswith("%"):
            python_lines.append(line)
    python = "\n".join(python_lines)
    other = False
    try:
        tree: ast.Module | None = ast.parse(python)
    except SyntaxError:
        tree = None
        other = bool(python.strip())
    for statement in tree.body if tree else []:
        call = _skill_call(statement)
        if call is None:
            other = other or not _harmless(statement)
            continue
        name, arguments = call
        if arguments is None:
            other = True
            continue
        op, current_file = _skill_operation(name, arguments, current_file)
        if op is not None:
            ops.append(op)
    ops.extend(FileOperation(action="shell", command=line, cwd=cwd, source="shell") for line in shell_lines if line)
    if other:
        script = f"python3 - <<'PYTHON_EOF'\n{python.strip()}\nPYTHON_EOF"
        ops.append(FileOperation(action="shell", command=script, cwd=cwd, source="shell", detail="IPython cell"))
    return ops, current_file


def _harmless(statement: ast.stmt) -> bool:
    """Imports and bare names/constants change no file."""
    if isinstance(statement, ast.Import | ast.ImportFrom | ast.Pass):
        return True
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Name | ast.Constant)


def _skill_call(statement: ast.stmt) -> tuple[str, dict[str, Any] | None] | None:
    """``(helper, arguments)`` for ``helper(...)`` or ``print(helper(...))``; arguments None if not literal."""
    if not isinstance(statement, ast.Expr) or not isinstance(statement.value, ast.Call):
        return None
    call = statement.value
    if isinstance(call.func, ast.Name) and call.func.id == "print" and len(call.args) == 1 and isinstance(call.args[0], ast.Call):
        call = call.args[0]
    if not isinstance(call.func, ast.Name) or call.func.id not in _SKILLS:
        return None
    name = call.func.id
    params = _SKILLS[name]
    arguments: dict[str, Any] = {}
    try:
        for position, node in enumerate(call.args):
            if position < len(params):
                arguments[params[position]] = ast.literal_eval(node)
        for keyword in call.keywords:
            if keyword.arg:
                arguments[keyword.arg] = ast.literal_eval(keyword.value)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return name, None
    return name, arguments


def _skill_operation(
    name: str, args: dict[str, Any], current_file: str | None
) -> tuple[FileOperation | None, str | None]:
    def text(key: str) -> str | None:
        value = args.get(key)
        return value if isinstance(value, str) else None

    path = text("path") or text("file_name") or text("filename") or text("file_path")
    if name in ("goto_line", "scroll_down", "scroll_up"):
        return (FileOperation(action="read", path=current_file) if current_file else None), current_file
    if name in ("search_dir", "find_file"):
        return None, current_file
    if name == "search_file":
        target = text("file_path") or current_file
        return (FileOperation(action="read", path=target) if target else None), current_file
    if path is None:
        return None, current_file
    if name == "open_file":
        line = _int(args.get("line_number"))
        return FileOperation(action="read", path=path, start_line=line if line and line > 1 else None), path
    if name == "create_file":
        return FileOperation(action="create", path=path, content="\n"), path
    if name == "edit_file_by_replace":
        return FileOperation(action="edit", path=path, old=text("to_replace"), new=text("new_content")), path
    if name == "insert_content_at_line":
        line = _int(args.get("line_number"))
        return FileOperation(action="edit", path=path, new=text("content"), start_line=line, detail="insert"), path
    if name == "append_file":
        return FileOperation(action="edit", path=path, new=text("content"), detail="append"), path
    if name == "edit_file":
        start, end = _int(args.get("start")), _int(args.get("end"))
        return (
            FileOperation(
                action="edit", path=path, new=text("content"), start_line=start, end_line=end, detail="replace lines"
            ),
            path,
        )
    return FileOperation(action="read", path=path), current_file
