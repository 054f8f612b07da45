"""Each statement of the index carries its evidence and how sure it is."""

from __future__ import annotations

from artifact_index.facts.claims import Claim
from artifact_index.ingestion.events import (
    Event,
    FileOperation,
    SessionInfo,
    ToolCall,
    ToolResult,
)
from artifact_index.presentation.render import errors_json, files_json
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.statements import claims
from artifact_index.trail.tracker import Tracker


def _call(
    turn: int, call_id: str, op: FileOperation, output: str = "", status: str = "success"
) -> list[Event]:
    tool = "Bash" if op.action == "shell" else "Edit"
    return [
        ToolCall(turn=turn, call_id=call_id, tool=tool, operations=(op,)),
        ToolResult(turn=turn, call_id=call_id, status=status, output=output),  # type: ignore[arg-type]
    ]


def _index() -> ArtifactIndex:
    events: list[Event] = [
        SessionInfo(turn=0, cwd="/repo"),
        *_call(1, "w1", FileOperation(action="write", path="/repo/a.py", content="x = 1\n")),
        *_call(2, "sh1", FileOperation(action="shell", command="touch b.py", source="shell")),
        *_call(3, "r1", FileOperation(action="read", path="/repo/c.py"), "     1\tc = 3\n"),
        ToolCall(
            turn=4,
            call_id="late",
            tool="Edit",
            operations=(FileOperation(action="edit", path="/repo/c.py", old="c = 3", new="c = 4"),),
        ),
        *_call(
            5,
            "t1",
            FileOperation(action="shell", command="pytest -q", source="shell"),
            "FAILED tests/test_a.py::test_x - AssertionError: boom\n1 failed in 0.1s\n",
            status="failure",
        ),
        *_call(
            6,
            "t2",
            FileOperation(action="shell", command="pytest -q", source="shell"),
            "2 passed in 0.1s\n",
        ),
    ]
    return Tracker(format="claude-code").feed_all(events)


def _by(kind: str, found: list[Claim]) -> dict[str, Claim]:
    return {claim.subject: claim for claim in found if claim.kind == kind}


def test_a_file_status_is_seen_from_a_call_inferred_from_a_command_and_unrecorded_while_a_call_waits() -> (
    None
):
    files = _by("file_status", claims(_index()))

    assert (files["a.py"].statement, files["a.py"].certainty) == ("created", "seen")
    assert [(e.call_id, e.turn) for e in files["a.py"].evidence] == [("w1", 1)]
    assert (files["b.py"].statement, files["b.py"].certainty) == ("created", "inferred")
    assert files["b.py"].evidence[0].command == "touch b.py"
    # Read, then an edit issued with no result recorded: "read" is what was seen, not the end of it.
    assert (files["c.py"].statement, files["c.py"].certainty) == ("read", "unrecorded")
    assert [e.call_id for e in files["c.py"].evidence] == ["r1", "late"]


def test_an_error_resolved_by_the_same_check_is_seen_with_the_runs_that_showed_and_resolved_it() -> (
    None
):
    [error] = [c for c in claims(_index()) if c.kind == "error_state"]

    assert error.statement == "resolved: the same check passed"
    assert error.certainty == "seen"
    assert [(e.turn, e.shows) for e in error.evidence] == [
        (5, "showed it first"),
        (6, "the same check passed"),
    ]


def test_a_test_count_says_what_it_counts() -> None:
    found = claims(_index())

    assert _by("test_state", found)["pytest -q"].statement == "passed"
    count = _by("count", found)["pytest -q"]
    assert count.statement == "2 passed, 0 failed, 0 skipped (tests)"
    assert [(e.call_id, e.turn) for e in count.evidence] == [("t2", 6)]


def test_the_claims_stay_out_of_the_json_contracts() -> None:
    index = _index()

    assert "certainty" not in str(files_json(index)) and "evidence" not in str(files_json(index))
    assert "certainty" not in str(errors_json(index))


def test_a_read_whose_result_the_transcript_ends_before_is_unrecorded() -> None:
    """The file ends before the output of a read: that the file was read is not seen."""
    events: list[Event] = [
        SessionInfo(turn=0, cwd="/repo"),
        *_call(1, "r1", FileOperation(action="read", path="/repo/a.py"), "a = 1\n"),
        ToolCall(
            turn=2,
            call_id="r2",
            tool="Read",
            operations=(FileOperation(action="read", path="/repo/b.py"),),
        ),
        ToolResult(turn=2, call_id="r2", status="unknown"),
    ]
    files = _by("file_status", claims(Tracker(format="codex").feed_all(events)))
    assert (files["a.py"].statement, files["a.py"].certainty) == ("read", "seen")
    assert files["b.py"].certainty == "unrecorded"


def _edit(turn: int, call_id: str, old: str, new: str) -> ToolCall:
    op = FileOperation(action="edit", path="/repo/app.ts", old=old, new=new)
    return ToolCall(turn=turn, call_id=call_id, tool="Edit", operations=(op,))


def test_an_edit_without_a_result_that_a_later_edit_shows_never_applied_leaves_the_file_seen() -> (
    None
):
    # The edit of `loading = true` got no result; a retry of the same text then succeeded, which
    # it could not have had the first applied.  The first stays listed as issued without a result.
    start = "export class App {\n  loading = true;\n}\n"
    events: list[Event] = [
        SessionInfo(turn=0, cwd="/repo"),
        *_call(1, "r1", FileOperation(action="read", path="/repo/app.ts"), start),
        _edit(2, "lost", "  loading = true;\n", "  loading = false;\n"),
        _edit(3, "retry", "  loading = true;\n", "  loading = false;\n"),
        ToolResult(turn=3, call_id="retry", status="success", output="updated"),
    ]
    index = Tracker(format="claude-code").feed_all(events)
    found = claims(index)
    assert (
        _by("file_status", found)["app.ts"].statement,
        _by("file_status", found)["app.ts"].certainty,
    ) == ("modified", "seen")
    assert [c.evidence[0].call_id for c in found if c.kind == "pending_call"] == ["lost"]


def test_an_edit_without_a_result_before_an_edit_of_other_text_leaves_the_file_unsure() -> None:
    start = "export class App {\n  loading = true;\n  error = '';\n}\n"
    events: list[Event] = [
        SessionInfo(turn=0, cwd="/repo"),
        *_call(1, "r1", FileOperation(action="read", path="/repo/app.ts"), start),
        _edit(2, "lost", "  loading = true;\n", "  loading = false;\n"),
        _edit(3, "other", "  error = '';\n", "  error = 'none';\n"),
        ToolResult(turn=3, call_id="other", status="success", output="updated"),
    ]
    files = _by("file_status", claims(Tracker(format="claude-code").feed_all(events)))
    assert files["app.ts"].certainty == "unrecorded"
