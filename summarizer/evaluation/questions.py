"""The probes an evaluation asks, generated from the index, each with the index's own answer.

Four kinds, as the compression guides define them:

* *recall*: "What was the original error?", answered by the index's first
  error (or, in a session without one, "What did the user first ask
  for?", answered by their first request);
* *artifact*: "Which files were created, modified or deleted?", answered by
  every changed path;
* *continuation*: "What should be done next?", answered by what the index
  says is left (open tasks and errors, checks owed, the latest request);
* *decision*: "What was decided about X?", one per recent decision that
  names a file or symbol X, answered by the decision in the agent's words.

Each probe carries ``expected``: the items a right answer names, which
:mod:`summarizer.evaluation.grading` looks for without a model.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from artifact_index.lazy_pattern import lazy_pattern
from summarizer.narrative.next_steps import next_steps
from summarizer.sections.summary_facts import SessionFacts
from summarizer.sections.text import one_line
from summarizer.sections.thread import latest_request

__all__ = ["KINDS", "Question", "generate_questions"]

KINDS = ("recall", "artifact", "continuation", "decision")
_DECISIONS = 2  # decision probes asked, the latest first
_REFERENCE_CHARS = 600


class Question(BaseModel):
    """One probe: what is asked, what the index answers, and the items a right answer names."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    id: str  # "q1", "q2", ...: the key of its answer in the reply
    kind: str
    question: str
    reference: str  # the index's answer, for the judge
    expected: list[str]  # the items a right answer names (paths, an error's words), for grading


def _recall(facts: SessionFacts) -> tuple[str, str, list[str]]:
    if facts.original_error is not None:
        first = facts.original_error.message.strip().splitlines()[0].strip()
        where = f" in `{facts.original_error.file}`" if facts.original_error.file else ""
        state = "since resolved" if facts.original_error.resolved else "still open"
        return (
            "What was the original error?",
            f"`{one_line(first, 300)}`{where} (turn {facts.original_error.first_turn}, {state})",
            [first],
        )
    requests = [m for m in facts.user_messages if m.channel != "command" and m.text.strip()]
    if not requests:
        return ("What did the user first ask for?", "Nothing: the session has no user message.", [])
    first_request = requests[0].text.strip()
    return (
        "What did the user first ask for?",
        one_line(first_request, _REFERENCE_CHARS),
        _distinctive_words(first_request),
    )


def _artifact(facts: SessionFacts) -> tuple[str, str, list[str]]:
    groups = [
        ("created", facts.created),
        ("modified", facts.modified),
        ("deleted", facts.deleted),
        ("reverted (changed, then back as it was)", facts.reverted),
    ]
    said = [
        f"{status}: " + ", ".join(f"`{f.path}`" for f in files) for status, files in groups if files
    ]
    return (
        "Which files were created, modified or deleted in this session?",
        "; ".join(said) if said else "None: the session changed no file.",
        [f.path for f in facts.changed],
    )


def _continuation(facts: SessionFacts) -> tuple[str, str, list[str]]:
    steps = next_steps(facts)
    expected = [t.content for t in facts.open_tasks]
    expected += [e.message.strip().splitlines()[0] for e in facts.open_errors]
    latest = latest_request(facts.user_messages)
    reference = "; ".join(one_line(step, 200) for step in steps[:6])
    if latest is not None:
        reference = (
            f"The latest request (turn {latest.turn}): {one_line(latest.text, 300).rstrip('.')}. "
            + (f"Left to do, by the index: {reference}" if reference else "")
        )
    return ("What should be done next?", reference or "Nothing recorded as left to do.", expected)


def _decisions(facts: SessionFacts) -> list[tuple[str, str, list[str]]]:
    asked: list[tuple[str, str, list[str]]] = []
    seen: set[str] = set()
    for decision in reversed(facts.decisions):
        subject = next((name for name in [*decision.files, *decision.symbols] if name), None)
        if subject is None or subject in seen:
            continue
        seen.add(subject)
        asked.append(
            (
                f"What was decided about `{subject}`?",
                f"(turn {decision.turn}) {one_line(decision.text, _REFERENCE_CHARS)}",
                _distinctive_words(decision.text),
            )
        )
        if len(asked) == _DECISIONS:
            break
    return asked


_WORD = lazy_pattern(r"[A-Za-z_][\w.\-/]{3,}")
_COMMON = frozenset(
    [
        "this",
        "that",
        "with",
        "from",
        "have",
        "will",
        "would",
        "should",
        "could",
        "into",
        "about",
        "then",
        "than",
        "there",
        "their",
        "what",
        "when",
        "which",
        "were",
        "been",
        "being",
        "does",
        "done",
        "make",
        "made",
        "need",
        "needs",
        "also",
        "just",
        "only",
        "like",
        "more",
        "most",
        "some",
        "such",
        "them",
        "they",
        "these",
        "those",
        "here",
        "your",
        "yours",
        "please",
        "file",
        "files",
        "code",
        "change",
        "changes",
        "instead",
        "rather",
        "because",
        "since",
        "after",
        "before",
        "using",
        "used",
        "keep",
        "kept",
    ]
)


def _distinctive_words(text: str, limit: int = 8) -> list[str]:
    """The words of ``text`` a right answer would repeat: names and long words first, common ones left out."""
    words = list(dict.fromkeys(w.strip(".-/") for w in _WORD.findall(text)))
    words = [w for w in words if w.lower() not in _COMMON and len(w) >= 4]
    named = [w for w in words if any(c in w for c in "_./") or any(c.isupper() for c in w[1:])]
    plain = sorted((w for w in words if w not in named), key=len, reverse=True)
    return (named + plain)[:limit]


def generate_questions(facts: SessionFacts) -> list[Question]:
    """The probes for a session, from its index: recall, artifact, continuation, then decisions."""
    asked = [
        ("recall", *_recall(facts)),
        ("artifact", *_artifact(facts)),
        ("continuation", *_continuation(facts)),
        *(("decision", *d) for d in _decisions(facts)),
    ]
    return [
        Question(
            id=f"q{number}", kind=kind, question=question, reference=reference, expected=expected
        )
        for number, (kind, question, reference, expected) in enumerate(asked, start=1)
    ]
