"""The protocol between the compactor and whatever writes the narrative summary.

The LLM writer (through the ``anthropic`` SDK) and the offline extractive
narrative both implement it; the compactor only ever sees this.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from summarizer.compaction.message_lists import Message

__all__ = ["NarrativeSummarizer"]


@runtime_checkable
class NarrativeSummarizer(Protocol):
    def summarize(
        self,
        dropped_messages: Sequence[Message],
        previous_summary: str | None,
        cycle: int,
    ) -> str:
        """A Markdown summary replacing ``previous_summary`` and ``dropped_messages``.

        ``dropped_messages`` is only the span newly dropped from context (the
        history already covered by ``previous_summary`` is never resent),
        in the request's own shape and unmodified by micro-compaction or
        pruning.  ``cycle`` counts compactions of the session from 1.  The
        returned text must cover both the previous summary and the new span
        (anchored iterative merging is the implementation's business).
        Raising, or returning only whitespace, is a failure: the compactor
        records it for the back-off and raises ``CompactionFailed``.  A
        :class:`~artifact_index.exceptions.StateError` (the state folder
        cannot be written) is the environment's failure, not the summary's:
        it is raised as it is and not counted.
        """
        ...
