"""The user's answers picked in the agent's question tool (Claude Code's ``AskUserQuestion``).

The user answers such questions by picking an option, not by typing a message, so
their choice ("Firebase UID", "the existing 'Personal' segment") is in the tool's
result alone: ``User has answered your questions: "Q1"="A1", "Q2"="A2". You can now
continue ...``.  These are decisions in the user's own words; without them the
summary said no decision was recorded while the agent built on them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from artifact_index.ingestion.events import Event, ToolCall, ToolResult
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.conversation.told import Answer, AnsweredQuestion

__all__ = ["picked_answers"]

_ANSWERED = lazy_pattern(r"\AUser has answered your questions?:\s*", re.I)
# One "question"="answer" pair, each a JSON-style string (quotes inside are escaped).
_PAIR = lazy_pattern(r'"(?P<question>(?:[^"\\]|\\.)*)"\s*=\s*"(?P<answer>(?:[^"\\]|\\.)*)"', re.S)
_QUESTION_CHARS = 200


def _unescaped(text: str) -> str:
    try:
        value = json.loads(f'"{text}"')
    except ValueError:
        return text
    return value if isinstance(value, str) else text


def picked_answers(events: Sequence[Event]) -> list[Answer]:
    """Each question tool's result that carries the user's picks, as the answers beside their questions."""
    asked = {e.call_id: e.turn for e in events if isinstance(e, ToolCall)}
    found = []
    for event in events:
        if event.sidechain is not None:
            continue  # a sub-agent's question is not put to the user
        if not isinstance(event, ToolResult) or not _ANSWERED.match(event.output):
            continue
        pairs = [
            AnsweredQuestion(
                number=number,
                question=" ".join(_unescaped(m.group("question")).split())[:_QUESTION_CHARS],
                answer=_unescaped(m.group("answer")),
            )
            for number, m in enumerate(_PAIR.finditer(event.output), start=1)
        ]
        if pairs:
            turn = asked.get(event.call_id, event.turn)
            found.append(Answer(turn=event.turn, asked_turn=turn, answers=pairs))
    return found
