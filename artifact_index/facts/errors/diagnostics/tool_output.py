"""Reading one tool output: cleaning it, finding the lines that hold a marker, bounding what is kept.

Every family parser reads through these helpers.  A parser never runs a regex
over the whole output: it asks :class:`Context` for the lines holding a short
marker (``"rror"``, ``"FAIL"``, ``"-->"``), found with ``str.find``, and
matches only those lines with regexes bounded by the line.
"""

from __future__ import annotations

from artifact_index.lazy_pattern import lazy_pattern

__all__ = [
    "FILE_GROUP",
    "TASK_PREFIX",
    "TRUNCATION_MARKER",
    "Context",
    "clean_output",
    "explaining_detail",
    "line_end",
    "lines_after",
    "lines_before",
    "lines_with",
    "optional_int",
    "trimmed",
]

_MAX_SCAN = 4_000_000  # characters; longer outputs keep their head and their tail
_MAX_HITS = 5_000  # occurrences of one marker examined per output
_MAX_MESSAGE = 500
# A file as compilers print it before ":line:col": a drive letter allowed, no spaces.
FILE_GROUP = r"(?P<file>(?:[A-Za-z]:)?[^\s:(][^:(]*?)"

_ANSI = lazy_pattern(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\n]*\x07")
# A task runner's line prefix, e.g. "[lint:go] " (mise) or "[test] " (Taskfile).
TASK_PREFIX = r"(?:\[[\w:./@ -]{1,40}\] )?"


def clean_output(output: str) -> str:
    """The text to read: no colour codes, ``\n`` line ends, and a leading ``\n``.

    The leading newline lets a marker such as ``"\ne: "`` find a line that
    starts with ``e: `` even on the first line.
    """
    if len(output) > _MAX_SCAN:
        output = output[: _MAX_SCAN // 4] + "\n" + output[-(_MAX_SCAN * 3 // 4) :]
    if "\x1b" in output:
        output = _ANSI.sub("", output)
    if "\r" in output:
        output = output.replace("\r\n", "\n").replace("\r", "\n")
    return "\n" + output


def trimmed(text: str) -> str:
    """``text`` stripped, and cut with an ellipsis past a message's length."""
    text = text.strip()
    if len(text) > _MAX_MESSAGE:
        return text[: _MAX_MESSAGE - 1] + "…"
    return text


_MAX_DETAIL_LINES = 12
_MAX_DETAIL = 800


def explaining_detail(lines: list[str], message: str) -> str | None:
    """The explaining lines under an error, dedented and bounded; None when they add nothing."""
    kept = [line.rstrip() for line in lines]
    while kept and not kept[0].strip():
        kept.pop(0)
    while kept and not kept[-1].strip():
        kept.pop()
    if not kept:
        return None
    indent = min(len(line) - len(line.lstrip()) for line in kept if line.strip())
    kept = [line[indent:] for line in kept]
    if len(kept) > _MAX_DETAIL_LINES:
        kept = [*kept[:_MAX_DETAIL_LINES], f"[… {len(kept) - _MAX_DETAIL_LINES} more lines]"]
    text = "\n".join(kept)
    if len(text) > _MAX_DETAIL:
        text = text[: _MAX_DETAIL - 1] + "…"
    return None if text.strip() == message.strip() else text


def optional_int(value: str | None) -> int | None:
    """An optional regex group as a number."""
    return int(value) if value else None


def lines_after(text: str, position: int, limit: int) -> list[str]:
    """Up to ``limit`` lines starting at the line after ``position``."""
    start = text.find("\n", position)
    if start < 0:
        return []
    lines = []
    for _ in range(limit):
        end = text.find("\n", start + 1)
        if end < 0:
            lines.append(text[start + 1 :])
            break
        lines.append(text[start + 1 : end])
        start = end
    return lines


def lines_before(text: str, position: int, limit: int) -> list[str]:
    """Up to ``limit`` lines before the line holding ``position``, nearest last."""
    end = text.rfind("\n", 0, position)  # the newline that ends the previous line
    lines: list[str] = []
    while end > 0 and len(lines) < limit:
        start = text.rfind("\n", 0, end) + 1
        lines.append(text[start:end])
        end = start - 1
    lines.reverse()
    return lines


def lines_with(text: str, *needles: str) -> list[tuple[int, str]]:
    """Each line containing one of ``needles``, once, in order, as ``(offset, line)``.

    Finding a literal with ``str.find`` and then matching only that line is
    far cheaper than running a ``^``-anchored multi-line regex over the whole
    output, which the regex engine has to try at every character.
    """
    starts: set[int] = set()
    for needle in needles:
        at_line_start = needle.startswith("\n")  # "\ne: " finds lines starting with "e: "
        position = text.find(needle)
        hits = 0
        while position >= 0 and hits < _MAX_HITS:
            start = position + 1 if at_line_start else text.rfind("\n", 0, position) + 1
            starts.add(start)
            line_end = text.find("\n", start)
            if line_end < 0:
                break
            position = text.find(needle, line_end)
            hits += 1
    lines = []
    for start in sorted(starts):
        end = text.find("\n", start)
        lines.append((start, text[start : end if end >= 0 else len(text)]))
    return lines


def line_end(text: str, offset: int) -> int:
    """The offset of the newline ending the line at ``offset`` (the end of ``text`` on the last line)."""
    end = text.find("\n", offset)
    return end if end >= 0 else len(text)


class Context:
    """One output being read, with the lines holding each marker found so far.

    Families share a few short markers ("rror" for error/Error/SyntaxError,
    "FAIL" for FAIL/FAILED/--- FAIL) so each marker costs one scan of the
    output however many families look for it; a family then filters those
    few lines with its own regex.
    """

    def __init__(self, text: str, command: str) -> None:
        self.text = text
        self.command = command
        self._lines: dict[str, list[tuple[int, str]]] = {}

    def mentions(self, *words: str) -> bool:
        return any(word in self.command for word in words)

    def lines(self, *markers: str) -> list[tuple[int, str]]:
        for marker in markers:
            if marker not in self._lines:
                # Most markers are absent from most outputs: `in` says so without building anything.
                self._lines[marker] = lines_with(self.text, marker) if marker in self.text else []
        if len(markers) == 1:
            return self._lines[markers[0]]
        merged = {offset: line for marker in markers for offset, line in self._lines[marker]}
        return sorted(merged.items())


# Harnesses cut long outputs with a marker; it is never an error message.
TRUNCATION_MARKER = lazy_pattern(
    r"^\.{3} ?\[\d+ (?:characters|chars|lines|bytes) truncated\] ?\.{3}$|^\[\.\.\."
)
