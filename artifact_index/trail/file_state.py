"""What the trail knows of one file, and how each kind of change moves it.

A :class:`FileState` says whether the file existed before the session,
whether it exists now, whether the session changed or read it, its content
when known (or the partial windows reads showed of it), its content before
the session's first change, and how many changes deep it is.  Its methods
are the transitions; the tracker decides which one an operation makes
(:meth:`~artifact_index.trail.tracker.Tracker._apply`), and the net status
the JSON contract shows is :attr:`FileState.status`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from artifact_index.ingestion.events import FileOperation
from artifact_index.ingestion.patches import apply_hunks
from artifact_index.redaction import holds_redactions, redact_text
from artifact_index.shell.git import STASHED, STASHED_WITH_UNTRACKED
from artifact_index.trail.edit_shapes import EditShape, undoes
from artifact_index.trail.latest_writes import LatestWrite

__all__ = [
    "CHANGED_STATUSES",
    "FileSnapshot",
    "FileState",
    "FileStatus",
    "Window",
    "is_stash",
]

FileStatus = Literal["created", "modified", "deleted", "read", "reverted"]
CHANGED_STATUSES: frozenset[str] = frozenset({"created", "modified", "deleted"})

# Part of a file a read showed: its first line number and its lines.
Window = tuple[int, list[str]]


class FileSnapshot(BaseModel):
    """What ``git stash`` puts away of a file: enough to bring its state back."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    exists: bool | None
    changed: bool
    restored: bool
    depth: int
    content: str | None
    windows: list[Window]


class FileState(BaseModel):
    """One file's state at this point of the session; the tracker changes it through its methods."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    path: str  # the file's key (relative to the root when under it)
    display: str | None = None  # the path as the transcript spelled it, when the key is not
    first_seq: int  # the operation that first touched it
    existed_before: bool | None = None  # None: not known
    exists: bool | None = None
    changed: bool = False
    read: bool = False
    restored: bool = False  # changed, then back to what it held before the session
    sources: list[str] = Field(default_factory=list)
    renamed_from: str | None = None
    depth: int = 0  # changes not undone (an undo goes back one)
    content: str | None = None  # the whole content now, when known
    original: str | None = None  # the content before the session's first change, when known
    windows: list[Window] = Field(default_factory=list)  # partial reads, while content is unknown
    # The turn of a whole read that showed other content than the trail knew, the session having
    # changed nothing: something it did not follow changed the file (a tool, a server, a person).
    changed_unseen_turn: int | None = None
    # The text the main agent's latest change by a file tool wrote (see trail.latest_writes).
    latest_write: LatestWrite | None = None
    # The command that may have made it again after its deletion (see made_again), until it changes.
    made_again_by: str | None = None
    # The exactly placed edits since it was last as before the session, while every change since
    # was one (see trail.edit_shapes); None once another kind of change came between.
    edit_trail: list[EditShape] | None = Field(default_factory=list)

    # -- what it is -------------------------------------------------------------
    @property
    def shown(self) -> str:
        """The path users see."""
        return self.display or self.path

    @property
    def status(self) -> FileStatus | None:
        """Net status (see the contract in design.md); None when only failed or pending calls touched it."""
        if not self.changed:
            return "read" if self.read else None
        if self.restored:
            return "reverted"
        if self.existed_before is False:
            return "created" if self.exists is not False else "reverted"
        return "deleted" if self.exists is False else "modified"

    def is_fresh(self) -> bool:
        """Nothing is known of it yet: not changed, not read, not known to predate the session."""
        return not self.changed and not self.read and self.existed_before is None

    def is_new(self) -> bool:
        """A write now would create it: nothing says it was there before."""
        return self.existed_before is None and not self.changed and not self.read

    # -- transitions ---------------------------------------------------------------
    def mark_existing(self) -> None:
        """The file was there when an operation touched it (read, edited, deleted)."""
        if self.existed_before is None and not self.changed:
            self.existed_before = True
        if self.exists is None:
            self.exists = True

    def made_by_session(self) -> None:
        """Taken to predate the session, it turns out a command of the session made it: created.

        What it held before its first change by name is what that command wrote, not
        an original from before the session.
        """
        self.existed_before = False
        self.exists = True
        self.restored = False

    def add_source(self, source: str) -> None:
        if source not in self.sources:
            self.sources = sorted([*self.sources, source])

    def begin_change(self, known_before: str | None) -> None:
        """Before a change: what the harness said the file held, and the original at the first change."""
        self.made_again_by = None
        if self.content is None and known_before is not None:
            self.content = known_before
        if not self.changed:
            self.original = self.content

    def was_read(self, source: str) -> None:
        self.mark_existing()
        self.read = True
        self.add_source(source)

    def written(self, content: str | None) -> None:
        """A whole-file write: it exists with ``content`` (created when nothing said it was there)."""
        if self.is_new():
            self.existed_before = False
        self.content = content
        self.exists = True

    def edited(self, op: FileOperation, shape: EditShape | None) -> bool:
        """An edit; whether it undid the exactly placed edit before it (see trail.edit_shapes)."""
        self.mark_existing()
        self.exists = True
        self.edit_content(op)
        trail = self.edit_trail
        if shape is not None and trail and undoes(shape, trail[-1]):
            trail.pop()
            self.depth = max(0, self.depth - 1)
            if self.depth == 0 and self.original is not None and self.content is None:
                self.content = self.original
            return True
        if shape is not None and trail is not None:
            trail.append(shape)
        else:
            self.edit_trail = None
        return False

    def deleted(self) -> None:
        self.mark_existing()
        self.gone()

    def gone(self) -> None:
        """It no longer exists (deleted, moved away, stashed when untracked)."""
        self.exists = False
        self.content = None

    def made_again(self, by: str | None = None) -> None:
        """Deleted, and then something the trail does not follow made it again: it is there now.

        A build refills the folder ``rm -rf build`` emptied, a generator rewrites
        the folder removed just before it ran, a later read shows the file. What
        it holds now is not known; one that predates the session is taken as
        put back (the build makes what was there), one the session made is there.
        """
        self.exists = True
        self.content = None
        self.windows = []
        self.made_again_by = by
        self.edit_trail = None
        if self.existed_before:
            self.restored = True
            self.depth = 0
            self.edit_trail = []

    def back_as_shown(self) -> None:
        """After :meth:`made_again` by a read: put back only when the read showed what it held before."""
        if self.existed_before and not (
            self.content is not None and self.original is not None and self.content == self.original
        ):
            self.restored = False
            self.depth = 1
            self.edit_trail = None

    def undone(self) -> None:
        """One change undone (``undo_edit``); back to the original when none is left."""
        self.mark_existing()
        self.depth = max(0, self.depth - 1)
        if self.edit_trail:
            self.edit_trail.pop()
        if self.depth == 0:
            self.content = self.original
            self.edit_trail = []

    def arrived(self, content: str | None) -> None:
        """The destination of a move or copy: it exists now with the source's content."""
        if self.is_new():
            self.existed_before = False
        self.exists = True
        self.changed = True
        self.depth += 1
        self.content = content
        self.edit_trail = None

    def came_back(self, content: str | None) -> None:
        """Moved away and moved back unchanged: as it was before it left, one change shallower."""
        self.exists = True
        self.content = content
        self.depth = max(0, self.depth - 1)
        self.edit_trail = [] if self.depth == 0 else None
        self.update_restored()

    def wrote(self, latest: LatestWrite) -> None:
        """The main agent's file tool changed it: what that change wrote is now its latest text."""
        self.latest_write = latest

    def end_change(self, *, deeper: bool, traced: bool = False) -> None:
        """After a change: it is changed, one change deeper (not for an undo), perhaps back to its original.

        ``traced``: the change was an exactly placed edit :meth:`edited` kept in the edit trail.
        """
        self.changed = True
        if deeper:
            self.depth += 1
            if not traced:
                self.edit_trail = None
        self.update_restored()

    def mark_restored(self) -> None:
        """Back to what it held before the session (``git checkout``, ``git stash``)."""
        self.restored = True
        self.depth = 0
        self.exists = True
        self.content = self.original
        self.edit_trail = []

    def update_restored(self) -> None:
        """Whether the file's changes have been undone, by content or by depth."""
        back_to_original = self.original is not None and self.content == self.original
        self.restored = bool(
            self.existed_before and self.exists and (back_to_original or self.depth == 0)
        )

    def snapshot(self) -> FileSnapshot:
        return FileSnapshot(
            exists=self.exists,
            changed=self.changed,
            restored=self.restored,
            depth=self.depth,
            content=self.content,
            windows=[(start, list(lines)) for start, lines in self.windows],
        )

    def bring_back(self, saved: FileSnapshot) -> None:
        """A stash popped: the state it put away."""
        self.exists, self.changed, self.restored = saved.exists, saved.changed, saved.restored
        self.depth, self.content = saved.depth, saved.content
        self.edit_trail = [] if saved.depth == 0 else None
        self.windows = [(start, list(lines)) for start, lines in saved.windows]

    # -- content ---------------------------------------------------------------------
    def showed(self, start: int, lines: list[str]) -> None:
        """A read showed part of the file (kept while the whole content is unknown)."""
        windows = [w for w in self.windows if w[0] != start]
        self.windows = sorted([*windows, (start, lines)])

    def showed_whole(self, content: str) -> None:
        self.content = content
        self.windows = []

    def edit_content(self, op: FileOperation) -> None:
        """Apply an edit to the known content; when it cannot be applied exactly, the content is unknown.

        Without full content, a string replacement is applied to the partial
        windows that hold its old text, so they stay true for later edits.
        """
        content = self.content
        self.content = None
        if content is None:
            if op.old and op.new is not None:
                windows: list[Window] = []
                for start, lines in self.windows:
                    text = "\n".join(lines) + "\n"
                    replaced = _replace(text, op.old, op.new, 1)
                    if replaced is not None:
                        lines = replaced.removesuffix("\n").split("\n")
                    windows.append((start, lines))
                self.windows = windows
            return
        # What it held before a change that cannot be applied (a formatter's, a script's) stays a
        # window: a later edit whose text it holds is placed in its definitions by it.
        self.windows = [(1, content.removesuffix("\n").split("\n"))]
        if op.old is not None and op.new is not None:
            self.content = _replace(content, op.old, op.new, -1 if op.replace_all else 1)
        elif op.diff:
            self.content = apply_hunks(content, op.diff)
        elif op.new is not None and op.start_line is not None:
            lines = content.splitlines(keepends=True)
            new_lines = op.new.splitlines(keepends=True)
            if new_lines and not new_lines[-1].endswith("\n"):
                new_lines[-1] += "\n"
            if op.detail == "insert" and 0 <= op.start_line <= len(lines):
                lines[op.start_line : op.start_line] = new_lines
            elif (
                op.end_line is not None and 1 <= op.start_line <= op.end_line + 1 <= len(lines) + 1
            ):
                lines[op.start_line - 1 : op.end_line] = new_lines
            else:
                return
            self.content = "".join(lines)
        if self.content is not None:
            self.windows = []

    def window_holding(self, *texts: str | None) -> str | None:
        """The text of a partial window that holds one of ``texts``."""
        for text in texts:
            if text and text.strip():
                for _, lines in self.windows:
                    window = "\n".join(lines) + "\n"
                    if text in window:
                        return window
        return None


def _replace(content: str, old: str, new: str, count: int) -> str | None:
    """``content`` with ``old`` replaced by ``new``, or None when ``old`` is not in it.

    A resumed state holds contents redacted (see :mod:`artifact_index.redaction`);
    an edit of a line that held a secret then matches once redacted the same way.
    """
    if old in content:
        return content.replace(old, new, count)
    if not holds_redactions(content):
        # The common miss: nothing to match redacted (and redacting ``old`` costs
        # the first miss of a run the import of every secret detector).
        return None
    redacted_old = redact_text(old)
    if redacted_old != old and redacted_old in content:
        return content.replace(redacted_old, redact_text(new), count)
    return None


def is_stash(detail: str | None) -> bool:
    """Whether a restore is a ``git stash``."""
    return detail in (STASHED, STASHED_WITH_UNTRACKED)
