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
            events.append(
                WorkingDirectory(
                    turn=turn, cwd=draw(st.sampled_from(["/repo", "src", "/repo/pkg"]))
                )
            )
        elif kind == "user":
            events.append(UserMessage(turn=turn, text="do it"))
        else:
            call_id = f"c{turn}"
            ops = tuple(draw(st.lists(operations, max_size=3)))
            events.append(ToolCall(turn=turn, call_id=call_id, tool="T", operations=ops))
            if draw(st.booleans()):
                reported = draw(
                    st.sampled_from(
                        [
                            None,
                            (ReportedChange(path="/repo/a.py", change="created"),),
                            (ReportedChange(path="src/d.py", change="deleted"),),
                        ]
                    )
                )
                events.append(
                    ToolResult(
                        turn=turn,
                        call_id=call_id,
                        status=draw(st.sampled_from(["success", "failure", "unknown"])),
                        reported=reported,
                    )
                )
    return events


@settings(max_examples=150, deadline=None)
@given(events=streams(), data=st.data())
def test_save_and_resume_at_any_point_gives_the_same_index(
    events: list[Event], data: st.DataObject
) -> None:
    whole = Tracker(format="claude-code").feed_all(events)

    cuts = sorted(data.draw(st.lists(st.integers(0, len(events)), max_size=3)))
    tracker = Tracker(format="claude-code")
    start = 0
    for cut in [*cuts, len(events)]:
        tracker.feed_all(events[start:cut])
        tracker = Tracker.resume(tracker.save())
        start = cut

    assert files_json(tracker.index) == files_json(whole)
    assert tracker.index.session == whole.session


@settings(max_examples=100, deadline=None)
@given(events=streams(), data=st.data())
def test_feeding_events_again_changes_nothing(events: list[Event], data: st.DataObject) -> None:
    once = Tracker(format="claude-code").feed_all(events)

    # A live reader that re-sends what it already sent, before and after a resume.
    replay_from = data.draw(st.integers(0, len(events)))
    tracker = Tracker(format="claude-code")
    tracker.feed_all(events)
    tracker.feed_all(events[replay_from:])
    tracker = Tracker.resume(tracker.save())
    tracker.feed_all(events)

    assert files_json(tracker.index) == files_json(once)
    assert tracker.index.session == once.session


def test_a_call_id_reused_in_a_later_response_is_a_new_call() -> None:
    # Some models number their calls call_0, call_1 ... in every response.
    events: list[Event] = [SessionInfo(turn=0, cwd="/repo")]
    for turn, path in ((1, "a.py"), (2, "b.py")):
        events += [
            ToolCall(
                turn=turn,
                call_id="call_0",
                tool="write_file",
                operations=(FileOperation(action="write", path=path, content="x"),),
            ),
            ToolResult(turn=turn, call_id="call_0", status="success"),
        ]
    index = Tracker(format="openai-chat").feed_all(events)
    assert [(f.path, f.status) for f in index.files()] == [("a.py", "created"), ("b.py", "created")]
