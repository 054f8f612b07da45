"""Work the agent left running in the background: its sub-agents, whether each had finished at the cut.

Claude Code's agent can launch a sub-agent that works on while the
conversation goes on ("Async agent launched successfully. agentId: ...");
when it ends, a ``<task-notification>`` with that id, its status and its
report comes in as a message.  The sub-agent's own edits are in its own
transcript, so the session's index never sees them: the files its report
names are the only trace of them here, and are said as that.  A launch with
no notice before the cut is work still running, which the agent that
continues must wait for rather than redo.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from artifact_index.ingestion.events import Event, ToolCall, ToolResult, UserMessage
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.conversation.told import BackgroundAgent

__all__ = ["PATHS_KEPT", "background_agents"]

# Newer Claude Code versions add a note on the launch line ("... successfully. (This tool result is internal
# metadata ...)") before the agent's id on the next.
_LAUNCHED = lazy_pattern(r"^\s*Async agent launched successfully\.[^\n]*\n\s*agentId:\s*(\w+)")
_NOTICE = lazy_pattern(r"<task-notification>(?P<body>.*?)(?:</task-notification>|\Z)", re.S)
_FIELD = "<{0}>(.*?)</{0}>"
# A path a report names: with a folder and an extension (`cli/src/foo.test.ts`, or absolute), as written.
_PATH = lazy_pattern(r"(?<![\w/.-])(/?(?:[\w.@-]+/)+[\w.@-]+\.[A-Za-z]{1,8})(?![\w/])")
# A line of a report that says a file was made or changed ("Created `x.test.ts` with 21 tests"): only its
# paths are taken; the others are files the report mentions (the module under test, a pattern followed).
_CHANGE_LINE = lazy_pattern(
    r"\b(?:created|creates|wrote|written|added|adds|modified|updated|changed|edited|rewrote|deleted|removed|"
    r"new (?:test )?files?)\b",
    re.I,
)
PATHS_KEPT = 12


def _field(body: str, name: str) -> str | None:
    found = re.search(_FIELD.format(name), body, re.S)
    return found.group(1).strip() if found else None


def _changed_paths(report: str) -> list[str]:
    """The paths on the lines of a report that say a file was created or changed, in order, once each."""
    found = [
        path
        for line in report.splitlines()
        if _CHANGE_LINE.search(line)
        for path in _PATH.findall(line)
    ]
    return list(dict.fromkeys(found))[:PATHS_KEPT]


def background_agents(events: Sequence[Event]) -> list[BackgroundAgent]:
    """The sub-agents launched in the background, each with its completion notice when one came."""
    described: dict[str, str] = {}
    launched: dict[str, BackgroundAgent] = {}
    for event in events:
        if isinstance(event, ToolCall) and event.tool in ("Agent", "Task"):
            description = event.arguments.get("description")
            described[event.call_id] = str(description) if description else "a sub-agent"
        elif isinstance(event, ToolResult) and event.call_id in described:
            found = _LAUNCHED.match(event.output or "")
            if found:
                launched[found.group(1)] = BackgroundAgent(
                    turn=event.turn, description=described[event.call_id]
                )
        elif isinstance(event, UserMessage) and "<task-notification>" in event.text:
            for notice in _NOTICE.finditer(event.text):
                body = notice.group("body")
                agent = launched.get(_field(body, "task-id") or "")
                if agent is None:
                    continue  # a background shell command's notice, or an agent launched before the span
                result = _field(body, "result") or ""
                launched[_field(body, "task-id") or ""] = agent.model_copy(
                    update={
                        "finished_turn": event.turn,
                        "status": _field(body, "status") or "ended",
                        "result": result,
                        "paths": _changed_paths(result),
                    }
                )
    return sorted(launched.values(), key=lambda a: a.turn)
