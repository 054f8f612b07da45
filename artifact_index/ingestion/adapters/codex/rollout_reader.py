"""One pass over a rollout's records, turning them into events: turns, messages, calls and their results."""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from artifact_index.ingestion.adapters.base import TurnCounter, as_text, parse_json_object
from artifact_index.ingestion.adapters.codex.code_cells import (
    cell_commands,
    cell_polls,
    stringified_command,
)
from artifact_index.ingestion.adapters.codex.lookahead import (
    CALL_TYPES,
    ENV_CWD,
    OUTPUT_TYPES,
    RolloutIndex,
)
from artifact_index.ingestion.adapters.codex.outputs import (
    Output,
    operations_of_changes,
    parse_output,
    reported_changes,
)
from artifact_index.ingestion.adapters.codex.records import Record, kind_of
from artifact_index.ingestion.adapters.failures import classify_failure
from artifact_index.ingestion.adapters.narrowing import as_dict
from artifact_index.ingestion.events import (
    POLLED_COMMAND,
    PRINTED_BEFORE,
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
    one_after_another,
)
from artifact_index.ingestion.patches import parse_apply_patch, parse_patch
from artifact_index.ingestion.vocabulary import operations_for, shell_command
from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["Reader"]

# Items the model produces: the first one after a user message or a tool
# output opens a new model response, hence a new turn.
_MODEL_ITEMS = CALL_TYPES | {"reasoning", "web_search_call", "tool_search_call"}

_SHELL_TOOLS = {"exec_command", "shell", "local_shell", "container.exec", "shell_command"}
_PATCH_TOOLS = {"apply_patch", "applypatch"}
_CODE_CELL = "exec"  # code mode: a JavaScript cell calling the tools
_CELL_WAIT = "wait"  # code mode: the rest of a cell's output, when it ran past its time
_SHELL_BINARIES = {"bash", "sh", "zsh", "fish", "dash", "ksh", "pwsh", "powershell", "cmd"}

# Failure sentences Codex itself writes as a call's whole output.
_CODEX_ERRORS = lazy_pattern(
    r"^\s*(exec command rejected by user|patch rejected by user|aborted|execution error"
    r"|apply_patch verification failed|failed to parse function arguments|unsupported call"
    r"|sandbox denied|this action was rejected|failed to find expected lines|invalid patch"
    r"|error: )",
    re.IGNORECASE,
)

# Text Codex injects as a "user" message: instructions, environment, notices.
_SYNTHETIC_USER = lazy_pattern(
    r"^\s*(<[a-z_]+(\s[^>]*)?>|# AGENTS\.md instructions)", re.IGNORECASE
)

# ``apply_patch`` run through the shell tool: Codex intercepts it and applies
# the patch itself (``cd DIR && apply_patch <<'EOF' ... EOF``).
_APPLY_PATCH_COMMAND = lazy_pattern(
    r"^\s*(?:cd\s+(?P<dir>'[^']*'|\"[^\"]*\"|\S+)\s*&&\s*)?(?:apply_patch|applypatch)\b"
)


# How much of what a running command printed before a poll is kept with the poll: a test run's
# summary and its per-package lines, not a build's whole log.
_PRINTED_KEPT = 20_000


@dataclass
class _Call:
    call_id: str
    tool: str
    turn: int
    command: str | None = None  # shell command text, for write_stdin sessions
    cwd: str | None = None
    patch: bool = False  # an apply_patch: its outcome is in patch_apply_end
    shell: bool = False
    answered: bool = False
    # The command of a code cell whose result its output shows (its only one, or the one it
    # prints as JSON), as a shell call of its own: the session a later poll follows.
    shown_command: _Call | None = None
    # A poll: the call that started the command it polls. A started command: what it has
    # printed so far, over its first output and the polls' (a test run's summary spans them).
    polls: _Call | None = None
    printed: str = ""


def _unquote(word: str) -> str:
    if len(word) >= 2 and word[0] == word[-1] and word[0] in "'\"":
        return word[1:-1]
    return word


class Reader:
    """One pass over a rollout, turning records into events."""

    def __init__(self, skip: Callable[[int | None, str], None], index: RolloutIndex) -> None:
        self.skip = skip
        self.index = index
        self.turns = TurnCounter()
        self.in_response = False
        self.cwd: str | None = None
        self.model: str | None = None
        self.session_emitted = False
        self.calls: dict[str, _Call] = {}
        self.exec_sessions: dict[str, _Call] = {}
        self.running_cells: dict[str, _Call] = {}  # code cells still running, by cell id
        self.last_tokens: int | None = None
        self.out: list[Event] = []

    # -- emission ---------------------------------------------------------

    def emit(self, event: Event) -> None:
        self.out.append(event)

    def ensure_session(self, record: Record) -> None:
        if self.session_emitted:
            return
        self.session_emitted = True
        p = record.payload if record.kind == "session_meta" else {}
        session_id = p.get("session_id") or p.get("id")
        version = p.get("cli_version")
        self.cwd, self.model = self.index.cwd_and_model()
        self.emit(
            SessionInfo(
                turn=self.turns.current,
                line=record.line,
                timestamp=record.timestamp,
                session_id=str(session_id) if session_id else None,
                agent="codex",
                cwd=self.cwd,
                model=self.model,
                version=str(version) if version else None,
            )
        )

    def change_cwd(self, record: Record, cwd: Any) -> None:
        if isinstance(cwd, str) and cwd and cwd != self.cwd:
            self.cwd = cwd
            self.emit(
                WorkingDirectory(
                    turn=self.turns.current, line=record.line, timestamp=record.timestamp, cwd=cwd
                )
            )

    def model_turn(self) -> int:
        if not self.in_response:
            self.in_response = True
            return self.turns.assistant()
        return self.turns.current

    # -- the pass -----------------------------------------------------------

    def read(self, records: Iterable[Record]) -> Iterator[Event]:
        """The events, handed on record by record (a long rollout is never held whole)."""
        for record in records:
            events = self.record_events(record)
            if events:
                yield from events
        self.finish()
        yield from self._handed_on()

    def record_events(self, record: Record) -> list[Event]:
        """The events of one record."""
        if not self.session_emitted:
            self.ensure_session(record)
        _HANDLERS[record.kind](self, record)
        return self._handed_on()

    def _handed_on(self) -> list[Event]:
        out, self.out = self.out, []
        return out

    def on_session_meta(self, record: Record) -> None:
        # A resumed session repeats the meta line; only a new cwd matters.
        self.change_cwd(record, record.payload.get("cwd"))

    def on_turn_context(self, record: Record) -> None:
        self.change_cwd(record, record.payload.get("cwd"))
        if isinstance(model := record.payload.get("model"), str):
            self.model = model

    def on_compacted(self, record: Record) -> None:
        message = record.payload.get("message")
        self.emit(
            CompactionBoundary(
                turn=self.turns.current,
                line=record.line,
                timestamp=record.timestamp,
                pre_tokens=self.last_tokens,
                summary=message if isinstance(message, str) and message else None,
            )
        )

    def on_event_msg(self, record: Record) -> None:
        p = record.payload
        kind = kind_of(p)
        if kind == "user_message" and not self.index.user_items():
            self.user_message(record, str(p.get("message") or ""))
        elif kind == "agent_message" and not self.index.assistant_items():
            self.assistant_message(record, str(p.get("message") or ""))
        elif kind == "token_count":
            info = p.get("info")
            usage = as_dict(info).get("last_token_usage")
            total = as_dict(usage).get("total_tokens")
            if isinstance(total, int):
                self.last_tokens = total
        elif kind == "context_compacted" and not self.index.compacted():
            self.emit(
                CompactionBoundary(
                    turn=self.turns.current,
                    line=record.line,
                    timestamp=record.timestamp,
                    pre_tokens=self.last_tokens,
                )
            )
        elif kind == "patch_apply_end":
            self.orphan_patch_end(record)
        elif kind == "exec_command_end":
            self.user_shell_command(record)

    def on_response_item(self, record: Record) -> None:
        p = record.payload
        kind = kind_of(p)
        self.index.saw_item(kind, p)
        if kind == "message":
            role = p.get("role")
            text = as_text(p.get("content"))
            if role == "user":
                self.user_message(record, text)
            elif role == "assistant":
                self.assistant_message(record, text)
        elif kind in CALL_TYPES:
            self.tool_call(record)
        elif kind in OUTPUT_TYPES:
            self.tool_output(record)
        elif kind in _MODEL_ITEMS:
            self.model_turn()

    # -- messages -----------------------------------------------------------

    def user_message(self, record: Record, text: str) -> None:
        if not text.strip():
            return
        self.in_response = False
        synthetic = bool(_SYNTHETIC_USER.match(text)) and not self.index.is_typed(text)
        self.emit(
            UserMessage(
                turn=self.turns.user(),
                line=record.line,
                timestamp=record.timestamp,
                text=text,
                synthetic=synthetic,
            )
        )
        found = ENV_CWD.search(text) if synthetic else None
        if found:
            self.change_cwd(record, found.group(1).strip())

    def assistant_message(self, record: Record, text: str) -> None:
        turn = self.model_turn()
        if text.strip():
            self.emit(
                AssistantMessage(
                    turn=turn,
                    line=record.line,
                    timestamp=record.timestamp,
                    text=text,
                    model=self.model,
                )
            )

    # -- tool calls -----------------------------------------------------------

    def tool_call(self, record: Record) -> None:
        p = record.payload
        kind = kind_of(p)
        call_id = p.get("call_id") or p.get("id")
        if not isinstance(call_id, str) or not call_id:
            self.skip(record.line, f"Codex {kind} without a call_id")
            return
        if kind == "local_shell_call":
            action = p.get("action")
            tool = "local_shell"
            arguments = dict(action) if isinstance(action, dict) else {}
        else:
            tool = str(p.get("name") or "unknown")
            if kind == "custom_tool_call":
                raw = p.get("input")
                arguments = {"input": raw if isinstance(raw, str) else json.dumps(raw)}
            else:
                arguments = parse_json_object(p.get("arguments"))
        call = _Call(call_id=call_id, tool=tool, turn=self.model_turn())
        operations = self.operations(call, arguments)
        polled = self.polled_call(tool, arguments)
        if polled is not None and polled.command is not None:
            call.polls = polled
            arguments = {**arguments, POLLED_COMMAND: polled.command}
            if polled.printed:
                arguments[PRINTED_BEFORE] = polled.printed[-_PRINTED_KEPT:]
        self.calls[call_id] = call
        self.emit(
            ToolCall(
                turn=call.turn,
                line=record.line,
                timestamp=record.timestamp,
                call_id=call_id,
                tool=tool,
                arguments=arguments,
                operations=tuple(operations),
            )
        )

    def operations(self, call: _Call, arguments: JSONObject) -> list[FileOperation]:
        name = call.tool.lower()
        if name in _PATCH_TOOLS:
            call.patch = True
            return operations_for("apply_patch", arguments, self.cwd)
        if name == "write_stdin":
            return self.stdin_operations(call, arguments)
        if name == _CODE_CELL and isinstance(cell := arguments.get("input"), str):
            return self.cell_operations(call, cell)
        if name not in _SHELL_TOOLS:
            return operations_for(call.tool, arguments, self.cwd)
        workdir = next(
            (
                value
                for k in ("workdir", "working_directory", "cwd")
                if isinstance(value := arguments.get(k), str) and value
            ),
            None,
        )
        cwd = self.resolve(workdir) if workdir else self.cwd
        argv = arguments.get("command")
        if isinstance(argv, list) and len(argv) == 2 and str(argv[0]) in _PATCH_TOOLS:
            call.patch = True
            return self.relocated(parse_patch(str(argv[1])), cwd)
        command = shell_command(arguments)
        if command is None:
            return []
        intercepted = _APPLY_PATCH_COMMAND.match(command)
        if intercepted and "*** Begin Patch" in command:
            call.patch = True
            where = intercepted.group("dir")
            if where:
                cwd = self.resolve(_unquote(where), base=cwd)
            return self.relocated(parse_apply_patch(command), cwd)
        call.command, call.cwd, call.shell = command, cwd, True
        return [FileOperation(action="shell", command=command, cwd=cwd, source="shell")]

    def cell_operations(self, call: _Call, cell: str) -> list[FileOperation]:
        """The commands a code-mode cell runs through ``tools.exec_command``, each as a shell call would be."""
        ops: list[FileOperation] = []
        found_commands = cell_commands(cell)
        shown = 0 if len(found_commands) == 1 else stringified_command(cell, found_commands)
        for at, found in enumerate(found_commands):
            if found.command is None:
                ops.append(
                    FileOperation(
                        action="unknown",
                        source="shell",
                        detail="a code cell runs a command built at run time",
                    )
                )
                continue
            inner = _Call(call_id=call.call_id, tool="exec_command", turn=call.turn)
            arguments: JSONObject = {"cmd": found.command}
            if found.workdir:
                arguments["workdir"] = found.workdir
            ops.extend(self.operations(inner, arguments))
            call.patch = call.patch or inner.patch
            if at == shown and inner.shell:
                call.shown_command = inner
        commands = [found.command for found in found_commands if found.command]
        call.command = one_after_another(commands) if commands else None
        return ops

    def polled_call(self, tool: str, arguments: JSONObject) -> _Call | None:
        """The call that started the shell command whose running session an empty ``write_stdin`` polls, or None.

        Codex gives a long command back still running; what it prints next, and
        how it exits, come as the output of such polls. A ``wait`` on a code
        cell still running polls the cell's commands (one a line).
        """
        if tool.lower() == _CELL_WAIT:
            return self.running_cells.get(str(arguments.get("cell_id")))
        if tool.lower() == _CODE_CELL and isinstance(code := arguments.get("input"), str):
            # A cell that only polls one running session (`tools.write_stdin({session_id, chars: ""})`).
            polled = set(cell_polls(code))
            if len(polled) != 1 or cell_commands(code):
                return None
            started = self.exec_sessions.get(polled.pop())
            return started if started is not None and started.shell else None
        chars = arguments.get("chars")
        if tool.lower() != "write_stdin" or (isinstance(chars, str) and chars.strip()):
            return None
        started = self.exec_sessions.get(str(arguments.get("session_id")))
        return started if started is not None and started.shell else None

    def stdin_operations(self, call: _Call, arguments: JSONObject) -> list[FileOperation]:
        """Text typed into a running unified-exec session.

        It is a command only when that session runs a shell; keystrokes sent
        to a test runner or a REPL change no file by themselves.
        """
        chars = arguments.get("chars")
        if not isinstance(chars, str) or not chars.strip() or not chars.strip().isprintable():
            return []
        started = self.exec_sessions.get(str(arguments.get("session_id")))
        if started is not None and started.command is not None:
            program = (
                posixpath.basename(started.command.split()[0]) if started.command.split() else ""
            )
            if program not in _SHELL_BINARIES:
                return []
        cwd = started.cwd if started is not None else self.cwd
        detail = f"typed into session {arguments.get('session_id')}"
        if started is not None and started.command:
            detail += f" ({started.command})"
        return [
            FileOperation(action="shell", command=chars, cwd=cwd, source="shell", detail=detail)
        ]

    def resolve(self, directory: str, base: str | None = None) -> str:
        base = base if base is not None else self.cwd
        if (
            base
            and not directory.startswith(("/", "~"))
            and not re.match(r"^[A-Za-z]:[\\/]", directory)
        ):
            return posixpath.normpath(posixpath.join(base, directory))
        return directory

    def relocated(self, operations: list[FileOperation], cwd: str | None) -> list[FileOperation]:
        """Patch paths are relative to the command's directory, not the session's."""
        if not cwd or cwd == self.cwd:
            return operations
        out = []
        for op in operations:
            update: dict[str, str] = {}  # the fields of the operation that move
            if op.path:
                update["path"] = self.resolve(op.path, base=cwd)
            if op.dest:
                update["dest"] = self.resolve(op.dest, base=cwd)
            out.append(op.model_copy(update=update))
        return out

    # -- results ---------------------------------------------------------------

    def tool_output(self, record: Record) -> None:
        p = record.payload
        call_id = p.get("call_id")
        self.in_response = False
        call = self.calls.get(call_id) if isinstance(call_id, str) else None
        if call is None:
            self.skip(record.line, f"Codex output for unknown call {call_id!r}")
            return
        if call.answered:
            return  # a second output for the same call adds nothing
        call.answered = True
        output = parse_output(p.get("output"))
        if output.exit_code is None:
            end = self.index.exec_end(call.call_id)
            code = end.get("exit_code") if end else None
            if isinstance(code, int) and not isinstance(code, bool):
                output.exit_code = code
        if output.running_session is not None:
            started = call if call.shell else call.shown_command
            if started is not None:
                self.exec_sessions[output.running_session] = started
                started.printed = output.text
        if call.polls is not None:
            call.polls.printed = f"{call.polls.printed}\n{output.text}"[-_PRINTED_KEPT:]
        if output.running_cell is not None and call.command is not None and not call.shell:
            self.running_cells[output.running_cell] = call
        status, failure = self.outcome(call, output)
        running = output.exit_code is None and output.running_session is not None
        reported = None
        end = self.index.patch_end(call.call_id)
        if end is not None:
            status, failure, reported = self.patch_outcome(end)
        self.emit(
            ToolResult(
                turn=call.turn,
                line=record.line,
                timestamp=record.timestamp,
                call_id=call.call_id,
                status=status,
                output=output.text,
                exit_code=output.exit_code,
                failure=failure,
                reported=reported,
                running=running,
            )
        )

    def outcome(self, call: _Call, output: Output) -> tuple[ResultStatus, FailureReason | None]:
        text = output.text
        if output.exit_code is not None and output.exit_code != 0:
            if call.patch:
                return "failure", classify_failure(text, default="verification")
            if call.shell or call.tool.lower() in _SHELL_TOOLS | {"write_stdin"}:
                return "failure", "exit_status"
            return "failure", classify_failure(text, default="exit_status")
        if output.exit_code is None and _CODEX_ERRORS.match(text):
            default: FailureReason = "verification" if call.patch else "other"
            return "failure", classify_failure(text, default=default)
        return "success", None

    @staticmethod
    def patch_outcome(
        end: JSONObject,
    ) -> tuple[ResultStatus, FailureReason | None, tuple[ReportedChange, ...] | None]:
        if end.get("success") is False:
            message = f"{end.get('stderr') or ''}\n{end.get('stdout') or ''}".strip()
            reason = classify_failure(message, default="verification")
            if str(end.get("status", "")).lower() == "declined":
                reason = "rejected"
            return "failure", reason, None
        return "success", None, reported_changes(end.get("changes"))

    def orphan_patch_end(self, record: Record) -> None:
        """A patch whose outcome only ``patch_apply_end`` records.

        Either its call's output was never written (the session stopped), or
        no call of this rollout made it (a patch applied for another thread
        of the session); the latter becomes a call of its own, built from the
        changes the harness reports.
        """
        p = record.payload
        call_id = p.get("call_id")
        if not isinstance(call_id, str) or self.index.is_answered(call_id):
            return
        call = self.calls.get(call_id)
        if call is None and not self.index.is_called(call_id):
            call = _Call(call_id=call_id, tool="apply_patch", turn=self.turns.current, patch=True)
            self.calls[call_id] = call
            self.emit(
                ToolCall(
                    turn=call.turn,
                    line=record.line,
                    timestamp=record.timestamp,
                    call_id=call_id,
                    tool="apply_patch",
                    arguments={"changes": sorted(as_dict(p.get("changes")))},
                    operations=operations_of_changes(reported_changes(p.get("changes"))),
                )
            )
        if call is None or call.answered:
            return
        call.answered = True
        status, failure, reported = self.patch_outcome(p)
        self.emit(
            ToolResult(
                turn=call.turn,
                line=record.line,
                timestamp=record.timestamp,
                call_id=call_id,
                status=status,
                output=str(p.get("stdout") or p.get("stderr") or ""),
                failure=failure,
                reported=reported,
            )
        )

    def user_shell_command(self, record: Record) -> None:
        """``!cmd`` typed by the user: only ``exec_command_end`` records it."""
        p = record.payload
        call_id = p.get("call_id")
        if str(p.get("source", "")).lower() != "user_shell" or not isinstance(call_id, str):
            return
        if self.index.is_called(call_id):
            return
        argv = p.get("command")
        command = shell_command({"command": argv}) if argv is not None else None
        if command is None:
            return
        cwd = p.get("cwd") if isinstance(p.get("cwd"), str) and p.get("cwd") else self.cwd
        turn = self.turns.current
        self.emit(
            ToolCall(
                turn=turn,
                line=record.line,
                timestamp=record.timestamp,
                call_id=call_id,
                tool="user_shell",
                arguments={"command": argv},
                operations=(
                    FileOperation(action="shell", command=command, cwd=cwd, source="shell"),
                ),
            )
        )
        code = p.get("exit_code")
        exit_code = code if isinstance(code, int) and not isinstance(code, bool) else None
        self.emit(
            ToolResult(
                turn=turn,
                line=record.line,
                timestamp=record.timestamp,
                call_id=call_id,
                status="success" if exit_code in (0, None) else "failure",
                failure=None if exit_code in (0, None) else "exit_status",
                exit_code=exit_code,
                output=str(p.get("aggregated_output") or p.get("formatted_output") or ""),
            )
        )

    def end(self) -> list[Event]:
        """The events the end of the file adds (see :meth:`finish`)."""
        self.finish()
        return self._handed_on()

    def finish(self) -> None:
        # Calls still open when the file ends (an interrupted turn, a file
        # captured mid-session): nothing says whether they took effect.
        for call in self.calls.values():
            if not call.answered:
                self.emit(ToolResult(turn=call.turn, call_id=call.call_id, status="unknown"))


# The handler of each record kind (a table, not a method name built per record).
_HANDLERS: dict[str, Callable[[Reader, Record], None]] = {
    "session_meta": Reader.on_session_meta,
    "turn_context": Reader.on_turn_context,
    "compacted": Reader.on_compacted,
    "event_msg": Reader.on_event_msg,
    "response_item": Reader.on_response_item,
}
