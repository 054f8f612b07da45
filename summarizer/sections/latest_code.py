"""The key code of a file's latest change: the new text its last edit wrote, bounded.

"``render_page`` modified" tells the agent that continues what was touched;
the lines the last edit wrote tell it what the code is now, without
reopening the file.  The index keeps, for each file, the text the main
agent's latest change wrote (:mod:`artifact_index.trail.latest_writes`);
for the files the current thread changed, that text is shown, its blank
edges and common indentation gone, cut to a few lines.
"""

from __future__ import annotations

from collections.abc import Sequence

from artifact_index.trail.answers import FileReport
from summarizer.sections.summary_facts import LatestCode

__all__ = ["latest_code"]

_MAX_LINES = 16  # what is kept of one change: the reader sees the shape, the file has the rest
_MAX_CHARS = 480


def _bounded(text: str) -> tuple[str, int]:
    """``text`` without its blank edges, cut to the bounds: the kept text and how many lines were left out."""
    lines = text.strip("\n").splitlines()
    # Common indentation says nothing once the code stands on its own.
    indent = min((len(x) - len(x.lstrip()) for x in lines if x.strip()), default=0)
    lines = [x[indent:].rstrip() for x in lines]
    kept: list[str] = []
    size = 0
    for line in lines[:_MAX_LINES]:
        if size + len(line) > _MAX_CHARS and kept:
            break
        kept.append(line[: _MAX_CHARS - 1] + "…" if len(line) > _MAX_CHARS else line)
        size += len(line) + 1
    return "\n".join(kept), len(lines) - len(kept)


def latest_code(files: Sequence[FileReport]) -> dict[str, LatestCode]:
    """The new text of the latest change of each of ``files``, bounded, by path (files it cannot say left out)."""
    found: dict[str, LatestCode] = {}
    for f in files:
        latest = f.latest_write
        if latest is None or latest.text is None:
            continue
        kept, more = _bounded(latest.text)
        found[f.path] = LatestCode(turn=latest.turn, text=kept, lines_left_out=more)
    return found
