"""Context policies, one module each, built from their pydantic configs.

Content policies rewrite old tool output cheaply: :mod:`.micro_compaction`
(the context service's design) and :mod:`.pruning` (the session-compaction design).  Triggers decide when LLM
compaction runs: :mod:`.triggers` (threshold, sliding window, task
boundary) and :mod:`.overflow` (the session-compaction design).  :mod:`.keep_recent` places the
cut and :mod:`.backoff` stops LLM compaction after repeated failures.
:func:`content_policy_for` / :func:`trigger_for` map a config to its policy.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from summarizer.compaction.policies.backoff import Backoff, BackoffConfig, BackoffState
from summarizer.compaction.policies.context_policy import (
    ContentPolicy,
    PolicyContext,
    PolicyOutcome,
    Trigger,
)
from summarizer.compaction.policies.keep_recent import KeepRecentConfig, compaction_cut
from summarizer.compaction.policies.micro_compaction import (
    MicroCompaction,
    MicroCompactionConfig,
    truncate_middle,
)
from summarizer.compaction.policies.overflow import Overflow, OverflowConfig, is_overflow
from summarizer.compaction.policies.pruning import CLEARED, Pruning, PruningConfig
from summarizer.compaction.policies.registry import content_policy_for, trigger_for
from summarizer.compaction.policies.triggers import (
    SlidingWindow,
    SlidingWindowTriggerConfig,
    TaskBoundary,
    TaskBoundaryTriggerConfig,
    Threshold,
    ThresholdTriggerConfig,
)

__all__ = [
    "CLEARED",
    "Backoff",
    "BackoffConfig",
    "BackoffState",
    "ContentPolicy",
    "KeepRecentConfig",
    "MicroCompaction",
    "MicroCompactionConfig",
    "Overflow",
    "OverflowConfig",
    "PolicyContext",
    "PolicyOutcome",
    "Pruning",
    "PruningConfig",
    "SlidingWindow",
    "SlidingWindowTriggerConfig",
    "TaskBoundary",
    "TaskBoundaryTriggerConfig",
    "Threshold",
    "ThresholdTriggerConfig",
    "Trigger",
    "TriggerConfig",
    "compaction_cut",
    "content_policy_for",
    "is_overflow",
    "trigger_for",
    "truncate_middle",
]

TriggerConfig = Annotated[
    ThresholdTriggerConfig
    | OverflowConfig
    | SlidingWindowTriggerConfig
    | TaskBoundaryTriggerConfig,
    Field(discriminator="kind"),
]
