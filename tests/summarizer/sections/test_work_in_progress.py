"""What the continuing agent reads about work still in flight: checks owed, the tracker item in progress, findings.

Small hand-written sessions summarized offline with the default template.
The next step is derived from what happened: a file changed after the last
test run is "not yet tested", never shown as passing; an item of the issue
tracker in progress lists the finishing steps the session took for the
items it closed and has not taken for this one; the agent's conclusions are
kept whole; a move reads as a move.
"""

from __future__ import annotations

from artifact_index.ingestion.events import (
    AssistantMessage,
    FileOperation,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
)
from summarizer.narrative.llm import build_prompt
from summarizer.sections.templates import load_template
from summarizer.summary import summarize
from tests.support.session_steps import bead, edit, search, section, shell, summary_of
from tests.support.summary_fixtures import ScriptedWriter, reply

PASSED = "===== 12 passed in 0.30s =====\n"


# --- checks owed ----------------------------------------------------------------------------------


def test_a_test_written_after_the_last_run_is_not_shown_as_tested() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Round cart totals to cents."),
        edit(2, "/home/dev/shop/cart.py"),
        shell(3, "pytest -q 2>&1 | tail -3", PASSED),
        AssistantMessage(turn=4, text="Now let me add a test for a 99-line cart:"),
        edit(4, "/home/dev/shop/tests/test_cart.py"),
    )
    assert (
        "- Not tested by any run seen since their last change: `tests/test_cart.py` (turn 4); the last run was "
        "`pytest -q` (turn 3)."
    ) in section(summary, "Test Status")
    state = section(summary, "Current State")
    assert (
        "Last run of `pytest -q 2>&1 | tail -3` (turn 3): 12 passed, 0 failed; files changed after it are not "
        "yet tested." in state
    )
    # Owed, but not stated as a step: Test Status says it, Next Steps does not guess it.
    assert "`tests/test_cart.py`" in section(summary, "Test Status")
    assert "Run `pytest -q` again" not in section(summary, "Next Steps")


def test_an_empty_task_list_is_not_finished_work_while_changes_are_unchecked() -> None:
    todo = {"todos": [{"content": "Round totals", "status": "completed"}]}
    summary = summary_of(
        UserMessage(turn=1, text="Round cart totals to cents."),
        edit(2, "/home/dev/shop/cart.py"),
        shell(3, "ruff check . && pytest -q", "All checks passed!\n" + PASSED),
        [
            ToolCall(turn=4, call_id="t1", tool="TodoWrite", arguments=todo, operations=()),
            ToolResult(turn=4, call_id="t1", status="success", output="ok"),
        ],
        UserMessage(turn=5, text="The receipt still shows 10.005, please fix it."),
        edit(6, "/home/dev/shop/receipt.py"),
    )
    pending = section(summary, "Pending Tasks")
    assert "None open" not in pending
    assert pending.endswith(
        "Still unfinished: 1 changed file(s) not linted or tested by any run seen since their last "
        "change: `receipt.py`.\n"
    )
    assert (
        "- Not linted or tested by any run seen since their last change: `receipt.py` (turn 6)"
        in section(summary, "Test Status")
    )


def test_changes_tested_since_but_not_linted_are_owed_a_lint_not_a_check() -> None:
    """Files a passing test run covered are not "unchecked": only the kind of check not seen since is owed."""
    todo = {"todos": [{"content": "Round totals", "status": "completed"}]}
    summary = summary_of(
        UserMessage(turn=1, text="Round cart totals to cents."),
        shell(2, "ruff check .", "All checks passed!\n"),
        edit(3, "/home/dev/shop/tests/test_cart.py"),
        shell(4, "pytest -q tests/test_cart.py 2>&1 | tail -3", PASSED),
        [
            ToolCall(turn=5, call_id="t1", tool="TodoWrite", arguments=todo, operations=()),
            ToolResult(turn=5, call_id="t1", status="success", output="ok"),
        ],
    )
    pending = section(summary, "Pending Tasks")
    assert (
        "1 changed file(s) not linted by any run seen since their last change: `tests/test_cart.py`"
        in pending
    )
    assert "tested" not in pending


# --- a tracker item in progress -------------------------------------------------------------------


def test_the_item_in_progress_lists_the_finishing_steps_earlier_items_had_and_it_lacks() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Work through the beads of shop-cart."),
        bead(2, "shop-cart.1", "Round line totals"),
        shell(3, "bd update shop-cart.1 --status in_progress", "✓ Updated issue: shop-cart.1\n"),
        edit(4, "/home/dev/shop/cart.py"),
        shell(5, "mix test 2>&1 | tail -3", "Finished in 0.4 seconds\n12 tests, 0 failures\n"),
        shell(6, "mix credo --strict lib/cart.ex", "Analysis took 0.1 seconds\nfound no issues.\n"),
        shell(7, "bd close shop-cart.1", "✓ Closed shop-cart.1: Closed\n"),
        shell(
            8,
            "git add -A && git commit -m 'Round line totals (shop-cart.1)'",
            "[shop-cart 1a2b3c4] Round line totals (shop-cart.1)\n 1 file changed\n",
        ),
        bead(9, "shop-cart.2", "Show rounding on the receipt"),
        shell(10, "bd update shop-cart.2 --status in_progress", "✓ Updated issue: shop-cart.2\n"),
        edit(11, "/home/dev/shop/receipt.py"),
        bead(12, "shop-cart.3", "Currency symbols"),
    )
    pending = section(summary, "Pending Tasks")
    assert pending.startswith(
        "Issue tracker (`bd`), as the session's commands left it:\n"
        "- [in progress] `shop-cart.2` Show rounding on the receipt (started turn 10)\n"
        "  - changed since it started: `receipt.py` (turn 11)\n"
        "  - not done for it yet, as for `shop-cart.1`: `mix credo`, `mix test`, "
        "`bd close shop-cart.2`, commit\n"
        "- [open] `shop-cart.3` Currency symbols\n"
        "- closed: `shop-cart.1` (turn 7)"
    )
    steps = section(summary, "Next Steps")
    assert steps.startswith(
        "- Finish `shop-cart.2` (Show rounding on the receipt): still to do, as done for "
        "`shop-cart.1`: `mix credo`, `mix test`, `bd close shop-cart.2`, commit.\n"
    )
    assert "- Then the next open tracker item(s): `shop-cart.3` (Currency symbols)." in steps
    assert (
        "Working on `shop-cart.2` (Show rounding on the receipt), in progress since turn 10."
        in section(summary, "Current State")
    )


# --- findings, decisions, moves, repositories ---------------------------------------------------


FOUND = (
    "**Found it!** The receipt formats the unrounded `line.amount`, not `line.total`:\n\n"
    '```python\nprint(f"{line.amount:.3f}")\n```\n\n'
    "So the cart is right and only the receipt shows three decimals. "
    "The fix belongs in `receipt.py`, not in `cart.py`."
)


def test_a_finding_is_kept_whole_and_an_announced_search_is_not_one() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Why does the receipt show 10.005?"),
        AssistantMessage(
            turn=2,
            text="Let me trace the actual issue in the receipt code before changing anything.",
        ),
        search(2, "/home/dev/shop/receipt.py"),
        AssistantMessage(turn=3, text=FOUND),
        search(3, "/home/dev/shop/cart.py"),
        AssistantMessage(turn=4, text="Checking the cart tests next."),
    )
    findings = section(summary, "Findings")
    assert findings.startswith(
        "- (turn 3) **Found it!** The receipt formats the unrounded `line.amount`"
    )
    assert '  ```python\n  print(f"{line.amount:.3f}")\n  ```' in findings
    assert "The fix belongs in `receipt.py`, not in `cart.py`." in findings
    assert "trace the actual issue" not in findings


def test_the_answer_to_a_question_is_a_finding_and_a_request_is_not_a_question() -> None:
    answer = (
        "The cart rounds each line half-even in `Cart.total`, so 10.005 becomes 10.00; the receipt never "
        "calls it and formats the raw amount with three decimals, which is what you saw."
    )
    summary = summary_of(
        UserMessage(turn=1, text="How does the cart round totals?"),
        AssistantMessage(turn=2, text=answer),
        UserMessage(turn=3, text="Can you sort the receipt lines by name?"),
        AssistantMessage(
            turn=4,
            text="Done. The receipt lines are now sorted by name in `receipt.py`, "
            "case-insensitively, and the totals are unchanged. " * 3,
        ),
        UserMessage(turn=5, text="Thanks, commit it."),
    )
    findings = section(summary, "Findings")
    assert findings == f"- (turn 2) {answer}\n"


def test_a_choice_without_reason_or_object_is_not_a_decision() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Round cart totals to cents."),
        AssistantMessage(turn=2, text="Expected — I'll use that alias in the next edits."),
        edit(2, "/home/dev/shop/cart.py"),
        AssistantMessage(
            turn=3,
            text="I'll use half-even rounding in cart.py rather than half-up, because the "
            "bank statements round that way.",
        ),
        edit(3, "/home/dev/shop/cart.py"),
    )
    decisions = section(summary, "Decisions Made")
    assert "alias" not in decisions
    assert "(turn 3) I'll use half-even rounding in cart.py rather than half-up" in decisions


def test_a_moved_file_reads_as_moved() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Write the scenarios doc, then move it to docs/architecture."),
        [
            ToolCall(
                turn=2,
                call_id="w1",
                tool="Write",
                arguments={"file_path": "/home/dev/shop/docs/scenarios.md"},
                operations=(
                    FileOperation(
                        action="create",
                        path="/home/dev/shop/docs/scenarios.md",
                        content="# Scenarios\n",
                    ),
                ),
            ),
            ToolResult(turn=2, call_id="w1", status="success"),
        ],
        [
            ToolCall(
                turn=3,
                call_id="m1",
                tool="Bash",
                arguments={
                    "command": "mkdir -p docs/architecture && "
                    "mv docs/scenarios.md docs/architecture/"
                },
                operations=(
                    FileOperation(
                        action="shell",
                        source="shell",
                        command="mkdir -p docs/architecture && mv docs/scenarios.md "
                        "docs/architecture/",
                    ),
                ),
            ),
            ToolResult(turn=3, call_id="m1", status="success"),
        ],
    )
    changed = section(summary, "Files Changed")
    assert "- `docs/scenarios.md` (moved to `docs/architecture/scenarios.md`)" in changed
    assert (
        "- `docs/architecture/scenarios.md` (created, then moved here from `docs/scenarios.md`)"
        in changed
    )
    assert "reverted" not in changed
    # Written in the session, then moved: one new file, counted as created wherever it is counted.
    assert section(summary, "Current State").startswith(
        "- 1 file(s) created, 0 modified, 0 deleted."
    )


def test_a_file_that_existed_before_and_was_moved_counts_as_moved() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Move the scenarios doc to docs/architecture."),
        [
            ToolCall(
                turn=2,
                call_id="r1",
                tool="Read",
                arguments={"file_path": "/home/dev/shop/docs/scenarios.md"},
                operations=(FileOperation(action="read", path="/home/dev/shop/docs/scenarios.md"),),
            ),
            ToolResult(turn=2, call_id="r1", status="success", output="# Scenarios\n"),
        ],
        [
            ToolCall(
                turn=3,
                call_id="m2",
                tool="Bash",
                arguments={"command": "git mv docs/scenarios.md docs/architecture/"},
                operations=(
                    FileOperation(
                        action="shell",
                        source="shell",
                        command="git mv docs/scenarios.md docs/architecture/",
                    ),
                ),
            ),
            ToolResult(turn=3, call_id="m2", status="success"),
        ],
    )
    changed = section(summary, "Files Changed")
    assert "- `docs/architecture/scenarios.md` (moved here from `docs/scenarios.md`)" in changed
    assert section(summary, "Current State").startswith(
        "- 0 file(s) created, 0 modified, 0 deleted, 1 moved."
    )


def test_work_state_says_only_what_git_showed_and_keeps_other_repositories_apart() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Compare with the site repository."),
        edit(2, "/home/dev/shop/cart.py"),
        shell(
            3,
            "cd ../site && git status",
            "On branch feature/receipts\nnothing to commit\n"
            "Shell cwd was reset to /home/dev/shop\n",
        ),
    )
    work = section(summary, "Work State")
    assert "Branch" not in work.splitlines()[0] and "not seen" not in work
    assert work == (
        "No commit seen from the session's own calls.\nChanged and not committed: `cart.py`\n"
        "In another repository or checkout, `../site` (some git commands ran there): branch `feature/receipts` "
        "(turn 3); no commit made there.\n"
    )


def test_a_change_announced_last_and_not_yet_made_is_the_next_step() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Address the review: 1. rounding 2. duplicated helper"),
        edit(2, "/home/dev/shop/cart.py"),
        AssistantMessage(turn=3, text="**Item 2: Extract the duplicated receipt helper**"),
        search(3, "/home/dev/shop/receipt.py"),
    )
    assert section(summary, "Next Steps").startswith(
        "- Carry out what the agent last announced (turn 3); the calls since changed no file yet: "
        "Item 2: Extract the duplicated receipt helper\n"
    )


def test_files_the_request_names_and_the_session_has_not_changed_are_a_next_step() -> None:
    plan = (
        "Implement the plan:\n1. `shop/cart.py`: round per line\n2. `shop/receipt.py`: show cents\n"
        "3. `test_cart.py`: cover a 99-line cart\nKeep `settings.json` as it is."
    )
    summary = summary_of(
        UserMessage(turn=1, text=plan),
        [
            ToolCall(
                turn=2,
                call_id="r0",
                tool="Read",
                arguments={"file_path": "/home/dev/shop/tests/test_cart.py"},
                operations=(
                    FileOperation(action="read", path="/home/dev/shop/tests/test_cart.py"),
                ),
            ),
            ToolResult(turn=2, call_id="r0", status="success", output="def test_total(): ...\n"),
        ],
        edit(3, "/home/dev/shop/shop/cart.py"),
    )
    assert (
        "- Files the latest request (turn 1) names, with no change since it: `shop/receipt.py` "
        "(never opened in the session), `tests/test_cart.py`."
    ) in section(summary, "Next Steps")


def test_files_the_request_names_that_a_search_matched_are_named_with_their_places_under_findings() -> (
    None
):
    plan = "Update every caller:\n1. `shop/cart.py`\n2. `shop/receipt.py`\n3. `shop/report.py`"
    grep = (
        "/home/dev/shop/shop/cart.py:12:    total(items)\n/home/dev/shop/shop/receipt.py:40:    total(lines)\n"
        "/home/dev/shop/shop/report.py:7:    total(rows)\n"
    )
    summary = summary_of(
        UserMessage(turn=1, text=plan),
        shell(2, "grep -rn 'total(' /home/dev/shop/shop", grep),
        edit(3, "/home/dev/shop/shop/cart.py"),
    )
    assert (
        "- Files the latest request (turn 1) names, with no change since it: where the searches "
        "matched: `receipt.py`, `report.py`."
    ) in section(summary, "Next Steps")
    assert (
        "in `shop/`: `receipt.py:40`, `report.py:7`; also in `cart.py`, changed since"
        in section(summary, "Findings")
    )


def test_the_llm_request_states_the_checks_owed_and_the_item_in_progress() -> None:
    """The narrative model sees the same facts: it must not call the work tested or the item done."""
    writer = ScriptedWriter([reply({})])
    summarize(
        [
            SessionInfo(turn=0, cwd="/home/dev/shop"),
            UserMessage(turn=1, text="Work through shop-cart."),
            *bead(2, "shop-cart.2", "Show rounding on the receipt"),
            *shell(
                3, "bd update shop-cart.2 --status in_progress", "✓ Updated issue: shop-cart.2\n"
            ),
            *shell(4, "pytest -q", PASSED),
            *edit(5, "/home/dev/shop/receipt.py"),
        ],
        template=load_template("default"),
        writer=writer,
        format="claude-code",
    )
    prompt = build_prompt(writer.requests[0])
    assert (
        "- Not tested by any run seen since their last change: `receipt.py` (turn 5); the last run was `pytest -q` (turn 4)."
        in prompt
    )
    assert "- [in progress] `shop-cart.2` Show rounding on the receipt (started turn 3)" in prompt
    assert (
        'files listed as "Not tested by any run seen" (or linted, built) are unverified' in prompt
    )


def test_a_task_run_after_the_changes_is_named_as_what_may_have_checked_them() -> None:
    """`make test` ran after the edit: whether it lints is not known, so the line says what was seen."""
    todo = {"todos": [{"content": "Round totals", "status": "completed"}]}
    summary = summary_of(
        UserMessage(turn=1, text="Round cart totals to cents."),
        shell(2, "ruff check .", "All checks passed!\n"),
        edit(3, "/home/dev/shop/cart.py"),
        shell(4, "make test", PASSED),
        [
            ToolCall(turn=5, call_id="t1", tool="TodoWrite", arguments=todo, operations=()),
            ToolResult(turn=5, call_id="t1", status="success", output="ok"),
        ],
    )
    assert (
        "- Not linted by any run seen since their last change: `cart.py` (turn 3); the last run was "
        "`ruff check .` (turn 2); `make test` (turn 4) ran after them: whether it lints is not known."
    ) in section(summary, "Test Status")
    assert (
        "not linted by any run seen since their last change (later runs of `make test` may have)"
        in section(summary, "Pending Tasks")
    )


def test_a_pull_request_a_listing_showed_merged_is_seen_closed_not_closed_by_the_session() -> None:
    # Someone else merged it; the session only listed it. The files the session changed meanwhile
    # are no part of it, so nothing is said of them as left uncommitted by closing it.
    summary = summary_of(
        shell(2, 'gh pr create --title "Policy writes"', "https://github.com/acme/shop/pull/2\n"),
        edit(3, "/home/dev/shop/cart.py"),
        shell(4, "gh pr list --state all", "2\tPolicy writes\tpolicy\tMERGED\t2026-07-31\n"),
    )
    pending = section(summary, "Pending Tasks")
    assert "- seen closed: `#2` (merged) (turn 4)" in pending
    assert "- closed:" not in pending and "not committed" not in pending


def test_a_pull_request_retitled_is_told_by_its_new_title() -> None:
    summary = summary_of(
        shell(
            2, 'gh pr create --title "package mise first"', "https://github.com/acme/shop/pull/7\n"
        ),
        shell(
            3,
            'gh pr edit 7 --title "package the workspace first"',
            "https://github.com/acme/shop/pull/7\n",
        ),
    )
    pending = section(summary, "Pending Tasks")
    assert "package the workspace first" in pending
    assert "package mise first" not in pending


def test_a_pull_request_followed_by_its_repository_is_retitled_by_its_number() -> None:
    summary = summary_of(
        shell(
            2,
            'gh pr create --repo acme/shop --title "package mise first"',
            "https://github.com/acme/shop/pull/7\n",
        ),
        shell(
            3,
            'gh pr edit 7 --title "package the workspace first"',
            "https://github.com/acme/shop/pull/7\n",
        ),
    )
    pending = section(summary, "Pending Tasks")
    assert "`acme/shop#7` package the workspace first" in pending


def test_a_pull_request_merged_by_its_repository_is_the_one_created_in_the_checkout() -> None:
    summary = summary_of(
        shell(
            2,
            'gh pr create --title "GNU-first stat"',
            "https://github.com/acme/dotfiles/pull/149\n",
        ),
        shell(3, "gh pr merge 149 -R acme/dotfiles --squash --delete-branch", ""),
    )
    pending = section(summary, "Pending Tasks")
    assert "[open]" not in pending
