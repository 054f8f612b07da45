"""The message that stands in for compacted history, and how to recognise it.

After an LLM compaction the request holds one user message whose text
starts with a fixed header, followed by the kept recent turns (seed 002 marks
its summary message ``summary: true``; a request body has no such field, so
the mark is the header).  The header names the last turn the summary covers
and its compaction cycle, so turn numbering stays stable from one request to
the next and the next compaction resumes right after it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from summarizer.compaction.messages import Message, Shape, content_text

__all__ = [
    "SUMMARY_PREFIX",
    "SummaryMark",
    "find_latest_summary",
    "read_summary",
    "summary_message",
]

SUMMARY_PREFIX = "[Summary of the earlier conversation"
_HEADER = (
    SUMMARY_PREFIX + ": turns 1-{last_turn} were compacted into this summary (cycle {cycle}).]"
)
_HEADER_RE = re.compile(
    re.escape(SUMMARY_PREFIX)
    + r": turns 1-(\d+) were compacted into this summary \(cycle (\d+)\)\.\]\n*"
)


@dataclass(frozen=True, slots=True)
class SummaryMark:
    """A recognised summary message: the turns it covers, its cycle and its Markdown."""

    last_turn: int
    cycle: int
    text: str


def summary_message(shape: Shape, summary: str, *, last_turn: int, cycle: int) -> Message:
    """The user message carrying ``summary`` (valid in both shapes)."""
    header = _HEADER.format(last_turn=last_turn, cycle=cycle)
    text = f"{header}\n\n{summary.strip()}"
    if shape == "anthropic":
        return {"role": "user", "content": [{"type": "text", "text": text}]}
    return {"role": "user", "content": text}


def read_summary(message: Mapping[str, Any]) -> SummaryMark | None:
    """The summary mark of ``message``, or ``None`` if it is no summary message."""
    if message.get("role") != "user":
        return None
    text = content_text(message.get("content"))
    match = _HEADER_RE.match(text)
    if match is None:
        return None
    return SummaryMark(int(match.group(1)), int(match.group(2)), text[match.end() :])


def find_latest_summary(messages: Sequence[Mapping[str, Any]]) -> int | None:
    """Index of the last summary message in ``messages``."""
    for index in range(len(messages) - 1, -1, -1):
        if read_summary(messages[index]) is not None:
            return index
    return None
