"""The text a file's latest change wrote, kept on its state so a reader need not find the change again.

"``render_page`` modified" tells the agent that continues what was touched;
the lines the last change wrote tell it what the code is now, without
reopening the file.  The tracker keeps, for each file, the new text of the
last change the main agent made to it with a file tool: the replacement
text of an edit, the added lines of a patch hunk, a small file written
whole.  A change whose text it cannot give (a large file written whole, an
edit that only took lines out, a delete, a move, an undo) leaves none, so
an older text never stands for it.  A sub-agent's changes and shell commands leave the text as it was:
they say what they did by their commands, not by a text written.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from artifact_index.ingestion.events import FileOperation

__all__ = ["WHOLE_FILE_LINES", "LatestWrite", "shows_text", "written_text"]

# A file written whole is its new text only when it is this small: a larger one is told by
# its definitions, not pasted.
WHOLE_FILE_LINES = 16
# What shows no new text, and so neither sets nor clears the latest one.
_NOT_CHANGES = frozenset({"read", "unknown", "copy", "shell"})


class LatestWrite(BaseModel):
    """The latest change of a file by a file tool of the main agent: its turn and the new text it wrote.

    ``text`` is None when that change wrote no text that can be shown.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    turn: int
    text: str | None


def shows_text(op: FileOperation) -> bool:
    """Whether ``op`` is a change whose text (or lack of one) becomes the file's latest write."""
    return op.path is not None and op.action not in _NOT_CHANGES


def _only_removes(old: str | None, new: str) -> bool:
    """Whether an edit only took lines out: each line it leaves was already in the text it replaced.

    What is left of a removed function (the comment above it, a closing brace) is not what the change
    wrote: shown as "the latest change", it would tell the reader the opposite of what happened.
    """
    if old is None:
        return False
    kept = {line.strip() for line in new.splitlines() if line.strip()}
    return kept <= {line.strip() for line in old.splitlines()}


def written_text(op: FileOperation) -> str | None:
    """What the operation wrote, when it says and it is small enough to be the change itself; None when blank."""
    text: str | None = None
    if op.action == "edit":
        if op.new is not None and not _only_removes(op.old, op.new):
            text = op.new
        elif op.diff is not None:
            added = [
                line[1:]
                for line in op.diff.splitlines()
                if line.startswith("+") and not line.startswith("+++")
            ]
            text = "\n".join(added) if added else None
    elif op.action in ("write", "create") and op.content is not None:
        lines = op.content.strip("\n").splitlines()
        text = op.content if len(lines) <= WHOLE_FILE_LINES else None
    return text if text is not None and text.strip() else None
