"""The offline summary says what is certain and no more.

Blind raters found, at real compaction points: a typed ``/compact`` taken for
the latest request; an error called open when the file its check named was
changed after it; an agent's announcement ("I'll update issue #532 ...")
listed as a root cause; decisions from long before the latest request read
as the state of things; a stale task list given as the next step while the
agent had handed over to the user, or after the user had asked for something
else; scratch files under ``/tmp`` pushing the
project's changed files out of a budget-cut list.
"""

from __future__ import annotations

from artifact_index.facts.decisions import Decision
from artifact_index.ingestion.events import AssistantMessage, ToolCall, ToolResult, UserMessage
from artifact_index.trail.session_state import UserSaid
from summarizer.narrative.offline_decisions import worth_stating
from summarizer.sections.file_lists import changed_paths
from summarizer.sections.thread import latest_request
from tests.support.session_steps import ROOT, edit, section, shell, summary_of, write


def test_a_typed_compact_is_not_the_latest_request() -> None:
    messages = [
        UserSaid(turn=1, text="Add a cache to the loader", channel="prompt"),
        UserSaid(turn=5, text="/compact", channel="prompt"),
    ]
    latest = latest_request(messages)
    assert latest is not None and latest.turn == 1


def test_an_error_whose_file_changed_after_it_is_not_called_open() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Tidy lib/loader.py"),
        edit(2, f"{ROOT}/lib/loader.py"),
        shell(3, "ruff format --check lib/loader.py", "Would reformat: lib/loader.py", ok=False),
        edit(4, f"{ROOT}/lib/loader.py", "b", "c"),
        AssistantMessage(turn=5, text="Formatted."),
    )
    errors = section(summary, "Errors")
    assert "[OPEN]" not in errors
    assert "changed after it: `lib/loader.py` (turn 4); the check was not seen run again" in errors
    assert "error(s) open" not in section(summary, "Current State")


def test_an_error_with_nothing_after_it_stays_open() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Tidy lib/loader.py"),
        edit(2, f"{ROOT}/lib/loader.py"),
        shell(3, "ruff format --check lib/loader.py", "Would reformat: lib/loader.py", ok=False),
    )
    assert "[OPEN]" in section(summary, "Errors")


def test_an_announced_action_is_no_decision_nor_root_cause() -> None:
    announced = Decision(
        kind="root-cause",
        text="I'll update issue #532 — its stated root cause is now wrong.",
        turn=9,
        files=[],
        symbols=[],
    )
    found = announced.model_copy(
        update={"text": "The template branched on a variable the regex never captured."}
    )
    assert not worth_stating(announced)
    assert worth_stating(found)


def test_a_decision_before_the_latest_request_is_said_as_earlier() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Make the loader faster"),
        AssistantMessage(turn=2, text="Should I cache on disk?"),
        UserMessage(turn=3, text="No, let's keep it in memory because the disk is slow."),
        edit(4, f"{ROOT}/lib/loader.py"),
        UserMessage(turn=5, text="Now document it"),
        edit(6, f"{ROOT}/README.md"),
    )
    assert "(turn 3, before the latest request) The user" in section(summary, "Decisions Made")


def test_the_hand_over_leads_the_next_steps_and_an_old_task_list_is_dated() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Release it"),
        AssistantMessage(turn=2, text="Planning."),
        *_todo(3, "Prepare the release notes"),
        UserMessage(turn=4, text="proceed"),
        edit(5, f"{ROOT}/CHANGELOG.md"),
        AssistantMessage(turn=6, text="The signing agent refused: you need to commit yourself."),
    )
    steps = section(summary, "Next Steps").split("\n")
    assert steps[0].startswith("- The agent's last message (turn 6) reported back")
    assert any(
        "Prepare the release notes (the agent's task list of turn 3, written before the latest "
        "request of turn 4" in step
        for step in steps
    )


def test_a_task_list_from_before_a_new_request_is_no_next_step() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Add the diagnose phase and plan the corpus harness"),
        *_todo(2, "Add DIAGNOSE to the phase enum"),
        edit(3, f"{ROOT}/tests/test_phases.py"),
        AssistantMessage(turn=4, text="Context is nearly full. How do you want to proceed?"),
        UserMessage(turn=5, text="Write a hand-off note for a fresh session"),
        write(6, f"{ROOT}/docs/handoff.md", "# Hand-off\n"),
    )
    steps = section(summary, "Next Steps")
    assert "DIAGNOSE" not in steps  # the old plan, still listed under Pending Tasks with its turn
    assert "Add DIAGNOSE to the phase enum" in section(summary, "Pending Tasks")
    assert steps.startswith(
        '- Go on with the latest request (turn 5): "Write a hand-off note for a fresh session"'
    )


def test_an_offer_to_the_user_is_the_hand_over_not_a_step_the_agent_stated() -> None:
    # "Let me know if you'd like ..." leaves the choice to the user; cut at "e.g." it had read as the agent's own
    # plan ("The agent said it would: Let me know if you'd like to keep going — e.g.").
    summary = summary_of(
        UserMessage(turn=1, text="Write up the routing rules as a design note"),
        write(2, f"{ROOT}/docs/routing.md", "# Routing\n"),
        UserMessage(turn=3, text="commit this"),
        shell(4, "git commit -am 'docs: routing note'", "[main 1a2b3c4] docs: routing note"),
        AssistantMessage(
            turn=5,
            text="Committed as `1a2b3c4`. Let me know if you'd like to keep going — e.g. a pass on "
            "`docs/ingest.md` against the real data, or wiring the rules into `ingest.py`.",
        ),
    )
    steps = section(summary, "Next Steps")
    assert "said it would" not in steps
    assert steps.startswith(
        "- No next step stated: the agent's last message (turn 5) leaves it to the user: \"Let me know if "
        "you'd like to keep going — e.g. a pass on `docs/ingest.md` against the real data, or wiring the rules "
        'into `ingest.py`."; the next move is theirs.'
    )


def test_an_answer_in_the_last_message_is_not_denied_under_findings() -> None:
    summary = summary_of(
        UserMessage(
            turn=1, text="The scraper's spans are missing from the dashboard; find out why"
        ),
        *_read(2, f"{ROOT}/scraper/classifier.py"),
        AssistantMessage(
            turn=3,
            text="Found the problem: the classifier enables tracing a second time at import, which resets "
            "the session the runner had set up.",
        ),
    )
    findings = section(summary, "Findings")
    assert "No conclusion recorded" not in findings
    assert "is its last message (turn 3), under Where It Stopped" in findings


def _read(turn: int, path: str) -> list[object]:
    return [
        ToolCall(turn=turn, call_id=f"r{turn}", tool="Read", arguments={"file_path": path}),
        ToolResult(turn=turn, call_id=f"r{turn}", status="success", output="import tracing\n"),
    ]


def _todo(turn: int, content: str) -> list[object]:
    todos = [{"content": content, "status": "in_progress", "activeForm": content}]
    return [
        ToolCall(turn=turn, call_id=f"t{turn}", tool="TodoWrite", arguments={"todos": todos}),
        ToolResult(turn=turn, call_id=f"t{turn}", status="success", output="ok"),
    ]


def test_scratch_files_come_after_the_project_files_their_folder_said_once() -> None:
    scratch = "/tmp/claude-1000/-home-me-project/5e12a303/scratchpad"
    summary = summary_of(
        UserMessage(turn=1, text="Try the schema, then fix the workflow"),
        write(2, f"{scratch}/cuetest/schema.cue", "a"),
        write(3, f"{scratch}/cuetest/t1.json", "{}"),
        edit(4, f"{ROOT}/.github/workflows/cleanup.yml"),
        write(5, f"{ROOT}/docs/spec.md", "# Spec"),
    )
    lines = changed_paths(summary.facts).split("\n")
    assert lines == [
        "- created in docs/ (1): `spec.md`",
        "- modified in .github/workflows/ (1): `cleanup.yml`",
        f"- created outside the workspace under {scratch}/cuetest/ (2): `schema.cue`, `t1.json`",
    ]


def test_a_file_changed_in_a_git_worktree_is_described_as_project_work() -> None:
    # The session fixed the bug in a worktree beside the workspace: its files are the work, not scratch files
    # to be listed by path only (raters read "outside the workspace" as nothing of the project changed).
    summary = summary_of(
        UserMessage(turn=1, text="Fix the cart rounding on a branch of its own"),
        shell(2, "git worktree add ../shop-rounding -b fix/rounding", "Preparing worktree"),
        write(3, "/home/dev/shop-rounding/shop/cart.py", "def cart_total(items):\n    return 0\n"),
        edit(
            4,
            "/home/dev/shop-rounding/shop/cart.py",
            old="def cart_total(items):\n    return 0\n",
            new='def cart_total(items):\n    """The total in cents."""\n    return round(sum(items), 2)\n',
        ),
        shell(
            5,
            "cd ../shop-rounding && git commit -am 'fix: round the total'",
            "[fix/rounding 1a2b3c4] fix: round the total\n 1 file changed",
        ),
        write(6, "/tmp/rounding-notes.txt", "checked\n"),
        UserMessage(turn=7, text="merged"),
        AssistantMessage(turn=8, text="Cleaned up."),
    )
    files = section(summary, "Files Changed").split("\n")
    worktree = next(line for line in files if "shop-rounding/shop/cart.py" in line)
    assert "outside the workspace" not in worktree
    assert "defines `def cart_total(items)` (The total in cents.)" in worktree
    assert worktree.endswith("(in the git worktree `../shop-rounding`)")
    scratch = next(line for line in files if "rounding-notes" in line)
    assert scratch.endswith("outside the workspace)")


def test_files_with_the_same_story_share_one_line_naming_each() -> None:
    # A merge's conflicts resolved file by file, committed, then the tree reset to the remote branch: the
    # same long sentence once per file had filled the section.
    conflict = "<<<<<<< HEAD\nx\n=======\ny\n>>>>>>> main\n"
    summary = summary_of(
        UserMessage(turn=1, text="Resolve the merge conflicts of the PR"),
        shell(
            2,
            "git merge origin/main",
            "Automatic merge failed; fix conflicts and then commit the result.",
        ),
        edit(3, f"{ROOT}/shop/a.py", conflict, "y\n"),
        edit(4, f"{ROOT}/shop/b.py", conflict, "y\n"),
        edit(4, f"{ROOT}/shop/c.py", conflict, "y\n"),
        shell(6, "git add -A && git commit -m 'Merge main'", "[feature 0cc4454] Merge main\n"),
        shell(7, "git reset --hard origin/main", "HEAD is now at 9d1e2f0 Release 1.4\n"),
        AssistantMessage(turn=8, text="Done."),
    )
    assert section(summary, "Files Changed").rstrip() == (
        "- `shop/a.py`, `shop/b.py`, `shop/c.py` (3 files), each changed (turns 3, 4), committed in `0cc4454` "
        "(turn 6), then `git reset --hard origin/main` (turn 7) set it to a version git had; its change is kept "
        "in the commit, and "
        "whether the version now on disk holds it is not shown"
    )


def test_a_numbered_plan_the_agent_announced_is_one_step_with_every_item() -> None:
    # Split into sentences, the numbers of the list were sentences of their own and the items that do not open
    # with a verb of change ("Slightly reduce ...") were lost from the next steps.
    summary = summary_of(
        UserMessage(turn=1, text="The near stars look like white dots, not stars."),
        *_read(2, f"{ROOT}/Sky/StarField.swift"),
        AssistantMessage(
            turn=3,
            text="The white dots are all identical. I need to:\n1. Add colour variation (blue-white to orange)\n"
            "2. Add brightness variation\n3. Slightly reduce the near-star size so they read as points\n\n"
            "The efficient approach: six shared materials rather than 3000.",
        ),
        *_read(3, f"{ROOT}/Sky/StarField.swift"),
    )
    steps = section(summary, "Next Steps")
    assert (
        "- Carry out the plan the agent last announced (turn 3); the calls since changed no file yet: I need to: "
        "1. Add colour variation (blue-white to orange) 2. Add brightness variation 3. Slightly reduce the "
        "near-star size so they read as points\n"
    ) in steps


def test_a_numbered_plan_in_the_last_message_is_the_step_the_agent_stated() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="The near stars look like white dots, not stars."),
        *_read(2, f"{ROOT}/Sky/StarField.swift"),
        AssistantMessage(
            turn=3,
            text="Next, I'll:\n- add colour variation\n- add brightness variation\n- shrink the near stars",
        ),
    )
    assert (
        "The agent said it would: Next, I'll: - add colour variation - add brightness variation - shrink the near "
        "stars"
    ) in section(summary, "Next Steps")


def test_a_named_file_changed_before_the_request_is_not_flagged_against_its_own_step() -> None:
    # "... names and the session has not changed yet: `executor.rs`" was flagged by the summary's own check
    # ("⚠ [index: `executor.rs` was changed, last at turn 2]"): the step contradicted itself.
    summary = summary_of(
        UserMessage(turn=1, text="Merge the rebase methods"),
        edit(2, f"{ROOT}/src/executor.rs"),
        UserMessage(
            turn=3,
            text="Review: src/executor.rs:664 drops public methods; src/actions.rs:60 changes messages",
        ),
        edit(4, f"{ROOT}/src/actions.rs"),
        AssistantMessage(turn=5, text="Now the other call sites:"),
        *_read(5, f"{ROOT}/src/actions.rs"),
    )
    steps = section(summary, "Next Steps")
    assert (
        "Files the latest request (turn 3) names, with no change since it: `src/executor.rs`"
        in steps
    )
    assert "⚠" not in steps


def test_a_question_queued_while_the_agent_worked_is_not_the_work_in_hand() -> None:
    # Typed while the agent was getting a PR merged, "do we not have uv run in permissions?" had become the
    # latest request of an investigation "with no conclusion", and the PR work in flight was lost.
    summary = summary_of(
        UserMessage(turn=1, text="Fix the failing CI on main"),
        edit(2, f"{ROOT}/tests/test_voice.py"),
        UserMessage(
            turn=3,
            text="OK, now follow the workflow to get our changes merged, via PR, copilot fb etc.",
        ),
        shell(
            4, "git commit -am 'fix: tests for the new voices'", "[fix/voices 8fc2cfa] fix: tests"
        ),
        UserMessage(turn=5, text="do we not have uv run in permissions?", channel="queued"),
        shell(6, "gh pr create --fill", "https://github.com/acme/shop/pull/35"),
        shell(7, "gh pr checks 35 --watch", "All checks were successful"),
        shell(8, "gh pr view 35 --comments", "copilot: looks good"),
        AssistantMessage(
            turn=9, text="All CI checks passed. Now let me check for Copilot review comments."
        ),
        shell(9, "gh api repos/acme/shop/pulls/35/comments", "[]"),
    )
    intent = section(summary, "Session Intent")
    assert "Latest request (turn 3): OK, now follow the workflow" in intent
    assert "Then the user said: (turn 5) do we not have uv run in permissions?" in intent
    steps = section(summary, "Next Steps")
    assert "Answer the open request" not in steps
    assert steps.startswith(
        "- Where the work stood when the context filled, on the request of turn 3 and the messages queued "
        "while it worked (to turn 5, under User Messages)"
    )


def test_the_fix_the_last_message_states_is_a_step() -> None:
    # "The fix is to remove ..." closed the agent's diagnosis; the next steps had said only that it waited.
    summary = summary_of(
        UserMessage(turn=1, text="The scraper's spans are missing from the dashboard"),
        *_read(2, f"{ROOT}/scraper/classifier.py"),
        AssistantMessage(
            turn=3,
            text="Found the problem: the classifier enables tracing a second time at import. The fix is to "
            "remove the manual enable() call from `classifier.py` and let the runner set tracing up.",
        ),
    )
    assert (
        "The agent said it would: The fix is to remove the manual enable() call from `classifier.py` and let "
        "the runner set tracing up."
    ) in section(summary, "Next Steps")


def test_an_acknowledged_instruction_is_not_the_agents_decision() -> None:
    # "Understood — I'll work only from ... rather than exploring ..." took up what the user said then; listed
    # under Decisions it outlived the user's next request to explore after all.
    acknowledged = Decision(
        kind="choice",
        text="Understood — I'll work only from the RESOLVER.md content already shared rather than exploring "
        "your KB directory.",
        turn=5,
        files=["RESOLVER.md"],
        symbols=[],
    )
    reasoned = acknowledged.model_copy(
        update={
            "text": "I'll keep RESOLVER.md's routing table rather than a JSON blob, so each rule stays reviewable."
        }
    )
    assert not worth_stating(acknowledged)
    assert not worth_stating(acknowledged.model_copy(update={"kind": "rejected-alternative"}))
    assert worth_stating(reasoned)


def test_files_one_command_changed_share_one_line_naming_each() -> None:
    # `git checkout --theirs` over a dozen files had put the same status, command and turn on a dozen lines.
    summary = summary_of(
        UserMessage(
            turn=1, text="Resolve the merge conflicts, keep their version of the tool files"
        ),
        shell(
            2,
            "git checkout --theirs shop/tools/a.py shop/tools/b.py shop/tools/c.py",
            "Updated 3 paths from the index",
        ),
        edit(3, f"{ROOT}/shop/cart.py", old="return total", new="return round(total, 2)"),
    )
    changed = section(summary, "Files Changed")
    assert changed.count("git checkout --theirs") == 1
    assert (
        "- `shop/tools/a.py`, `shop/tools/b.py`, `shop/tools/c.py` (3 files), each (modified): via `git checkout "
        "--theirs"
    ) in changed
