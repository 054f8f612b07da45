"""One OpenHands history read into events: actions paired with their observations, in the legacy and SDK shapes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from artifact_index.ingestion.adapters.base import TurnCounter, as_text
from artifact_index.ingestion.adapters.failures import classify_failure
from artifact_index.ingestion.adapters.narrowing import (
    as_dict,
    as_int_or_digits,
    as_str,
    string_or_none,
)
from artifact_index.ingestion.adapters.openhands.fields import (
    editor_arguments,
    exit_code_of,
    exit_status,
    flat_args,
    flat_extras,
    id_of,
    ipython_failure,
    model_name,
    response_id,
    tool_call_id,
    tool_name,
    workspace_root,
)
from artifact_index.ingestion.adapters.openhands.ipython import ipython_operations
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
    JSONObject,
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
from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["Session"]

# The directory a shell prompt or the Jupyter kernel shows after a command.
_PROMPT_CWD = lazy_pattern(r"\S+@[\w.-]+:(/[^\s#$]*)\s*[#$]\s*$")
_JUPYTER_CWD = lazy_pattern(r"\[Jupyter current working directory: (/[^\]]*)\]")

_SDK_EDITOR_ACTIONS = frozenset(
    {"FileEditorAction", "StrReplaceEditorAction", "PlanningFileEditorAction"}
)
_SDK_SHELL_ACTIONS = frozenset({"ExecuteBashAction", "TerminalAction", "BashAction"})
# Legacy action types that are conversation, not tool calls.
_SILENT_ACTIONS = frozenset({"system", "recall", "change_agent_state", "null", "pause", "resume"})


@dataclass
class _Call:
    """A tool call that was emitted and waits for its observation."""

    call_id: str
    turn: int
    kind: str  # legacy action type or SDK action kind
    command: str | None  # the editor sub-command, when an editor call
    path: str | None


class Session:
    def __init__(
        self,
        source: Source,
        record: JSONObject,
        history: list[Any],
        line_of: Any = None,
    ) -> None:
        self.source = source
        self.record = record
        self.history = history
        self.line_of = line_of or (lambda index: index + 1)
        self.turns = TurnCounter()
        self.sdk = any(isinstance(e, dict) and isinstance(e.get("kind"), str) for e in history[:5])
        self.root = workspace_root(record, history)
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
            session_id=as_str(self.record.get("instance_id")),
            agent="openhands",
            cwd=self.root,
            model=model_name(self.record),
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
                event_id = id_of(event.get("id"))
                if event_id is not None:
                    by_id[event_id] = index
                call_id = tool_call_id(event)
                if call_id:
                    by_call[call_id] = index
                waiting.append(index)
            elif self._is_observation(event):
                target = None
                cause = id_of(event.get("cause", event.get("action_id")))
                if cause is not None and cause in by_id:
                    target = by_id[cause]
                elif tool_call_id(event) in by_call:
                    target = by_call[tool_call_id(event) or ""]
                elif cause is None and not self.sdk and waiting and "id" not in event:
                    target = waiting[-1]  # the flat resolver history answers in order
                if target is not None and target in waiting:
                    pairs[target] = index
                    waiting.remove(target)
        return pairs

    def _is_action(self, event: JSONObject) -> bool:
        if self.sdk:
            return event.get("kind") == "ActionEvent"
        return "action" in event and "observation" not in event

    def _is_observation(self, event: JSONObject) -> bool:
        if self.sdk:
            return event.get("kind") in (
                "ObservationEvent",
                "AgentErrorEvent",
                "UserRejectObservation",
            )
        return "observation" in event

    def _call_id(self, event: JSONObject, line: int) -> str:
        call_id = tool_call_id(event) or (
            f"event-{event['id']}" if event.get("id") is not None else f"event-{line}"
        )
        if call_id in self.used_ids:
            call_id = f"{call_id}#{line}"
        self.used_ids.add(call_id)
        return call_id

    def _observation_for(self, index: int) -> JSONObject | None:
        target = self.pairs.get(index)
        event = self.history[target] if target is not None else None
        return event if isinstance(event, dict) else None

    # -- legacy and resolver events --------------------------------------------------------------
    def _action(self, index: int, event: JSONObject, line: int) -> Iterator[Event]:
        kind = str(event.get("action"))
        raw_args = event.get("args")
        args = raw_args if isinstance(raw_args, dict) else flat_args(event)
        source = event.get("source")
        timestamp = as_str(event.get("timestamp"))
        if kind in _SILENT_ACTIONS:
            return
        if kind == "message":
            text = as_text(args.get("content")) or as_text(event.get("message"))
            if source == "agent":
                yield AssistantMessage(
                    turn=self.turns.assistant(), line=line, timestamp=timestamp, text=text
                )
            elif source != "environment":
                yield UserMessage(turn=self.turns.user(), line=line, timestamp=timestamp, text=text)
            return
        if kind == "condensation":
            summary = args.get("summary")
            yield CompactionBoundary(
                turn=self.turns.current,
                line=line,
                timestamp=timestamp,
                summary=summary if isinstance(summary, str) else None,
            )
            return
        turn = self.turns.assistant(response_id(event))
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
            tool=tool_name(event) or kind,
            arguments=args,
            operations=tuple(operations),
        )

    def _legacy_operations(
        self, kind: str, args: JSONObject, observation: JSONObject | None
    ) -> tuple[list[FileOperation], str | None, str | None]:
        content = as_text(observation.get("content")) if observation else ""
        raw_path = args.get("path")
        path = raw_path if isinstance(raw_path, str) else None
        if kind == "read":
            if not path or is_directory_listing(content):
                return [], "view", path
            return operations_for("read", args), "view", path
        if kind == "write":
            text = args.get("content")
            ops = (
                [
                    FileOperation(
                        action="write", path=path, content=text if isinstance(text, str) else None
                    )
                ]
                if path
                else []
            )
            return ops, None, path
        if kind == "edit":
            editor = editor_arguments(args)
            if editor is not None:
                if editor.get("command") == "view" and is_directory_listing(content):
                    return [], "view", path
                return (
                    operations_for("str_replace_editor", editor),
                    str(editor.get("command")),
                    path,
                )
            if not path:
                return [], None, None
            # The LLM-based editor: `content` replaces lines start..end (-1: to the end).
            start, end = as_int_or_digits(args.get("start")), as_int_or_digits(args.get("end"))
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
            if (
                not isinstance(command, str)
                or not command.strip()
                or args.get("is_input") in (True, "true")
            ):
                return [], None, None
            cwd = (
                args.get("cwd")
                if isinstance(args.get("cwd"), str) and args.get("cwd")
                else self.cwd
            )
            return (
                [FileOperation(action="shell", command=command, cwd=cwd, source="shell")],
                None,
                None,
            )
        if kind == "run_ipython":
            code = args.get("code")
            if not isinstance(code, str):
                return [], None, None
            ops, self.current_file = ipython_operations(code, self.ipython_cwd, self.current_file)
            return ops, None, None
        return [], None, None

    def _observation(self, index: int, event: JSONObject, line: int) -> Iterator[Event]:
        kind = str(event.get("observation"))
        content = as_text(event.get("content"))
        raw_extras = event.get("extras")
        extras = raw_extras if isinstance(raw_extras, dict) else flat_extras(event)
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
            timestamp=as_str(event.get("timestamp")),
            call_id=call.call_id,
            status=status,
            output=content,
            exit_code=exit_code,
            failure=failure,
            reported=reported,
        )
        yield from self._follow_directory(kind, content, extras)

    def _legacy_status(
        self, kind: str, call: _Call, content: str, extras: JSONObject, event: JSONObject
    ) -> tuple[ResultStatus, FailureReason | None, int | None]:
        if kind == "user_rejected":
            return "failure", "rejected", None
        if kind == "error":
            return "failure", classify_failure(content, default="invalid"), None
        if kind == "run":
            return exit_status(exit_code_of(extras, event))
        if kind == "run_ipython":
            reason = ipython_failure(content)
            return ("failure", reason, None) if reason else ("success", None, None)
        if kind in ("edit", "read", "write"):
            explicit = content.lstrip().upper().startswith("ERROR")
            if explicit:
                return "failure", editor_failure(content, explicit_error=True), None
            if (
                kind == "edit"
                and call.command not in ("view", "llm_edit")
                and extras.get("diff") == ""
            ):
                # A failed str_replace still says "I edited the file"; its diff is empty.
                return "failure", editor_failure(content, explicit_error=True), None
            return "success", None, None
        return "success", None, None

    def _reported(
        self, call: _Call, status: ResultStatus, extras: JSONObject
    ) -> tuple[ReportedChange, ...] | None:
        """What OpenHands itself recorded about a successful edit."""
        if status != "success" or call.command in (None, "view"):
            return None
        path = extras.get("path") if isinstance(extras.get("path"), str) else call.path
        if not path:
            return None
        diff = (
            extras.get("diff")
            if isinstance(extras.get("diff"), str) and extras.get("diff")
            else None
        )
        new_content = extras.get("new_content")
        # Only `create` (and the LLM editor on a new file) records the whole
        # file in new_content; for str_replace it is just new_str.
        created = call.command == "create" or (
            call.command == "llm_edit" and extras.get("prev_exist") is False
        )
        return (
            ReportedChange(
                path=path,
                change="created" if created else "modified",
                content=new_content if created and isinstance(new_content, str) else None,
                diff=diff,
            ),
        )

    def _follow_directory(self, kind: str, content: str, extras: JSONObject) -> Iterator[Event]:
        """The bash session's directory after a command, when the observation says it."""
        if kind == "run_ipython":
            match = _JUPYTER_CWD.search(content[-300:])
            if match:
                self.ipython_cwd = match.group(1)
            return
        if kind != "run":
            return
        metadata = as_dict(extras.get("metadata"))
        directory = metadata.get("working_dir")
        if not isinstance(directory, str) or not directory.startswith("/"):
            last = content.rstrip().rsplit("\n", 1)[-1]
            match = _PROMPT_CWD.search(last)
            directory = match.group(1) if match else None
        if directory and directory != self.cwd:
            self.cwd = directory
            yield WorkingDirectory(turn=self.turns.current, cwd=directory)

    # -- SDK events ----------------------------------------------------------------------------------
    def _sdk_event(self, index: int, event: JSONObject, line: int) -> Iterator[Event]:
        kind = event.get("kind")
        timestamp = as_str(event.get("timestamp"))
        if kind == "MessageEvent":
            message = as_dict(event.get("llm_message"))
            text = as_text(message.get("content"))
            if event.get("source") == "agent" or message.get("role") == "assistant":
                yield AssistantMessage(
                    turn=self.turns.assistant(), line=line, timestamp=timestamp, text=text
                )
            else:
                yield UserMessage(turn=self.turns.user(), line=line, timestamp=timestamp, text=text)
        elif kind == "ActionEvent":
            yield from self._sdk_action(index, event, line, timestamp)
        elif kind in ("ObservationEvent", "AgentErrorEvent", "UserRejectObservation"):
            yield from self._sdk_observation(index, event, line, timestamp)
        elif kind == "Condensation":
            summary = event.get("summary")
            yield CompactionBoundary(
                turn=self.turns.current,
                line=line,
                timestamp=timestamp,
                summary=summary if isinstance(summary, str) else None,
            )

    def _sdk_action(
        self, index: int, event: JSONObject, line: int, timestamp: str | None
    ) -> Iterator[Event]:
        action = as_dict(event.get("action"))
        kind = str(action.get("kind") or "")
        turn = self.turns.assistant(as_str(event.get("llm_response_id")))
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
            body = as_dict(observation.get("observation"))
            output = as_text(body.get("output")) or as_text(body.get("content"))
        operations: list[FileOperation] = []
        command = string_or_none(action.get("command"))
        path = string_or_none(action.get("path"))
        editor = kind in _SDK_EDITOR_ACTIONS or (command in EDITOR_COMMANDS and path is not None)
        if editor:
            if not (command == "view" and is_directory_listing(output)):
                operations = operations_for("str_replace_editor", action)
        elif kind in _SDK_SHELL_ACTIONS or event.get("tool_name") in (
            "execute_bash",
            "bash",
            "terminal",
        ):
            if command and command.strip() and not action.get("is_input"):
                operations = [
                    FileOperation(action="shell", command=command, cwd=self.cwd, source="shell")
                ]
            command = None
        else:
            patch = next(
                (
                    value
                    for k in ("patch", "input", "patch_text")
                    if isinstance(value := action.get(k), str)
                ),
                None,
            )
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
            tool=as_str(event.get("tool_name")) or kind,
            arguments=arguments,
            operations=tuple(operations),
        )

    def _sdk_observation(
        self, index: int, event: JSONObject, line: int, timestamp: str | None
    ) -> Iterator[Event]:
        kind = event.get("kind")
        action_index = self.answers.get(index)
        call = self.calls.pop(str(action_index), None) if action_index is not None else None
        if call is None:
            text = as_text(event.get("error")) or as_text(event.get("rejection_reason"))
            if text.strip():
                yield UserMessage(
                    turn=self.turns.user(),
                    line=line,
                    timestamp=timestamp,
                    text=text,
                    synthetic=True,
                )
            return
        status: ResultStatus = "success"
        failure: FailureReason | None = None
        exit_code: int | None = None
        reported: tuple[ReportedChange, ...] | None = None
        body = as_dict(event.get("observation"))
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
            metadata = as_dict(body.get("metadata"))
            code = body.get("exit_code")
            code = (
                code
                if isinstance(code, int) and not isinstance(code, bool)
                else as_int_or_digits(metadata.get("exit_code"))
            )
            if body.get("timeout") is True:
                status, failure = "failure", "interrupted"
            else:
                status, failure, exit_code = exit_status(code)
                if body.get("error") is True and status != "failure":
                    status, failure = "failure", "other"
            directory = metadata.get("working_dir")
            if isinstance(directory, str) and directory.startswith("/") and directory != self.cwd:
                self.cwd = directory
                yield ToolResult(
                    turn=call.turn,
                    line=line,
                    timestamp=timestamp,
                    call_id=call.call_id,
                    status=status,
                    output=output,
                    exit_code=exit_code,
                    failure=failure,
                )
                yield WorkingDirectory(turn=self.turns.current, cwd=directory)
                return
        elif isinstance(error := body.get("error"), str) and error.strip():
            status, failure = "failure", classify_failure(error)
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
    def _sdk_reported(call: _Call, body: JSONObject) -> tuple[ReportedChange, ...] | None:
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
            elif event.get("kind") == "ActionEvent" or event.get("action") not in (
                None,
                "system",
                "recall",
            ):
                return False
        return False

    def _initial_cwd(self) -> str | None:
        """The bash session's directory before the first command, when the first command shows it."""
        for index, event in enumerate(self.history):
            if not isinstance(event, dict) or not self._is_action(event):
                continue
            action = event.get("action") if self.sdk else event.get("args")
            action = action if isinstance(action, dict) else flat_args(event)
            command = string_or_none(action.get("command"))
            shell = (event.get("action") == "run") or (
                self.sdk and str(action.get("kind")) in _SDK_SHELL_ACTIONS
            )
            if not shell or command is None:
                continue
            observation = self._observation_for(index)
            if observation is None or re.search(r"(^|[;&|\s])(cd|pushd|popd)\b", command):
                return None
            extras = observation.get("observation") if self.sdk else observation.get("extras")
            metadata = as_dict(extras).get("metadata")
            directory = as_dict(metadata).get("working_dir")
            return directory if isinstance(directory, str) and directory.startswith("/") else None
        return None
