"""Candidate decisions from the assistant's own words.

Deterministic and conservative: a sentence is a candidate only when it
states a choice ("I'll use X instead of Y", "decided to"), a rejected
alternative ("rather than", "instead of"), or a root cause ("the root cause
is", "the bug is caused by").  Questions, hedges and code are skipped.  The
summarizer lets an LLM confirm and word them; here they carry the turn and the
files and symbols they name, so they can join the graph.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict

__all__ = ["Decision", "DecisionKind", "extract_decisions"]

DecisionKind = Literal["choice", "rejected-alternative", "root-cause"]

_PATTERNS: list[tuple[DecisionKind, re.Pattern[str]]] = [
    ("root-cause", re.compile(
        r"\b(the )?(root cause|underlying (issue|problem|cause)|real (issue|problem|cause))\b"
        r"|\b(the |this )(bug|issue|problem|error|failure) (is|was) (caused by|due to|because)\b", re.I)),
    ("rejected-alternative", re.compile(
        r"\b(instead of|rather than)\b.{3,}|\b(won't|will not|shouldn't|should not|don't|do not) "
        r"(use|go with|switch to|add|change)\b.{3,}\bbecause\b", re.I)),
    ("choice", re.compile(
        r"\b(I|we)('ve| have)? (decided|chosen|chose|opted|settled on)\b"
        r"|\b(I'll|I will|let's|let us|we'll|we will) (go with|use|switch to|keep|stick with)\b"
        r"|\bthe (best|right|cleanest|simplest|safest) (approach|fix|option|solution|way) (is|would be)\b"
        r"|\bdecision\b:", re.I)),
]
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*\"'(])|\n+")
_CODE_SPAN = re.compile(r"`([^`\n]{1,80})`")
_IDENTIFIER = re.compile(r"^[A-Za-z_][\w.:]*(\(\))?$")
_FENCE = re.compile(r"```.*?```", re.S)
_HEDGE = re.compile(r"^\s*(maybe|perhaps|possibly|should I|could we|do you|would you|if )", re.I)


class Decision(BaseModel):
    """One candidate decision, in the assistant's words."""

    model_config = ConfigDict(frozen=True)

    text: str
    kind: DecisionKind
    turn: int
    files: list[str]
    symbols: list[str]


def _clean(sentence: str) -> str:
    sentence = re.sub(r"^\s*([-*>#]+|\d+[.)])\s*", "", sentence)
    return " ".join(sentence.replace("**", "").split())


def extract_decisions(text: str, turn: int, known_paths: Iterable[str] = ()) -> list[Decision]:
    """Candidate decisions stated in one assistant message."""
    paths = sorted(set(known_paths), key=len, reverse=True)
    out: list[Decision] = []
    seen: set[str] = set()
    for raw in _SENTENCE.split(_FENCE.sub(" ", text)):
        sentence = _clean(raw)
        if not (20 <= len(sentence) <= 400) or sentence.endswith("?") or _HEDGE.match(sentence):
            continue
        kind = next((k for k, pattern in _PATTERNS if pattern.search(sentence)), None)
        if kind is None or sentence in seen:
            continue
        seen.add(sentence)
        files = [p for p in paths if p in sentence or ("/" in p and p.rsplit("/", 1)[1] in sentence
                                                        and len(p.rsplit("/", 1)[1]) > 3)]
        symbols = sorted({
            span.rstrip("()") for span in _CODE_SPAN.findall(sentence)
            if _IDENTIFIER.match(span) and not any(span in f or f.endswith(span) for f in files)
            and "/" not in span and not span.endswith((".py", ".ts", ".js", ".md"))
        })
        out.append(Decision(text=sentence, kind=kind, turn=turn, files=files, symbols=symbols))
    return out
