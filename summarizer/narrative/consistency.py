"""Checking the narrative against the index.

The LLM writes prose; the index knows facts.  Where the prose contradicts a
fact (a file called modified that was only read, a file called created that
already existed, tests called passing while the last run failed or while
files changed after it), the item
keeps its words and gains a flag quoting the index, so the contradiction is
visible in the summary instead of passing through silently.
"""

from __future__ import annotations

import re

from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.answers import FileReport, TestReport
from summarizer.narrative.narrative_model import Narrative, NarrativeItem
from summarizer.sections.summary_facts import SessionFacts

__all__ = [
    "FORWARD_SECTIONS",
    "check_narrative",
    "contradictions",
    "still_failing",
    "untested_since",
]

_CHANGE = lazy_pattern(
    r"\b(modif(y|ied|ies|ying)|chang(e|ed|es|ing)|updat(e|ed|es|ing)|edit(ed|s|ing)?|"
    r"fix(ed|es|ing)?|refactor(ed|s|ing)?|rewr(ote|itten|ite|ites|iting)|patch(ed|es|ing)?|"
    r"delet(e|ed|es|ing)|remov(e|ed|es|ing)|renam(e|ed|es|ing)|creat(e|ed|es|ing)|"
    r"replac(e|ed|es|ing)|add(ed|s|ing)? (a |the )?(new )?file|wr(ote|itten|ites|iting))\b",
    re.I,
)
# "tasks.md NOT YET EDITED", "config.py is unchanged": a claim that a file was not changed, which an earlier
# cycle may have written before the change came.
_NOT_CHANGED = lazy_pattern(
    r"\b(?:not (?:yet )?(?:been )?(?:yet )?(?:edited|changed|modified|updated|touched|created|written)|"
    r"(?:has|have|was|were|is|are)n't (?:yet )?(?:been )?(?:edited|changed|modified|updated|touched|created|"
    r"written)|unchanged|untouched|unmodified)\b",
    re.I,
)
_CREATE = lazy_pattern(r"\b(creat(ed|es|ing)|new file|added (a |the )?(new )?file)\b", re.I)
_PASSING = lazy_pattern(
    r"\b(all (the |\d+ )?tests (now )?pass(es|ing|ed)?|tests (are |now )?(all )?pass(es|ing|ed)?|"
    r"test suite (is |now )?(green|pass(es|ing))|(everything|all) (is )?(passing|green))\b",
    re.I,
)
# "3 tests pass, 1 fails" reports a failure rather than claiming success.
_FAILING = lazy_pattern(r"\bfail(s|ed|ing|ure|ures)?\b|\bbroken\b|\bred\b", re.I)
# Clauses: a change verb speaks of the paths of its own clause only
# ("read a.py and modified b.py" claims nothing about a.py).
_CLAUSE = lazy_pattern(r"[;,]\s+|\.\s+|\s+(?:and|then|but|while|after|before)\s+", re.I)
_DONE = lazy_pattern(
    r"\b(is|are|now|was|been) (done|complete[d]?|finished|fixed|resolved)\b|\bfully (working|fixed)\b"
    r"|\bsuccessfully (completed|finished|implemented|fixed)\b",
    re.I,
)
_PATHISH = lazy_pattern(
    r"`?([\w.\-/]+/[\w.\-]+\.\w{1,8}|[\w\-]+\.(py|ts|tsx|js|jsx|go|rs|java|rb|ex|exs|php|c|h|cpp|cs|kt|md|toml|json|yaml|yml))`?"
)


# A web address names a page, not a file of the session ("https://github.com/o/r/pull/7").
_URL = lazy_pattern(r"\b[a-z][a-z0-9+.\-]*://\S+", re.I)
# Quoted code and paths: a verb inside them ("flutter-version-update/spec.md") is not the prose's claim.
_QUOTED = lazy_pattern(r"`[^`]*`")


def _prose(clause: str) -> str:
    """The clause's own words, without quoted code or paths, where its verbs are read."""
    return _PATHISH.sub(" ", _QUOTED.sub(" ", clause))


def _clauses(text: str) -> list[str]:
    """The text's clauses, web addresses left out."""
    return _CLAUSE.split(_URL.sub(" ", text))


def _files_by_name(facts: SessionFacts) -> dict[str, list[FileReport]]:
    index: dict[str, list[FileReport]] = {}
    for f in [*facts.created, *facts.modified, *facts.deleted, *facts.reverted, *facts.read]:
        index.setdefault(f.path, []).append(f)
        index.setdefault(f.path.rsplit("/", 1)[-1], []).append(f)
    return index


def still_failing(facts: SessionFacts) -> list[TestReport]:
    """Test commands whose last run failed and that no later, at least as large, passing run covers.

    The index keeps the last run of each command: ``pytest tests/test_a.py``
    failing at turn 6 and the whole suite (more tests) passing at turn 9
    means the failure is gone; a later smaller run proves nothing about it.
    """
    out = []
    for run in facts.tests:
        if not run.failed or run.superseded_by is not None:
            continue
        size = run.passed + run.failed
        cleared = any(
            later.turn > run.turn and not later.failed and later.passed >= size
            for later in facts.tests
        )
        if not cleared:
            out.append(run)
    return out


def contradictions(text: str, facts: SessionFacts) -> list[str]:
    """What the index says against the claims of one narrative item."""
    flags: list[str] = []
    known = _files_by_name(facts)
    for clause in _clauses(text):
        if _NOT_CHANGED.search(_prose(clause)):
            flags += _changed_after_all(clause, known)
            continue
        if not _CHANGE.search(_prose(clause)):
            continue
        for match in _PATHISH.finditer(clause):
            name = match.group(1)
            files = known.get(name) or known.get(name.rsplit("/", 1)[-1])
            if not files:
                if "/" in name:
                    flags.append(f"no change to `{name}` was recorded")
                continue
            statuses = {f.status for f in files}
            # Only a path the index knows exactly is certain: a bare name may be another file of that name,
            # and the same file in another checkout (a git worktree) or one a sub-agent changed may be the
            # one that changed.  An uncertain flag read as noise that contradicts the text.
            base = name.rsplit("/", 1)[-1]
            copies = any(
                f.path.rsplit("/", 1)[-1] == base
                for f in [*facts.created, *facts.modified, *facts.deleted, *facts.reverted]
            )
            exact = "/" in name and any(
                f.path == name or (name.startswith("/") and name.endswith("/" + f.path))
                for f in files
            )
            if statuses == {"read"} and exact and not copies:
                flags.append(f"`{name}` was only read, never changed")
            elif _CREATE.search(clause) and statuses == {"modified"}:
                flags.append(f"`{name}` existed before: it was modified, not created")
    failing = still_failing(facts)
    claims_passing = bool(_PASSING.search(text)) and not _FAILING.search(text)
    claims_done = bool(_DONE.search(text))
    untested = untested_since(facts)
    if failing and (claims_passing or claims_done):
        last = failing[-1]
        flags.append(
            f"the last run of `{' '.join(last.command.split())[:60]}` (turn {last.turn}) had "
            f"{last.failed} failing"
        )
    elif claims_passing and untested:
        # A pass from before the latest edits is not the state of the code now.
        turn, count = untested
        flags.append(
            f"{count} file(s) changed after the last test run (turn {turn}) are not yet tested"
        )
    return list(dict.fromkeys(flags))


def _changed_after_all(clause: str, known: dict[str, list[FileReport]]) -> list[str]:
    """The files a clause calls not changed that the index saw changed, with the turn of their last change."""
    flags = []
    for match in _PATHISH.finditer(clause):
        name = match.group(1)
        files = known.get(name) or known.get(name.rsplit("/", 1)[-1]) or []
        turns = [
            max(f.changed_turns)
            for f in files
            if f.status in ("created", "modified", "deleted") and f.changed_turns
        ]
        if turns:
            flags.append(f"`{name}` was changed, last at turn {max(turns)}")
    return flags


def untested_since(facts: SessionFacts) -> tuple[int, int] | None:
    """(turn of the last test run, files changed after it) when changes came after the last test run."""
    for group in facts.unverified:
        for run in group.runs:
            if run.category == "test":
                return run.turn, len(group.files)
    return None


# Sections that state requests and plans, not what happened: "Update
# README.md" there is a to-do, not a claim the index could contradict.
FORWARD_SECTIONS = frozenset({"intent", "next_steps"})


def _stale_not_changed(text: str, facts: SessionFacts) -> list[str]:
    """In a request or a plan, only a claim that a file is not changed yet is checked: the rest is a to-do."""
    known = _files_by_name(facts)
    flags = [
        f
        for c in _clauses(text)
        if _NOT_CHANGED.search(_prose(c))
        for f in _changed_after_all(c, known)
    ]
    return list(dict.fromkeys(flags))


def check_narrative(narrative: Narrative, facts: SessionFacts) -> Narrative:
    """The narrative with every item the index contradicts flagged (quotes of the agent included)."""
    sections: dict[str, list[NarrativeItem]] = {}
    for key, items in narrative.sections.items():
        checked = []
        for item in items:
            flags = (
                _stale_not_changed(item.text, facts)
                if key in FORWARD_SECTIONS
                else contradictions(item.text, facts)
            )
            checked.append(item.model_copy(update={"flag": "; ".join(flags) if flags else None}))
        sections[key] = checked
    return narrative.model_copy(update={"sections": sections})
