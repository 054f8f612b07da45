"""What ``git merge`` and ``git pull`` printed about the files they changed.

A merge that moves the working tree prints a report: ``Fast-forward`` (or
``Merge made by the 'ort' strategy.``), then a diffstat, one line per file
(`` src/app.py | 12 +++--``), a summary (`` 3 files changed, ...``) and
``create mode`` / ``delete mode`` / ``rename`` lines.  Those lines are
evidence of what this call changed, so the files are named instead of the
whole merge being an unknown effect.

Decisions:

* Only a report that follows its ``Fast-forward`` / ``Merge made by`` line
  counts: a ``git diff --stat`` printed by another command of the same call
  looks alike but changed nothing.
* A stat line is a modification unless a ``create mode`` / ``delete mode``
  line says the file is new or gone; a rename (``old => new``, also braced,
  ``src/{a => b}.py``) moves the file.
* git shortens long paths in the stat to ``.../tail``: such a path is named
  when one ``create``/``delete``/``rename`` line ends with that tail;
  otherwise it stays unnamed, and the caller reports an unknown effect.
* ``Already up to date.`` changed nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from artifact_index.ingestion.git_quoting import unquote_git_path
from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["MergeReport", "merge_reports", "merged_in_place", "names_a_conflict"]

_START = lazy_pattern(r"^(?:Fast-forward|Merge made by (?:the '[\w-]+' strategy|[\w-]+)\.?)\s*$")
_STAT = lazy_pattern(r"^ (?P<path>\S.*?)\s+\|\s+(?:\d+(?: [+-]*)?|Bin(?: .*)?)\s*$")
_SUMMARY = lazy_pattern(r"^ \d+ files? changed")
_MODE = lazy_pattern(r"^ (?P<kind>create|delete) mode \d+ (?P<path>.+?)\s*$")
_RENAME = lazy_pattern(r"^ (?:rename|copy) (?P<path>.+?) \(\d+%\)\s*$")
_MODE_CHANGE = lazy_pattern(r"^ mode change \d+ => \d+ .+$")
_UP_TO_DATE = lazy_pattern(r"^Already up[ -]to[ -]date\.?\s*$", re.MULTILINE)
# What a merge that stopped prints for each file both sides changed: merged into it, with or
# without conflict markers left in it. Its conflict line is the one every reader of git's
# conflicts goes by (see `names_a_conflict`).
_CONFLICT = r"CONFLICT \([^)]*\): "
_MERGED_IN_PLACE = lazy_pattern(
    rf"^(?:Auto-merging (?P<auto>.+?)|{_CONFLICT}Merge conflict in (?P<conflict>.+?))\s*$",
    re.MULTILINE,
)
_NAMES_A_CONFLICT = lazy_pattern(_CONFLICT)
_BRACED = lazy_pattern(r"^(?P<head>.*?)\{(?P<old>[^{}]*) => (?P<new>[^{}]*)\}(?P<tail>.*)$")


@dataclass
class MergeReport:
    """The files one merge report names, relative to the repository's top directory."""

    created: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    modified: list[str] = field(default_factory=list)
    renamed: list[tuple[str, str]] = field(default_factory=list)
    unnamed: list[str] = field(default_factory=list)  # shortened stat paths no mode line completes


def merge_reports(output: str | None) -> list[MergeReport] | None:
    """The merge reports in ``output``, in order; ``[]`` when it says nothing changed; None: no report."""
    if not output:
        return None
    lines = output.splitlines()
    reports: list[MergeReport] = []
    k = 0
    while k < len(lines):
        if not _START.match(lines[k]):
            k += 1
            continue
        k += 1
        stats: list[str] = []
        modes: list[tuple[str, str]] = []
        while k < len(lines):
            line = lines[k]
            if (mode := _MODE.match(line)) is not None:
                modes.append((mode.group("kind"), unquote_git_path(mode.group("path"))))
            elif (rename := _RENAME.match(line)) is not None:
                modes.append(("rename", rename.group("path")))
            elif (stat := _STAT.match(line)) is not None:
                stats.append(unquote_git_path(stat.group("path")))
            elif not (_SUMMARY.match(line) or _MODE_CHANGE.match(line)):
                break
            k += 1
        reports.append(_report(stats, modes))
    if reports:
        return reports
    return [] if _UP_TO_DATE.search(output) else None


def _report(stats: list[str], modes: list[tuple[str, str]]) -> MergeReport:
    report = MergeReport()
    named: set[str] = set()
    for kind, path in modes:
        if kind == "rename":
            old, new = _rename(path)
            report.renamed.append((old, new))
            named.update((old, new, path))
        elif kind == "create":
            report.created.append(path)
            named.add(path)
        else:
            report.deleted.append(path)
            named.add(path)
    for path in stats:
        if " => " in path:
            continue  # a rename, named by its rename line
        if path.startswith(".../") or path.startswith("..."):
            # A path git shortened to fit the width; a quoted one may have lost part of a character.
            tail = path[3:].lstrip("\ufffd")
            if any(n.endswith(tail) for n in named):
                continue
            report.unnamed.append(path)
        elif path not in named:
            report.modified.append(path)
    return report


def _rename(text: str) -> tuple[str, str]:
    """``src/{a => b}.py`` or ``a.py => b.py`` -> (old, new)."""
    braced = _BRACED.match(text)
    if braced is not None:
        head, tail = braced.group("head"), braced.group("tail")
        old = (head + braced.group("old") + tail).replace("//", "/")
        new = (head + braced.group("new") + tail).replace("//", "/")
        return old, new
    old, _, new = text.partition(" => ")
    return old, new


def merged_in_place(output: str | None) -> list[str]:
    """The files a merge that printed no report merged into ("Auto-merging X", "Merge conflict in X").

    A merge that stopped on a conflict prints no summary: these lines are all it says of the
    files it wrote. The files only the other side changed are not named.
    """
    found: dict[str, None] = {}
    for match in _MERGED_IN_PLACE.finditer(output or ""):
        found[unquote_git_path(match["auto"] or match["conflict"])] = None
    return list(found)


def names_a_conflict(text: str) -> bool:
    """Whether ``text`` holds git's line for a conflict it left ("CONFLICT (content): Merge conflict in X")."""
    return _NAMES_A_CONFLICT.search(text) is not None
