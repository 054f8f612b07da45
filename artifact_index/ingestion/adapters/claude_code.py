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

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from artifact_index.ingestion.adapters import register
from artifact_index.ingestion.adapters.base import Adapter, TurnCounter, as_text
from artifact_index.ingestion.adapters.claude_results import (
    classify_failure,
    is_failure_text,
    is_harness_text,
    is_shell_tool,
    rejection_feedback,
    reported_from_structured,
    shell_exit_code,
    slash_command,
)
from artifact_index.ingestion.adapters.narrowing import as_int, as_str
from artifact_index.ingestion.events import (
    AssistantMessage,
    CompactionBoundary,
    Event,
    FileOperation,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
    WorkingDirectory,
)
from artifact_index.ingestion.source import Records, Source
from artifact_index.ingestion.vocabulary import operations_for

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


def _queued_deliveries(records: Sequence[tuple[int, Any]]) -> dict[int, list[str]]:
    """The messages the person queued, by the index of the record where they reached the agent.

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
    start = records.first_containing(b'"queue-operation"') if isinstance(records, Records) else 0
    if start is None:
        return {}
    waiting: list[tuple[int, str]] = []
    delivered: dict[int, list[str]] = {}
    for index in range(start, len(records)):
        record = records[index][1]
        if not isinstance(record, dict):
            continue
        if record.get("type") == "user" and waiting:
            message = record.get("message")
            text = message.get("content") if isinstance(message, dict) else None
            waiting = [item for item in waiting if item[1] != text]
            continue
        if record.get("type") != "queue-operation":
            continue
        operation = record.get("operation")
        if operation == "enqueue":
            content = record.get("content")
            waiting.append((index, content if isinstance(content, str) else ""))
        elif operation == "dequeue" and waiting:
            # The next prompt carries it; which one is told by the text, else the oldest.
            upcoming = _next_user_text(records, index)
            match = next((item for item in waiting if item[1] == upcoming), waiting[0])
            waiting.remove(match)
        elif operation == "remove" and waiting:
            typed = [item for item in waiting if item[1].strip() and not is_harness_text(item[1])]
            taken = typed[0] if typed else waiting[0]
            waiting.remove(taken)
            delivered.setdefault(index, []).append(taken[1])
        elif operation == "popAll":
            waiting.clear()
    for index, text in waiting:
        delivered.setdefault(index, []).append(text)
    typed_only = {
        i: [t for t in texts if t.strip() and not is_harness_text(t)]
        for i, texts in delivered.items()
    }
    return {index: texts for index, texts in typed_only.items() if texts}


_LOOKAHEAD = 6


def _next_user_text(records: Sequence[tuple[int, Any]], index: int) -> str | None:
    for _, record in records[index + 1 : index + 1 + _LOOKAHEAD]:
        if isinstance(record, dict) and record.get("type") == "user":
            message = record.get("message")
            content = message.get("content") if isinstance(message, dict) else None
            return content if isinstance(content, str) else None
    return None


@dataclass
class _Call:
    tool: str
    arguments: dict[str, Any]
    turn: int


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


class _Reader:
    """The state of reading one transcript: turns, open calls, current cwd."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.records = source.records
        self.turns = ChainTurns()
        self.calls: dict[str, _Call] = {}
        self.cwd: str | None = None
        self.used_summaries: set[int] = set()
        # Results written before their call (2.1.x sometimes logs a
        # tool_result one line before its tool_use): held until the call
        # appears, so they pair by tool_use_id whatever the order.
        self.early: dict[str, tuple[int, str | None, str | None, dict[str, Any], Any]] = {}
        self.queued = _queued_deliveries(self.records)

    # -- the whole file -------------------------------------------------

    def events(self) -> Iterator[Event]:
        for bad in self.source.bad_lines:
            self.source.skip(bad.line, bad.reason)
        yield from self._session_info()
        for index, (line, record) in enumerate(self.records):
            if not isinstance(record, dict):
                self.source.skip(line, "not a JSON object")
                continue
            try:
                yield from self._record(index, line, record)
            except (AttributeError, KeyError, TypeError, ValueError) as exc:
                # A record of an unexpected shape must not end the transcript.
                self.source.skip(line, f"unexpected {record.get('type')!r} record ({exc})")
        # Results whose call never appeared: the tracker counts them as orphans.
        for line, timestamp, chain, block, structured in self.early.values():
            yield from self._result_events(line, timestamp, chain, block, structured)

    def _session_info(self) -> Iterator[Event]:
        first_line: int | None = None
        session_id = version = model = None
        for line, record in self.records:
            if not isinstance(record, dict):
                continue
            if first_line is None and as_str(record.get("type")) in _KNOWN_TYPES:
                first_line = line
            if self.cwd is None and as_str(record.get("cwd")):
                self.cwd = record["cwd"]
            session_id = session_id or as_str(record.get("sessionId"))
            version = version or as_str(record.get("version"))
            message = record.get("message")
            if model is None and record.get("type") == "assistant" and isinstance(message, dict):
                candidate = as_str(message.get("model"))
                model = candidate if candidate and not candidate.startswith("<") else None
            if self.cwd and session_id and version and model:
                break
        if first_line is None:
            return
        yield SessionInfo(
            turn=0,
            line=first_line,
            session_id=session_id,
            agent="claude-code",
            cwd=self.cwd,
            model=model,
            version=version,
        )

    # -- one record ------------------------------------------------------

    def _record(self, index: int, line: int, record: dict[str, Any]) -> Iterator[Event]:
        kind = record.get("type")
        if kind in _IGNORED_TYPES:
            return
        if kind not in _KNOWN_TYPES:
            self.source.skip(line, f"unknown record type {kind!r}")
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
            yield from self._progress(line, record)
        elif kind == "system":
            yield from self._system(index, line, record, chain)
        elif kind == "attachment":
            yield from self._attachment(line, record, chain)
        elif kind == "queue-operation":
            for text in self.queued.get(index, ()):
                yield UserMessage(
                    turn=self.turns.current,
                    line=line,
                    timestamp=as_str(record.get("timestamp")),
                    text=text,
                    channel="queued",
                )

    def _cwd(self, record: dict[str, Any], line: int, chain: str | None) -> Iterator[Event]:
        cwd = as_str(record.get("cwd"))
        if cwd and cwd != self.cwd:
            self.cwd = cwd
            yield WorkingDirectory(
                turn=self.turns.current,
                line=line,
                timestamp=as_str(record.get("timestamp")),
                sidechain=chain,
                cwd=cwd,
            )

    def _progress(self, line: int, record: dict[str, Any]) -> Iterator[Event]:
        data = record.get("data")
        if not isinstance(data, dict):
            return
        nested = data.get("message")
        # hook_progress, bash_progress, mcp_progress, waiting_for_task carry
        # no message: they only report that something is running.
        if not isinstance(nested, dict) or as_str(nested.get("type")) not in _MESSAGE_TYPES:
            return
        chain = as_str(data.get("agentId")) or as_str(record.get("parentToolUseID")) or "subagent"
        yield from self._message(line, nested, chain)

    def _system(
        self, index: int, line: int, record: dict[str, Any], chain: str | None
    ) -> Iterator[Event]:
        if record.get("subtype") != "compact_boundary":
            return
        meta = record.get("compactMetadata")
        meta = meta if isinstance(meta, dict) else {}
        summary = None
        for ahead in range(index + 1, min(index + 1 + _SUMMARY_LOOKAHEAD, len(self.records))):
            candidate = self.records[ahead][1]
            if isinstance(candidate, dict) and candidate.get("isCompactSummary"):
                message = candidate.get("message")
                content = message.get("content") if isinstance(message, dict) else None
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

    def _attachment(self, line: int, record: dict[str, Any], chain: str | None) -> Iterator[Event]:
        attachment = record.get("attachment")
        if not isinstance(attachment, dict) or attachment.get("type") != "file":
            return
        # A file the user @-mentioned: Claude Code read it into the context.
        path = as_str(attachment.get("filename"))
        if path is None:
            return
        content = attachment.get("content")
        file = content.get("file") if isinstance(content, dict) else None
        text = file.get("content") if isinstance(file, dict) else None
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

    # -- messages ----------------------------------------------------------

    def _message(self, line: int, record: dict[str, Any], chain: str | None) -> Iterator[Event]:
        message = record.get("message")
        if not isinstance(message, dict):
            self.source.skip(line, f"{record.get('type')} record without a message")
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
        self, line: int, record: dict[str, Any], message: dict[str, Any], chain: str | None
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
                turn = turn or self.turns.assistant(chain, as_str(message.get("id")))
                call = self._tool_call(line, timestamp, chain, turn, block)
                yield call
                early = self.early.pop(call.call_id, None)
                if early is not None:
                    yield from self._result_events(*early)

    def _tool_call(
        self, line: int, timestamp: str | None, chain: str | None, turn: int, block: dict[str, Any]
    ) -> ToolCall:
        call_id = as_str(block.get("id")) or f"line-{line}"
        tool = as_str(block.get("name")) or "unknown"
        raw = block.get("input")
        arguments: dict[str, Any] = raw if isinstance(raw, dict) else {}
        self.calls[call_id] = _Call(tool, arguments, turn)
        return ToolCall(
            turn=turn,
            line=line,
            timestamp=timestamp,
            sidechain=chain,
            call_id=call_id,
            tool=tool,
            arguments=arguments,
            operations=tuple(operations_for(tool, arguments, self.cwd)),
        )

    def _user(
        self, line: int, record: dict[str, Any], message: dict[str, Any], chain: str | None
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
            if call_id is not None and call_id not in self.calls:
                self.early[call_id] = (line, timestamp, chain, block, structured)
                continue
            yield from self._result_events(line, timestamp, chain, block, structured)
        text = "\n".join(t for t in _text_blocks(content) if t.strip())
        if not text.strip():
            return
        command = slash_command(text)
        synthetic = bool(
            record.get("isMeta")
            or record.get("isVisibleInTranscriptOnly")
            or record.get("sourceToolUseID")
            or chain is not None  # a sub-agent's prompt is written by the parent agent
            or (is_harness_text(text) and command is None)
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
        block: dict[str, Any],
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
        block: dict[str, Any],
        structured: Any,
    ) -> ToolResult:
        call_id = as_str(block.get("tool_use_id")) or f"line-{line}"
        call = self.calls.pop(call_id, None)
        tool = call.tool if call else "unknown"
        arguments = call.arguments if call else {}
        output = as_text(block.get("content"))
        failed = (
            block.get("is_error") is True
            or is_failure_text(output)
            or (isinstance(structured, str) and structured.startswith("Error"))
        )
        common: dict[str, Any] = {
            "turn": call.turn if call else self.turns.current,
            "line": line,
            "timestamp": timestamp,
            "sidechain": chain,
            "call_id": call_id,
            "output": output,
        }
        if failed:
            reason, code = classify_failure(
                tool, output or (structured if isinstance(structured, str) else "")
            )
            return ToolResult(status="failure", failure=reason, exit_code=code, **common)
        exit_code = None
        if is_shell_tool(tool):
            exit_code = shell_exit_code(structured)
        return ToolResult(
            status="success",
            exit_code=exit_code,
            reported=reported_from_structured(tool, arguments, output, structured),
            **common,
        )


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
        return _Reader(source).events()
