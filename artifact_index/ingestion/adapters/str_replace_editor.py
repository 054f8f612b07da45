"""The ``str_replace_editor`` tool family shared by SWE-agent and OpenHands.

SWE-agent 1.x, OpenHands (``oh_aci`` and the software-agent SDK) and
Anthropic's text editor tool all descend from one editor with the
sub-commands ``view``, ``create``, ``str_replace``, ``insert`` and
``undo_edit``.  This module holds what the adapters of those harnesses share:

* :func:`parse_editor_command_line` reads the shell spelling SWE-agent
  records in a trajectory's ``action``
  (``str_replace_editor create /p --file_text '...'``);
* :func:`editor_failure` tells a failed call from a successful one by the
  editor's own sentences and says why it failed;
* :func:`is_directory_listing` recognizes a ``view`` of a directory, which
  reads no file.
"""

from __future__ import annotations

import re
import shlex
from typing import cast

from artifact_index.ingestion.adapters.failures import classify_failure
from artifact_index.ingestion.events import FailureReason, JSONObject
from artifact_index.lazy_pattern import lazy_pattern

__all__ = [
    "EDITOR_COMMANDS",
    "editor_failure",
    "is_directory_listing",
    "parse_editor_command_line",
]

EDITOR_COMMANDS = ("view", "create", "str_replace", "insert", "undo_edit")

# The editor's argparse front end (SWE-agent tools/edit_anthropic): flag -> how many values.
_FLAGS = {"file_text": 1, "view_range": 2, "old_str": 1, "new_str": 1, "insert_line": 1}

# First sentences of the editor's successful results; anything else at the
# head of a result is read as an error message.
_SUCCESS_HEADS = (
    "here's the result of running",
    "here's the files and directories",
    "here is the result",
    "the file ",  # "The file X has been edited."
    "file created successfully",
    "last edit to ",
    "<note>this file is too large",
    "no changes detected",
)

# Editor-specific sentences whose reason differs from the generic table in
# failures.py, checked first and in this order.
_EDITOR_RULES: tuple[tuple[FailureReason, re.Pattern[str]], ...] = (
    (
        "verification",
        lazy_pattern(r"introduced new syntax error|changes have NOT been applied", re.I),
    ),
    (
        "not_found",
        lazy_pattern(
            r"did not appear verbatim|no exact match found|not found in displayed lines", re.I
        ),
    ),
    (
        "not_unique",
        lazy_pattern(r"multiple occurrences|more than one occurrence|multiple matches", re.I),
    ),
    # A missing target path (or parent directory) is a bad argument.  It is
    # not "not_found", which for an edit means the *string* was missing from
    # a file that exists.
    (
        "invalid",
        lazy_pattern(
            r"parent directory .* does not exist|does not exist\. Please provide a valid path", re.I
        ),
    ),
    (
        "invalid",
        lazy_pattern(
            r"(?m)is not an absolute path|is a directory|only the `view` command|"
            r"already exists|is the same as new_str|must be different|no edit history|"
            r"is required for command|unrecognized command|expected to be one of|"
            r"invalid `|not allowed when|^usage:",
            re.I,
        ),
    ),
)


def parse_editor_command_line(command: str) -> JSONObject | None:
    """The arguments of ``str_replace_editor SUB PATH --flag value ...``, or None.

    SWE-agent quotes every argument with :func:`shlex.quote`, so POSIX shell
    splitting recovers long multi-line ``--file_text`` / ``--old_str`` /
    ``--new_str`` values exactly.  ``--view_range A B`` becomes a list of two
    integers and ``--insert_line N`` an integer, as in the JSON tool calls.
    """
    try:
        tokens = shlex.split(command, posix=True)
    except ValueError:
        return None
    if not tokens or tokens[0].rsplit("/", 1)[-1] != "str_replace_editor":
        return None
    positional: list[str] = []
    arguments: JSONObject = {}
    i = 1
    while i < len(tokens):
        token = tokens[i]
        if token.startswith("--"):
            name, eq, inline = token[2:].partition("=")
            count = _FLAGS.get(name)
            if count is None:
                return None
            values = [inline] if eq else tokens[i + 1 : i + 1 + count]
            i += 1 if eq else 1 + count
            if len(values) != count:
                return None
            arguments[name] = values if count > 1 else values[0]
        else:
            positional.append(token)
            i += 1
    if len(positional) < 2 or positional[0] not in EDITOR_COMMANDS:
        return None
    arguments["command"], arguments["path"] = positional[0], positional[1]
    if "view_range" in arguments:
        numbers = [_as_int(v) for v in cast("list[str]", arguments["view_range"])]
        if None in numbers:
            return None
        arguments["view_range"] = numbers
    if "insert_line" in arguments:
        line = _as_int(cast(str, arguments["insert_line"]))
        if line is None:
            return None
        arguments["insert_line"] = line
    return arguments


def _as_int(value: str) -> int | None:
    value = value.strip()
    return int(value) if re.fullmatch(r"-?\d+", value) else None


def _head(text: str) -> str:
    """The first non-blank lines of a result, without OpenHands' ``ERROR:`` prefix."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if lines and lines[0].upper().rstrip(":") == "ERROR":
        lines = lines[1:]
    elif lines and lines[0].upper().startswith("ERROR:"):
        lines[0] = lines[0][6:].strip()
    return "\n".join(lines[:3])[:600]


def editor_failure(output: str, *, explicit_error: bool = False) -> FailureReason | None:
    """Why an editor call failed, or None when ``output`` reports success.

    ``explicit_error`` says the harness already marked the output as an
    error (OpenHands' ``ERROR:`` prefix, the SDK's ``error`` field); the text
    then only chooses the reason.  Otherwise the result counts as a failure
    only when its first sentence is an error the editor is known to print,
    because successful results quote file content that may say anything.
    """
    stripped = output.strip()
    explicit_error = explicit_error or stripped.upper().startswith("ERROR")
    head = _head(output)
    lowered = head.lower()
    if not explicit_error and (not head or lowered.startswith(_SUCCESS_HEADS)):
        return None
    for reason, pattern in _EDITOR_RULES:
        if pattern.search(head):
            return reason
    if explicit_error:
        return classify_failure(head)
    reason = classify_failure(head, default="other")
    # Without the harness's own error marker, a sentence the failure table
    # does not know is taken as success: a false failure would hide an edit.
    return reason if reason != "other" or lowered.startswith("ran into") else None


def is_directory_listing(output: str) -> bool:
    """True for the result of ``view`` on a directory (it reads no file)."""
    return output.lstrip().lower().startswith("here's the files and directories")
