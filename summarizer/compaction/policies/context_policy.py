"""What a context policy is: the context it sees and the two kinds of policy.

A *content policy* (micro-compaction, pruning) rewrites tool output through
a :class:`~summarizer.compaction.message_lists.MessageEditor` and reports what it did.  A
*trigger* (threshold, overflow, sliding window, task boundary) only says
whether LLM compaction should run now, and why.  Both are built from their
pydantic config by the registry in :mod:`summarizer.compaction.policies.registry`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from summarizer.compaction.message_lists import Conversation, MessageEditor
from summarizer.compaction.usage import Usage
from summarizer.tokens import TokenCounter

__all__ = ["ContentPolicy", "PolicyContext", "PolicyOutcome", "Trigger"]


@dataclass(frozen=True, slots=True)
class PolicyContext:
    """What a policy may look at besides the messages.

    ``prompt_estimate`` is the estimate of the whole request as it stands
    (system prompt and tool definitions included); ``compactable_stop`` is
    the message index before which LLM compaction would summarize (``None``
    when the keep-recent policy leaves nothing to summarize).
    """

    context_window: int
    prompt_estimate: int
    counter: TokenCounter
    now: datetime
    usage: Usage | None = None
    compactable_stop: int | None = None


@dataclass(frozen=True, slots=True)
class PolicyOutcome:
    """What a content policy changed: how many outputs, in which turns, tokens saved.

    ``released`` is filled in by the compactor from the prompt estimate before
    and after the policy (re-counting only the messages it changed).
    """

    policy: str
    outputs: int
    start_turn: int
    end_turn: int
    released: int = 0


class ContentPolicy(Protocol):
    name: str

    def apply(
        self, conversation: Conversation, editor: MessageEditor, context: PolicyContext
    ) -> PolicyOutcome | None:
        """Rewrite outputs through ``editor``; ``None`` when nothing was changed."""
        ...


class Trigger(Protocol):
    name: str

    def reason(self, conversation: Conversation, context: PolicyContext) -> str | None:
        """Why LLM compaction should run now, or ``None``."""
        ...
