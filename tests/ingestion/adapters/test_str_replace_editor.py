"""The str_replace_editor family: its command line and its result sentences."""

from __future__ import annotations

import shlex

import pytest

from artifact_index.ingestion.adapters.str_replace_editor import (
    editor_failure,
    is_directory_listing,
    parse_editor_command_line,
)


def test_command_line_round_trips_shell_quoted_multiline_values() -> None:
    text = "def f():\n    return 'it''s'\n"
    line = f"str_replace_editor create /testbed/a.py --file_text {shlex.quote(text)}"
    assert parse_editor_command_line(line) == {
        "command": "create",
        "path": "/testbed/a.py",
        "file_text": text,
    }


def test_command_line_numbers_and_equals_form() -> None:
    assert parse_editor_command_line("str_replace_editor view /a.py --view_range 10 -1") == {
        "command": "view",
        "path": "/a.py",
        "view_range": [10, -1],
    }
    assert parse_editor_command_line(
        "str_replace_editor insert /a.py --insert_line=3 --new_str=x"
    ) == {
        "command": "insert",
        "path": "/a.py",
        "insert_line": 3,
        "new_str": "x",
    }


@pytest.mark.parametrize(
    "line",
    [
        "str_replace_editor",  # no sub-command
        "str_replace_editor delete /a.py",  # not a sub-command of the editor
        "str_replace_editor view /a.py --view_range 1",  # one value for two
        "str_replace_editor view /a.py --colour red",  # unknown flag
        "str_replace_editor create /a.py --file_text 'unterminated",
        "cat /a.py",
    ],
)
def test_command_line_that_is_not_an_editor_call(line: str) -> None:
    assert parse_editor_command_line(line) is None


@pytest.mark.parametrize(
    ("output", "reason"),
    [
        (
            "No replacement was performed, old_str `x` did not appear verbatim in /a.py.",
            "not_found",
        ),
        (
            "No replacement was performed. Multiple occurrences of old_str `x` in lines [1, 2]. Please ensure it is unique",
            "not_unique",
        ),
        ("The parent directory /testbed/repro does not exist. Please create it first.", "invalid"),
        ("The path /testbed/b.py does not exist. Please provide a valid path.", "invalid"),
        (
            "File already exists at: /a.py. Cannot overwrite files using command `create`.",
            "invalid",
        ),
        (
            "Invalid `view_range`: [1, 400]. Its second element `400` should be smaller than the number of lines in the file: `120`",
            "invalid",
        ),
        ("No edit history found for /testbed/repro.py.", "invalid"),
        (
            "Your proposed edit has introduced new syntax error(s). Please read this error message carefully.",
            "verification",
        ),
        ("ERROR:\nParameter `old_str` is required for command: str_replace.", "invalid"),
        ("ERROR:\nsomething nobody has seen before", "other"),
    ],
)
def test_failure_sentences(output: str, reason: str) -> None:
    assert editor_failure(output) == reason


@pytest.mark.parametrize(
    "output",
    [
        "The file /a.py has been edited. Here's the result of running `cat -n` on a snippet of /a.py:\n 1\tx = 'does not exist'",
        "File created successfully at: /a.py",
        "Here's the result of running `cat -n` on /a.py:\n     1\tMultiple occurrences of old_str are fine here",
        "Last edit to /a.py undone successfully.",
        "",
    ],
)
def test_successful_results_are_not_failures_whatever_the_file_says(output: str) -> None:
    assert editor_failure(output) is None


def test_directory_listing() -> None:
    assert is_directory_listing(
        "Here's the files and directories up to 2 levels deep in /testbed, excluding hidden items:"
    )
    assert not is_directory_listing("Here's the result of running `cat -n` on /testbed/a.py:")
