"""A removal whose file a program run before it found missing: nothing was removed."""

from __future__ import annotations

from pathlib import Path

from .claude_bash import changed

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
    # The second removal ran before the complaint: it did remove a file.
    assert files == {"/tmp/old.py": "deleted"}
