"""Git commands whose effects the command line alone does not name: branch switches, global settings."""

from __future__ import annotations

import pytest

from artifact_index.ingestion.events import Event, SessionInfo
from artifact_index.trail.tracker import Tracker

from .test_work_state import edit, shell

_STAT = """\
 CHANGELOG.md         | 4 ++++
 src/config.rs        | 2 +-
 2 files changed, 5 insertions(+), 1 deletion(-)
"""
_NAME_STATUS = "M\tsrc/config.rs\nA\tsrc/new.rs\nD\tsrc/gone.rs\n"


def _trail(*steps: list[Event]) -> tuple[dict[str, str | None], list[str]]:
    events: list[Event] = [SessionInfo(turn=0, cwd="/repo")]
    for step in steps:
        events += step
    index = Tracker(format="codex").feed_all(events)
    changed = {f.path: f.status for f in index.files() if f.status != "read"}
    unknown = [op.detail or "" for op in index.unknown_effects()]
    return changed, unknown


@pytest.mark.parametrize(
    "diff",
    [
        "git diff --stat origin/main...HEAD",
        "git diff --stat origin/main..HEAD",
        "git diff --stat origin/main HEAD",
        "git diff --stat HEAD origin/main",
    ],
)
def test_switching_to_a_compared_revision_changes_the_files_the_diff_listed(diff: str) -> None:
    changed, _ = _trail(
        shell(diff, _STAT, 1),
        shell("git fetch origin --prune", "", 2),  # moved no ref
        shell("git switch -c pr/config origin/main", "Switched to a new branch 'pr/config'\n", 3),
    )
    assert changed == {"CHANGELOG.md": "modified", "src/config.rs": "modified"}


def test_the_direction_of_the_diff_says_which_files_come_and_go() -> None:
    # Read from main to HEAD: a file added on HEAD is gone after the switch, one deleted comes back.
    changed, unknown = _trail(
        shell("git diff --name-status main HEAD", _NAME_STATUS, 1),
        shell("git checkout main", "Switched to branch 'main'\n", 2),
    )
    assert changed == {
        "src/config.rs": "modified",
        "src/new.rs": "deleted",
        "src/gone.rs": "created",
    }
    assert unknown == []  # two trees compared whole: nothing left unnamed


def test_a_three_dot_listing_leaves_the_other_sides_changes_unknown() -> None:
    _, unknown = _trail(
        shell("git diff --stat origin/main...HEAD", _STAT, 1),
        shell("git switch -c pr/config origin/main", "", 2),
    )
    assert len(unknown) == 1 and "beyond those an earlier diff listed" in unknown[0]


@pytest.mark.parametrize(
    "between",
    [
        shell("git commit -m wip", "[feat 1a2b3c4] wip\n 1 file changed\n", 2),
        shell(
            "git fetch origin",
            "From github.com:o/r\n   1a2b3c4..5d6e7f8  main       -> origin/main\n",
            2,
        ),
        shell("gt down", "Checked out main.\n", 2),
        shell("git reset --hard HEAD~1", "HEAD is now at 1a2b3c4 x\n", 2),
    ],
)
def test_a_listing_older_than_a_move_of_head_names_nothing(between: list[Event]) -> None:
    changed, unknown = _trail(
        shell("git diff --stat origin/main...HEAD", _STAT, 1),
        between,
        shell("git switch -c pr/config origin/main", "", 3),
    )
    assert changed == {}
    assert any("cannot name" in u for u in unknown)


@pytest.mark.parametrize(
    "diff",
    [
        "git diff --stat origin/main",  # HEAD against the working tree: uncommitted work too
        "git diff --stat origin/main...HEAD -- src",  # a pathspec: part of the tree
        "git diff --stat -R origin/main HEAD",
        "git diff --stat feature...HEAD",  # another revision than the switch's
    ],
)
def test_other_diffs_name_nothing(diff: str) -> None:
    changed, _ = _trail(
        shell(diff, _STAT, 1),
        shell("git switch -c pr/config origin/main", "", 2),
    )
    assert changed == {}


def test_the_sessions_own_edit_is_kept_beside_the_switch() -> None:
    changed, _ = _trail(
        shell("git diff --stat origin/main...HEAD", _STAT, 1),
        shell("git switch -c pr/config origin/main", "", 2),
        edit("/repo/README.md", 3),
    )
    assert changed == {
        "CHANGELOG.md": "modified",
        "src/config.rs": "modified",
        "README.md": "modified",
    }


@pytest.mark.parametrize(
    ("command", "changed"),
    [
        ("git config --global commit.gpgsign false", True),
        ("git config --global --unset user.signingkey", True),
        ("git config --global --get user.name", False),
        ("git config --global --list", False),
        ("git config commit.gpgsign false", False),  # the repository's .git/config: git's own state
    ],
)
def test_a_global_git_setting_rewrites_the_users_gitconfig(command: str, changed: bool) -> None:
    events: list[Event] = [SessionInfo(turn=0, cwd="/Users/ana/repo"), *shell(command, "", 1)]
    index = Tracker(format="claude-code").feed_all(events)
    found = {f.path: f.status for f in index.files() if f.status != "read"}
    assert found == ({"/Users/ana/.gitconfig": "modified"} if changed else {})


def test_without_a_home_in_sight_the_global_config_is_not_placed() -> None:
    events: list[Event] = [
        SessionInfo(turn=0, cwd="/workspaces/repo"),
        *shell("git config --global commit.gpgsign false", "", 1),
    ]
    assert [f for f in Tracker(format="codex").feed_all(events).files()] == []


def test_a_hard_reset_to_a_compared_revision_changes_the_listed_files() -> None:
    changed, unknown = _trail(
        shell("git diff --name-only HEAD origin/main", "src/config.rs\n", 1),
        edit("/repo/notes.md", 2),  # uncommitted, dropped by the reset
        shell("git reset --hard origin/main", "HEAD is now at 0ef0a6d x\n", 3),
    )
    assert changed == {"src/config.rs": "modified", "notes.md": "reverted"}
    assert unknown == []
