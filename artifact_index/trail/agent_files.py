"""The agent's own files: plans, memories and settings it keeps under its home directory, not the project's.

Claude Code writes its plan to ``~/.claude/plans/NAME.md``; Codex, Gemini
CLI, Copilot CLI and the others keep state in their own dot directories.
The tracker records such a write like any other (it is a file the session
changed), but the agent that continues works on the project: listed among
its changed files and counted as "created", a plan file reads as project
work, and it is never committed.  Only a path outside the project (absolute,
under a home directory) is the agent's own: ``.claude/settings.json`` inside
the repository is a project file.
"""

from __future__ import annotations

from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["is_agent_own"]

_AGENT_HOME = lazy_pattern(
    r"^(?:~|/(?:home|Users)/[^/]+|/root)/\.(?:claude|codex|gemini|copilot|cline|openhands|aider|opencode"
    r"|config/(?:opencode|claude|gemini|copilot))(?:/|$)"
)


def is_agent_own(path: str) -> bool:
    """Whether ``path`` lies in a coding agent's own directory under a home directory."""
    return _AGENT_HOME.match(path) is not None
