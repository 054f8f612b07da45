"""A hook that replaces a Bash result's text: the trail reads what the command really printed."""

from __future__ import annotations

from pathlib import Path

from .claude_bash import changed

ROOT = "/home/dev/app"


def test_a_failure_hidden_behind_a_stub_puts_nothing_back(tmp_path: Path) -> None:
    # A "token saver" hook showed the model "ok"; the record's stdout says the
    # stash failed, so the edited file keeps its change.
    files, _ = changed(
        tmp_path,
        ROOT,
        [
            ("echo 'x = 1' >> app.py", ""),
            ("git stash 2>&1 | tail -3", "error: could not write index"),
        ],
        shown={2: "ok"},
    )
    assert files == {"app.py": "modified"}


def test_files_named_only_in_the_real_output_are_read_from_it(tmp_path: Path) -> None:
    # The digest shown to the model drops the fast-forward's file list.
    files, _ = changed(
        tmp_path,
        ROOT,
        [
            (
                "git pull --ff-only",
                "Updating 1a2b3c4..5d6e7f8\nFast-forward\n src/server.py | 4 ++--\n"
                " 1 file changed, 2 insertions(+), 2 deletions(-)",
            )
        ],
        shown={1: "ok"},
    )
    assert files == {"src/server.py": "modified"}


def test_a_shown_text_longer_than_the_record_is_kept(tmp_path: Path) -> None:
    # Without a hook the result text is the output itself: nothing to replace.
    files, _ = changed(tmp_path, ROOT, [("touch notes.md", "")], shown={1: ""})
    assert files == {"notes.md": "created"}
