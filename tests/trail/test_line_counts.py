"""A modified file's line counts are those of the shortest diff, as git counts them."""

from __future__ import annotations

import pytest

from artifact_index.ingestion.events import Event, SessionInfo
from artifact_index.trail.file_reports import file_reports
from artifact_index.trail.index import _fewest_edits
from artifact_index.trail.tracker import Tracker
from tests.support.session_steps import ROOT, read, write


def _counts(before: str, after: str) -> tuple[int | None, int | None]:
    events: list[Event] = [SessionInfo(turn=0, cwd=ROOT)]
    events += read(1, f"{ROOT}/notes.txt", before)
    events += write(2, f"{ROOT}/notes.txt", after)
    index = Tracker(format="claude-code").feed_all(events)
    [report] = [f for f in file_reports(index) if f.path == "notes.txt"]
    return report.lines_added, report.lines_removed


def test_the_counts_keep_every_line_a_shortest_diff_keeps() -> None:
    # difflib anchors on a line and loses the other: it counts +2/-2 where one line went and one came.
    assert _counts("b\nc\nb\n", "c\na\nb\n") == (1, 1)


def test_a_change_with_nothing_in_common_counts_every_line() -> None:
    assert _counts("one\ntwo\n", "three\n") == (1, 2)


def test_a_missing_final_newline_is_a_change_of_the_last_line() -> None:
    assert _counts("a\nb", "a\nb\n") == (1, 1)


@pytest.mark.parametrize(
    ("old", "new", "fewest"),
    [("abc", "abc", 0), ("abc", "", 3), ("", "ab", 2), ("bcb", "cab", 2), ("abcabba", "cbabac", 5)],
)
def test_the_fewest_edits_are_myers_distance(old: str, new: str, fewest: int) -> None:
    assert _fewest_edits(list(old), list(new), 20) == fewest


def test_the_search_gives_up_past_its_bound() -> None:
    assert _fewest_edits(list("abcdef"), list("uvwxyz"), 5) is None
