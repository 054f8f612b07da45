"""The latest ``git status`` of the workspace decides what is uncommitted, over what the trail remembers.

An edit made on a branch the session then left (``git checkout main && git
checkout -b fix``), a stash, a reset: a status printed after a file's last
change lists what is really changed and not committed.  Outputs this reader
cannot tell apart (piped, limited, mixed with other programs' lines) leave
the trail's answer standing.
"""

from __future__ import annotations

from itertools import count

from artifact_index.ingestion.events import Event, FileOperation, SessionInfo, ToolCall, ToolResult
from artifact_index.trail.tracker import Tracker
from artifact_index.trail.work_state import work_state

_ids = count(1)

LONG = """On branch fix/relative-paths
Changes not staged for commit:
  (use "git add <file>..." to update what will be committed)
  (use "git restore <file>..." to discard changes in working directory)
\tmodified:   cmd/cli/handlers.go
\tmodified:   cmd/cli/state_test.go

Untracked files:
  (use "git add <file>..." to include in what will be committed)
\tnotes/

no changes added to commit (use "git add" and/or "git commit -a")
"""
STAT = """ cmd/cli/handlers.go   | 24 +++++----
 cmd/cli/state_test.go | 83 +++++++++++++++++++++
 2 files changed, 96 insertions(+), 11 deletions(-)
"""


def edit(path: str, turn: int) -> list[Event]:
    call_id = f"e{next(_ids)}"
    return [
        ToolCall(
            turn=turn,
            call_id=call_id,
            tool="Edit",
            arguments={"file_path": path},
            operations=(FileOperation(action="edit", path=path, old="a", new="b"),),
        ),
        ToolResult(turn=turn, call_id=call_id, status="success"),
    ]


def shell(command: str, output: str, turn: int) -> list[Event]:
    call_id = f"b{next(_ids)}"
    return [
        ToolCall(
            turn=turn,
            call_id=call_id,
            tool="Bash",
            arguments={"command": command},
            operations=(FileOperation(action="shell", command=command, source="shell"),),
        ),
        ToolResult(turn=turn, call_id=call_id, status="success", output=output),
    ]


def state(*steps: list[Event]) -> dict[str, object]:
    events: list[Event] = [SessionInfo(turn=0, cwd="/repo")]
    for step in steps:
        events += step
    return work_state(Tracker(format="claude-code").feed_all(events)).model_dump()


def _abandoned_branch(status_command: str, output: str) -> dict[str, object]:
    return state(
        edit("/repo/cmd/cli/strategy/common.go", 17),
        shell(
            "git checkout main && git pull", "Already up to date.\nSwitched to branch 'main'\n", 195
        ),
        shell(
            "git checkout -b fix/relative-paths",
            "Switched to a new branch 'fix/relative-paths'\n",
            196,
        ),
        edit("/repo/cmd/cli/handlers.go", 201),
        edit("/repo/cmd/cli/state_test.go", 212),
        shell(status_command, output, 215),
    )


def test_an_edit_left_on_an_abandoned_branch_is_not_uncommitted_once_a_status_omits_it() -> None:
    work = _abandoned_branch("git status && git diff --stat", LONG + STAT)
    assert work["uncommitted"] == ["cmd/cli/handlers.go", "cmd/cli/state_test.go"]
    status = work["status"]
    assert isinstance(status, dict)
    assert (status["turn"], status["command"], status["not_shown"]) == (
        215,
        "git status",
        ["cmd/cli/strategy/common.go"],
    )
    assert {"path": "notes/", "state": "untracked", "changed_in_session": False} in status["files"]


def test_short_and_porcelain_forms_and_a_diff_stat_speak_too() -> None:
    short = " M cmd/cli/handlers.go\n M cmd/cli/state_test.go\n?? notes/\n"
    for command, output in (
        ("git status --short", short),
        ("git status --porcelain", short),
        ("git diff --stat", STAT),
        ("git diff HEAD --name-only", "cmd/cli/handlers.go\ncmd/cli/state_test.go\n"),
    ):
        work = _abandoned_branch(command, output)
        assert work["uncommitted"] == ["cmd/cli/handlers.go", "cmd/cli/state_test.go"], command


def test_a_file_changed_after_the_status_is_uncommitted_whatever_it_listed() -> None:
    work = state(
        edit("/repo/a.go", 1),
        shell("git status", "On branch main\nnothing to commit, working tree clean\n", 2),
        edit("/repo/b.go", 3),
    )
    assert work["uncommitted"] == ["b.go"]
    assert isinstance(work["status"], dict) and work["status"]["not_shown"] == ["a.go"]
    assert work["status"]["current"] is False


def test_a_commit_after_the_status_speaks_for_the_files_it_held() -> None:
    work = state(
        edit("/repo/a.go", 1),
        edit("/repo/b.go", 1),
        shell("git status --short", " M a.go\n M b.go\n", 2),
        shell("git commit -am 'both'", "[main 1234567] both\n", 3),
    )
    assert work["uncommitted"] == []


def test_outputs_that_cannot_be_told_apart_leave_the_trail_standing() -> None:
    for command, output in (
        ("git status | head -3", "On branch main\nChanges not staged for commit:\n"),
        ("git status --short && ls", " M a.go\nREADME.md\n"),
        ("git status --short src/", ""),
        ("git diff --stat -- src/", ""),
        ("git status", "On branch main\nChanges not staged for commit:\n        modifié:   a.go\n"),
    ):
        work = state(edit("/repo/a.go", 1), shell(command, output, 2))
        assert work["uncommitted"] == ["a.go"], command


def test_a_diff_does_not_show_new_files_or_what_is_staged() -> None:
    created = [
        ToolCall(
            turn=1,
            call_id="w1",
            tool="Write",
            arguments={"file_path": "/repo/new.go"},
            operations=(FileOperation(action="write", path="/repo/new.go", content="package x\n"),),
        ),
        ToolResult(turn=1, call_id="w1", status="success"),
    ]
    work = state(
        created,
        edit("/repo/a.go", 1),
        shell("git diff --stat", " a.go | 2 +-\n 1 file changed\n", 2),
    )
    assert work["uncommitted"] == ["a.go", "new.go"]
    staged = state(
        edit("/repo/a.go", 1),
        edit("/repo/b.go", 1),
        shell("git add b.go", "", 2),
        shell("git diff --stat", " a.go | 2 +-\n 1 file changed\n", 3),
    )
    assert staged["uncommitted"] == ["a.go", "b.go"]


def test_git_internals_are_never_uncommitted() -> None:
    work = state(edit("/repo/.git/hooks/pre-push", 1), edit("/repo/a.go", 1))
    assert work["uncommitted"] == ["a.go"]


def test_a_listing_whose_first_line_lost_its_leading_space_still_names_that_file() -> None:
    """A harness strips the start of a result: " M a.go" comes as "M a.go", " a.go | 3 +" as "a.go | 3 +"."""
    for command, output in (
        ("git status --short", "M cmd/cli/handlers.go\n M cmd/cli/state_test.go\n"),
        ("git diff --stat HEAD", STAT.lstrip()),
    ):
        work = _abandoned_branch(command, output)
        assert work["uncommitted"] == ["cmd/cli/handlers.go", "cmd/cli/state_test.go"], command
        status = work["status"]
        assert isinstance(status, dict)
        assert [f["path"] for f in status["files"]] == [
            "cmd/cli/handlers.go",
            "cmd/cli/state_test.go",
        ], command


def test_a_path_git_quoted_is_read_as_the_files_own_name() -> None:
    # git C-quotes a name with bytes beyond ASCII (core.quotePath): "docs/\346\227\245.md" is docs/日.md.
    quoted = '"docs/\\346\\227\\245.md"'
    for command, output in (
        ("git status --short", f" M {quoted}\n"),
        ("git status", f"Changes not staged for commit:\n\tmodified:   {quoted}\n"),
        ("git diff --name-only", f"{quoted}\n"),
        ("git diff --name-status", f"M\t{quoted}\n"),
    ):
        work = state(edit("/repo/docs/\u65e5.md", 1), shell(command, output, 2))
        assert work["uncommitted"] == ["docs/\u65e5.md"], command
        assert isinstance(work["status"], dict) and work["status"]["not_shown"] == [], command


def test_unstaging_the_whole_tree_then_committing_named_paths_holds_those_paths() -> None:
    # `git restore --staged :/` empties the index: the commit holds what it was given, not "unknown".
    work = state(
        edit("/repo/a.go", 1),
        edit("/repo/b.go", 1),
        edit("/repo/c.go", 1),
        shell(
            "git restore --staged :/ && git add a.go b.go && git commit -m 'two' -- a.go b.go",
            "[main 1234567] two\n 2 files changed\n",
            2,
        ),
    )
    commits = work["commits"]
    assert isinstance(commits, list) and commits[-1]["files"] == ["a.go", "b.go"]
    assert work["uncommitted"] == ["c.go"]


def test_unstaging_some_paths_leaves_what_is_staged_unknown() -> None:
    work = state(
        edit("/repo/a.go", 1),
        edit("/repo/b.go", 1),
        shell("git add -A && git restore --staged b.go", "", 2),
        shell("git commit -m 'one'", "[main 1234567] one\n", 3),
    )
    commits = work["commits"]
    assert isinstance(commits, list) and commits[-1]["files"] is None


def test_a_commit_takes_what_the_status_before_it_showed_staged() -> None:
    # Someone else staged the changes: the session's own commands show no `git add`.
    staged = (
        "On branch main\nChanges to be committed:\n"
        '  (use "git restore --staged <file>..." to unstage)\n'
        "\tmodified:   a.go\n\tmodified:   flake.lock\n\n"
        "Changes not staged for commit:\n\tmodified:   b.go\n"
    )
    work = state(
        edit("/repo/a.go", 1),
        edit("/repo/b.go", 1),
        shell("git status", staged, 2),
        shell("git commit -m 'a'", "[main 1234567] a\n 2 files changed\n", 3),
    )
    commits = work["commits"]
    assert isinstance(commits, list) and commits[-1]["files"] == ["a.go"]
    assert work["uncommitted"] == ["b.go"]


def test_a_short_status_shows_the_staged_column_too() -> None:
    work = state(
        edit("/repo/a.go", 1),
        edit("/repo/b.go", 1),
        shell("git status --short", "M  a.go\n M b.go\n", 2),
        shell("git commit -m 'a'", "[main 1234567] a\n 1 file changed\n", 3),
    )
    assert work["uncommitted"] == ["b.go"]
