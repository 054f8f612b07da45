"""Other checkouts the session worked in: a file there is the project's work, not a scratch file.

A path outside the workspace is usually the agent's working material (a
temp file, a plan under ``~/.claude``), said briefly after the project's
changes.  But a session that works in a git worktree (``git worktree add
../feature``) or a neighbouring repository its git commands ran in changes
real project files there: those are described like the workspace's, with
the checkout they are in.
"""

from __future__ import annotations

import posixpath

from artifact_index.trail.paths import is_absolute
from summarizer.sections.summary_facts import SessionFacts

__all__ = ["Checkouts"]


class Checkouts:
    """The other checkouts of a session, by absolute folder, each with the name the Work State gives it."""

    def __init__(self, facts: SessionFacts) -> None:
        self._folders: list[tuple[str, str]] = []
        for other in facts.work.elsewhere:
            folder = other.path
            if not is_absolute(folder):
                if facts.root is None or not is_absolute(facts.root):
                    continue  # relative to a start that is unknown
                folder = posixpath.normpath(posixpath.join(facts.root, folder))
            kind = "the git worktree" if other.worktree else "the other checkout"
            self._folders.append((folder.rstrip("/") + "/", f"{kind} `{other.path}`"))

    def of(self, path: str) -> str | None:
        """The checkout ``path`` lies in ("the git worktree `../fix`"), by the name the Work State gives it; None
        when in none."""
        for folder, name in self._folders:
            if path.startswith(folder):
                return name
        return None

    def outside(self, path: str) -> bool:
        """Whether ``path`` is outside the workspace and outside every other checkout the session worked in."""
        return is_absolute(path) and self.of(path) is None
