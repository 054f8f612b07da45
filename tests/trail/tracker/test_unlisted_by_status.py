"""Changed files a complete `git status` left out: each status looks again only at what may have moved."""

from __future__ import annotations

import pytest

from artifact_index.ingestion.events import Event, SessionInfo
from artifact_index.trail.graph import ArtifactGraph
from artifact_index.trail.tracker import Tracker
from tests.trail.tracker.test_work_state import edit, shell

_CLEAN = "On branch main\nnothing to commit, working tree clean\n"


def _status(*modified: str) -> str:
    if not modified:
        return _CLEAN
    lines = "".join(f"\tmodified:   {path}\n" for path in modified)
    return (
        "On branch main\nChanges not staged for commit:\n"
        '  (use "git add <file>..." to update what will be committed)\n\n'
        f"{lines}\nno changes added to commit\n"
    )


def _session() -> list[Event]:
    steps = [
        edit("/repo/a.py", 1),
        edit("/repo/b.py", 2),
        edit("/repo/c.py", 3),
        shell("git status", _status("a.py"), 4),  # b.py and c.py left out
        shell(
            "git add b.py && git commit -m 'B'",
            "[main 1a2b3c4] B\n 1 file changed, 1 insertion(+)\n",
            5,
        ),
        shell("git status", _CLEAN, 6),  # a.py left out too; b.py is held by the commit
        edit("/repo/c.py", 7),
        shell("git status", _status("c.py"), 8),  # c.py listed again
        edit("/repo/d.py", 9),
        edit("/repo/e.py", 9),
        shell("git status", _CLEAN, 10),  # d.py and e.py left out at once
    ]
    events: list[Event] = [SessionInfo(turn=0, cwd="/repo")]
    for step in steps:
        events += step
    return events


def _unlisted() -> list[tuple[str, int]]:
    index = Tracker(format="claude-code").feed_all(_session())
    return list(index.session.work.unlisted.items())


def test_each_status_notes_what_it_left_out_with_its_turn() -> None:
    # b.py keeps the turn of the status before its commit; a.py rides along with each later
    # status that leaves it out; c.py goes once listed, and comes back left out again with d.py
    # and e.py, the three in the order first touched.
    assert _unlisted() == [("b.py", 4), ("a.py", 10), ("c.py", 10), ("d.py", 10), ("e.py", 10)]


def test_looking_again_only_at_what_moved_gives_what_looking_at_every_file_gives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    incremental = _unlisted()
    # Growth not followed: every status looks at every file.
    monkeypatch.setattr(ArtifactGraph, "take_file_growth", lambda self: None)
    assert _unlisted() == incremental
