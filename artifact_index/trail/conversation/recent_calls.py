"""What the agent was doing when the summary was written: its last tool calls and how they ended.

The index keeps what the calls changed; the agent that continues also needs
to know what it had just run and what came back ("the last `mix test` was
still running", "the commit was refused").  These are read from the events
of the main agent (a sub-agent's calls are its own business).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from artifact_index.ingestion.events import AssistantMessage, Event, ToolCall, ToolResult
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.conversation.told import Activity
from artifact_index.trail.session_state import AssistantSaid

__all__ = [
    "agent_wrote",
    "last_message",
    "message_before",
    "recent_activity",
    "recent_messages",
    "thread_since",
]

_TARGET = 160
_OUTPUT_LINES = 4
_OUTPUT = 400


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _TARGET else text[: _TARGET - 1] + "…"


def _target(call: ToolCall) -> str:
    """What the call acted on: its command or file, as the adapter read it, else its arguments."""
    pattern = call.arguments.get("pattern") or call.arguments.get("query")
    if isinstance(pattern, str) and pattern.strip():  # a search: what was looked for matters most
        where = call.arguments.get("path") or call.arguments.get("glob")
        return _short(f"{pattern} in {where}" if isinstance(where, str) and where else pattern)
    for op in call.operations:
        named = op.command if op.action == "shell" else op.path
        if named:
            return _short(named)
    arguments = call.arguments
    for key in ("command", "cmd", "file_path", "path", "filePath", "url"):
        value = arguments.get(key)
        if isinstance(value, str) and value.strip():
            return _short(value)
    return _short(json.dumps(arguments, ensure_ascii=False, default=str))


_REMINDER = lazy_pattern(r"<system-reminder>.*?</system-reminder>", re.DOTALL)
# Tools whose output is the answer the agent was waiting for; a read's is the file it already knows.
_OUTPUT_WORTH_KEEPING = ("bash", "shell", "exec", "command", "run", "terminal")


def _tail(output: str) -> str:
    output = _REMINDER.sub("", output)
    lines = [line.rstrip() for line in output.strip().splitlines() if line.strip()]
    text = "\n".join(lines[-_OUTPUT_LINES:])
    return text if len(text) <= _OUTPUT else "…" + text[-(_OUTPUT - 1) :]


def _lines(call: ToolCall) -> tuple[int, int] | None:
    """The lines a read of part of a file asked for: ``offset``/``limit`` (Claude Code, Gemini CLI), ``view_range``."""
    arguments = call.arguments
    offset, limit = arguments.get("offset"), arguments.get("limit")
    if (
        isinstance(offset, int)
        and isinstance(limit, int)
        and not isinstance(offset, bool)
        and limit > 0
    ):
        return offset, offset + limit - 1
    shown = arguments.get("view_range")
    if (
        isinstance(shown, list)
        and len(shown) == 2
        and all(isinstance(n, int) and n > 0 for n in shown)
    ):
        return shown[0], shown[1]
    return None


def _within(target: str, root: str | None) -> str:
    """``target`` with the workspace's own paths relative: ``/Users/dev/work/cli/cmd/x.go`` -> ``cmd/x.go``."""
    return target.replace(root.rstrip("/") + "/", "") if root and root.rstrip("/") else target


def recent_activity(
    events: Sequence[Event], limit: int = 3, root: str | None = None
) -> list[Activity]:
    """The main agent's last ``limit`` tool calls, oldest first, each with its result's status and output tail.

    Paths inside the workspace ``root`` are said relative to it, as everywhere else in the summary.
    """
    calls: list[ToolCall] = []
    results: dict[str, ToolResult] = {}
    for event in reversed(events):
        if event.sidechain is not None:
            continue
        if isinstance(event, ToolResult):
            results.setdefault(event.call_id, event)
        elif isinstance(event, ToolCall):
            calls.append(event)
            if len(calls) == limit:
                break
    facts = []
    for call in reversed(calls):
        result = results.get(call.call_id)
        status: str = result.status if result is not None else "pending"
        if result is not None and result.failure:
            status = f"{status} ({result.failure})"
        keep = result is not None and (result.status == "failure" or _shows_output(call))
        facts.append(
            Activity(
                turn=call.turn,
                tool=call.tool,
                target=_within(_target(call), root),
                status=status,
                output=_tail(result.output) if keep and result is not None else "",
                lines=_lines(call),
            )
        )
    return facts


def _shows_output(call: ToolCall) -> bool:
    """Whether the call's output is news to the agent: a command's, not a file read's."""
    name = call.tool.lower()
    return any(op.action == "shell" for op in call.operations) or any(
        word in name for word in _OUTPUT_WORTH_KEEPING
    )


# What Claude Code writes in the assistant's place when a request fails or is cut short ("API Error: 401 ...
# Please run /login", "No response requested."): the harness's words, not where the agent stopped.
_HARNESS_TEXT = lazy_pattern(
    r"\A(?:API Error\b|No response requested\.?\Z|Prompt is too long\b|Claude AI usage limit reached\b|"
    r"Request timed out\b|Credit balance is too low\b|Invalid API key\b)"
)


def agent_wrote(event: Event) -> bool:
    """Whether ``event`` is a message the main agent wrote (not a sub-agent's, not one the harness wrote)."""
    return (
        isinstance(event, AssistantMessage)
        and event.sidechain is None
        and _HARNESS_TEXT.match(event.text.strip()) is None
        and bool(event.text.strip())
    )


def last_message(events: Sequence[Event]) -> AssistantSaid | None:
    """The main agent's last message in its own words, if it wrote one."""
    for event in reversed(events):
        if isinstance(event, AssistantMessage) and agent_wrote(event):
            return AssistantSaid(turn=event.turn, text=event.text)
    return None


def message_before(events: Sequence[Event], turn: int) -> AssistantSaid | None:
    """The main agent's last message before ``turn``, in its own words: what a user message of that turn
    replied to."""
    found = None
    for event in events:
        if event.turn >= turn:
            break
        if isinstance(event, AssistantMessage) and agent_wrote(event):
            found = event
    return AssistantSaid(turn=found.turn, text=found.text.strip()) if found is not None else None


def recent_messages(events: Sequence[Event], limit: int = 6) -> list[AssistantSaid]:
    """The main agent's last ``limit`` messages, oldest first: the thread of what it was doing."""
    found: list[AssistantSaid] = []
    for event in reversed(events):
        if isinstance(event, AssistantMessage) and agent_wrote(event):
            found.append(AssistantSaid(turn=event.turn, text=event.text))
            if len(found) == limit:
                break
    return list(reversed(found))


def thread_since(events: Sequence[Event], turn: int) -> tuple[list[AssistantSaid], int]:
    """The main agent's messages from ``turn`` on, oldest first, and how many tool calls it made then."""
    messages: list[AssistantSaid] = []
    calls = 0
    for event in events:
        if event.sidechain is not None or event.turn < turn:
            continue
        if isinstance(event, AssistantMessage) and agent_wrote(event):
            messages.append(AssistantSaid(turn=event.turn, text=event.text))
        elif isinstance(event, ToolCall):
            calls += 1
    return messages, calls
