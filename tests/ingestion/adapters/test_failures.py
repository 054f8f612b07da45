"""The failure sentences harnesses write, mapped to failure reasons."""

from __future__ import annotations

import pytest

from artifact_index.ingestion.adapters.claude_results import (
    classify_failure as classify_shell_failure,
)
from artifact_index.ingestion.adapters.failures import classify_failure


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (
            "apply_patch verification failed: Failed to find expected lines in /a.py:\nx",
            "verification",
        ),
        ("patch rejected by user", "rejected"),
        ("exec command rejected by user", "rejected"),
        ("Error: The user rejected permission to use this specific tool call.", "rejected"),
        ("aborted by user after 29.7s", "interrupted"),
        ("Tool execution aborted", "interrupted"),
        (
            "Error: You must read file /a.ts before overwriting it. Use the Read tool first",
            "not_read",
        ),
        ("Error: File /a.ts has been modified since it was last read.", "stale"),
        ("Error: Found multiple matches for oldString.", "not_unique"),
        ("Failed to edit, expected 1 occurrence but found 3.", "not_unique"),
        ("Error: Could not find oldString in the file.", "not_found"),
        ("Path does not exist", "not_found"),
        ("sandbox denied exec error, exit code: 1", "permission"),
        ("No changes to apply: oldString and newString are identical.", "invalid"),
        (
            'Tool "run_shell_command" not found. Did you mean one of: "grep_search", "read_file"?',
            "invalid",
        ),
        ("sh: tool not found", "not_found"),
    ],
)
def test_known_sentences(text: str, reason: str) -> None:
    assert classify_failure(text) == reason


def test_unknown_sentence_gets_the_default() -> None:
    assert classify_failure("something odd happened") == "other"
    assert classify_failure("something odd happened", default="exit_status") == "exit_status"


def test_only_the_head_of_a_long_output_is_read() -> None:
    # A test log that mentions "not found" far down is not a missing-file failure.
    assert classify_failure("x" * 2000 + " file not found") == "other"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Found 2 matches of the string to replace, but replace_all is false.", "not_unique"),
        (
            "Claude requested permissions to write to /a/CLAUDE.md, but you haven't granted it yet.",
            "permission",
        ),
        (
            "Permission for this tool use was denied. The tool use was rejected (eg. if it was a file edit)",
            "permission",
        ),
        ("Sibling tool call errored", "interrupted"),
        ("EISDIR: illegal operation on a directory, read", "invalid"),
        ("File content (806.5KB) exceeds maximum allowed size (256KB).", "invalid"),
        ("InputValidationError: Task failed due to the following issue", "invalid"),
        ("Unknown skill: commit", "invalid"),
    ],
)
def test_claude_code_sentences_share_the_table(text: str, reason: str) -> None:
    assert classify_failure(text) == reason


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (
            "Permission to use Bash with command sed -n '1,60p' prune.ps1 has been denied.",
            "permission",
        ),
        (
            "Permission for this action was denied by the Claude Code auto mode classifier. "
            "Reason: Blocked by classifier. If you have other tasks that don't depend on this",
            "permission",
        ),
        (
            "qwen3-coder:30b is temporarily unavailable, so auto mode cannot determine the safety "
            "of Bash right now. Wait briefly and then try this action again.",
            "permission",
        ),
        (
            "Blocked: sleep 30 followed by: gh pr view 94 --json statusCheckRollup. Run blocking "
            "commands in the background with run_in_background: true",
            "hook_blocked",
        ),
    ],
)
def test_claude_code_refusing_a_shell_command_is_the_harness_not_the_program(
    text: str, reason: str
) -> None:
    assert classify_shell_failure("Bash", f"<tool_use_error>{text}</tool_use_error>")[0] == reason
