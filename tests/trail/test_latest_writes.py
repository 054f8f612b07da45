"""The text a file's latest change wrote, kept by the index: what a summary shows as the key code."""

from __future__ import annotations

from artifact_index.ingestion.events import (
    Event,
    FileOperation,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
)
from artifact_index.trail.file_reports import file_reports
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.latest_writes import WHOLE_FILE_LINES, LatestWrite
from artifact_index.trail.tracker import Tracker
from tests.support.session_steps import ROOT, edit, shell, write

CART = f"{ROOT}/shop/cart.py"


def _index(*steps: list[Event]) -> ArtifactIndex:
    events: list[Event] = [SessionInfo(turn=0, cwd=ROOT), UserMessage(turn=1, text="Fix it.")]
    for step in steps:
        events += step
    return Tracker(format="claude-code").feed_all(events)


def _latest(index: ArtifactIndex, path: str = "shop/cart.py") -> LatestWrite | None:
    return next(f.latest_write for f in file_reports(index) if f.path == path)


def _sub_agent_edit(turn: int, path: str, new: str) -> list[Event]:
    return [
        ToolCall(
            turn=turn,
            call_id="sub1",
            tool="Edit",
            arguments={"file_path": path},
            operations=(FileOperation(action="edit", path=path, old="a", new=new),),
            sidechain="agent-1",
        ),
        ToolResult(turn=turn, call_id="sub1", status="success", sidechain="agent-1"),
    ]


def test_an_edit_s_new_text_is_the_file_s_latest_write() -> None:
    index = _index(edit(2, CART, old="return 0", new="return sum(items)"))

    assert _latest(index) == LatestWrite(turn=2, text="return sum(items)")


def test_a_small_file_written_whole_is_its_text_and_a_large_one_says_none() -> None:
    small = "def total(items):\n    return sum(items)\n"
    large = "".join(f"line_{n} = {n}\n" for n in range(WHOLE_FILE_LINES + 1))
    index = _index(write(2, CART, small))
    assert _latest(index) == LatestWrite(turn=2, text=small)

    # A later change that cannot be shown makes the earlier text stale.
    index = _index(edit(2, CART, new="return sum(items)"), write(3, CART, large))
    assert _latest(index) == LatestWrite(turn=3, text=None)


def test_a_sub_agent_s_edit_a_failed_edit_and_a_shell_command_leave_the_latest_write() -> None:
    failed = edit(4, CART, new="return broken")
    failed[1] = ToolResult(turn=4, call_id=failed[1].call_id, status="failure")
    index = _index(
        edit(2, CART, new="return sum(items)"),
        _sub_agent_edit(3, CART, "return 0  # the helper's"),
        failed,
        shell(5, "sed -i 's/sum/math.fsum/' shop/cart.py"),
    )

    assert _latest(index) == LatestWrite(turn=2, text="return sum(items)")


def test_a_write_through_a_relative_path_is_the_file_s_latest_write() -> None:
    # The file is known by its key, however a call spelled its path.
    index = _index(edit(2, CART, new="return 1"), edit(3, "shop/cart.py", new="return 2"))

    assert _latest(index) == LatestWrite(turn=3, text="return 2")


def test_an_edit_that_only_took_lines_out_wrote_no_text() -> None:
    # What is left of a removed function (its comment) is not what the change wrote.
    removed = "# the total\ndef total(items):\n    return sum(items)\n"
    index = _index(
        edit(2, CART, old="return 0", new="return sum(items)"),
        edit(3, CART, old=removed, new="# the total\n"),
    )

    assert _latest(index) == LatestWrite(turn=3, text=None)
