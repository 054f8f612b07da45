"""Files a `git worktree add` checked out were in the repository before the session, though their folder is new."""

from __future__ import annotations

from pathlib import Path

from artifact_index.trail.build import build_index
from tests.support.transcript_writers import ROOT, Step, claude_code

# Claude Code's scratchpad for the writer's session: nothing there predates the session...
SCRATCHPAD = "/tmp/claude-501/-home-dev-shop/9d0c4a52-7e1b-4f38-a6c2-3b5e8d1f0a47/scratchpad"
WORKTREE = f"{SCRATCHPAD}/skills-wt"
IGNORE = f"{WORKTREE}/.gitignore"


def _statuses(tmp_path: Path, making: str) -> dict[str, str | None]:
    """The statuses of a session that makes the worktree folder by ``making``, then edits a file there and puts it back."""
    steps = [
        Step("user", text="add the skills on a branch of their own"),
        Step("shell", command=making, output="Preparing worktree (new branch 'skills')\n"),
        Step("read", path=IGNORE, content=".env\n.claude/\n"),
        Step("edit", path=IGNORE, old=".claude/", new=".claude/*\n!.claude/skills/"),
        Step("edit", path=IGNORE, old=".claude/*\n!.claude/skills/", new=".claude/"),
        Step("shell", command=f"cd {ROOT} && git worktree remove {WORKTREE}", output=""),
    ]
    path = tmp_path / "session.jsonl"
    path.write_text(claude_code(steps), encoding="utf-8")
    index, _ = build_index(path)
    return {f.path: f.status for f in index.files()}


def test_a_file_a_worktree_checked_out_predates_the_session(tmp_path: Path) -> None:
    # ...but the checkout put the repository's files there: the removal deletes one that was there.
    statuses = _statuses(tmp_path, f"git worktree add {WORKTREE} -b skills origin/main")
    assert statuses == {IGNORE: "deleted"}


def test_a_worktree_added_relative_to_a_cd_is_placed(tmp_path: Path) -> None:
    statuses = _statuses(tmp_path, f"cd {SCRATCHPAD} && git worktree add --lock skills-wt")
    assert statuses == {IGNORE: "deleted"}


def test_a_folder_the_session_made_otherwise_holds_only_its_own_files(tmp_path: Path) -> None:
    # A worktree with nothing checked out, or a plain folder: the file was made in the session,
    # and its removal leaves nothing that predates it.
    for making in (
        f"git worktree add --no-checkout {WORKTREE} origin/main",
        f"mkdir -p {WORKTREE}",
    ):
        assert _statuses(tmp_path, making) == {IGNORE: "reverted"}, making


def test_a_tree_the_session_copied_into_the_worktree_holds_only_what_it_put_there(
    tmp_path: Path,
) -> None:
    steps = [
        Step("user", text="stage the skills in the worktree"),
        Step(
            "shell",
            command=f"git worktree add {WORKTREE} -b skills && cp -R .claude/skills"
            f" {WORKTREE}/.staging",
            output="Preparing worktree (new branch 'skills')\n",
        ),
        Step("shell", command=f"cd {WORKTREE} && mv .staging skills", output=""),
    ]
    path = tmp_path / "session.jsonl"
    path.write_text(claude_code(steps), encoding="utf-8")
    index, _ = build_index(path)
    statuses = {f.path: f.status for f in index.files()}
    # The copy made the folder that was moved away: nothing that predates the session is gone.
    assert statuses[f"{WORKTREE}/.staging"] == "reverted"
