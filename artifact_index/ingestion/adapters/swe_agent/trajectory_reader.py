"""One trajectory read into events: each step's action as tool calls, its observation as their results."""

from __future__ import annotations

import ast
import json
import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from artifact_index.ingestion.adapters.base import TurnCounter, as_text, parse_json_object
from artifact_index.ingestion.adapters.narrowing import as_dict, as_int_or_digits, as_list
from artifact_index.ingestion.adapters.str_replace_editor import (
    editor_failure,
    is_directory_listing,
)
from artifact_index.ingestion.adapters.swe_agent.actions import (
    NO_FILE_TOOLS,
    TOOLS,
    aci_failure,
    cd_target,
    change_directory,
    edit_operation,
    first_str,
    normalized_arguments,
    parse_tool,
    split_commands,
    text_or_empty,
    window_of,
)
from artifact_index.ingestion.adapters.swe_agent.diff_state import (
    FileDiff,
    diff_changes,
    reported_changes,
)
from artifact_index.ingestion.events import (
    AssistantMessage,
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
from artifact_index.ingestion.source import Source
from artifact_index.ingestion.vocabulary import operations_for
from artifact_index.lazy_pattern import lazy_pattern

__all__ = [
    "Reader",
]

# "[File: /repo/src/x.py (1997 lines total)]" heads every window the ACI prints.
_FILE_HEADER = lazy_pattern(r"^\[File: (.+?) \(\d+ lines total(?: after edit)?\)\]", re.MULTILINE)

# Harness messages that replace a shell command's output.
_SHELL_NOT_RUN = lazy_pattern(
    r"^Your bash command contained syntax errors and was NOT executed", re.M
)
_SHELL_TIMEOUT = lazy_pattern(
    r"was cancelled because it took more than \d+ seconds|^EXECUTION TIMED OUT", re.M
)


@dataclass
class _Command:
    """One tool invocation (or shell command) inside a step's action."""

    name: str  # a tool of TOOLS, or "bash"
    arguments: JSONObject
    text: str
    cwd: str | None = None


@dataclass
class _Context:
    """What the ACI remembers between steps."""

    root: str | None
    cwd: str | None
    open_file: str | None = None
    cursor: tuple[int, int] | None = None
    used_ids: set[str] = field(default_factory=set)


class Reader:
    def __init__(self, source: Source, doc: JSONObject) -> None:
        self.source = source
        self.doc = doc
        self.steps: list[Any] = as_list(doc["trajectory"])  # a list: checked by detection
        self.states = [
            _state(step.get("state")) if isinstance(step, dict) else {} for step in self.steps
        ]
        history = doc.get("history")
        history = as_list(history)
        self.history = [m for m in history if isinstance(m, dict) and not m.get("is_demo")]
        self.turns = TurnCounter()
        root = _root(doc, self.states, self.history)
        self.ctx = _Context(root=root, cwd=root)
        self.after = _state_is_after(self.steps, self.states, doc)

    # -- the stream ---------------------------------------------------------------
    def events(self) -> Iterator[Event]:
        info = as_dict(self.doc.get("info"))
        yield SessionInfo(
            turn=0,
            session_id=text_or_empty(self.doc.get("environment")) or None,
            agent="swe-agent",
            cwd=self.ctx.root,
            model=_model(self.doc),
            version=text_or_empty(info.get("swe_agent_version")) or None,
        )
        prompt = self._prompt()
        if prompt:
            yield UserMessage(turn=self.turns.user(), text=prompt)
        tool_calls = self._aligned_tool_calls()
        diff_before: dict[str, FileDiff] = {}
        for index, step in enumerate(self.steps):
            line = index + 1
            if not isinstance(step, dict):
                self.source.skip(line, "trajectory step is not an object")
                continue
            turn = self.turns.assistant()
            thought = as_text(step.get("thought")) or as_text(step.get("response"))
            if thought.strip():
                yield AssistantMessage(turn=turn, line=line, text=thought)
            cwd = self._cwd_before(index)
            if cwd and cwd != self.ctx.cwd:
                self.ctx.cwd = cwd
                yield WorkingDirectory(turn=turn, line=line, cwd=cwd)
            action = step.get("action")
            if not isinstance(action, str) or not action.strip():
                continue
            observation = as_text(step.get("observation"))
            call = tool_calls.get(index)
            commands = self._commands(action, call)
            single = len(commands) == 1
            operations: list[FileOperation] = []
            for command in commands:
                operations.extend(self._operations(command, observation if single else None))
            call_id = self._call_id(call, line)
            yield ToolCall(
                turn=turn,
                line=line,
                call_id=call_id,
                tool=commands[0].name if single else "bash",
                arguments=commands[0].arguments if single else {"command": action},
                operations=tuple(operations),
            )
            reported: tuple[ReportedChange, ...] | None = None
            diff_text = self._diff_after(index)
            if diff_text is not None:
                diff_after = diff_changes(diff_text)
                reported = reported_changes(diff_before, diff_after, self.ctx.root) or None
                diff_before = diff_after
            status, failure = self._status(commands, single, observation)
            if single:
                self._remember(commands[0], observation, status)
            yield ToolResult(
                turn=turn,
                line=line,
                call_id=call_id,
                status=status,
                output=observation,
                failure=failure,
                reported=reported,
            )

    # -- reading the action -------------------------------------------------------------
    def _commands(self, action: str, call: JSONObject | None) -> list[_Command]:
        if call is not None:
            function = as_dict(call.get("function"))
            name = str(function.get("name") or "")
            arguments = parse_json_object(function.get("arguments"))
            if (name in TOOLS and name != "str_replace_editor") or (
                name == "str_replace_editor" and arguments.get("command")
            ):
                return [
                    _Command(
                        name, normalized_arguments(name, arguments), action.strip(), self.ctx.cwd
                    )
                ]
            if name == "bash" and isinstance(command := arguments.get("command"), str):
                action = command
        return self._parse_text(action)

    def _parse_text(self, action: str) -> list[_Command]:
        text = action.strip()
        whole = parse_tool(text)
        if whole is not None:
            return [_Command(whole[0], whole[1], text, self.ctx.cwd)]
        segments = split_commands(text)
        parsed = [(segment, parse_tool(segment)) for segment in segments]
        if len(segments) < 2 or not any(tool for _, tool in parsed):
            return [_Command("bash", {"command": text}, text, self.ctx.cwd)]
        # A tool mixed with shell commands ("cd /x && create foo"): each part
        # runs in the directory the parts before it left.  The `cd` stays a
        # shell command so the tracker's own directory follows it too.
        commands: list[_Command] = []
        cwd = self.ctx.cwd
        for segment, tool in parsed:
            directory = cd_target(segment)
            if tool is None:
                commands.append(_Command("bash", {"command": segment}, segment, cwd))
            else:
                commands.append(_Command(tool[0], tool[1], segment, cwd))
            if directory is not None:
                cwd = change_directory(cwd, directory)
        return commands

    def _call_id(self, call: JSONObject | None, line: int) -> str:
        # Some runs replay one tool-call id for several steps; the tracker
        # pairs calls with results by id, so a repeat gets the step number.
        call_id = str(call.get("id")) if call and call.get("id") else f"step-{line}"
        if call_id in self.ctx.used_ids:
            call_id = f"{call_id}#step-{line}"
        self.ctx.used_ids.add(call_id)
        return call_id

    # -- file operations ------------------------------------------------------------------
    def _path(self, path: str, cwd: str | None) -> str:
        """``path`` as spelled, unless a ``cd`` earlier in the same action moved away."""
        if path.startswith("/") or cwd is None or cwd == self.ctx.cwd:
            return path
        return posixpath.normpath(posixpath.join(cwd, path))

    def _operations(self, command: _Command, observation: str | None) -> list[FileOperation]:
        name, args, cwd = command.name, command.arguments, command.cwd
        if name == "bash":
            return [FileOperation(action="shell", command=command.text, cwd=cwd, source="shell")]
        if name in NO_FILE_TOOLS:
            return []
        if name == "str_replace_editor":
            ops = operations_for("str_replace_editor", args)
            if observation is not None and is_directory_listing(observation):
                return []
            return [
                op.model_copy(update={"path": self._path(op.path, cwd)}) if op.path else op
                for op in ops
            ]
        if name in ("open", "create", "filemap"):
            target = first_str(args, "path", "filename", "file_path", "file")
            if not target:
                return []
            path: str | None = self._path(target, cwd)
            if name == "create":
                # The ACI writes one empty line: the file shows "(1 lines total)".
                return [FileOperation(action="create", path=path, content="\n")]
            start, end = window_of(observation)
            return [FileOperation(action="read", path=path, start_line=start, end_line=end)]
        if name in ("goto", "scroll_up", "scroll_down", "search_file"):
            target = first_str(args, "file") if name == "search_file" else None
            path = self._path(target, cwd) if target else self._open_file(observation)
            if not path:
                return []
            start, end = window_of(observation) if name != "search_file" else (None, None)
            return [FileOperation(action="read", path=path, start_line=start, end_line=end)]
        if name in ("edit", "insert"):
            path = self._open_file(observation)
            if not path:
                return []
            return [edit_operation(name, args, path, self.ctx.cursor)]
        return []

    def _open_file(self, observation: str | None) -> str | None:
        if self.ctx.open_file:
            return self.ctx.open_file
        header = _FILE_HEADER.search(observation or "")
        return header.group(1) if header else None

    def _remember(self, command: _Command, observation: str, status: ResultStatus) -> None:
        """The ACI's state after a command: the open file, the cursors."""
        name, args = command.name, command.arguments
        header = _FILE_HEADER.search(observation)
        # `create` of an existing file fails but still opens it.
        if name in ("open", "create") and (header or status != "failure"):
            target = header.group(1) if header else first_str(args, "path", "filename")
            if target:
                self.ctx.open_file = self._path(target, command.cwd)
        elif name == "set_cursors" and status != "failure":
            start, end = as_int_or_digits(args.get("start")), as_int_or_digits(args.get("end"))
            if start is not None and end is not None:
                self.ctx.cursor = (start, end)

    # -- results -----------------------------------------------------------------------------
    def _status(
        self, commands: list[_Command], single: bool, observation: str
    ) -> tuple[ResultStatus, FailureReason | None]:
        if _SHELL_NOT_RUN.search(observation[:400]):
            return "failure", "invalid"
        if _SHELL_TIMEOUT.search(observation[:600]):
            return "failure", "interrupted"
        if not single:
            return "unknown", None
        command = commands[0]
        if command.name == "bash":
            # SWE-agent records no exit code: a command's success is unknown.
            return "unknown", None
        if command.name == "str_replace_editor":
            reason = editor_failure(observation)
        else:
            reason = aci_failure(observation)
        return ("failure", reason) if reason else ("success", None)

    # -- the trajectory's other records ----------------------------------------------------------
    def _prompt(self) -> str:
        """The task the agent was given: the last user message before its first action."""
        prompt = ""
        for message in self.history:
            if message.get("role") == "assistant":
                break
            if message.get("role") == "user":
                prompt = as_text(message.get("content"))
        return prompt

    def _aligned_tool_calls(self) -> dict[int, JSONObject]:
        """Step index -> the OpenAI tool call recorded for that step in ``history``."""
        assistants = [m for m in self.history if m.get("role") == "assistant"]
        aligned: dict[int, JSONObject] = {}
        position = 0
        for index, step in enumerate(self.steps):
            action = as_dict(step).get("action")
            if not isinstance(action, str) or not action.strip():
                continue
            for offset in range(position, len(assistants)):
                message = assistants[offset]
                if str(message.get("action") or "").strip() == action.strip():
                    calls = message.get("tool_calls")
                    if isinstance(calls, list) and len(calls) == 1 and isinstance(calls[0], dict):
                        aligned[index] = calls[0]
                    position = offset + 1
                    break
        return aligned

    def _cwd_before(self, index: int) -> str | None:
        """The shell's directory when step ``index`` ran (None: unchanged)."""
        candidates = reversed(self.states[:index]) if self.after else iter([self.states[index]])
        for state in candidates:
            directory = state.get("working_dir")
            if isinstance(directory, str) and directory.startswith("/"):
                return directory
            if state:
                break
        return None

    def _diff_after(self, index: int) -> str | None:
        """The repository diff the ``diff_state`` tool recorded after step ``index``."""
        position = index if self.after else index + 1
        if position >= len(self.states):
            return None
        diff = self.states[position].get("diff")
        return diff if isinstance(diff, str) else None


def _state(raw: Any) -> JSONObject:
    """A step's state: a dict, a JSON string, or (1.0) a Python repr of a dict."""
    if isinstance(raw, dict):
        return raw
    if isinstance(raw, str) and raw.strip():
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            try:
                value = ast.literal_eval(raw.strip())
            except (ValueError, SyntaxError, MemoryError, RecursionError):
                return {}
        return as_dict(value)
    return {}


def _state_is_after(steps: list[Any], states: list[JSONObject], doc: JSONObject) -> bool:
    """Whether a step's ``state`` was taken after its action (1.x) or before it (0.x).

    Decided by the open file: after ``open X`` the state names X either in
    the same step (after) or only in the next one (before).
    """
    after = before = 0
    for index, step in enumerate(steps):
        action = as_dict(step).get("action")
        if not isinstance(action, str) or index + 1 >= len(states):
            continue
        words = action.strip().split(maxsplit=2)
        if len(words) < 2 or words[0] not in ("open", "create"):
            continue
        target = posixpath.basename(words[1].strip("'\""))
        here = posixpath.basename(str(states[index].get("open_file") or ""))
        there = posixpath.basename(str(states[index + 1].get("open_file") or ""))
        if here == target:
            after += 1
        elif there == target:
            before += 1
    if after or before:
        return after >= before
    # No open file to tell by: 0.x wrote the state as a JSON string.
    first = steps[0].get("state") if steps and isinstance(steps[0], dict) else None
    if isinstance(first, str):
        try:
            json.loads(first)
        except json.JSONDecodeError:
            return True
        return False
    return True


_CURRENT_DIRECTORY = lazy_pattern(r"\(Current directory: (/[^)\n]*)\)")


def _root(doc: JSONObject, states: list[JSONObject], history: list[JSONObject]) -> str | None:
    """The repository root: the first state's working directory, else the run config."""
    for state in states:
        directory = state.get("working_dir")
        if isinstance(directory, str) and directory.startswith("/"):
            return directory.rstrip("/") or "/"
    config = doc.get("replay_config")
    if isinstance(config, str):
        config = parse_json_object(config)
    if isinstance(config, dict):
        repo = config.get("env", {}).get("repo") if isinstance(config.get("env"), dict) else None
        name = as_dict(repo).get("repo_name")
        if isinstance(name, str) and name:
            return name if name.startswith("/") else "/" + name
    for message in history:
        match = _CURRENT_DIRECTORY.search(as_text(message.get("content")))
        if match:
            return match.group(1)
    return None


def _model(doc: JSONObject) -> str | None:
    config = doc.get("replay_config")
    if isinstance(config, str):
        config = parse_json_object(config)
    agent = as_dict(config).get("agent")
    model = as_dict(agent).get("model")
    name = as_dict(model).get("name")
    return name if isinstance(name, str) and name else None
