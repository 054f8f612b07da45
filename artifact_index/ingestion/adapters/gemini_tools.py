"""Gemini CLI's tools, whichever file records them: what they do to files and how they ended.

Both the chat recording (:mod:`.gemini_cli`) and the API history a session
is saved as (:mod:`.gemini_api`) hold the same tool calls: ``read_file``,
``read_many_files``, ``write_file``, ``replace`` (``expected_replacements``
for more than one), ``run_shell_command`` (``directory`` / ``dir_path``
relative to the workspace) and the rest, with a ``functionResponse`` whose
``output`` says whether a file was created ("Successfully created and wrote
to new file: …") or changed, and whose shell output ends with ``Exit Code:
N``.
"""

from __future__ import annotations

import re

from artifact_index.ingestion.adapters.base import under_directory
from artifact_index.ingestion.adapters.failures import classify_failure
from artifact_index.ingestion.adapters.narrowing import as_list
from artifact_index.ingestion.events import (
    FailureReason,
    FileOperation,
    JSONObject,
    ReportedChange,
    ResultStatus,
)
from artifact_index.ingestion.vocabulary import operations_for, path_argument
from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["SHELL_TOOLS", "reported_change", "tool_operations", "tool_outcome"]

SHELL_TOOLS = frozenset({"run_shell_command", "shell"})
_EXIT_CODE = lazy_pattern(r"^Exit Code: (-?\d+)\s*$", re.MULTILINE)
# write_file / replace answers that say whether the file existed before.
_CREATED = lazy_pattern(
    r"^(Successfully created and wrote to new file|Created new file)", re.IGNORECASE
)
_MODIFIED = lazy_pattern(
    r"^(Successfully overwrote file|Successfully modified file)", re.IGNORECASE
)


def tool_operations(tool: str, arguments: JSONObject, root: str | None) -> list[FileOperation]:
    """The file operations of one Gemini CLI tool call; relative paths resolve against ``root``."""
    name = tool.lower()
    if name in SHELL_TOOLS:
        command = arguments.get("command")
        if not isinstance(command, str) or not command.strip():
            return []
        directory = arguments.get("dir_path") or arguments.get("directory")
        cwd = root
        if isinstance(directory, str) and directory.strip():
            cwd = under_directory(cwd, directory)
        return [FileOperation(action="shell", command=command, cwd=cwd, source="shell")]
    if name == "read_many_files":
        paths = arguments.get("paths") or arguments.get("include")
        return [
            FileOperation(action="read", path=p)
            for p in (as_list(paths))
            if isinstance(p, str) and p and not any(c in p for c in "*?[")
        ]
    operations = operations_for(tool, arguments, root)
    expected = arguments.get("expected_replacements")
    if isinstance(expected, int) and expected > 1:
        operations = [op.model_copy(update={"replace_all": True}) for op in operations]
    return operations


def tool_outcome(
    tool: str, status: str, output: str, error: str | None
) -> tuple[ResultStatus, FailureReason | None, int | None]:
    """``(status, failure, exit code)`` of a call that ended with ``status`` (success / error / cancelled)."""
    exit_code: int | None = None
    if tool.lower() in SHELL_TOOLS:
        found = _EXIT_CODE.search(output)
        exit_code = int(found.group(1)) if found else None
    if status == "cancelled":
        return "failure", "rejected", exit_code
    if status == "error":
        return "failure", classify_failure(error or output), exit_code
    if exit_code not in (None, 0):
        return "failure", "exit_status", exit_code
    return "success", None, exit_code


def reported_change(
    tool: str, arguments: JSONObject, output: str
) -> tuple[ReportedChange, ...] | None:
    """The file tools say in their answer whether they created or changed the file."""
    path = path_argument(arguments)
    if path is None or tool.lower() not in ("write_file", "replace", "edit", "smart_edit"):
        return None
    if _CREATED.match(output.strip()):
        return (ReportedChange(path=path, change="created"),)
    if _MODIFIED.match(output.strip()):
        return (ReportedChange(path=path, change="modified"),)
    return None
