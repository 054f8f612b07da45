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

What a ``git pull`` or ``git merge`` only brought in is committed by the
merge: no status lists it, and a switch to another branch than the one it
was merged into leaves it there, whatever a later status shows.
"""

from __future__ import annotations

from collections.abc import Sequence

from artifact_index.trail.answers import FileReport, LeftBehind, WorkReport
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.session_state import BranchSwitch

__all__ = ["left_behind"]


def left_behind(
    index: ArtifactIndex, changed: Sequence[FileReport], work: WorkReport
) -> list[LeftBehind]:
    """The ``changed`` files left on a branch the session switched away from, by the last switch after each.

    ``changed`` and ``work`` are the index's own answers (:func:`file_reports`,
    :func:`work_state`), passed in by a caller that has them already.
    """
    switches = index.session.work.switches
    if not switches:
        return []
    status = work.status
    listed_at = status.turn if status is not None else -1
    not_shown = set(status.not_shown) if status is not None else set()
    committed = {path for commit in work.commits for path in commit.files or []}
    left: list[LeftBehind] = []
    for f in changed:
        if not f.changed_turns:
            continue
        last = max(f.changed_turns)
        if f.brought_in is not None:
            away = _switched_away(switches, last)
        elif f.status == "modified" and f.path in not_shown and f.path not in committed:
            away = _switched_away([s for s in switches if s.turn <= listed_at], last)
        else:
            continue
        if away is not None:
            left.append(LeftBehind(path=f.path, switch_turn=away.turn, branch=away.branch))
    return left


def _switched_away(switches: Sequence[BranchSwitch], turn: int) -> BranchSwitch | None:
    """The last switch after ``turn``, unless it went back to the branch the session was on at ``turn``.

    A new branch made where HEAD is (`git switch -c topic`) takes the working tree along: it
    leaves nothing behind, and it names the branch the session is on from then.
    """
    before = [s for s in switches if s.turn <= turn]
    after = [s for s in switches if s.turn > turn and not s.from_head]
    if not after or (before and after[-1].branch == before[-1].branch):
        return None
    return after[-1]
