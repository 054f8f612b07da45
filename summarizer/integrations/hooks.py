"""Claude Code hooks: put the exact file trail back into the context after a compaction.

Claude Code runs a ``SessionStart`` hook with ``"source": "compact"`` right
after it compacts, and adds what the hook returns as ``additionalContext`` to
the new context; a ``PreCompact`` hook's output reaches the compaction as
instructions.  Both get the hook input on standard input, with
``transcript_path``.  :func:`hook_response` answers either with the index's
exact sections (files changed with their symbols, files read, open errors,
test status, open tasks), so the agent neither forgets an edit nor re-reads a
file to learn what it already knew.
"""

from __future__ import annotations

import json
from typing import Any

from artifact_index.redaction import redact_text
from artifact_index.trail.build import build_index
from summarizer.exceptions import SummarizerError
from summarizer.sections.facts import SessionFacts, facts_from_index
from summarizer.sections.index_sections import render_index_section

__all__ = ["file_trail_context", "hook_response"]

_SECTIONS = (
    ("Files created", "files_created"),
    ("Files modified", "files_modified"),
    ("Files deleted", "files_deleted"),
    ("Files changed and then reverted", "files_reverted"),
    ("Files read (unchanged)", "files_read"),
    ("Errors", "error_messages"),
    ("Test status", "test_status"),
    ("Open tasks", "pending_tasks"),
)


def file_trail_context(facts: SessionFacts, detail: int = 1) -> str:
    """The exact sections, as Markdown, for an agent that just lost its context."""
    parts = ["# What this session has done so far (computed from the transcript by artifact-index)"]
    for title, key in _SECTIONS:
        body = render_index_section(key, facts, detail)
        if body.startswith(("None", "No test run", "No task list")):
            continue
        parts.append(f"## {title}\n{body}")
    return "\n\n".join(parts) + "\n"


def hook_response(hook_input: dict[str, Any]) -> str:
    """What to print for a Claude Code hook invocation (JSON for SessionStart, text for PreCompact)."""
    transcript = hook_input.get("transcript_path")
    if not isinstance(transcript, str) or not transcript:
        raise SummarizerError("the hook input has no transcript_path")
    event = str(hook_input.get("hook_event_name") or "SessionStart")
    index, _ = build_index(transcript)
    context = redact_text(file_trail_context(facts_from_index(index)))
    if event == "SessionStart":
        return json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": context}})
    if event == "PreCompact":
        return ("Keep every file path below in the summary, with what changed; they are exact.\n\n" + context)
    raise SummarizerError(f"hook event {event!r} is not supported (SessionStart, PreCompact)")
