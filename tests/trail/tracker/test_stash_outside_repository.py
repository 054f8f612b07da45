"""`git stash` and `git reset --hard` put back the repository's uncommitted changes: never a file outside it, nor a change a commit holds."""

from __future__ import annotations

from pathlib import Path

from .claude_bash import changed

ROOT = "/home/dev/app"
MEMORY = "/home/dev/.claude/projects/app/memory/MEMORY.md"


def test_a_stash_in_the_workspace_leaves_files_outside_it_changed(tmp_path: Path) -> None:
    files, _ = changed(
        tmp_path,
        ROOT,
        [
            ("cat app.py", "a = 1\n"),
            ("sed -i 's/a = 1/a = 2/' app.py", ""),
            (f"cat {MEMORY}", "# notes\n"),
            (f"echo '- pinned tools' >> {MEMORY}", ""),
            ("git stash -q", ""),
        ],
    )
    assert files == {"app.py": "reverted", MEMORY: "modified"}


def test_a_reset_run_in_another_repository_puts_back_its_own_files(tmp_path: Path) -> None:
    other = "/home/dev/lib/parser.py"
    files, _ = changed(
        tmp_path,
        ROOT,
        [
            (f"cat {other}", "x = 1\n"),
            (f"sed -i 's/x = 1/x = 2/' {other}", ""),
            ("sed -i 's/a = 1/a = 2/' app.py", ""),
            ("cd /home/dev/lib && git reset --hard -q", ""),
        ],
    )
    assert files == {other: "reverted", "app.py": "modified"}


COMMIT = "git add app.py && git commit -q -m 'pin tools' 2>&1 | tail -3; echo \"committed: $(git rev-parse --short HEAD)\""


def test_a_quiet_commit_that_printed_its_new_head_holds_the_change_a_stash_leaves(
    tmp_path: Path,
) -> None:
    files, _ = changed(
        tmp_path,
        ROOT,
        [
            ("cat app.py", "a = 1\n"),
            ("sed -i 's/a = 1/a = 2/' app.py", ""),
            (COMMIT, "committed: f85c594\n"),
            ("git stash -q", ""),
        ],
    )
    assert files == {"app.py": "modified"}


def test_a_quiet_commit_that_made_nothing_holds_nothing(tmp_path: Path) -> None:
    files, _ = changed(
        tmp_path,
        ROOT,
        [
            ("cat app.py", "a = 1\n"),
            ("sed -i 's/a = 1/a = 2/' app.py", ""),
            (COMMIT, "nothing added to commit but untracked files present\ncommitted: 0a1b2c3\n"),
            ("git stash -q", ""),
        ],
    )
    assert files == {"app.py": "reverted"}
