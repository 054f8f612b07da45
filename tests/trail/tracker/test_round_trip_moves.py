"""A file moved away and moved back unchanged: a round trip, not a change."""

from __future__ import annotations

from pathlib import Path

from .claude_bash import changed

ROOT = "/home/dev/app"


def test_a_file_moved_away_and_back_unchanged_is_put_back(tmp_path: Path) -> None:
    files, _ = changed(
        tmp_path,
        ROOT,
        [
            ("mkdir -p /tmp/stash && mv BUILD_PLAN.md /tmp/stash/", ""),
            ("git status --short", ""),
            ("mv /tmp/stash/BUILD_PLAN.md .", ""),
        ],
    )
    assert files["BUILD_PLAN.md"] == "reverted"
    # The stash's copy was made and moved away again: nothing of it is left.
    assert files["/tmp/stash/BUILD_PLAN.md"] == "reverted"


def test_a_file_changed_while_away_is_modified_when_it_comes_back(tmp_path: Path) -> None:
    files, _ = changed(
        tmp_path,
        ROOT,
        [
            ("mv BUILD_PLAN.md /tmp/stash/", ""),
            ("echo '- [ ] ship' >> /tmp/stash/BUILD_PLAN.md", ""),
            ("mv /tmp/stash/BUILD_PLAN.md .", ""),
        ],
    )
    assert files["BUILD_PLAN.md"] == "modified"


def test_a_file_moved_back_to_another_name_is_a_rename(tmp_path: Path) -> None:
    files, _ = changed(
        tmp_path,
        ROOT,
        [
            ("mv BUILD_PLAN.md /tmp/stash/", ""),
            ("mv /tmp/stash/BUILD_PLAN.md PLAN.md", ""),
        ],
    )
    assert files["BUILD_PLAN.md"] == "deleted"
    assert files["PLAN.md"] == "created"
