"""Checking the narrative against the index.

The LLM writes prose; the index knows facts.  Where the prose contradicts a
fact (a file called modified that was only read, a file called created that
already existed, tests called passing while the last run failed), the item
keeps its words and gains a flag quoting the index, so the contradiction is
visible in the summary instead of passing through silently.
"""

from __future__ import annotations

import re

from .facts import FileFact, SessionFacts
from .narrative import Narrative, NarrativeItem

__all__ = ["check_narrative", "contradictions"]

_CHANGE = re.compile(r"\b(modif(y|ied|ies)|chang(e|ed|es)|updat(e|ed|es)|edit(ed|s)?|fix(ed|es)?|refactor(ed|s)?|"
                     r"rewr(ote|itten)|patch(ed)?|delet(e|ed|es)|remov(e|ed|es)|renam(e|ed|es)|creat(e|ed|es)|"
                     r"add(ed|s)? (a |the )?(new )?file|wrote)\b", re.I)
_CREATE = re.compile(r"\b(creat(ed|es|ing)|new file|added (a |the )?(new )?file)\b", re.I)
_PASSING = re.compile(r"\b(all (the )?tests (now )?pass(ing|ed)?|tests (are |now )?(all )?pass(ing|ed)?|test suite (is )?green|"
                      r"(everything|all) (is )?(passing|green))\b", re.I)
_DONE = re.compile(r"\b(is|are|now|was|been) (done|complete[d]?|finished|fixed|resolved)\b|\bfully (working|fixed)\b", re.I)
_PATHISH = re.compile(r"`?([\w.\-/]+/[\w.\-]+\.\w{1,8}|[\w\-]+\.(py|ts|tsx|js|jsx|go|rs|java|rb|ex|exs|php|c|h|cpp|cs|kt|md|toml|json|yaml|yml))`?")


def _files_by_name(facts: SessionFacts) -> dict[str, list[FileFact]]:
    index: dict[str, list[FileFact]] = {}
    for f in [*facts.created, *facts.modified, *facts.deleted, *facts.reverted, *facts.read]:
        index.setdefault(f.path, []).append(f)
        index.setdefault(f.path.rsplit("/", 1)[-1], []).append(f)
    return index


def contradictions(text: str, facts: SessionFacts) -> list[str]:
    """What the index says against the claims of one narrative item."""
    flags: list[str] = []
    known = _files_by_name(facts)
    if _CHANGE.search(text):
        for match in _PATHISH.finditer(text):
            name = match.group(1)
            files = known.get(name) or known.get(name.rsplit("/", 1)[-1])
            if not files:
                if "/" in name:
                    flags.append(f"no change to `{name}` was recorded")
                continue
            statuses = {f.status for f in files}
            if statuses == {"read"}:
                flags.append(f"`{name}` was only read, never changed")
            elif _CREATE.search(text) and statuses == {"modified"}:
                flags.append(f"`{name}` existed before: it was modified, not created")
    failing = [t for t in facts.tests if t.failed]
    if _PASSING.search(text) and failing:
        last = failing[-1]
        flags.append(f"the last run of `{' '.join(last.command.split())[:60]}` (turn {last.turn}) had {last.failed} failing")
    elif _DONE.search(text) and (failing or facts.open_errors) and not _PASSING.search(text):
        what = f"{len(facts.open_errors)} error(s) still open" if facts.open_errors else "tests still failing"
        flags.append(what)
    return list(dict.fromkeys(flags))


def check_narrative(narrative: Narrative, facts: SessionFacts) -> Narrative:
    """The narrative with every item the index contradicts flagged (quotes of the agent included)."""
    sections: dict[str, list[NarrativeItem]] = {}
    for key, items in narrative.sections.items():
        checked = []
        for item in items:
            flags = contradictions(item.text, facts)
            checked.append(item.model_copy(update={"flag": "; ".join(flags) if flags else None}))
        sections[key] = checked
    return narrative.model_copy(update={"sections": sections})
