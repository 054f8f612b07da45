"""Patch texts turned into file operations.

Two shapes exist in the wild: the ``*** Begin Patch`` envelope of Codex and
OpenCode's ``apply_patch`` (Add / Update / Delete File, ``*** Move to:``),
and unified diffs (``git diff``, ``diff -u``, ``patch -p1`` input).  Both
become :class:`FileOperation` values with ``source="patch"``; the hunk text is
kept in ``diff`` so later stages can apply it or find the symbols it touched.
"""

from __future__ import annotations

import re

from artifact_index.ingestion.events import FileOperation
from artifact_index.ingestion.git_quoting import unquote_git_path
from artifact_index.lazy_pattern import lazy_pattern

__all__ = [
    "apply_hunks",
    "diff_hunk_sides",
    "diff_sides",
    "parse_apply_patch",
    "parse_patch",
    "parse_unified_diff",
    "strip_diff_prefix",
]

_ENVELOPE = lazy_pattern(r"^\*\*\* (Add|Update|Delete) File: (.+?)\s*$")
_MOVE_TO = lazy_pattern(r"^\*\*\* Move to: (.+?)\s*$")
_GIT_HEADER = "diff --git "


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
                # A pure rename has no +/- lines; context-only hunks change nothing.
                if diff and any(line.startswith(("+", "-")) for line in body):
                    ops.append(
                        FileOperation(action="edit", path=move_to, diff=diff, source="patch")
                    )
            else:
                ops.append(FileOperation(action="edit", path=path, diff=diff, source="patch"))

    for line in text.splitlines():
        if not line.startswith("***"):  # a body line (every marker starts so): no pattern to try
            if kind is not None:
                body.append(line)
            continue
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
    if not path.startswith('"'):
        # ``--- a/x.py\t2024-01-01 ...`` (diff -u): the timestamp follows a tab.
        path = path.split("\t", 1)[0]
    path = unquote_git_path(path)
    if path.startswith(("a/", "b/")):
        return path[2:]
    return path


def _git_header_paths(rest: str) -> tuple[str, str] | None:
    """The two paths of ``diff --git A B``, quoted or holding spaces."""
    rest = rest.rstrip()
    if rest.startswith('"'):
        end = rest.find('"', 1)
        while end != -1 and rest[end - 1] == "\\":
            end = rest.find('"', end + 1)
        if end == -1 or end + 2 > len(rest):
            return None
        return rest[: end + 1], rest[end + 2 :]
    if rest.endswith('"') and ' "' in rest:
        first, _, second = rest.partition(' "')
        return first, '"' + second
    # Unquoted: both halves usually name the same file (``a/X b/X``).
    half = (len(rest) - 1) // 2
    if len(rest) % 2 == 1 and rest[half] == " " and rest[2:half] == rest[half + 3 :]:
        return rest[:half], rest[half + 1 :]
    split = rest.find(" b/")
    if split == -1:
        parts = rest.split(" ")
        return (parts[0], parts[-1]) if len(parts) >= 2 else None
    return rest[:split], rest[split + 1 :]


_HUNK = lazy_pattern(r"^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")


def _next_file_header(lines: list[str], i: int) -> bool:
    """True when ``lines[i:i+3]`` open another file's diff (``--- a/``, ``+++ b/``, ``@@``).

    Hand-written diffs often carry wrong hunk counts; without this check a
    hunk that claims too many lines would swallow the next file.  A removed
    ``-- a/...`` line directly followed by an added ``++ b/...`` line and a
    hunk header is not a realistic hunk body.
    """
    return (
        i + 2 < len(lines)
        and lines[i].startswith(("--- a/", "--- /dev/null"))
        and lines[i + 1].startswith(("+++ b/", "+++ /dev/null"))
        and _HUNK.match(lines[i + 2]) is not None
    )


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
            elif _next_file_header(lines, i):
                break
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
        git = _git_header_paths(line[len(_GIT_HEADER) :]) if line.startswith(_GIT_HEADER) else None
        if not git and not (
            line.startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ ")
        ):
            i += 1
            continue
        old_path = strip_diff_prefix(git[0]) if git else None
        new_path = strip_diff_prefix(git[1]) if git else None
        created = deleted = binary = False
        rename_from = rename_to = copy_from = copy_to = None
        if git:
            i += 1
            while i < len(lines) and not lines[i].startswith(("--- ", _GIT_HEADER, "@@")):
                meta = lines[i]
                if meta.startswith("new file mode"):
                    created = True
                elif meta.startswith("deleted file mode"):
                    deleted = True
                elif meta.startswith("rename from "):
                    rename_from = unquote_git_path(meta[len("rename from ") :])
                elif meta.startswith("rename to "):
                    rename_to = unquote_git_path(meta[len("rename to ") :])
                elif meta.startswith("copy from "):
                    copy_from = unquote_git_path(meta[len("copy from ") :])
                elif meta.startswith("copy to "):
                    copy_to = unquote_git_path(meta[len("copy to ") :])
                elif meta.startswith(("Binary files ", "GIT binary patch")):
                    binary = True
                i += 1
        if (
            i < len(lines)
            and lines[i].startswith("--- ")
            and i + 1 < len(lines)
            and lines[i + 1].startswith("+++ ")
        ):
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
            # A binary file's content is not in the text; an empty new file's is "".
            content = None if binary else "".join(h[1:] + "\n" for h in hunk if h.startswith("+"))
            ops.append(
                FileOperation(
                    action="create", path=new_path, content=content, diff=diff, source="patch"
                )
            )
        elif deleted and old_path:
            ops.append(FileOperation(action="delete", path=old_path, source="patch"))
        elif copy_from and copy_to:
            ops.append(FileOperation(action="copy", path=copy_from, dest=copy_to, source="patch"))
            if diff and any(h.startswith("@@") for h in hunk):
                ops.append(FileOperation(action="edit", path=copy_to, diff=diff, source="patch"))
        elif rename_from and rename_to:
            ops.append(
                FileOperation(action="move", path=rename_from, dest=rename_to, source="patch")
            )
            if diff and any(h.startswith("@@") for h in hunk):
                ops.append(FileOperation(action="edit", path=rename_to, diff=diff, source="patch"))
        elif new_path or old_path:
            ops.append(
                FileOperation(action="edit", path=new_path or old_path, diff=diff, source="patch")
            )
    return ops


def apply_hunks(content: str, diff: str) -> str | None:
    """``content`` with the hunks of ``diff`` applied, or None when a hunk does not match.

    Hunks are matched by their old text (context and removed lines), not by
    line numbers: Codex's ``@@`` hunks carry none, and a file's known content
    may be a later version than the one the numbers refer to.
    """
    result = content
    for hunk in _split_hunks(diff):
        old, new = _sides(hunk)
        old_text, new_text = "\n".join(old), "\n".join(new)
        if not old:
            result = (
                result + ("" if result.endswith("\n") or not result else "\n") + new_text + "\n"
            )
            continue
        if old_text not in result:
            return None
        result = result.replace(old_text, new_text, 1)
    return result


def diff_sides(diff: str) -> tuple[str, str]:
    """The old and the new text of a diff's hunks (context lines on both sides)."""
    old: list[str] = []
    new: list[str] = []
    for hunk in _split_hunks(diff):
        before, after = _sides(hunk)
        old += before
        new += after
    return "\n".join(old) + "\n", "\n".join(new) + "\n"


def diff_hunk_sides(diff: str) -> list[tuple[str, str]]:
    """The old and the new text of each of a diff's hunks (context lines on both sides)."""
    sides = []
    for hunk in _split_hunks(diff):
        before, after = _sides(hunk)
        sides.append(("\n".join(before) + "\n", "\n".join(after) + "\n"))
    return sides


def _sides(hunk: list[str]) -> tuple[list[str], list[str]]:
    old = [line[1:] for line in hunk if line[:1] in (" ", "-") or line == ""]
    new = [line[1:] for line in hunk if line[:1] in (" ", "+") or line == ""]
    return old, new


def _split_hunks(diff: str) -> list[list[str]]:
    hunks: list[list[str]] = [[]]
    for line in diff.splitlines():
        if line.startswith("@@"):
            hunks.append([])
        elif not line.startswith("\\"):
            hunks[-1].append(line)
    return [h for h in hunks if any(line[:1] in ("+", "-") for line in h)]
