"""Patch texts turned into file operations.

Two shapes exist in the wild: the ``*** Begin Patch`` envelope of Codex and
OpenCode's ``apply_patch`` (Add / Update / Delete File, ``*** Move to:``),
and unified diffs (``git diff``, ``diff -u``, ``patch -p1`` input).  Both
become :class:`FileOperation` values with ``source="patch"``; the hunk text is
kept in ``diff`` so later stages can apply it or find the symbols it touched.
"""

from __future__ import annotations

import re

from .events import FileOperation

__all__ = ["parse_apply_patch", "parse_patch", "parse_unified_diff", "strip_diff_prefix"]

_ENVELOPE = re.compile(r"^\*\*\* (Add|Update|Delete) File: (.+?)\s*$")
_MOVE_TO = re.compile(r"^\*\*\* Move to: (.+?)\s*$")
_GIT_HEADER = re.compile(r"^diff --git (\S+) (\S+)\s*$")


def parse_patch(text: str) -> list[FileOperation]:
    """Operations of a patch in either shape (``[]`` when it is neither)."""
    if "*** Begin Patch" in text or _ENVELOPE.search(text.split("\n", 3)[0] if text else ""):
        return parse_apply_patch(text)
    if re.search(r"^(diff --git |--- )", text, re.MULTILINE):
        return parse_unified_diff(text)
    return []


def parse_apply_patch(text: str) -> list[FileOperation]:
    """Operations of a ``*** Begin Patch`` envelope, one per file section."""
    ops: list[FileOperation] = []
    kind: str | None = None
    path = ""
    move_to: str | None = None
    body: list[str] = []

    def flush() -> None:
        if kind is None:
            return
        if kind == "Add":
            content = "".join(line[1:] + "\n" for line in body if line.startswith("+"))
            ops.append(FileOperation(action="create", path=path, content=content, source="patch"))
        elif kind == "Delete":
            ops.append(FileOperation(action="delete", path=path, source="patch"))
        else:
            diff = "\n".join(body) if body else None
            if move_to:
                ops.append(FileOperation(action="move", path=path, dest=move_to, source="patch"))
                if diff and any(line[:1] in "+-" for line in body):
                    ops.append(FileOperation(action="edit", path=move_to, diff=diff, source="patch"))
            else:
                ops.append(FileOperation(action="edit", path=path, diff=diff, source="patch"))

    for line in text.splitlines():
        header = _ENVELOPE.match(line)
        if header:
            flush()
            kind, path, move_to, body = header.group(1), header.group(2), None, []
            continue
        if kind is None:
            continue
        move = _MOVE_TO.match(line)
        if move:
            move_to = move.group(1)
        elif line.startswith("*** End Patch"):
            flush()
            kind = None
        elif not line.startswith("*** End of File"):
            body.append(line)
    flush()
    return ops


def strip_diff_prefix(path: str) -> str:
    """``a/src/x.py`` -> ``src/x.py``; quoted git paths are unquoted."""
    path = path.strip()
    if len(path) >= 2 and path[0] == path[-1] == '"':
        path = path[1:-1]
    path = path.split("\t", 1)[0]
    if path.startswith(("a/", "b/")):
        return path[2:]
    return path


_HUNK = re.compile(r"^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")


def _hunks(lines: list[str], i: int) -> tuple[list[str], int]:
    """The hunk lines of one file starting at ``lines[i]``; counts from ``@@`` headers
    decide where a hunk ends, so a removed line beginning with ``-- `` is not a header."""
    out: list[str] = []
    while i < len(lines):
        header = _HUNK.match(lines[i])
        if not header:
            break
        old_left = int(header.group(1) or 1)
        new_left = int(header.group(2) or 1)
        out.append(lines[i])
        i += 1
        while i < len(lines) and (old_left > 0 or new_left > 0):
            line = lines[i]
            if line.startswith("\\"):
                out.append(line)
            elif line.startswith("-"):
                old_left -= 1
            elif line.startswith("+"):
                new_left -= 1
            elif line.startswith(" ") or line == "":
                old_left -= 1
                new_left -= 1
            else:
                break
            if not line.startswith("\\"):
                out.append(line)
            i += 1
        while i < len(lines) and lines[i].startswith("\\"):
            out.append(lines[i])
            i += 1
    return out, i


def parse_unified_diff(text: str) -> list[FileOperation]:
    """Operations of a unified diff; renames become a move (plus an edit when hunks follow)."""
    ops: list[FileOperation] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        git = _GIT_HEADER.match(line)
        if not git and not (line.startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ ")):
            i += 1
            continue
        old_path = strip_diff_prefix(git.group(1)) if git else None
        new_path = strip_diff_prefix(git.group(2)) if git else None
        created = deleted = False
        rename_from = rename_to = None
        if git:
            i += 1
            while i < len(lines) and not lines[i].startswith(("--- ", "diff --git ", "@@")):
                meta = lines[i]
                if meta.startswith("new file mode"):
                    created = True
                elif meta.startswith("deleted file mode"):
                    deleted = True
                elif meta.startswith("rename from "):
                    rename_from = meta[len("rename from "):]
                elif meta.startswith("rename to "):
                    rename_to = meta[len("rename to "):]
                i += 1
        if i < len(lines) and lines[i].startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ "):
            minus, plus = lines[i][4:], lines[i + 1][4:]
            if minus.strip().split("\t")[0] == "/dev/null":
                created = True
            else:
                old_path = strip_diff_prefix(minus)
            if plus.strip().split("\t")[0] == "/dev/null":
                deleted = True
            else:
                new_path = strip_diff_prefix(plus)
            i += 2
        hunk, i = _hunks(lines, i)
        diff = "\n".join(hunk) if hunk else None
        if created and new_path:
            content = "".join(h[1:] + "\n" for h in hunk if h.startswith("+"))
            ops.append(FileOperation(action="create", path=new_path, content=content, diff=diff, source="patch"))
        elif deleted and old_path:
            ops.append(FileOperation(action="delete", path=old_path, source="patch"))
        elif rename_from and rename_to:
            ops.append(FileOperation(action="move", path=rename_from, dest=rename_to, source="patch"))
            if diff and any(h.startswith("@@") for h in hunk):
                ops.append(FileOperation(action="edit", path=rename_to, diff=diff, source="patch"))
        elif new_path or old_path:
            ops.append(FileOperation(action="edit", path=new_path or old_path, diff=diff, source="patch"))
    return ops
