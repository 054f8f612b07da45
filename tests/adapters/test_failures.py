"""The failure sentences harnesses write, mapped to failure reasons."""

from __future__ import annotations

import pytest

from artifact_index.adapters.failures import classify_failure


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
