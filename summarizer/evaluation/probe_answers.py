"""The probes answered from a summary alone, by an LLM playing the agent that continues.

One structured request per summary: the summary, then the questions; the
reply is one answer per question, keyed by the question's id (the schema
has exactly those keys, so an answer can be neither left out nor added).
The model is told to say when the summary does not say, never to guess.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from summarizer.evaluation.questions import Question
from summarizer.providers.structured import StructuredAsk, StructuredClient, keyed_reply

__all__ = ["ANSWER_SYSTEM", "ANSWER_TOOL", "answer_ask", "answer_questions"]

ANSWER_TOOL = "answer_probes"
ANSWER_SYSTEM = (
    "You are a coding agent continuing a session whose earlier context was compacted. All you know of the "
    "session is the summary you are given. Answer each question from the summary alone, precisely: exact "
    "file paths, error messages, commands and names as the summary gives them. When the summary does not "
    "say, answer exactly: The summary does not say. Never guess. Answer only by calling the "
    f"{ANSWER_TOOL} tool."
)


def _answer_model(questions: list[Question]) -> type[BaseModel]:
    return keyed_reply(
        "ProbeAnswers",
        {
            q.id: (str, Field(description=f"{q.question} (answer from the summary alone)"))
            for q in questions
        },
    )


def answer_ask(summary: str, questions: list[Question]) -> StructuredAsk[BaseModel]:
    """The request that asks ``questions`` of ``summary``."""
    asked = "\n".join(f"- {q.id}: {q.question}" for q in questions)
    prompt = (
        f"<summary>\n{summary.strip()}\n</summary>\n\n"
        f"<questions>\n{asked}\n</questions>\n\n"
        f"Call {ANSWER_TOOL} with one answer per question id, from the summary alone."
    )
    return StructuredAsk(
        system=ANSWER_SYSTEM,
        prompt=prompt,
        tool_name=ANSWER_TOOL,
        tool_description="Record the answer to each question, by its id.",
        reply=_answer_model(questions),
        what="probe answers",
        max_tokens=2048,
    )


def answer_questions(
    client: StructuredClient, summary: str, questions: list[Question]
) -> dict[str, str]:
    """Each question's answer (by id) from ``summary`` alone."""
    reply = client.ask(answer_ask(summary, questions))
    return {q.id: str(getattr(reply, q.id)) for q in questions}
