"""What the session learned about the project on the way: constraints the agent ran into and worked around.

"The auto-generated migration uses ``ALTER TABLE ... modify`` which SQLite
doesn't support for nullability changes. I need to rewrite it with a
SQLite-safe table rewrite pattern."  "The LiveView runs in a separate process
that can't access the test sandbox. I need to use ``:auto`` mode."  Each is
a fact about the project the agent relied on from then on; lost in a
compaction, the next migration or test trips on it again.

A lesson is the opening of one of the main agent's messages that states a
limit of something concrete (a name in backticks, a ``CamelCase`` name, a
file, a tool): it does not, cannot, is not, is missing, no longer, will
fail, "No ConnCase module"; and that the agent acts on in the next sentence
by changing something ("I need to use", "Let me add", "I'll rewrite"), not
by looking further ("Let me check" leaves it a question).  Left out, because on real transcripts they
were mostly the state of the moment rather than a fact of the project:
hedged or questioning sentences, ones about the agent or the person ("I
don't", "you"), waiting and progress ("yet", "still", "found", "running",
"pass", "compiling").  Kept in the agent's words, the fact and the action,
the latest few, each once.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from artifact_index.ingestion.events import AssistantMessage, Event
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.session_state import AssistantSaid

__all__ = ["lessons"]

_SENTENCE = lazy_pattern(r"(?<=[.!?])\s+(?=[A-Z`*\"(])|\n+")
_LIMIT = lazy_pattern(
    r"\b(?:doesn't|does not|don't|do not|can't|cannot|isn't|is not|aren't|are not|won't|no longer|not supported"
    r"|unsupported|is missing|are missing|lacks?|has no|have no|there is no|there's no|only (?:works|supports|accepts)"
    r"|will fail|fails? (?:on|with|for|when))\b|^No [A-Za-z`]",
    re.I,
)
_CONCRETE = lazy_pattern(
    r"`[^`]+`|\b[A-Z][a-z]+[A-Z]\w*|\b[\w-]+\.(?:ex|exs|go|py|rs|ts|tsx|js|json|toml|ya?ml|md|sh)\b"
    r"|\b(?:SQLite|Postgres|MySQL|Docker|CI|config)\b"
)
_MOMENT = lazy_pattern(
    r"\b(?:yet|still|let me|I'll|I will|I need|we need|I don't|we don't|you|your|pass(?:es|ed|ing)?|compil\w*|wait\w*"
    r"|stale|expected|might|maybe|probably|seems?|appears?|I think|should I|found|running|output|comments?|now)\b|\?",
    re.I,
)
# The agent acts on it by changing something, not by looking further ("Let me check ..." is still a question).
_ACTS = lazy_pattern(
    r"^(?:So )?(?:I need to|I'll|I will|Let me|Let's|We need to|I have to|I must|Need to)\s+(?:also\s+)?"
    r"(?:use|add|rewrite|fix|update|write|change|merge|remove|create|configure|set|switch|move|modify"
    r"|replace|handle|follow|clean|import|declare|define|drop|skip|keep)\b",
    re.I,
)
_CODE_SPAN = lazy_pattern(r"`[^`\n]*`")
_OPENING = 3  # sentences of a message looked at: a lesson is stated as the message opens
_CHARS = 240


def _sentences(text: str) -> list[str]:
    """The sentences of ``text``; a ``.`` inside a code span (``ALTER TABLE ... ADD``) ends none."""
    masked = _CODE_SPAN.sub(lambda span: re.sub(r"[.!?]", "_", span.group(0)), text)
    cuts = [
        0,
        *(end for found in _SENTENCE.finditer(masked) for end in (found.start(), found.end())),
        len(text),
    ]
    return [
        part
        for start, end in zip(cuts[::2], cuts[1::2], strict=True)
        if (part := text[start:end].strip())
    ]


def lessons(events: Sequence[Event], limit: int = 4) -> list[AssistantSaid]:
    """The latest ``limit`` lessons of the main agent, oldest first, each with the action it took on it."""
    found: list[AssistantSaid] = []
    said: set[str] = set()
    for event in events:
        if not isinstance(event, AssistantMessage) or event.sidechain is not None:
            continue
        sentences = _sentences(event.text.strip())[:_OPENING]
        for number, sentence in enumerate(sentences[:-1]):
            action = sentences[number + 1]
            if (
                20 <= len(sentence) <= _CHARS
                and _LIMIT.search(sentence)
                and _CONCRETE.search(sentence)
                and not _MOMENT.search(sentence)
                and _ACTS.match(action)
            ):
                text = f"{sentence} {action}"
                text = text if len(text) <= _CHARS else text[: _CHARS - 1].rstrip() + "…"
                if sentence not in said:
                    said.add(sentence)
                    found.append(AssistantSaid(turn=event.turn, text=text))
                break
    return found[-limit:]
