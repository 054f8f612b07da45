"""A git operation that stopped midway, and the later command that ended it.

``git pull --rebase`` stopping on a conflict ("could not apply cefcc64...",
"CONFLICT (content)"), ``git stash pop`` refusing to overwrite a changed file,
a merge or a cherry-pick stopping on a conflict: the failure is the state the
operation left, and it lasts until the session ends the operation, whichever
way (``git rebase --continue`` after fixing the conflict, or ``--abort``; ``git
stash drop`` of the stash that would not apply, or a later ``pop`` that did).
A later successful command that ends it settles the failure; the resolution
says how, since an abort ends the conflict without doing what was meant.
"""

from __future__ import annotations

from artifact_index.facts.errors.checks import segments
from artifact_index.facts.errors.checks.command_line import executable, unwrap
from artifact_index.facts.errors.ledger_entries import LedgerEntry
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.git import skip_global_options
from artifact_index.shell.git_report import names_a_conflict

__all__ = ["ended_by"]

# What git prints when an operation stops midway on a changed file in its way, or on a conflict
# beside its conflict lines (see `names_a_conflict`).
_STOPPED = lazy_pattern(
    r"could not apply|conflicts? (?:in|with)|"
    r"would be overwritten by (?:merge|checkout)|needs merge|fix conflicts|"
    r"Resolve all conflicts|after resolving the conflicts",
    0,
)

# The operations that can stop midway, by the git words that start them.
_STARTS: dict[str, tuple[tuple[str, ...], ...]] = {
    "rebase": (("rebase",), ("pull", "--rebase"), ("pull", "-r")),
    "merge": (("merge",), ("pull",)),
    "cherry-pick": (("cherry-pick",),),
    "revert": (("revert",),),
    "am": (("am",),),
    "stash": (("stash", "pop"), ("stash", "apply")),
}
# The git words that end each operation (done or given up).
_ENDS: dict[str, tuple[tuple[str, ...], ...]] = {
    "rebase": (
        ("rebase", "--continue"),
        ("rebase", "--abort"),
        ("rebase", "--skip"),
        ("rebase", "--quit"),
    ),
    "merge": (
        ("merge", "--continue"),
        ("merge", "--abort"),
        ("merge", "--quit"),
        ("reset", "--merge"),
    ),
    "cherry-pick": (
        ("cherry-pick", "--continue"),
        ("cherry-pick", "--abort"),
        ("cherry-pick", "--skip"),
    ),
    "revert": (("revert", "--continue"), ("revert", "--abort"), ("revert", "--skip")),
    "am": (("am", "--continue"), ("am", "--abort"), ("am", "--skip")),
    "stash": (("stash", "drop"), ("stash", "pop"), ("stash", "apply")),
}


# A plain `git commit` also concludes a merge, cherry-pick or revert that stopped on a conflict, once
# the conflicts are resolved and staged. Not a step that resumes one: a commit that failed says
# nothing of a merge.
_CONCLUDED_BY_COMMIT = frozenset({"merge", "cherry-pick", "revert"})


def _git_steps(command: str) -> list[tuple[str, ...]]:
    """The arguments of each git step of ``command``, past git's own options."""
    steps = []
    for piped, words in segments(command):
        words = unwrap(words)
        if piped or not words or executable(words[0]) != "git":
            continue
        args = words[1:]
        steps.append(tuple(args[skip_global_options(args, None)[0] :]))
    return steps


def _runs(step: tuple[str, ...], spelled: tuple[str, ...]) -> bool:
    """Whether a git step is ``spelled``: its subcommand, then (in any place) the option."""
    return bool(step) and step[0] == spelled[0] and all(word in step[1:] for word in spelled[1:])


def _stopped(command: str) -> tuple[set[str], set[str]]:
    """The operations ``command`` started that can stop midway, and those it tried to go on with."""
    started: set[str] = set()
    resumed: set[str] = set()
    for step in _git_steps(command):
        for operation, starts in _STARTS.items():
            # `git rebase --abort` ends a rebase; `git stash pop` both starts and ends a stash's.
            if any(_runs(step, end) for end in _ENDS[operation] if end not in starts):
                resumed.add(operation)
            elif any(_runs(step, start) for start in starts):
                started.add(operation)
    return started, resumed


def ended_by(entry: LedgerEntry, later: str) -> str | None:
    """How ``later``, which succeeded, ended the git operation whose stop ``entry`` is, or None.

    The entry is such a stop when git's complaint says the operation stopped, or when the
    command that failed was itself a step to go on with one in progress (``git rebase
    --continue`` refused: "you have staged changes").
    """
    operations: set[str] = set()
    stopped = names_a_conflict(entry.message) or _STOPPED.search(entry.message) is not None
    for command in entry.commands:
        started, resumed = _stopped(command)
        operations |= resumed | (started if stopped else set())
    if not operations:
        return None
    for step in _git_steps(later):
        for operation in sorted(operations):
            ends = _ENDS[operation] + ((("commit",),) if operation in _CONCLUDED_BY_COMMIT else ())
            for end in ends:
                if _runs(step, end):
                    return f"the stopped {operation} was ended by `git {' '.join(end)}`, which succeeded"
    return None
