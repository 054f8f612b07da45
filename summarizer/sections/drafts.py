"""Names the agent proposed that were written under another name: a draft is not what the code holds.

An investigation's result often sketches the fix: "remainingFiles :=
filesWithUncommittedAgentChanges(shadowTree, ...)".  Then the agent writes it
as ``filesWithRemainingAgentChanges``.  Quoted as it was, the finding sends
the agent that continues looking for a function that does not exist.  A
name in a finding is a draft superseded when:

* it is a compound identifier (``camelCase`` or ``snake_case``) the index
  never saw defined or read, and
* after the finding the session added a definition that is not it but
  shares its opening and its ending (the same first and last words of the
  name): the one written in its place.

The finding is kept in the agent's words, with the name it was written
under beside it.
"""

from __future__ import annotations

from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.session_state import AssistantSaid
from summarizer.sections.summary_facts import SessionFacts

__all__ = ["superseded_names"]

_COMPOUND = lazy_pattern(
    r"\b(?:[a-z][a-z0-9]*(?:[A-Z][a-z0-9]+)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+|"
    r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b"
)
_WORDS = lazy_pattern(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_MIN_NAME = 10


def _words(name: str) -> list[str]:
    return [w.lower() for part in name.split("_") for w in _WORDS.findall(part)]


def _written_for(draft: str, candidates: dict[str, int]) -> tuple[str, int] | None:
    """The definition written in place of ``draft``: same first and last word, different middle."""
    words = _words(draft)
    if len(words) < 3:
        return None
    for name, turn in sorted(candidates.items(), key=lambda pair: pair[1]):
        other = _words(name)
        if (
            name != draft
            and len(other) >= 3
            and other[0] == words[0]
            and other[-1] == words[-1]
            and other[1:-1] != words[1:-1]
        ):
            return name, turn
    return None


def superseded_names(finding: AssistantSaid, facts: SessionFacts) -> list[tuple[str, str, int]]:
    """``(draft, written, turn)`` for each name in ``finding`` that was written under another name since."""
    known = {s.name for f in [*facts.changed, *facts.read] for s in [*f.symbols, *f.read_symbols]}
    added_after = {
        s.name: min(t for t in s.turns if t > finding.turn)
        for f in facts.changed
        for s in f.symbols
        if s.change == "added" and any(t > finding.turn for t in s.turns)
    }
    if not added_after:
        return []
    found = []
    for draft in dict.fromkeys(_COMPOUND.findall(finding.text)):
        if len(draft) < _MIN_NAME or draft in known:
            continue
        written = _written_for(draft, added_after)
        if written is not None:
            found.append((draft, *written))
    return found
