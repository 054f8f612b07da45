"""What the summary calls a current change is one: not an edit left on a branch the session switched away from,
not a numbered request's item whose edits are done, not a closed tracker item's uncommitted code left unsaid."""

from __future__ import annotations

from artifact_index.ingestion.events import AssistantMessage, UserMessage
from tests.support.session_steps import ROOT, edit, section, shell, summary_of

STATUS_AFTER = """\
On branch fix/relative-paths
Changes not staged for commit:
  (use "git add <file>..." to update what will be committed)
\tmodified:   cli/hooks.go

no changes added to commit (use "git add" and/or "git commit -a")
"""


def test_an_edit_left_on_the_abandoned_branch_is_not_a_current_modification() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Stage files with the CLI instead of go-git."),
        edit(2, f"{ROOT}/cli/strategy/common.go"),
        UserMessage(
            turn=3, text="let's abandon the current branch, and create a new one from main"
        ),
        shell(
            4, "git checkout main && git pull", "Already up to date.\nSwitched to branch 'main'\n"
        ),
        shell(
            5,
            "git checkout -b fix/relative-paths",
            "Switched to a new branch 'fix/relative-paths'\n",
        ),
        edit(6, f"{ROOT}/cli/hooks.go"),
        shell(7, "git status", STATUS_AFTER),
    )
    changed = section(summary, "Files Changed")
    assert (
        "- `cli/strategy/common.go` (modified at turn 2, left on the branch the session switched away from at "
        "turn 4; not a change of the working tree now)"
    ) in changed
    assert "0 file(s) created, 1 modified, 0 deleted, 1 left on another branch" in section(
        summary, "Current State"
    )


def test_without_a_switch_a_file_the_status_omits_is_not_said_to_be_left_on_a_branch() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Fix the path filter."),
        edit(2, f"{ROOT}/cli/strategy/common.go"),
        edit(6, f"{ROOT}/cli/hooks.go"),
        shell(7, "git status", STATUS_AFTER),
    )
    assert summary.facts.left_behind == []
    assert "left on" not in section(summary, "Files Changed")


def test_an_item_left_for_another_before_any_change_is_still_in_progress() -> None:
    summary = summary_of(
        UserMessage(
            turn=1,
            text="Please address:\n1. Rename `total` in `cart.py`\n2. Add tests for `tax.py`",
        ),
        AssistantMessage(turn=2, text="**Item 1: Rename `total`**"),
        AssistantMessage(turn=3, text="**Item 2: Add tests for `tax.py`**"),
        edit(4, f"{ROOT}/shop/test_tax.py"),
        edit(5, f"{ROOT}/shop/cart.py"),
    )
    items = {item.number: item.status for item in summary.facts.request_items}
    assert items == {1: "in progress", 2: "in progress"}


def test_a_tracker_item_closed_with_its_code_uncommitted_says_so() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Work the cart epic."),
        shell(2, "bd update shop-cart.1 --status in_progress", "✓ Updated issue: shop-cart.1\n"),
        edit(3, f"{ROOT}/shop/cart.py"),
        shell(
            4,
            "git add shop/cart.py && git commit -m 'cart totals'",
            "[main 4f2a9c1] cart totals\n 1 file changed\n",
        ),
        shell(5, "bd close shop-cart.1", "✓ Closed shop-cart.1: Closed\n"),
        shell(6, "bd update shop-cart.2 --status in_progress", "✓ Updated issue: shop-cart.2\n"),
        edit(7, f"{ROOT}/shop/tax.py"),
        shell(8, "git commit -am 'tax'", "pre-commit hook failed: credo found 1 issue\n", ok=False),
        shell(9, "bd close shop-cart.2", "✓ Closed shop-cart.2: Closed\n"),
    )
    pending = section(summary, "Pending Tasks")
    assert (
        "- `shop-cart.2` was closed (turn 9) with its changes not committed: `shop/tax.py`"
        in pending
    )
    assert "`shop-cart.1` was closed" not in pending  # its change went into the commit of turn 4


RELEASE_SCRIPT = """\
Package: shop 1.2.0
[dev c6c3baa] Release shop 1.2.0
 2 files changed, 2 insertions(+), 3 deletions(-)
Merging dev -> master and pushing...
Switched to branch 'master'
Updating 61b06ec..c6c3baa
Fast-forward
 NEWS.md         | 4 ++++
 shop/version.py | 2 +-
 2 files changed, 5 insertions(+), 1 deletion(-)
"""


def test_a_commit_a_release_script_printed_holds_the_files_its_merge_brought_in() -> None:
    """A script that commits and merges prints what git prints: its commit is the session's, and the
    files its fast-forward names are committed as they are."""
    summary = summary_of(
        UserMessage(turn=1, text="Release 1.2.0."),
        edit(2, f"{ROOT}/shop/cart.py"),
        shell(3, "git commit -am 'cart'", "[dev 4f2a9c1] cart\n 1 file changed\n"),
        edit(4, f"{ROOT}/NEWS.md"),
        edit(5, f"{ROOT}/shop/version.py"),
        shell(6, "bash tools/merge-release.sh .", RELEASE_SCRIPT),
    )
    facts = summary.facts
    assert [c.hash for c in facts.work.commits] == ["4f2a9c1", "c6c3baa"]
    assert facts.work.uncommitted == []
    assert "not committed" not in section(summary, "Pending Tasks")


def test_a_change_before_a_commit_that_showed_no_files_is_not_called_uncommitted() -> None:
    """A script's commit names no files: a change before it may be in it, so the summary says what it saw."""
    summary = summary_of(
        UserMessage(turn=1, text="Release 1.2.0."),
        edit(2, f"{ROOT}/shop/cart.py"),
        shell(3, "git commit -am 'cart'", "[dev 4f2a9c1] cart\n 1 file changed\n"),
        edit(4, f"{ROOT}/shop/tax.py"),
        shell(5, "./release.sh", "[dev 9b1d2e3] Release shop 1.2.0\n 3 files changed\n"),
    )
    pending = section(summary, "Pending Tasks")
    assert (
        "1 changed file(s) in no commit shown (`9b1d2e3`, turn 5, made by `./release.sh`, did not show "
        "what it holds, so it may hold them): `shop/tax.py`"
    ) in pending


def test_a_file_git_status_left_out_after_its_change_is_not_called_uncommitted_work() -> None:
    """A file git ignores is changed, a complete `git status` does not list it, and no commit holds it:
    changed again later, it is said as what was seen, not as a change a commit or a PR still owes."""
    summary = summary_of(
        UserMessage(turn=1, text="Ship the smoke workflow."),
        edit(2, f"{ROOT}/notes/story.md"),
        edit(3, f"{ROOT}/ci/smoke.yaml"),
        shell(
            4,
            "git add ci/smoke.yaml && git status --short",
            "A  ci/smoke.yaml\n",
        ),
        shell(5, "git commit -m 'smoke'", "[feat 4f2a9c1] smoke\n 1 file changed\n"),
        shell(
            6,
            "gh pr create --title smoke --body x",
            "https://github.com/o/r/pull/219\n",
        ),
        edit(7, f"{ROOT}/notes/story.md"),
        shell(8, "gh pr merge 219 --squash", "✓ Squashed and merged pull request #219 (smoke)\n"),
    )
    pending = section(summary, "Pending Tasks")
    assert "not committed" not in pending
    assert (
        "1 changed file(s) `git status` did not list after an earlier change (turn 4), though no "
        "commit seen held them (ignored by git?), changed again since: `notes/story.md`"
    ) in pending
