"""Compaction summaries built on the artifact index, and the context policies of the seeds.

This package's context-management half: :class:`Compactor` (micro-compaction,
pruning, triggers, keep-recent, back-off, LLM compaction through a
:class:`NarrativeSummarizer`), :func:`run_compact` for a whole request body,
the JSONL :class:`EventLog`, and offline token counting.
"""

from __future__ import annotations

from summarizer.compaction.compactor import CompactionReport, Compactor, CompactorConfig
from summarizer.compaction.event_log import EventLog
from summarizer.compaction.protocol import NarrativeSummarizer
from summarizer.compaction.request import run_compact
from summarizer.compaction.result import CompressResult
from summarizer.compaction.usage import Usage
from summarizer.exceptions import (
    CompactionFailed,
    EventLogError,
    MessageFormatError,
    SummarizerError,
)
from summarizer.tokens import count_tokens

__all__ = [
    "CompactionFailed",
    "CompactionReport",
    "Compactor",
    "CompactorConfig",
    "CompressResult",
    "EventLog",
    "EventLogError",
    "MessageFormatError",
    "NarrativeSummarizer",
    "SummarizerError",
    "Usage",
    "count_tokens",
    "run_compact",
]
