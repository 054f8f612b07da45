"""The key code of a file's latest change: the new text its last edit wrote, bounded.

"``render_page`` modified" tells the agent that continues what was touched;
the lines the last edit wrote tell it what the code is now, without
reopening the file.  For the files the current thread changed, the last
successful call that changed each one is found among the events and its
new text kept: the replacement text of an edit, the added lines of a patch
hunk, a small file written whole.  A large file written whole is said by
its definitions (Files Changed names their signatures), not pasted.
"""

from __future__ import annotations

from collections.abc import Sequence

from artifact_index.ingestion.events import Event, FileOperation, ToolCall, ToolResult
from artifact_index.trail.answers import FileReport
from summarizer.sections.summary_facts import LatestCode

__all__ = ["latest_code"]

_MAX_LINES = 16  # what is kept of one change: the reader sees the shape, the file has the rest
_MAX_CHARS = 480
_WHOLE_FILE_LINES = 16  # a file written whole is shown only when it is this small


def _same_file(path: str | None, report_path: str) -> bool:
    """An operation's path names the report's file: the same key, or an absolute path ending in it."""
    if path is None:
        return False
    return path == report_path or path.endswith("/" + report_path.lstrip("/"))


def _new_text(op: FileOperation) -> str | None:
    """What the operation wrote, when it says and it is small enough to be the change itself."""
    if op.action == "edit":
        if op.new is not None:
            return op.new
        if op.diff is not None:
            added = [
                line[1:]
                for line in op.diff.splitlines()
                if line.startswith("+") and not line.startswith("+++")
            ]
            return "\n".join(added) if added else None
        return None
    if op.action in ("write", "create") and op.content is not None:
        lines = op.content.strip("\n").splitlines()
        return op.content if len(lines) <= _WHOLE_FILE_LINES else None
    return None


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


def latest_code(events: Sequence[Event], files: Sequence[FileReport]) -> dict[str, LatestCode]:
    """The new text of the last successful change of each of ``files``, by path (files it cannot say left out)."""
    wanted = {f.path: max(f.changed_turns) for f in files if f.changed_turns}
    if not wanted:
        return {}
    failed = {e.call_id for e in events if isinstance(e, ToolResult) and e.status == "failure"}
    found: dict[str, LatestCode] = {}
    for event in events:
        if not isinstance(event, ToolCall) or event.sidechain is not None:
            continue
        if event.call_id in failed:
            continue
        for op in event.operations:
            if op.action in ("read", "unknown", "copy"):
                continue
            for path, last in wanted.items():
                if event.turn > last or not _same_file(op.path, path):
                    continue
                text = _new_text(op)
                if text is None or not text.strip():
                    # A later change that cannot be shown makes an earlier one stale.
                    found.pop(path, None)
                    continue
                kept, more = _bounded(text)
                found[path] = LatestCode(turn=event.turn, text=kept, lines_left_out=more)
    return found
