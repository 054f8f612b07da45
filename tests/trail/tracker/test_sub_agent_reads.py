"""A sub-agent's read cannot be placed among the main agent's changes: it never undoes them."""

from __future__ import annotations

from artifact_index.ingestion.events import Event, SessionInfo, ToolCall, ToolResult, UserMessage
from artifact_index.trail.answers import FileReport
from artifact_index.trail.file_reports import file_reports
from artifact_index.trail.tracker import Tracker
from tests.support.session_steps import ROOT, edit, read

CART = f"{ROOT}/shop/cart.py"
BEFORE = "def total(items):\n    return 0\n"


def _by_sub_agent(events: list[Event]) -> list[Event]:
    return [
        e.model_copy(update={"sidechain": "agent-1"}) if isinstance(e, ToolCall | ToolResult) else e
        for e in events
    ]


def _report(*steps: list[Event]) -> FileReport:
    events: list[Event] = [SessionInfo(turn=0, cwd=ROOT), UserMessage(turn=1, text="Fix it.")]
    for step in steps:
        events += step
    index = Tracker(format="claude-code").feed_all(events)
    return next(f for f in file_reports(index) if f.path == "shop/cart.py")


def test_a_sub_agent_read_of_the_old_text_after_an_edit_does_not_make_it_no_change() -> None:
    # A sub-agent started before the edit, its records written after it: it shows the old text.
    report = _report(
        read(2, CART, BEFORE),
        edit(3, CART, old="return 0", new="return sum(items)"),
        _by_sub_agent(read(4, CART, BEFORE)),
    )
    assert report.status == "modified"
    assert (report.lines_added, report.lines_removed) != (0, 0)


def test_the_main_agent_s_own_read_is_still_the_current_text() -> None:
    report = _report(
        read(2, CART, BEFORE),
        edit(3, CART, old="return 0", new="return sum(items)"),
        read(4, CART, "def total(items):\n    return sum(items)\n"),
    )
    assert (report.lines_added, report.lines_removed) == (1, 1)
