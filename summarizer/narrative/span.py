"""The span of a transcript newly dropped from context, as text for the narrative prompt.

Only this span is sent to the LLM (never the history the previous summary
already covers).  Long tool outputs are trimmed to their head and tail, and
a span larger than the request budget is cut into consecutive chunks that
are summarized cycle after cycle, each merged into the previous narrative.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence

from artifact_index.ingestion.events import (
    AssistantMessage,
    CompactionBoundary,
    Event,
    ToolCall,
    ToolResult,
    UserMessage,
)
from summarizer.tokens import count_tokens

__all__ = ["chunk_span", "render_event", "span_after", "trim_middle"]


# How the user's words reached the agent, when not as a prompt of their own.
_CHANNELS = {
    "feedback": " (feedback when refusing the call above)",
    "interjection": " (typed while the tool above ran)",
    "queued": " (queued while the agent worked)",
    "command": " (slash command)",
}


def trim_middle(text: str, limit: int) -> str:
    """``text`` with its middle elided when longer than ``limit`` characters (head and tail kept)."""
    if len(text) <= limit:
        return text
    head = text[: limit * 2 // 3]
    tail = text[-(limit // 3) :]
    return f"{head}\n[… {len(text) - len(head) - len(tail)} characters elided …]\n{tail}"


def render_event(event: Event, output_limit: int = 800) -> str | None:
    """One event as a line or block of the span; None for events the narrative does not need."""
    if isinstance(event, UserMessage):
        if event.synthetic:
            return None
        how = _CHANNELS.get(event.channel, "")
        return f"[turn {event.turn}] USER{how}: {event.text.strip()}"
    if isinstance(event, AssistantMessage):
        text = event.text.strip()
        return f"[turn {event.turn}] ASSISTANT: {text}" if text else None
    if isinstance(event, ToolCall):
        args = json.dumps(event.arguments, ensure_ascii=False, default=str)
        return f"[turn {event.turn}] TOOL CALL {event.tool}: {trim_middle(args, output_limit)}"
    if isinstance(event, ToolResult):
        status = event.status.upper() + (f" ({event.failure})" if event.failure else "")
        return f"[turn {event.turn}] RESULT {status}: {trim_middle(event.output.strip(), output_limit)}"
    if isinstance(event, CompactionBoundary):
        return f"[turn {event.turn}] (context was compacted here)"
    return None


# A chunk may grow to this many times its budget to keep a call with its result (a result that
# comes far later, after a long background task, does not hold the chunk open past it).
_CALL_SLACK = 2
# No event is cut below this many characters (a chunk budget is thousands of tokens).
_SHORTEST_CUT = 200


def chunk_span(
    events: Iterable[Event], *, max_tokens: int, output_limit: int = 800
) -> Iterator[tuple[str, int, int]]:
    """``(text, first_turn, last_turn)`` chunks of at most about ``max_tokens`` tokens each.

    A chunk does not end between a tool call and its result, up to twice
    its budget: a call whose result never came (interrupted, or lost from
    the transcript) or comes far later must not hold the rest of the span in
    one chunk that no model's context takes.  One event larger than a chunk
    keeps its head and tail.
    """
    events = list(events)
    # A call whose result is not in the span (interrupted, or lost from the transcript) waits for nothing.
    answered = {e.call_id for e in events if isinstance(e, ToolResult)}
    lines: list[str] = []
    turns: list[int] = []
    used = 0
    pending_calls: set[str] = set()
    most = max_tokens * _CALL_SLACK
    for event in events:
        line = render_event(event, output_limit)
        if line is None:
            continue
        cost = count_tokens(line)
        whole, limit = line, len(line)
        while cost > max_tokens and limit > _SHORTEST_CUT:
            # In proportion to what it costs now, a tenth under, as the cut's own note costs too.
            limit = max(_SHORTEST_CUT, limit * max_tokens * 9 // (cost * 10))
            line = trim_middle(whole, limit)
            cost = count_tokens(line)
        waits = bool(pending_calls) and used + cost <= most
        if used + cost > max_tokens and lines and not waits:
            yield "\n".join(lines), turns[0], turns[-1]
            lines, turns, used = [], [], 0
        lines.append(line)
        turns.append(event.turn)
        used += cost
        if isinstance(event, ToolCall) and event.call_id in answered:
            pending_calls.add(event.call_id)
        elif isinstance(event, ToolResult):
            pending_calls.discard(event.call_id)
    if lines:
        yield "\n".join(lines), turns[0], turns[-1]


def span_after(events: Sequence[Event], last_turn: int) -> list[Event]:
    """The events after ``last_turn`` (the turn the previous summary covered up to)."""
    return [e for e in events if e.turn > last_turn]
