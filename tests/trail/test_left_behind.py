"""Changes left on a branch the session switched away from, answered by the index alone."""

from __future__ import annotations

from artifact_index.ingestion.events import Event, SessionInfo, UserMessage
from artifact_index.trail.answers import LeftBehind
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.session_report import session_report
from artifact_index.trail.tracker import Tracker
from tests.support.session_steps import ROOT, edit, shell

STATUS_AFTER = """\
On branch fix/relative-paths
Changes not staged for commit:
  (use "git add <file>..." to update what will be committed)
\tmodified:   cli/hooks.go

no changes added to commit (use "git add" and/or "git commit -a")
"""


def _index(*steps: list[Event]) -> ArtifactIndex:
    events: list[Event] = [SessionInfo(turn=0, cwd=ROOT), UserMessage(turn=1, text="Fix it.")]
    for step in steps:
        events += step
    return Tracker(format="claude-code").feed_all(events)


def test_an_edit_before_a_git_switch_the_status_no_longer_lists_is_left_behind() -> None:
    index = _index(
        edit(2, f"{ROOT}/cli/strategy/common.go"),
        shell(4, "git checkout main", "Switched to branch 'main'\n"),
        shell(
            5, "git switch -c fix/relative-paths", "Switched to a new branch 'fix/relative-paths'\n"
        ),
        edit(6, f"{ROOT}/cli/hooks.go"),
        shell(7, "git status", STATUS_AFTER),
    )

    assert [(s.turn, s.branch) for s in index.session.work.switches] == [
        (4, "main"),
        (5, "fix/relative-paths"),
    ]
    # Left behind by the switch to main; the new branch made from there took nothing away.
    assert session_report(index).left_behind == [
        LeftBehind(path="cli/strategy/common.go", switch_turn=4, branch="main")
    ]


def test_words_that_only_mention_a_switch_switch_nothing() -> None:
    # A file or a log that holds git's sentence is not a checkout of the workspace.
    index = _index(
        edit(2, f"{ROOT}/cli/strategy/common.go"),
        shell(4, "cat notes/handoff.txt", "Switched to branch 'main'\nthen rebuilt\n"),
        edit(6, f"{ROOT}/cli/hooks.go"),
        shell(7, "git status", STATUS_AFTER),
    )

    assert index.session.work.switches == []
    assert session_report(index).left_behind == []


def test_a_switch_in_another_repository_leaves_nothing_of_the_workspace_behind() -> None:
    index = _index(
        edit(2, f"{ROOT}/cli/strategy/common.go"),
        shell(4, "cd /home/dev/other && git checkout main", "Switched to branch 'main'\n"),
        edit(6, f"{ROOT}/cli/hooks.go"),
        shell(7, "git status", STATUS_AFTER),
    )

    assert session_report(index).left_behind == []


def test_a_checkout_switched_though_a_later_step_of_its_command_failed() -> None:
    # Git printed that it switched: the command's failure is make's, after it.
    index = _index(
        edit(2, f"{ROOT}/cli/strategy/common.go"),
        shell(
            4,
            "git checkout main && make",
            "Switched to branch 'main'\nmake: *** No targets.  Stop.\n",
            ok=False,
        ),
        edit(6, f"{ROOT}/cli/hooks.go"),
        shell(7, "git status", STATUS_AFTER),
    )

    assert session_report(index).left_behind == [
        LeftBehind(path="cli/strategy/common.go", switch_turn=4, branch="main")
    ]


def test_a_checkout_that_printed_no_switch_switched_nothing() -> None:
    index = _index(
        edit(2, f"{ROOT}/cli/strategy/common.go"),
        shell(4, "git checkout main", "error: pathspec 'main' did not match\n", ok=False),
        edit(6, f"{ROOT}/cli/hooks.go"),
        shell(7, "git status", STATUS_AFTER),
    )

    assert session_report(index).left_behind == []


_PULLED = """\
Updating 1a2b3c4..5d6e7f8
Fast-forward
 README.md | 2 +-
 notes.md  | 3 +++
 2 files changed, 4 insertions(+), 1 deletion(-)
 create mode 100644 notes.md
"""


def test_what_a_pull_brought_in_is_left_behind_by_a_switch_to_another_branch() -> None:
    # The merge committed what it brought: no status lists it, whatever the switch did to it.
    index = _index(
        shell(2, "git pull", _PULLED),
        shell(3, "git checkout feat/login", "Switched to branch 'feat/login'\n"),
        shell(4, "git status", "On branch feat/login\nnothing to commit, working tree clean\n"),
    )

    assert sorted(session_report(index).left_behind, key=lambda found: found.path) == [
        LeftBehind(path="README.md", switch_turn=3, branch="feat/login"),
        LeftBehind(path="notes.md", switch_turn=3, branch="feat/login"),
    ]


def test_what_a_pull_brought_in_stays_when_the_session_switches_back_to_its_branch() -> None:
    index = _index(
        shell(1, "git checkout main", "Switched to branch 'main'\n"),
        shell(2, "git pull", _PULLED),
        shell(3, "git checkout feat/login", "Switched to branch 'feat/login'\n"),
        shell(4, "git checkout main", "Switched to branch 'main'\n"),
    )

    assert session_report(index).left_behind == []


def test_a_new_branch_made_where_head_is_leaves_nothing_behind() -> None:
    # `git switch -c topic` takes the working tree along; the commit made on it holds the edit
    # though its report names no files.
    index = _index(
        edit(2, f"{ROOT}/Cargo.toml"),
        shell(
            3, "git switch -c codex/add-helpers", "Switched to a new branch 'codex/add-helpers'\n"
        ),
        shell(4, "git commit -qm 'Add helpers'", ""),
        shell(5, "git status --short", ""),
    )

    assert index.session.work.switches[0].from_head
    assert session_report(index).left_behind == []
