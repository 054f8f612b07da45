"""The file sections: every changed file by its exact path, read files condensed.

A changed file (created, modified, deleted, reverted) is always named by its
full path, because that is what the agent opens next; what shrinks with the
detail level is what is said about it: the symbols the change touched (test
functions only counted past full detail), line counts, the shell command
that made it, the turns.  Read files are evidence of what the agent looked
at: the most recently read few are named, the rest counted by directory.
Symbols a read merely showed are never listed: they cost the most and tell
the least.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict

from artifact_index.trail.index import SymbolEntry
from summarizer.sections.facts import FileFact, SessionFacts

__all__ = ["changed_files", "files_of_status", "moved_files", "read_files"]

_SYMBOLS_AT = {0: 12, 1: 6, 2: 3, 3: 0}
_READ_NAMED_AT = {0: 12, 1: 8, 2: 5, 3: 3}
_TEST_PATH = re.compile(r"(^|/)(tests?|spec|__tests__)/|(_test|_spec|\.test|\.spec)\.\w+$|(^|/)test_[^/]+$")
_STATUS_WORDS = {
    "created": "created", "modified": "modified", "deleted": "deleted",
    "reverted": "reverted: changed, then back to its original state",
}


def _symbol_name(s: SymbolEntry) -> str:
    # The innermost container is enough beside the file's path: `AddStateToAnnotations.up`,
    # not `Spotter.Repo.Migrations.AddStateToAnnotations.up`.
    if not s.container:
        return s.name
    return f"{s.container.rsplit('.', 1)[-1].rsplit('::', 1)[-1]}.{s.name}"


def _symbols(f: FileFact, detail: int) -> str:
    symbols = f.symbols
    if not symbols:
        return ""
    limit = _SYMBOLS_AT[detail]
    if _TEST_PATH.search(f.path) and detail >= 1:
        limit = 0  # a test file's test names are many and say little the path does not
    if limit == 0:
        counts = Counter(s.change for s in symbols)
        return ", ".join(f"{n} {change}" for change, n in counts.items()) + " definition(s)"
    groups: dict[str, list[str]] = defaultdict(list)
    for s in symbols[:limit]:
        groups[s.change].append(f"`{_symbol_name(s)}`")
    text = "; ".join(f"{', '.join(names)} {change}" for change, names in groups.items())
    if len(symbols) > limit:
        text += f"; and {len(symbols) - limit} more"
    return text


def _turns(turns: list[int]) -> str:
    if len(turns) == 1:
        return f"turn {turns[0]}"
    if len(turns) <= 4:
        return "turns " + ", ".join(map(str, turns))
    return f"turns {turns[0]}–{turns[-1]} ({len(turns)} turns)"


def _file_line(f: FileFact, detail: int, *, with_status: bool, moved_to: str | None = None) -> str:
    if moved_to is not None and f.status in ("deleted", "reverted"):
        # Its content lives on at the new path: a move, not a deletion or an undone change.
        return f"- `{f.path}` (moved to `{moved_to}`)"
    parts = []
    if f.renamed_from:
        parts.append(f"moved here from `{f.renamed_from}`")
    symbols = _symbols(f, detail)
    if symbols:
        parts.append(symbols)
    if f.lines_added is not None and detail <= 1:
        parts.append(f"+{f.lines_added}/-{f.lines_removed} lines")
    if f.evidence and detail == 0:
        command = " ".join(f.evidence.split())
        parts.append(f"via `{command[:80]}{'…' if len(command) > 80 else ''}`")
    if f.turns and detail == 0:
        parts.append(_turns(f.turns))
    status = f" ({_STATUS_WORDS.get(f.status, f.status)})" if with_status else ""
    return f"- `{f.path}`{status}" + (f": {'; '.join(parts)}" if parts else "")


def files_of_status(files: list[FileFact], detail: int, empty: str = "None.") -> str:
    """One status's files, one line each, in the order the session first touched them."""
    if not files:
        return empty
    return "\n".join(_file_line(f, detail, with_status=False) for f in files)


def changed_files(facts: SessionFacts, detail: int) -> str:
    """Every created, modified, deleted and reverted file, by directory, each with what changed in it."""
    files = [*facts.created, *facts.modified, *facts.deleted, *facts.reverted]
    if not files:
        return "None."
    ordered = sorted(files, key=lambda f: (f.path.rpartition("/")[0], f.path))
    moved = moved_files(facts)
    return "\n".join(_file_line(f, detail, with_status=True, moved_to=moved.get(f.path)) for f in ordered)


def moved_files(facts: SessionFacts) -> dict[str, str]:
    """Old path -> new path, for every file the session moved or renamed."""
    return {f.renamed_from: f.path for f in [*facts.created, *facts.modified] if f.renamed_from}


def read_files(facts: SessionFacts, detail: int) -> str:
    """The files read and never changed: the latest few by path, the others counted by directory."""
    files = facts.read
    if not files:
        return "None."
    latest = sorted(files, key=lambda f: max(f.turns, default=0), reverse=True)
    named = latest[: _READ_NAMED_AT[detail]]
    lines = [f"- `{f.path}`" for f in sorted(named, key=lambda f: f.path)]
    rest = latest[len(named):]
    if rest:
        # Two folder levels when they are few enough to read at a glance, else the top level.
        folders = Counter(_folder(f.path, 2) for f in rest)
        if len(folders) > 6:
            folders = Counter(_folder(f.path, 1) for f in rest)
        shown = ", ".join(f"`{folder}` ({n})" for folder, n in folders.most_common(6))
        more = len(folders) - 6
        lines.append(f"- and {len(rest)} more read, in {shown}" + (f" and {more} other folders" if more > 0 else ""))
    return "\n".join(lines)


def _folder(path: str, depth: int) -> str:
    """A path's folder, ``depth`` levels deep at most: ``lib/spotter/services/x.ex``, 2 -> ``lib/spotter/``."""
    parts = path.lstrip("/").split("/")[:-1]
    if not parts:
        return "./"
    prefix = "/" if path.startswith("/") else ""
    return prefix + "/".join(parts[:depth]) + "/"
