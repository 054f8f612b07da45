"""Grading an answer against the index, without a model.

An answer passes a probe by naming what the index knows: the changed paths
(a path by its full spelling, or by its file name when no other changed
file has that name), the original error's first line (or most of its
distinctive words), the open tasks and errors, the words of a decision.  An
artifact answer that names a file the session did not change loses
precision: a wrong path sends the next agent to the wrong file.
"""

from __future__ import annotations

import re
from collections import Counter

from pydantic import BaseModel, ConfigDict

from artifact_index.lazy_pattern import lazy_pattern
from summarizer.evaluation.questions import Question

__all__ = ["Grade", "grade_answer"]

_PATH = lazy_pattern(r"`?([\w.\-/\\]+\.[A-Za-z0-9]{1,8})`?")
_WORDS_NEEDED = 0.6  # share of an item's distinctive words that names it


class Grade(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)

    score: float | None  # 0..1; None when the index expects nothing to check
    found: list[str]
    missing: list[str]
    wrong: list[str] = []  # files the answer names as changed that the session did not change


def _normal(text: str) -> str:
    return " ".join(text.lower().split())


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9_]{3,}", text.lower())}


def _names_item(answer: str, item: str) -> bool:
    """Whether ``answer`` states ``item``: its text, or most of its words."""
    if _normal(item) in _normal(answer):
        return True
    words = _words(item)
    return bool(words) and len(words & _words(answer)) >= _WORDS_NEEDED * len(words)


def _artifact(answer: str, expected: list[str], precise: bool) -> Grade:
    names = Counter(path.rsplit("/", 1)[-1] for path in expected)
    lowered = answer.lower()
    found, missing = [], []
    for path in expected:
        name = path.rsplit("/", 1)[-1]
        if path.lower() in lowered or (names[name] == 1 and name.lower() in lowered):
            found.append(path)
        else:
            missing.append(path)
    wrong: list[str] = []
    if precise:
        known = {p.lower() for p in expected} | {n.lower() for n in names}
        for match in _PATH.findall(answer):
            spelled = match.strip("`").lower()
            tail = spelled.rsplit("/", 1)[-1]
            if (
                spelled not in known
                and tail not in known
                and not any(p.lower().endswith("/" + spelled) for p in expected)
            ):
                wrong.append(match.strip("`"))
        wrong = list(dict.fromkeys(wrong))
    if not expected:
        return Grade(score=0.0 if wrong else 1.0, found=[], missing=[], wrong=wrong)
    recall = len(found) / len(expected)
    if not precise:
        return Grade(score=recall, found=found, missing=missing)
    precision = len(found) / (len(found) + len(wrong)) if found or wrong else 0.0
    score = 0.0 if not found else 2 * precision * recall / (precision + recall)
    return Grade(score=score, found=found, missing=missing, wrong=wrong)


def grade_answer(question: Question, answer: str, *, precise: bool = True) -> Grade:
    """How well ``answer`` states the index's answer to ``question`` (0..1).

    ``precise``: count files named that the session did not change against
    an artifact answer (off when the "answer" is a whole summary, which names
    the files read too).
    """
    if question.kind == "artifact":
        return _artifact(answer, question.expected, precise)
    if not question.expected:
        return Grade(score=None, found=[], missing=[])
    if question.kind in ("decision",) or (
        question.kind == "recall" and question.question.startswith("What did the user")
    ):
        # The expected items are one statement's distinctive words: the share of them said.
        said = _words(answer)
        found = [w for w in question.expected if w.lower() in answer.lower() or _words(w) <= said]
        missing = [w for w in question.expected if w not in found]
        return Grade(score=len(found) / len(question.expected), found=found, missing=missing)
    found = [item for item in question.expected if _names_item(answer, item)]
    missing = [item for item in question.expected if item not in found]
    return Grade(score=len(found) / len(question.expected), found=found, missing=missing)
