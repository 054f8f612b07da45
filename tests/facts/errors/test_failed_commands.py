"""Every failed shell command is an error or noise with its reason; errors keep the lines that explain them."""

from __future__ import annotations

import pytest

from artifact_index.facts.errors.diagnostics import extract_errors
from artifact_index.facts.errors.failed_commands import unexplained_failure
from artifact_index.facts.errors.ledger import ErrorLedger

from .test_ledger import Session, by_message

PRE_COMMIT_FORMAT = (
    "Pre-commit validation failed:\\n\\n[FORMAT]\\nCode is not formatted.\\nRun 'mix format' to fix."
    "\\n\\nFix these issues before committing."
)
CREDO = """Checking 3 source files ...

  Code Readability
┃
┃ [R] ↘ Prefer using an implicit `try` rather than explicit `try`.
┃       lib/shop/cart.ex:41:5 #(Shop.Cart.total)

1 code readability issue.
"""
DIALYZER = """Starting Dialyzer
Total errors: 1, Skipped: 0, Unnecessary Skips: 0
lib/shop/cart.ex:58:13:pattern_match
The pattern can never match the type.

Pattern:
{:ok, _total}

Type:
:error

________________________________________________________________________________
"""
GO_FAIL = """--- FAIL: TestTotal (0.00s)
    cart_test.go:31: total of two items
        expected: 30
        actual:   20
FAIL
FAIL\texample.com/shop/cart\t0.012s
"""
IGNORED_PATH = (
    "Exit code 1\nThe following paths are ignored by one of your .gitignore files:\npriv/static/assets\n"
    "hint: Use -f if you really want to add them.\n"
)


def outcomes(ledger: ErrorLedger) -> list[tuple[str, str | None]]:
    return [(run.outcome, run.reason) for run in ledger.failed_runs]


@pytest.mark.parametrize(
    ("command", "output", "failure", "reason"),
    [
        (
            "git commit -m 'wip'",
            "The user doesn't want to proceed with this tool use.",
            "rejected",
            "the user rejected the call",
        ),
        (
            "grep -rn 'TODO' src/",
            "Exit code 1\n",
            "exit_status",
            "a look-up (ls, grep, test, …): its non-zero exit answers its question",
        ),
        # Behind a wrapper (a token-saving proxy, a timeout) the look-up is still a look-up.
        (
            'rtk grep -n -e "--commit" .githooks/commit-msg',
            "Exit code: 1\n",
            "exit_status",
            "a look-up (ls, grep, test, …): its non-zero exit answers its question",
        ),
        (
            "timeout 5 ls build/",
            "ls: cannot access 'build/': No such file or directory\n",
            "exit_status",
            "a look-up (ls, grep, test, …): its non-zero exit answers its question",
        ),
        (
            "sed -n '1,80p' scripts/fetch.py | rg -n 'def main' -C 3",
            "Chunk ID: 5b1e2a\nWall time: 0.0000 seconds\nProcess exited with code 1\n"
            "Original token count: 0\nOutput:\n",
            "exit_status",
            "a look-up (ls, grep, test, …): its non-zero exit answers its question",
        ),
        (
            "git config --global --get-regexp 'credential|helper'",
            "Command: /bin/zsh -lc \"git config --global --get-regexp 'credential|helper'\"\n"
            "Chunk ID: 395336\nWall time: 0.0000 seconds\nProcess exited with code 1\n"
            "Original token count: 0\nOutput:\n",
            "exit_status",
            "a look-up (git config --get…): exit 1 with no output means no such setting",
        ),
        (
            "uname -a; sw_vers",
            "Linux box 6.1.0 x86_64 GNU/Linux\nsw_vers: command not found\n",
            "exit_status",
            "a look-up (ls, grep, test, …): its non-zero exit answers its question",
        ),
        (
            "rm -r build/",
            "rm: build/: No such file or directory\n",
            "exit_status",
            "a shell chore (cd, rm, mkdir, kill, …) with nothing to do",
        ),
        (
            "git clone https://example.com/shop.git vendor/shop",
            "fatal: destination path 'vendor/shop' already exists and is not an empty directory.\n",
            "exit_status",
            "set-up already in place",
        ),
        (
            "git add -A && git commit -m 'tidy'",
            "On branch main\nnothing to commit, working tree clean\n",
            "exit_status",
            "nothing to commit",
        ),
        (
            "diff <(gh api repos/acme/dotfiles/contents/ci.yaml --jq '.content' | base64 -d) ci.yaml",
            'Exit code 1\n3c3\n<   echo "Failed to get flake metadata"\n---\n>   echo "no metadata"\n',
            "exit_status",
            "a comparison (diff, cmp, git diff --exit-code): its exit 1 says the inputs differ",
        ),
        (
            "cmp build/app.bin dist/app.bin",
            "Exit code 1\nbuild/app.bin dist/app.bin differ: char 25, line 1\n",
            "exit_status",
            "a comparison (diff, cmp, git diff --exit-code): its exit 1 says the inputs differ",
        ),
        (
            "git diff --no-index --exit-code expected.txt actual.txt",
            "Exit code 1\ndiff --git a/expected.txt b/actual.txt\n-error: none\n+error: one\n",
            "exit_status",
            "a comparison (diff, cmp, git diff --exit-code): its exit 1 says the inputs differ",
        ),
        (
            # A `>` inside the quoted pattern is text: the search wrote nothing and found nothing.
            "rg -n -- 'cheap-first|--checkpoint <checkpoint-id> --no-pager' skills/",
            "Exit code 1\n",
            "exit_status",
            "a look-up (ls, grep, test, …): its non-zero exit answers its question",
        ),
        (
            # `&&` ran the last step, so the build and the tests before it succeeded.
            'echo "=== go build ===" && go build ./... 2>&1 | head -20 && echo "=== go test (error'
            ' tests) ===" && go test ./sts 2>&1 | tail -3 && ls Makefile',
            "Exit code 1\n=== go build ===\n=== go test (error tests) ===\nok  \tacme/sts\t0.3s\n"
            "ls: Makefile: No such file or directory\n",
            "exit_status",
            "it ended with a look-up (ls): its exit status is that look-up's answer",
        ),
        (
            # A line exits with its last list's status: after the `;`, a silenced probe for a file.
            'echo "=== go test (error tests) ===" && go test ./sts 2>&1 | tail -3; '
            "ls Makefile 2>/dev/null && grep -n lint Makefile | head",
            "Exit code 1\n=== go test (error tests) ===\nok  \tacme/sts\t0.3s\n",
            "exit_status",
            "it ended with a look-up (grep, head, ls): its exit status is that look-up's answer",
        ),
        (
            # A pipe exits with its last command's status: grep found no error about these files.
            'cd /app && npx tsc --noEmit 2>&1 | grep -E "exerciseHtml|types.ts"',
            "(no output)",
            "exit_status",
            "it ended with a look-up (grep): its exit status is that look-up's answer",
        ),
        (
            "python3 -c 'import yaml; print(yaml.__version__)'",
            'Traceback (most recent call last):\n  File "<string>", line 1, in <module>\n'
            "ModuleNotFoundError: No module named 'yaml'\n",
            "exit_status",
            "a one-line probe that could not import or parse",
        ),
    ],
)
def test_failures_that_are_not_errors_are_noise_with_their_reason(
    command: str, output: str, failure: str, reason: str
) -> None:
    ledger = ErrorLedger()
    ledger.observe(3, command, "Bash", output, False, "call-1", failure)
    assert ledger.errors == []
    assert outcomes(ledger) == [("noise", reason)]


@pytest.mark.parametrize(
    ("command", "output"),
    [
        # With pipefail the check's own status counts; a filter that printed let lines through.
        ("set -o pipefail; npx tsc --noEmit | grep -E types.ts", "Exit code 1\n"),
        ("npx tsc --noEmit | grep -E types.ts", "src/types.ts(3,1): error TS2304: no x.\n"),
    ],
)
def test_a_filter_ending_a_pipe_under_pipefail_or_with_output_is_no_answer(
    command: str, output: str
) -> None:
    ledger = ErrorLedger()
    ledger.observe(3, command, "Bash", output, False, "call-1", "exit_status")
    assert [outcome for outcome, _ in outcomes(ledger)] == ["error"]


@pytest.mark.parametrize(
    ("command", "output"),
    [
        # The programs that fed a process substitution ran on their own here: their exit is theirs.
        ("gh api repos/acme/dotfiles/contents/ci.yaml | base64 -d", "gh: Not Found (HTTP 404)\n"),
        # git could not compare at all: no answer, an error.
        ("git diff --no-index --exit-code a.txt b.txt", "error: Could not access 'a.txt'\n"),
        ("git diff main..feature", "fatal: ambiguous argument 'main..feature'\n"),
    ],
)
def test_a_comparison_that_could_not_compare_is_still_an_error(command: str, output: str) -> None:
    ledger = ErrorLedger()
    ledger.observe(3, command, "Bash", "Exit code 1\n" + output, False, "call-1", "exit_status")
    assert outcomes(ledger) == [("error", None)]
    assert [entry.message for entry in ledger.open_errors] == [output.strip()]


def test_a_failure_no_checker_explains_is_an_error_in_its_own_words() -> None:
    session = Session()
    session.run("git add -A && git commit -m 'feat: totals'", PRE_COMMIT_FORMAT, ok=False)
    [entry] = session.ledger.errors
    # The hook printed its newlines escaped; the error reads as the hook meant it.
    assert entry.message == "Pre-commit validation failed: [FORMAT]"
    assert (
        entry.detail
        == "Code is not formatted.\nRun 'mix format' to fix.\nFix these issues before committing."
    )
    assert outcomes(session.ledger) == [("error", None)]
    assert session.ledger.failed_runs[0].errors == (entry.signature,)


def test_a_passing_test_line_is_never_the_error_of_a_failed_command() -> None:
    # Its words ("missing key columns") sound like an error; the failure is further down.
    output = (
        "@app/core:test: (pass) planner > validates duplicate columns and missing key columns [0.2ms]\n"
        "@app/cli:test: ✓ reports a missing file\n"
        "@app/cli:test: error: expect(received).toBe(expected)\n"
        "@app/cli:test: (fail) cli > migrates against live ClickHouse\n"
    )
    session = Session()
    session.run("bun verify", output, ok=False)
    assert (
        session.ledger.errors[0].message == "@app/cli:test: error: expect(received).toBe(expected)"
    )


def test_an_in_place_edit_that_fails_is_no_look_up() -> None:
    session = Session()
    session.run("sed -i 's/cost/price/' cart.py", "sed: can't read cart.py: No such file", ok=False)
    assert outcomes(session.ledger) == [("error", None)]


def test_the_harness_header_above_the_output_is_not_the_error() -> None:
    """Codex writes chunk, wall time and exit code above a command's output: the error is below."""
    session = Session()
    output = (
        "Chunk ID: c29c17\nWall time: 0.0 seconds\nProcess exited with code 1\n"
        "Original token count: 12\nOutput:\nzsh:1: no matches found: repos/x/contents?ref=main\n"
    )
    session.run("gh api repos/x/contents?ref=main", output, ok=False)
    [entry] = session.ledger.errors
    assert entry.message == "zsh:1: no matches found: repos/x/contents?ref=main"


def test_the_command_line_codex_echoes_above_the_output_is_not_the_error() -> None:
    session = Session()
    output = (
        'Command: /bin/zsh -lc "go test ./internal/sync -run TestTotal"\nChunk ID: 014e39\n'
        "Wall time: 0.8 seconds\nProcess exited with code 1\nOriginal token count: 20\nOutput:\n"
        "panic: boom\nexit status 2\n"
    )
    session.run("bash scripts/check.sh", output, ok=False)
    [entry] = session.ledger.errors
    assert entry.message == "panic: boom"


def test_a_run_whose_output_came_through_its_running_session_is_not_said_silent() -> None:
    session = Session()
    output = (
        'Command: /bin/zsh -lc "go test ./..."\nChunk ID: 9b487a\nWall time: 1.0 seconds\n'
        "Process running with session ID 87853\nOriginal token count: 0\nOutput:\n"
    )
    session.run("go test ./...", output, ok=False)
    [entry] = session.ledger.errors
    assert "without output" not in entry.message
    assert entry.message.endswith("its output was read later, from the session it kept running")


def test_a_git_config_set_that_fails_is_still_an_error() -> None:
    session = Session()
    session.run("git config user.name x", "error: could not lock config file .git/config", ok=False)
    assert outcomes(session.ledger) == [("error", None)]


def test_pre_commit_checkers_report_their_own_errors_with_file_and_line() -> None:
    session = Session()
    session.run(
        "git add -A && git commit -m 'feat: totals'",
        "Pre-commit validation failed:\n" + CREDO + DIALYZER,
        ok=False,
    )
    credo, dialyzer = session.ledger.errors
    assert (credo.tool, credo.file, credo.line, credo.symbol) == (
        "mix credo",
        "lib/shop/cart.ex",
        41,
        "total",
    )
    assert credo.message == "Prefer using an implicit `try` rather than explicit `try`."
    assert (dialyzer.tool, dialyzer.code, dialyzer.line) == ("mix dialyzer", "pattern_match", 58)
    assert dialyzer.message == "The pattern can never match the type."
    assert dialyzer.detail == "Pattern:\n{:ok, _total}\n\nType:\n:error"


def test_a_failing_go_test_keeps_its_expected_and_actual_values() -> None:
    [diagnostic] = extract_errors(GO_FAIL, "go test ./cart")
    assert diagnostic.message == "total of two items"
    assert (
        diagnostic.detail
        == "cart_test.go:31: total of two items\n    expected: 30\n    actual:   20"
    )


def test_a_corrected_retry_resolves_the_failure() -> None:
    session = Session()
    session.run(
        "git add lib/cart.ex priv/static/assets/app.css && git commit -m 'feat'",
        IGNORED_PATH,
        ok=False,
    )
    session.run("git status --short", " M lib/cart.ex\n", ok=True)
    assert not session.ledger.errors[0].resolved
    session.run(
        "git add lib/cart.ex && git commit -m 'feat'",
        "[main 4f2a9c1] feat\n 1 file changed\n",
        ok=True,
    )
    [entry] = session.ledger.errors
    assert (
        entry.message
        == "The following paths are ignored by one of your .gitignore files: priv/static/assets"
    )
    assert (entry.resolved, entry.resolution) == (True, "a corrected retry succeeded")


CHECKOUT_REFUSED = (
    "error: Your local changes to the following files would be overwritten by checkout:\n"
    "\tbin/server\nPlease commit your changes or stash them before you switch branches.\nAborting\n"
)


def test_a_retry_that_shows_a_file_another_way_still_resolves_the_failure() -> None:
    """The chain's work (switch, log) ran again; it showed index.html with head instead of cat."""
    session = Session()
    session.run(
        "git switch feat/icon && git log --oneline -3 && echo '---' && cat /home/dev/app/index.html",
        CHECKOUT_REFUSED,
        ok=False,
    )
    session.run("git log --oneline -3 && head -15 index.html", "cb60880 icons\n<html>\n", ok=True)
    assert not session.ledger.errors[0].resolved  # no switch in it: the refused work did not run
    session.run(
        "git stash push bin/server && git switch feat/icon && git log --oneline -3 && head -15 index.html",
        "Saved working directory\nSwitched to branch 'feat/icon'\ncb60880 icons\n",
        ok=True,
    )
    [entry] = session.ledger.errors
    assert (entry.resolved, entry.resolution) == (True, "a corrected retry succeeded")


def test_a_retry_of_any_one_of_the_failing_runs_resolves_the_failure() -> None:
    """Two runs showed it, one with a step of its own; the later run that holds the other one resolves it."""
    session = Session()
    session.run("git checkout main", CHECKOUT_REFUSED, ok=False)
    session.run("rm -f bin/server && git checkout main", CHECKOUT_REFUSED, ok=False)
    session.run("git stash && git checkout main", "Switched to branch 'main'\n", ok=True)
    [entry] = session.ledger.errors
    assert (entry.resolved, entry.resolution) == (True, "a corrected retry succeeded")


SYNTAX_CHECK = "import ast; ast.parse(open('app/config.py').read()); print('config.py: OK')"


@pytest.mark.parametrize(
    ("retry", "resolution"),
    [
        (
            f'python3 -c "{SYNTAX_CHECK}" && python3 -c "import app"',
            "the same step run with `python3` in place of `python`, which was not found, succeeded",
        ),
        (
            f'uv run python -c "{SYNTAX_CHECK}" && uv run python -c "import app"',
            "the same step run through `uv run`, which found `python`, succeeded",
        ),
    ],
)
def test_a_step_whose_program_was_not_found_is_settled_by_the_same_step_run_another_way(
    retry: str, resolution: str
) -> None:
    session = Session()
    session.run(
        f'python -c "{SYNTAX_CHECK}"',
        "Exit code 127\n(eval):1: command not found: python\n",
        ok=False,
    )
    session.run(
        f'python3 -c "{SYNTAX_CHECK.replace("config", "models")}"', "models.py: OK\n", ok=True
    )
    [entry] = session.ledger.errors
    assert not entry.resolved  # another check through another interpreter: no news of this one
    session.run(retry, "config.py: OK\n", ok=True)
    [entry] = session.ledger.errors
    assert (entry.resolved, entry.resolution) == (True, resolution)


def test_a_program_not_found_with_no_arguments_is_not_settled_by_any_program_run_bare() -> None:
    session = Session()
    session.run(
        "git init demo && cd demo && tree", "bash: line 1: tree: command not found\n", ok=False
    )
    session.run("cat > notes.py << 'EOF'\nprint(1)\nEOF\npython notes.py", "1\n", ok=True)
    session.run("sudo ls", "notes.py\n", ok=True)
    [entry] = session.ledger.errors
    assert not entry.resolved


def test_a_program_that_was_found_but_failed_is_not_settled_by_another_programs_run() -> None:
    session = Session()
    session.run(
        "node scripts/seed.js --fixtures", "Exit code 1\nseed: connection refused\n", ok=False
    )
    session.run("bun scripts/seed.js --fixtures", "seeded 12 rows\n", ok=True)
    [entry] = session.ledger.errors
    assert not entry.resolved


PULL_REFUSED = (
    "Exit code 128\nSwitched to branch 'main'\nM\tnotes.md\n"
    "error: cannot pull with rebase: You have unstaged changes.\nerror: Please commit or stash them.\n"
)
UNKNOWN_VALUE = (
    "Exit code 1\n  Compiling app\nerror: Unknown module value\n  ┌─ src/probe.gleam:6:3\n"
    "  │\n6 │   io.debug(result)\n  │     ^^^^^ Did you mean `println`?\n"
)


@pytest.mark.parametrize(
    ("chain", "output", "retry"),
    [
        # The complaint names the last step's action, not the earlier one's.
        ("git checkout main && git pull", PULL_REFUSED, "git stash && git pull && git stash pop"),
        # The step before prints nothing when it succeeds and names itself when it fails.
        (
            "mv probe.gleam src/probe.gleam && gleam run -m probe 2>&1",
            UNKNOWN_VALUE,
            "gleam run -m probe",
        ),
    ],
)
def test_the_failed_last_step_of_a_chain_run_again_and_succeeding_resolves_it(
    chain: str, output: str, retry: str
) -> None:
    session = Session()
    session.run(chain, output, ok=False)
    session.run("git status --short", " M notes.md\n", ok=True)
    [entry] = session.ledger.errors
    assert not entry.resolved
    session.run(retry, "Already up to date.\n", ok=True)
    [entry] = session.ledger.errors
    assert (entry.resolved, entry.resolution) == (
        True,
        "the step that failed ran again and succeeded",
    )


@pytest.mark.parametrize(
    ("chain", "output"),
    [
        # Which step failed is not said: the build may have, before the tests ran.
        ("./scripts/gen.sh && ./scripts/publish.sh", "Exit code 1\nerror: something went wrong\n"),
        # The complaint names the earlier step's action.
        (
            "git pull && git push origin main",
            "Exit code 1\nerror: cannot pull with rebase: You have unstaged changes.\n",
        ),
        # Not a chain that stops at its first failure.
        ("mkdir -p out || ./scripts/publish.sh", "Exit code 1\nerror: something went wrong\n"),
    ],
)
def test_a_chain_whose_failed_step_is_not_known_is_not_settled_by_its_last_step(
    chain: str, output: str
) -> None:
    session = Session()
    session.run(chain, output, ok=False)
    session.run(chain.rsplit(" && ", 1)[-1].rsplit(" || ", 1)[-1], "ok\n", ok=True)
    [entry] = session.ledger.errors
    assert not entry.resolved


def test_a_commit_that_succeeds_after_a_failing_script_moves_past_it() -> None:
    # Moved past, not fixed: what ran next is said, never that the script's failure was resolved.
    session = Session()
    session.run(
        "./scripts/seed.sh", "Exit code 1\nseed: permission denied: db/seeds.sql\n", ok=False
    )
    session.run(
        "git commit -am 'seed data'", "[main 9e1d2b7] seed data\n 2 files changed\n", ok=True
    )
    [entry] = session.ledger.errors
    assert not entry.resolved
    assert entry.went_on == "git commit -am 'seed data'"


def test_a_commit_that_succeeds_after_its_own_refusal_resolves_it() -> None:
    session = Session()
    session.run(
        "git commit -m 'seed'",
        "error: gpg failed to sign the data\nfatal: failed to write commit object\n",
        ok=False,
    )
    session.run(
        "git commit -am 'seed data'", "[main 9e1d2b7] seed data\n 2 files changed\n", ok=True
    )
    assert all(e.resolved for e in session.ledger.errors)


def test_a_commit_does_not_resolve_a_failing_test() -> None:
    session = Session()
    session.run("go test ./cart", GO_FAIL, ok=False)
    session.run("git commit -am 'wip'", "[main 9e1d2b7] wip\n 1 file changed\n", ok=True)
    assert not session.ledger.errors[0].resolved


def test_the_failing_test_passing_by_name_resolves_it() -> None:
    session = Session()
    session.run("go test ./...", GO_FAIL, ok=False)
    session.run("go test -run TestOther ./cart", "ok  \texample.com/shop/cart\t0.01s\n", ok=True)
    assert not session.ledger.errors[0].resolved
    session.run("go test -run 'TestTotal$' ./cart", "ok  \texample.com/shop/cart\t0.01s\n", ok=True)
    [entry] = session.ledger.errors
    assert (entry.resolved, entry.resolution) == (True, "its failing test(s) passed by name")


def test_the_projects_test_task_passing_resolves_a_test_failure() -> None:
    session = Session()
    session.run("go test ./cart", GO_FAIL, ok=False)
    session.run(
        "mise run test:ci",
        "[test:ci] $ go test ./...\nok  \texample.com/shop/cart\t0.2s\n",
        ok=True,
    )
    [entry] = session.ledger.errors
    assert (entry.resolved, entry.resolution) == (True, "the project's test task passed")


def test_a_whole_project_run_of_the_checker_resolves_what_a_hook_reported() -> None:
    session = Session()
    session.run(
        "git add -A && git commit -m 'feat'", "Pre-commit validation failed:\n" + CREDO, ok=False
    )
    session.run("mix credo --strict", "Checking 88 source files ...\nfound no issues.\n", ok=True)
    [entry] = session.ledger.errors
    assert (entry.resolved, entry.resolution) == (
        True,
        "a whole-project run of the same checker passed",
    )


def test_the_same_checker_passing_on_the_file_resolves_it() -> None:
    session = Session()
    session.run("mix credo --strict lib/shop/cart.ex lib/shop/order.ex", CREDO, ok=False)
    session.run("mix credo --strict lib/shop/order.ex", "Checking 1 source file ...\n", ok=True)
    assert not session.ledger.errors[0].resolved
    session.run("mix credo --strict lib/shop/cart.ex", "Checking 1 source file ...\n", ok=True)
    [entry] = session.ledger.errors
    assert (entry.resolved, entry.resolution) == (True, "the same checker passed on its file")


def test_an_error_gone_from_a_failing_rerun_is_resolved() -> None:
    two = GO_FAIL.replace(
        "FAIL\nFAIL\t", "--- FAIL: TestTax (0.00s)\n    cart_test.go:44: tax\nFAIL\nFAIL\t"
    )
    session = Session()
    session.run("go test ./cart", two, ok=False)
    session.run(
        "go test ./cart",
        "--- FAIL: TestTax (0.00s)\n    cart_test.go:44: tax\nFAIL\n"
        "FAIL\texample.com/shop/cart\t0.01s\n",
        ok=False,
    )
    total, tax = session.ledger.errors
    assert (total.resolved, total.resolution) == (True, "gone from a rerun of the same check")
    assert not tax.resolved


def test_the_ledger_state_keeps_failed_runs_and_resumes_its_index() -> None:
    session = Session()
    session.run("grep -rn TODO src", "Exit code 1\n", ok=False)
    session.run("go test ./cart", GO_FAIL, ok=False)
    restored = ErrorLedger.model_validate_json(session.ledger.model_dump_json())
    assert restored == session.ledger
    # The resumed ledger finds the open error from what could resolve it.
    restored.observe(
        20, "go test ./...", "Bash", "ok  \texample.com/shop/cart\t0.2s\n", True, "call-9"
    )
    assert restored.errors[0].resolution == "a broader run of the same check passed"


def test_a_hook_rerun_that_gets_past_a_checker_resolves_that_checkers_errors() -> None:
    session = Session()
    commit = "git add -A && git commit -m 'feat: totals'"
    session.run(
        commit,
        "Pre-commit validation failed:\n[CREDO]\n" + CREDO + "[DIALYZER]\n" + DIALYZER,
        ok=False,
    )
    # Fixed the credo finding; the hook now stops at Dialyzer, which runs after credo.
    session.run(commit, "Pre-commit validation failed:\n[DIALYZER]\n" + DIALYZER, ok=False)
    credo, dialyzer = session.ledger.errors
    assert (credo.resolved, credo.resolution) == (True, "a rerun of the same command got past it")
    assert not dialyzer.resolved


def test_an_error_that_blocked_later_checks_is_not_resolved_by_their_failures() -> None:
    session = Session()
    session.run("go test ./cart", GO_FAIL, ok=False)
    # The rerun fails to compile: the tests never ran, so the failing test is not known to pass.
    session.run(
        "go test ./cart",
        "# example.com/shop/cart\ncart.go:12:2: undefined: roundTo\n"
        "FAIL\texample.com/shop/cart [build failed]\n",
        ok=False,
    )
    assert not session.ledger.errors[0].resolved


CARGO_COMPILE_ERROR = """   Compiling shop v0.1.0 (/w/shop)
error[E0061]: this function takes 2 arguments but 1 argument was supplied
   --> src/main.rs:583:5
    |
583 |     total(items);
    |     ^^^^^------- an argument of type `Rate` is missing

error: could not compile `shop` (bin "shop") due to 1 previous error
"""
CARGO_TEST_FAILED = """   Compiling shop v0.1.0 (/w/shop)
    Finished `test` profile [unoptimized + debuginfo] target(s) in 2.10s
     Running unittests src/main.rs (target/debug/deps/shop-1a2b)

running 3 tests
test tests::rounds ... ok
test tests::sums ... ok
test tests::taxes ... FAILED

failures:

---- tests::taxes stdout ----
thread 'tests::taxes' panicked at src/tax.rs:20:9:
assertion `left == right` failed

failures:
    tests::taxes

test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
"""


def test_a_compile_error_is_gone_once_a_rerun_of_cargo_test_runs_tests() -> None:
    # cargo runs no test before everything compiles: a rerun that ran tests, even failing ones, compiled.
    session = Session()
    session.run("cargo test 2>&1", CARGO_COMPILE_ERROR, ok=False)
    session.run("cargo test 2>&1", CARGO_TEST_FAILED, ok=False)
    compile_error = next(e for e in session.ledger.errors if e.tool == "rustc")
    assert compile_error.resolved
    assert compile_error.resolution == "gone from a rerun of the same check, whose tests ran"
    assert any(not e.resolved for e in session.ledger.errors if e.tool != "rustc")


CARGO_CHECK_FINISHED_THEN_CLIPPY = """    Checking shop v0.1.0 (/w/shop)
    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.15s
    Checking shop v0.1.0 (/w/shop)
error: docs for function returning `Result` missing `# Errors` section
   --> src/lib.rs:202:5
    |
202 |     pub fn entries(&mut self) -> Result<Entries> {
    |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
    |
    = note: `-D clippy::missing-errors-doc` implied by `-D warnings`

error: could not compile `shop` (lib) due to 1 previous error
"""


def test_a_compile_error_is_gone_once_a_chain_shows_cargo_check_finished_before_clippy_failed() -> (
    None
):
    # `a && b && c` stops at the first step that fails: clippy ran, so cargo check passed.
    session = Session()
    session.run("cargo fmt --all && cargo check --all-targets", CARGO_COMPILE_ERROR, ok=False)
    session.run(
        "cargo fmt --all && cargo check --all-targets && cargo clippy --all-targets -- -D warnings",
        CARGO_CHECK_FINISHED_THEN_CLIPPY,
        ok=False,
    )
    compile_error = next(e for e in session.ledger.errors if "argument" in e.message)
    assert compile_error.resolved
    assert "cargo check --all-targets" in (compile_error.resolution or "")
    assert any(not e.resolved for e in session.ledger.errors if e is not compile_error)


@pytest.mark.parametrize(
    "command",
    [
        # `;` goes on after a failed step: the order of the output's lines says nothing.
        "cargo check --all-targets ; cargo clippy --all-targets -- -D warnings",
        # no cargo check in the chain: clippy's failure is no check passing.
        "cargo fmt --all && cargo clippy --all-targets -- -D warnings",
    ],
)
def test_a_chain_without_a_finished_check_before_the_failure_leaves_the_compile_error_open(
    command: str,
) -> None:
    session = Session()
    session.run("cargo check --all-targets 2>&1", CARGO_COMPILE_ERROR, ok=False)
    session.run(command, CARGO_CHECK_FINISHED_THEN_CLIPPY, ok=False)
    assert not next(e for e in session.ledger.errors if "argument" in e.message).resolved


PUSH_REJECTED = """To github.com:shop/shop.git
 ! [rejected]        main -> main (fetch first)
error: failed to push some refs to 'github.com:shop/shop.git'
hint: Updates were rejected because the remote contains work that you do not have locally.
"""


def test_a_rejected_push_is_settled_by_a_later_push_that_names_the_branch_the_first_computed() -> (
    None
):
    # `$(git branch --show-current)` only computed the branch's name: `git push origin main` is the retry.
    session = Session()
    session.run(
        "git push --dry-run origin $(git branch --show-current) 2>&1", PUSH_REJECTED, ok=False
    )
    session.run(
        "git stash && git pull --rebase origin main && git stash pop", "Fast-forward\n", ok=True
    )
    pushed = session.ledger.errors[0]
    assert not pushed.resolved
    session.run(
        "git push origin main",
        "To github.com:shop/shop.git\n   30ad743..2bc934b  main -> main\n",
        ok=True,
    )
    assert session.ledger.errors[0].resolved
    assert session.ledger.errors[0].resolution == "a corrected retry succeeded"


BUN_VERIFY_FAILED = """$ turbo run typecheck lint test build
shop:test: (pass) cart > sums [0.11ms]
shop:test: (fail) cart > taxes [0.20ms]
shop:test:  1 pass
shop:test:  1 fail
shop:test: error: script "test" exited with code 1
"""


def test_a_rerun_whose_filter_masked_its_exit_status_and_that_printed_failures_settles_nothing() -> (
    None
):
    session = Session()
    session.run("bun verify", BUN_VERIFY_FAILED, ok=False)
    session.run(
        "bun verify 2>&1 | grep -E '(fail|error:)' | head -40",
        "shop:test: (fail) cart > taxes [0.20ms]\nshop:test: 1 tests failed:\n",
        ok=True,
    )
    assert session.ledger.errors
    assert not any(e.resolved for e in session.ledger.errors)


def test_a_filtered_rerun_that_printed_no_failure_still_settles_the_command() -> None:
    session = Session()
    session.run("bun verify", BUN_VERIFY_FAILED, ok=False)
    session.run("bun verify 2>&1 | tail -3", "shop:test:  2 pass\nshop:test:  0 fail\n", ok=True)
    assert session.ledger.errors
    assert all(e.resolved for e in session.ledger.errors)


def test_a_run_whose_exit_status_a_filter_masked_is_not_what_the_session_went_on_to() -> None:
    # `bun test | tail -80` exits with tail's status: no success of the tests is seen.
    session = Session()
    session.run(
        "./scripts/seed.sh", "Exit code 1\nseed: permission denied: db/seeds.sql\n", ok=False
    )
    session.run("bun test src 2>&1 | tail -80", " 62 pass\n 0 fail\n 2 errors\n", ok=True)
    [entry] = session.ledger.errors
    assert entry.went_on is None
    session.run("git commit -am 'seed data'", "[main 9e1d2b7] seed data\n", ok=True)
    assert session.ledger.errors[0].went_on == "git commit -am 'seed data'"


# A suite of error-case checks that all passed, in colour, then the step that failed (prettier) at the end.
CHAINED_CHECKS = (
    "> pkg@1.0.0 test\n> npm run test:schemas && npm run format:check\n\n"
    "\x1b[34m❌ MENU (invalid)\x1b[0m\n"
    "  \x1b[32m✓\x1b[0m missing-menu \x1b[2mGot expected error (invalid_type): Required\x1b[0m\n"
    "  \x1b[32m✓\x1b[0m empty-menu \x1b[2mGot expected error (too_small): needs one entry\x1b[0m\n"
    "\x1b[34m❌ PERSONA (invalid)\x1b[0m\n"
    "  \x1b[32m✓\x1b[0m missing-role \x1b[2mGot expected error (invalid_type): Required\x1b[0m\n"
    "  Failed: \x1b[32m0\x1b[0m\n"
    "Summary: 0 error(s)\n\n"
    "> pkg@1.0.0 format:check\n> prettier --check .\n\nChecking formatting...\n[warn] package.json\n"
    "[warn] Code style issues found in 1 file. Run Prettier with --write to fix.\n"
)


def test_error_cases_that_passed_are_not_the_failure_its_last_line_is_said_as_seen() -> None:
    """Headings over passing checks, counts of none and warnings are no failure; with nothing else
    error-like, the output's last line is said as what it ended with, not quoted as the error."""
    session = Session()
    session.run("npm test", CHAINED_CHECKS, ok=False)
    [entry] = session.ledger.errors
    assert entry.message == (
        "no line of its output reads as an error; it ended: "
        "[warn] Code style issues found in 1 file. Run Prettier with --write to fix."
    )


def test_a_failing_check_under_a_heading_keeps_the_heading_the_failure() -> None:
    session = Session()
    output = "❌ MENU (invalid)\n  ✓ missing-menu rejected\n  ✗ empty-menu accepted\nDone in 2s\n"
    session.run("node test/schemas.js", output, ok=False)
    [entry] = session.ledger.errors
    assert entry.message == "❌ MENU (invalid)"


def test_a_warning_and_a_header_are_not_the_error_of_a_run_that_printed_no_error() -> None:
    session = Session()
    output = (
        "DEPRECATION WARNING: Configurable is deprecated and will be removed in 8.2.\n"
        "--- Timing key examples ---\nprofile (3 orders): 1.7s\numap (n=3): 1.7s\n"
    )
    session.run("Rscript timing.R", output, ok=False)
    [entry] = session.ledger.errors
    assert entry.message == "no line of its output reads as an error; it ended: umap (n=3): 1.7s"


def test_a_warning_above_the_error_is_passed_over() -> None:
    session = Session()
    output = (
        "DEPRECATION WARNING: Configurable is missing a replacement.\n"
        "PG::ConnectionBad: connection to server failed: Connection refused\n\tfrom app.rb:3\n"
    )
    session.run("bin/rails test", output, ok=False)
    [entry] = session.ledger.errors
    assert entry.message.startswith("PG::ConnectionBad: connection to server failed")


def test_the_shells_own_complaint_is_the_error_wherever_it_stands() -> None:
    session = Session()
    output = (
        "Caching package state...\ncache.sh:152: BASH_SOURCE[0]: parameter not set\n"
        "state_set_stage:1: read-only variable: status\n"
    )
    session.run("source state.sh && state_set_stage build", output, ok=False)
    [entry] = session.ledger.errors
    assert entry.message == "cache.sh:152: BASH_SOURCE[0]: parameter not set"


def test_a_refused_action_is_not_a_typo_of_a_similar_action_that_later_succeeded() -> None:
    """`git pull` and `git push` are two letters apart; "cannot pull" is no complaint about a word."""
    session = Session()
    session.run("git pull", PULL_REFUSED, ok=False)
    session.run("git push", "Everything up-to-date\n", ok=True)
    [entry] = session.ledger.errors
    assert not entry.resolved
    session.run("git psuh", "git: 'psuh' is not a git command. See 'git --help'.\n", ok=False)
    session.run("git push", "Everything up-to-date\n", ok=True)
    typo = by_message(session.ledger, "git: 'psuh' is not a git command. See 'git --help'.")
    assert typo.resolution == "the same command with its typo corrected succeeded"


SMOKE_TEST = """cd /work/app
URL=$(grep '^API_URL=' .env.local | cut -d= -f2-)
echo "1) create a user"
CREATE=$(curl -s -X POST "$URL/users" -d '{"email":"a@example.com"}')
UID=$(echo "$CREATE" | grep -m1 '"id"' | sed -E 's/.*"id":"([^"]+)".*/\\1/')
echo "   created ${UID:0:8}"
echo "2) log in"
LOGIN=$(curl -s -o /dev/null -w "%{http_code}" -X POST "$URL/login" -d '{"email":"a@example.com"}')
echo "   login http=$LOGIN"
"""


def test_a_script_run_again_with_a_variable_renamed_resolves_its_failure() -> None:
    session = Session()
    session.run(
        SMOKE_TEST,
        "Exit code 1\n1) create a user\n(eval):5: bad math expression: operator expected at `eb7395f-a9...'\n",
        ok=False,
    )
    [entry] = session.ledger.errors
    # The shell's complaint is the failure, not the step label the script echoed before it.
    assert entry.message == "(eval):5: bad math expression: operator expected at `eb7395f-a9...'"
    session.run("ls", "app\n", ok=True)
    assert not session.ledger.errors[0].resolved
    # The variable renamed, and the last step changed too: not the same command.
    session.run(
        SMOKE_TEST.replace("UID", "NEW_ID").replace("-X POST", '-H "X-Trace: 1" -X POST'),
        "1) create a user\n   created 1eb7395f\n2) log in\n200",
        ok=True,
    )
    [entry] = session.ledger.errors
    assert (entry.resolved, entry.resolution) == (
        True,
        "the same steps ran again with a small change and succeeded",
    )


def test_another_script_succeeding_does_not_resolve_a_failed_one() -> None:
    session = Session()
    session.run(SMOKE_TEST, "Exit code 1\n(eval):5: bad math expression\n", ok=False)
    session.run(
        "cd /work/app\nURL=$(grep '^API_URL=' .env.local | cut -d= -f2-)\n"
        'curl -s "$URL/health"\ncurl -s "$URL/version"\n',
        '{"ok":true}\n',
        ok=True,
    )
    assert not session.ledger.errors[0].resolved


def test_a_tool_the_harness_does_not_have_is_no_error_of_the_project() -> None:
    session = Session()
    session.run(
        'sed -i "s/connect();/connect().catch(log);/" src/main.ts',
        'Tool "run_shell_command" not found. Did you mean one of: "grep_search", "read_file"?',
        ok=False,
    )
    assert session.ledger.errors == []
    [run] = session.ledger.failed_runs
    assert (run.outcome, run.reason) == (
        "noise",
        "the agent asked for a tool the harness does not have: the command never ran",
    )


def test_a_look_up_after_a_semicolon_does_not_answer_for_the_failure_before_it() -> None:
    ledger = ErrorLedger()
    output = "Exit code 1\nmain.go:3:2: undefined: x\nls: Makefile: No such file or directory\n"
    ledger.observe(
        3, "go build ./... ; ls Makefile", "Bash", output, False, "call-1", "exit_status"
    )
    assert [outcome for outcome, _ in outcomes(ledger)] == ["error"]


def test_a_look_up_after_a_semicolon_does_not_hide_a_failure_printed_before_it() -> None:
    ledger = ErrorLedger()
    output = "Exit code 1\nmake: *** [build] Error 1\nls: dist/: No such file or directory\n"
    ledger.observe(3, "make build; ls dist/", "Bash", output, False, "call-1", "exit_status")
    assert [outcome for outcome, _ in outcomes(ledger)] == ["error"]


def test_a_chain_that_stopped_at_a_look_up_between_its_markers_is_no_error() -> None:
    # The first marker printed and the second did not: the `ls` between them answered "no such folder".
    ledger = ErrorLedger()
    command = (
        'git checkout -b v2 && echo "---branch created---" && ls internal/testdata 2>/dev/null'
        ' && echo "(listed above)"'
    )
    output = "Exit code 2\nSwitched to a new branch 'v2'\n---branch created---\n"
    ledger.observe(3, command, "Bash", output, False, "call-1", "exit_status")
    assert [outcome for outcome, _ in outcomes(ledger)] == ["noise"]


@pytest.mark.parametrize(
    ("command", "output"),
    [
        # The step after the marker is no look-up: its failure is the project's.
        ('make build && echo "--- built ---" && ./bin/app --check && echo done', "--- built ---\n"),
        # Two steps between the markers: which one failed is not known.
        ('echo "--- a ---" && make build && ls out && echo done', "--- a ---\n"),
        # The second marker printed too: the chain went past the look-up.
        ('echo "--- a ---" && ls out && echo "--- b ---" && make', "--- a ---\nout\n--- b ---\n"),
    ],
)
def test_a_chain_that_stopped_elsewhere_keeps_its_error(command: str, output: str) -> None:
    ledger = ErrorLedger()
    ledger.observe(3, command, "Bash", "Exit code 2\n" + output, False, "call-1", "exit_status")
    assert [outcome for outcome, _ in outcomes(ledger)] == ["error"]


SETTINGS_TRACEBACK = """Traceback (most recent call last):
  File "<stdin>", line 3, in <module>
  File "/home/dev/.venv/lib/python3.12/site-packages/pydantic/main.py", line 263, in __init__
    validated_self = self.__pydantic_validator__.validate_python(data, self_instance=self)
pydantic_core._pydantic_core.ValidationError: 1 validation error for Settings
"""


def _stdin_script(body: str) -> str:
    return f"cd /home/dev/app && python3 - <<'PY'\n{body}\nPY"


def test_another_script_on_standard_input_is_not_a_rerun_of_the_one_that_failed() -> None:
    # Settings() raised in the project's configuration; the next script passes a workaround
    # argument and gets past it, then another succeeds: neither is the failing script run again.
    session = Session()
    session.run(
        _stdin_script("from app.config import Settings\ns = Settings()"),
        SETTINGS_TRACEBACK,
        ok=False,
    )
    session.run(
        _stdin_script('from app.config import Settings\ns = Settings(level="INFO")\nboom()'),
        'Traceback (most recent call last):\n  File "<stdin>", line 3, in <module>\n'
        "NameError: name 'boom' is not defined\n",
        ok=False,
    )
    session.run(
        _stdin_script('from app.config import Settings\nprint(Settings(level="INFO"))'),
        "ok\n",
        ok=True,
    )
    settings = next(e for e in session.ledger.errors if "Settings" in e.message)
    assert not settings.resolved
    # The error of the script's own line is its own, and its correction is what fixed it.
    typo = next(e for e in session.ledger.errors if "boom" in e.message)
    assert (typo.resolved, typo.resolution) == (True, "a corrected retry succeeded")


def test_a_missing_module_stays_missing_for_another_program_that_never_imports_it() -> None:
    traceback = (
        'Traceback (most recent call last):\n  File "<string>", line 2, in <module>\n'
        "ModuleNotFoundError: No module named '__editable___shop_finder'\n"
    )
    session = Session()
    session.run(
        'cat shop.pth && echo "---" && uv run python -c "\nimport __editable___shop_finder\n"'
        " 2>&1 | tail -20",
        "import __editable___shop_finder\n---\n" + traceback,
        ok=True,
    )
    session.run('uv run python -c "import site; print(site.ENABLE_USER_SITE)"', "True\n", ok=True)
    [entry] = session.ledger.errors
    assert not entry.resolved
    session.run(
        'uv run python -c "import __editable___shop_finder as f; print(f)"', "<m>\n", ok=True
    )
    assert session.ledger.errors[0].resolved


def test_the_same_script_on_standard_input_run_again_is_a_rerun() -> None:
    script = _stdin_script("from app.config import Settings\ns = Settings()")
    session = Session()
    session.run(script, SETTINGS_TRACEBACK, ok=False)
    session.run(script, "", ok=True)
    [entry] = session.ledger.errors
    assert (entry.resolved, entry.resolution) == (True, "the same command succeeded")


VITEST_FAIL = (
    "$ vitest run\n\n FAIL  src/feed.test.ts > feeds > parses the feed\n"
    "AssertionError: expected 2 to be 3\n\n"
    " Test Files  1 failed | 2 passed (3)\n      Tests  1 failed | 9 passed (10)\n"
)


@pytest.mark.parametrize("build", ["pnpm build", "pnpm exec tsc --noEmit"])
def test_a_check_of_another_kind_in_the_failing_command_passing_alone_resolves_nothing(
    build: str,
) -> None:
    # The build ran beside the tests that failed; the build passing alone later says
    # nothing of the tests.
    session = Session()
    session.run(f"{build} && pnpm test:run", "built in 2s\n" + VITEST_FAIL, ok=False)
    session.run(build, "built in 2s\n", ok=True)
    assert [entry.resolved for entry in session.ledger.errors] == [False]


PATHSPEC = (
    "error: pathspec 'flits/models.py' did not match any file(s) known to git\n"
    "error: pathspec 'flits/params.py' did not match any file(s) known to git\n"
)


@pytest.mark.parametrize(
    ("failed", "later", "resolved"),
    [
        (
            "git restore -- flits/models.py flits/params.py",
            "git checkout HEAD -- flits/models.py flits/params.py",
            True,
        ),
        (
            "git checkout -- flits/models.py flits/params.py",
            "git restore --source=HEAD --staged --worktree flits/params.py flits/models.py",
            True,
        ),
        # Only one of the files put back: the other may still be missing.
        (
            "git restore -- flits/models.py flits/params.py",
            "git checkout HEAD -- flits/models.py",
            False,
        ),
    ],
)
def test_files_restored_from_git_another_way_resolve_the_failed_restore(
    failed: str, later: str, resolved: bool
) -> None:
    session = Session()
    session.run(failed, PATHSPEC, ok=False)
    session.run("git ls-files -- flits", "", ok=True)
    session.run(later, "Updated 2 paths from the index\n", ok=True)
    [entry] = session.ledger.errors[:1]
    assert entry.resolved is resolved
    if resolved:
        assert (
            entry.resolution == "the same files were put back from git another way, which succeeded"
        )


@pytest.mark.parametrize(
    "output",
    [
        "/tmp/run.sh: line 268: ${x:-$(date}: bad substitution: no closing `)' in $(date\n",
        "bash: -c: line 3: syntax error near unexpected token `fi'\n",
        "zsh:1: parse error near `&&'\n",
        "bash: TARGET: unbound variable\n",
        "At line:1 char:12\n+ cd client && npm install\n+            ~~\n"
        "The token '&&' is not a valid statement separator in this version.\n",
        "npx: The term 'npx' is not recognized as the name of a cmdlet, function, script file, or"
        " operable program.\n",
    ],
)
def test_the_shell_refusing_the_command_line_is_the_error_quoted(output: str) -> None:
    # Said in none of the words the generic markers catch, these were "no line of its output
    # reads as an error", though the line says exactly what failed.
    session = Session()
    session.run("cd client && npm install", "starting\n" + output + "cleaning up\n", ok=False)
    [entry] = session.ledger.errors
    needle = next(line for line in output.splitlines() if not line.startswith(("+", "At line")))
    assert entry.message == needle.strip()


def test_a_line_every_successful_command_opens_with_is_the_shell_not_a_failure() -> None:
    # A broken shell profile prints its complaint before every command's own output: quoted as
    # the error of a run that timed out, it sent the next agent after the profile.
    noise = (
        "setValueForKeyFakeAssocArray:27: command not found: _encode\n" * 6
        + "valueForKeyFakeAssocArray:28: command not found: _decode\n"
    )
    session = Session()
    session.run("git status --short", noise + " M src/lib.rs\n", ok=True)
    session.run("cargo fmt --check", noise, ok=True)
    session.run(
        "cargo test --workspace", noise + "   Compiling faucet v0.1.0\nTerminated\n", ok=False
    )
    [entry] = session.ledger.errors
    assert "_encode" not in entry.message and "_decode" not in entry.message


def test_an_error_line_one_command_prints_when_it_succeeds_is_still_its_failure_elsewhere() -> None:
    # One command printing the line while succeeding says nothing of the shell: only lines two
    # different commands open with are the environment's.
    line = "bash: line 1: jq: command not found\n"
    session = Session()
    session.run("make info || true", line + "info done\n", ok=True)
    session.run("curl -s localhost:8080/health | jq .status", line, ok=False)
    [entry] = session.ledger.errors
    assert "jq: command not found" in entry.message


REBASE_STOPPED = (
    "Auto-merging scrape.py\nCONFLICT (content): Merge conflict in scrape.py\n"
    "error: could not apply cefcc64... Refactor scrapers\n"
    "hint: Resolve all conflicts manually, mark them as resolved with\n"
)
MERGE_STOPPED = (
    "Auto-merging src/runner.ts\nCONFLICT (content): Merge conflict in src/runner.ts\n"
    "Automatic merge failed; fix conflicts and then commit the result.\n"
)
STASH_REFUSED = (
    "error: Your local changes to the following files would be overwritten by merge:\n"
    "\tsrc/utils/ogp.ts\nPlease commit your changes or stash them before you merge.\nAborting\n"
    "The stash entry is kept in case you need it again.\n"
)


@pytest.mark.parametrize(
    ("failed", "output", "ended_with"),
    [
        (
            "git stash && git pull --rebase origin main && git stash pop",
            REBASE_STOPPED,
            "git rebase --abort && git stash pop",
        ),
        (
            "git pull --rebase origin main",
            REBASE_STOPPED,
            "git add scrape.py && git rebase --continue",
        ),
        (
            "git stash -u && pnpm assist; git stash pop",
            STASH_REFUSED,
            "git checkout src/utils/ogp.ts && git stash drop",
        ),
        ("git stash pop", STASH_REFUSED, "git checkout src/utils/ogp.ts && git stash pop"),
        # The conflicts resolved and staged, a plain commit concludes the merge.
        (
            "git merge origin/main --no-edit 2>&1",
            MERGE_STOPPED,
            "git add -A && git commit -m 'Merge main into topic'",
        ),
    ],
)
def test_a_git_operation_stopped_midway_is_settled_by_the_command_that_ends_it(
    failed: str, output: str, ended_with: str
) -> None:
    session = Session()
    session.run(failed, output, ok=False)
    session.run("git status --short && git log --oneline -3", " M scrape.py\n", ok=True)
    assert not session.ledger.errors[0].resolved  # looking at it ends nothing
    session.run(ended_with, "Successfully rebased and updated refs/heads/main.\n", ok=True)
    entry = session.ledger.errors[0]
    assert entry.resolved and (entry.resolution or "").startswith("the stopped ")


def test_a_refused_step_to_go_on_with_an_operation_is_settled_by_ending_it() -> None:
    session = Session()
    session.run(
        "git config commit.gpgsign false && git rebase --continue && git push",
        "error: you have staged changes in your working tree\nIf these changes are meant to be\n",
        ok=False,
    )
    session.run("git rebase --abort", "", ok=True)
    entry = session.ledger.errors[0]
    assert (entry.resolved, entry.resolution) == (
        True,
        "the stopped rebase was ended by `git rebase --abort`, which succeeded",
    )


def test_ending_an_operation_settles_only_a_stop_of_that_operation() -> None:
    session = Session()
    session.run("git show 4fc38c5 -- .github/", "fatal: bad object 4fc38c5\n", ok=False)
    session.run("git rebase --abort", "", ok=True)
    assert not session.ledger.errors[0].resolved


def test_inline_code_the_shell_misread_is_settled_when_the_same_interpreter_then_runs() -> None:
    session = Session()
    session.run(
        "cd apps/api && python3 -c '\nprint(\"a\\\"b)\n'", '(eval):26: unmatched "\n', ok=False
    )
    # Written to a file, but the file was not there: python3 failed, `rm -f` made the exit 0.
    session.run(
        "python3 /tmp/check.py; rm -f /tmp/check.py",
        "python3: can't open file '/tmp/check.py': [Errno 2] No such file or directory\n",
        ok=True,
    )
    assert not session.ledger.errors[0].resolved
    session.run("node -e 'console.log(1)'", "1\n", ok=True)  # another interpreter
    assert not session.ledger.errors[0].resolved
    session.run("python3 /tmp/check.py; rm -f /tmp/check.py", "lines == messages: True\n", ok=True)
    entry = session.ledger.errors[0]
    assert entry.resolved and "same interpreter" in (entry.resolution or "")


def test_a_subcommand_the_program_refuses_is_the_failure_quoted() -> None:
    session = Session()
    session.run(
        "git recommit --help 2>&1 || echo '---'; git config --get-regexp alias 2>&1",
        "git: 'recommit' is not a git command. See 'git --help'.\n\n"
        "The most similar command is\n\tverify-commit\n---\n",
        ok=False,
    )
    [entry] = session.ledger.errors
    assert entry.message == "git: 'recommit' is not a git command. See 'git --help'."


def test_a_line_a_search_found_is_not_the_search_s_failure() -> None:
    session = Session()
    # rg exits 2 when a path is missing; 2>/dev/null hid its complaint: only the matches are left.
    session.run(
        'git status --short && rg -n "ci-nogit" .github mise.toml .mise.toml 2>/dev/null',
        ".github/workflows/ci.yml:146:  ci-nogit:\n"
        '.github/workflows/ci.yml:309:          echo "ci-nogit failed or was skipped"\n',
        ok=False,
    )
    [entry] = session.ledger.errors
    assert entry.message.startswith("no line of its output reads as an error; it ended: ")


def test_a_failed_check_in_a_table_of_checks_is_the_failure() -> None:
    output = (
        "lint\tfail\t7m20s\thttps://github.com/o/r/actions/runs/1/job/2\t\n"
        "build\tpass\t2m30s\thttps://github.com/o/r/actions/runs/1/job/3\t\n"
        "deb\tskipping\t0\thttps://github.com/o/r/actions/runs/1/job/4\t\n"
    )
    diagnostic = unexplained_failure("gh pr checks 10705", output)
    assert diagnostic.message.startswith("lint\tfail\t7m20s")


def test_a_commit_that_failed_is_not_ended_by_a_later_commit_as_if_it_were_a_merge() -> None:
    session = Session()
    session.run(
        "git commit -m wip", "husky - pre-commit hook exited with code 1 (error)\n", ok=False
    )
    session.run("git commit -m wip", "[main 1a2b3c4] wip\n", ok=True)
    entry = session.ledger.errors[0]
    assert "merge" not in (entry.resolution or "")
