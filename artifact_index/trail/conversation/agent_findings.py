"""What the agent established, in its own words: root causes found, answers to the user's questions.

An investigation's result is one message ("Found it! The Bash commands
are not in FileModificationTools, so ..."): cut to its first line it says
nothing, and the agent that continues would investigate again.  These
messages are kept whole (the summary shortens them only under budget
pressure, at a line or sentence boundary):

* a message that states a conclusion: "found it", "the root cause is",
  "the actual issue was", "this explains", "turns out";
* the agent's answer to a question of the user: its last message before the
  user spoke again, after a message that asked something.

Read from the main agent's messages (a sub-agent reports through its
caller).  The agent's very last message is left out: the summary shows it
whole where the work stopped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from artifact_index.ingestion.events import AssistantMessage, Event, UserMessage
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.session_state import AssistantSaid

__all__ = ["concludes", "findings"]

_CONCLUSION = lazy_pattern(
    r"\bfound (?:it|the (?:bug|issue|problem|cause|culprit))\b|\bI (?:think I |have )?found\b|\broot cause\b"
    r"|\bthe (?:real|actual|underlying) (?:issue|problem|cause|bug)\b|\bthe (?:issue|problem|bug|culprit) (?:is|was)\b"
    r"|\b(?:this|that) (?:explains|is why|confirms)\b|\bturns out\b|\bmisdiagnos",
    re.I,
)
_ASKS = lazy_pattern(
    r"^\s*(?:(?:can|could|would) you (?:explain|clarify|check|double[- ]check|verify|confirm|tell|look|find|see)"
    r"|why|how|what|where|which|is there|are there|is it|does|do we|did)\b",
    re.I,
)
# "can you sort the branches by date?" asks for work, not for an answer.
_REQUEST = lazy_pattern(r"^\s*(?:(?:can|could|would|will) you|please|let'?s)\b", re.I)
# A sentence that announces a search is not its result: "Let me trace the actual issue".
_ANNOUNCES = lazy_pattern(
    r"\b(?:let me|let's|I'll|I will|I need to|we need to|need to|to find|try to)\b", re.I
)
_SENTENCE = lazy_pattern(r"(?<=[.!?:])\s+|\n+")
_MIN_CONCLUSION = 120
_MIN_ANSWER = 120
_LOOK_AT = 600  # a conclusion is stated early in a message, not in its twentieth paragraph


def _question(text: str) -> bool:
    if _ASKS.search(text):
        return True
    return "?" in text and not _REQUEST.search(text)


def concludes(text: str) -> bool:
    """Whether a message states a conclusion early on (not only announces it is looking for one)."""
    return any(
        _CONCLUSION.search(sentence) and not _ANNOUNCES.search(sentence)
        for sentence in _SENTENCE.split(text[:_LOOK_AT])
    )


def findings(events: Sequence[Event], limit: int = 6) -> list[AssistantSaid]:
    """The main agent's latest ``limit`` findings, oldest first (its last message left out)."""
    found: dict[int, AssistantSaid] = {}
    asked = False  # the user's latest message asked something
    answer: AssistantMessage | None = None  # the agent's last message since the user spoke
    last: AssistantMessage | None = None
    for event in events:
        if event.sidechain is not None:
            continue
        if isinstance(event, UserMessage) and not event.synthetic:
            if asked and answer is not None and len(answer.text.strip()) >= _MIN_ANSWER:
                found[id(answer)] = AssistantSaid(turn=answer.turn, text=answer.text.strip())
            asked, answer = _question(event.text), None
        elif isinstance(event, AssistantMessage) and event.text.strip():
            answer = last = event
            text = event.text.strip()
            if len(text) >= _MIN_CONCLUSION and concludes(text):
                found[id(event)] = AssistantSaid(turn=event.turn, text=text)
    if last is not None:
        found.pop(id(last), None)
    return sorted(found.values(), key=lambda m: m.turn)[-limit:]
