"""What a transcript reveals of a file's content.

Read tools print files with a line-number gutter that differs per agent:
Claude Code ``     1→text``, ``cat -n`` / ``str_replace_editor view``
``     1\\ttext``, SWE-agent windows ``[File: p (94 lines total)]`` then
``1:text``, OpenCode ``<content>`` then ``1: text``.  :func:`parse_read_output`
strips the gutter and says which lines were seen; the tracker keeps full
content when the whole file was seen and otherwise the windows seen, never
padding the gaps with guesses.

Claude Code's Read (``     1→text``, or ``1\ttext`` without padding in
recent versions) and the ``str_replace_editor`` view number the pieces of
``content.split("\n")``: a file ending in a newline shows one last, empty
numbered line, and a file without one does not.  ``cat -n`` and ``nl`` (the
number right-aligned in six columns), SWE-agent's ``open`` and OpenCode
number real lines, so each shown line ends in a newline.  A response the tool clipped (``<response clipped>``) or whose
lines it cut short is never the whole file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["Window", "is_directory_listing", "parse_read_output"]

_CC = lazy_pattern(r"^\s*(\d+)→(.*)$")
_CAT_N = lazy_pattern(r"^\s*(\d+)\t(.*)$")
_TAB_UNPADDED = lazy_pattern(r"^(\d+)\t(.*)$")
_SWE = lazy_pattern(r"^(\d+):(.*)$")
_OPENCODE = lazy_pattern(r"^(\d+): ?(.*)$")
_SWE_HEADER = lazy_pattern(r"^\[File: (.+?) \((\d+) lines total\)\]$")
_REMINDER = lazy_pattern(r"\n*<system-reminder>.*?</system-reminder>\s*", re.S)
_REMINDER_START = "<system-reminder>"  # looked for first: the pattern is tried at every position
_CLIPPED = "<response clipped>"
_EDITOR_VIEW = "Here's the result of running `cat -n`"
# Claude Code's Read cuts lines longer than this; such a read is not the file.
_LONGEST_SHOWN_LINE = 2000
# What read tools print when the path they were given is a directory:
# OpenCode's read, and the str_replace_editor view of SWE-agent, OpenHands
# and Anthropic's text editor tool.  Matched where the output's text starts.
_DIRECTORY_LISTING = lazy_pattern(
    r"<path>[^\n]*</path>\s*<type>directory</type>"
    r"|Here's the files and directories up to \d+ levels? deep in "
)
_TEXT_START = lazy_pattern(r"\S")


@dataclass(frozen=True)
class Window:
    """Consecutive lines of a file as a read showed them."""

    start: int  # 1-based number of the first line
    lines: tuple[str, ...]
    total_lines: int | None = None  # when the tool said how long the file is
    split_lines: bool = False  # the lines are the pieces of content.split("\n")

    @property
    def end(self) -> int:
        return self.start + len(self.lines) - 1

    @property
    def is_whole_file(self) -> bool:
        return (
            self.start == 1 and self.total_lines is not None and self.total_lines == len(self.lines)
        )

    def text(self) -> str:
        """The lines as file text (the exact file content when :attr:`is_whole_file`)."""
        if self.split_lines and self.is_whole_file:
            return "\n".join(self.lines)
        return "".join(line + "\n" for line in self.lines)


# Each gutter as one multi-line pattern, to read all the lines in one call: the same match on each
# line (``[^\S\n]`` is ``\s`` within a line, and nothing in them matches across a newline).
_EVERY_LINE = {
    pattern: lazy_pattern(pattern.pattern.replace(r"^\s*", r"^[^\S\n]*"), re.MULTILINE)
    for pattern in (_CC, _CAT_N, _SWE, _OPENCODE)
}


def _numbered(lines: list[str], pattern: re.Pattern[str]) -> tuple[int, list[str]] | None:
    first = pattern.match(lines[0]) if lines else None
    if first is None:
        return None  # not this gutter: no need to look at every line
    start = int(first.group(1))
    rows: list[tuple[str, str]] = _EVERY_LINE[pattern].findall("\n".join(lines))
    if len(rows) != len(lines):  # some line has no gutter: the window ends before it
        rows = []
        for match in map(pattern.match, lines):
            if match is None:
                break
            rows.append((match[1], match[2]))
    numbers = [int(number) for number, _ in rows]
    kept = len(numbers)
    if numbers != list(range(start, start + kept)):  # the window ends where the numbering breaks
        kept = next(k for k, number in enumerate(numbers) if number != start + k)
    out = [text for _, text in rows[:kept]]
    # A gutter must cover (nearly) the whole output to be trusted; trailing
    # notes like "(3 more lines below)" are allowed.
    return (start, out) if len(out) >= max(1, len(lines) - 3) else None


def is_directory_listing(output: str) -> bool:
    """Whether a read tool's output lists a directory instead of showing a file."""
    # Found without lstrip(), which copies the whole output of every read.
    start = _TEXT_START.search(output)
    return start is not None and _DIRECTORY_LISTING.match(output, start.start()) is not None


def parse_read_output(output: str, *, whole_file_hint: bool = False) -> Window | None:
    """The lines a read tool showed, or None when the output has no recognizable gutter.

    ``whole_file_hint``: the call asked for the whole file (no offset/limit),
    so a window starting at line 1 that the tool did not say was truncated is
    taken as the whole file.
    """
    text = (_REMINDER.sub("\n", output) if _REMINDER_START in output else output).strip("\n")
    clipped = _CLIPPED in text
    if clipped:  # the rest of the clipped line, and the note after it, are not the file
        text = text.split(_CLIPPED, 1)[0].rsplit("\n", 1)[0]
    if not text:
        return None
    first = text.split("\n", 1)[0]
    if not (
        first.startswith(_EDITOR_VIEW)
        or _SWE_HEADER.match(first)
        or "<content>" in text
        or _CC.match(first)
        or _CAT_N.match(first)
    ):
        return None  # no gutter starts the output: no need to split it into lines
    lines = text.split("\n")
    total: int | None = None
    editor_view = lines[0].startswith(_EDITOR_VIEW)
    if editor_view:
        lines = lines[1:]
        if clipped:
            whole_file_hint = False
    header = _SWE_HEADER.match(lines[0])
    if header:
        total = int(header.group(2))
        lines = [
            line for line in lines[1:] if not re.match(r"^\(\d+ more lines (above|below)\)$", line)
        ]
        found = _numbered(lines, _SWE)
        if found is None:
            return None
        return Window(found[0], tuple(found[1]), total)
    if "<content>" in text:
        body = text.split("<content>", 1)[1].split("</content>", 1)[0].strip("\n").split("\n")
        body = [
            line
            for line in body
            if not line.startswith("(End of file") and not line.startswith("(File has")
        ]
        ended = re.search(r"\(End of file - total (\d+) lines\)", text)
        found = _numbered(body, _OPENCODE)
        if found is None:
            return None
        return Window(found[0], tuple(found[1]), int(ended.group(1)) if ended else None)
    for pattern in (_CC, _CAT_N):
        found = _numbered(lines, pattern)
        if found is not None:
            start, seen = found
            complete = not clipped and max(map(len, seen), default=0) < _LONGEST_SHOWN_LINE
            if (
                whole_file_hint
                and complete
                and start == 1
                and len(seen) == len(lines)
                and len(seen) < 2000
            ):
                total = len(seen)
            # `cat -n` and `nl` pad the number to six columns; Claude Code does not.
            claude_tabs = (
                pattern is _CAT_N
                and not editor_view
                and _TAB_UNPADDED.match(lines[0]) is not None
                and len(lines[0].split("\t", 1)[0]) < 6
            )
            return Window(
                start, tuple(seen), total, split_lines=pattern is _CC or editor_view or claude_tabs
            )
    return None
