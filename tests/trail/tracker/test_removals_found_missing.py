"""A removal whose file a program run before it found missing: nothing was removed."""

from __future__ import annotations

from pathlib import Path

from artifact_index.trail.build import build_index
from artifact_index.trail.file_reports import file_reports

from .claude_bash import changed, transcript

ROOT = "/home/dev/app"


def test_a_removal_of_a_file_an_earlier_program_found_missing_removes_nothing(
    tmp_path: Path,
) -> None:
    files, _ = changed(
        tmp_path,
        ROOT,
        [
            (
                "python3 /tmp/check.py; rm -f /tmp/check.py",
                "python3: can't open file '/tmp/check.py': [Errno 2] No such file or directory",
            ),
            (
                "rm -f /tmp/old.py; python3 /tmp/old.py",
                "python3: can't open file '/tmp/old.py': [Errno 2] No such file or directory",
            ),
        ],
    )
    # The second removal ran before the complaint, which says only that the file is gone after
    # it: `rm -f` is silent either way, and nothing showed /tmp/old.py was there.
    assert files == {}


def test_a_forced_removal_of_a_temporary_file_never_seen_removes_nothing_known(
    tmp_path: Path,
) -> None:
    # `rm -f` is silent whether or not the file was there; nothing showed /tmp/probe existed.
    # One the session wrote is removed all the same, as is a workspace file.
    files, _ = changed(
        tmp_path,
        ROOT,
        [
            ("echo hi > /tmp/made.txt", ""),
            ("rm -f /tmp/probe /tmp/made.txt old.py && echo cleaned", "cleaned"),
        ],
    )
    assert files == {"/tmp/made.txt": "reverted", "old.py": "deleted"}


def test_a_file_removed_then_staged_with_git_rm_was_deleted_by_the_rm(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(
        transcript(
            "/home/dev/app",
            [
                ("cat zsh/gb.zsh", "gb() {}\n"),
                ("rm /home/dev/app/zsh/gb.zsh", ""),
                ("git rm zsh/gb.zsh 2>/dev/null", "rm 'zsh/gb.zsh'\n"),
            ],
        )
    )
    index, _ = build_index(path)
    [report] = file_reports(index)
    assert (report.status, report.shell_command) == ("deleted", "rm /home/dev/app/zsh/gb.zsh")
