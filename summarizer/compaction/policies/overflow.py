"""Overflow detection (the session-compaction design): the last response used more than the usable window.

Used tokens are ``input + cache-read + output`` of the last response's
usage (the session-compaction design's formula; cache writes are not counted, as there); the
usable window is the context limit minus the output reserve, which is
``min(model max output, 32k)``.  Without usage nothing overflows: the
threshold trigger covers estimates.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from summarizer.compaction.message_lists import Conversation
from summarizer.compaction.policies.context_policy import PolicyContext
from summarizer.compaction.policies.registry import register_trigger
from summarizer.compaction.usage import Usage

__all__ = ["Overflow", "OverflowConfig", "is_overflow", "usable_tokens", "used_tokens"]


class OverflowConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    kind: Literal["overflow"] = "overflow"
    # The session-compaction design's OUTPUT_TOKEN_MAX.
    reserved_output: int = Field(32_000, ge=0)
    # The model's own output limit, when smaller than the reserve.
    max_output_tokens: int | None = Field(None, gt=0)


def used_tokens(usage: Usage) -> int:
    return usage.input_tokens + usage.cache_read_tokens + usage.output_tokens


def usable_tokens(context_window: int, config: OverflowConfig) -> int:
    reserve = config.reserved_output
    if config.max_output_tokens is not None:
        reserve = min(reserve, config.max_output_tokens)
    return context_window - reserve


def is_overflow(usage: Usage | None, context_window: int, config: OverflowConfig) -> bool:
    """True when ``usage`` exceeds the usable window."""
    if usage is None or context_window <= 0:
        return False
    return used_tokens(usage) > usable_tokens(context_window, config)


class Overflow:
    name = "overflow"

    def __init__(self, config: OverflowConfig) -> None:
        self.config = config

    def reason(self, conversation: Conversation, context: PolicyContext) -> str | None:
        if not is_overflow(context.usage, context.context_window, self.config):
            return None
        assert context.usage is not None
        return (
            f"overflow: {used_tokens(context.usage):,} tokens used > "
            f"{usable_tokens(context.context_window, self.config):,} usable"
        )


register_trigger(OverflowConfig)(Overflow)
