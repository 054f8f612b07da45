"""SWE-agent trajectories (``.traj``): the 0.x ACI and the 1.x tool bundles.

A trajectory is one JSON document ``{"environment", "trajectory": [step...],
"history": [message...], "info": {...}}``.  Each step holds the model's
``thought``, the ``action`` it ran and the ``observation`` it got back, plus
a ``state`` (working directory, open file and, with the ``diff_state`` tool,
the repository's whole ``git diff`` after the step).

Actions are command lines run in one persistent bash session, so the tool
has to be read out of the text:

* the 0.x / windowed ACI: ``open PATH [LINE]``, ``goto``, ``scroll_up`` and
  ``scroll_down`` read the *open file*; ``create PATH`` creates and opens a
  file; ``edit N:M`` ... ``end_of_edit`` replaces lines of the open file, and
  the windowed variants ``edit 'SEARCH' 'REPLACE'`` and ``insert 'TEXT'``
  change it too; ``search_file`` reads it; ``find_file``, ``search_dir`` and
  ``submit`` touch nothing;
* 1.x ``str_replace_editor SUB PATH --flag VALUE`` with shell-quoted values;
* anything else is a shell command, left to the shell module.

Function-calling runs also record the OpenAI ``tool_calls`` in ``history``;
their JSON arguments are exact, so they are preferred over re-parsing the
command line.  Steps are numbered from 1 in ``line``.
"""

from __future__ import annotations

import ast
import json
import posixpath
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from artifact_index.ingestion.adapters import register
from artifact_index.ingestion.adapters.base import Adapter, TurnCounter, as_text, parse_json_object
from artifact_index.ingestion.adapters.failures import classify_failure
from artifact_index.ingestion.adapters.str_replace_editor import (
    editor_failure,
    is_directory_listing,
    parse_editor_command_line,
)
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
    WorkingDirectory,
)
from artifact_index.ingestion.patches import strip_diff_prefix
from artifact_index.ingestion.source import Source
from artifact_index.ingestion.vocabulary import operations_for

__all__ = ["SweAgentAdapter", "diff_changes", "split_commands"]

# Commands of SWE-agent's tool bundles that the adapter understands; any
# other first word makes the text a shell command.
_TOOLS = frozenset(
    {
        "open", "goto", "scroll_up", "scroll_down", "create", "edit", "insert",
        "search_file", "search_dir", "find_file", "submit", "set_cursors", "filemap",
        "str_replace_editor",
    }
)
_NO_FILE_TOOLS = frozenset({"search_dir", "find_file", "submit", "set_cursors"})

# "[File: /repo/src/x.py (1997 lines total)]" heads every window the ACI prints.
_FILE_HEADER = re.compile(r"^\[File: (.+?) \(\d+ lines total(?: after edit)?\)\]", re.MULTILINE)
_NUMBERED_LINE = re.compile(r"^(\d+):", re.MULTILINE)
_LINE_RANGE_EDIT = re.compile(r"^edit(?:\s+(\d+)\s*(?::|\s)\s*(\d+))?\s*$")

# Sentences of the ACI scripts (config/commands/*.sh, tools/windowed*) that
# mean the command did nothing, with why.
_ACI_FAILURES: tuple[tuple[FailureReason, re.Pattern[str]], ...] = (
    ("verification", re.compile(r"introduced new syntax error|changes have NOT been applied", re.I)),
    ("not_found", re.compile(r"^Your edit was not applied.*not found|^File .* not found", re.I | re.M)),
    ("not_unique", re.compile(r"more than one occurrence", re.I)),
    (
        "invalid",
        re.compile(
            r"^(?:Usage: |No file open|No file opened|Error: |Search text must not be empty|"
            r"Your search and replace strings are the same|goto allows only one)",
            re.I | re.M,
        ),
    ),
)

# Harness messages that replace a shell command's output.
_SHELL_NOT_RUN = re.compile(r"^Your bash command contained syntax errors and was NOT executed", re.M)
_SHELL_TIMEOUT = re.compile(r"was cancelled because it took more than \d+ seconds|^EXECUTION TIMED OUT", re.M)


@dataclass
class _Command:
    """One tool invocation (or shell command) inside a step's action."""

    name: str  # a tool of _TOOLS, or "bash"
    arguments: dict[str, Any]
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


@register
class SweAgentAdapter(Adapter):
    name = "swe-agent"
    description = "SWE-agent .traj trajectories (0.x ACI, 1.x str_replace_editor / function calling)"
    priority = 20

    def sniff(self, source: Source) -> bool:
        doc = source.document
        if not isinstance(doc, dict) or not isinstance(doc.get("trajectory"), list):
            return False
        if not ({"history", "info", "environment"} & doc.keys()):
            return False
        steps = doc["trajectory"]
        return not steps or any(isinstance(step, dict) and "action" in step for step in steps[:5])

    def events(self, source: Source) -> Iterator[Event]:
        doc = source.document
        if not isinstance(doc, dict) or not isinstance(doc.get("trajectory"), list):
            source.skip(None, "not a SWE-agent trajectory (no 'trajectory' list)")
            return
        yield from _Reader(source, doc).events()


class _Reader:
    def __init__(self, source: Source, doc: dict[str, Any]) -> None:
        self.source = source
        self.doc = doc
        self.steps: list[Any] = doc["trajectory"]
        self.states = [_state(step.get("state")) if isinstance(step, dict) else {} for step in self.steps]
        history = doc.get("history")
        history = history if isinstance(history, list) else []
        self.history = [m for m in history if isinstance(m, dict) and not m.get("is_demo")]
        self.turns = TurnCounter()
        root = _root(doc, self.states, self.history)
        self.ctx = _Context(root=root, cwd=root)
        self.after = _state_is_after(self.steps, self.states, doc)

    # -- the stream ---------------------------------------------------------------
    def events(self) -> Iterator[Event]:
        info = _dict(self.doc.get("info"))
        yield SessionInfo(
            turn=0,
            session_id=_text(self.doc.get("environment")) or None,
            agent="swe-agent",
            cwd=self.ctx.root,
            model=_model(self.doc),
            version=_text(info.get("swe_agent_version")) or None,
        )
        prompt = self._prompt()
        if prompt:
            yield UserMessage(turn=self.turns.user(), text=prompt)
        tool_calls = self._aligned_tool_calls()
        diff_before: dict[str, _FileDiff] = {}
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
                reported = _reported(diff_before, diff_after, self.ctx.root) or None
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
    def _commands(self, action: str, call: dict[str, Any] | None) -> list[_Command]:
        if call is not None:
            function = _dict(call.get("function"))
            name = str(function.get("name") or "")
            arguments = parse_json_object(function.get("arguments"))
            if (name in _TOOLS and name != "str_replace_editor") or (
                name == "str_replace_editor" and arguments.get("command")
            ):
                return [_Command(name, _normalise(name, arguments), action.strip(), self.ctx.cwd)]
            if name == "bash" and isinstance(arguments.get("command"), str):
                action = arguments["command"]
        return self._parse_text(action)

    def _parse_text(self, action: str) -> list[_Command]:
        text = action.strip()
        whole = _parse_tool(text)
        if whole is not None:
            return [_Command(whole[0], whole[1], text, self.ctx.cwd)]
        segments = split_commands(text)
        parsed = [(segment, _parse_tool(segment)) for segment in segments]
        if len(segments) < 2 or not any(tool for _, tool in parsed):
            return [_Command("bash", {"command": text}, text, self.ctx.cwd)]
        # A tool mixed with shell commands ("cd /x && create foo"): each part
        # runs in the directory the parts before it left.  The `cd` stays a
        # shell command so the tracker's own directory follows it too.
        commands: list[_Command] = []
        cwd = self.ctx.cwd
        for segment, tool in parsed:
            directory = _cd_target(segment)
            if tool is None:
                commands.append(_Command("bash", {"command": segment}, segment, cwd))
            else:
                commands.append(_Command(tool[0], tool[1], segment, cwd))
            if directory is not None:
                cwd = _change_directory(cwd, directory)
        return commands

    def _call_id(self, call: dict[str, Any] | None, line: int) -> str:
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
        if name in _NO_FILE_TOOLS:
            return []
        if name == "str_replace_editor":
            ops = operations_for("str_replace_editor", args)
            if observation is not None and is_directory_listing(observation):
                return []
            return [op.model_copy(update={"path": self._path(op.path, cwd)}) if op.path else op for op in ops]
        if name in ("open", "create", "filemap"):
            target = _first_str(args, "path", "filename", "file_path", "file")
            if not target:
                return []
            path: str | None = self._path(target, cwd)
            if name == "create":
                # The ACI writes one empty line: the file shows "(1 lines total)".
                return [FileOperation(action="create", path=path, content="\n")]
            start, end = _window(observation)
            return [FileOperation(action="read", path=path, start_line=start, end_line=end)]
        if name in ("goto", "scroll_up", "scroll_down", "search_file"):
            target = _first_str(args, "file") if name == "search_file" else None
            path = self._path(target, cwd) if target else self._open_file(observation)
            if not path:
                return []
            start, end = _window(observation) if name != "search_file" else (None, None)
            return [FileOperation(action="read", path=path, start_line=start, end_line=end)]
        if name in ("edit", "insert"):
            path = self._open_file(observation)
            if not path:
                return []
            return [_edit_operation(name, args, path, self.ctx.cursor)]
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
            target = header.group(1) if header else _first_str(args, "path", "filename")
            if target:
                self.ctx.open_file = self._path(target, command.cwd)
        elif name == "set_cursors" and status != "failure":
            start, end = _int(args.get("start")), _int(args.get("end"))
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
            reason = _aci_failure(observation)
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

    def _aligned_tool_calls(self) -> dict[int, dict[str, Any]]:
        """Step index -> the OpenAI tool call recorded for that step in ``history``."""
        assistants = [m for m in self.history if m.get("role") == "assistant"]
        aligned: dict[int, dict[str, Any]] = {}
        position = 0
        for index, step in enumerate(self.steps):
            action = step.get("action") if isinstance(step, dict) else None
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


# -- helpers ---------------------------------------------------------------------------------------
def _state(raw: Any) -> dict[str, Any]:
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
        return value if isinstance(value, dict) else {}
    return {}


def _state_is_after(steps: list[Any], states: list[dict[str, Any]], doc: dict[str, Any]) -> bool:
    """Whether a step's ``state`` was taken after its action (1.x) or before it (0.x).

    Decided by the open file: after ``open X`` the state names X either in
    the same step (after) or only in the next one (before).
    """
    after = before = 0
    for index, step in enumerate(steps):
        action = step.get("action") if isinstance(step, dict) else None
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


_CURRENT_DIRECTORY = re.compile(r"\(Current directory: (/[^)\n]*)\)")


def _root(doc: dict[str, Any], states: list[dict[str, Any]], history: list[dict[str, Any]]) -> str | None:
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
        name = repo.get("repo_name") if isinstance(repo, dict) else None
        if isinstance(name, str) and name:
            return name if name.startswith("/") else "/" + name
    for message in history:
        match = _CURRENT_DIRECTORY.search(as_text(message.get("content")))
        if match:
            return match.group(1)
    return None


def _model(doc: dict[str, Any]) -> str | None:
    config = doc.get("replay_config")
    if isinstance(config, str):
        config = parse_json_object(config)
    agent = config.get("agent") if isinstance(config, dict) else None
    model = agent.get("model") if isinstance(agent, dict) else None
    name = model.get("name") if isinstance(model, dict) else None
    return name if isinstance(name, str) and name else None


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(r"\s*-?\d+\s*", value):
        return int(value)
    return None


def _first_str(arguments: dict[str, Any], *keys: str) -> str | None:
    for key in keys:
        value = arguments.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def _normalise(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """Function-calling argument names, made the same as the parsed command line's."""
    args = dict(arguments)
    if name == "edit" and "replace-all" in args:
        args["replace_all"] = args.pop("replace-all")
    return args


def _shlex(text: str) -> list[str] | None:
    try:
        return shlex.split(text, posix=True)
    except ValueError:
        return None


def _parse_tool(text: str) -> tuple[str, dict[str, Any]] | None:
    """``(tool, arguments)`` when ``text`` is one SWE-agent tool invocation."""
    first = text.split(maxsplit=1)[0] if text.split() else ""
    if first not in _TOOLS:
        return None
    if first == "str_replace_editor":
        editor = parse_editor_command_line(text)
        return (first, editor) if editor is not None else None
    header, _, body = text.partition("\n")
    if first == "edit":
        match = _LINE_RANGE_EDIT.match(header.strip())
        if match and body:
            lines = body.split("\n")
            end = next((i for i, line in enumerate(lines) if line.strip() == "end_of_edit"), len(lines))
            args: dict[str, Any] = {"replacement_text": "\n".join(lines[:end])}
            if match.group(1):
                args["start_line"], args["end_line"] = int(match.group(1)), int(match.group(2))
            return first, args
    tokens = _shlex(text)
    if tokens is None:
        return None
    rest = tokens[1:]
    if first == "edit":
        if len(rest) in (2, 3):
            replace_all = len(rest) == 3 and rest[2].strip().lower() in ("true", "1", "yes")
            return first, {"search": rest[0], "replace": rest[1], "replace_all": replace_all}
        return first, {}
    keys = {
        "open": ("path", "line_number"),
        "create": ("filename",),
        "goto": ("line_number",),
        "insert": ("text", "line"),
        "search_file": ("search_term", "file"),
        "search_dir": ("search_term", "dir"),
        "find_file": ("file_name", "dir"),
        "set_cursors": ("start", "end"),
        "filemap": ("file_path",),
    }.get(first, ())
    return first, dict(zip(keys, rest, strict=False))


def _edit_operation(name: str, args: dict[str, Any], path: str, cursor: tuple[int, int] | None) -> FileOperation:
    if name == "insert":
        text = args.get("text")
        line = _int(args.get("line"))
        detail = f"insert after line {line}" if line is not None else "insert"
        return FileOperation(
            action="edit", path=path, new=text if isinstance(text, str) else None, start_line=line, detail=detail
        )
    if "search" in args:
        return FileOperation(
            action="edit",
            path=path,
            old=str(args.get("search", "")),
            new=str(args.get("replace", "")),
            replace_all=bool(args.get("replace_all")),
        )
    start, end = _int(args.get("start_line")), _int(args.get("end_line"))
    if start is None and cursor is not None:
        start, end = cursor
    replacement = args.get("replacement_text")
    detail = f"replace lines {start}-{end}" if start is not None else "replace the selected lines"
    return FileOperation(
        action="edit",
        path=path,
        new=replacement if isinstance(replacement, str) else None,
        start_line=start,
        end_line=end,
        detail=detail,
    )


def _window(observation: str | None) -> tuple[int | None, int | None]:
    """The first and last numbered line an ACI window showed."""
    if not observation:
        return None, None
    numbers = [int(n) for n in _NUMBERED_LINE.findall(observation)]
    return (numbers[0], numbers[-1]) if numbers else (None, None)


def _aci_failure(observation: str) -> FailureReason | None:
    head = "\n".join(observation.strip().splitlines()[:4])
    for reason, pattern in _ACI_FAILURES:
        if pattern.search(head):
            return reason
    if re.match(r"\s*(?:Error|ERROR)\b", head):
        return classify_failure(head)
    return None


def _change_directory(cwd: str | None, target: str) -> str | None:
    if target.startswith("/"):
        return posixpath.normpath(target)
    if cwd is None or target.startswith("~") or target == "-":
        return None
    return posixpath.normpath(posixpath.join(cwd, target))


def _cd_target(segment: str) -> str | None:
    tokens = _shlex(segment)
    if tokens and tokens[0] == "cd" and len(tokens) == 2:
        return tokens[1]
    return None


def split_commands(text: str) -> list[str]:
    """``text`` cut at top-level ``&&``, ``||``, ``;`` and newlines.

    Quotes are respected; from a here-document (``<<``) on, the rest stays
    one piece because its body is not shell syntax.  Pipes stay inside a
    piece.
    """
    pieces: list[str] = []
    current: list[str] = []
    quote: str | None = None
    i = 0
    while i < len(text):
        char = text[i]
        if quote:
            current.append(char)
            if char == "\\" and quote == '"' and i + 1 < len(text):
                current.append(text[i + 1])
                i += 1
            elif char == quote:
                quote = None
        elif char == "\\" and i + 1 < len(text):
            current.extend((char, text[i + 1]))
            i += 1
        elif char in "'\"":
            quote = char
            current.append(char)
        elif text.startswith("<<", i):
            current.append(text[i:])
            break
        elif text.startswith(("&&", "||"), i) or char in ";\n":
            pieces.append("".join(current))
            current = []
            if char in "&|":
                i += 1
        else:
            current.append(char)
        i += 1
    pieces.append("".join(current))
    return [piece.strip() for piece in pieces if piece.strip()]


# -- the diff_state record -------------------------------------------------------------------------
@dataclass(frozen=True)
class _FileDiff:
    change: Literal["created", "modified", "deleted"]
    move_to: str | None
    section: str


def diff_changes(diff: str) -> dict[str, _FileDiff]:
    """Per-file sections of a ``git diff``: path -> how it differs from HEAD."""
    files: dict[str, _FileDiff] = {}
    for section in re.split(r"(?m)^(?=diff --git )", diff):
        if not section.startswith("diff --git "):
            continue
        lines = section.splitlines()
        old = new = None
        rename_from = rename_to = None
        for line in lines[1:]:
            if line.startswith("@@"):
                break
            if line.startswith("--- "):
                old = line[4:].split("\t")[0]
            elif line.startswith("+++ "):
                new = line[4:].split("\t")[0]
            elif line.startswith("rename from "):
                rename_from = line[len("rename from "):]
            elif line.startswith("rename to "):
                rename_to = line[len("rename to "):]
        header = lines[0][len("diff --git "):]
        if old is None or new is None:
            half = _header_paths(header)
            old = old or (half[0] if half else None)
            new = new or (half[1] if half else None)
        head = "\n".join(lines[:6])
        if rename_from and rename_to:
            files[rename_from] = _FileDiff("modified", rename_to, section.rstrip("\n"))
        elif "\nnew file mode" in head and new and new != "/dev/null":
            files[strip_diff_prefix(new)] = _FileDiff("created", None, section.rstrip("\n"))
        elif "\ndeleted file mode" in head and old and old != "/dev/null":
            files[strip_diff_prefix(old)] = _FileDiff("deleted", None, section.rstrip("\n"))
        elif new and new != "/dev/null":
            files[strip_diff_prefix(new)] = _FileDiff("modified", None, section.rstrip("\n"))
    return files


def _header_paths(header: str) -> tuple[str, str] | None:
    """``a/x b/x`` split in two; for paths with spaces the halves are equal."""
    if header.startswith('"'):
        tokens = _shlex(header)
        return (tokens[0], tokens[1]) if tokens and len(tokens) == 2 else None
    middle = len(header) // 2
    if header[middle] == " " and header[:middle][2:] == header[middle + 1 :][2:]:
        return header[:middle], header[middle + 1 :]
    parts = header.split(" ")
    return (parts[0], parts[-1]) if len(parts) >= 2 else None


def _reported(
    before: dict[str, _FileDiff], after: dict[str, _FileDiff], root: str | None
) -> tuple[ReportedChange, ...]:
    """The files whose diff against HEAD changed during one step."""

    def full(path: str) -> str:
        return posixpath.join(root, path) if root else path

    changes: list[ReportedChange] = []
    for path, now in after.items():
        if before.get(path) == now:
            continue
        change = now.change
        if path in before and change == "created":
            change = "modified"
        changes.append(
            ReportedChange(
                path=full(path),
                change=change,
                move_to=full(now.move_to) if now.move_to else None,
                diff=now.section,
            )
        )
    for path, then in before.items():
        # A file the session created that left the diff was deleted.  A
        # changed file that left it is back to HEAD, which a ReportedChange
        # cannot say; the shell module sees the command that restored it.
        if path not in after and then.change == "created":
            changes.append(ReportedChange(path=full(path), change="deleted"))
    return tuple(changes)
