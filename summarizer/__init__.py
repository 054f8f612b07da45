"""Compaction summaries built on the artifact index, and the context policies that decide when to compact.

This package's context-management half: :class:`Compactor` (micro-compaction,
pruning, triggers, keep-recent, back-off, LLM compaction through a
:class:`NarrativeSummarizer`), :func:`run_compact` for a whole request body,
the JSONL :class:`EventLog`, and offline token counting.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

# Where each public name lives.  They are imported on first use: a command of the package (a hook,
# say) imports only what it runs, not the compactor and its policies.
_LOCATIONS = {
    **dict.fromkeys(
        ("CompactionReport", "Compactor", "CompactorConfig"), "summarizer.compaction.compactor"
    ),
    "EventLog": "summarizer.compaction.event_log",
    "NarrativeSummarizer": "summarizer.compaction.protocol",
    "run_compact": "summarizer.compaction.request",
    "CompressResult": "summarizer.compaction.result",
    "Usage": "summarizer.compaction.usage",
    **dict.fromkeys(
        ("CompactionFailed", "EventLogError", "MessageFormatError", "SummarizerError"),
        "summarizer.exceptions",
    ),
    "count_tokens": "summarizer.tokens",
}


def __getattr__(name: str) -> Any:
    if name not in _LOCATIONS:
        raise AttributeError(f"module 'summarizer' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LOCATIONS[name]), name)
    globals()[name] = value
    return value


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
