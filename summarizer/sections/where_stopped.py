"""Where It Stopped: what the agent was doing when the summary was written.

Its earlier messages (the thread of its work), its last message, and its
last tool calls with how they ended.  Said compactly: a message that repeats
the one before it in other words, or that Files Changed already quotes as
the account of a change, is said once; calls in a row on the same target are
one line (with the lines of the file the reads asked for).  The agent's last
message is whole (the next agent must not redo what it reports), a claim in
it the index contradicts flagged; only when the budget asks for the most
compact summary is a long "all done" recap outlined, since the sections
above state what it restates.
"""

from __future__ import annotations

import re

from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.conversation.told import Activity
from artifact_index.trail.session_state import AssistantSaid
from summarizer.sections.background import background_lines
from summarizer.sections.summary_facts import SessionFacts
from summarizer.sections.text import block, one_line
from summarizer.sections.thread import thread_start

__all__ = ["last_activity"]

_EARLIER_MESSAGES_AT = {0: 5, 1: 4, 2: 2, 3: 0}
_SAME_WORDS = (
    0.75  # share of words two messages in a row have in common when they say the same thing
)
# A last message that opens by reporting the work done ("Perfect! I have successfully completed ...",
# "✅ All done"): its body restates the changes, tests and next items the sections above state exactly.
_DONE = lazy_pattern(
    r"^\W*(?:all )?(?:done|complete)\b|^\W*✅|\bsuccessfully (?:completed|implemented|finished)\b"
    r"|\b(?:I've|I have|we've)\s+(?:now\s+)?(?:completed|implemented|finished)\b"
    r"|\bhere'?s (?:a summary of )?what (?:I|was) (?:implemented|changed|did|done)\b",
    re.I,
)
# An answer to the user or a report of what was found is the message itself, not a recap of it.
_NOT_RECAP = lazy_pattern(r"\b(?:question|report|found|analy[sz])", re.I)
_HEADING = lazy_pattern(r"^\s*#{1,6}\s+(.+?)\s*$|^\s*\*\*([^*]{3,80})\*\*:?\s*$", re.M)
_RECAP_CHARS = 900  # shorter, it is quoted whole
_RECAP_HEADINGS = 2


def _recap_outline(text: str) -> str | None:
    """A long "all done" recap as its opening line and the outline of its headings; None for any other message.

    Quoted whole it costs a fifth of the budget to repeat what Files Changed, Test Status and Pending Tasks say.
    """
    text = text.strip()
    first = text.split("\n", 1)[0]
    headings = [h or b for h, b in _HEADING.findall(text)]
    if (
        len(text) <= _RECAP_CHARS
        or not _DONE.search(first[:200])
        or _NOT_RECAP.search(first)
        or len(headings) < _RECAP_HEADINGS
    ):
        return None
    return (
        f"{one_line(first, 200)}\n(a recap of {len(text.splitlines())} lines, shortened here: its parts were "
        + "; ".join(one_line(h, 70) for h in headings[:8])
        + (" …" if len(headings) > 8 else "")
        + ")"
    )


def last_activity(facts: SessionFacts, detail: int, *, outline_recap: bool = False) -> str:
    """Where the work stopped.  The agent's last message is whole; ``outline_recap``: a long "all done" recap
    is outlined instead (only when the budget asks for the most compact summary)."""
    lines = []
    last = facts.last_assistant
    earlier = [m for m in facts.recent_messages if last is None or m.turn < last.turn]
    earlier = earlier[-_EARLIER_MESSAGES_AT[detail] :] if _EARLIER_MESSAGES_AT[detail] else []
    # A message quoted under Files Changed as the account of a change is not said twice.
    accounts = {
        (account.turn, " ".join(account.text.split()).rstrip("…"))
        for f in facts.changed
        if (account := facts.accounts.get(f.path)) and account.text
    }
    earlier = [
        m
        for m in earlier
        if not any(
            turn == m.turn and " ".join(m.text.split()).startswith(text) for turn, text in accounts
        )
    ]
    if earlier:
        lines.append("Before that, the agent said (the thread of its work):")
        lines += _thread_lines(earlier)
    if last is not None:
        said = (_recap_outline(last.text) if outline_recap else None) or last.text.strip()
        lines.append(
            f"The agent's last message (turn {last.turn}):\n  " + said.replace("\n", "\n  ")
        )
        # The agent's own words are a claim like any other: "all tests pass" with a failing run is flagged.
        # Imported here: the hooks render no last message, and the narrative's checks are not theirs.
        from summarizer.narrative.consistency import contradictions

        flags = contradictions(last.text, facts)
        if flags:
            lines.append(f"  ⚠ [index: {'; '.join(flags)}]")
    lines += background_lines(facts, thread_start(facts))
    calls = facts.activity if detail <= 1 else facts.activity[-1:]
    if calls:
        lines.append("Its last tool calls, oldest first:")
    for run in _runs_of_calls(calls):
        call = run[-1]
        turns = (
            f"turn {call.turn}"
            if len(run) == 1
            else f"turns {run[0].turn}–{call.turn}, {len(run)} calls"
        )
        spans = [c.lines for c in run if c.lines is not None]
        where = f" lines {min(a for a, _ in spans)}–{max(b for _, b in spans)}" if spans else ""
        line = f"- ({turns}) {call.tool} `{call.target}`{where} → {call.status}"
        if call.output and (detail <= 1 or call is calls[-1]):
            line += block(call.output)
        lines.append(line)
    return "\n".join(lines) if lines else "Nothing recorded."


def _runs_of_calls(calls: list[Activity]) -> list[list[Activity]]:
    """The calls in order, those in a row on the same target with the same outcome and no output as one run."""
    runs: list[list[Activity]] = []
    for call in calls:
        previous = runs[-1][-1] if runs else None
        if (
            previous is not None
            and not previous.output
            and not call.output
            and (previous.tool, previous.target, previous.status)
            == (call.tool, call.target, call.status)
        ):
            runs[-1].append(call)
        else:
            runs.append([call])
    return runs


def _thread_lines(messages: list[AssistantSaid]) -> list[str]:
    """The agent's earlier messages, one line each; one that repeats the one before it in other words is left out."""
    lines: list[str] = []
    previous: set[str] = set()
    for m in messages:
        words = set(re.findall(r"\w+", m.text.lower()))
        if previous and len(words & previous) >= _SAME_WORDS * max(len(words), len(previous)):
            continue
        lines.append(f"- (turn {m.turn}) {one_line(m.text, 160)}")
        previous = words
    return lines
