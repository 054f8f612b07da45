"""What the default summary calls current is current: small hand-written sessions, summarized offline.

Findings that were there before the session are listed apart, never as the
next step; the latest ``git status`` decides what is uncommitted; the open
items of the epic in hand are pending tasks; the current change is said by
what it does; the attempts an error survived are listed; a numbered request
is followed item by item.
"""

from __future__ import annotations

from artifact_index.ingestion.events import AssistantMessage, UserMessage
from tests.support.session_steps import ROOT, edit, read, search, section, shell, summary_of

CREDO = """┃ [D] ↘ Nested modules could be aliased at the top of the invoking module.
┃       lib/shop/services/waiting_summary.ex:105:9 #(Shop.Services.WaitingSummary.call_llm)

Analysis took 0.4 seconds (0.04s to load, 0.3s running 69 checks on 114 files)
876 mods/funs, found 1 software design suggestion.
"""


def test_findings_from_before_the_session_are_listed_apart_and_are_no_next_step() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Round the cart total to cents."),
        edit(2, f"{ROOT}/lib/shop/cart.ex"),
        shell(3, "mix credo --strict 2>&1 | tail -10", CREDO),
        AssistantMessage(
            turn=4,
            text="No new credo issues (the one left is pre-existing in `waiting_summary.ex`).",
        ),
    )
    errors = section(summary, "Errors")
    assert "[pre-existing] `lib/shop/services/waiting_summary.ex`" in errors
    assert "[OPEN]" not in errors and "Original error" not in errors
    assert "Nested modules" not in section(summary, "Next Steps")
    assert "error(s) open" not in section(summary, "Current State")


def test_a_check_that_printed_only_old_findings_is_not_called_failed() -> None:
    summary = summary_of(
        shell(2, "mix credo --strict 2>&1 | tail -10", CREDO),
        edit(3, f"{ROOT}/lib/shop/cart.ex"),
    )
    status = section(summary, "Test Status")
    assert "`mix credo --strict` (turn 2)" in status and "failed" not in status


def test_the_latest_git_status_wins_over_an_edit_left_on_an_abandoned_branch() -> None:
    status = (
        "On branch fix/paths\nChanges not staged for commit:\n"
        '  (use "git add <file>..." to update what will be committed)\n\tmodified:   cmd/handlers.go\n\n'
        'no changes added to commit (use "git add" and/or "git commit -a")\n'
    )
    summary = summary_of(
        edit(17, f"{ROOT}/cmd/strategy/common.go"),
        shell(
            195, "git checkout main && git pull", "Already up to date.\nSwitched to branch 'main'\n"
        ),
        shell(196, "git checkout -b fix/paths", "Switched to a new branch 'fix/paths'\n"),
        edit(201, f"{ROOT}/cmd/handlers.go"),
        shell(215, "git status", status),
    )
    work = section(summary, "Work State")
    assert (
        "Changed and not committed: `cmd/handlers.go`, as the latest `git status` (turn 215) showed"
        in work
    )
    assert "not listed by the latest `git status` (turn 215), so not uncommitted" in work
    assert "`cmd/strategy/common.go`." in work


EPIC = """○ shop-4te [EPIC] · End-to-end tracing   [● P1 · OPEN]
Owner: Dana · Type: epic

DESCRIPTION
Trace every request.

CHILDREN
  ↳ ○ shop-4te.1: Add tracing dependencies ● P1
  ↳ ○ shop-4te.2: Propagate trace headers ● P1
  ↳ ○ shop-4te.3: Trace the LiveViews ● P1
"""
READY = """📋 Ready work (2 issues with no blockers):

1. [● P1] [epic] shop-4te: End-to-end tracing
2. [● P2] [task] shop-9xx.1: Unrelated backlog item
"""


def test_the_open_items_of_the_epic_in_hand_are_pending_tasks_and_the_next_step() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Work on bead shop-4te."),
        shell(2, "bd show shop-4te", EPIC),
        shell(2, "bd ready", READY),
        shell(3, "bd update shop-4te.1 --status in_progress", "✓ Updated issue: shop-4te.1\n"),
        edit(4, f"{ROOT}/mix.exs"),
        shell(5, "bd close shop-4te.1", "✓ Closed shop-4te.1: Closed\n"),
    )
    pending = section(summary, "Pending Tasks")
    assert (
        "- [open] `shop-4te.2` Propagate trace headers (open in `bd show shop-4te`, turn 2)"
        in pending
    )
    assert "- [open] `shop-4te.3` Trace the LiveViews" in pending
    assert "shop-9xx.1" not in pending  # another epic's backlog is not this work
    assert "`shop-4te.2` (Propagate trace headers)" in section(summary, "Next Steps")


DIALYZER = """Pre-commit validation failed:

[DIALYZER]
lib/shop/trace.ex:57:13:pattern_match
The pattern can never match the type.

Pattern:
{:ok, _trace_id}

Type:
:error
________________________________________________________________________________
Fix these issues before committing.
"""


def test_the_attempts_an_error_survived_are_listed_so_they_are_not_repeated() -> None:
    commit = "git add -A && git commit -m 'Trace requests'"
    summary = summary_of(
        UserMessage(turn=1, text="Add request tracing."),
        edit(2, f"{ROOT}/lib/shop/trace.ex"),
        shell(3, commit, DIALYZER, ok=False),
        AssistantMessage(
            turn=4,
            text="Dialyzer complains. Let me add a spec to `trace_id` to tell dialyzer the type:",
        ),
        edit(4, f"{ROOT}/lib/shop/trace.ex"),
        shell(5, commit, DIALYZER, ok=False),
        AssistantMessage(turn=6, text="The spec did not help. Let me check the pre-commit script."),
        shell(6, "cat .git/hooks/pre-commit", "mix dialyzer\n"),
        AssistantMessage(turn=7, text="Let me create a .dialyzerignore file:"),
        shell(7, "echo 'lib/shop/trace.ex:57' > .dialyzerignore", ""),
        shell(8, commit, DIALYZER, ok=False),
        AssistantMessage(
            turn=9, text="Let me commit with --no-verify since this is a false positive."
        ),
        shell(9, commit.replace("commit", "commit --no-verify"), DIALYZER, ok=False),
    )
    errors = section(summary, "Errors")
    assert "- tried, and the next run still showed it:" in errors
    tried = errors.split("still showed it:", 1)[1]
    assert '(turn 4) "Let me add a spec to `trace_id` to tell dialyzer the type:"' in tried
    assert '(turn 7) "Let me create a .dialyzerignore file:"' in tried
    assert '(turn 9) "Let me commit with --no-verify since this is a false positive."' in tried
    assert "check the pre-commit script" not in tried  # a look is not an attempt
    # Open, but no one stated fixing it as a step: it is under Errors with its attempts, not a guessed next step.
    assert "survived 3 attempt(s)" not in section(summary, "Next Steps")


HANDLERS_BEFORE = """package cli

func commitWithMetadata() error {
\t// Get current working directory for path conversion
\tcwd, err := os.Getwd()
\tif err != nil {
\t\treturn fmt.Errorf("failed to get current directory: %w", err)
\t}
\treturn commit(FilterAndNormalizePaths(files, cwd))
}
"""


def _path_fix(*after: AssistantMessage) -> str:
    path = f"{ROOT}/cmd/handlers.go"
    summary = summary_of(
        UserMessage(turn=1, text="Files in sibling directories are not committed. Fix it."),
        read(2, path, HANDLERS_BEFORE),
        edit(
            3,
            path,
            old="\t// Get current working directory for path conversion\n\tcwd, err := os.Getwd()\n",
            new="\t// Get repo root for path conversion (not cwd, since Claude may be in a subdirectory)\n"
            "\trepoRoot, err := paths.RepoRoot()\n",
        ),
        edit(
            4,
            path,
            old="FilterAndNormalizePaths(files, cwd)",
            new="FilterAndNormalizePaths(files, repoRoot)",
        ),
        *after,
    )
    return section(summary, "Files Changed")


def test_the_latest_change_is_said_by_the_agents_own_account_of_it() -> None:
    changed = _path_fix(
        AssistantMessage(turn=5, text="Let me run the tests."),
        AssistantMessage(
            turn=6,
            text="`commitWithMetadata` now converts paths against the repository root instead "
            "of the working directory. Tests pass.",
        ),
    )
    assert (
        '`commitWithMetadata` modified; the agent (turn 6): "`commitWithMetadata` now converts paths against the '
        'repository root instead of the working directory."'
    ) in changed
    assert "lines;" not in changed  # the size is not the substance


def test_without_an_account_the_changed_lines_say_what_the_change_does() -> None:
    changed = _path_fix(
        AssistantMessage(turn=5, text="Let me update the callers of `commitWithMetadata`:")
    )
    assert (
        "changed lines: `// Get repo root for path conversion (not cwd, since Claude may be in a subdirectory)`; "
        "`cwd, err := os.Getwd()` → `repoRoot, err := paths.RepoRoot()`"
    ) in changed


REVIEW = """Can you address the following items:

  1. Redaction consistency - UpdateCommitted relies on caller to redact (works but fragile)
  2. Missing unit tests for stagedFilesOverlapWithContent
  3. Duplicated helper submitWithTranscriptPath across tests
  4. State persistence timing in finalizeAllTurnCheckpoints error paths
  5. Linear index scan O(n*m) in content_overlap.go - should use map
  6. CLAUDE.md documentation still references deprecated PhaseActiveCommitted"""


def test_a_numbered_request_is_followed_item_by_item_and_silence_is_not_called_not_started() -> (
    None
):
    summary = summary_of(
        UserMessage(turn=143, text=REVIEW),
        AssistantMessage(
            turn=144, text="I'll address each item. Let me start by investigating them in parallel."
        ),
        search(144, "UpdateCommitted"),
        AssistantMessage(
            turn=151,
            text="Good news - item 4 is fine. And item 6 (CLAUDE.md) is also fine - no "
            "deprecated phase references found.",
        ),
        edit(152, f"{ROOT}/cmd/strategy/content_overlap.go"),
        AssistantMessage(
            turn=153, text="**Item 2: Add unit tests for stagedFilesOverlapWithContent**"
        ),
        edit(156, f"{ROOT}/cmd/strategy/content_overlap_test.go"),
        AssistantMessage(
            turn=157, text="**Item 3: Extract duplicated submitWithTranscriptPath helper**"
        ),
    )
    pending = section(summary, "Pending Tasks")
    assert "The user's numbered request (turn 143), item by item:" in pending
    lines = {
        line.split(".", 1)[0].lstrip("- "): line
        for line in pending.splitlines()
        if line[2:3].isdigit()
    }
    assert (
        "[no evidence either way]: looked up at turn(s) 144" in lines["1"]
    )  # searched for, no verdict
    # Taken up, a test file changed, then item 3 taken up: its edits are made, it is not work in progress.
    assert (
        "[edited, then moved on]: taken up at turn 153, files changed, then item 3 taken up (turn 157)"
        in lines["2"]
    )
    assert "[in progress]" in lines["3"]
    assert '[checked]: "Good news - item 4 is fine." (turn 151)' in lines["4"]
    assert (
        "[changed]: `cmd/strategy/content_overlap.go` (turn 152), no word from the agent on it"
        in lines["5"]
    )
    assert "[checked]" in lines["6"]
    assert "not started" not in pending
    assert "no evidence either way: 1; in progress: 3; changed: 5" in section(summary, "Next Steps")


def test_a_numbered_list_nobody_worked_as_tasks_is_left_to_the_users_words() -> None:
    steps = "How it breaks:\n1. Attacker ships a directory named `{{ .Env.HOME }}`\n2. Victim opens a shell in it\n"
    summary = summary_of(
        UserMessage(turn=1, text=steps),
        search(2, "setStyle"),
        AssistantMessage(turn=3, text="I see how the template is rendered."),
    )
    assert "numbered request" not in section(summary, "Pending Tasks")


def test_findings_from_before_the_session_are_counted_as_distinct_findings_with_no_verdict() -> (
    None
):
    """The person may have asked to fix them, and one message seen in several places is one finding."""
    report = "".join(
        f"************* Module shop.m{n}\nsrc/shop/m{n}.py:{n}:0: C0415: Import outside toplevel "
        f"(json) (import-outside-toplevel)\n"
        for n in range(1, 9)
    )
    summary = summary_of(
        UserMessage(turn=1, text="Run pylint and fix all the regular issues."),
        shell(
            2, "uv run pylint src 2>&1 | tail -40", report + "Your code has been rated at 9.9/10\n"
        ),
    )
    errors = section(summary, "Errors")
    assert "Reported, but there before the session:\n" in errors
    assert "not errors to resolve" not in errors
    assert "more distinct finding(s)" in errors and "other file(s)" not in errors
