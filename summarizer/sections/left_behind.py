"""Changes left on a branch the session switched away from: not changes of the working tree now.

"Let's abandon the current branch and create a new one from main" leaves
the edits made on the old branch there.  The trail still knows them, and
read as a list of changed files they look like the work in hand.  A changed
file is left behind when the session switched branches (``git checkout``,
``git switch``: "Switched to branch 'main'") after its last change, and the
latest ``git status`` after the switch no longer lists it, and no commit of
the session holds it (committed on the old branch by a hook or outside the
session, or stashed: git carries uncommitted edits across a switch).  Only a
modified file counts: a new file git does not list is most often ignored,
and a switch carries an untracked file along; a status that omits a file
with no switch in between says nothing here either.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from artifact_index.ingestion.events import Event, ToolResult
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.answers import FileReport, WorkReport
from summarizer.sections.summary_facts import LeftBehind

__all__ = ["left_behind"]

_SWITCHED = lazy_pattern(r"^Switched to (?:a new )?branch '(?P<branch>[^']+)'", re.M)


def left_behind(
    events: Sequence[Event], changed: Sequence[FileReport], work: WorkReport
) -> list[LeftBehind]:
    """The changed files left on a branch the session switched away from, by the last switch after each."""
    status = work.status
    if status is None or not status.not_shown:
        return []
    switches = [
        (event.turn, found["branch"])
        for event in events
        if isinstance(event, ToolResult)
        and event.sidechain is None
        and event.status == "success"
        and event.turn <= status.turn
        and (found := _SWITCHED.search(event.output)) is not None
    ]
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
        after = [(turn, branch) for turn, branch in switches if turn > max(f.changed_turns)]
        if after:
            left.append(LeftBehind(path=f.path, switch_turn=after[-1][0], branch=after[-1][1]))
    return left
