"""Pruning (the session-compaction design): clear completed tool outputs beyond a protected recent budget.

Walking from the newest output to the oldest, outside the last two (user)
turns: the first 40k tokens of completed output are protected; every output
past that budget (the one crossing it included) is a candidate.  The
candidates are cleared, their content replaced by
``[Old tool result content cleared]``, only when together they free at least
20k tokens, so a small gain never costs a prompt-cache miss.  Outputs of
protected tools (``skill``), error results (not "completed") and outputs
already cleared are left alone and do not count.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from summarizer.compaction.message_lists import Conversation, MessageEditor, TurnUnit
from summarizer.compaction.policies.context_policy import PolicyContext, PolicyOutcome
from summarizer.compaction.policies.registry import register_content_policy
from summarizer.compaction.tool_names import normalize_tool_name

__all__ = ["CLEARED", "Pruning", "PruningConfig"]

CLEARED = "[Old tool result content cleared]"


class PruningConfig(BaseModel):
    """The session-compaction design's ``PRUNE_PROTECT`` / ``PRUNE_MINIMUM`` and its protections."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    protect_tokens: int = Field(40_000, ge=0)
    minimum_tokens: int = Field(20_000, ge=0)
    protect_turns: int = Field(2, ge=0)
    # The session-compaction design counts user turns: a human prompt and every step answering it.
    turn_unit: TurnUnit = "user"
    protected_tools: tuple[str, ...] = ("skill",)


class Pruning:
    name = "pruning"

    def __init__(self, config: PruningConfig) -> None:
        self.config = config
        self._protected = {normalize_tool_name(tool) for tool in config.protected_tools}

    def apply(
        self, conversation: Conversation, editor: MessageEditor, context: PolicyContext
    ) -> PolicyOutcome | None:
        config = self.config
        boundary = conversation.recent_turn_start(config.protect_turns, config.turn_unit)
        if boundary is None:
            return None
        total = 0
        freed = 0
        candidates = []
        for output in reversed(conversation.outputs):
            call = conversation.calls.get(output.call_id)
            position = call.message if call is not None else output.message
            if position >= boundary or output.message >= boundary:
                continue
            if output.is_error or output.text == CLEARED:
                continue
            if output.tool is not None and normalize_tool_name(output.tool) in self._protected:
                continue
            tokens = context.counter(output.text)
            total += tokens
            if total > config.protect_tokens:
                freed += tokens
                candidates.append(output)
        if not candidates or freed < config.minimum_tokens:
            return None
        for output in candidates:
            editor.set_output(output, CLEARED)
        turns = [conversation.output_turn(output) for output in candidates]
        released = freed - context.counter(CLEARED) * len(candidates)
        return PolicyOutcome(self.name, len(candidates), min(turns), max(turns), released)


register_content_policy(PruningConfig)(Pruning)
