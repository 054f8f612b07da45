"""Net file status, per the contract in design.md."""

from __future__ import annotations

from artifact_index.ingestion.events import Event, ReportedChange, WorkingDirectory
from artifact_index.ingestion.events import FileOperation as Op
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.tracker import Tracker

from .conftest import Call


def index_of(events: list[Event], fmt: str = "claude-code") -> ArtifactIndex:
    return Tracker(format=fmt).feed_all(events)


def statuses(events: list[Event]) -> dict[str, str | None]:
    return {f.path: f.status for f in index_of(events).files()}


def test_read_write_edit_delete(session: list[Event], call: Call) -> None:
    events = session + [
        *call(Op(action="read", path="/repo/src/a.py"), tool="Read"),
        *call(Op(action="edit", path="/repo/src/a.py", old="x", new="y")),
        *call(
            Op(action="write", path="/repo/tests/test_a.py", content="def test(): pass\n"),
            tool="Write",
        ),
        *call(Op(action="read", path="/repo/README.md"), tool="Read"),
        *call(Op(action="delete", path="/repo/old.py"), tool="delete_file"),
        *call(Op(action="read", path="/etc/hosts"), tool="Read"),
    ]
    assert statuses(events) == {
        "src/a.py": "modified",
        "tests/test_a.py": "created",
        "README.md": "read",
        "old.py": "deleted",
        "/etc/hosts": "read",
    }


def test_failed_edit_never_changes_a_file(session: list[Event], call: Call) -> None:
    events = session + [
        *call(
            Op(action="edit", path="/repo/a.py", old="x", new="y"),
            status="failure",
            failure="not_read",
        ),
        *call(
            Op(action="write", path="/repo/b.py", content="b"),
            tool="Write",
            status="failure",
            failure="rejected",
        ),
    ]
    index = index_of(events)
    assert index.changed_files() == []
    assert {f.path: f.status for f in index.files()} == {"a.py": None, "b.py": None}
    assert [op.failure for op in index.history("a.py")] == ["not_read"]


def test_a_failed_edit_proves_the_file_existed(session: list[Event], call: Call) -> None:
    events = session + [
        *call(
            Op(action="edit", path="/repo/a.py", old="x", new="y"),
            status="failure",
            failure="not_read",
        ),
        *call(Op(action="write", path="/repo/a.py", content="new"), tool="Write"),
    ]
    assert statuses(events) == {"a.py": "modified"}


def test_created_then_deleted_is_reverted(session: list[Event], call: Call) -> None:
    events = session + [
        *call(Op(action="create", path="/repo/tmp.py", content="x")),
        *call(Op(action="delete", path="/repo/tmp.py")),
    ]
    assert statuses(events) == {"tmp.py": "reverted"}


def test_edit_back_to_the_original_content_is_reverted(session: list[Event], call: Call) -> None:
    events = session + [
        *call(
            Op(action="write", path="/repo/a.py", content="one\n"),
            tool="Write",
            reported=(ReportedChange(path="/repo/a.py", change="modified"),),
        ),
        *call(Op(action="edit", path="/repo/a.py", old="one", new="two")),
    ]
    assert statuses(events) == {"a.py": "modified"}


def test_restore_reverts_a_tracked_file_but_not_an_untracked_one(
    session: list[Event], call: Call
) -> None:
    events = session + [
        *call(Op(action="edit", path="/repo/a.py", old="x", new="y")),
        *call(Op(action="create", path="/repo/new.py", content="n")),
        *call(
            Op(action="restore", path="/repo/a.py", source="shell", command="git checkout -- a.py"),
            tool="Bash",
        ),
        *call(
            Op(
                action="restore",
                path="/repo/new.py",
                source="shell",
                command="git checkout -- new.py",
            ),
            tool="Bash",
        ),
    ]
    assert statuses(events) == {"a.py": "reverted", "new.py": "created"}


def test_restore_of_the_whole_worktree(session: list[Event], call: Call) -> None:
    events = session + [
        *call(Op(action="edit", path="/repo/a.py", old="x", new="y")),
        *call(Op(action="edit", path="/repo/b.py", old="x", new="y")),
        *call(Op(action="restore", source="shell", command="git stash"), tool="Bash"),
        *call(Op(action="edit", path="/repo/b.py", old="x", new="z")),
    ]
    assert statuses(events) == {"a.py": "reverted", "b.py": "modified"}


def _git(call: Call, command: str) -> list[Event]:
    return call(Op(action="shell", command=command, source="shell"), tool="Bash")


def test_stash_pop_brings_back_what_the_stash_put_away(session: list[Event], call: Call) -> None:
    edits = session + [
        *call(
            Op(action="write", path="/repo/a.py", content="x = 1\n")
        ),  # created: git stash leaves it
        *call(Op(action="edit", path="/repo/b.py", old="x", new="y")),
        *_git(call, "git stash"),
    ]
    assert statuses(edits) == {"a.py": "created", "b.py": "reverted"}
    assert statuses(edits + _git(call, "git stash pop")) == {"a.py": "created", "b.py": "modified"}
    assert statuses(edits + _git(call, "git stash apply") + _git(call, "git stash pop")) == {
        "a.py": "created",
        "b.py": "modified",
    }
    assert statuses(edits + _git(call, "git stash drop") + _git(call, "git stash pop")) == {
        "a.py": "created",
        "b.py": "reverted",
    }


def test_stash_with_untracked_files_puts_created_files_away_too(
    session: list[Event], call: Call
) -> None:
    events = session + [
        *call(Op(action="write", path="/repo/a.py", content="x = 1\n")),
        *_git(call, "git stash -u"),
    ]
    assert statuses(events) == {"a.py": "reverted"}
    assert statuses(events + _git(call, "git stash pop")) == {"a.py": "created"}
    index = index_of(events + _git(call, "git stash pop"))
    assert index.file_state("a.py").content == "x = 1\n"  # type: ignore[union-attr]


def test_popping_a_stash_from_before_the_session_is_an_unknown_effect(
    session: list[Event], call: Call
) -> None:
    index = index_of(session + _git(call, "git stash pop"))
    (effect,) = index.unknown_effects()
    assert effect.command == "git stash pop" and "before the session" in effect.detail


def test_dropping_a_stash_from_before_the_session_changes_nothing(
    session: list[Event], call: Call
) -> None:
    # `git stash drop` forgets a stash; unlike pop or apply it brings nothing into the tree.
    index = index_of(session + _git(call, "git stash drop stash@{0}"))
    assert index.unknown_effects() == []


def test_undo_edit(session: list[Event], call: Call) -> None:
    events = session + [
        *call(Op(action="edit", path="/repo/a.py", old="x", new="y"), tool="str_replace_editor"),
        *call(Op(action="undo", path="/repo/a.py"), tool="str_replace_editor"),
    ]
    assert statuses(events) == {"a.py": "reverted"}


def test_rename_is_deleted_plus_created_with_renamed_from(session: list[Event], call: Call) -> None:
    events = session + [
        *call(
            Op(
                action="move",
                path="/repo/old_name.py",
                dest="/repo/pkg/new_name.py",
                source="patch",
            ),
            tool="apply_patch",
        ),
    ]
    index = index_of(events)
    files = {f.path: f for f in index.files()}
    assert files["old_name.py"].status == "deleted"
    assert files["pkg/new_name.py"].status == "created"
    assert files["pkg/new_name.py"].renamed_from == "old_name.py"
    assert files["pkg/new_name.py"].sources == ["patch"]


def test_reported_creation_overrides_the_guess(session: list[Event], call: Call) -> None:
    events = session + [
        *call(
            Op(action="write", path="/repo/a.py", content="x"),
            tool="Write",
            reported=(ReportedChange(path="/repo/a.py", change="modified"),),
        ),
        *call(
            Op(action="write", path="/repo/b.py", content="x"),
            tool="Write",
            reported=(ReportedChange(path="/repo/b.py", change="created"),),
        ),
    ]
    assert statuses(events) == {"a.py": "modified", "b.py": "created"}


def test_reported_change_without_an_operation_is_still_recorded(
    session: list[Event], call: Call
) -> None:
    events = session + [
        *call(tool="apply_patch", reported=(ReportedChange(path="/repo/x.ts", change="modified"),)),
    ]
    assert statuses(events) == {"x.ts": "modified"}


def test_relative_paths_follow_the_working_directory(session: list[Event], call: Call) -> None:
    events = session + [
        WorkingDirectory(turn=1, cwd="/repo/pkg"),
        *call(Op(action="edit", path="mod.py", old="a", new="b")),
        *call(Op(action="edit", path="../setup.py", old="a", new="b")),
    ]
    assert statuses(events) == {"pkg/mod.py": "modified", "setup.py": "modified"}


def test_windows_paths_are_made_relative_case_insensitively(call: Call) -> None:
    from artifact_index.ingestion.events import SessionInfo

    events: list[Event] = [SessionInfo(turn=0, cwd="c:\\Apps\\MRA")]
    events += call(
        Op(action="write", path="C:\\Apps\\MRA\\src\\lib\\gcs.ts", content="x"),
        tool="write_to_file",
    )
    events += call(Op(action="read", path="d:\\other\\notes.md"), tool="read_file")
    assert statuses(events) == {"src/lib/gcs.ts": "created", "d:\\other\\notes.md": "read"}


def test_pending_call_is_not_applied(session: list[Event]) -> None:
    from artifact_index.ingestion.events import ToolCall

    tracker = Tracker(format="claude-code")
    tracker.feed_all(
        [
            *session,
            ToolCall(
                turn=1, call_id="x", tool="Edit", operations=(Op(action="edit", path="/repo/a.py"),)
            ),
        ]
    )
    assert tracker.index.files() == []
    assert [c.call_id for c in tracker.pending_calls()] == ["x"]


def test_turn_query(session: list[Event], call: Call) -> None:
    events = session + [
        *call(Op(action="read", path="/repo/a.py"), tool="Read", turn=2),
        *call(Op(action="edit", path="/repo/a.py", old="a", new="b"), turn=4),
    ]
    index = index_of(events)
    assert [(p, op.action) for p, op in index.touched_in_turn(4)] == [("a.py", "edit")]
    assert [op.turn for op in index.history("a.py")] == [2, 4]


def test_a_reported_deletion_of_a_file_the_session_created_is_reverted(
    session: list[Event], call: Call
) -> None:
    events = session + [
        *call(Op(action="create", path="/repo/scratch.py", content="x")),
        *call(
            Op(action="shell", command="python cleanup.py", source="shell"),
            tool="Bash",
            reported=(ReportedChange(path="/repo/scratch.py", change="deleted"),),
        ),
    ]
    assert statuses(events) == {"scratch.py": "reverted"}
