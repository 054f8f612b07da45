"""What makes two events the same event, so that feeding one twice changes nothing."""

from __future__ import annotations

import hashlib

from artifact_index.ingestion.events import Event, ToolCall, ToolResult

__all__ = ["event_identity"]


def event_identity(event: Event) -> str:
    """What makes two events the same event, as a short digest.

    A tool call or result is its call id where it stands (turn, line,
    sub-agent, time): some models reuse ids like ``call_0`` in later
    responses, and those are different calls.  Any other event is its whole
    content.
    """
    if isinstance(event, ToolCall | ToolResult):
        key = f"{event.kind}\0{event.call_id}\0{event.turn}\0{event.line}\0{event.sidechain}\0{event.timestamp}"
    else:
        key = event.model_dump_json()
    return hashlib.blake2b(key.encode(), digest_size=12).hexdigest()
