"""Evaluating summaries of one session: probes from the index, answered from each summary, graded and judged.

For each summary (ours, an agent's own, any other strategy's), of one
session at one point:

1. without a model: which of the index's answers the summary states at all
   (:func:`~summarizer.evaluation.grading.grade_answer` on its whole text);
2. with a model: the probes answered from the summary alone
   (:mod:`~summarizer.evaluation.probe_answers`), each answer graded against the
   index, then the answers judged on six dimensions
   (:mod:`~summarizer.evaluation.judge`).

The judge sees neither the summary's name nor the other summaries.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from summarizer.evaluation.grading import Grade, grade_answer
from summarizer.evaluation.judge import DIMENSIONS, Judgement, judge_answers
from summarizer.evaluation.probe_answers import answer_questions
from summarizer.evaluation.questions import Question, generate_questions
from summarizer.providers.structured import StructuredClient
from summarizer.sections.condense import condense_text
from summarizer.sections.index_sections import render_index_section
from summarizer.sections.summary_facts import SessionFacts
from summarizer.tokens import count_tokens

__all__ = ["Evaluation", "SummaryEvaluation", "evaluate_summaries", "render_evaluation"]

_USER_MESSAGES_CHARS = 12_000  # what the judge is shown of the user's words


class SummaryEvaluation(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)

    name: str
    tokens: int
    stated: dict[str, Grade]  # by question id: the index's answer found in the summary's text
    answers: dict[str, str] | None = None  # by question id, from the summary alone (with a model)
    graded: dict[str, Grade] | None = None  # each answer against the index
    judged: Judgement | None = None

    @property
    def overall(self) -> float | None:
        return self.judged.overall if self.judged is not None else None


class Evaluation(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)

    questions: list[Question]
    summaries: list[SummaryEvaluation]
    judge: str | None  # the model that answered and judged, None without one


def _mean(grades: dict[str, Grade]) -> float | None:
    scores = [g.score for g in grades.values() if g.score is not None]
    return sum(scores) / len(scores) if scores else None


def evaluate_summaries(
    facts: SessionFacts,
    summaries: Sequence[tuple[str, str]],
    client: StructuredClient | None = None,
    *,
    after: str | None = None,
    judge_name: str | None = None,
) -> Evaluation:
    """Evaluate each ``(name, text)`` summary of the session whose index gave ``facts``.

    ``after``: what the session did right after the point the summaries
    cover, shown to the judge for the continuation.
    """
    questions = generate_questions(facts)
    user_messages = condense_text(
        render_index_section("user_messages", facts, 1), _USER_MESSAGES_CHARS
    )
    results = []
    for name, text in summaries:
        stated = {q.id: grade_answer(q, text, precise=False) for q in questions}
        answers = graded = judged = None
        if client is not None:
            answers = answer_questions(client, text, questions)
            graded = {q.id: grade_answer(q, answers[q.id]) for q in questions}
            judged = judge_answers(
                client, questions, answers, user_messages=user_messages, after=after
            )
        results.append(
            SummaryEvaluation(
                name=name,
                tokens=count_tokens(text),
                stated=stated,
                answers=answers,
                graded=graded,
                judged=judged,
            )
        )
    return Evaluation(questions=questions, summaries=results, judge=judge_name)


def _cell(value: float | int | None, digits: int = 2) -> str:
    if value is None:
        return "-"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def render_evaluation(evaluation: Evaluation) -> str:
    """The evaluation as a plain-text table: one column per summary."""
    names = [s.name for s in evaluation.summaries]
    width = max([12, *(len(n) for n in names)]) + 2
    label = 30

    def row(title: str, cells: list[str]) -> str:
        return f"{title[:label]:<{label}}" + "".join(f"{c:>{width}}" for c in cells)

    lines = ["Probes, from the index:"]
    for q in evaluation.questions:
        lines.append(f"  {q.id} {q.kind:12} {q.question}")
        lines.append(f"     index: {q.reference[:200]}{'…' if len(q.reference) > 200 else ''}")
    lines += ["", row("", names), row("tokens", [str(s.tokens) for s in evaluation.summaries])]
    lines.append("Stated in the summary (no model):")
    for q in evaluation.questions:
        lines.append(
            row(f"  {q.id} {q.kind}", [_cell(s.stated[q.id].score) for s in evaluation.summaries])
        )
    lines.append(row("  mean", [_cell(_mean(s.stated)) for s in evaluation.summaries]))
    if evaluation.judge is None:
        lines.append("Answers and judge: not run (no LLM provider; see --provider, or set a key).")
        return "\n".join(lines) + "\n"
    lines.append(f"Answered from the summary alone, graded against the index ({evaluation.judge}):")
    for q in evaluation.questions:
        lines.append(
            row(
                f"  {q.id} {q.kind}",
                [_cell(s.graded[q.id].score) if s.graded else "-" for s in evaluation.summaries],
            )
        )
    lines.append(
        row("  mean", [_cell(_mean(s.graded)) if s.graded else "-" for s in evaluation.summaries])
    )
    lines.append("Judged, 0-5:")
    for q in evaluation.questions:
        lines.append(
            row(
                f"  {q.id} {q.kind}",
                [
                    _cell(s.judged.questions[q.id].score) if s.judged else "-"
                    for s in evaluation.summaries
                ],
            )
        )
    for dimension in DIMENSIONS:
        lines.append(
            row(
                f"  {dimension.replace('_', ' ')}",
                [
                    _cell(s.judged.dimensions[dimension].score) if s.judged else "-"
                    for s in evaluation.summaries
                ],
            )
        )
    lines.append(row("  overall (mean of six)", [_cell(s.overall) for s in evaluation.summaries]))
    for s in evaluation.summaries:
        if s.judged is None:
            continue
        lines.append(f"\n{s.name}, why:")
        lines += [f"  {d.replace('_', ' ')}: {s.judged.dimensions[d].reason}" for d in DIMENSIONS]
        wrong = [p for g in (s.graded or {}).values() for p in g.wrong]
        if wrong:
            lines.append("  named as changed, not changed in the session: " + ", ".join(wrong[:8]))
    return "\n".join(lines) + "\n"
