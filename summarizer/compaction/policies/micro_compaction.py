"""Micro-compaction (the context service's design): truncate long outputs of old turns of compressible tools.

When the prompt estimate exceeds 25% of the context window, the output of
each compressible tool (the context service's eight, and their names in other agents,
see :mod:`summarizer.compaction.tool_names`) in a turn older than the previous one
(``turn < current - 1``) keeps its head and tail and loses its middle to a
marker saying how much was cut.  Outputs under 120 characters are never
touched, nor are error results (the exact error text is what a later
summary must quote).  The whole pass is one ``compact`` event.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from summarizer.compaction.message_lists import Conversation, MessageEditor
from summarizer.compaction.policies.context_policy import PolicyContext, PolicyOutcome
from summarizer.compaction.policies.registry import register_content_policy
from summarizer.compaction.tool_names import COMPRESSIBLE_TOOLS, canonical_tool, normalize_tool_name

__all__ = [
    "ELISION_MARK",
    "MicroCompaction",
    "MicroCompactionConfig",
    "truncate_middle",
]

ELISION_MARK = "elided by micro-compaction"


class MicroCompactionConfig(BaseModel):
    """The context service's constants (``MICRO_COMPACT_THRESHOLD``, ``MICRO_COMPACT_MIN_CHARS``)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    threshold: float = Field(0.25, gt=0, le=1)
    min_chars: int = Field(120, ge=0)
    head_chars: int = Field(200, ge=0)
    tail_chars: int = Field(100, ge=0)
    # The canonical tool names (``read_file``) or any agent's own names (``Read``).
    tools: tuple[str, ...] = tuple(COMPRESSIBLE_TOOLS)


def truncate_middle(text: str, head: int, tail: int) -> str | None:
    """``text`` with its middle replaced by a marker, or ``None`` if that would not shorten it."""
    elided = text[head : len(text) - tail] if tail else text[head:]
    if not elided:
        return None
    lines = elided.count("\n") + (0 if elided.endswith("\n") else 1)
    marker = f"\n[... {len(elided):,} characters ({lines:,} lines) {ELISION_MARK} ...]\n"
    if len(marker) >= len(elided):
        return None
    return text[:head] + marker + (text[len(text) - tail :] if tail else "")


class MicroCompaction:
    name = "micro_compaction"

    def __init__(self, config: MicroCompactionConfig) -> None:
        self.config = config
        self._canonical: set[str] = set()
        self._names: set[str] = set()
        for tool in config.tools:
            if tool in COMPRESSIBLE_TOOLS:
                self._canonical.add(tool)
            else:
                self._names.add(normalize_tool_name(tool))

    def compressible(self, tool: str | None) -> bool:
        if not tool:
            return False
        return canonical_tool(tool) in self._canonical or normalize_tool_name(tool) in self._names

    def apply(
        self, conversation: Conversation, editor: MessageEditor, context: PolicyContext
    ) -> PolicyOutcome | None:
        config = self.config
        if context.prompt_estimate <= config.threshold * context.context_window:
            return None
        current = conversation.last_turn
        if current is None:
            return None
        turns: list[int] = []
        for output in conversation.outputs:
            turn = conversation.output_turn(output)
            if turn >= current - 1 or output.is_error or not self.compressible(output.tool):
                continue
            text = output.text
            if len(text) < config.min_chars or ELISION_MARK in text:
                continue
            shorter = truncate_middle(text, config.head_chars, config.tail_chars)
            if shorter is None:
                continue
            editor.set_output(output, shorter)
            turns.append(turn)
        if not turns:
            return None
        return PolicyOutcome(self.name, len(turns), min(turns), max(turns))


register_content_policy(MicroCompactionConfig)(MicroCompaction)
