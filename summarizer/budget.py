"""Fitting a summary within its template's token budget, whatever the session.

The summary replaces the context it summarizes, so it must stay short
whatever the session held: a ninety-thousand-character console log pasted as
the latest message, a thousand changed files, a hundred-line error.  Four
steps, each taken only when the one before did not fit:

1. the index sections' detail level, 0 (everything) to the most compact
   (see :mod:`summarizer.sections.index_sections`), with every long text
   (a message, an error, a tool output) capped at a share of the budget;
2. at the most compact level, the long texts condensed further (see
   :mod:`summarizer.sections.condense`: distinct lines once, the opening
   and the end kept, what was cut said), in order: the errors' and tool
   outputs' texts and the earlier messages first, then the agent's last
   message, then, last, the user's latest request and feedback;
3. lines cut from the middle of the longest sections, saying how many;
4. nothing else: what is left is within the budget.

What the budget leaves after step 1 goes back, section by section, to the
parts the reader needs most (:func:`spend_what_is_left`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from summarizer.sections.condense import condense_text
from summarizer.sections.facts import MessageFact, SessionFacts
from summarizer.sections.thread import latest_request
from summarizer.tokens import count_tokens

__all__ = [
    "CHARS_PER_TOKEN",
    "TextLimits",
    "condense_facts",
    "cut_to_budget",
    "text_limit_ladder",
]

# Characters per token of the texts that overflow (logs, stack traces, code): a little denser than prose.
CHARS_PER_TOKEN = 3.5
# The share of the budget any one text may take before anything else is shortened.
_WORDS_SHARE = 0.5  # the user's latest request and feedback, the agent's last message
_OTHER_SHARE = 0.25  # errors, tool outputs, earlier messages
_FLOOR = 300  # characters: below this a condensed text says nothing


class TextLimits:
    """How many characters each kind of long text keeps (step 1's shares, then halved by step 2)."""

    def __init__(self, words: int, last_message: int, other: int) -> None:
        self.words = words
        self.last_message = last_message
        self.other = other

    def __repr__(self) -> str:
        return f"TextLimits({self.words}, {self.last_message}, {self.other})"


def text_limit_ladder(budget_tokens: int) -> list[TextLimits]:
    """Step 1's limits (no text longer than the whole budget), then step 2's, tighter each time.

    Step 2 shortens the errors' and tool outputs' texts and the earlier
    messages first, then the agent's last message, and the user's latest
    request and feedback last.
    """
    chars = int(budget_tokens * CHARS_PER_TOKEN)
    ladder = [TextLimits(chars, chars, chars)]
    words = last = int(chars * _WORDS_SHARE)
    other = int(chars * _OTHER_SHARE)
    ladder.append(TextLimits(chars, chars, other))
    while other > _FLOOR:
        other = max(other // 2, _FLOOR)
        ladder.append(TextLimits(chars, chars, other))
    ladder.append(TextLimits(chars, last, other))
    while last > _FLOOR:
        last = max(last // 2, _FLOOR)
        ladder.append(TextLimits(chars, last, other))
    ladder.append(TextLimits(words, last, other))
    while words > _FLOOR:
        words = max(words // 2, _FLOOR)
        ladder.append(TextLimits(words, last, other))
    return ladder


def _message(m: MessageFact, limit: int) -> MessageFact:
    if len(m.text) <= limit:
        return m
    return m.model_copy(update={"text": condense_text(m.text, limit)})


def condense_facts(facts: SessionFacts, limits: TextLimits) -> SessionFacts:
    """``facts`` with every long text condensed to its limit (the others as they are)."""
    latest = latest_request(facts.user_messages)
    messages = [
        _message(m, limits.words if m is latest or m.channel == "feedback" else limits.other)
        for m in facts.user_messages
    ]
    errors = [
        e.model_copy(
            update={
                "message": condense_text(e.message, limits.other),
                "detail": condense_text(e.detail, limits.other) if e.detail else e.detail,
            }
        )
        if len(e.message) > limits.other or len(e.detail or "") > limits.other
        else e
        for e in facts.errors
    ]
    original = facts.original_error
    if original is not None and len(original.message) > limits.other:
        original = original.model_copy(
            update={"message": condense_text(original.message, limits.other)}
        )
    activity = [
        a.model_copy(update={"output": condense_text(a.output, limits.other // 2)})
        if len(a.output) > limits.other // 2
        else a
        for a in facts.activity
    ]
    last = facts.last_assistant
    return facts.model_copy(
        update={
            "user_messages": messages,
            "errors": errors,
            "original_error": original,
            "activity": activity,
            "last_assistant": _message(last, limits.last_message) if last is not None else None,
            "findings": [_message(m, limits.other) for m in facts.findings],
        }
    )


def _cut_body(body: str, keep_tokens: int) -> str:
    """``body`` within about ``keep_tokens``: its first and last lines, the middle said as cut."""
    lines = body.split("\n")
    if len(lines) < 3:
        limit = max(int(keep_tokens * CHARS_PER_TOKEN), 80)
        text = body if len(body) <= limit else condense_text(body, limit)
        if len(text) > limit:  # one enormous line
            text = body[: limit * 2 // 3] + f" … [{len(body) - limit * 2 // 3:,} characters cut]"
        return text
    head, tail = [lines[0]], [lines[-1]]
    middle = lines[1:-1]
    # Keep lines from both ends of the middle while they fit, the start first (it names the section's subject).
    room = keep_tokens - count_tokens(lines[0] + "\n" + lines[-1]) - 20
    front, back = 0, len(middle)
    take_front = True
    while front < back:
        line = middle[front] if take_front else middle[back - 1]
        cost = count_tokens(line) + 1
        if cost > room:
            break
        room -= cost
        if take_front:
            head.append(line)
            front += 1
        else:
            tail.insert(0, line)
            back -= 1
        take_front = not take_front
    cut = back - front
    if cut == 0:
        return body
    return "\n".join([*head, f"[… {cut} line(s) cut here to fit the summary's budget]", *tail])


def cut_to_budget(
    bodies: Mapping[str, str],
    assemble: Callable[[Mapping[str, str]], str],
    budget_tokens: int,
) -> str:
    """Cut the longest section bodies (by key) until ``assemble(bodies)`` is within ``budget_tokens``.

    Each round cuts the longest section by what is over, never below a small
    floor; a floor shared by every section is the one slack this allows.
    """
    current = dict(bodies)
    floor = max(24, budget_tokens // (4 * max(len(current), 1)))
    markdown = assemble(current)
    for _ in range(4 * len(current) + 8):
        over = count_tokens(markdown) - budget_tokens
        if over <= 0:
            return markdown
        sizes = {key: count_tokens(body) for key, body in current.items()}
        key = max(sizes, key=lambda k: sizes[k])
        if sizes[key] <= floor:
            break
        keep = max(sizes[key] - over - 8, floor)
        shorter = _cut_body(current[key], keep)
        if shorter == current[key]:
            # Lines could not be cut: cut the whole body's characters.
            limit = max(int(keep * CHARS_PER_TOKEN), 80)
            shorter = current[key][:limit] + "\n[… the rest cut to fit the summary's budget]"
            if shorter == current[key] or len(shorter) >= len(current[key]):
                break
        current[key] = shorter
        markdown = assemble(current)
    return markdown
