"""The structure of the Markdown log: its items (sessions, user lines, Aider's output, the model's text) and the edits a reply asks for."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from artifact_index.ingestion.adapters.search_replace import HEAD, parse_blocks
from artifact_index.lazy_pattern import lazy_pattern

__all__ = [
    "COMMIT",
    "FAILED_REPORT",
    "Edit",
    "Item",
    "items",
    "path_key",
    "reply_edits",
    "workspace_of",
]

_SESSION = lazy_pattern(r"^# aider chat started at (.+?)\s*$")
_FENCE = lazy_pattern(r"^(`{3,}|~{3,})")
_ANSWER_LINE = lazy_pattern(r"\(Y\)es/\(N\)o.*\]: ?\S*\s*$")
COMMIT = lazy_pattern(r"^Commit ([0-9a-f]{7,40})\b ?(.*)$", re.DOTALL)
FAILED_REPORT = lazy_pattern(r"^# \d+ SEARCH/REPLACE blocks? failed to match")
_ADD_COMMAND = lazy_pattern(r"^#### /(?:add|read-only) (.+?)\s*$", re.MULTILINE)
_PATH_LINES = lazy_pattern(
    r"^> (?:Added (.+?) to (?:the chat|read-only files)|Applied edit to (.+?)|(.+?))\s*$"
    r"|^## SearchReplaceNoExactMatch: .*? lines in (.+?)\s*$",
    re.MULTILINE,
)
_ABSOLUTE = lazy_pattern(r"^(?:[A-Za-z]:/|/)")


def path_key(path: str) -> str:
    """Comparison key for a path: Aider prints Windows paths with backslashes."""
    path = path.strip().strip("`*").replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return path


def workspace_of(text: str) -> str | None:
    """The workspace root, when Aider does not print it: the absolute prefix of an added file.

    ``/add C:\\Users\\dev\\inventory\\src\\stock.py`` and ``Applied edit to
    src\\stock.py`` name one file when the workspace is ``C:\\Users\\dev\\inventory``.
    A printed ``Git working dir:`` is the root, and nothing is inferred.
    """
    if re.search(r"^> Git working dir: ", text, re.MULTILINE):
        return None
    named = [path_key(p) for m in _ADD_COMMAND.finditer(text) for p in m.group(1).split()]
    named += [path_key(p) for m in _PATH_LINES.finditer(text) for p in m.groups() if p]
    absolute = [p for p in named if _ABSOLUTE.match(p)]
    relative = {p.lower() for p in named if not _ABSOLUTE.match(p) and "/" in p and " " not in p}
    for path in absolute:
        for rel in relative:
            if path.lower().endswith("/" + rel):
                return path[: -len(rel) - 1]
    return None


def _filename(line: str) -> str | None:
    """The file name a line announces before a fence, the way Aider strips it."""
    name = line.strip()
    if not name or name == "...":
        return None
    fence = _FENCE.match(name)
    if fence:
        rest = name[len(fence.group(1)) :].strip()
        return rest if rest and ("." in rest or "/" in rest) else None
    name = name.rstrip(":").lstrip("#").strip().strip("`").strip("*").strip()
    if not name or " " in name or len(name) > 250:
        return None
    return name


@dataclass
class Edit:
    """An edit the model asked for in its reply: SEARCH/REPLACE or a whole file."""

    line: int
    path: str
    old: str | None  # None for a whole-file block
    new: str
    used: bool = False


def reply_edits(lines: list[str], first_line: int) -> list[Edit]:
    """SEARCH/REPLACE blocks and fenced whole-file listings of one model reply."""
    edits: list[Edit] = []
    current: str | None = None
    # A block the model never finished is its own output, not damage to the
    # file: Aider rejects such a reply, so it simply yields no edit.
    for block in parse_blocks(lines):
        name: str | None = None
        for back in range(block.index - 1, max(block.index - 4, -1), -1):
            candidate = _filename(lines[back])
            if candidate:
                name = candidate
                break
            if not _FENCE.match(lines[back].strip()):
                break
        current = name or current
        if current:
            edits.append(Edit(first_line + block.index, current, block.old, block.new))
    # Whole-file listings: a fence right under a line that names a file.
    i = 0
    while i < len(lines):
        fence = _FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        end = i + 1
        while end < len(lines) and not lines[end].startswith(fence.group(1)):
            end += 1
        body = lines[i + 1 : end]
        name = _filename(lines[i - 1]) if i > 0 else None
        if name and not any(HEAD.match(line) for line in body):
            content = "".join(line + "\n" for line in body)
            edits.append(Edit(first_line + i, name, None, content))
        i = end + 1
    return edits


@dataclass
class Item:
    kind: str  # "session" | "user" | "tool" | "text"
    line: int
    text: str


def _is_user(line: str) -> bool:
    return line.startswith("#### ") or line.rstrip() == "####"


def items(lines: list[str]) -> Iterator[Item]:
    """Classify the lines, joining multi-line Aider messages and user inputs."""
    tool_lines = [line for line in lines if line.startswith("> ") or line.rstrip() == ">"]
    # Aider >= 0.40 ends each message with two spaces; without that convention
    # every ``>`` line is taken as a message of its own.
    trailing = sum(1 for line in tool_lines if line.endswith("  ")) * 2 > len(tool_lines)
    i = 0
    while i < len(lines):
        line = lines[i]
        number = i + 1
        if _SESSION.match(line):
            yield Item("session", number, line)
            i += 1
        elif _is_user(line):
            text = line[5:].rstrip()
            i += 1
            if _ANSWER_LINE.search(text):
                # The user typed an answer to a prompt: part of Aider's dialogue.
                yield Item("tool", number, text)
                continue
            # Consecutive ``####`` lines are one message typed over several lines.
            parts = [text]
            while i < len(lines) and _is_user(lines[i]) and not _ANSWER_LINE.search(lines[i]):
                parts.append(lines[i][5:].rstrip())
                i += 1
            yield Item("user", number, "\n".join(parts))
        elif line.startswith("> ") or line.rstrip() == ">":
            message = [line[2:]]
            i += 1
            if trailing and not line.endswith("  "):
                head = line[2:]
                spans_blanks = bool(FAILED_REPORT.match(head) or COMMIT.match(head))
                while i < len(lines):
                    nxt = lines[i]
                    if (
                        nxt.startswith(("#### ", "> "))
                        or nxt.rstrip() in (">", "####")
                        or _SESSION.match(nxt)
                        or (not nxt.strip() and not spans_blanks)
                    ):
                        break
                    message.append(nxt)
                    i += 1
                    if nxt.endswith("  "):
                        break
            yield Item("tool", number, "\n".join(part.rstrip() for part in message))
        else:
            yield Item("text", number, line)
            i += 1
