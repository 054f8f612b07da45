"""Keep-recent-turns (the context service's ``KEEP_RECENT_TURNS = 1``): where LLM compaction cuts.

The last ``turns`` turns are kept verbatim; everything before them is
summarized.  The cut moves earlier, never later, until it separates no
tool call from its result, so at least ``turns`` turns are always kept.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from summarizer.compaction.message_lists import Conversation, TurnUnit

__all__ = ["KeepRecentConfig", "compaction_cut"]


class KeepRecentConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    turns: int = Field(1, ge=0)
    # A step turn is one prompt or one model response with its tool results.
    turn_unit: TurnUnit = "step"


def compaction_cut(conversation: Conversation, config: KeepRecentConfig) -> int | None:
    """The message index where the kept span starts, or ``None`` if nothing can be summarized."""
    start = conversation.recent_turn_start(config.turns, config.turn_unit)
    if start is None:
        return None
    return conversation.latest_allowed_cut(start)
