"""mini-swe-agent trajectories (``.traj.json``), formats 1 and 1.1.

``{"info": {"exit_status", "submission", "mini_version", "config"},
"messages": [...], "trajectory_format", "instance_id"}``.  The agent has one
tool, bash, and every command runs in a fresh subprocess in the configured
directory (``info.config.environment.cwd``, ``/testbed`` for SWE-bench), so a
``cd`` never outlives its command.  There is no read or edit tool: every
file change is a shell command, left to the shell module.

* ``mini-swe-agent-1`` (v1.x): the command is the one ```` ```bash ```` block
  of the assistant's text; its result is the next user message
  ``<returncode>N</returncode><output>...</output>``.  A reply with no block
  or several blocks runs nothing and is answered with a format error.
* ``mini-swe-agent-1.1`` (v2.x): OpenAI ``tool_calls`` to ``bash`` with
  ``{"command": ...}``, answered by ``role: "tool"`` messages; the run ends
  with a ``role: "exit"`` message.

The last command prints ``COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT`` and the
diff; the harness then records the diff as the final user (v1) or exit (v2)
message instead of a result.  That command becomes a :class:`Submission`
event (the tracker works out from the agent's commands which files its
output holds; the recorded diff is not read).  A run that ended another way
(an API error, a step limit: ``exit_status`` of the exit message or of
``info``) submitted nothing, and says so with a :class:`Submission` without
a command.  Messages are numbered from 1 in ``line``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

from artifact_index.ingestion.adapters import register
from artifact_index.ingestion.adapters.base import Adapter, TurnCounter, as_text, parse_json_object
from artifact_index.ingestion.adapters.narrowing import as_dict, as_list, as_str
from artifact_index.ingestion.events import (
    AssistantMessage,
    Event,
    FailureReason,
    FileOperation,
    JSONObject,
    ResultStatus,
    SessionInfo,
    Submission,
    ToolCall,
    ToolResult,
    UserMessage,
)
from artifact_index.ingestion.source import Source
from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["MiniSweAgentAdapter"]

_DEFAULT_ACTION = lazy_pattern(r"```bash\s*\n(.*?)\n```", re.DOTALL)
_RETURNCODE = lazy_pattern(r"<returncode>\s*(-?\d+)\s*</returncode>")
_OUTPUT = lazy_pattern(r"<output>\n?(.*?)</output>", re.DOTALL)
_EXCEPTION = lazy_pattern(r"<exception>(.*?)</exception>", re.DOTALL)
_TIMEOUT = lazy_pattern(
    r"^The last command <command>.*?</command> timed out and has been killed", re.DOTALL
)
_FORMAT_ERROR = lazy_pattern(
    r"^(?:Please always provide EXACTLY ONE action|Tool call error:|Format error:|"
    r"Please provide EXACTLY ONE action)",
    re.IGNORECASE,
)
_SUBMIT_MARKERS = ("COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT", "MINI_SWE_AGENT_FINAL_OUTPUT")
_SUBMITTED = "Submitted"  # the exit status of a run that ended by submitting
_LEADING_CD = lazy_pattern(r"^\s*cd\s+(/[^\s;&|]*)\s*(?:&&|;)")


@register
class MiniSweAgentAdapter(Adapter):
    name = "mini-swe-agent"
    description = "mini-swe-agent .traj.json trajectories (bash-only; formats 1 and 1.1)"
    priority = 25

    def sniff(self, source: Source) -> bool:
        doc = source.document
        if not isinstance(doc, dict) or not isinstance(doc.get("messages"), list):
            return False
        fmt = doc.get("trajectory_format")
        info = doc.get("info")
        return (isinstance(fmt, str) and fmt.startswith("mini-swe-agent")) or (
            isinstance(info, dict) and "mini_version" in info
        )

    def events(self, source: Source) -> Iterator[Event]:
        doc = source.document
        if not isinstance(doc, dict) or not isinstance(doc.get("messages"), list):
            source.skip(None, "not a mini-swe-agent trajectory (no 'messages' list)")
            return
        yield from _Reader(source, doc).events()


class _Pending:
    """A command that ran and waits for its result."""

    def __init__(self, call_id: str, turn: int, command: str) -> None:
        self.call_id = call_id
        self.turn = turn
        self.command = command

    @property
    def submits(self) -> bool:
        return any(marker in self.command for marker in _SUBMIT_MARKERS)


class _Reader:
    def __init__(self, source: Source, doc: JSONObject) -> None:
        self.source = source
        self.doc = doc
        self.messages: list[Any] = as_list(doc["messages"])  # a list: checked by detection
        info = doc.get("info")
        self.info: JSONObject = as_dict(info)
        config = self.info.get("config")
        self.config: JSONObject = as_dict(config)
        self.action_regex = _action_regex(self.config)
        self.cwd = self._cwd()
        self.turns = TurnCounter()
        self.pending: dict[str, _Pending] = {}
        self.order: list[str] = []  # pending call ids, oldest first
        self.ended = False  # a Submission event was produced

    def events(self) -> Iterator[Event]:
        model = _section(self.config, "model").get("model_name")
        yield SessionInfo(
            turn=0,
            session_id=as_str(self.doc.get("instance_id")),
            agent="mini-swe-agent",
            cwd=self.cwd,
            model=as_str(model),
            version=as_str(self.info.get("mini_version")),
        )
        for index, message in enumerate(self.messages):
            line = index + 1
            if not isinstance(message, dict):
                self.source.skip(line, "message is not an object")
                continue
            role = message.get("role")
            text = as_text(message.get("content"))
            if role == "system":
                continue
            if role == "assistant":
                yield from self._assistant(message, text, line)
            elif role == "tool":
                call_id = message.get("tool_call_id")
                pending = self.pending.get(call_id) if isinstance(call_id, str) else None
                if pending is None:
                    pending = self._oldest()
                if pending is None:
                    yield UserMessage(turn=self.turns.user(), line=line, text=text, synthetic=True)
                else:
                    yield self._result(pending, message, text, line)
            elif role in ("user", "exit"):
                yield from self._user(message, role, text, line)
            else:
                self.source.skip(line, f"message with unknown role {role!r}")
        for call_id in list(self.order):
            pending = self.pending.pop(call_id)
            yield ToolResult(turn=pending.turn, call_id=call_id, status="unknown")
        self.order.clear()
        status = as_str(self.info.get("exit_status"))
        if not self.ended and status is not None and status != _SUBMITTED:
            yield Submission(turn=self.turns.current, cwd=self.cwd, exit_status=status)

    # -- messages --------------------------------------------------------------------
    def _assistant(self, message: JSONObject, text: str, line: int) -> Iterator[Event]:
        turn = self.turns.assistant()
        if text.strip():
            yield AssistantMessage(turn=turn, line=line, text=text)
        calls = message.get("tool_calls")
        if isinstance(calls, list) and calls:
            for number, call in enumerate(calls):
                if not isinstance(call, dict):
                    continue
                function = _section(call, "function")
                arguments = parse_json_object(function.get("arguments"))
                command = arguments.get("command")
                if not isinstance(command, str):
                    # Unparsable arguments: the harness answers with a format error and runs nothing.
                    continue
                call_id = str(call.get("id") or f"message-{line}-{number}")
                yield self._call(call_id, turn, line, str(function.get("name") or "bash"), command)
            return
        blocks = self.action_regex.findall(text)
        if len(blocks) == 1:
            # The harness runs an action only when exactly one block is present.
            block = blocks[0] if isinstance(blocks[0], str) else blocks[0][0]
            yield self._call(f"message-{line}", turn, line, "bash", block.strip())

    def _call(self, call_id: str, turn: int, line: int, tool: str, command: str) -> ToolCall:
        if call_id in self.pending:
            call_id = f"{call_id}#message-{line}"
        self.pending[call_id] = _Pending(call_id, turn, command)
        self.order.append(call_id)
        return ToolCall(
            turn=turn,
            line=line,
            call_id=call_id,
            tool=tool,
            arguments={"command": command},
            operations=(
                FileOperation(action="shell", command=command, cwd=self.cwd, source="shell"),
            ),
        )

    def _user(self, message: JSONObject, role: str, text: str, line: int) -> Iterator[Event]:
        pending = self._oldest()
        if pending is not None:
            if _RETURNCODE.search(text[:2000]) or _TIMEOUT.match(text):
                yield self._result(pending, message, text, line)
                return
            if pending.submits and not _FORMAT_ERROR.match(text):
                # The submission replaces the result of the command that printed the marker.
                yield self._finish(pending, text, line)
                self.ended = True
                yield Submission(
                    turn=pending.turn,
                    line=line,
                    command=pending.command,
                    cwd=self.cwd,
                    exit_status=_exit_status(message) or as_str(self.info.get("exit_status")),
                )
                return
        synthetic = (
            role == "exit"
            or bool(_FORMAT_ERROR.match(text))
            or (self.turns.current > 0 and _is_feedback(text))
        )
        yield UserMessage(turn=self.turns.user(), line=line, text=text, synthetic=synthetic)
        status = _exit_status(message) if role == "exit" else None
        if status is not None and status != _SUBMITTED and not self.ended:
            self.ended = True
            yield Submission(turn=self.turns.current, line=line, cwd=self.cwd, exit_status=status)

    def _oldest(self) -> _Pending | None:
        return self.pending[self.order[0]] if self.order else None

    def _take(self, pending: _Pending) -> None:
        self.pending.pop(pending.call_id, None)
        if pending.call_id in self.order:
            self.order.remove(pending.call_id)

    # -- results ------------------------------------------------------------------------
    def _result(self, pending: _Pending, message: JSONObject, text: str, line: int) -> ToolResult:
        self._take(pending)
        extra = _section(message, "extra")
        code = _returncode(text, extra)
        status: ResultStatus
        failure: FailureReason | None = None
        exception = _EXCEPTION.search(text)
        if _TIMEOUT.match(text) or (exception and "timed out" in exception.group(1)):
            status, failure, code = "failure", "interrupted", None
        elif exception:
            status, failure, code = "failure", "other", None
        elif code is None:
            status = "unknown"
        elif code == 0:
            status = "success"
        else:
            status, failure = "failure", "exit_status"
        return ToolResult(
            turn=pending.turn,
            line=line,
            call_id=pending.call_id,
            status=status,
            output=_output(text, extra),
            exit_code=code,
            failure=failure,
        )

    def _finish(self, pending: _Pending, text: str, line: int) -> ToolResult:
        self._take(pending)
        # The harness only ends the run when the command printed the marker first.
        return ToolResult(
            turn=pending.turn, line=line, call_id=pending.call_id, status="success", output=text
        )

    # -- the workspace ---------------------------------------------------------------------
    def _cwd(self) -> str | None:
        """Where commands run: the environment's ``cwd``, else the usual ``cd /dir &&`` prefix."""
        cwd = _section(self.config, "environment").get("cwd")
        if isinstance(cwd, str) and cwd.startswith("/"):
            return cwd
        targets: Counter[str] = Counter()
        for message in self.messages:
            if not isinstance(message, dict) or message.get("role") != "assistant":
                continue
            for command in _commands_of(message, self.action_regex):
                match = _LEADING_CD.match(command)
                if match:
                    targets[match.group(1).rstrip("/") or "/"] += 1
        return targets.most_common(1)[0][0] if targets else None


def _action_regex(config: JSONObject) -> re.Pattern[str]:
    """The agent's own action pattern when the run recorded one."""
    pattern = _section(config, "agent").get("action_regex")
    if isinstance(pattern, str):
        try:
            return re.compile(pattern, re.DOTALL)
        except re.error:
            pass
    return _DEFAULT_ACTION


def _commands_of(message: JSONObject, regex: re.Pattern[str]) -> list[str]:
    calls = message.get("tool_calls")
    if isinstance(calls, list) and calls:
        commands = []
        for call in calls:
            function = _section(call, "function") if isinstance(call, dict) else {}
            command = parse_json_object(function.get("arguments")).get("command")
            if isinstance(command, str):
                commands.append(command)
        return commands
    blocks = regex.findall(as_text(message.get("content")))
    return [b if isinstance(b, str) else b[0] for b in blocks] if len(blocks) == 1 else []


def _returncode(text: str, extra: JSONObject) -> int | None:
    code = extra.get("returncode")
    if isinstance(code, int) and not isinstance(code, bool):
        return code
    match = _RETURNCODE.search(text[:2000])
    return int(match.group(1)) if match else None


def _output(text: str, extra: JSONObject) -> str:
    raw = extra.get("raw_output")
    if isinstance(raw, str):
        return raw
    match = _OUTPUT.search(text)
    return match.group(1) if match else text


def _exit_status(message: JSONObject) -> str | None:
    """How the run ended, from an exit message's ``extra`` (v2)."""
    return as_str(_section(message, "extra").get("exit_status"))


def _is_feedback(text: str) -> bool:
    """Harness notes between results (limits, warnings), not something a person typed."""
    return text.lstrip().startswith(("<warning>", "<returncode>", "Observation:"))


def _section(config: JSONObject, name: str) -> JSONObject:
    value = config.get(name)
    return as_dict(value)
