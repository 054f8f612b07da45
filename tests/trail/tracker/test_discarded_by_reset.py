"""A whole-tree reset throws away uncommitted changes the session did not make: git status had listed them."""

from __future__ import annotations

from pathlib import Path

from .claude_bash import changed

ROOT = "/home/dev/scraper"

DIRTY = """On branch main
Your branch is behind 'origin/main' by 3 commits, and can be fast-forwarded.

Changes not staged for commit:
  (use "git add <file>..." to update what will be committed)
\tmodified:   BLOG.md
\tmodified:   app.py

Untracked files:
  (use "git add <file>..." to include in what will be committed)
\tlogs/app.log

no changes added to commit (use "git add" and/or "git commit -a")
"""

APP = "def main():\n    return 1\n"


def test_a_reset_changes_the_uncommitted_files_a_status_listed(tmp_path: Path) -> None:
    files, _ = changed(
        tmp_path,
        ROOT,
        [
            ("cat app.py", APP),
            ("sed -i 's/return 1/return 2/' app.py", ""),
            ("git status", DIRTY),
            ("git reset --hard origin/main", "HEAD is now at f8ec5b2 Add README\n"),
        ],
    )
    # app.py was the session's own change: the reset puts it back.  BLOG.md held
    # someone's uncommitted edit, which the reset threw away; the untracked log stays.
    assert files == {"BLOG.md": "modified", "app.py": "reverted"}


def test_a_whole_tree_checkout_discards_them_too(tmp_path: Path) -> None:
    files, _ = changed(tmp_path, ROOT, [("git status", DIRTY), ("git checkout -- .", "")])
    assert files == {"BLOG.md": "modified", "app.py": "modified"}


def test_without_a_status_nothing_is_known_of_them(tmp_path: Path) -> None:
    files, _ = changed(tmp_path, ROOT, [("git reset --hard", "HEAD is now at f8ec5b2 x\n")])
    assert files == {}


def test_files_committed_since_the_status_are_not_discarded(tmp_path: Path) -> None:
    files, _ = changed(
        tmp_path,
        ROOT,
        [
            ("git status", DIRTY),
            (
                "git add -A && git commit -m 'wip'",
                "[main 4f2a9c1] wip\n 3 files changed, 5 insertions(+)\n",
            ),
            ("git reset --hard HEAD", "HEAD is now at 4f2a9c1 wip\n"),
        ],
    )
    assert files == {}


def test_a_kept_stash_may_hold_them(tmp_path: Path) -> None:
    files, _ = changed(
        tmp_path,
        ROOT,
        [
            ("cat app.py", APP),
            ("sed -i 's/return 1/return 2/' app.py", ""),
            ("git status", DIRTY),
            ("git stash", "Saved working directory and index state WIP on main: f8ec5b2 x\n"),
            ("git reset --hard", "HEAD is now at f8ec5b2 x\n"),
        ],
    )
    assert "BLOG.md" not in files


def test_a_reset_in_another_repository_leaves_the_workspace_alone(tmp_path: Path) -> None:
    files, _ = changed(
        tmp_path,
        ROOT,
        [
            ("git status", DIRTY),
            ("cd /home/dev/other && git reset --hard", "HEAD is now at 1a2b3c4 x\n"),
        ],
    )
    assert files == {}
