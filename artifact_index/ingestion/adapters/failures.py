"""Why a tool call failed, read from the text the harness gave the model.

Harnesses rarely say *why* a call failed in a structured field: Codex,
OpenCode, GitHub Copilot CLI and Gemini CLI all hand the model a sentence.
The sentences differ in wording but not in kind, so one ordered table of
phrases maps them to :data:`~artifact_index.ingestion.events.FailureReason`.  The order
matters: ``apply_patch verification failed: Failed to find expected lines``
is a verification failure although it also says "failed to find".
"""

from __future__ import annotations

import re

from artifact_index.ingestion.events import FailureReason
from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["classify_failure"]

# (reason, phrases) in priority order; phrases are matched case-insensitively.
_RULES: tuple[tuple[FailureReason, tuple[str, ...]], ...] = (
    (
        "rejected",
        (
            "rejected by user",
            "user rejected",
            "user denied",
            "user declined",
            "declined by user",
            "doesn't want to proceed",
            "does not want to proceed",
            "user dismissed",
            "cancelled by user",
            "canceled by user",
            "user cancelled",
            "user canceled",
            "rejected permission",
        ),
    ),
    ("hook_blocked", ("hook error", "blocked by hook", "hook blocked", "hook denied")),
    (
        "permission",
        (
            "sandbox denied",
            "failed in sandbox",
            "unacceptable risk",
            "prevents you from using this",
            "requires approval",
            "not allowed to",
            "permission to write",
            "outside the workspace",
            "outside of the workspace",
            "external directory",
            "requested permissions",
            "permission for this tool use was denied",
        ),
    ),
    (
        "verification",
        (
            "verification failed",
            "failed to find expected lines",
            "failed to find context",
            "invalid patch",
            "invalid hunk",
            "syntax error",
            "patch does not apply",
        ),
    ),
    (
        "not_read",
        (
            "has not been read",
            "must read",
            "read it first",
            "read the file before",
            "not been read yet",
        ),
    ),
    ("stale", ("modified since", "changed since it was last read", "file has been modified")),
    (
        "not_unique",
        (
            "multiple matches",
            "found multiple",
            "multiple occurrences",
            "more than one match",
            "not unique",
            "occurrence but found",
            "occurrences but found",
            "matches of the string to replace",
        ),
    ),
    (
        "not_found",
        (
            "not found",
            "does not exist",
            "doesn't exist",
            "no such file",
            "could not find",
            "couldn't find",
            "did not appear verbatim",
            "no match",
            "failed to read file",
        ),
    ),
    (
        "interrupted",
        (
            "aborted",
            "interrupted",
            "cancelled",
            "canceled",
            "timed out",
            "sibling tool call errored",
        ),
    ),
    (
        "invalid",
        (
            "invalid",
            "identical",
            "must be different",
            "is required",
            "must be absolute",
            "unsupported call",
            "failed to parse",
            "already exists",
            "no changes to apply",
            "unknown tool",
            "inputvalidationerror",
            "exceeds maximum allowed",
            "eisdir",
            "unknown skill",
            "no changes to make",
            "is not a valid",
        ),
    ),
)

_PATTERNS: tuple[tuple[FailureReason, re.Pattern[str]], ...] = tuple(
    (reason, lazy_pattern("|".join(re.escape(p) for p in phrases), re.IGNORECASE))
    for reason, phrases in _RULES
)


# The harness has no tool of the name the model called (Gemini CLI: `Tool "run_shell_command" not found.
# Did you mean one of: …`): the call was refused before anything ran, whatever its arguments asked for.
_NO_SUCH_TOOL = lazy_pattern(r"^(?:Error: )?Tool [\"'`]?[\w.:-]+[\"'`]? not found\b", re.IGNORECASE)


def classify_failure(text: str, default: FailureReason = "other") -> FailureReason:
    """The failure reason a harness message describes, ``default`` when none fits.

    Only the head of the text is read: a long failure output (a test run, a
    file dump) quotes arbitrary content, and its first lines carry the
    harness's own sentence.
    """
    head = text[:600]
    if _NO_SUCH_TOOL.search(head.lstrip()):
        return "invalid"
    for reason, pattern in _PATTERNS:
        if pattern.search(head):
            return reason
    return default
