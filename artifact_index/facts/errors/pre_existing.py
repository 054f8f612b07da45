"""Findings that were there before the session: reported, but not the session's to fix.

A linter run over a project reports what the project already had: "5
software design suggestions" in a file the session never opened are not an
error the session made, and an agent that continues must not take them up
as its next step.  Two things class a finding as pre-existing:

* **where it points**: a linter's finding (lint rules are file-local) first
  reported on a file the session had not changed by then
  (:func:`linted_before_changed`); not a name that does not resolve
  (golangci-lint's ``typecheck``, ``no-undef``, ruff's ``F821``), which a
  change elsewhere causes (a definition removed, a module moved);
* **what the agent said** right after the output that showed it: "the 5
  are pre-existing in ``waiting_summary.ex``", "no new credo issues",
  "unrelated to my changes" (:func:`acknowledged`).  A sentence that names
  files covers the findings in those files; one that names none covers
  only findings in files the session had not changed, since an agent
  calling a whole output "pre-existing" may overlook the one it caused.
  Only the clause that makes the claim counts ("pre-existing (scripts,
  SectionHeading) — none from my new ``QualityDebtSection.tsx``" names the
  first two).  Questions and plans ("let me check whether these are
  pre-existing") claim nothing, and neither does a finding the agent says it
  will fix ("unrelated to my changes but needs fixing"): that is its work.

Errors of other kinds (a type error in an unchanged file may come from a
changed one) are classed only by the agent's words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["PRE_EXISTING_KINDS", "acknowledged", "classes", "linted_before_changed"]

# Kinds of finding that a file's own content causes: reported on an unchanged file, it predates the session.
PRE_EXISTING_KINDS = frozenset({"linter"})

_CLAIM = lazy_pattern(
    r"\bpre-?existing\b|\balready (?:there|present|existed|failing|broken)\b"
    r"|\b(?:unrelated|not related) to (?:my|our|the|these|this|any of (?:my|our|the))\b"
    r"|\bnot (?:caused by|from|introduced by) (?:my|our|the|these|this)\b"
    r"|\bno new (?:\w+ )?(?:issues?|warnings?|errors?|suggestions?|violations?|findings?|diagnostics?|failures?)\b"
    r"|\bnone (?:of them )?(?:are |is )?from (?:my|our) (?:code|changes?)\b"
    r"|\bwere (?:already )?there before\b",
    re.I,
)
# A sentence that asks, plans to check, hedges, or takes the finding up as work claims nothing.
_DOUBT = lazy_pattern(
    r"\?|\b(?:whether|if (?:it|they|this|these|those)|check (?:if|whether|which)|let me (?:check|see|verify|confirm)"
    r"|might|may be|maybe|possibly|perhaps|could be|not sure|appears? to be|seems?"
    r"|needs? (?:fixing|to be fixed)|(?:let me|I'll|I will|I need to|we need to|must|should) (?:also )?fix)\b",
    re.I,
)
_SENTENCES = lazy_pattern(r"(?<=[.!;])\s+|\n+")
# Where a sentence turns from the claim to what it excepts: "pre-existing (a, b) — none from my new c.ts".
_CLAUSES = lazy_pattern(r"\s+[—–]\s+|;\s*|,?\s+(?:but|except|other than|apart from)\s+|\.\s+")
# File names as an agent writes them: `waiting_summary.ex`, lib/x/y.ts:12, `Module`.
_FILE_NAME = lazy_pattern(r"[\w./-]*?([\w-]+)\.[A-Za-z]{1,5}\b|`([\w-]{3,})`")
_PARENTHESES = lazy_pattern(r"\(([^()]{3,200})\)")
# Findings a change elsewhere causes: a name that no longer resolves, a module that moved.
_UNRESOLVED_CODES = frozenset(
    {
        "typecheck",
        "F821",
        "F822",
        "F401",
        "E0602",
        "E0401",
        "no-undef",
        "import/no-unresolved",
        "undefined",
    }
)
_UNRESOLVED = lazy_pattern(
    r"\bundefined\b|\bunresolved\b|cannot find|could not (?:import|resolve)|"
    r"no (?:exported )?member|not found|is not defined",
    re.I,
)


def acknowledged(text: str) -> list[str]:
    """The sentences of an agent's message that call findings pre-existing or not the session's."""
    # A claim in a sentence is one in the message (sentences end at whitespace), and most messages make none.
    if not _CLAIM.search(text):
        return []
    return [s.strip() for s in _SENTENCES.split(text) if _CLAIM.search(s) and not _DOUBT.search(s)]


def _claim_clause(sentence: str) -> str:
    """The part of a sentence that makes the claim, without what it excepts."""
    return next((c for c in _CLAUSES.split(sentence) if _CLAIM.search(c)), sentence)


def _names(sentence: str) -> set[str]:
    """The file names, stems and folders the claim names (``waiting_summary.ex``, ``(scripts, SectionHeading)``)."""
    clause = _claim_clause(sentence)
    found: set[str] = set()
    for match in _FILE_NAME.finditer(clause):
        whole = match.group(0).strip("`").rsplit("/", 1)[-1].split(":", 1)[0]
        stem = next(g for g in match.groups() if g)
        found |= {whole.lower(), stem.lower()}
    for listed in _PARENTHESES.finditer(clause):
        found |= {
            word.strip(" `'\"").lower() for word in listed.group(1).split(",") if word.strip()
        }
    return found


def classes(
    sentence: str, files: Sequence[str | None], changed: Callable[[str], bool]
) -> list[bool]:
    """For each finding's file (None: no file), whether the agent's ``sentence`` classes it pre-existing."""
    named = _names(sentence)
    in_sentence = [f is not None and _file_named(f, named) for f in files]
    if any(in_sentence):
        return in_sentence
    # A sentence naming none of the files speaks of the whole output: only what the session had not touched.
    if any(f is not None and changed(f) for f in files):
        return [f is not None and not changed(f) for f in files]
    return [True for _ in files]


def _file_named(path: str, named: set[str]) -> bool:
    """Whether ``path`` is named by its file name, its stem or one of its folders."""
    parts = [p.lower() for p in path.replace("\\", "/").split("/") if p]
    if not parts:
        return False
    return (
        parts[-1] in named
        or parts[-1].rsplit(".", 1)[0] in named
        or any(p in named for p in parts[:-1])
    )


def linted_before_changed(
    kind: str, code: str | None, message: str, file: str | None, changed: Callable[[str], bool]
) -> bool:
    """Whether a finding first reported now predates the session: a file-local lint finding on a file it had not
    changed."""
    if kind not in PRE_EXISTING_KINDS or file is None or changed(file):
        return False
    return code not in _UNRESOLVED_CODES and not _UNRESOLVED.search(message)
