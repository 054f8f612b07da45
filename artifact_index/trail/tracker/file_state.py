"""What the trail knows of one file, and how each kind of change moves it.

A file is a node of the graph whose attributes say whether it existed before
the session, whether it exists now, whether the session changed or read it,
its content when known (or the partial windows reads showed of it), its
content before the session's first change, and how many changes deep it is.
These functions change those attributes; the tracker decides when.
"""

from __future__ import annotations

from typing import Any

from artifact_index.ingestion.events import FileOperation
from artifact_index.ingestion.patches import apply_hunks
from artifact_index.redaction import holds_redactions, redact_text
from artifact_index.shell.git import STASHED, STASHED_WITH_UNTRACKED

__all__ = [
    "add_source",
    "edit_content",
    "is_stash",
    "mark_existing",
    "mark_restored",
    "new_file",
    "set_content",
    "snapshot",
    "update_restored",
]


def new_file(
    key: str, display: str | None, first_seq: int, existed_before: bool | None
) -> dict[str, Any]:
    """The attributes of a file first seen by the operation numbered ``first_seq``."""
    return dict(
        kind="file",
        path=key,
        display=display,
        first_seq=first_seq,
        existed_before=existed_before,
        exists=None,
        changed=False,
        read=False,
        restored=False,
        sources=[],
        renamed_from=None,
        depth=0,
        content=None,
        original=None,
        windows=[],
    )


def mark_existing(file: dict[str, Any]) -> None:
    """The file was there when an operation touched it (read, edited, deleted)."""
    if file["existed_before"] is None and not file["changed"]:
        file["existed_before"] = True
    if file["exists"] is None:
        file["exists"] = True


def add_source(file: dict[str, Any], source: str) -> None:
    if source not in file["sources"]:
        file["sources"] = sorted([*file["sources"], source])


def set_content(file: dict[str, Any], content: str | None) -> None:
    file["content"] = content


def edit_content(file: dict[str, Any], op: FileOperation) -> None:
    """Apply an edit to the known content; when it cannot be applied exactly, the content is unknown.

    Without full content, a string replacement is applied to the partial
    windows that hold its old text, so they stay true for later edits.
    """
    content = file.get("content")
    file["content"] = None
    if content is None:
        if op.old and op.new is not None:
            windows = []
            for start, lines in file.get("windows", []):
                text = "\n".join(lines) + "\n"
                replaced = _replace(text, op.old, op.new, 1)
                if replaced is not None:
                    lines = replaced.removesuffix("\n").split("\n")
                windows.append([start, lines])
            file["windows"] = windows
        return
    if op.old is not None and op.new is not None:
        file["content"] = _replace(content, op.old, op.new, -1 if op.replace_all else 1)
    elif op.diff:
        file["content"] = apply_hunks(content, op.diff)
    elif op.new is not None and op.start_line is not None:
        lines = content.splitlines(keepends=True)
        new_lines = op.new.splitlines(keepends=True)
        if new_lines and not new_lines[-1].endswith("\n"):
            new_lines[-1] += "\n"
        if op.detail == "insert" and 0 <= op.start_line <= len(lines):
            lines[op.start_line : op.start_line] = new_lines
        elif op.end_line is not None and 1 <= op.start_line <= op.end_line + 1 <= len(lines) + 1:
            lines[op.start_line - 1 : op.end_line] = new_lines
        else:
            return
        file["content"] = "".join(lines)


def mark_restored(file: dict[str, Any]) -> None:
    """Back to what it held before the session (``git checkout``, ``git stash``)."""
    file["restored"] = True
    file["depth"] = 0
    file["exists"] = True
    file["content"] = file.get("original")


def update_restored(file: dict[str, Any]) -> None:
    """Whether the file's changes have been undone, by content or by depth."""
    original, content = file.get("original"), file.get("content")
    back_to_original = original is not None and content == original
    file["restored"] = bool(
        file["existed_before"] and file["exists"] and (back_to_original or file["depth"] == 0)
    )


def _replace(content: str, old: str, new: str, count: int) -> str | None:
    """``content`` with ``old`` replaced by ``new``, or None when ``old`` is not in it.

    A resumed state holds contents redacted (see :mod:`artifact_index.redaction`);
    an edit of a line that held a secret then matches once redacted the same way.
    """
    if old in content:
        return content.replace(old, new, count)
    if not holds_redactions(content):
        # The common miss: nothing to match redacted (and redacting ``old`` costs
        # the first miss of a run the import of every secret detector).
        return None
    redacted_old = redact_text(old)
    if redacted_old != old and redacted_old in content:
        return content.replace(redacted_old, redact_text(new), count)
    return None


_STASHED_FIELDS = ("exists", "changed", "restored", "depth", "content", "windows")


def is_stash(detail: str | None) -> bool:
    """Whether a restore is a ``git stash``."""
    return detail in (STASHED, STASHED_WITH_UNTRACKED)


def snapshot(file: dict[str, Any]) -> dict[str, Any]:
    """What ``git stash`` puts away of a file: enough to bring its state back."""
    return {name: file.get(name) for name in _STASHED_FIELDS}
