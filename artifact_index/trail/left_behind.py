"""Changes left on a branch the session switched away from: not changes of the working tree now.

"Let's abandon the current branch and create a new one from main" leaves
the edits made on the old branch there.  The trail still knows them, and
read as a list of changed files they look like the work in hand.  A changed
file is left behind when the session switched branches (a ``git checkout``
or ``git switch`` of the workspace that printed "Switched to branch
'main'", see :class:`~artifact_index.trail.session_state.BranchSwitch`)
after its last change, and the latest ``git status`` after the switch no
longer lists it, and no commit of the session holds it (committed on the
old branch by a hook or outside the session, or stashed: git carries
uncommitted edits across a switch).  Only a modified file counts: a new
file git does not list is most often ignored, and a switch carries an
untracked file along; a status that omits a file with no switch in between
says nothing here either.
"""

from __future__ import annotations

from collections.abc import Sequence

from artifact_index.trail.answers import FileReport, LeftBehind, WorkReport
from artifact_index.trail.index import ArtifactIndex

__all__ = ["left_behind"]


def left_behind(
    index: ArtifactIndex, changed: Sequence[FileReport], work: WorkReport
) -> list[LeftBehind]:
    """The ``changed`` files left on a branch the session switched away from, by the last switch after each.

    ``changed`` and ``work`` are the index's own answers (:func:`file_reports`,
    :func:`work_state`), passed in by a caller that has them already.
    """
    status = work.status
    if status is None or not status.not_shown:
        return []
    switches = [s for s in index.session.work.switches if s.turn <= status.turn]
    if not switches:
        return []
    committed = {path for commit in work.commits for path in commit.files or []}
    left: list[LeftBehind] = []
    for f in changed:
        if (
            f.status != "modified"
            or f.path not in status.not_shown
            or f.path in committed
            or not f.changed_turns
        ):
            continue
        after = [s for s in switches if s.turn > max(f.changed_turns)]
        if after:
            left.append(
                LeftBehind(path=f.path, switch_turn=after[-1].turn, branch=after[-1].branch)
            )
    return left
