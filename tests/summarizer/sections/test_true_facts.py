"""Every fact the hook and the summary state is true, or says what it does not know.

One hand-written session per kind of false fact: an error resolved by the
same check run another way, a failure a broader run superseded, counts
that count packages, a call with no result yet, a file created, committed
and deleted, tests written before their code, a task seen done, references
to sections that are not there, ``#`` comments inside fenced code.
"""

from __future__ import annotations

import pytest

from artifact_index.ingestion.events import (
    Event,
    FileOperation,
    SessionInfo,
    ToolCall,
    UserMessage,
)
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.statements import claims
from artifact_index.trail.tracker import Tracker
from artifact_index.trail.verification import unverified_changes
from summarizer.integrations.hooks import file_trail_context
from summarizer.sections.index_sections import render_index_section
from summarizer.sections.session_facts import session_facts
from tests.support.session_steps import ROOT, edit, read, shell, write


def _index(*steps: list[Event] | Event) -> ArtifactIndex:
    events: list[Event] = [SessionInfo(turn=0, cwd=ROOT)]
    for step in steps:
        events += step if isinstance(step, list) else [step]
    return Tracker(format="claude-code").feed_all(events)


def _hook(index: ArtifactIndex) -> str:
    return file_trail_context(session_facts(index))


def _section(hook: str, title: str) -> str:
    return hook.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0] if f"## {title}\n" in hook else ""


# --- errors resolved by the same check, whatever the command line ---------------------------------


def test_a_run_refused_by_its_wrapper_is_resolved_when_the_command_runs_without_it() -> None:
    index = _index(
        write(1, f"{ROOT}/src/a.ts", "export const a = 1\n"),
        shell(
            2,
            "rtk bun run test",
            "error: unrecognized subcommand 'bun'\n\nUsage: rtk <CMD>\n",
            False,
        ),
        shell(3, "bun run test", " 1 pass\n 0 fail\nRan 1 tests across 1 files.\n"),
    )

    [error] = index.errors()
    assert error.resolved and error.resolved_turn == 3
    assert "[OPEN]" not in _hook(index)


def test_a_run_behind_an_unknown_wrapper_or_with_a_typo_is_resolved_by_its_corrected_retry() -> (
    None
):
    index = _index(
        shell(1, "mywrap make check-all", "mywrap: unknown command 'make'\n", False),
        shell(2, "make check-all", "all good\n"),
        shell(3, "bun run tset", 'error: Script not found "tset"\n', False),
        shell(4, "bun run test", " 3 pass\n 0 fail\n"),
    )

    errors = index.errors()
    assert [(e.resolved, e.resolved_turn) for e in errors] == [(True, 2), (True, 4)]
    assert all(c.certainty == "inferred" for c in claims(index) if c.kind == "error_state")


def test_a_failed_run_is_not_resolved_by_an_unrelated_command_sharing_a_word() -> None:
    index = _index(
        shell(1, "bun run build", 'error: Script not found "build"\n', False),
        shell(2, "bun install", "installed\n"),
    )

    assert not index.errors()[0].resolved


def test_a_lint_fix_run_is_resolved_when_the_same_linter_passes_without_fix() -> None:
    biome = (
        "$ biome check --write .\nChecked 12 files in 5ms. No fixes applied.\nFound 1 error.\n"
        'error: script "lint:fix" exited with code 1\n'
    )
    index = _index(
        write(1, f"{ROOT}/src/a.ts", "import x from 'y'\nexport const a = 1\n"),
        shell(2, "bun run lint:fix", biome, False),
        edit(3, f"{ROOT}/src/a.ts", "import x from 'y'\n", ""),
        shell(4, "bun run lint", "$ biome check .\nChecked 12 files in 5ms. No fixes applied.\n"),
    )

    [error] = index.errors()
    assert (error.resolved, error.resolution) == (True, "the same check passed")
    assert "[OPEN]" not in _hook(index)


def test_an_approach_the_session_went_past_is_said_as_what_ran_next_not_open() -> None:
    index = _index(
        shell(1, "go build ./...", "bash: go: command not found\n", False),
        shell(2, "docker run --rm -v $PWD:/src golang:1.22 go build ./...", ""),
        shell(3, "gt submit --stack", "ERROR: Failed to submit: not authenticated\n", False),
        shell(4, "gh pr create --fill", "https://github.com/shop/app/pull/3\n"),
    )

    errors = _section(_hook(index), "Errors")
    assert "[OPEN]" not in errors and "still open" not in errors
    assert (
        "- [failed; the session went on] generic, turn 3 from `gt submit --stack`: `ERROR: Failed to "
        "submit: not authenticated`; a later command succeeded: `gh pr create --fill` (turn 4)"
        in errors
    )
    assert "Original error (turn 1, the session went on past it)" in errors
    # What came next is said, with no verdict: the failing step may have been done right there.
    assert "not seen resolved" not in errors


def test_what_ran_next_is_not_a_sequence_whose_earlier_statement_failed() -> None:
    # `git merge …; echo "exit: $?"` exits 0, the echo's status, but printed the merge failing:
    # it is not "a later command succeeded". The status after it is.
    index = _index(
        shell(1, "gt submit --stack", "ERROR: Failed to submit: not authenticated\n", False),
        shell(
            2,
            'git merge --no-ff topic 2>&1\necho "--- exit: $? ---"\ngit diff --name-only --diff-filter=U',
            "CONFLICT (content): Merge conflict in a.py\n"
            "Automatic merge failed; fix conflicts and then commit the result.\n--- exit: 1 ---\n"
            "a.py\n",
        ),
        shell(3, "git status --short", "UU a.py\n"),
    )
    errors = _section(_hook(index), "Errors")
    assert "a later command succeeded: `git status --short` (turn 3)" in errors


def test_a_failing_check_stays_open_whatever_ran_after_it() -> None:
    index = _index(
        shell(1, "pytest -q", "FAILED tests/test_a.py::test_x - assert 1 == 2\n1 failed\n", False),
        shell(2, "git status", "On branch main\n"),
    )

    assert "- [OPEN] pytest in `tests/test_a.py`" in _section(_hook(index), "Errors")


def test_an_error_seen_again_waits_for_a_success_after_its_latest_appearance() -> None:
    index = _index(
        shell(1, "gt submit", "ERROR: not authenticated\n", False),
        shell(2, "gt auth --token x", "ok\n"),
        shell(3, "gt submit", "ERROR: not authenticated\n", False),
    )

    [error] = index.errors()
    assert (error.resolved, error.went_on) == (False, None)
    assert "[OPEN]" in _hook(index)


# --- a test result superseded by a later, broader run -------------------------------------------


def test_a_failed_targeted_run_that_a_later_full_run_passed_is_not_shown_as_failing() -> None:
    index = _index(
        write(1, f"{ROOT}/tests/test_a.py", "def test_x():\n    assert f()\n"),
        shell(
            2,
            "pytest tests/test_a.py -q",
            "FAILED tests/test_a.py::test_x - AssertionError\n"
            "FAILED tests/test_a.py::test_y - AssertionError\n2 failed in 0.1s\n",
            False,
        ),
        edit(3, f"{ROOT}/src/a.py"),
        shell(4, "pytest -q", "12 passed in 0.5s\n"),
    )

    status = _section(_hook(index), "Test status")
    assert "failing:" not in status
    assert (
        "`pytest tests/test_a.py -q` (last run turn 2): 0 passed, 2 failed; a later run covering it, "
        "`pytest -q` (turn 4), passed" in status
    )
    [narrow] = [c for c in claims(index) if c.kind == "test_state" and "test_a" in c.subject]
    assert narrow.certainty == "inferred" and [e.turn for e in narrow.evidence] == [2, 4]


def test_a_failed_run_stays_failing_when_only_a_narrower_run_passed_later() -> None:
    index = _index(
        shell(
            1,
            "pytest tests -q",
            "FAILED tests/test_b.py::test_y - AssertionError\n1 failed, 3 passed in 0.1s\n",
            False,
        ),
        shell(2, "pytest tests/test_a.py -q", "3 passed in 0.1s\n"),
    )

    status = _section(_hook(index), "Test status")
    assert "failing: `tests/test_b.py::test_y`" in status
    assert "covering it" not in status


# --- counts say what they count ------------------------------------------------------------------


def test_go_test_counts_are_packages_and_test_classes_are_not_tests() -> None:
    index = _index(
        shell(
            1,
            "go test ./...",
            "ok  \texample.com/a\t0.01s\nok  \texample.com/b\t0.02s\n?   \texample.com/c\t[no test files]\n",
        ),
        write(
            2,
            f"{ROOT}/tests/test_parser.py",
            "class TestParser:\n    def test_one(self):\n        pass\n\n    def test_two(self):\n        pass\n",
        ),
    )

    hook = _hook(index)
    assert "`go test ./...` (last run turn 1): 2 packages passed, 0 failed" in hook
    assert "tests added: `TestParser.test_one`, `TestParser.test_two`" in hook
    assert "`TestParser`," not in hook


def test_tests_run_beside_a_build_that_failed_unseen_are_named_apart_from_it() -> None:
    # `;` and `| head` let the build's compile errors by: the line's "0 failed" is the tests' alone.
    command = (
        'go build ./... 2>&1 | head; echo "=== test ==="; go test ./internal/bench 2>&1 | tail -3'
    )
    output = (
        "# example.com/cmd/bench\ncmd/bench/main.go:90:47: cannot use x (variable of type bool)\n"
        "=== test ===\nok  \texample.com/internal/bench\t(cached)\n"
    )
    status = _section(_hook(_index(shell(1, command, output))), "Test status")

    assert "(of `go test ./internal/bench 2>&1 | tail -3`; the results of `go build`, which it" in (
        status
    )


@pytest.mark.parametrize(
    "command",
    [
        "ruff check . && pytest -q",  # the tests ran only once the linter passed
        "pytest -q | tail -3 && ruff check .",  # the linter's failure is the command's status
        "pytest -q 2>&1 | tail -3; ruff check .",
    ],
)
def test_tests_beside_checks_whose_failure_would_show_keep_the_whole_command(command: str) -> None:
    status = _section(
        _hook(_index(shell(1, command, "All checks passed!\n3 passed in 0.1s\n"))), "Test status"
    )
    assert f"`{command}` (last run turn 1): 3 passed, 0 failed" in status


def test_a_run_that_failed_before_any_test_ran_says_so_not_zero_passed() -> None:
    index = _index(
        shell(
            1,
            "pytest tests/test_c.py -q",
            "E   ImportError: cannot import name 'x'\nERROR tests/test_c.py\n1 error in 0.1s\n",
            False,
        )
    )

    assert "failed before any test ran" in _section(_hook(index), "Test status")
    [state] = [c for c in claims(index) if c.kind == "test_state"]
    assert state.statement == "failed"


def test_a_run_whose_first_results_were_cut_off_gives_its_counts_as_a_floor() -> None:
    index = _index(
        shell(
            1,
            "cargo test 2>&1 | tail -3",
            "test b::works ... ok\n\ntest result: ok. 35 passed; 0 failed; 0 ignored; 0 measured\n",
        )
    )

    status = _section(_hook(index), "Test status")
    assert (
        "at least 35 passed, 0 failed: its output was cut (`| tail -3`), so the counts are of the part shown"
        in status
    )


def test_a_filtered_run_whose_passed_count_was_cut_out_does_not_say_none_passed() -> None:
    index = _index(
        shell(
            1,
            'npx playwright test tests/share.spec.ts --reporter=line 2>&1 | grep -E "›|failed"',
            "  1) [chromium] › tests/share.spec.ts:40:3 › Sharing › revokes access\n"
            "  1 failed\n    [chromium] › tests/share.spec.ts:40:3 › Sharing › revokes access\n",
        )
    )

    status = _section(_hook(index), "Test status")
    assert "1 failed; how many passed is not shown (its output was filtered)" in status
    assert "0 passed" not in status
    [count] = [c for c in claims(index) if c.kind == "count"]
    assert count.statement == "1 failed, passed not shown (tests)"


# --- a call issued just before the cut, its result not recorded ---------------------------------


def test_a_call_with_no_result_is_issued_never_read_or_unchanged() -> None:
    path = f"{ROOT}/src/c.py"
    index = _index(
        read(1, path, "c = 3"),
        ToolCall(
            turn=2,
            call_id="late-edit",
            tool="Edit",
            arguments={"file_path": path},
            operations=(FileOperation(action="edit", path=path, old="c = 3", new="c = 4"),),
        ),
        ToolCall(
            turn=2,
            call_id="late-write",
            tool="Write",
            arguments={"file_path": f"{ROOT}/src/d.py"},
            operations=(FileOperation(action="write", path=f"{ROOT}/src/d.py", content="d = 1\n"),),
        ),
    )

    hook = _hook(index)
    assert "Files read (unchanged)" not in hook
    waiting = _section(hook, "Issued, result not recorded (effect unknown)")
    assert "- `Edit` of `src/c.py` (turn 2)" in waiting
    assert "- `Write` of `src/d.py` (turn 2)" in waiting
    summary_files = render_index_section("files_changed", session_facts(index), 1)
    assert "Issued, result not recorded (effect unknown):" in summary_files
    assert "src/d.py" in summary_files
    pending = [c for c in claims(index) if c.kind == "pending_call"]
    assert {c.certainty for c in pending} == {"unrecorded"}


# --- created, committed, then deleted ------------------------------------------------------------


def test_a_file_created_committed_and_deleted_is_told_as_that() -> None:
    index = _index(
        write(1, f"{ROOT}/notes.md", "# Notes\n"),
        shell(
            2,
            "git add notes.md && git commit -m 'add notes'",
            "[main abc1234] add notes\n 1 file changed, 1 insertion(+)\n create mode 100644 notes.md\n",
        ),
        shell(3, "git rm notes.md", "rm 'notes.md'\n"),
    )

    hook = _hook(index)
    assert "changed and then reverted" not in hook
    assert (
        "- `notes.md`: created (turn 1), committed in `abc1234` (turn 2), deleted (turn 3); "
        "the deletion is not committed" in hook
    )


def test_a_file_git_reset_after_its_commit_was_merged_and_pushed_is_not_said_restored() -> None:
    index = _index(
        read(1, f"{ROOT}/src/app.py", "x = 1\n"),
        edit(2, f"{ROOT}/src/app.py", "x = 1", "x = 2"),
        shell(3, "git commit -am 'bump'", "[feat 1a2b3c4] bump\n 1 file changed\n"),
        shell(
            4,
            "git checkout main && git merge feat && git push",
            "Switched to branch 'main'\nFast-forward\n src/app.py | 2 +-\n"
            "   0a0a0a0..1a2b3c4  main -> main\n",
        ),
        shell(5, "git reset --hard origin/main", "HEAD is now at 1a2b3c4 bump\n"),
    )

    hook = _hook(index)
    assert "original content" not in hook and "reverted" not in hook
    assert (
        "- `src/app.py`: changed (turn 2), committed in `1a2b3c4` (turn 3), then "
        "`git reset --hard origin/main` (turn 5) set it to a version git had; its change is kept "
        "in the commit" in hook
    )


# --- tests written before their code -------------------------------------------------------------


def test_tests_written_first_failing_before_the_code_exists_are_not_open_errors() -> None:
    index = _index(
        write(
            1,
            f"{ROOT}/tests/test_parser.py",
            "from shop.parser import parse\n\n\ndef test_parse():\n    assert parse('a') == ['a']\n",
        ),
        shell(
            2,
            "pytest tests/test_parser.py -q",
            "FAILED tests/test_parser.py::test_parse - ModuleNotFoundError: No module named "
            "'shop.parser'\n1 failed in 0.1s\n",
            False,
        ),
    )

    errors = _section(_hook(index), "Errors")
    assert "[OPEN]" not in errors
    assert "[tests written first]" in errors
    assert "the session wrote these tests at turn 1" in errors


def test_a_test_failing_after_the_code_was_written_is_open() -> None:
    index = _index(
        write(1, f"{ROOT}/tests/test_parser.py", "def test_parse():\n    assert parse('a')\n"),
        write(2, f"{ROOT}/shop/parser.py", "def parse(text):\n    return []\n"),
        shell(
            3,
            "pytest tests/test_parser.py -q",
            "FAILED tests/test_parser.py::test_parse - AssertionError\n1 failed in 0.1s\n",
            False,
        ),
    )

    errors = _section(_hook(index), "Errors")
    assert "[OPEN]" in errors and "[tests written first]" not in errors


# --- tasks seen done -------------------------------------------------------------------------------


def _todo(turn: int, todos: list[tuple[str, str]]) -> list[Event]:
    from artifact_index.ingestion.events import ToolResult

    call_id = f"todo{turn}"
    arguments = {"todos": [{"content": c, "status": s, "activeForm": c} for c, s in todos]}
    return [
        ToolCall(turn=turn, call_id=call_id, tool="TodoWrite", arguments=arguments),
        ToolResult(turn=turn, call_id=call_id, status="success", output="Todos updated"),
    ]


def test_a_task_to_run_the_tests_or_commit_says_what_was_seen_done_since() -> None:
    index = _index(
        _todo(1, [("Run the test suite", "in_progress"), ("Commit the fix", "pending")]),
        edit(2, f"{ROOT}/src/a.py"),
        shell(3, "pytest -q", "12 passed in 0.5s\n"),
        shell(4, "git commit -am 'Fix totals'", "[main 9f8e7d6] Fix totals\n 1 file changed\n"),
    )

    tasks = _section(_hook(index), "Open tasks")
    assert "Run the test suite (but since then: a test run at turn 3 passed)" in tasks
    assert "Commit the fix (but since then: commit 9f8e7d6 made at turn 4)" in tasks


def test_a_test_task_whose_run_failed_past_its_passing_stages_says_it_failed() -> None:
    index = _index(
        _todo(1, [("Run targeted checks/tests", "pending")]),
        edit(2, f"{ROOT}/src/a.ts"),
        shell(
            3,
            "pnpm test",
            "> app@1.0.0 pretest /app\n> pnpm run compile-tests && pnpm run lint\n\n"
            "> app@1.0.0 lint /app\n> eslint src\n\n"
            "> app@1.0.0 test /app\n> vscode-test\n\n  3 passing (2s)\n  2 failing\n",
            False,
        ),
    )

    tasks = _section(_hook(index), "Open tasks")
    assert "(but since then: a test run at turn 3 failed)" in tasks


def test_a_test_task_whose_run_was_only_started_in_the_background_says_so() -> None:
    index = _index(
        _todo(1, [("Verify: fmt+lint+tests", "pending")]),
        edit(2, f"{ROOT}/src/a.py"),
        shell(3, "mise run check", "Command running in background with ID: bq5y4k0\n"),
    )

    tasks = _section(_hook(index), "Open tasks")
    assert (
        "(but since then: a test run at turn 3 was started; how it ended is not recorded)" in tasks
    )
    assert "passed" not in tasks


# --- references to sections that are not there ---------------------------------------------------


def test_the_hook_refers_to_no_section_it_does_not_show() -> None:
    index = _index(
        write(1, f"{ROOT}/a.py", "x = 1\n"),
        shell(2, "git add a.py && git commit -m 'a'", "[main abc1234] a\n 1 file changed\n"),
        edit(3, f"{ROOT}/a.py", "x = 1", "x = 2"),
    )

    hook = _hook(index)
    titles = {line[3:].lower() for line in hook.splitlines() if line.startswith("## ")}
    assert "(see " not in hook or all(
        ref.split(")")[0].lower() in titles for ref in hook.split("(see ")[1:]
    )
    assert "not committed (the last commit: `abc1234`, turn 2): `a.py`" in hook


def test_files_a_later_quiet_commit_may_hold_are_not_called_uncommitted() -> None:
    index = _index(
        write(1, f"{ROOT}/a.py", "x = 1\n"),
        shell(2, "git add a.py && git commit -m 'a'", "[main abc1234] a\n 1 file changed\n"),
        edit(3, f"{ROOT}/a.py", "x = 1", "x = 2"),
        shell(4, "git commit -q -m 'b' -- a.py", "ok\n"),
    )

    tasks = _section(_hook(index), "Open tasks")
    assert "not committed" not in tasks
    assert (
        "1 changed file(s) in no commit shown (the last commit printed: `abc1234`, turn 2; "
        "`git commit` at turn 4 printed none, so it may hold them): `a.py`"
    ) in tasks


# --- text misread as structure -----------------------------------------------------------------------


def test_comments_inside_fenced_code_are_not_markdown_headings() -> None:
    index = _index(
        write(
            1,
            f"{ROOT}/README.md",
            "Intro line\n\n```bash\n# install it\npip install shop\n```\n\n## Usage\n\nRun it.\n",
        ),
        write(2, f"{ROOT}/NOTES.md", "Some notes\n\n```sh\n# not a heading\nmake\n```\n"),
    )

    hook = _hook(index)
    assert "- `README.md`: headings: `Usage`" in hook
    assert "- `NOTES.md`: first lines: `Some notes`" in hook
    assert "install it" not in hook and "not a heading" not in hook


def test_a_changed_comment_is_quoted_as_written_never_joined_across_lines() -> None:
    original = "def total(items):\n    s = 0\n    for i in items:\n        s += i\n    return s\n"
    index = _index(
        read(1, f"{ROOT}/shop/cart.py", original),
        edit(
            2,
            f"{ROOT}/shop/cart.py",
            "    return s\n",
            "    # Round to cents here, not in the caller, because the\n"
            "    # receipt reads the stored total.\n    return round(s, 2)\n",
        ),
    )

    line = _section(_hook(index), "Files modified")
    assert "changed lines: `# Round to cents here, not in the caller, because the…`" in line
    assert "because the receipt" not in line


# --- what fixed an error ----------------------------------------------------------------------------


def test_only_files_the_error_names_are_said_to_have_fixed_it() -> None:
    failure = "src/calc.ts(4,7): error TS2322: Type 'string' is not assignable to type 'number'.\n"
    index = _index(
        shell(1, "npx tsc --noEmit", failure, False),
        edit(2, f"{ROOT}/README.md"),
        edit(3, f"{ROOT}/src/calc.ts"),
        edit(3, f"{ROOT}/src/other.ts"),
        shell(4, "npx tsc --noEmit", ""),
    )

    [error] = index.errors()
    assert error.resolved
    assert error.fixed_by == ["src/calc.ts"]
    assert "other.ts" not in _section(_hook(index), "Errors")


def test_an_error_that_names_no_file_is_fixed_by_none() -> None:
    index = _index(
        shell(1, "make build", "make: *** [build] Error 1\nsegmentation fault\n", False),
        edit(2, f"{ROOT}/src/main.c"),
        edit(2, f"{ROOT}/CHANGELOG.md"),
        shell(3, "make build", "built\n"),
    )

    [error] = index.errors()
    assert error.resolved and error.fixed_by == []
    assert "fixed by" not in _hook(index)


# --- a run whose result the transcript does not keep -----------------------------------------------


def test_a_check_run_whose_result_was_not_recorded_is_not_said_to_have_failed() -> None:
    """A format that keeps the calls and not their results (git-ai notes): how the run ended is unknown."""
    [call, result] = shell(2, "npx vitest run 2>&1")
    unrecorded = result.model_copy(update={"status": "unknown", "failure": None})
    index = _index(
        edit(1, f"{ROOT}/src/cart.ts"), [call, unrecorded], edit(3, f"{ROOT}/src/cart.ts")
    )
    hook = _hook(index)
    assert (
        "Not tested by any run seen since their last change: `src/cart.ts` (turn 3); "
        "the last run was `npx vitest run` (turn 2, how it ended is not known)."
    ) in hook
    assert "failed" not in hook
    # A run seen failing still says so.
    failed = _index(
        edit(1, f"{ROOT}/src/cart.ts"),
        shell(2, "npx vitest run 2>&1", " FAIL  src/cart.test.ts > total\n", False),
        edit(3, f"{ROOT}/src/cart.ts"),
    )
    assert "the last run was `npx vitest run` (turn 2, failed)." in _hook(failed)


# --- a build seen another way --------------------------------------------------------------------


def test_a_change_built_by_go_run_or_a_watched_ci_run_is_not_said_unbuilt() -> None:
    steps = [
        shell(1, "go build ./...", ""),
        edit(2, f"{ROOT}/main.go"),
    ]
    owed = _index(*steps)
    assert "Not built by any run seen since their last change: `main.go`" in _hook(owed)

    for later in ("go run . --help", "gh run watch 4821 --exit-status"):
        built = _index(*steps, shell(3, later, "ok\n"))
        assert "Not built" not in _hook(built), later


def test_a_ci_run_listed_finished_and_passed_builds_the_change_one_still_running_does_not() -> None:
    steps = [shell(1, "go build ./...", ""), edit(2, f"{ROOT}/main.go")]
    listing = "gh run list --limit 1 --json status,conclusion"
    passed = _index(*steps, shell(3, listing, "Status: completed - success\n"))
    assert "Not built" not in _hook(passed)
    running = _index(*steps, shell(3, listing, "Status: in_progress - \n"))
    assert "Not built by any run seen since their last change: `main.go`" in _hook(running)


def test_a_ci_look_up_before_any_local_build_owes_no_build() -> None:
    index = _index(
        shell(1, "gh pr checks 44", "build  fail  1m  https://ci/run/1\n", False),
        edit(2, f"{ROOT}/src/app.ts"),
    )

    assert "Not built" not in _hook(index)


# --- reads that are not the session's own ---------------------------------------------------------


def test_a_read_only_a_sub_agent_made_and_a_dependency_read_say_so() -> None:
    by_agent = [
        event.model_copy(update={"sidechain": "agent-1"})
        for event in read(2, f"{ROOT}/src/deep.py", "x = 1\n")
    ]
    index = _index(
        read(1, f"{ROOT}/src/app.py", "x = 1\n"),
        by_agent,
        read(3, f"{ROOT}/node_modules/left-pad/index.js", "module.exports = 1\n"),
    )

    reads = _section(_hook(index), "Files read (unchanged)")
    assert "- `src/app.py`\n" in reads + "\n"
    assert "- `src/deep.py` (read by a sub-agent only)" in reads
    assert "- `node_modules/left-pad/index.js` (an installed dependency's file)" in reads


def test_a_vendor_folder_of_the_projects_own_code_is_not_called_a_dependency() -> None:
    index = _index(
        read(1, f"{ROOT}/vendor/acme-cli/cmd/connect.go", "package cmd\n"),
        read(2, f"{ROOT}/vendor/github.com/spf13/cobra/command.go", "package cobra\n"),
        read(3, f"{ROOT}/vendor/bundle/ruby/3.3.0/gems/rack/lib/rack.rb", "module Rack; end\n"),
    )

    reads = _section(_hook(index), "Files read (unchanged)")
    assert "- `vendor/acme-cli/cmd/connect.go`\n" in reads + "\n"
    assert "- `vendor/github.com/spf13/cobra/command.go` (an installed dependency's file)" in reads
    assert "rack.rb` (an installed dependency's file)" in reads


def test_a_run_the_shell_misread_is_resolved_by_its_retry_in_another_form() -> None:
    # zsh reads `echo ===` as an `=` expansion and stops: the git show after it never ran,
    # and the next command runs it without the separator.
    index = _index(
        shell(
            1,
            "git log --oneline -3 && echo === && git show --stat abc1234",
            "abc1234 one\ndef5678 two\n(eval):1: == not found\n",
            False,
        ),
        shell(2, "git show --stat abc1234 | head; echo ---; git diff --stat", "commit abc1234\n"),
    )

    [error] = index.errors()
    assert error.resolved and error.resolved_turn == 2


def test_a_script_written_by_a_heredoc_and_fixed_is_resolved_when_it_runs() -> None:
    # The heredoc's `cat` wrote the script; node is what failed, and it later ran and passed.
    index = _index(
        shell(
            1,
            "cat > /tmp/t.js <<'EOF'\nconst s = require('./a')\nEOF\nnode /tmp/t.js",
            "Error: Cannot find module './a'\nRequire stack:\n- /tmp/t.js\n",
            False,
        ),
        shell(2, "sed -i 's|./a|/w/a|' /tmp/t.js && node /tmp/t.js", "happy: true\n"),
    )

    [error] = index.errors()
    assert error.resolved and error.resolved_turn == 2


def test_a_failure_the_shell_misread_is_not_resolved_by_an_unrelated_command() -> None:
    index = _index(
        shell(1, "ls src/*.tmp && make lint", "zsh: no matches found: src/*.tmp\n", False),
        shell(2, "git status --short", " M a.py\n"),
    )

    assert not index.errors()[0].resolved


def test_a_pull_request_the_user_said_was_merged_is_not_stated_open() -> None:
    index = _index(
        shell(
            1,
            "gh pr create --title 'bump chart' --body x",
            "https://github.com/shop/fleet/pull/28\n",
        ),
        UserMessage(turn=2, text="Pull is accepted, but the rollout stalled."),
        shell(2, "kubectl get pods", "ollama-0 Running\n"),
    )

    tasks = _section(_hook(index), "Open tasks")
    assert "`#28` bump chart" in tasks
    assert "- [open] `#28`" not in tasks
    assert 'the user said at turn 2: "Pull is accepted, but the rollout stalled."' in tasks


def test_a_file_moved_away_is_not_said_put_back() -> None:
    # Created, committed, then `git mv`: its content lives on at the new path.
    index = _index(
        shell(1, "echo x > tmp.py && git add tmp.py && git commit -m add", "[main 1a2b3c4] add\n"),
        shell(2, "git mv tmp.py keep.py", ""),
        shell(3, "git mv a.py b.py", ""),
        shell(4, "git mv b.py c.py", ""),
    )

    hook = _hook(index)
    assert "Files changed, then put back" not in hook
    assert "- `keep.py`: moved here from `tmp.py`" in _section(hook, "Files created")


def test_a_runner_summary_from_a_script_is_a_test_run() -> None:
    # The index does not know `./ci.sh`, but the summary it printed is a test run's.
    index = _index(
        shell(1, "./ci.sh --fast", "...\n  1017 passing (41s)\n  3 pending\n"),
        shell(2, "bun run check", " 12 pass\n 0 fail\nRan 12 tests across 3 files. [0.4s]\n"),
        shell(3, "cat old-run.log", "= 1 failed, 9 passed in 1.2s =\n"),
    )

    status = _section(_hook(index), "Test status")
    assert "1017 passed" in status and "12 passed" in status
    assert "9 passed" not in status  # a log read is no run


def test_with_no_run_it_recognizes_the_index_says_so() -> None:
    index = _index(shell(1, "./check-all", "all 1017 checks fine\n"))

    assert render_index_section("test_status", session_facts(index)) == (
        "No test run the index recognizes (background runs are not seen)."
    )


def test_a_formatter_check_is_resolved_when_the_formatter_then_rewrote_the_file() -> None:
    index = _index(
        shell(
            1,
            "ruff format --check .",
            "Would reformat: src/a.py\n1 file would be reformatted, 3 files already formatted\n",
            False,
        ),
        shell(2, "ruff format src/a.py", "1 file reformatted\n"),
        shell(
            3,
            "npx prettier --check .",
            "[warn] src/b.ts\n[warn] Code style issues found in the above file.\n",
            False,
        ),
        shell(4, "npx prettier --write src/b.ts", "src/b.ts 20ms\n"),
        shell(5, "gofmt -l .", "main.go\n", False),
        shell(6, "gofmt -w .", ""),
    )

    assert [(e.resolved, e.resolved_turn) for e in index.errors()] == [
        (True, 2),
        (True, 4),
        (True, 6),
    ]


def test_a_formatter_run_on_other_files_leaves_the_check_open() -> None:
    index = _index(
        shell(
            1,
            "black --check src/ tests/",
            "would reformat tests/t.py\n1 file would be reformatted.\n",
            False,
        ),
        shell(2, "black src/", "All done!\n"),
    )

    assert "[OPEN]" in _section(_hook(index), "Errors")


def test_files_a_pull_brought_in_are_said_as_that_not_as_the_sessions_creations() -> None:
    # After `git checkout main` (an effect the index cannot see) the pull's files may well
    # have been there at the start: they are told as what the pull brought, in one line.
    index = _index(
        write(1, f"{ROOT}/notes.md", "# Notes\n"),
        shell(
            2,
            "git checkout main && git pull",
            "Switched to branch 'main'\nUpdating 1111111..2222222\nFast-forward\n"
            " src/graph.py  | 21 ++++\n src/ingest.py |  2 +-\n"
            " 2 files changed, 22 insertions(+), 1 deletion(-)\n create mode 100644 src/graph.py\n",
        ),
    )

    hook = _hook(index)
    created = _section(hook, "Files created")
    assert "- `notes.md`" in created
    assert "- `src/graph.py`" not in created
    assert (
        "1 file(s) `git pull` brought in (turn 2), created in the working tree by the merged"
        in (created)
    )
    assert "`git pull` brought in (turn 2), modified" in _section(hook, "Files modified")


def test_a_pull_that_brings_back_the_sessions_own_merged_edit_is_not_where_the_change_came_from() -> (
    None
):
    # The session edits a file, its pull request is merged, and `git pull` fast-forwards main:
    # the pull's report lists the file, but the change is the session's own edit.
    index = _index(
        read(1, f"{ROOT}/src/chat.ts", "export const a = 1\n"),
        edit(2, f"{ROOT}/src/chat.ts", "export const a = 1\n", "export const a = 2\n"),
        shell(
            3,
            "git checkout main && git pull",
            "Switched to branch 'main'\nUpdating 1111111..2222222\nFast-forward\n"
            " src/chat.ts | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n",
        ),
    )

    modified = _section(_hook(index), "Files modified")
    assert "- `src/chat.ts`" in modified
    assert "git pull" not in modified


def test_a_removed_file_a_later_status_lists_as_there_again_is_said_as_both_showed() -> None:
    # A sub-agent (whose calls the main transcript lacks) wrote the files again after `rm`.
    index = _index(
        read(1, f"{ROOT}/src/app.ts", "export {}\n"),
        read(1, f"{ROOT}/src/old.ts", "export {}\n"),
        shell(2, f"rm -f {ROOT}/src/app.ts {ROOT}/src/old.ts"),
        shell(3, "git status --short", " M src/app.ts\n D src/old.ts\n"),
    )

    deleted = _section(_hook(index), "Files deleted")
    assert (
        "- `src/app.ts`: removed (turn 2), but the later `git status` (turn 3) lists it as "
        "modified: it was there again"
    ) in deleted
    assert "- `src/old.ts`" in deleted
    assert "`src/old.ts`: removed" not in deleted


def test_the_earlier_runs_left_out_are_counted_as_results_read_not_as_commands() -> None:
    """Only the runs whose results the index read are counted: a `make check` it cannot read is not one."""
    steps: list[list[Event] | Event] = [shell(1, "make check", "checks done\n")]
    steps += [
        shell(turn, f"pytest -q tests/test_{turn}.py", "3 passed in 0.1s\n") for turn in range(2, 7)
    ]
    text = render_index_section("test_status", session_facts(_index(*steps)), 3)
    assert "- 2 earlier test result(s) the index read are not shown" in text
    assert "command(s)" not in text


def test_no_task_list_found_is_said_as_not_read_and_left_out_of_the_hook() -> None:
    """That no task list was read is no proof there was none (a comment on an issue, a task tool it cannot read)."""
    index = _index(
        shell(1, "gh issue comment 12 --body 'Fixed in 4f2a9c1'", "https://x/issues/12#c1\n")
    )
    facts = session_facts(index)
    assert render_index_section("pending_tasks", facts) == (
        "No task list or issue tracker state was read from the session's calls."
    )
    assert "## Open tasks" not in _hook(index)


def test_a_merge_counts_every_path_its_report_names_and_owes_no_check_for_them() -> None:
    # The report deletes three paths, two of them shown under one (redacted) name: three files,
    # two names.  The merged commits' changes are not the session's: no test run is owed for them.
    index = _index(
        shell(1, "pytest -q", "5 passed in 0.1s\n"),
        shell(
            2,
            "git merge feature/setup",
            "Updating 1111111..2222222\nFast-forward\n"
            " src/cart.py | 2 +-\n"
            " 4 files changed, 1 insertion(+), 40 deletions(-)\n"
            " delete mode 100644 outputs/REDACTED.json\n"
            " delete mode 100644 outputs/REDACTED.json\n"
            " delete mode 100644 outputs/run.json\n",
        ),
    )

    hook = _hook(index)
    assert (
        "- 3 file(s) `git merge` brought in (turn 2) (2 distinct names: some stand for several"
        " paths), deleted in the working tree by the merged commits"
    ) in _section(hook, "Files deleted")
    assert "`git merge` brought in (turn 2), modified" in _section(hook, "Files modified")
    assert unverified_changes(index) == []


def test_a_pull_request_the_user_said_in_japanese_was_merged_is_not_stated_open() -> None:
    # "マージはしたんですが" (I did merge it, but ...): a merge needs no "PR" beside it.
    index = _index(
        shell(
            1,
            "gh pr create --title 'feat(cli): add Agent Skill' --body x",
            "https://github.com/shop/repiq/pull/20\n",
        ),
        UserMessage(turn=2, text="マージはしたんですが、README の表示が古いままです"),
        shell(2, "git pull origin main", "Already up to date.\n"),
    )

    tasks = _section(_hook(index), "Open tasks")
    assert "- [open] `#20`" not in tasks
    assert "[open when last seen, turn 1; the user said at turn 2:" in tasks


def test_a_list_whose_tasks_were_deleted_does_not_call_them_completed() -> None:
    index = _index(
        _todo(1, [("Write the migration", "pending"), ("Run it", "pending")]),
        _todo(2, [("Write the migration", "completed"), ("Run it", "deleted")]),
    )
    tasks = _section(_hook(index), "Open tasks")
    assert "nothing open, 1 completed, 1 cancelled or deleted." in tasks
