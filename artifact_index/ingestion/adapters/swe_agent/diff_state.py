"""The ``diff_state`` record: the repository's ``git diff`` after each step, and what changed between two."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from typing import Literal

from artifact_index.ingestion.adapters.swe_agent.actions import shell_words
from artifact_index.ingestion.events import (
    ReportedChange,
)
from artifact_index.ingestion.patches import strip_diff_prefix

__all__ = [
    "FileDiff",
    "diff_changes",
    "reported_changes",
]


@dataclass(frozen=True)
class FileDiff:
    change: Literal["created", "modified", "deleted"]
    move_to: str | None
    section: str


def diff_changes(diff: str) -> dict[str, FileDiff]:
    """Per-file sections of a ``git diff``: path -> how it differs from HEAD."""
    files: dict[str, FileDiff] = {}
    for section in re.split(r"(?m)^(?=diff --git )", diff):
        if not section.startswith("diff --git "):
            continue
        lines = section.splitlines()
        old = new = None
        rename_from = rename_to = None
        for line in lines[1:]:
            if line.startswith("@@"):
                break
            if line.startswith("--- "):
                old = line[4:].split("\t")[0]
            elif line.startswith("+++ "):
                new = line[4:].split("\t")[0]
            elif line.startswith("rename from "):
                rename_from = line[len("rename from ") :]
            elif line.startswith("rename to "):
                rename_to = line[len("rename to ") :]
        header = lines[0][len("diff --git ") :]
        if old is None or new is None:
            half = _header_paths(header)
            old = old or (half[0] if half else None)
            new = new or (half[1] if half else None)
        head = "\n".join(lines[:6])
        if rename_from and rename_to:
            files[rename_from] = FileDiff("modified", rename_to, section.rstrip("\n"))
        elif "\nnew file mode" in head and new and new != "/dev/null":
            files[strip_diff_prefix(new)] = FileDiff("created", None, section.rstrip("\n"))
        elif "\ndeleted file mode" in head and old and old != "/dev/null":
            files[strip_diff_prefix(old)] = FileDiff("deleted", None, section.rstrip("\n"))
        elif new and new != "/dev/null":
            files[strip_diff_prefix(new)] = FileDiff("modified", None, section.rstrip("\n"))
    return files


def _header_paths(header: str) -> tuple[str, str] | None:
    """``a/x b/x`` split in two; for paths with spaces the halves are equal."""
    if header.startswith('"'):
        tokens = shell_words(header)
        return (tokens[0], tokens[1]) if tokens and len(tokens) == 2 else None
    middle = len(header) // 2
    if header[middle] == " " and header[:middle][2:] == header[middle + 1 :][2:]:
        return header[:middle], header[middle + 1 :]
    parts = header.split(" ")
    return (parts[0], parts[-1]) if len(parts) >= 2 else None


def reported_changes(
    before: dict[str, FileDiff], after: dict[str, FileDiff], root: str | None
) -> tuple[ReportedChange, ...]:
    """The files whose diff against HEAD changed during one step."""

    def full(path: str) -> str:
        return posixpath.join(root, path) if root else path

    changes: list[ReportedChange] = []
    for path, now in after.items():
        if before.get(path) == now:
            continue
        change = now.change
        if path in before and change == "created":
            change = "modified"
        changes.append(
            ReportedChange(
                path=full(path),
                change=change,
                move_to=full(now.move_to) if now.move_to else None,
                diff=now.section,
            )
        )
    for path, then in before.items():
        # A file the session created that left the diff was deleted.  A
        # changed file that left it is back to HEAD, which a ReportedChange
        # cannot say; the shell module sees the command that restored it.
        if path not in after and then.change == "created":
            changes.append(ReportedChange(path=full(path), change="deleted"))
    return tuple(changes)
