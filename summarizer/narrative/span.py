"""The span of a transcript newly dropped from context, as text for the narrative prompt.

Only this span is sent to the LLM (never the history the previous summary
already covers), in one request.  Long tool outputs are trimmed to their
head and tail, and a span larger than the request budget loses its middle,
never its end: the agent's last message, the user's words and the latest
turns are what the next agent continues from.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from artifact_index.ingestion.events import (
    AssistantMessage,
    CompactionBoundary,
    Event,
    ToolCall,
    ToolResult,
    UserMessage,
)
from summarizer.tokens import count_tokens

__all__ = ["SpanText", "fit_span", "render_event", "span_after", "trim_middle"]


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


# Shares of the request budget a span too long for one request gives, in this order, to what the
# reader needs most: the agent's last message (whole up to its share), the user's words (the latest
# first, each whole up to its own share), the end of the span, then its beginning.  The middle is cut.
_LAST_MESSAGE_SHARE = 4
_USER_WORDS_SHARE = 4
_ONE_USER_MESSAGE_SHARE = 16
_END_SHARE = (
    3  # of what the pinned lines leave, three quarters go to the end, the rest to the beginning
)
# No event is cut below this many characters (a request budget is thousands of tokens).
_SHORTEST_CUT = 200
# What a note on a cut stretch of turns costs at most, reserved before the kept lines are chosen.
_NOTE_TOKENS = 60


def _bounded(line: str, max_tokens: int) -> tuple[str, int]:
    """``line`` with its middle elided until it costs at most about ``max_tokens`` tokens, and its cost."""
    cost = count_tokens(line)
    whole, limit = line, len(line)
    while cost > max_tokens and limit > _SHORTEST_CUT:
        # In proportion to what it costs now, a tenth under, as the cut's own note costs too.
        limit = max(_SHORTEST_CUT, limit * max_tokens * 9 // (cost * 10))
        line = trim_middle(whole, limit)
        cost = count_tokens(line)
    return line, cost


@dataclass(frozen=True)
class SpanText:
    """The span as the request shows it: its text, its first and last turn, and how many events were cut."""

    text: str
    first_turn: int
    last_turn: int
    cut_events: int = 0


def _cut_note(cut: Sequence[Event]) -> str:
    """What a stretch of cut events held, by kind, with its turns: the model knows what it did not see."""
    kinds = {
        "assistant messages": sum(isinstance(e, AssistantMessage) for e in cut),
        "tool calls": sum(isinstance(e, ToolCall) for e in cut),
        "tool results": sum(isinstance(e, ToolResult) for e in cut),
        "failed tool results": sum(
            isinstance(e, ToolResult) and e.status == "failure" for e in cut
        ),
        "user messages": sum(isinstance(e, UserMessage) for e in cut),
    }
    counts = ", ".join(f"{n} {kind}" for kind, n in kinds.items() if n)
    return (
        f"[… turns {cut[0].turn}-{cut[-1].turn} cut to fit the request ({counts}); the index facts "
        "above cover them …]"
    )


def fit_span(events: Iterable[Event], *, max_tokens: int, output_limit: int = 800) -> SpanText:
    """The span as one request's text of at most about ``max_tokens`` tokens, its end always kept.

    A span that fits is shown whole.  A longer one keeps, in this order of
    priority, the agent's last message (whole up to a quarter of the
    budget), the user's messages (the latest first), the end of the span and
    then its beginning; each stretch of the middle that is left out is
    replaced by a note naming its turns and what it held.  The request is
    one: the model always sees where the work stopped, next to the facts
    of that same turn.
    """
    shown = [(e, line) for e in events if (line := render_event(e, output_limit)) is not None]
    if not shown:
        return SpanText("", 0, 0)
    first_turn, last_turn = shown[0][0].turn, shown[-1][0].turn
    lines = [line for _, line in shown]
    costs = [count_tokens(line) for line in lines]
    if sum(costs) <= max_tokens:
        return SpanText("\n".join(lines), first_turn, last_turn)
    kept = [False] * len(shown)
    left = max_tokens

    def keep(index: int, bound: int) -> bool:
        nonlocal left
        line, cost = _bounded(lines[index], min(bound, left))
        if cost > left:
            return False
        lines[index], costs[index], kept[index] = line, cost, True
        left -= cost
        return True

    assistant = [i for i, (e, _) in enumerate(shown) if isinstance(e, AssistantMessage)]
    if assistant:
        keep(assistant[-1], max_tokens // _LAST_MESSAGE_SHARE)
    users = [i for i, (e, _) in enumerate(shown) if isinstance(e, UserMessage)]
    words = max_tokens // _USER_WORDS_SHARE
    for index in reversed(users):
        spent = left
        if not keep(index, min(max_tokens // _ONE_USER_MESSAGE_SHARE, words)):
            break
        words -= spent - left
    # Each stretch left out costs a note: at most one between two pinned lines, and one more.
    left -= _NOTE_TOKENS * (sum(kept) + 1)
    end_budget = left * _END_SHARE // (_END_SHARE + 1)
    for index in reversed(range(len(shown))):
        if kept[index]:
            continue
        if costs[index] > end_budget:
            break
        end_budget -= costs[index]
        kept[index], left = True, left - costs[index]
    for index in range(len(shown)):
        if kept[index]:
            continue
        if costs[index] > left:
            break
        kept[index], left = True, left - costs[index]
    parts: list[str] = []
    cut: list[Event] = []
    for (event, _), line, is_kept in zip(shown, lines, kept, strict=True):
        if not is_kept:
            cut.append(event)
            continue
        if cut:
            parts.append(_cut_note(cut))
            cut = []
        parts.append(line)
    if cut:
        parts.append(_cut_note(cut))
    return SpanText("\n".join(parts), first_turn, last_turn, cut_events=kept.count(False))


def span_after(events: Sequence[Event], last_turn: int) -> list[Event]:
    """The events after ``last_turn`` (the turn the previous summary covered up to)."""
    return [e for e in events if e.turn > last_turn]
