"""``codex exec --json``: the event stream a non-interactive Codex run prints on stdout.

Each line is one thread event, ``{"type": ...}``:

* ``thread.started`` (``thread_id``), ``turn.started``, ``turn.completed``
  (``usage``), ``turn.failed`` (``error.message``), ``error`` (``message``:
  the stream itself failed);
* ``item.started`` / ``item.updated`` / ``item.completed``, each with one
  ``item`` (``id``, ``type``, and the fields of its type):

  - ``command_execution``: ``command`` (the shell's whole command line,
    ``/bin/zsh -lc '...'``), ``aggregated_output``, ``exit_code``,
    ``status`` (``in_progress``, ``completed``, ``failed``, ``declined``);
  - ``file_change``: ``changes`` (``path``, ``kind``: ``add``, ``delete``,
    ``update``) and ``status`` (``completed`` or ``failed``: a failed one
    changed nothing); recent versions print only its completion;
  - ``mcp_tool_call``: ``server``, ``tool``, ``arguments``, ``result``
    (``content`` blocks), ``error`` (``message``), ``status``;
  - ``collab_tool_call`` (sub-agents), ``web_search`` (``query``);
  - ``agent_message``, ``reasoning``, ``plan``: ``text``;
  - ``todo_list``: ``items`` (``text``, ``completed``), the whole list each
    time it changes;
  - ``error``: a non-fatal error.

It is the same session a rollout records, told differently: it names no
working directory, model or version and does not hold the prompt.  So it is
read into the events a rollout gives (a command is an ``exec_command`` call,
a file change an ``apply_patch`` call whose result carries the changes the
harness reported, the to-do list an ``update_plan`` call) by a reader of its
own.  Scripts that capture it often mix their own stderr lines in; those are
not JSON and are counted as skipped.

The stream needs no look-ahead: every record's events are settled when it is
read, so a followed stream hands them on as they come (:class:`ExecStream`).
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from artifact_index.ingestion.adapters.base import TurnCounter, as_text
from artifact_index.ingestion.adapters.codex.growing_rollout import CodexStream
from artifact_index.ingestion.adapters.codex.records import record_of
from artifact_index.ingestion.adapters.failures import classify_failure
from artifact_index.ingestion.adapters.narrowing import as_dict, as_int, as_list, as_str
from artifact_index.ingestion.events import (
    AssistantMessage,
    Event,
    FailureReason,
    FileAction,
    FileOperation,
    JSONObject,
    ReportedChange,
    ResultStatus,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
)
from artifact_index.ingestion.source import Skipped
from artifact_index.ingestion.vocabulary import operations_for

__all__ = [
    "CodexRecordStream",
    "ExecReader",
    "ExecStream",
    "is_exec_event",
    "layout_is_exec_stream",
]

_THREAD_EVENTS = {"thread.started", "turn.started", "turn.completed", "turn.failed", "error"}
_ITEM_EVENTS = {"item.started", "item.updated", "item.completed"}
# Events of the stream that carry nothing for the trail.
_QUIET_EVENTS = {"item.plan.delta", "request_user_input"}

_CALL_ITEMS = {
    "command_execution",
    "file_change",
    "mcp_tool_call",
    "collab_tool_call",
    "web_search",
}
_TEXT_ITEMS = {"agent_message", "plan"}
_KNOWN_ITEMS = _CALL_ITEMS | _TEXT_ITEMS | {"reasoning", "todo_list", "error"}

# The shells Codex wraps a command in (``/bin/bash -lc 'script'``): the script is what ran.
_POSIX_SHELLS = {"bash", "sh", "zsh", "dash", "ksh", "fish"}
_POWERSHELLS = {"pwsh", "powershell"}

_Change = Literal["created", "modified", "deleted"]
_CHANGE_OF_KIND: dict[str, _Change] = {"add": "created", "delete": "deleted", "update": "modified"}
_ACTION_OF_CHANGE: dict[_Change, FileAction] = {
    "created": "create",
    "deleted": "delete",
    "modified": "edit",
}


def is_exec_event(obj: Any) -> bool:
    """Whether ``obj`` is a line of the exec stream: a thread event, or an item event holding an item."""
    kind = as_str(obj.get("type")) if isinstance(obj, dict) else None
    if kind is None:
        return False
    if kind == "thread.started":
        return isinstance(obj.get("thread_id"), str)
    if kind in _ITEM_EVENTS:
        item = obj.get("item")
        return isinstance(item, dict) and isinstance(item.get("type"), str)
    return kind in ("turn.started", "turn.completed", "turn.failed") and set(obj) <= {
        "type",
        "usage",
        "error",
    }


def _script(command: str) -> str:
    """The script of ``<shell> -lc 'script'`` (how Codex writes every command), else the command."""
    try:
        argv = shlex.split(command)
    except ValueError:
        return command
    if len(argv) != 3:
        return command
    program = argv[0].replace("\\", "/").rsplit("/", 1)[-1].lower().removesuffix(".exe")
    flag = argv[1].lower()
    if (program in _POSIX_SHELLS and flag in ("-c", "-lc")) or (
        program in _POWERSHELLS and flag in ("-command", "-c")
    ):
        return argv[2]
    return command


def _changes(item: JSONObject) -> tuple[ReportedChange, ...]:
    """A file change's ``changes`` as the harness's own record of what it did."""
    out: list[ReportedChange] = []
    for change in as_list(item.get("changes")):
        entry = as_dict(change)
        path = as_str(entry.get("path"))
        kind = _CHANGE_OF_KIND.get(str(entry.get("kind") or "").lower())
        if path is not None and kind is not None:
            out.append(ReportedChange(path=path, change=kind))
    return tuple(out)


def _change_operations(changes: tuple[ReportedChange, ...]) -> list[FileOperation]:
    """What a file change asked for: the stream names the files and the kind, not the text."""
    return [
        FileOperation(action=_ACTION_OF_CHANGE[c.change], path=c.path, source="patch")
        for c in changes
    ]


@dataclass
class _Call:
    call_id: str
    turn: int
    answered: bool = False


class ExecReader:
    """Exec stream records in, events out, one record at a time (see the module docstring)."""

    def __init__(self) -> None:
        self.skipped: list[Skipped] = []
        self.turns = TurnCounter()
        self.in_response = False
        self.session_emitted = False
        self.calls: dict[str, _Call] = {}
        self.unknown_items: set[str] = set()
        self.plans: dict[str, tuple[tuple[str, bool], ...]] = {}  # to-do list item -> last list
        self.plan_calls = 0
        self.out: list[Event] = []

    def read(self, records: Iterable[tuple[int, Any]]) -> Iterator[Event]:
        for line, obj in records:
            yield from self.record_events(line, obj)
        yield from self.end()

    def record_events(self, line: int, obj: Any) -> list[Event]:
        """The events of one line of the stream (none, when it is not one of its events)."""
        kind = as_str(obj.get("type")) if isinstance(obj, dict) else None
        if kind is None or not (
            kind in _THREAD_EVENTS or kind in _ITEM_EVENTS or kind in _QUIET_EVENTS
        ):
            self.skipped.append(Skipped(line, "not a Codex exec event"))
            return []
        if not self.session_emitted:
            self.session_emitted = True
            thread = as_str(obj.get("thread_id")) if kind == "thread.started" else None
            self.out.append(SessionInfo(turn=0, line=line, session_id=thread, agent="codex"))
        if kind == "turn.started":
            # The prompt that starts a turn is not in the stream, but it is a turn of its own.
            self.in_response = False
            self.turns.user()
        elif kind == "turn.completed":
            self.in_response = False
        elif kind == "turn.failed":
            message = as_str(as_dict(obj.get("error")).get("message")) or "no reason given"
            self.notice(line, f"[turn failed: {message}]")
        elif kind == "error":
            self.notice(line, f"[error: {as_str(obj.get('message')) or 'no reason given'}]")
        elif kind in _ITEM_EVENTS:
            self.item(line, str(kind), as_dict(obj.get("item")))
        return self.handed_on()

    def handed_on(self) -> list[Event]:
        out, self.out = self.out, []
        return out

    def end(self) -> list[Event]:
        """Calls still open when the stream ends (the run was stopped): nothing says what they did."""
        for call in self.calls.values():
            if not call.answered:
                call.answered = True
                self.out.append(ToolResult(turn=call.turn, call_id=call.call_id, status="unknown"))
        return self.handed_on()

    def model_turn(self) -> int:
        if not self.in_response:
            self.in_response = True
            return self.turns.assistant()
        return self.turns.current

    def notice(self, line: int, text: str) -> None:
        """What the harness said went wrong, on the user's side as Codex's own notices are."""
        self.in_response = False
        self.out.append(UserMessage(turn=self.turns.current, line=line, text=text, synthetic=True))

    # -- items -----------------------------------------------------------------

    def item(self, line: int, event: str, item: JSONObject) -> None:
        item_type = as_str(item.get("type")) or ""
        item_id = as_str(item.get("id"))
        if item_id is None:
            self.skipped.append(Skipped(line, f"Codex exec {item_type or 'item'} without an id"))
            return
        if item_type not in _KNOWN_ITEMS:
            if item_id not in self.unknown_items:
                self.unknown_items.add(item_id)
                self.skipped.append(Skipped(line, f"Codex exec item of unknown type {item_type!r}"))
            return
        if item_type == "todo_list":
            self.todo_list(line, item_id, item)
        elif item_type in _CALL_ITEMS:
            call = self.calls.get(item_id)
            if call is None:
                call = self.call(line, item_id, item_type, item)
            if event == "item.completed" and not call.answered:
                call.answered = True
                self.result(line, call, item_type, item)
        elif event != "item.completed":
            if item_type == "reasoning":
                self.model_turn()
        elif item_type in _TEXT_ITEMS:
            turn = self.model_turn()
            text = as_str(item.get("text"))
            if text is not None and text.strip():
                self.out.append(AssistantMessage(turn=turn, line=line, text=text))
        elif item_type == "reasoning":
            self.model_turn()
        elif item_type == "error":
            self.notice(line, f"[error: {as_str(item.get('message')) or 'no reason given'}]")

    def call(self, line: int, item_id: str, item_type: str, item: JSONObject) -> _Call:
        call = self.calls[item_id] = _Call(call_id=item_id, turn=self.model_turn())
        operations: list[FileOperation] = []
        arguments: JSONObject
        if item_type == "command_execution":
            command = as_str(item.get("command")) or ""
            tool, arguments = "exec_command", {"command": command}
            if command.strip():
                script = _script(command)
                operations = [FileOperation(action="shell", command=script, source="shell")]
        elif item_type == "file_change":
            changes = _changes(item)
            tool = "apply_patch"
            arguments = {
                "changes": [c for c in as_list(item.get("changes")) if isinstance(c, dict)]
            }
            operations = _change_operations(changes)
        elif item_type == "mcp_tool_call":
            server = as_str(item.get("server")) or "unknown"
            tool = f"mcp__{server}__{as_str(item.get('tool')) or 'unknown'}"
            arguments = as_dict(item.get("arguments"))
            operations = operations_for(tool, arguments)
        elif item_type == "collab_tool_call":
            tool = as_str(item.get("tool")) or "collab_tool"
            arguments = {key: item[key] for key in ("prompt", "receiver_thread_ids") if key in item}
        else:  # web_search
            tool, arguments = "web_search", {"query": as_str(item.get("query")) or ""}
        self.out.append(
            ToolCall(
                turn=call.turn,
                line=line,
                call_id=item_id,
                tool=tool,
                arguments=arguments,
                operations=tuple(operations),
            )
        )
        return call

    def result(self, line: int, call: _Call, item_type: str, item: JSONObject) -> None:
        self.in_response = False  # the model answers what it sees in a new response
        status, failure = _outcome(item_type, item)
        output, exit_code, reported = "", None, None
        if item_type == "command_execution":
            output = as_text(item.get("aggregated_output"))
            exit_code = as_int(item.get("exit_code"))
        elif item_type == "file_change":
            reported = _changes(item) if status == "success" else None
        elif item_type == "mcp_tool_call":
            error = as_str(as_dict(item.get("error")).get("message"))
            output = error or as_text(as_list(as_dict(item.get("result")).get("content")))
        if status == "failure" and failure is None:
            failure = classify_failure(output, default=_DEFAULT_FAILURE.get(item_type, "other"))
        self.out.append(
            ToolResult(
                turn=call.turn,
                line=line,
                call_id=call.call_id,
                status=status,
                output=output,
                exit_code=exit_code,
                failure=failure if status == "failure" else None,
                reported=reported,
            )
        )

    def todo_list(self, line: int, item_id: str, item: JSONObject) -> None:
        """Each new state of the to-do list, as the ``update_plan`` call a rollout records for it."""
        entries = tuple(
            (text, as_dict(entry).get("completed") is True)
            for entry in as_list(item.get("items"))
            if (text := as_str(as_dict(entry).get("text"))) is not None
        )
        if self.plans.get(item_id) == entries:
            return  # the list as it stood (its completion repeats the last update)
        self.plans[item_id] = entries
        self.plan_calls += 1
        call_id = f"{item_id}#{self.plan_calls}"
        turn = self.model_turn()
        plan = [
            {"step": text, "status": "completed" if done else "pending"} for text, done in entries
        ]
        self.out.append(
            ToolCall(
                turn=turn, line=line, call_id=call_id, tool="update_plan", arguments={"plan": plan}
            )
        )
        self.out.append(
            ToolResult(
                turn=turn, line=line, call_id=call_id, status="success", output="Plan updated"
            )
        )
        self.in_response = False


_DEFAULT_FAILURE: dict[str, FailureReason] = {
    "command_execution": "exit_status",
    "file_change": "verification",
}


def _outcome(item_type: str, item: JSONObject) -> tuple[ResultStatus, FailureReason | None]:
    """How a completed call ended, from its ``status`` (and a command's exit code)."""
    status = str(item.get("status") or "").lower()
    if status == "declined":
        return "failure", "rejected"
    if item_type == "command_execution":
        exit_code = as_int(item.get("exit_code"))
        if exit_code is not None:
            return ("success", None) if exit_code == 0 else ("failure", "exit_status")
    if status == "failed":
        return "failure", None
    if status in ("completed", "") or item_type == "web_search":
        return "success", None
    return "unknown", None


class ExecStream:
    """An exec stream read as it grows: each record's events are settled as soon as it is read."""

    def __init__(self) -> None:
        self.reader = ExecReader()
        self.skipped = self.reader.skipped

    @property
    def holding(self) -> bool:
        return False  # nothing waits for a later record

    def add(self, records: Sequence[tuple[int, Any]]) -> list[Event]:
        events: list[Event] = []
        for line, obj in records:
            events.extend(self.reader.record_events(line, obj))
        return events

    def finish(self) -> list[Event]:
        return self.reader.end()


def layout_is_exec_stream(records: Iterable[tuple[int, Any]]) -> bool | None:
    """Whether the first record that says which Codex layout it is says the exec stream.

    None when no record says yet (a followed file's first lines may be a
    script's own output).
    """
    for line, obj in records:
        if is_exec_event(obj):
            return True
        if record_of(line, obj)[1]:
            return False
    return None


class CodexRecordStream:
    """A Codex transcript followed as it grows, in whichever layout its first records show.

    Records that show neither layout yet are held, then read by the stream
    of the layout that shows: what reading the file whole gives.
    """

    def __init__(self) -> None:
        self.skipped: list[Skipped] = []
        self.held: list[tuple[int, Any]] = []
        self.chosen: ExecStream | CodexStream | None = None

    @property
    def holding(self) -> bool:
        """Whether records read so far still wait for later ones to give their events."""
        return bool(self.held) or (self.chosen is not None and self.chosen.holding)

    def add(self, records: Sequence[tuple[int, Any]]) -> list[Event]:
        if self.chosen is not None:
            return self.chosen.add(records)
        self.held.extend(records)
        exec_stream = layout_is_exec_stream(self.held)
        if exec_stream is None:
            return []
        return self.choose(ExecStream() if exec_stream else CodexStream())

    def finish(self) -> list[Event]:
        if self.chosen is None:
            events = self.choose(CodexStream())
            return events + self.finish()
        return self.chosen.finish()

    def choose(self, stream: ExecStream | CodexStream) -> list[Event]:
        self.chosen, held, self.held = stream, self.held, []
        self.skipped = stream.skipped
        return stream.add(held)
