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

# "created successfully at `PATH`", "I created `PATH`", "Created `PATH`", "was created at `PATH`",
# "Wrote `PATH`".
_CREATED = lazy_pattern(
    r"\b(?:[Cc]reated|[Ww]rote)\b(?: (?:successfully|the file|a new file|new file|file))*"
    r"(?: (?:at|in|to))?:? `(?P<path>[^`\s]+\.\w+)`"
)
# "All three files have been created and committed": every path the report then names.
_ALL_CREATED = lazy_pattern(r"\bfiles (?:have been|were) (?:created|written)\b")
_NAMED = lazy_pattern(r"`(?P<path>[^`\s]+\.\w+)`")
_PROMPT_PATH = lazy_pattern(r"[\w.~/-]+/[\w.-]+\.\w+")


def reported_created(call: ToolCall, report: str) -> list[str]:
    """The paths the sub-agent's ``report`` says it created that its prompt asked for, in order.

    A report may name a file by its name alone ("Wrote `SKILL.md`"): it stands for the one path
    of that name the prompt gives.
    """
    prompt = call.arguments.get("prompt")
    if call.tool not in SUB_AGENT_TOOLS or not isinstance(prompt, str):
        return []
    found = [match["path"] for match in _CREATED.finditer(report)]
    if _ALL_CREATED.search(report):
        found += [match["path"] for match in _NAMED.finditer(report)]
    asked = set(_PROMPT_PATH.findall(prompt))
    out: list[str] = []
    for path in found:
        if "/" in path:
            if path in prompt:
                out.append(path)
            continue
        same_name = {p for p in asked if p.rsplit("/", 1)[-1] == path}
        if len(same_name) == 1:
            out.append(same_name.pop())
    return list(dict.fromkeys(out))
