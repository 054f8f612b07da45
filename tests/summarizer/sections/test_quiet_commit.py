"""A ``git commit`` that printed no commit leaves the commit state unknown, never "no commit made"."""

from __future__ import annotations

from artifact_index.ingestion.events import Event, SessionInfo
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.tracker import Tracker
from summarizer.narrative.consistency import contradictions
from summarizer.sections.index_sections import render_index_section
from summarizer.sections.session_facts import session_facts
from tests.support.session_steps import ROOT, read, shell, write


def _work_state(*steps: list[Event] | Event) -> str:
    events: list[Event] = [SessionInfo(turn=0, cwd=ROOT)]
    for step in steps:
        events += step if isinstance(step, list) else [step]
    index: ArtifactIndex = Tracker(format="claude-code").feed_all(events)
    return render_index_section("work_state", session_facts(index))


def test_a_quiet_commit_that_ran_is_not_told_as_no_commit() -> None:
    work = _work_state(
        write(1, f"{ROOT}/docs/plan.md", "# Plan\n"),
        shell(2, "git add docs/ && git commit -q -m 'docs: plan'", ""),
    )

    assert "No commit seen" not in work
    assert "`git commit` ran at turn 2 but printed no commit" in work
    assert "whether it committed is not known" in work
    assert "Changed and not committed" not in work


def test_a_quiet_commit_a_git_log_shows_by_its_message_is_a_commit() -> None:
    # In the same command, or in a later one: the hash git log prints is the commit's.
    for steps in (
        [
            shell(
                2,
                "git add docs/ && git commit -q -m 'docs: plan' && git log --oneline -1",
                "6095459 docs: plan\n",
            )
        ],
        [
            shell(2, "git add docs/ && git commit -q -m 'docs: plan'", ""),
            shell(3, "git log --oneline -3", "6095459 (HEAD -> main) docs: plan\n1111111 init\n"),
        ],
    ):
        work = _work_state(write(1, f"{ROOT}/docs/plan.md", "# Plan\n"), *steps)

        assert "Commits made in the session (1):" in work
        assert "6095459" in work and "docs: plan" in work
        assert "printed no commit" not in work
        assert "Every changed file is committed." in work


def test_a_git_log_of_other_subjects_does_not_confirm_a_quiet_commit() -> None:
    work = _work_state(
        write(1, f"{ROOT}/docs/plan.md", "# Plan\n"),
        shell(2, "git add docs/ && git commit -q -m 'docs: plan'", ""),
        shell(3, "git log --oneline -2", "1111111 init\n2222222 docs: planning notes\n"),
    )

    assert "printed no commit" in work
    assert "Commits made" not in work


def test_a_commit_refused_with_nothing_to_commit_is_no_commit() -> None:
    work = _work_state(
        write(1, f"{ROOT}/docs/plan.md", "# Plan\n"),
        shell(2, "git commit -q -m 'docs: plan'", "nothing added to commit\n", False),
    )

    assert "No commit seen from the session's own calls." in work
    assert "printed no commit" not in work


def test_a_quiet_commit_before_a_shown_one_is_not_mentioned() -> None:
    work = _work_state(
        write(1, f"{ROOT}/a.md", "a\n"),
        shell(2, "git add a.md && git commit -q -m a", ""),
        write(3, f"{ROOT}/b.md", "b\n"),
        shell(4, "git add b.md && git commit -m b", "[main 1234567] b\n 1 file changed\n"),
    )

    assert "Commits made in the session (1):" in work
    assert "printed no commit" not in work


def test_a_quiet_commit_a_push_shows_is_a_commit() -> None:
    # The pushed range ends at the commit the quiet `git commit` made: its hash.
    work = _work_state(
        write(1, f"{ROOT}/docs/plan.md", "# Plan\n"),
        shell(2, "git add docs/ && git commit -q -m 'docs: plan'", ""),
        shell(
            3,
            "git push origin main",
            "To github.com:shop/app.git\n   1111111..6095459  main -> main\n",
        ),
    )

    assert "- `6095459` docs: plan (turn 2, pushed)" in work
    assert "printed no commit" not in work


def test_files_a_pull_or_merge_brought_in_are_not_uncommitted() -> None:
    # They came with the commits merged: only the session's own later edits are not committed.
    work = _work_state(
        write(1, f"{ROOT}/a.py", "x\n"),
        shell(2, "git add a.py && git commit -m a", "[main 1234567] a\n 1 file changed\n"),
        shell(
            3,
            "git pull",
            "Updating 1234567..89abcde\nFast-forward\n src/graph.py | 21 ++++\n"
            " src/ingest.py |  2 +-\n 2 files changed, 22 insertions(+), 1 deletion(-)\n"
            " create mode 100644 src/graph.py\n",
        ),
        shell(
            4,
            "git merge origin/docs",
            "Merge made by the 'ort' strategy.\n docs/x.md | 3 +++\n 1 file changed\n"
            " create mode 100644 docs/x.md\n",
        ),
        write(5, f"{ROOT}/src/ingest.py", "mine\n"),
    )

    assert "Changed and not committed: `src/ingest.py`" in work
    assert "graph.py" not in work and "docs/x.md" not in work


def test_work_committed_in_a_git_worktree_is_said_with_it() -> None:
    # The session made a worktree beside the workspace and committed there, quietly.
    work = _work_state(
        shell(1, "git worktree add -b feature ../shop-feature", "Preparing worktree\n"),
        write(2, "/home/dev/shop-feature/src/a.py", "x = 2\n"),
        shell(3, "cd ../shop-feature && git add -A && git commit -qm 'x is 2'", ""),
    )

    assert "No commit seen from the session's own calls." not in work
    assert "No commit seen in the workspace's own checkout from the session's own calls." in work
    assert "In the git worktree `../shop-feature`" in work
    assert "`git commit` ran there at turn 3 but printed no commit" in work


def test_a_file_changed_in_another_checkout_is_not_flagged_as_only_read() -> None:
    events: list[Event] = [SessionInfo(turn=0, cwd=ROOT)]
    events += read(1, f"{ROOT}/src/a.py", "x = 1\n")
    events += write(2, "/home/dev/shop-feature/src/a.py", "x = 2\n")
    facts = session_facts(Tracker(format="claude-code").feed_all(events))

    assert contradictions("Changed src/a.py to set x to 2.", facts) == []
    assert contradictions("Changed src/b.py to set x to 2.", facts) != []
