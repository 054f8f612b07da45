"""Claude Code session transcripts (``~/.claude/projects/…/<session>.jsonl``).

One JSON object per line.  ``assistant`` records hold one content block each
(a response with text and two tool calls is three records sharing
``message.id``); a ``tool_use`` block's result is a ``tool_result`` block in a
later ``user`` record whose top-level ``toolUseResult`` is structured metadata
the model never saw: ``{"type": "create"|"update", "content": …}`` for Write,
``structuredPatch`` / ``originalFile`` for Edit, or a plain ``"Error: …"``
string when the call failed.  Sub-agents appear either as records with
``isSidechain: true`` (older versions, and ``subagents/agent-*.jsonl`` files)
or nested in ``progress`` records as ``data.message`` (2.1.x).
See ``docs/formats.md`` §1 for real examples.

The person's words reach the agent by five paths, each a :class:`UserMessage`
with its ``channel``: a prompt (a ``user`` record of its own); feedback typed
when refusing a tool call (inside the refusal's ``tool_result``: "…the user
said:\nno, don't commit"); text typed while a tool ran (a ``text`` block beside
the ``tool_result``); a message queued while the agent worked
(``queue-operation`` records: ``enqueue`` with the text, then ``dequeue`` when
it became the next prompt, which then has a ``user`` record of its own, or
``remove`` when it was handed to the agent mid-turn, or ``popAll`` when the
person took it back to edit); and a slash command, echoed as
``<command-name>/review</command-name><command-args>158</command-args>``.
"""

from __future__ import annotations

import posixpath
import re
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import count
from typing import Any, Generic, TypedDict, TypeVar

from artifact_index.ingestion.adapters import register
from artifact_index.ingestion.adapters.base import Adapter, TurnCounter, as_text, report_bad_lines
from artifact_index.ingestion.adapters.claude_hooks import FileToolChanges
from artifact_index.ingestion.adapters.claude_results import (
    classify_failure,
    is_failure_text,
    is_shell_tool,
    rejection_feedback,
    reported_from_structured,
    shell_exit_code,
    shell_output,
    slash_command,
    stale_reads,
)
from artifact_index.ingestion.adapters.narrowing import as_dict, as_int, as_str
from artifact_index.ingestion.events import (
    AssistantMessage,
    CompactionBoundary,
    Event,
    FileOperation,
    JSONObject,
    ReportedChange,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
    WorkingDirectory,
)
from artifact_index.ingestion.following import PATIENCE, Reread, Window
from artifact_index.ingestion.harness_text import is_harness_text
from artifact_index.ingestion.source import Records, Skipped, Source
from artifact_index.ingestion.vocabulary import SHELL_TOOLS, operations_for, shell_command, tool_key
from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["ChainTurns", "ClaudeCodeAdapter"]

_MESSAGE_TYPES = frozenset({"user", "assistant"})
# Record types with no bearing on the conversation or the file trail: session
# titles, snapshots of Claude Code's own undo backups; since 2.1.3xx also its
# log of API requests (``api-request``, ``api-request-shape`` and
# ``api-request-blob``, a copy of messages already in the transcript, which
# read as messages would count every turn twice), its running cost and the
# tools used so far.
_IGNORED_TYPES = frozenset(
    {
        "summary",
        "file-history-snapshot",
        "last-prompt",
        "permission-mode",
        "ai-title",
        "custom-title",
        "agent-name",
        "pr-link",
        "tag",
        "mode",
        "api-request",
        "api-request-shape",
        "api-request-blob",
        "cost-state",
        "tools-used",
        "atis-latch",
        # A remote-control bridge's session id, a file backup's bookkeeping (the files' changes are
        # the tool calls'), the colour a named agent is shown in.
        "bridge-session",
        "file-history-delta",
        "agent-color",
    }
)
_KNOWN_TYPES = (
    _MESSAGE_TYPES | _IGNORED_TYPES | {"system", "progress", "attachment", "queue-operation"}
)
_SNIFF_RECORDS = 30
# How far after a compact_boundary the summary message may appear.
_SUMMARY_LOOKAHEAD = 8


class ChainTurns:
    """Turn numbers when several chains (main agent, sub-agents) interleave.

    Turns are numbered globally in transcript order; the blocks of one
    response share a turn only within their own chain, so a sub-agent's
    records arriving between two blocks of the main response do not split it.
    """

    def __init__(self) -> None:
        self._counter = TurnCounter()
        self._last: dict[str | None, tuple[str, int]] = {}

    @property
    def current(self) -> int:
        return self._counter.current

    def user(self, chain: str | None) -> int:
        self._last.pop(chain, None)
        return self._counter.user()

    def assistant(self, chain: str | None, response_id: str | None) -> int:
        last = self._last.get(chain)
        if response_id is not None and last is not None and last[0] == response_id:
            return last[1]
        turn = self._counter.assistant(None)
        if response_id is not None:
            self._last[chain] = (response_id, turn)
        return turn


# Where a record is, as the main pass counts: its line, and its place among that line's records.
_Place = tuple[int, int]


class _LineCursor:
    """The records from one line of a JSON-lines source on, a line parsed only when its records matter.

    The queued-message pass reads the rest of the file after the first
    queue operation, but only queue operations always matter, ``user``
    records only while a message waits, and any record only in the few
    after a ``dequeue``: a line is parsed only when it may hold one of
    those, told by a record type's name in its bytes (never escaped in
    JSON).  Queue operations and the records a look-ahead parsed are kept
    for the main pass, so those lines are parsed once.
    """

    def __init__(self, records: Records, offset: int) -> None:
        self._records = records
        self._lines = records.lines_from(offset)
        self._number = records.line_number_at(offset) - 1
        self._parsed: deque[tuple[_Place, Any]] = (
            deque()
        )  # records of lines already parsed, not yet taken

    def next_line(self, wanted: tuple[bytes, ...]) -> list[tuple[_Place, Any]] | None:
        """The records of the next line if its bytes hold one of ``wanted`` (else none); None at the end."""
        if self._parsed:
            taken = list(self._parsed)
            self._parsed.clear()
            return taken
        span = next(self._lines, None)
        if span is None:
            return None
        self._number += 1
        start, end = span
        if not self._records.line_holds(start, end, wanted):
            return []
        keep = self._records.line_holds(start, end, (_QUEUE_OPERATION,))
        values = self._records.values_on(start, end, keep=keep)
        return [((self._number, place), value) for place, value in enumerate(values)]

    def ahead(self, count: int) -> list[Any]:
        """The next ``count`` records (fewer at the end), parsed and kept for the main pass."""
        while len(self._parsed) < count:
            span = next(self._lines, None)
            if span is None:
                break
            self._number += 1
            values = self._records.values_on(*span, keep=True)
            self._parsed.extend(
                ((self._number, place), value) for place, value in enumerate(values)
            )
        return [record for _, record in list(self._parsed)[:count]]


_QUEUE_OPERATION = b'"queue-operation"'
_USER_TYPE = b'"user"'


def _queued_deliveries(records: Records) -> dict[_Place, list[str]]:
    """The messages the person queued, by the record where they reached the agent.

    A message taken as the next prompt (``dequeue``, or a ``user`` record
    holding the very text) has a ``user`` record of its own, and one taken
    back into the input box (``popAll``) was never sent: neither is listed.
    The queue also holds the harness's own notices (a background task that
    finished), which may be consumed by a tool call instead and never leave
    the queue in the log; so ``remove`` (handed to the agent mid-turn) takes
    the oldest message the person typed.  One still waiting when the
    transcript ends is listed where it was typed.
    """
    # Nothing waits before the first enqueue: most sessions queue nothing, and skip the whole pass.
    offset = records.find(_QUEUE_OPERATION)
    if offset is None:
        return {}
    cursor = _LineCursor(records, offset)
    queue: _Queue[_Place] = _Queue()
    while True:
        line = cursor.next_line(
            (_QUEUE_OPERATION, _USER_TYPE) if queue.waiting else (_QUEUE_OPERATION,)
        )
        if line is None:
            break
        for place, record in line:
            queue.see(place, record, partial(_upcoming, line, place, cursor))
    return queue.deliveries(at_end=True)


def _upcoming(line: list[tuple[_Place, Any]], place: _Place, cursor: _LineCursor) -> list[Any]:
    """The few records after the one at ``place`` on ``line`` (those of later lines kept for the main pass)."""
    following = [r for p, r in line if p > place]
    return [*following, *cursor.ahead(_LOOKAHEAD - len(following))][:_LOOKAHEAD]


K = TypeVar("K", bound=Hashable)


class _Queue(Generic[K]):
    """The queue of messages the person typed while the agent worked, followed record by record.

    Records are known by a key of the reader's (a record's index when the
    transcript is followed, its place when it is read whole).
    """

    def __init__(self) -> None:
        self.waiting: list[tuple[K, str]] = []
        self.delivered: dict[K, list[str]] = {}

    def see(self, key: K, record: Any, upcoming: Callable[[], list[Any]]) -> None:
        """Take record ``key`` into account; ``upcoming``: the few records after it (asked only after a ``dequeue``)."""
        if not isinstance(record, dict):
            return
        waiting = self.waiting
        if record.get("type") == "user" and waiting:
            message = record.get("message")
            text = as_dict(message).get("content")
            self.waiting = [item for item in waiting if item[1] != text]
            return
        if record.get("type") != "queue-operation":
            return
        operation = record.get("operation")
        if operation == "enqueue":
            content = record.get("content")
            waiting.append((key, content if isinstance(content, str) else ""))
        elif operation == "dequeue" and waiting:
            # The next prompt carries it; which one is told by the text, else the oldest.
            text = _next_user_text(upcoming())
            match = next((item for item in waiting if item[1] == text), waiting[0])
            waiting.remove(match)
        elif operation == "remove" and waiting:
            typed = [item for item in waiting if _typed(item[1])]
            taken = typed[0] if typed else waiting[0]
            waiting.remove(taken)
            self.delivered.setdefault(key, []).append(taken[1])
        elif operation == "popAll":
            waiting.clear()

    def waits_at(self, key: K) -> bool:
        """Whether a message the person typed at record ``key`` is still in the queue."""
        return any(at == key and _typed(text) for at, text in self.waiting)

    def delivered_at(self, key: K, *, at_end: bool) -> list[str]:
        """The typed messages that reached the agent at record ``key`` (``at_end``: the file ends here)."""
        texts = list(self.delivered.get(key, ()))
        if at_end:
            texts += [text for at, text in self.waiting if at == key]
        return [text for text in texts if _typed(text)]

    def deliveries(self, *, at_end: bool) -> dict[K, list[str]]:
        places = list(self.delivered) + ([at for at, _ in self.waiting] if at_end else [])
        found = {key: self.delivered_at(key, at_end=at_end) for key in dict.fromkeys(places)}
        return {key: texts for key, texts in found.items() if texts}


class _FollowedQueue:
    """The queue of a followed transcript, stepped over its records by index."""

    def __init__(self) -> None:
        self.queue: _Queue[int] = _Queue()
        self.position = 0  # the next record to look at

    def ready(self, records: Sequence[tuple[int, Any]]) -> bool:
        """Whether the next record can be looked at: a ``dequeue`` names its prompt by the user record after it."""
        index = self.position
        record = records[index][1]
        if not (
            self.queue.waiting and isinstance(record, dict) and record.get("operation") == "dequeue"
        ):
            return True
        if index + _LOOKAHEAD < len(records):
            return True
        return any(isinstance(r, dict) and r.get("type") == "user" for _, r in records[index + 1 :])

    def step(self, records: Sequence[tuple[int, Any]]) -> None:
        index = self.position
        self.position += 1
        self.queue.see(
            index,
            records[index][1],
            lambda: [r for _, r in records[index + 1 : index + 1 + _LOOKAHEAD]],
        )


def _typed(text: str) -> bool:
    return bool(text.strip()) and not is_harness_text(text)


_LOOKAHEAD = 6


def _next_user_text(following: list[Any]) -> str | None:
    """The text of the first ``user`` record among ``following``, if it is a plain text."""
    for record in following:
        if isinstance(record, dict) and record.get("type") == "user":
            message = record.get("message")
            content = as_dict(message).get("content")
            return content if isinstance(content, str) else None
    return None


class _ResultFields(TypedDict):
    """What a tool result holds whether its call succeeded or failed."""

    turn: int
    line: int
    timestamp: str | None
    sidechain: str | None
    call_id: str
    output: str


@dataclass
class _Call:
    tool: str
    arguments: JSONObject
    turn: int
    operations: tuple[FileOperation, ...] = ()


# The IDE extension's note of the file open in the editor, put before what the person typed ("This may or may
# not be related to the current task"): the IDE's words, not the person's, and it pushed their request out of
# every shortened view of the message.
_IDE_OPENED = lazy_pattern(r"<ide_opened_file>.*?</ide_opened_file>\s*", re.S)


def _text_blocks(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    if isinstance(content, list):
        return [
            block["text"]
            for block in content
            if isinstance(block, dict)
            and block.get("type") == "text"
            and isinstance(block.get("text"), str)
        ]
    return []


_LEADING_CD = re.compile(r"""\A\s*cd\s+(?:"([^"\n]+)"|'([^'\n]+)'|([^\s;&|]+))\s*(?:$|&&|;|\n)""")


def _leading_cd(command: str) -> str | None:
    """The folder a command's first statement ``cd``s into, as written."""
    match = _LEADING_CD.match(command)
    if match is None:
        return None
    return next(group for group in match.groups() if group is not None)


class _SessionScan:
    """What the session's first records say of it: where it starts, its id, cwd, version and model."""

    FIELDS = ("cwd", "session_id", "version", "model")

    def __init__(self) -> None:
        self.first_line: int | None = None
        self.cwd: str | None = None
        self.session_id: str | None = None
        self.version: str | None = None
        self.model: str | None = None

    @property
    def done(self) -> bool:
        return bool(self.cwd and self.session_id and self.version and self.model)

    def see(self, line: int, record: Any) -> bool:
        """Take one record into account; whether everything is known now."""
        if not isinstance(record, dict):
            return False
        if self.first_line is None and as_str(record.get("type")) in _KNOWN_TYPES:
            self.first_line = line
        if self.cwd is None and as_str(record.get("cwd")):
            self.cwd = record["cwd"]
        self.session_id = self.session_id or as_str(record.get("sessionId"))
        self.version = self.version or as_str(record.get("version"))
        message = record.get("message")
        if self.model is None and record.get("type") == "assistant" and isinstance(message, dict):
            candidate = as_str(message.get("model"))
            self.model = candidate if candidate and not candidate.startswith("<") else None
        return self.done


class _Reader:
    """The state of reading one transcript: turns, open calls, current cwd."""

    def __init__(
        self,
        records: Sequence[tuple[int, Any]],
        skip: Callable[[int | None, str], None],
        queued: Callable[[int], Iterable[str]],
    ) -> None:
        self.records = records
        self.skip = skip
        self.queued = (
            queued  # the queued messages that reached the agent at a record (by its index)
        )
        self.turns = ChainTurns()
        self.calls: dict[str, _Call] = {}
        self.cwd: str | None = None
        # The cwd before the latest change, while no call has been read since it: a record may
        # be written after the command that moved the shell ran (its cwd already the new one).
        self.cwd_before: str | None = None
        # Where the last shell call's own leading `cd` took it: a later record's cwd there is
        # that call's doing, not a record written late.
        self.last_cd_to: str | None = None
        self.used_summaries: set[int] = set()
        # Results written before their call (2.1.x sometimes logs a
        # tool_result one line before its tool_use): held until the call
        # appears, so they pair by tool_use_id whatever the order.
        self.early: dict[str, tuple[int, str | None, str | None, JSONObject, Any]] = {}
        # Calls whose result has been read: a record logged again later (same call id) repeats
        # a call already answered, so it is neither a new call nor one still waiting.
        self.answered: set[str] = set()
        # The files recent file-tool calls changed, which a formatting hook after them may rewrite.
        self.file_tools = FileToolChanges()

    # -- the whole file -------------------------------------------------

    def events(self) -> Iterator[Event]:
        scan = _SessionScan()
        # Peeked, not read: the main pass is handed these records instead of parsing them again.
        for line, record in _peeked(self.records):
            if scan.see(line, record):
                break
        yield from self.session_info(scan)
        for index, (line, record) in enumerate(self.records):
            yield from self.record_events(index, line, record)
        yield from self.unpaired()

    def session_info(self, scan: _SessionScan) -> Iterator[Event]:
        self.cwd = scan.cwd
        if scan.first_line is None:
            return
        yield SessionInfo(
            turn=0,
            line=scan.first_line,
            session_id=scan.session_id,
            agent="claude-code",
            cwd=scan.cwd,
            model=scan.model,
            version=scan.version,
        )

    def record_events(self, index: int, line: int, record: Any) -> Iterator[Event]:
        if not isinstance(record, dict):
            self.skip(line, "not a JSON object")
            return
        try:
            yield from self._record(index, line, record)
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            # A record of an unexpected shape must not end the transcript.
            self.skip(line, f"unexpected {record.get('type')!r} record ({exc})")

    def unpaired(self) -> Iterator[Event]:
        """Results whose call never appeared: the tracker counts them as orphans."""
        for line, timestamp, chain, block, structured in self.early.values():
            yield from self._result_events(line, timestamp, chain, block, structured)

    # -- one record ------------------------------------------------------

    def _record(self, index: int, line: int, record: JSONObject) -> Iterator[Event]:
        kind = record.get("type")
        if kind in _IGNORED_TYPES:
            return
        if kind not in _KNOWN_TYPES:
            self.skip(line, f"unknown record type {kind!r}")
            return
        chain = (
            (as_str(record.get("agentId")) or "sidechain") if record.get("isSidechain") else None
        )
        yield from self._cwd(record, line, chain)
        if kind in _MESSAGE_TYPES:
            if index in self.used_summaries:
                return
            yield from self._message(line, record, chain)
        elif kind == "progress":
            yield from self._progress(line, record, chain)
        elif kind == "system":
            yield from self._system(index, line, record, chain)
        elif kind == "attachment":
            yield from self._attachment(line, record, chain)
        elif kind == "queue-operation":
            for text in self.queued(index):
                yield UserMessage(
                    turn=self.turns.current,
                    line=line,
                    timestamp=as_str(record.get("timestamp")),
                    text=text,
                    channel="queued",
                )

    def _queued_notice(
        self, line: int, record: JSONObject, attachment: dict[str, object]
    ) -> Iterator[Event]:
        """A harness notice handed to the agent from the queue (a background sub-agent that finished).

        Newer versions deliver a queued message as this attachment; the queue's own records
        (``remove``) stand for what the person typed, and the harness's notices reach the agent
        only here, so a background run's end would otherwise go unseen.
        """
        prompt = attachment.get("prompt")
        if not isinstance(prompt, str) or not prompt.lstrip().startswith("<task-notification>"):
            return
        yield UserMessage(
            turn=self.turns.current,
            line=line,
            timestamp=as_str(record.get("timestamp")),
            text=prompt,
            channel="queued",
            synthetic=True,
        )

    def _cwd(self, record: JSONObject, line: int, chain: str | None) -> Iterator[Event]:
        cwd = as_str(record.get("cwd"))
        if cwd and cwd != self.cwd:
            self.cwd_before, self.cwd = self.cwd, cwd
            yield WorkingDirectory(
                turn=self.turns.current,
                line=line,
                timestamp=as_str(record.get("timestamp")),
                sidechain=chain,
                cwd=cwd,
            )

    def _progress(self, line: int, record: JSONObject, chain: str | None) -> Iterator[Event]:
        data = record.get("data")
        if not isinstance(data, dict):
            return
        if data.get("type") == "hook_progress" and data.get("hookEvent") == "PostToolUse":
            yield from self._post_tool_hook(line, record, data, chain)
            return
        nested = data.get("message")
        # hook_progress, bash_progress, mcp_progress, waiting_for_task carry
        # no message: they only report that something is running.
        if not isinstance(nested, dict) or as_str(nested.get("type")) not in _MESSAGE_TYPES:
            return
        # A sub-agent's message relayed in the parent's record: the sub-agent's chain.
        relayed = as_str(data.get("agentId")) or as_str(record.get("parentToolUseID")) or "subagent"
        yield from self._message(line, nested, relayed)

    def _system(
        self, index: int, line: int, record: JSONObject, chain: str | None
    ) -> Iterator[Event]:
        if record.get("subtype") != "compact_boundary":
            return
        meta = record.get("compactMetadata")
        meta = as_dict(meta)
        summary = None
        for ahead in range(index + 1, index + 1 + _SUMMARY_LOOKAHEAD):
            try:
                candidate = _looked_at(self.records, ahead)[1]
            except IndexError:
                break
            if isinstance(candidate, dict) and candidate.get("isCompactSummary"):
                message = candidate.get("message")
                content = as_dict(message).get("content")
                summary = "\n".join(_text_blocks(content)) or None
                self.used_summaries.add(ahead)
                break
        yield CompactionBoundary(
            turn=self.turns.current,
            line=line,
            timestamp=as_str(record.get("timestamp")),
            sidechain=chain,
            trigger=as_str(meta.get("trigger")),
            pre_tokens=as_int(meta.get("preTokens")),
            summary=summary,
        )

    def _attachment(self, line: int, record: JSONObject, chain: str | None) -> Iterator[Event]:
        attachment = record.get("attachment")
        if not isinstance(attachment, dict):
            return
        if attachment.get("type") == "queued_command":
            yield from self._queued_notice(line, record, attachment)
            return
        if attachment.get("hookEvent") == "PostToolUse":
            yield from self._post_tool_hook(line, record, attachment, chain)
            return
        if attachment.get("type") != "file":
            return
        # A file the user @-mentioned: Claude Code read it into the context.
        path = as_str(attachment.get("filename"))
        if path is None:
            return
        content = attachment.get("content")
        file = as_dict(content).get("file")
        text = as_dict(file).get("content")
        call_id = f"attachment:{record.get('uuid') or line}"
        turn = self.turns.current
        timestamp = as_str(record.get("timestamp"))
        yield ToolCall(
            turn=turn,
            line=line,
            timestamp=timestamp,
            sidechain=chain,
            call_id=call_id,
            tool="Attachment",
            arguments={"file_path": path},
            operations=(FileOperation(action="read", path=path, detail="attached by the user"),),
        )
        yield ToolResult(
            turn=turn,
            line=line,
            timestamp=timestamp,
            sidechain=chain,
            call_id=call_id,
            status="success",
            output=text if isinstance(text, str) else "",
        )

    def _post_tool_hook(
        self, line: int, record: JSONObject, hook: dict[str, object], chain: str | None
    ) -> Iterator[Event]:
        """A ``PostToolUse`` hook that ran after a file tool's call (see :mod:`.claude_hooks`)."""
        call_id = as_str(hook.get("toolUseID")) or as_str(record.get("toolUseID"))
        yield from self.file_tools.hook_ran(
            call_id, as_str(hook.get("command")), line, as_str(record.get("timestamp")), chain
        )

    # -- messages ----------------------------------------------------------

    def _message(self, line: int, record: JSONObject, chain: str | None) -> Iterator[Event]:
        message = record.get("message")
        if not isinstance(message, dict):
            self.skip(line, f"{record.get('type')} record without a message")
            return
        if record.get("isCompactSummary"):
            # A summary whose boundary record is missing (older versions).
            yield CompactionBoundary(
                turn=self.turns.current,
                line=line,
                timestamp=as_str(record.get("timestamp")),
                sidechain=chain,
                summary="\n".join(_text_blocks(message.get("content"))) or None,
            )
            return
        if record.get("type") == "assistant":
            yield from self._assistant(line, record, message, chain)
        else:
            yield from self._user(line, record, message, chain)

    def _assistant(
        self, line: int, record: JSONObject, message: JSONObject, chain: str | None
    ) -> Iterator[Event]:
        content = message.get("content")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        if not isinstance(blocks, list):
            return
        model = as_str(message.get("model"))
        if model and model.startswith("<"):  # "<synthetic>" error messages
            model = None
        timestamp = as_str(record.get("timestamp"))
        turn: int | None = None
        for block in blocks:
            if not isinstance(block, dict):
                continue
            kind = block.get("type")
            if kind == "text":
                text = block.get("text")
                if not isinstance(text, str) or not text.strip():
                    continue
                turn = turn or self.turns.assistant(chain, as_str(message.get("id")))
                yield AssistantMessage(
                    turn=turn,
                    line=line,
                    timestamp=timestamp,
                    sidechain=chain,
                    text=text,
                    model=model,
                )
            elif kind in ("tool_use", "server_tool_use"):
                if as_str(block.get("id")) in self.answered:
                    continue
                turn = turn or self.turns.assistant(chain, as_str(message.get("id")))
                moved_by = self._moved_by(block)
                if moved_by is not None:
                    # The record's cwd is where this call's own leading `cd` took the shell:
                    # the call ran from the cwd before, else its `cd` would be applied twice.
                    yield WorkingDirectory(
                        turn=turn, line=line, timestamp=timestamp, sidechain=chain, cwd=moved_by
                    )
                    self.cwd, moved_to = moved_by, self.cwd
                call = self._tool_call(line, timestamp, chain, turn, block)
                self._note_cd(block)
                self.cwd_before = None
                yield call
                if moved_by is not None and moved_to is not None:
                    self.cwd = moved_to
                    yield WorkingDirectory(
                        turn=turn, line=line, timestamp=timestamp, sidechain=chain, cwd=moved_to
                    )
                early = self.early.pop(call.call_id, None)
                if early is not None:
                    yield from self._result_events(*early)
            elif isinstance(kind, str) and kind.endswith("_tool_result"):
                # A server tool's result (advisor, web search) is logged in the assistant's own
                # message, not in a user record: the call it answers has its result.
                call_id = as_str(block.get("tool_use_id"))
                if call_id is not None and call_id in self.calls:
                    # Only its text is output; an encrypted or structured payload is not.
                    content = block.get("content")
                    readable = content if isinstance(content, (str, list)) else ""
                    answer: JSONObject = {"tool_use_id": call_id, "content": readable}
                    yield from self._result_events(line, timestamp, chain, answer, None)

    def _moved_by(self, block: JSONObject) -> str | None:
        """The cwd a shell call ran from when the record's cwd already holds its leading ``cd``."""
        before, after = self.cwd_before, self.cwd
        if before is None or after is None:
            return None
        raw = block.get("input")
        arguments: JSONObject = as_dict(raw)
        if tool_key(as_str(block.get("name")) or "") not in SHELL_TOOLS:
            return None
        command = shell_command(arguments)
        target = _leading_cd(command) if command else None
        if target is None or target.startswith(("/", "~", "$")) or after == self.last_cd_to:
            return None  # an absolute `cd` lands in the same place from either cwd
        return before if posixpath.normpath(posixpath.join(before, target)) == after else None

    def _note_cd(self, block: JSONObject) -> None:
        raw = block.get("input")
        command = shell_command(raw) if isinstance(raw, dict) else None
        target = _leading_cd(command) if command else None
        if target is None or self.cwd is None or target.startswith(("~", "$")):
            self.last_cd_to = None
        else:
            self.last_cd_to = posixpath.normpath(posixpath.join(self.cwd, target))

    def _tool_call(
        self, line: int, timestamp: str | None, chain: str | None, turn: int, block: JSONObject
    ) -> ToolCall:
        call_id = as_str(block.get("id")) or f"line-{line}"
        tool = as_str(block.get("name")) or "unknown"
        raw = block.get("input")
        arguments: JSONObject = as_dict(raw)
        operations = tuple(operations_for(tool, arguments, self.cwd))
        self.calls[call_id] = _Call(tool, arguments, turn, operations)
        return ToolCall(
            turn=turn,
            line=line,
            timestamp=timestamp,
            sidechain=chain,
            call_id=call_id,
            tool=tool,
            arguments=arguments,
            operations=operations,
        )

    def _user(
        self, line: int, record: JSONObject, message: JSONObject, chain: str | None
    ) -> Iterator[Event]:
        content = message.get("content")
        timestamp = as_str(record.get("timestamp"))
        results = (
            [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]
            if isinstance(content, list)
            else []
        )
        # toolUseResult describes the record's tool result; with several
        # results in one record it is ambiguous, so it is not used.
        structured = record.get("toolUseResult") if len(results) == 1 else None
        for block in results:
            call_id = as_str(block.get("tool_use_id"))
            if call_id is not None and call_id in self.answered and call_id not in self.calls:
                continue  # the same result logged again
            if call_id is not None and call_id not in self.calls:
                self.early[call_id] = (line, timestamp, chain, block, structured)
                continue
            yield from self._result_events(line, timestamp, chain, block, structured)
        written = "\n".join(t for t in _text_blocks(content) if t.strip())
        if not written.strip():
            return
        # A message that is only the IDE's note stays in the turn count, as the harness's text.
        text = _IDE_OPENED.sub("", written).strip() or written
        command = slash_command(text)
        synthetic = bool(
            record.get("isMeta")
            or record.get("isVisibleInTranscriptOnly")
            or record.get("sourceToolUseID")
            or chain is not None  # a sub-agent's prompt is written by the parent agent
            or (is_harness_text(text) and command is None)
            or _IDE_OPENED.fullmatch(text) is not None
        )
        yield UserMessage(
            turn=self.turns.user(chain),
            line=line,
            timestamp=timestamp,
            sidechain=chain,
            text=command or text,
            synthetic=synthetic,
            channel="command" if command else "interjection" if results else "prompt",
        )

    def _result_events(
        self,
        line: int,
        timestamp: str | None,
        chain: str | None,
        block: JSONObject,
        structured: Any,
    ) -> Iterator[Event]:
        """A tool result, and the feedback the person typed when they rejected the call."""
        result = self._tool_result(line, timestamp, chain, block, structured)
        yield result
        feedback = rejection_feedback(result.output) if result.failure == "rejected" else None
        if feedback:
            yield UserMessage(
                turn=self.turns.current,
                line=line,
                timestamp=timestamp,
                sidechain=chain,
                text=feedback,
                synthetic=chain is not None,
                channel="feedback",
            )

    def _tool_result(
        self,
        line: int,
        timestamp: str | None,
        chain: str | None,
        block: JSONObject,
        structured: Any,
    ) -> ToolResult:
        call_id = as_str(block.get("tool_use_id")) or f"line-{line}"
        call = self.calls.pop(call_id, None)
        self.answered.add(call_id)
        tool = call.tool if call else "unknown"
        arguments = call.arguments if call else {}
        output = as_text(block.get("content"))
        if is_shell_tool(tool):
            output = shell_output(output, structured)
        failed = (
            block.get("is_error") is True
            or is_failure_text(output)
            or (isinstance(structured, str) and structured.startswith("Error"))
        )
        common = _ResultFields(
            turn=call.turn if call else self.turns.current,
            line=line,
            timestamp=timestamp,
            sidechain=chain,
            call_id=call_id,
            output=output,
        )
        if failed:
            reason, code = classify_failure(
                tool, output or (structured if isinstance(structured, str) else "")
            )
            return ToolResult(status="failure", failure=reason, exit_code=code, **common)
        exit_code = None
        reported = reported_from_structured(tool, arguments, output, structured)
        unnamed = 0
        if is_shell_tool(tool):
            exit_code = shell_exit_code(structured)
            stale = stale_reads(structured)
            if stale is not None:
                # Claude Code saw files the session had read change under the command.
                named, unnamed = stale
                noted = tuple(ReportedChange(path=name, change="modified") for name in named)
                reported = (*(reported or ()), *noted) or None
        elif call is not None:
            self.file_tools.saw_result(call_id, call.turn, call.operations)
        return ToolResult(
            status="success",
            exit_code=exit_code,
            reported=reported,
            unnamed_changes=unnamed,
            **common,
        )


def _looked_at(records: Sequence[tuple[int, Any]], index: int) -> tuple[int, Any]:
    """Record ``index`` for a reader that only looks: a file's is kept for its reader (see :meth:`Records.peek`).

    Raises :class:`IndexError` past the last record.
    """
    return records.peek(index) if isinstance(records, Records) else records[index]


def _peeked(records: Sequence[tuple[int, Any]]) -> Iterator[tuple[int, Any]]:
    """The records from the first on, for a reader that only looks (see :func:`_looked_at`)."""
    for index in count():
        try:
            yield _looked_at(records, index)
        except IndexError:
            return


def _claude_code_records(records: Iterable[tuple[int, Any]]) -> bool:
    """Whether one of the first records is a Claude Code record."""
    seen = 0
    for _, record in records:
        if not isinstance(record, dict):
            continue
        seen += 1
        if seen > _SNIFF_RECORDS:
            break
        kind = record.get("type")
        if kind in ("user", "assistant", "system", "progress", "attachment") and (
            "sessionId" in record or "parentUuid" in record
        ):
            return True
        if kind == "file-history-snapshot" and "snapshot" in record:
            return True
        if kind == "summary" and "leafUuid" in record:
            return True
    return False


@register
class ClaudeCodeAdapter(Adapter):
    name = "claude-code"
    description = (
        "Claude Code session JSONL (~/.claude/projects/*/SESSION.jsonl), sub-agents included"
    )
    priority = 10

    def sniff(self, source: Source) -> bool:
        # Whether the whole file reads as JSON lines is asked last: it parses every line,
        # and the shape of the first records already tells other formats apart.
        return (
            source.document is None
            and _claude_code_records(source.records)
            and source.looks_like_jsonl()
        )

    def events(self, source: Source) -> Iterator[Event]:
        # The lines that are not JSON come first among the skipped parts; which they are is
        # known once the pass has read every line, so they are put in front then.
        reported = len(source.skipped)
        records = source.records
        queued = _queued_deliveries(records)
        yield from _Reader(
            records,
            source.skip,
            lambda index: queued.get(records.place(index), ()) if queued else (),
        ).events()
        report_bad_lines(source, reported)

    def stream(self) -> ClaudeCodeStream:
        return ClaudeCodeStream()


class ClaudeCodeStream:
    """A Claude Code transcript read as it grows (see :mod:`artifact_index.ingestion.following`).

    Records are held while the session's model is not known yet (the first
    response names it), while a compaction boundary waits for its summary,
    while a ``dequeue`` waits for the prompt after it, and while a message
    the person typed into the queue has not left it (if it never does, it
    reached the agent where it was typed).
    """

    def __init__(self) -> None:
        self.skipped: list[Skipped] = []
        self._window: Window[tuple[int, Any]] = Window()
        self._scan = _SessionScan()
        self._scanned = 0  # records the scan has seen
        self._assumed: tuple[str, ...] | None = (
            None  # what the scan did not know when the session began
        )
        self._queue = _FollowedQueue()
        self._assumed_gone: set[int] = (
            set()
        )  # records whose queued message was taken to leave the queue
        self._reader = _Reader(self._window, self._skip, self._queued)
        self._next = 0  # the next record to read events from
        self._final = False

    @property
    def holding(self) -> bool:
        return self._next < len(self._window)

    def _skip(self, line: int | None, reason: str) -> None:
        self.skipped.append(Skipped(line, reason))

    def _queued(self, index: int) -> list[str]:
        return self._queue.queue.delivered_at(index, at_end=self._final)

    def add(self, records: Sequence[tuple[int, Any]]) -> list[Event]:
        self._window.extend(records)
        self._follow_scan()
        return self._advance()

    def finish(self) -> list[Event]:
        self._final = True
        events = self._advance()
        if self._assumed_gone:
            raise Reread("a message queued early in the session never left the queue")
        events.extend(self._reader.unpaired())
        return events

    def _follow_scan(self) -> None:
        window, scan = self._window, self._scan
        while self._scanned < len(window) and not scan.done:
            line, record = window[self._scanned]
            self._scanned += 1
            scan.see(line, record)
            if self._assumed and any(getattr(scan, name) is not None for name in self._assumed):
                raise Reread("the session's first records were read without a later one")

    def _advance(self) -> list[Event]:
        window, queue, reader = self._window, self._queue, self._reader
        events: list[Event] = []
        final = self._final
        if self._assumed is None:
            if not (self._scan.done or final or self._scanned >= PATIENCE):
                return events
            scan = self._scan
            self._assumed = tuple(
                name for name in ("first_line", *_SessionScan.FIELDS) if getattr(scan, name) is None
            )
            events.extend(reader.session_info(scan))
        while queue.position < len(window) and (final or queue.ready(window)):
            queue.step(window)
        while self._next < min(queue.position, len(window)):
            index = self._next
            if not final and queue.queue.waits_at(index):
                if len(window) - index <= PATIENCE:
                    break
                self._assumed_gone.add(
                    index
                )  # it leaves the queue later, else the file is read again
            line, record = window[index]
            if not final and self._needs_summary(index, record):
                break
            events.extend(reader.record_events(index, line, record))
            self._next += 1
        window.release(self._next)
        self._assumed_gone = {i for i in self._assumed_gone if queue.queue.waits_at(i)}
        return events

    def _needs_summary(self, index: int, record: Any) -> bool:
        """Whether a compaction boundary still waits for the summary written after it."""
        if not (
            isinstance(record, dict)
            and record.get("type") == "system"
            and record.get("subtype") == "compact_boundary"
        ):
            return False
        window = self._window
        if index + _SUMMARY_LOOKAHEAD < len(window):
            return False
        return not any(
            isinstance(r, dict) and r.get("isCompactSummary") for _, r in window[index + 1 :]
        )
