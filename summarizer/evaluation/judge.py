"""The judge: an LLM scores the answers a summary allowed, on six dimensions, against the index.

The judge never sees which summary (or which strategy) the answers came
from.  It gets the index's own answer to each probe, the user's messages
(their requests and constraints), what the session did right after the
cut when the transcript goes on, and the answers; it scores each answer
0-5 and the whole on six dimensions, each with the rubric below and a
one-line reason.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, create_model

from summarizer.evaluation.questions import Question
from summarizer.providers.structured import StructuredAsk, StructuredClient

__all__ = [
    "DIMENSIONS",
    "JUDGE_SYSTEM",
    "JUDGE_TOOL",
    "RUBRIC",
    "Judgement",
    "Scored",
    "judge_answers",
    "judge_ask",
]

JUDGE_TOOL = "record_scores"
DIMENSIONS = (
    "accuracy",
    "context_awareness",
    "artifact_trail",
    "completeness",
    "continuity",
    "instruction_following",
)
RUBRIC: dict[str, str] = {
    "accuracy": (
        "Are the technical details right: file paths, function and variable names, error messages, "
        "commands? 5: every one exact; 3: right in substance with a detail wrong or vague; "
        "0: wrong or invented details."
    ),
    "context_awareness": (
        "Do the answers reflect the session's state at the cut: what is done, what is in progress, "
        "what failed last? 5: the current state exactly; 3: partly stale (finished work called "
        "open, or the reverse); 0: describes another moment of the session."
    ),
    "artifact_trail": (
        "Do the answers know which files were created, modified, deleted and read, and what changed "
        "in them? 5: every changed file and what its change did; 3: most files, little of what "
        "changed; 0: files missing or wrong."
    ),
    "completeness": (
        "Does each answer address every part of its question? 5: all parts; 3: the main part only; "
        "0: evasive or empty where the reference has an answer."
    ),
    "continuity": (
        "Could the agent continue the work from these answers without re-reading files, re-running "
        "investigations or asking the user again? 5: yes, straight away; 3: after re-reading some "
        "files; 0: it would have to start over."
    ),
    "instruction_following": (
        "Do the answers respect what the user asked and the constraints they stated (what to do, "
        "what not to do, refused actions, their feedback)? 5: every constraint kept; 3: the main "
        "request kept, a constraint lost; 0: contradicts the user."
    ),
}
JUDGE_SYSTEM = (
    "You grade how well a compaction summary let a coding agent continue its session. You are given the "
    "reference: what the session's index knows (exact, computed from the tool calls), the user's own "
    "messages, and what happened right after the cut when known; then the questions the agent was asked "
    "and the answers it gave from the summary alone. Score against the reference only; an answer that "
    "says the summary does not say scores as missing. Answer only by calling the "
    f"{JUDGE_TOOL} tool."
)


class Scored(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    score: int = Field(ge=0, le=5, description="0 (worst) to 5 (best), by the rubric")
    reason: str = Field(description="One line: why this score, naming what was right or wrong.")


class Judgement(BaseModel):
    """The judge's scores: one per question (by id), one per dimension."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    questions: dict[str, Scored]
    dimensions: dict[str, Scored]

    @property
    def overall(self) -> float:
        return sum(s.score for s in self.dimensions.values()) / len(self.dimensions)


def _reply_model(questions: list[Question]) -> type[BaseModel]:
    # Typed as create_model's keyword arguments must be (its options and the fields share them).
    per_question: dict[str, Any] = {
        q.id: (Scored, Field(description=f"How right and complete the answer to {q.id} is."))
        for q in questions
    }
    question_model: type[BaseModel] = create_model(
        "QuestionScores", __config__=ConfigDict(extra="forbid"), **per_question
    )
    per_dimension: dict[str, Any] = {d: (Scored, Field(description=RUBRIC[d])) for d in DIMENSIONS}
    dimension_model: type[BaseModel] = create_model(
        "DimensionScores", __config__=ConfigDict(extra="forbid"), **per_dimension
    )
    model: type[BaseModel] = create_model(
        "JudgeScores",
        __config__=ConfigDict(extra="forbid"),
        questions=(question_model, Field(description="A score for each answer, by question id.")),
        dimensions=(dimension_model, Field(description="A score on each dimension of the rubric.")),
    )
    return model


def judge_ask(
    questions: list[Question],
    answers: dict[str, str],
    *,
    user_messages: str,
    after: str | None,
) -> StructuredAsk[BaseModel]:
    """The judge's request for one summary's answers."""
    reference = "\n".join(f"- {q.id} ({q.kind}): {q.question}\n  {q.reference}" for q in questions)
    given = "\n".join(
        f"- {q.id}: {q.question}\n  {' '.join(answers.get(q.id, '').split()) or '(no answer)'}"
        for q in questions
    )
    rubric = "\n".join(f"- {d}: {RUBRIC[d]}" for d in DIMENSIONS)
    next_part = (
        f"<after_the_cut>\n{after.strip()}\n</after_the_cut>\n\n" if after and after.strip() else ""
    )
    prompt = (
        f"<reference_answers>\n{reference}\n</reference_answers>\n\n"
        f"<user_messages>\n{user_messages.strip()}\n</user_messages>\n\n"
        f"{next_part}"
        f"<answers>\n{given}\n</answers>\n\n"
        f"<rubric>\n{rubric}\n</rubric>\n\n"
        f"Call {JUDGE_TOOL} with a score for each answer and for each dimension."
    )
    return StructuredAsk(
        system=JUDGE_SYSTEM,
        prompt=prompt,
        tool_name=JUDGE_TOOL,
        tool_description="Record the scores of the answers and of the six dimensions.",
        reply=_reply_model(questions),
        what="judge's scores",
        max_tokens=3000,
    )


def judge_answers(
    client: StructuredClient,
    questions: list[Question],
    answers: dict[str, str],
    *,
    user_messages: str,
    after: str | None = None,
) -> Judgement:
    reply = client.ask(judge_ask(questions, answers, user_messages=user_messages, after=after))
    scored_questions = getattr(reply, "questions")  # noqa: B009  # a field of a model made at run time
    scored_dimensions = getattr(reply, "dimensions")  # noqa: B009
    return Judgement(
        questions={q.id: Scored.model_validate(getattr(scored_questions, q.id)) for q in questions},
        dimensions={d: Scored.model_validate(getattr(scored_dimensions, d)) for d in DIMENSIONS},
    )
