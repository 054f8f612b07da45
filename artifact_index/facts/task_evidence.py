"""Open tasks against what the session did after the list was written.

An agent's todo list is rewritten when the agent remembers to; a summary
that repeats it as it stood can tell the next agent to write a function the
session already added.  :func:`task_evidence` looks for what the index saw
done after the task was last set that the task itself names: a symbol it
names in backticks or as an identifier (``refresh_token``, ``SessionLive``)
added or modified later, a file it names created or modified later, or a
later commit whose message says what the task says.  The task stays open;
the summary shows the evidence beside it, for the reader to judge.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from artifact_index.facts.symbols.symbol_entry import SymbolEntry
from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["task_evidence"]

_BACKTICKED = lazy_pattern(r"`([^`\s]{3,80})`")
# An identifier that is unmistakably code: snake_case, camelCase / PascalCase with an inner
# capital, or a file name with an extension.
_IDENTIFIER = lazy_pattern(
    r"\b(?:[A-Za-z]\w*_\w+|[a-z]+[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*|[\w-]+\.[a-z]{1,5})\b"
)
_WORD = lazy_pattern(r"[a-z][a-z0-9]{3,}")
_STOPWORDS = frozenset(
    {
        "this",
        "that",
        "with",
        "from",
        "into",
        "then",
        "when",
        "also",
        "only",
        "each",
        "more",
        "make",
        "sure",
        "adds",
        "added",
        "update",
        "updated",
        "implement",
        "implemented",
        "create",
        "created",
        "remove",
        "fixed",
        "test",
        "tests",
        "should",
        "will",
        "need",
        "have",
    }
)
_COMMIT_OVERLAP = 0.6
# A task that is a check, a commit or a push: done when one ran after it was set.
_CHECK_TASKS = (
    (
        "test",
        lazy_pattern(
            r"\b(?:run|rerun|re-run|execute|verify|ensure|check|confirm)\b.*\btests?\b|\btests? (?:pass|suite)|\btest suite\b",
            re.I,
        ),
    ),
    (
        "lint",
        lazy_pattern(r"\b(?:run|fix|check|verify)\b.*\blint|\blint(?:er|ing)?\b.*\bpass", re.I),
    ),
    ("typecheck", lazy_pattern(r"\btype[- ]?check|\bmypy\b|\btsc\b|\bpyright\b", re.I)),
    (
        "build",
        lazy_pattern(r"\b(?:run|verify|check)\b.*\bbuild\b|\bbuild (?:passes|succeeds)\b", re.I),
    ),
)
_COMMIT_TASK = lazy_pattern(r"\bcommit\b", re.I)
_PUSH_TASK = lazy_pattern(r"\bpush\b", re.I)


def _names(content: str) -> set[str]:
    names = {m.group(1).strip("()") for m in _BACKTICKED.finditer(content)}
    names |= set(_IDENTIFIER.findall(content))
    return {n for n in names if len(n) >= 4}


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOPWORDS}


def task_evidence(
    content: str,
    after_turn: int,
    symbols: Mapping[str, Sequence[SymbolEntry]],
    files: Iterable[tuple[str, str, int]],
    commits: Iterable[tuple[int, str, str]],
    checks: Iterable[tuple[int, str, bool | None]] = (),
    pushed: Iterable[tuple[int, str]] = (),
) -> str | None:
    """What the index saw done after ``after_turn`` that the task ``content`` names, or None.

    ``files``: ``(path, status, last turn changed)``; ``commits``: ``(turn, hash, message)``;
    ``checks``: the runs of checks, ``(turn, category, passed)`` (passed None: its end not seen); ``pushed``: ``(turn, hash)``
    of each commit pushed.
    """
    commits = list(commits)
    names = _names(content)
    found: list[str] = []
    for entries in symbols.values():
        for entry in entries:
            if (
                entry.change not in ("added", "modified")
                or not entry.turns
                or max(entry.turns) <= after_turn
            ):
                continue
            qualified = f"{entry.container}.{entry.name}" if entry.container else entry.name
            if entry.name in names or qualified in names:
                found.append(f"`{qualified}` {entry.change} at turn {max(entry.turns)}")
    for path, status, turn in files:
        if (
            turn > after_turn
            and status in ("created", "modified", "deleted")
            and (path in names or path.rsplit("/", 1)[-1] in names)
        ):
            found.append(f"`{path}` {status} at turn {turn}")
    wanted = _words(content)
    for turn, sha, message in commits:
        if (
            turn > after_turn
            and len(wanted) >= 2
            and len(wanted & _words(message)) >= _COMMIT_OVERLAP * len(wanted)
        ):
            found.append(f'commit {sha} "{message[:80]}" at turn {turn}')
    found += _check_done(content, after_turn, list(checks), commits, list(pushed))
    return "; ".join(dict.fromkeys(found)) or None


def _check_done(
    content: str,
    after_turn: int,
    checks: list[tuple[int, str, bool | None]],
    commits: list[tuple[int, str, str]],
    pushed: list[tuple[int, str]],
) -> list[str]:
    """For a task that is a check, a commit or a push: the latest such run after it was set."""
    found: list[str] = []
    for category, says in _CHECK_TASKS:
        if says.search(content):
            runs = [
                (turn, ok) for turn, kind, ok in checks if kind == category and turn > after_turn
            ]
            if runs:
                turn, ok = runs[-1]
                ended = (
                    "was started; how it ended is not recorded"
                    if ok is None
                    else "passed"
                    if ok
                    else "failed"
                )
                found.append(f"a {category} run at turn {turn} {ended}")
    if _PUSH_TASK.search(content):
        later = [(turn, sha) for turn, sha in pushed if turn > after_turn]
        if later:
            found.append(f"commit {later[-1][1]} pushed at turn {later[-1][0]}")
    elif _COMMIT_TASK.search(content):
        made = [(turn, sha) for turn, sha, _ in commits if turn > after_turn]
        if made:
            found.append(f"commit {made[-1][1]} made at turn {made[-1][0]}")
    return found
