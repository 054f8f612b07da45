"""Which changed files a harness submission holds, worked out from the agent's commands."""

from __future__ import annotations

from artifact_index.ingestion.events import Event, Submission
from artifact_index.ingestion.events import FileOperation as Op
from artifact_index.presentation.render import files_json, files_table, show_text
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.tracker import Tracker

from .conftest import Call

MARK = "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && "


def shell(call: Call, command: str, *, status: str = "success", turn: int = 1) -> list[Event]:
    return call(
        Op(action="shell", command=command, source="shell"), tool="bash", status=status, turn=turn
    )


def sandbox(session: list[Event], call: Call) -> list[Event]:
    """A tracked file fixed with sed, a reproduction script, a backup, a file removed, a file read."""
    return session + [
        *shell(call, "cat src/app.py"),
        *shell(call, "cat README.md"),
        *shell(call, "cp src/app.py src/app.py.bak"),
        *shell(call, "sed -i 's/a - b/a + b/' src/app.py"),
        *shell(call, "cat <<'EOF' > reproduce.py\nprint(1)\nEOF"),
        *shell(call, "rm docs/old.md"),
    ]


def index_of(events: list[Event]) -> ArtifactIndex:
    return Tracker(format="mini-swe-agent").feed_all(events)


def submitted(index: ArtifactIndex) -> dict[str, bool | None]:
    return {
        f.path: f.submitted for f in index.files() if f.status in ("created", "modified", "deleted")
    }


def submit(command: str | None, turn: int = 9, exit_status: str | None = "Submitted") -> Submission:
    return Submission(turn=turn, command=command, cwd="/repo", exit_status=exit_status)


def test_a_patch_file_of_chosen_paths_holds_only_those(session: list[Event], call: Call) -> None:
    events = sandbox(session, call) + [
        *shell(call, "cd /repo && git diff -- src/app.py > patch.txt"),
        *shell(call, "cat patch.txt"),
        submit(MARK + "cat patch.txt"),
    ]
    index = index_of(events)
    assert submitted(index) == {
        "src/app.py": True,
        "src/app.py.bak": False,
        "reproduce.py": False,
        "docs/old.md": False,
        "patch.txt": False,
    }
    record = index.submission()
    assert (
        record is not None and record.files == ["src/app.py"] and record.exit_status == "Submitted"
    )


def test_plain_git_diff_shows_tracked_files_only(session: list[Event], call: Call) -> None:
    index = index_of(sandbox(session, call) + [submit(MARK + "git diff")])
    assert submitted(index) == {
        "src/app.py": True,
        "src/app.py.bak": False,
        "reproduce.py": False,
        "docs/old.md": True,
    }


def test_git_add_all_then_cached_diff_holds_every_change(session: list[Event], call: Call) -> None:
    index = index_of(sandbox(session, call) + [submit(MARK + "git add -A && git diff --cached")])
    assert set(submitted(index).values()) == {True}


def test_cached_diff_holds_what_was_staged_earlier(session: list[Event], call: Call) -> None:
    events = sandbox(session, call) + [
        *shell(call, "git add src/app.py reproduce.py"),
        submit(MARK + "git diff --cached"),
    ]
    assert submitted(index_of(events)) == {
        "src/app.py": True,
        "src/app.py.bak": False,
        "reproduce.py": True,
        "docs/old.md": False,
    }


def test_add_all_with_a_path_stages_only_that_path(session: list[Event], call: Call) -> None:
    events = sandbox(session, call) + [
        *shell(call, "git add -A src && git restore docs/old.md"),
        submit(MARK + "git diff --cached"),
    ]
    assert {p for p, s in submitted(index_of(events)).items() if s} == {
        "src/app.py",
        "src/app.py.bak",
    }


def test_diff_against_head_adds_staged_new_files(session: list[Event], call: Call) -> None:
    events = sandbox(session, call) + [
        *shell(call, "git add reproduce.py"),
        submit(MARK + "git diff HEAD"),
    ]
    assert submitted(index_of(events)) == {
        "src/app.py": True,
        "src/app.py.bak": False,
        "reproduce.py": True,
        "docs/old.md": True,
    }


def test_pathspecs_are_directories_and_globs_relative_to_the_cd(
    session: list[Event], call: Call
) -> None:
    events = sandbox(session, call) + [
        *shell(call, "cd /repo/src && git diff -- . > /tmp/fix.patch"),
        *shell(call, "git diff -- 'docs/*.md' > docs.patch"),
        submit(MARK + "cat /tmp/fix.patch"),
    ]
    assert submitted(index_of(events))["src/app.py"] is True
    assert submitted(index_of(events))["docs/old.md"] is False
    events[-1] = submit(MARK + "cat docs.patch /tmp/fix.patch")
    assert {p for p, s in submitted(index_of(events)).items() if s} == {"docs/old.md", "src/app.py"}


def test_exclude_pathspecs_take_files_out(session: list[Event], call: Call) -> None:
    for spec in (
        "':!reproduce.py' ':(exclude)*.bak'",
        "':(exclude)reproduce.py' ':^src/app.py.bak'",
    ):
        index = index_of(
            sandbox(session, call) + [submit(MARK + f"git add -A && git diff --cached -- . {spec}")]
        )
        assert {p for p, s in submitted(index).items() if s} == {"src/app.py", "docs/old.md"}, spec
    index = index_of(
        sandbox(session, call) + [submit(MARK + "git add -A && git diff --cached -- ':(icase)src'")]
    )
    assert index.submission() is not None and index.submission().files is None  # type: ignore[union-attr]


def test_the_patch_is_as_of_when_it_was_written(session: list[Event], call: Call) -> None:
    events = sandbox(session, call) + [
        *shell(call, "git diff > patch.txt"),
        *shell(call, "sed -i 's/x/y/' setup.py"),
        submit(MARK + "cat patch.txt"),
    ]
    assert submitted(index_of(events))["setup.py"] is False


def test_a_hand_written_patch_file_holds_the_files_it_names(
    session: list[Event], call: Call
) -> None:
    patch = "--- a/src/app.py\n+++ b/src/app.py\n@@ -1 +1 @@\n-a - b\n+a + b\n"
    events = sandbox(session, call) + [
        *shell(call, f"cat > fix.patch <<'EOF'\n{patch}EOF"),
        submit(MARK + "cat fix.patch"),
    ]
    assert {p for p, s in submitted(index_of(events)).items() if s} == {"src/app.py"}


def test_a_patch_file_changed_after_the_diff_is_read_from_its_content_or_not_at_all(
    session: list[Event], call: Call
) -> None:
    events = sandbox(session, call) + [
        *shell(call, "git diff -- src/app.py > patch.txt"),
        *shell(call, "sed -i '1d' patch.txt"),
        submit(MARK + "cat patch.txt"),
    ]
    index = index_of(events)
    record = index.submission()
    assert record is not None and record.files is None and "patch.txt" in str(record.unresolved)
    assert set(submitted(index).values()) == {None}


def test_what_cannot_be_worked_out_leaves_every_change_in_files(
    session: list[Event], call: Call
) -> None:
    for command, why in [
        ("python make_patch.py", "`python` prints"),
        ("git diff | head -100", "pipe"),
        ("git diff HEAD~1", "cannot tell"),
        ("cat notes.txt", "notes.txt"),
    ]:
        index = index_of(sandbox(session, call) + [submit(MARK + command)])
        record = index.submission()
        assert record is not None and record.files is None and why in str(record.unresolved), (
            command
        )
        assert (
            len(files_json(index)["files"]) == 5 and files_json(index)["unsubmitted"] == []
        )  # 4 changed, 1 read


def test_a_commit_makes_later_diffs_unknown(session: list[Event], call: Call) -> None:
    events = sandbox(session, call) + [
        *shell(call, "git commit -am wip"),
        *shell(call, "git diff HEAD~1 > p.txt"),
        submit(MARK + "git diff"),
    ]
    record = index_of(events).submission()
    assert record is not None and record.files is None and "committed" in str(record.unresolved)


def test_a_run_that_ended_without_submitting_delivered_nothing(
    session: list[Event], call: Call
) -> None:
    index = index_of(sandbox(session, call) + [submit(None, exit_status="InternalServerError")])
    assert set(submitted(index).values()) == {False}
    out = files_json(index)
    assert [f["status"] for f in out["files"]] == ["read"]  # the reads of the session stay
    assert len(out["unsubmitted"]) == 4
    assert (
        out["submission"]["command"] is None
        and out["submission"]["exit_status"] == "InternalServerError"
    )
    table = files_table(index)
    assert "The run ended (InternalServerError) without submitting anything." in table
    assert "Left in the sandbox, not in the submission (2 created, 1 modified, 1 deleted):" in table


def test_the_table_lists_the_submission_and_what_it_left(session: list[Event], call: Call) -> None:
    events = sandbox(session, call) + [
        *shell(call, "git diff -- src/app.py > patch.txt"),
        submit(MARK + "cat patch.txt"),
    ]
    table = files_table(index_of(events))
    main, _, left = table.partition("Left in the sandbox")
    assert "modified  src/app.py" in main and "reproduce.py" not in main
    assert (
        "Submitted at turn 9: $ echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && cat patch.txt" in main
    )
    assert (
        "created   reproduce.py" in left
        and "created   patch.txt" in left
        and "deleted   docs/old.md" in left
    )
    overview = show_text(index_of(events))
    assert (
        "  modified  src/app.py\n" in overview
        and "  created   reproduce.py  (not submitted)\n" in overview
    )
    assert "Submitted at turn 9" in overview


def test_without_a_submission_nothing_changes(session: list[Event], call: Call) -> None:
    index = index_of(sandbox(session, call) + [*shell(call, "git diff -- src/app.py > patch.txt")])
    assert index.submission() is None and set(submitted(index).values()) == {None}
    assert files_json(index)["submission"] is None and files_json(index)["unsubmitted"] == []


def test_the_submission_survives_save_and_resume(session: list[Event], call: Call) -> None:
    events = sandbox(session, call) + [
        *shell(call, "git diff -- src/app.py > patch.txt"),
        submit(MARK + "cat patch.txt"),
    ]
    cut = len(events) - 1
    tracker = Tracker(format="mini-swe-agent")
    tracker.feed_all(events[:cut])
    resumed = Tracker.resume(tracker.save())
    resumed.feed_all(events[cut:])
    assert submitted(resumed.index) == submitted(index_of(events))
