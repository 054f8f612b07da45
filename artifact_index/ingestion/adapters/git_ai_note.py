"""git-ai authorship notes (``refs/notes/ai``, schema ``authorship/3.0.0``).

A note is attached to one commit.  Its text head lists, per file, which
prompt wrote which lines; after a ``---`` line comes JSON with the prompts::

    src/commands/diff.rs
      38fa4962d057e456 572-792
    ---
    {"schema_version": "authorship/3.0.0", "base_commit_sha": "…",
     "prompts": {"38fa4962d057e456": {
        "agent_id": {"tool": "claude"|"cursor"|"codex", "id": "…", "model": "…"},
        "messages": [{"type": "user", "text": …}, {"type": "assistant", "text": …},
                     {"type": "tool_use", "name": "Edit", "input": {…}}]}}}

The head is the harness's own report of what the prompt changed: each
prompt ends with one ``git-ai attestation`` call whose result reports its
attested files as modified (a prompt's messages can miss the edit itself).
Tool calls carry no ids and, in current notes, no results, so every call
gets a result of status ``unknown``.  Notes written by older git-ai versions
for Claude Code keep each result as the next ``user`` message; when a
prompt's messages show that pattern throughout, results are paired with
their calls in order and classified like Claude Code's own.  Cursor notes
keep only the file path of an edit, not its text.  See
``docs/formats.md`` §10.
"""

from __future__ import annotations

import json
import re
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from artifact_index.ingestion.adapters import register
from artifact_index.ingestion.adapters.base import Adapter, TurnCounter
from artifact_index.ingestion.adapters.claude_results import (
    FILE_CHANGE_TOOLS,
    classify_failure,
    is_failure_text,
    is_shell_tool,
    reported_from_text,
)
from artifact_index.ingestion.adapters.narrowing import as_dict, as_list, as_str
from artifact_index.ingestion.events import (
    AssistantMessage,
    Event,
    FileOperation,
    JSONObject,
    ReportedChange,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
)
from artifact_index.ingestion.harness_text import is_harness_text
from artifact_index.ingestion.source import Source
from artifact_index.ingestion.vocabulary import operations_for, path_argument
from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["GitAiNoteAdapter", "Note", "parse_note"]

_SEPARATOR = lazy_pattern(r"^---[ \t]*$", re.M)
_HEAD_ENTRY = lazy_pattern(r"^\s+(\S+)\s+([\d,\- ]+)$")


@dataclass(frozen=True)
class Note:
    """A parsed note: which prompt wrote which lines of which file, and the prompts."""

    attested: dict[str, dict[str, str]]  # repo-relative path -> {prompt id: line ranges}
    body: JSONObject


def parse_note(text: str) -> Note | None:
    """The note in ``text``, or None if it is not one."""
    match = _SEPARATOR.search(text)
    if match is None:
        return None
    try:
        body = json.loads(text[match.end() :])
    except json.JSONDecodeError:
        return None
    if not isinstance(body, dict) or not isinstance(body.get("prompts"), dict):
        return None
    schema = body.get("schema_version")
    if not (isinstance(schema, str) and schema.startswith("authorship/")):
        return None
    attested: dict[str, dict[str, str]] = {}
    current: str | None = None
    for line in text[: match.start()].splitlines():
        entry = _HEAD_ENTRY.match(line)
        if entry and current is not None:
            attested[current][entry.group(1)] = entry.group(2).strip()
        elif line.strip() and not line[:1].isspace():
            current = line.strip()
            attested.setdefault(current, {})
    return Note(attested, body)


def _infer_root(attested: Iterable[str], paths: list[str]) -> str | None:
    """The repository root: what an absolute tool path has before an attested repo-relative path."""
    votes: Counter[str] = Counter()
    for path in paths:
        normal = path.replace("\\", "/")
        for relative in attested:
            suffix = "/" + relative.replace("\\", "/").lstrip("/")
            if normal.endswith(suffix) and len(normal) > len(suffix):
                votes[path[: len(path) - len(suffix)]] += 1
    return votes.most_common(1)[0][0] if votes else None


def _results_recorded(agent: str | None, messages: list[Any]) -> bool:
    """True when this prompt's tool calls are followed by their results as ``user`` messages.

    Claude Code never starts a new response before every call of the last
    one has its result.  In notes that keep results, nearly every call is
    answered by a ``user`` message before the next ``assistant`` message
    (a few, such as Task calls, may lack one); in notes that keep none, most
    calls are followed directly by the next response.
    """
    if agent != "claude":
        return False
    pending = answered = unanswered = 0
    for message in messages:
        kind = as_dict(message).get("type")
        if kind == "tool_use":
            pending += 1
        elif kind == "user" and pending:
            pending -= 1
            answered += 1
        elif kind == "assistant" and pending:
            unanswered += pending
            pending = 0
    return answered > 0 and answered >= 4 * unanswered


class _Reader:
    def __init__(self, source: Source, note: Note) -> None:
        self.source = source
        self.attested = note.attested
        self.body = note.body
        self.turns = TurnCounter()
        self.index = 0  # record number across all prompts, for ``line``

    def events(self) -> Iterator[Event]:
        prompts = as_dict(self.body["prompts"])
        paths = [
            path
            for prompt in prompts.values()
            if isinstance(prompt, dict) and isinstance(prompt.get("messages"), list)
            for message in prompt["messages"]
            if isinstance(message, dict) and isinstance(message.get("input"), dict)
            for path in [path_argument(message["input"])]
            if path
        ]
        root = _infer_root(self.attested, paths)
        for prompt_id, prompt in prompts.items():
            if not isinstance(prompt, dict) or not isinstance(prompt.get("messages"), list):
                self.source.skip(None, f"prompt {prompt_id} has no message list")
                continue
            yield from self._prompt(str(prompt_id), prompt, root)

    def _prompt(self, prompt_id: str, prompt: JSONObject, root: str | None) -> Iterator[Event]:
        agent_id = prompt.get("agent_id")
        agent_id = as_dict(agent_id)
        agent = as_str(agent_id.get("tool"))
        messages: list[Any] = as_list(prompt["messages"])
        yield SessionInfo(
            turn=self.turns.current,
            line=self.index + 1,
            session_id=as_str(agent_id.get("id")) or prompt_id,
            agent=agent,
            cwd=root,
            model=as_str(agent_id.get("model")),
        )
        with_results = _results_recorded(agent, messages)
        pending: deque[ToolCall] = deque()
        in_response = False
        for number, message in enumerate(messages):
            self.index += 1
            line = self.index
            if not isinstance(message, dict):
                self.source.skip(line, f"prompt {prompt_id} message {number} is not an object")
                continue
            kind = message.get("type")
            timestamp = as_str(message.get("timestamp"))
            if kind == "tool_use":
                if not in_response:
                    self.turns.assistant()
                    in_response = True
                call = self._call(prompt_id, number, line, timestamp, message)
                yield call
                if with_results:
                    pending.append(call)
                else:
                    yield ToolResult(
                        turn=call.turn,
                        line=line,
                        timestamp=timestamp,
                        call_id=call.call_id,
                        status="unknown",
                    )
            elif kind == "user":
                text = message.get("text")
                text = text if isinstance(text, str) else ""
                if pending and (
                    _user_run(messages, number) >= len(pending) or _answers(pending[0], text)
                ):
                    yield _result(pending.popleft(), line, timestamp, text)
                    in_response = False  # the next call answers the results
                    continue
                # Typed by the person: whatever is still waiting kept no result.
                yield from _unknown_results(pending)
                if text.strip():
                    in_response = False
                    yield UserMessage(
                        turn=self.turns.user(),
                        line=line,
                        timestamp=timestamp,
                        text=text,
                        synthetic=is_harness_text(text),
                    )
            elif kind == "assistant":
                # A new response: calls still waiting kept no result.
                yield from _unknown_results(pending)
                text = message.get("text")
                if not isinstance(text, str) or not text.strip():
                    continue
                # Text after tool calls starts the next response.
                yield AssistantMessage(
                    turn=self.turns.assistant(),
                    line=line,
                    timestamp=timestamp,
                    text=text,
                )
                in_response = True
            else:
                self.source.skip(line, f"prompt {prompt_id} message {number} has type {kind!r}")
        yield from _unknown_results(pending)
        yield from self._attestation(prompt_id)

    def _attestation(self, prompt_id: str) -> Iterator[Event]:
        """The files git-ai attributes lines of to this prompt: changes the harness reports.

        A prompt's message list can be incomplete (git-ai keeps the messages
        since its last checkpoint), so a file can carry the prompt's lines
        without an edit among the messages.  The attestation is reported as
        one call whose result names each file.
        """
        files = {
            path: ranges[prompt_id] for path, ranges in self.attested.items() if prompt_id in ranges
        }
        if not files:
            return
        call_id = f"{prompt_id}:attestation"
        turn = self.turns.current
        yield ToolCall(
            turn=turn,
            call_id=call_id,
            tool="git-ai attestation",
            arguments={"files": files},
            operations=tuple(
                FileOperation(
                    action="edit",
                    path=path,
                    detail=f"git-ai attributes lines {lines} to this prompt",
                )
                for path, lines in files.items()
            ),
        )
        yield ToolResult(
            turn=turn,
            call_id=call_id,
            status="success",
            reported=tuple(ReportedChange(path=path, change="modified") for path in files),
        )

    def _call(
        self, prompt_id: str, number: int, line: int, timestamp: str | None, message: JSONObject
    ) -> ToolCall:
        tool = as_str(message.get("name")) or "unknown"
        raw = message.get("input")
        arguments: JSONObject = as_dict(raw)
        return ToolCall(
            turn=self.turns.current,
            line=line,
            timestamp=timestamp,
            call_id=f"{prompt_id}:{number}",
            tool=tool,
            arguments=arguments,
            operations=tuple(operations_for(tool, arguments)),
        )


def _user_run(messages: list[Any], start: int) -> int:
    """How many ``user`` messages follow one another from ``start`` on."""
    end = start
    while (
        end < len(messages)
        and isinstance(messages[end], dict)
        and messages[end].get("type") == "user"
    ):
        end += 1
    return end - start


def _answers(call: ToolCall, text: str) -> bool:
    """Whether ``text`` can be the result of ``call`` when results may be missing.

    When fewer ``user`` messages follow than calls wait, some results were
    not kept.  A file tool's result has a fixed wording; a message in
    another wording is then the person writing.
    """
    if call.tool not in FILE_CHANGE_TOOLS:
        return True
    return is_failure_text(text) or reported_from_text(call.tool, None, text) is not None


def _unknown_results(pending: deque[ToolCall]) -> Iterator[ToolResult]:
    while pending:
        call = pending.popleft()
        yield ToolResult(turn=call.turn, line=call.line, call_id=call.call_id, status="unknown")


def _result(call: ToolCall, line: int, timestamp: str | None, text: str) -> ToolResult:
    """The result of a Claude Code call, read from the text git-ai kept (no is_error flag)."""
    common: JSONObject = {
        "turn": call.turn,
        "line": line,
        "timestamp": timestamp,
        "call_id": call.call_id,
        "output": text,
    }
    shell = is_shell_tool(call.tool)
    if is_failure_text(text) or (shell and re.match(r"Exit code [1-9]\d*\b", text)):
        reason, code = classify_failure(call.tool, text)
        return ToolResult(status="failure", failure=reason, exit_code=code, **common)
    change = reported_from_text(call.tool, path_argument(call.arguments), text, call.arguments)
    if change is None and call.tool in FILE_CHANGE_TOOLS:
        # In a result's place but in no result's wording: the outcome is unknown.
        return ToolResult(status="unknown", **common)
    return ToolResult(
        status="success",
        exit_code=0 if shell else None,
        reported=(change,) if change else None,
        **common,
    )


@register
class GitAiNoteAdapter(Adapter):
    name = "git-ai-note"
    description = "git-ai authorship note (refs/notes/ai): attested files, ---, prompts JSON"
    priority = 14

    def sniff(self, source: Source) -> bool:
        if source.document is not None or "authorship/" not in source.text_head(200_000):
            return False
        return parse_note(source.text) is not None

    def events(self, source: Source) -> Iterator[Event]:
        parsed = parse_note(source.text)
        if parsed is None:
            source.skip(None, "not a git-ai note: no '---' line followed by the prompts JSON")
            return iter(())
        return _Reader(source, parsed).events()
