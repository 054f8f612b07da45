"""A long text made to fit a length, keeping what a reader needs and saying what was cut.

A user message can be a pasted console log: ninety thousand characters of
the same React stack frames, with the person's own words at its start or
end.  Kept whole it would be the whole summary; cut at a length it would
lose the words.  :func:`condense_text` keeps, in order:

* every distinct line once: a line that repeats one seen before (the same
  frame, the same log line with other numbers or addresses) is dropped, and
  the first one carries the count (``(×214)``);
* when the distinct lines are still too long, the opening, the last lines,
  and from the middle the lines that say something (errors, failures,
  warnings first), each gap marked ``[…]``;
* a line longer than its share, by its start and its end;

and ends with one line saying what was cut.  A text within the limit is
returned as it is.
"""

from __future__ import annotations

import re
from collections import Counter

from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.redaction import redact_text

__all__ = ["condense_text"]

# Numbers, hex addresses and hashes differ between repeats of one line: a frame is the same frame at
# another column, a log line the same line at another time.
_VOLATILE = lazy_pattern(r"0x[0-9a-fA-F]+|[0-9a-f]{7,}|\d+")
# Lines that say what went wrong: kept first from the middle of a text too long to keep whole.
_TELLING = lazy_pattern(
    r"error|exception|fail|warn|cannot|can't|unable|undefined|not found|expected|denied|refused|"
    r"invalid|missing|panic|fatal|traceback",
    re.I,
)
_SHORT = 4  # a line this short ("}", "") is not worth a count of its own


def _shape(line: str) -> str:
    return _VOLATILE.sub("#", " ".join(line.split()))


def _cut_line(line: str, limit: int) -> str:
    """A line longer than ``limit`` as its start and its end (at least 40 characters of them)."""
    if len(line) <= limit:
        return line
    keep = max(limit - len(f" … [{len(line):,} characters cut] … "), 40)
    head, tail = line[: keep * 2 // 3], line[-(keep // 3) :]
    return f"{head} … [{len(line) - len(head) - len(tail):,} characters cut] … {tail}"


def _note(text: str, lines: int, repeats: int, cut: int | None) -> str:
    said = f"[condensed to fit: {len(text):,} characters, {lines:,} lines; {repeats:,} repeated lines shown once"
    return said + (
        f" with a count; {cut:,} other lines cut]" if cut is not None else " with a count]"
    )


def condense_text(text: str, limit: int) -> str:
    """``text`` within about ``limit`` characters: distinct lines, opening and end kept, what was cut said."""
    if len(text) <= limit:
        return text
    # Redacted before it is cut: a cut through a key leaves a piece no rule knows as one.
    text = redact_text(text)
    if len(text) <= limit:
        return text
    lines = text.splitlines()
    counts = Counter(_shape(line) for line in lines if len(line.strip()) >= _SHORT)
    # 1. Every distinct line once, the first of each carrying how many times it came.
    seen: set[str] = set()
    kept: list[tuple[int, str]] = []  # (line number, text as shown)
    dropped_last = False
    for number, line in enumerate(lines):
        shape = _shape(line)
        if len(line.strip()) < _SHORT:
            if not dropped_last and not (kept and not kept[-1][1].strip() and not line.strip()):
                kept.append((number, line))
            continue
        if shape in seen:
            dropped_last = True
            continue
        seen.add(shape)
        dropped_last = False
        times = counts[shape]
        kept.append((number, f"{line} (×{times})" if times > 1 else line))
    repeats = sum(times - 1 for times in counts.values())
    body = "\n".join(line for _, line in kept)
    note = _note(text, len(lines), repeats, None)
    if len(body) + 1 + len(note) <= limit:
        return body + "\n" + note
    # 2. Still too long: the opening, the end, and the telling lines of the middle.
    room = max(limit - len(_note(text, len(lines), repeats, len(kept))) - 1, 40)
    chosen = _choose(kept, room)
    shown: list[str] = []
    previous = -1
    for position in sorted(chosen):
        if previous >= 0 and position != previous + 1:
            shown.append("[…]")
        shown.append(chosen[position])
        previous = position
    note = _note(text, len(lines), repeats, len(kept) - len(chosen))
    result = "\n".join(shown)
    if len(result) > room:  # the last word on the limit: a hard cut, said as such
        result = result[: max(room - 2, 0)] + " …"
    return result + "\n" + note


def _choose(kept: list[tuple[int, str]], room: int) -> dict[int, str]:
    """Positions in ``kept`` to show (each with its text, cut when long): opening, end, then telling lines."""
    line_room = max(room // 4, 80)
    chosen: dict[int, str] = {}
    spent = 0

    def take(position: int, share: int) -> bool:
        nonlocal spent
        if position in chosen:
            return True
        line = _cut_line(kept[position][1], min(line_room, share))
        if spent + len(line) + 1 > share and chosen:
            return False
        chosen[position] = line
        spent += len(line) + 1
        return True

    # The opening: what the person wrote first, up to 45% of the room.
    opening = room * 45 // 100
    for position in range(len(kept)):
        if not take(position, opening):
            break
    # The end, up to a further 25%.
    ending = spent + room * 25 // 100
    for position in range(len(kept) - 1, -1, -1):
        if not take(position, ending):
            break
    # The middle: lines that say what went wrong, then the others, in order, while the room lasts.
    middle = [p for p in range(len(kept)) if p not in chosen]
    telling = [p for p in middle if _TELLING.search(kept[p][1])]
    for position in [*telling, *(p for p in middle if p not in set(telling))]:
        line = _cut_line(kept[position][1], line_room)
        if spent + len(line) + 6 > room:
            continue
        chosen[position] = line
        spent += len(line) + 6  # the line and, perhaps, a gap marker
    return chosen
