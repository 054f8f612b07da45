"""Fitting a summary within its template's token budget, whatever the session.

The summary replaces the context it summarizes, so it must stay short
whatever the session held: a ninety-thousand-character console log pasted as
the latest message, a thousand changed files, a hundred-line error.  What
goes first is what the next agent needs least; each step is taken only when
the ones before did not fit:

1. the index sections' detail level, 0 (everything) to the most compact
   (see :mod:`summarizer.sections.index_sections`), no text longer than the
   whole budget;
2. at the most compact level, the long texts of errors, tool outputs and
   findings condensed (see :mod:`summarizer.sections.condense`: distinct
   lines once, the opening and the end kept, what was cut said);
3. whole items cut from the middle of the longest sections (the early user
   messages, the files read, resolved errors, earlier commits), saying how
   many (Files Changed gives up its descriptions only once no other item
   can go, and never a path); never cut
   here: the user's first and latest requests and their feedback, the
   agent's last message, an open error, an item in progress;
4. the agent's last message condensed, then, last, the user's latest
   request and feedback;
5. lines cut from the longest sections, whatever they hold.

What the budget leaves after step 1 goes back, section by section, to the
parts the reader needs most (``summarizer.summary``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.redaction import redact_text
from artifact_index.trail.session_state import AssistantSaid, UserSaid
from summarizer.sections.condense import condense_text
from summarizer.sections.summary_facts import SessionFacts
from summarizer.sections.thread import first_request, latest_request
from summarizer.tokens import count_tokens

__all__ = [
    "CHARS_PER_TOKEN",
    "TextLimits",
    "condense_facts",
    "cut_items",
    "cut_to_budget",
    "protected_items",
    "text_limit_ladder",
]

# Characters per token of the texts that overflow (logs, stack traces, code): a little denser than prose.
CHARS_PER_TOKEN = 3.5
_WORDS_SHARE = (
    0.5  # what the user's latest words and the agent's last message start from, of the budget
)
_OTHER_SHARE = 0.25  # errors, tool outputs, findings
_FLOOR = 300  # characters: below this a condensed text says nothing


@dataclass(frozen=True)
class TextLimits:
    """How many characters each kind of long text keeps."""

    words: int  # the user's latest request and their feedback
    last_message: int  # the agent's last message
    other: int  # errors' messages and details, tool outputs, findings

    @property
    def others_at_floor(self) -> bool:
        """Step 2 is over: the other texts are as short as they get."""
        return self.other <= _FLOOR


def text_limit_ladder(budget_tokens: int) -> list[TextLimits]:
    """Step 1's limits, step 2's (the other texts halved to the floor), then step 4's.

    Step 4 shortens the agent's last message first, and the user's latest
    request and feedback last.
    """
    chars = int(budget_tokens * CHARS_PER_TOKEN)
    ladder = [TextLimits(chars, chars, chars)]
    other = int(chars * _OTHER_SHARE)
    ladder.append(TextLimits(chars, chars, other))
    while other > _FLOOR:
        other = max(other // 2, _FLOOR)
        ladder.append(TextLimits(chars, chars, other))
    last = words = int(chars * _WORDS_SHARE)
    ladder.append(TextLimits(chars, last, other))
    while last > _FLOOR:
        last = max(last // 2, _FLOOR)
        ladder.append(TextLimits(chars, last, other))
    ladder.append(TextLimits(words, last, other))
    while words > _FLOOR:
        words = max(words // 2, _FLOOR)
        ladder.append(TextLimits(words, last, other))
    return ladder


_Said = TypeVar("_Said", UserSaid, AssistantSaid)


def _message(m: _Said, limit: int) -> _Said:
    if len(m.text) <= limit:
        return m
    return m.model_copy(update={"text": condense_text(m.text, limit)})


def condense_facts(facts: SessionFacts, limits: TextLimits) -> SessionFacts:
    """``facts`` with every long text condensed to its limit (the others as they are).

    The early user messages are left alone: each is shown on one shortened
    line, and their number is step 3's business.
    """
    latest = latest_request(facts.user_messages)
    last_said = facts.user_messages[-1] if facts.user_messages else None
    messages = [
        _message(m, limits.words) if m is latest or m is last_said or m.channel == "feedback" else m
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


# --- step 3: whole items --------------------------------------------------------------------------

_TURN = lazy_pattern(r"^- \(turn (\d+)")
# Items no step but the last may cut: what is open or in progress.
_KEPT_MARKS = ("[OPEN]", "[in progress]", "The agent's last message")


def _items(body: str) -> list[str]:
    """A body's items: each line that starts at the margin, with the indented lines under it."""
    items: list[str] = []
    for line in body.split("\n"):
        if items and (line.startswith((" ", "\t")) or not line):
            items[-1] += "\n" + line
        else:
            items.append(line)
    return items


def protected_items(facts: SessionFacts) -> Callable[[str, int, str], bool]:
    """Which items of which section step 3 keeps: ``protect(key, position, item)``."""
    latest = latest_request(facts.user_messages)
    latest_turn = latest.turn if latest is not None else None
    first = first_request(facts.user_messages)

    def protect(key: str, position: int, item: str) -> bool:
        if key == "files_changed" and "outside the workspace" not in item.split("\n", 1)[0]:
            return True  # the project's changed files: their descriptions go (the paths alone), never a path
        if position == 0 or any(mark in item.split("\n", 1)[0] for mark in _KEPT_MARKS):
            return True
        if key == "user_messages":
            turn = _TURN.match(item)
            if "feedback when refusing a call" in item.split("\n", 1)[0]:
                return True
            said = int(turn.group(1)) if turn is not None else None
            if said is not None and first is not None and said == first.turn:
                return True
            return said is not None and latest_turn is not None and said >= latest_turn
        return False

    return protect


def cut_items(
    bodies: Mapping[str, str],
    assemble: Callable[[Mapping[str, str]], str],
    budget_tokens: int,
    protect: Callable[[str, int, str], bool],
    compact: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """Step 3: drop unprotected items from the longest sections, the earliest first, until the summary fits.

    ``compact`` offers, by key, a shorter body to use before cutting that
    section's items (Files Changed by its paths alone).  Each run of dropped
    items is said as one line where it stood.  Returns the bodies, fitting
    or as short as this step can make them.
    """
    dropped: dict[str, set[int]] = {key: set() for key in bodies}
    offered = dict(compact or {})
    # No one item may take more than a share of the budget: a single huge item (often a
    # protected one, such as the first line of a long list of paths) would otherwise force
    # every other section's items out, and once it is shortened later the summary ends far
    # under its budget with those items gone.
    share = max(budget_tokens // 6, 80)

    def within_share(body: str) -> list[str]:
        return [
            _shorter_item(item, share) if count_tokens(item) > share else item
            for item in _items(body)
        ]

    items = {key: within_share(body) for key, body in bodies.items()}

    def rendered() -> dict[str, str]:
        return {key: _without(items[key], dropped[key]) for key in items}

    for _ in range(400):
        current = rendered()
        over = count_tokens(assemble(current)) - budget_tokens
        if over <= 0:
            return current
        left = {
            key: [
                n
                for n, item in enumerate(items[key])
                if n not in dropped[key] and not protect(key, n, item)
            ]
            for key in items
        }
        # What each changed file's change does is the artifact trail's substance: a section offered in a
        # shorter form (Files Changed by its paths alone) gives it up only once no other item can go.
        choices = [key for key in items if left[key]] or [key for key in items if key in offered]
        if not choices:
            return current
        key = max(choices, key=lambda k: count_tokens(current[k]))
        if key in offered:
            shorter = offered.pop(key)
            if count_tokens(shorter) < count_tokens(current[key]):
                items[key], dropped[key] = within_share(shorter), set()
            continue
        saved = 0
        for position in left[key]:
            dropped[key].add(position)
            saved += count_tokens(items[key][position]) + 1
            if saved >= over + 12:
                break
    return rendered()


_PATH_LIST = lazy_pattern(
    r"^(?P<head>- [^`\n]*?: )(?P<paths>`[^`\n]+`(?:, `[^`\n]+`)*)(?P<tail>[^\n]*)$"
)


def _shorter_item(item: str, keep_tokens: int) -> str:
    """``item`` within about ``keep_tokens``: a list of paths by whole paths, the count of the rest said."""
    listed = _PATH_LIST.match(item)
    if listed is None:
        return _cut_body(item, keep_tokens)
    paths = listed["paths"].split(", ")
    kept: list[str] = []
    room = keep_tokens - count_tokens(listed["head"]) - 12
    for path in paths:
        room -= count_tokens(path) + 1
        if room < 0 and kept:
            break
        kept.append(path)
    if len(kept) == len(paths):
        return item
    return (
        f"{listed['head']}{', '.join(kept)} and {len(paths) - len(kept)} more"
        " (cut to fit the summary's budget)"
    )


def _without(items: list[str], dropped: set[int]) -> str:
    """The items but the dropped ones, each run of those said as one line (with its turns, when it has them)."""
    kept: list[str] = []
    run: list[int] = []

    def say(run: list[int]) -> None:
        turns = [int(m.group(1)) for p in run if (m := _TURN.match(items[p]))]
        span = ""
        if len(turns) == len(run):
            span = f" (turns {min(turns)}–{max(turns)})" if len(run) > 1 else f" (turn {turns[0]})"
        kept.append(f"[… {len(run)} item(s){span} cut here to fit the summary's budget]")

    for position, item in enumerate(items):
        if position in dropped:
            run.append(position)
            continue
        if run:
            say(run)
            run = []
        kept.append(item)
    if run:
        say(run)
    return "\n".join(kept)


# --- step 5: lines --------------------------------------------------------------------------------


def _cut_body(body: str, keep_tokens: int) -> str:
    """``body`` within about ``keep_tokens``: its first and last lines, the middle said as cut."""
    lines = body.split("\n")
    if len(lines) < 3:
        limit = max(int(keep_tokens * CHARS_PER_TOKEN), 80)
        text = body if len(body) <= limit else condense_text(body, limit)
        if len(text) > limit:  # one enormous line, redacted first: a cut key is no key to a rule
            body = redact_text(body)
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
    """Step 5: cut lines of the longest section bodies (by key) until ``assemble(bodies)`` fits.

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
            if len(shorter) >= len(current[key]):
                break
        current[key] = shorter
        markdown = assemble(current)
    return markdown
