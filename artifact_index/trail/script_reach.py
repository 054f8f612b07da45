"""Files a script the session ran may have changed, though no call shows it: its paths were computed at run time.

``python scripts/migrate.py`` that loops over ``E2E_DIR.glob("*/conftest.py")``
and rewrites each one changes files the trail cannot name: the shell layer
records the run as an effect on "a file whose path is computed at run time".
A file the session only read is then not known to be unchanged when the
script could reach it.  What it could reach is judged from the script's own
text (the session wrote it, or it is inline code in the command): a file
is in reach when its name or a glob pattern matching its name is one of the
script's string literals, or its parent folder is and the script names its
kind of file (``.py``).  The reader is told what
was seen (the run, its turn), never that the file changed.
"""

from __future__ import annotations

import posixpath
import re
from fnmatch import fnmatchcase

from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.snapshots import SNAPSHOT_WRITES, is_snapshot_file
from artifact_index.trail.answers import FileReport, UnknownEffect
from artifact_index.trail.index import ArtifactIndex

__all__ = [
    "MAY_HAVE_CHANGED_IT",
    "maybe_changed_by_scripts",
    "maybe_created_by_scripts",
]

MAY_HAVE_CHANGED_IT = "a command that may rewrite it ran after its last read"
"""The ``detail`` of an effect that names the file itself (``go mod tidy`` and ``go.mod``)."""

# The effects that may have written a file: not "runs a command computed at run time".
_WRITES = lazy_pattern(
    r"^(?P<who>script \S+|\w+ code) (?:writes|creates|removes|copies|moves|deletes)\b.*computed at run time"
)
_LITERAL = lazy_pattern(r"""(?P<quote>["'])(?P<body>[^"'\\\n]{1,200})(?P=quote)""")
# Installed dependencies: a project's script does not rewrite them.
_DEPENDENCY = lazy_pattern(r"(?:^|/)(?:node_modules|vendor|site-packages|\.venv|venv)/")
# Literals too common to say anything about where a script writes.
_GENERIC = frozenset({"", ".", "..", "/", "*", "**", "w", "r", "a", "utf-8", "utf8"})


def _literals(text: str) -> set[str]:
    found: set[str] = set()
    for match in _LITERAL.finditer(text):
        body = match["body"].strip()
        for part in body.strip("/").split("/"):
            if part not in _GENERIC:
                found.add(part)
    return found - _GENERIC


def _in_reach(path: str, literals: set[str], text: str) -> bool:
    """Whether the script names the file, a pattern of its name, or its folder and its kind of file."""
    parts = path.split("/")
    name = parts[-1]
    if name in literals:
        return True
    if any(("*" in lit or "?" in lit) and fnmatchcase(name, lit) for lit in literals):
        return True
    # A folder it names (`/ "steps"`) holds what it writes only if it writes that kind of file.
    _, dot, extension = name.rpartition(".")
    return (
        len(parts) > 1
        and parts[-2] in literals
        and bool(dot)
        and re.search(re.escape("." + extension) + r"(?![\w.])", text) is not None
    )


def _script_text(
    index: ArtifactIndex, effect: UnknownEffect, who: str, changed: list[FileReport]
) -> str | None:
    """The text of the script a run executed: the session's own file it names, or the command's inline code."""
    if not who.startswith("script "):
        return effect.command
    name = who.split(" ", 1)[1]
    for report in changed:
        if posixpath.basename(report.path) == name and effect.command and name in effect.command:
            return index.content(report.path)
    return None


# `find DIR ... -exec sed -i ... {} \;` says which folders it searched: nothing outside them is reached.
_SEARCHED = lazy_pattern(r"^find code writes the files its search under (?P<roots>.+?) matches \(")


def _reaching_runs(
    index: ArtifactIndex, changed: list[FileReport]
) -> list[tuple[UnknownEffect, set[str], str]]:
    """The runs of scripts writing at computed paths whose text is known: each with its literals and text."""
    reach: list[tuple[UnknownEffect, set[str], str]] = []
    for effect in index.unknown_effects():
        who = _WRITES.match(effect.detail or "")
        if who is None or (effect.detail or "").startswith(SNAPSHOT_WRITES):
            continue
        text = _script_text(index, effect, who["who"], changed)
        if text:
            reach.append((effect, _literals(text), text))
    return reach


def _snapshot_runs(index: ArtifactIndex) -> list[tuple[UnknownEffect, list[str]]]:
    """The test runs that rewrote their golden or snapshot files, each with the folders it ran in."""
    runs = []
    for effect in index.unknown_effects():
        detail = effect.detail or ""
        if detail.startswith(SNAPSHOT_WRITES):
            where = detail[len(SNAPSHOT_WRITES) :].strip().removeprefix("(under ").removesuffix(")")
            runs.append((effect, [folder for folder in where.split(", ") if folder]))
    return runs


def _in_snapshot_reach(index: ArtifactIndex, folders: list[str], path: str) -> bool:
    """Whether a snapshot-updating run in ``folders`` could have written ``path``: a golden file under one."""
    if not is_snapshot_file(path):
        return False
    root = index.session.root
    full = path if path.startswith("/") or not root else posixpath.join(root, path)
    return not folders or any(
        full == folder or full.startswith(folder.rstrip("/") + "/") for folder in folders
    )


def _outside_search(index: ArtifactIndex, effect: UnknownEffect, path: str) -> bool:
    """Whether ``path`` lies outside every folder a ``find`` run searched."""
    searched = _SEARCHED.match(effect.detail or "")
    if searched is None:
        return False
    root = index.session.root
    full = path if path.startswith("/") or not root else posixpath.join(root, path)
    roots = [r.rstrip("/") + "/" for r in searched["roots"].split(", ")]
    return not any(full.startswith(r) for r in roots)


def maybe_created_by_scripts(
    index: ArtifactIndex, modified: list[FileReport], changed: list[FileReport]
) -> dict[str, UnknownEffect]:
    """Per file modified and first touched after a script run that could reach it: that run.

    The session first saw such a file after the script ran (``migrate_steps.py`` writes
    ``steps/__init__.py`` for each service, then the agent reads and rewrites one): it may be the
    script's creation, so that it was there before the session is not known.
    """
    found: dict[str, UnknownEffect] = {}
    reach = _reaching_runs(index, changed)
    snapshots = _snapshot_runs(index)
    for report in modified:
        if report.path.startswith("/") or _DEPENDENCY.search(report.path) or not report.turns:
            continue
        first = next(
            (
                effect
                for effect, folders in snapshots
                if effect.turn < min(report.turns)
                and _in_snapshot_reach(index, folders, report.path)
            ),
            None,
        )
        if first is not None:
            found[report.path] = first
            continue
        for effect, literals, text in reach:
            if (
                effect.turn < min(report.turns)
                and _in_reach(report.path, literals, text)
                and not _outside_search(index, effect, report.path)
            ):
                found[report.path] = effect
                break  # the first run that could have made it
    return found


def _after_last_read(index: ArtifactIndex, report: FileReport, seq: int | None, turn: int) -> bool:
    """Whether a command at ``turn`` (operation count ``seq``) ran after the file's last read.

    By turn when it came later; within the turn of its last call on the file (a `git restore` of
    it), by the order of the operations.
    """
    last = max(report.turns)
    if turn != last:
        return turn > last
    reads = [int(op["seq"]) for op in index.operations_on(report.path) if op["action"] == "read"]
    return seq is not None and bool(reads) and seq > max(reads)


def maybe_changed_by_scripts(
    index: ArtifactIndex, read: list[FileReport], changed: list[FileReport]
) -> dict[str, UnknownEffect]:
    """Per file only read: the last run of a script of the session's that may have changed it."""
    found: dict[str, UnknownEffect] = {}
    possible = index.session.possible_changes
    for report in read:
        # `go mod tidy` after the read of go.mod: the command itself said it may rewrite the file,
        # and no `git status` since settled it.
        said = possible.get(report.path)
        if (
            said is not None
            and report.turns
            and _after_last_read(index, report, said.seq, said.turn)
        ):
            found[report.path] = UnknownEffect(
                turn=said.turn, tool="Bash", command=said.command, detail=MAY_HAVE_CHANGED_IT
            )
    for effect, folders in _snapshot_runs(index):
        for report in read:
            if not _DEPENDENCY.search(report.path) and _in_snapshot_reach(
                index, folders, report.path
            ):
                found[report.path] = effect  # the latest run that could have written it
    reach = _reaching_runs(index, changed)
    if not reach:
        return found
    for report in read:
        if report.path.startswith("/") or _DEPENDENCY.search(report.path):
            continue  # outside the workspace, or a dependency's
        for effect, literals, text in reach:
            if _in_reach(report.path, literals, text) and not _outside_search(
                index, effect, report.path
            ):
                found[report.path] = effect
    return found
