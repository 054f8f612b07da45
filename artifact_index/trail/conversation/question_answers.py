"""The user's answers to the agent's numbered questions, each beside the question it answers.

An agent proposing a design often ends with "Questions for You: 1.
**Orphaned sessions**: ... Should we show them? 2. **Depth limit**: How far
back ...?" and the user replies "1. no 2. we look at 50 commits ... 4.
yes".  Those replies are the design's decisions, but "1. no" read alone
says nothing: under User Messages the agent that continues sees the
answers without the questions.  Here each numbered answer is paired with the
numbered question of the agent's message just before it.

The questions are the last numbered list of that message in which most
items ask something (end a sentence with "?"); an answer is a numbered item
of the user's reply with the same number.  Both are kept in the words they
were written in: the question cut to its title or first question, the answer
whole up to a generous limit.
"""

from __future__ import annotations

from collections.abc import Sequence

from artifact_index.ingestion.events import AssistantMessage, Event, UserMessage
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.conversation.told import Answer, AnsweredQuestion

__all__ = ["answered_questions"]

_ITEM = lazy_pattern(r"^\s{0,3}(\d{1,2})[.)]\s+(.*)$")
_TITLE = lazy_pattern(r"^\*\*([^*]{2,60})\*\*\s*[:—–-]?\s*(.*)$")
_QUESTION_CHARS = 110
_ANSWER_CHARS = 400
_MIN_QUESTIONS = 2


def _numbered_lists(text: str) -> list[dict[int, str]]:
    """The numbered lists of a message, each item with its continuation lines; a list restarts at 1."""
    lists: list[dict[int, str]] = []
    current: dict[int, str] | None = None
    number = 0
    for line in text.splitlines():
        item = _ITEM.match(line)
        if item:
            number = int(item.group(1))
            if current is None or number == 1 or number in current:
                current = {}
                lists.append(current)
            current[number] = item.group(2).strip()
        elif current is not None and line.strip() and line.startswith((" ", "\t")):
            current[number] += " " + line.strip()
        elif current is not None and line.strip().startswith("#"):
            current = None  # a heading ends the list
    return lists


def _questions(text: str) -> dict[int, str]:
    """The last numbered list of ``text`` whose items mostly ask something."""
    for found in reversed(_numbered_lists(text)):
        asking = [n for n, item in found.items() if "?" in item]
        if len(asking) >= _MIN_QUESTIONS and len(asking) * 2 >= len(found):
            return found
    return {}


def _short_question(item: str) -> str:
    """A question by its bold title and its first question, else its first question."""
    item = " ".join(item.split())
    titled = _TITLE.match(item)
    title, rest = (titled.group(1).strip(), titled.group(2)) if titled else ("", item)
    rest = rest.replace("**", "")
    asked = rest[: rest.find("?") + 1] if "?" in rest else rest
    asked = asked.rsplit(". ", 1)[-1].strip()  # the sentence that asks, not the one setting it up
    text = f"{title}: {asked}" if title and asked else title or asked
    return text if len(text) <= _QUESTION_CHARS else text[: _QUESTION_CHARS - 1].rstrip() + "…"


def _answers(text: str) -> dict[int, str]:
    lists = _numbered_lists(text)
    found = lists[0] if len(lists) == 1 else {}
    return {
        n: a if len(a) <= _ANSWER_CHARS else a[: _ANSWER_CHARS - 1].rstrip() + "…"
        for n, a in found.items()
    }


def answered_questions(events: Sequence[Event]) -> list[Answer]:
    """Every reply of the user that answers the agent's numbered questions by number, oldest first."""
    found: list[Answer] = []
    last: AssistantMessage | None = None
    for event in events:
        if event.sidechain is not None:
            continue
        if isinstance(event, AssistantMessage) and event.text.strip():
            last = event
        elif isinstance(event, UserMessage) and not event.synthetic and event.channel != "command":
            questions = _questions(last.text) if last is not None else {}
            answers = _answers(event.text) if questions else {}
            pairs = [
                AnsweredQuestion(number=n, question=_short_question(questions[n]), answer=a)
                for n, a in answers.items()
                if n in questions
            ]
            if last is not None and pairs:
                found.append(Answer(turn=event.turn, asked_turn=last.turn, answers=pairs))
            last = None  # a question is answered by the reply right after it, not a later one
    return found
