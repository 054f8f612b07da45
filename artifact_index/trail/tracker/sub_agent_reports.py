"""Files a sub-agent says it created: the main transcript holds its report, not its calls.

Claude Code's ``Agent`` (formerly ``Task``) tool runs a sub-agent whose own tool calls live in
another file; the main transcript keeps only the prompt and the sub-agent's final report. When
the prompt asks for a file by its path and the report says that very path was created ("The
file has been created successfully at `app/api/query/route.ts`"), the file is the session's
creation: a later read of it by the main agent is no read of a file that predates the session.
Only paths the prompt names count, so a report's passing mention of another file does not.
"""

from __future__ import annotations

from artifact_index.ingestion.events import ToolCall
from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["SUB_AGENT_TOOLS", "reported_created"]

SUB_AGENT_TOOLS = frozenset({"Agent", "Task"})
"""Claude Code's tools that run a sub-agent."""

# "created successfully at `PATH`", "I created `PATH`", "Created `PATH`", "was created at `PATH`".
_CREATED = lazy_pattern(
    r"\b[Cc]reated\b(?: (?:successfully|the file|a new file|new file|file))*(?: (?:at|in))?:?"
    r" `(?P<path>[^`\s]+\.\w+)`"
)


def reported_created(call: ToolCall, report: str) -> list[str]:
    """The paths the sub-agent's ``report`` says it created that its prompt asked for, in order."""
    prompt = call.arguments.get("prompt")
    if call.tool not in SUB_AGENT_TOOLS or not isinstance(prompt, str):
        return []
    found = (match["path"] for match in _CREATED.finditer(report))
    return list(dict.fromkeys(path for path in found if path in prompt))
