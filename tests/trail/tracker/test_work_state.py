"""The work unit's state from the session's git commands: branch, commits, pushes, what is left uncommitted."""

from __future__ import annotations

from itertools import count

from artifact_index.ingestion.events import Event, FileOperation, SessionInfo, ToolCall, ToolResult
from artifact_index.trail.tracker import Tracker
from artifact_index.trail.work_state import work_state

_ids = count(1)


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


def shell(command: str, output: str, turn: int, ok: bool = True) -> list[Event]:
    call_id = f"b{next(_ids)}"
    return [
        ToolCall(
            turn=turn,
            call_id=call_id,
            tool="Bash",
            arguments={"command": command},
            operations=(FileOperation(action="shell", command=command, source="shell"),),
        ),
        ToolResult(
            turn=turn,
            call_id=call_id,
            status="success" if ok else "failure",
            failure=None if ok else "exit_status",
            output=output,
        ),
    ]


def state(*steps: list[Event]) -> dict[str, object]:
    events: list[Event] = [SessionInfo(turn=0, cwd="/repo")]
    for step in steps:
        events += step
    return work_state(Tracker(format="claude-code").feed_all(events)).model_dump()


def test_commits_branch_and_what_is_left_uncommitted() -> None:
    work = state(
        shell("git checkout -b fix/totals", "Switched to a new branch 'fix/totals'\n", 1),
        edit("/repo/cart.py", 2),
        edit("/repo/tax.py", 3),
        shell(
            "git add cart.py && git commit -m 'Round totals'",
            "[fix/totals 4f2a9c1] Round totals\n 1 file changed, 2 insertions(+), 1 deletion(-)\n",
            4,
        ),
        edit("/repo/cart.py", 5),
    )
    assert work["branch"] == "fix/totals"
    assert work["commits"] == [
        {
            "turn": 4,
            "hash": "4f2a9c1",
            "branch": "fix/totals",
            "message": "Round totals",
            "files": ["cart.py"],
            "pushed": False,
        }
    ]
    # tax.py was never committed; cart.py changed again after its commit.
    assert work["uncommitted"] == ["cart.py", "tax.py"]


def test_staging_survives_a_refused_commit_and_a_push_covers_earlier_commits() -> None:
    work = state(
        edit("/repo/cart.py", 1),
        shell(
            "git add -A && git commit -m 'wip'",
            "Pre-commit validation failed: [FORMAT]\n",
            2,
            ok=False,
        ),
        shell("git commit -m 'Round totals'", "[main 9e1d2b7] Round totals\n 1 file changed\n", 3),
        shell("git push", "To github.com:shop/cart.git\n   1a2b3c4..9e1d2b7  main -> main\n", 4),
    )
    [commit] = work["commits"]  # type: ignore[misc]
    assert (commit["hash"], commit["files"], commit["pushed"], commit["pushed_turn"]) == (
        "9e1d2b7",
        ["cart.py"],
        True,
        4,
    )
    assert (work["branch"], work["uncommitted"]) == ("main", [])


def test_a_push_its_output_shows_counts_when_a_later_command_of_the_line_failed() -> None:
    work = state(
        edit("/repo/cart.py", 1),
        shell("git commit -am 'Round totals'", "[feat 9e1d2b7] Round totals\n 1 file changed\n", 2),
        shell(
            "git push -u origin feat && gh pr create --fill",
            "To github.com:shop/cart.git\n * [new branch]      feat -> feat\n"
            "branch 'feat' set up to track 'origin/feat'.\n"
            'a pull request for branch "feat" already exists\n',
            3,
            ok=False,
        ),
    )
    [commit] = work["commits"]  # type: ignore[misc]
    assert (commit["pushed"], commit["pushed_turn"]) == (True, 3)


def test_a_refused_push_is_not_a_push() -> None:
    work = state(
        edit("/repo/cart.py", 1),
        shell("git commit -am 'Round totals'", "[main 9e1d2b7] Round totals\n 1 file changed\n", 2),
        shell(
            "git push",
            "To github.com:shop/cart.git\n ! [rejected]        main -> main (fetch first)\n"
            "error: failed to push some refs\n",
            3,
            ok=False,
        ),
    )
    [commit] = work["commits"]  # type: ignore[misc]
    assert commit["pushed"] is False


def test_commit_all_and_commit_of_paths() -> None:
    work = state(
        edit("/repo/a.py", 1),
        edit("/repo/b.py", 1),
        shell("git commit -am 'both tracked files'", "[main 1111111] both tracked files\n", 2),
        edit("/repo/a.py", 3),
        edit("/repo/b.py", 3),
        shell("git commit -m 'only b' -- b.py", "[main 2222222] only b\n", 4),
    )
    assert [(c["hash"], c["files"]) for c in work["commits"]] == [  # type: ignore[attr-defined]
        ("1111111", ["a.py", "b.py"]),
        ("2222222", ["b.py"]),
    ]
    assert work["uncommitted"] == ["a.py"]


def test_a_session_without_git_has_no_commits_and_everything_uncommitted() -> None:
    work = state(
        edit("/repo/a.py", 1),
        shell("git status", "On branch main\nChanges not staged for commit:\n", 2),
    )
    assert work == {
        "branch": "main",
        "commits": [],
        "unconfirmed_commits": [],
        "uncommitted": ["a.py"],
        "elsewhere": [],
        "status": None,
    }


def test_git_commands_run_in_another_repository_belong_to_it() -> None:
    # `cd ../site && git status` shows the other repository's branch; a commit made there
    # holds none of the workspace's files.
    work = state(
        edit("/repo/cart.py", 1),
        shell(
            "cd ../site && git status",
            "On branch dipree/another-adventure\nnothing to commit\nShell cwd was reset to /repo\n",
            2,
        ),
        shell("git -C /work/tools commit -am 'bump'", "[main 5d5d5d5] bump\n 1 file changed\n", 3),
        shell("git branch --show-current", "fix/totals\n", 4),
    )
    assert work["branch"] == "fix/totals"
    assert (work["commits"], work["uncommitted"]) == ([], ["cart.py"])
    assert work["elsewhere"] == [
        {
            "path": "/site",
            "branch": "dipree/another-adventure",
            "branch_turn": 2,
            "commits": [],
            "unconfirmed_commits": [],
            "worktree": False,
        },
        {
            "path": "/work/tools",
            "branch": "main",
            "branch_turn": 3,
            "commits": [
                {
                    "turn": 3,
                    "hash": "5d5d5d5",
                    "branch": "main",
                    "message": "bump",
                    "files": None,
                    "pushed": False,
                }
            ],
            "unconfirmed_commits": [],
            "worktree": False,
        },
    ]


def test_a_directory_inside_the_workspace_or_holding_it_is_the_same_repository() -> None:
    work = state(
        shell("cd /repo/sub && git checkout -b feat", "Switched to a new branch 'feat'\n", 1),
        shell("cd / && git status", "On branch main\n", 2),
    )
    assert (work["branch"], work["elsewhere"]) == ("main", [])


def test_a_windows_workspace_and_a_posix_directory_never_break_the_comparison() -> None:
    events: list[Event] = [
        SessionInfo(turn=0, cwd="C:\\Users\\dev\\shop"),
        *shell("git -C /tmp/scratch status", "On branch main\n", 1),
    ]
    work = work_state(Tracker(format="claude-code").feed_all(events)).model_dump()
    assert work["elsewhere"] == [
        {
            "path": "/tmp/scratch",
            "branch": "main",
            "branch_turn": 1,
            "commits": [],
            "unconfirmed_commits": [],
            "worktree": False,
        }
    ]


def test_a_rebase_continued_after_resolving_a_conflict_commits_the_resolution() -> None:
    """git continues a rebase only with every change added: the files added are committed by it."""
    work = state(
        edit("/repo/cart.py", 1),
        shell("git add cart.py && git commit -m 'Round totals'", "[fix 4f2a9c1] Round totals\n", 2),
        shell("git rebase main", "CONFLICT (content): Merge conflict in cart.py\n", 3, ok=False),
        shell("git checkout --ours cart.py", "Updated 1 path from the index\n", 4),
        edit("/repo/tax.py", 5),
        shell(
            "git add cart.py && GIT_EDITOR=true git rebase --continue",
            "Successfully rebased and updated refs/heads/fix.\n",
            6,
        ),
    )
    assert work["uncommitted"] == ["tax.py"]


def test_after_a_hard_reset_to_a_ref_a_commit_of_named_paths_holds_them() -> None:
    """`git reset --hard origin/main` leaves nothing staged: what is added after it is what is committed."""
    work = state(
        edit("/repo/cart.py", 1),
        shell("git reset --hard origin/main", "HEAD is now at f8ec5b2 Readme\n", 2),
        edit("/repo/cart.py", 3),
        edit("/repo/tax.py", 4),
        shell("git add cart.py tax.py", "", 5),
        shell(
            "git commit -m 'Totals'",
            "[main 39a3f00] Totals\n 2 files changed, 4 insertions(+), 2 deletions(-)\n",
            6,
        ),
    )
    commits = work["commits"]
    assert isinstance(commits, list)
    assert commits[-1]["files"] == ["cart.py", "tax.py"]
    assert work["uncommitted"] == []


def test_a_reset_of_paths_still_leaves_the_staging_unknown() -> None:
    work = state(
        edit("/repo/cart.py", 1),
        edit("/repo/tax.py", 2),
        shell("git add -A && git reset -- tax.py", "", 3),
        shell("git commit -m 'Totals'", "[main 1a2b3c4] Totals\n 1 file changed\n", 4),
    )
    commits = work["commits"]
    assert isinstance(commits, list)
    assert commits[-1]["files"] is None
