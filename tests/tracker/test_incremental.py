"""The tracker is incremental: any split with save/resume gives the same index."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from artifact_index.ingestion.events import (
    Event,
    FileOperation,
    ReportedChange,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
    WorkingDirectory,
)
from artifact_index.presentation.render import files_json
from artifact_index.trail.tracker import Tracker

PATHS = ["a.py", "/repo/a.py", "src/b.py", "../c.py", "/tmp/x", "pkg/"]
ACTIONS = ["read", "write", "create", "edit", "delete", "move", "copy", "undo", "restore"]

operations = st.builds(
    FileOperation,
    action=st.sampled_from(ACTIONS),
    path=st.sampled_from(PATHS),
    dest=st.sampled_from([*PATHS, None]),
    content=st.sampled_from([None, "x", "y"]),
    old=st.sampled_from([None, "x"]),
    new=st.sampled_from([None, "y"]),
)


@st.composite
def streams(draw: st.DrawFn) -> list[Event]:
    events: list[Event] = [SessionInfo(turn=0, cwd="/repo")]
    for turn in range(1, draw(st.integers(1, 12)) + 1):
        kind = draw(st.sampled_from(["call", "call", "call", "cwd", "user"]))
        if kind == "cwd":
            events.append(WorkingDirectory(turn=turn, cwd=draw(st.sampled_from(["/repo", "src", "/repo/pkg"]))))
        elif kind == "user":
            events.append(UserMessage(turn=turn, text="do it"))
        else:
            call_id = f"c{turn}"
            ops = tuple(draw(st.lists(operations, max_size=3)))
            events.append(ToolCall(turn=turn, call_id=call_id, tool="T", operations=ops))
            if draw(st.booleans()):
                reported = draw(st.sampled_from([
                    None, (ReportedChange(path="/repo/a.py", change="created"),),
                    (ReportedChange(path="src/d.py", change="deleted"),),
                ]))
                events.append(ToolResult(turn=turn, call_id=call_id,
                                         status=draw(st.sampled_from(["success", "failure", "unknown"])),
                                         reported=reported))
    return events


@settings(max_examples=150, deadline=None)
@given(events=streams(), data=st.data())
def test_save_and_resume_at_any_point_gives_the_same_index(events: list[Event], data: st.DataObject) -> None:
    whole = Tracker(format="claude-code").feed_all(events)

    cuts = sorted(data.draw(st.lists(st.integers(0, len(events)), max_size=3)))
    tracker = Tracker(format="claude-code")
    start = 0
    for cut in [*cuts, len(events)]:
        tracker.feed_all(events[start:cut])
        tracker = Tracker.resume(tracker.save())
        start = cut

    assert files_json(tracker.index) == files_json(whole)
    assert tracker.index.meta == whole.meta
