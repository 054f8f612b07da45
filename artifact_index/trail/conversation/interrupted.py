"""The times the person stopped the agent: an interruption has no words, but it is the user's act.

Every harness records it on the user's side as text it injects, so the
adapters read it as a synthetic message: Claude Code's "[Request
interrupted by user]" (and "... for tool use" when a call was cut short),
Codex's ``<turn_aborted>`` notice, Copilot CLI's ``abort`` event
(``user_initiated``).  The agent that continues should know the person
stopped a step on purpose: what it was doing then was not wanted as it was.
They are shown among the user's messages, in order, on a channel of their
own; they are never a request.
"""

from __future__ import annotations

from collections.abc import Sequence

from artifact_index.ingestion.events import Event, UserMessage
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.session_state import UserSaid

__all__ = ["interruptions"]

_INTERRUPTED = lazy_pattern(
    r"^\s*(?:\[Request interrupted by user(?P<tool> for tool use)?\]|<turn_aborted>"
    r"|\[abort: user_initiated\])"
)


def interruptions(events: Sequence[Event]) -> list[UserSaid]:
    """Each time the person stopped the main agent, oldest first."""
    found: list[UserSaid] = []
    for event in events:
        if not isinstance(event, UserMessage) or not event.synthetic or event.sidechain is not None:
            continue
        stopped = _INTERRUPTED.match(event.text)
        if stopped is None:
            continue
        text = "stopped the agent" + (" during a tool call" if stopped["tool"] else "")
        if not found or (found[-1].turn, found[-1].text) != (event.turn, text):
            found.append(UserSaid(turn=event.turn, text=text, channel="interrupt"))
    return found
