"""How the index sections quote text: on one line within a limit, or as a fenced block under a list item."""

from __future__ import annotations

__all__ = ["block", "one_line"]


def one_line(text: str, limit: int) -> str:
    """``text`` on one line, cut to ``limit`` characters at a word boundary when one is near."""
    line = " ".join(text.split())
    if len(line) <= limit:
        return line
    cut = line.rfind(" ", 0, limit - 1)
    return line[: cut if cut > limit * 0.7 else limit - 1] + "…"


def block(text: str) -> str:
    """A multi-line text as an indented fenced block under a list item."""
    body = text.rstrip("\n").replace("\n", "\n  ")
    return f"\n  ```\n  {body}\n  ```"
