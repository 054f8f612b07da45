"""Compaction summaries built on the artifact index, and the context policies of the seeds.

This package's context-management half: :class:`Compactor` (micro-compaction,
pruning, triggers, keep-recent, back-off, LLM compaction through a
:class:`NarrativeSummariser`), :func:`run_compact` for a whole request body,
the JSONL :class:`EventLog`, and offline token counting.
"""

from __future__ import annotations

from .compact_request import run_compact
from .compactor import CompactionReport, Compactor, CompactorConfig
from .compress_result import CompressResult
from .errors import CompactionFailed, EventLogError, MessageFormatError, SummarizerError
from .event_log import EventLog
from .narrative_protocol import NarrativeSummariser
from .tokens import count_tokens
from .usage import Usage

__all__ = [
    "CompactionFailed",
    "CompactionReport",
    "Compactor",
    "CompactorConfig",
    "CompressResult",
    "EventLog",
    "EventLogError",
    "MessageFormatError",
    "NarrativeSummariser",
    "SummarizerError",
    "Usage",
    "count_tokens",
    "run_compact",
]
