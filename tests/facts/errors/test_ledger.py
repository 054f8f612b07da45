"""The error ledger: what failed, where, whether it was fixed, and the session's original error."""

from __future__ import annotations

from itertools import count

from artifact_index.facts.errors.diagnostics import Diagnostic
from artifact_index.facts.errors.failed_commands import unexplained_failure
from artifact_index.facts.errors.ledger import ErrorLedger, LedgerEntry, signature

from .diagnostics.test_diagnostics import PYTEST, TRACEBACK

GREEN = "============================= 16 passed in 0.91s ==============================\n"
ONLY_EXPIRED = PYTEST.split("__________________________________ test_login")[0] + (
    "___________________________ TestRefresh.test_expired ___________________________\n\n"
    "    def test_expired(self):\n"
    '>       assert refresh("abc") is None\n'
    "E       AssertionError: assert 'abc' is None\n\n"
    "tests/test_tokens.py:18: AssertionError\n"
    "=========================== short test summary info ============================\n"
    "FAILED tests/test_tokens.py::TestRefresh::test_expired - AssertionError: assert 'abc' is None\n"
    "========================= 1 failed, 15 passed in 0.80s =========================\n"
)
TSC = "src/api/client.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.\n"


class Session:
    """Feeds a ledger the way the tracker does: one tool result at a time."""

    def __init__(self) -> None:
        self.ledger = ErrorLedger()
        self.ids = count(1)
        self.turn = 0

    def run(self, command: str | None, output: str, ok: bool | None, tool: str = "Bash") -> None:
        self.turn += 2
        self.ledger.observe(self.turn, command, tool, output, ok, f"call-{next(self.ids)}")


def by_message(ledger: ErrorLedger, message: str) -> LedgerEntry:
    matches = [entry for entry in ledger.errors if entry.message == message]
    assert len(matches) == 1, ledger.errors
    return matches[0]


def test_resolved_when_the_same_check_later_passes() -> None:
    session = Session()
    session.run("pytest", PYTEST, ok=False)  # turn 2
    session.run("pytest", GREEN, ok=True)  # turn 4
    login = by_message(session.ledger, "KeyError: 'exp'")
    assert (login.file, login.line, login.symbol) == ("authsvc/auth.py", 42, "create_token")
    assert (login.first_turn, login.last_turn, login.command) == (2, 2, "pytest")
    assert (login.resolved, login.resolved_turn, login.resolved_by) == (True, 4, "pytest")
    assert all(entry.resolved for entry in session.ledger.errors)


def test_resolved_by_a_broader_run_but_not_by_a_narrower_one() -> None:
    session = Session()
    session.run("cd /repo && python -m pytest tests/test_auth.py::test_login -x", PYTEST, ok=False)
    session.run("pytest tests/test_tokens.py", GREEN, ok=True)  # a different file: no evidence
    assert not by_message(session.ledger, "KeyError: 'exp'").resolved
    session.run("pytest -q", GREEN, ok=True)  # the whole suite passes
    assert by_message(session.ledger, "KeyError: 'exp'").resolved_turn == 6


def test_resolved_when_the_error_stops_appearing_in_a_later_successful_run() -> None:
    session = Session()
    # Piped into tail, the failing run exits 0: its summary still says what failed.
    session.run("pytest 2>&1 | tail -40", PYTEST, ok=True)
    assert len(session.ledger.errors) == 2 and not any(e.resolved for e in session.ledger.errors)
    session.run("pytest 2>&1 | tail -40", ONLY_EXPIRED, ok=True)
    login = by_message(session.ledger, "KeyError: 'exp'")
    expired = by_message(session.ledger, "AssertionError: assert 'abc' is None")
    assert (login.resolved, login.resolved_turn) == (True, 4)
    assert (expired.resolved, expired.last_turn, expired.occurrences) == (False, 4, 2)


def test_still_open_when_only_other_commands_succeed() -> None:
    session = Session()
    session.run("python scripts/check_tokens.py", TRACEBACK, ok=False)
    session.run("python scripts/check_tokens.py", TRACEBACK.replace("line 42", "line 44"), ok=False)
    session.run("python scripts/other.py", "done\n", ok=True)
    session.run("ls authsvc", "auth.py\n", ok=True)
    [entry] = session.ledger.errors
    assert (entry.first_turn, entry.last_turn, entry.occurrences, entry.resolved) == (
        2,
        4,
        2,
        False,
    )
    assert entry.line == 42  # as first seen


def test_failed_rerun_does_not_resolve_and_reappearance_reopens() -> None:
    session = Session()
    session.run("python scripts/check_tokens.py", TRACEBACK, ok=False)
    session.run("python scripts/check_tokens.py", "Error: config missing\n", ok=False)
    [entry, _config] = session.ledger.errors
    assert not entry.resolved  # the run failed: it says nothing about the KeyError
    session.run("python scripts/check_tokens.py 2>&1 | head -20", "token ok\n", ok=True)
    assert all(e.resolved for e in session.ledger.errors)
    session.run("python scripts/check_tokens.py", TRACEBACK, ok=False)
    entry = by_message(session.ledger, "KeyError: 'exp'")
    assert (entry.resolved, entry.resolved_turn, entry.last_turn) == (False, None, 8)


def test_piped_check_with_errors_is_a_failure() -> None:
    session = Session()
    session.run("npx tsc --noEmit 2>&1 | head -50", TSC, ok=True)
    [entry] = session.ledger.errors
    assert (entry.code, entry.file, entry.line, entry.kind) == (
        "TS2322",
        "src/api/client.ts",
        12,
        "type-checker",
    )
    session.run("npx tsc --noEmit", "", ok=True)
    assert session.ledger.errors[0].resolved


def test_original_error_is_the_first_real_one() -> None:
    session = Session()
    session.run("git push", "fatal: The current branch main has no upstream branch.\n", ok=False)
    session.run(
        None,
        "<tool_use_error>String to replace not found in file.</tool_use_error>",
        ok=False,
        tool="Edit",
    )
    session.run("python scripts/check_tokens.py", TRACEBACK, ok=False)
    session.run("npx tsc --noEmit", TSC, ok=False)
    ledger = session.ledger
    assert [e.kind for e in ledger.errors] == ["generic", "python-traceback", "type-checker"]
    assert ledger.original is not None
    assert (ledger.original.message, ledger.original.first_turn) == ("KeyError: 'exp'", 6)
    session.run("python scripts/check_tokens.py", "token ok\n", ok=True)
    assert ledger.original.resolved  # the original is kept, with its current status


def test_unknown_status_records_only_what_the_output_proves() -> None:
    session = Session()
    session.run("python scripts/check_tokens.py", TRACEBACK, ok=None)
    assert session.ledger.errors == []
    session.run("pytest", PYTEST, ok=None)  # the runner's own summary says it failed
    assert len(session.ledger.errors) == 2
    session.run("pytest", GREEN, ok=None)  # no exit status: not proof enough to resolve
    assert not any(entry.resolved for entry in session.ledger.errors)


def test_last_test_run_per_test_command() -> None:
    session = Session()
    session.run("pytest", PYTEST, ok=False)
    session.run("go test ./...", "ok  \texample.com/calc\t0.2s\n", ok=True)
    session.run("python -m pytest -q 2>&1 | tail -5", GREEN, ok=True)
    tests = session.ledger.tests
    assert [(t.key, t.turn, t.passed, t.failed) for t in tests] == [
        ("pytest", 6, 16, 0),
        ("go test", 4, 1, 0),
    ]
    assert [t.unit for t in tests] == ["tests", "packages"]
    assert tests[0].command == "python -m pytest -q 2>&1 | tail -5"
    assert tests[0].failing == ()


def test_round_trip_and_resume() -> None:
    session = Session()
    session.run("git push", "fatal: no upstream\n", ok=False)
    session.run("pytest", PYTEST, ok=False)
    session.run("npx tsc --noEmit 2>&1 | head", TSC, ok=True)
    saved = session.ledger.model_dump_json()
    restored = ErrorLedger.model_validate_json(saved)
    assert restored == session.ledger
    assert restored.model_dump_json() == saved
    assert restored.original == session.ledger.original

    # Continuing from the saved state gives the same ledger as never stopping.
    for ledger in (session.ledger, restored):
        ledger.observe(10, "pytest", "Bash", GREEN, True, "call-10")
        ledger.observe(12, "npx tsc --noEmit", "Bash", TSC, False, "call-11")
    assert restored == session.ledger
    assert by_message(restored, "KeyError: 'exp'").resolved_turn == 10


def test_feeding_the_same_results_gives_the_same_ledger() -> None:
    def replay() -> str:
        session = Session()
        session.run("pytest 2>&1 | tail -40", PYTEST, ok=True)
        session.run("pytest 2>&1 | tail -40", ONLY_EXPIRED, ok=True)
        session.run("npx tsc --noEmit", TSC, ok=False)
        return session.ledger.model_dump_json()

    assert replay() == replay()


def test_signature_ignores_what_varies_between_runs() -> None:
    first = Diagnostic(
        message="FileNotFoundError: [Errno 2] No such file or directory: '/tmp/tmpa1b2c3/out.json'",
        kind="python-traceback",
        file="/home/dev/app/io.py",
        line=12,
    )
    again = first.model_copy(
        update={
            "message": first.message.replace("tmpa1b2c3", "tmpz9y8x7"),
            "line": 15,
            "file": "app/io.py",
        }
    )
    other = first.model_copy(
        update={"message": "PermissionError: [Errno 13] Permission denied: '/etc/x'"}
    )
    assert signature(first) == signature(again)
    assert signature(first) != signature(other)


def test_reading_a_log_is_not_failing() -> None:
    session = Session()
    session.run("cat build.log | grep -n error", TSC, ok=True)
    session.run("grep -rn 'Traceback' logs/ | head", TRACEBACK, ok=True)
    assert session.ledger.errors == []
    session.run("python scripts/check_tokens.py 2>&1 | tail -20", TRACEBACK, ok=True)
    assert [e.message for e in session.ledger.errors] == ["KeyError: 'exp'"]


COLLECTION_ERROR = """\
==================================== ERRORS ====================================
___________________ ERROR collecting tests/test_title_for.py ___________________
ImportError while importing test module 'tests/test_title_for.py'.
tests/test_title_for.py:3: in <module>
    import jeeves
jeeves.py:8: in <module>
    from jaraco.stream import buffer
E   ModuleNotFoundError: No module named 'jaraco.stream'
=========================== short test summary info ============================
ERROR tests/test_title_for.py
!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!
=============================== 1 error in 0.31s ===============================
"""


def test_a_run_that_leaves_the_failing_file_out_does_not_resolve_its_error() -> None:
    """`--ignore`/`--deselect` make a narrower run: passing, it says nothing of what it left out."""
    session = Session()
    session.run("python3 -m pytest tests/ -v 2>&1", COLLECTION_ERROR, ok=False)
    session.run("python3 -m pytest tests/ -v --ignore=tests/test_title_for.py 2>&1", GREEN, ok=True)
    session.run("pytest tests --deselect tests/test_title_for.py::test_title", GREEN, ok=True)
    [entry] = [e for e in session.ledger.errors if "jaraco" in e.message]
    assert not entry.resolved
    session.run("python3 -m pytest tests/ -q", GREEN, ok=True)  # the whole suite again
    assert session.ledger.errors[0].resolved


SINGLE_FILE_TSC = (
    "app/billing/page.tsx(9,24): error TS2307: Cannot find module '@/components/ui/button' or its"
    " corresponding type declarations.\n"
    "app/billing/page.tsx(72,5): error TS17004: Cannot use JSX unless the '--jsx' flag is provided.\n"
    "app/billing/page.tsx(80,7): error TS2322: Type 'string' is not assignable to type 'number'.\n"
)
NEXT_BUILD = "▲ Next.js 16.1.6\n  Creating an optimized production build ...\n✓ Compiled successfully in 2.6s\n"


def test_tscs_set_up_complaints_on_files_are_settled_by_the_projects_build() -> None:
    """tsc given files ignores tsconfig.json: its path aliases and JSX mode; the build reads them."""
    session = Session()
    session.run("npx tsc --noEmit app/billing/page.tsx 2>&1 | head -50", SINGLE_FILE_TSC, ok=True)
    session.run("pnpm build 2>&1 | tail -40", NEXT_BUILD, ok=True)
    alias = by_message(
        session.ledger,
        "Cannot find module '@/components/ui/button' or its corresponding type declarations.",
    )
    jsx = by_message(session.ledger, "Cannot use JSX unless the '--jsx' flag is provided.")
    for entry in (alias, jsx):
        assert (entry.resolved, entry.resolved_turn) == (True, 4)
        assert entry.resolution == (
            "the project's build passed; the tsc run on files that showed it ignores the "
            "project's tsconfig.json, which the build reads"
        )
    # A type error is the code's, not the set-up's: a build need not type-check.
    [still_open] = session.ledger.open_errors
    assert still_open.code == "TS2322"


def test_tscs_set_up_complaints_of_a_project_run_are_not_settled_by_a_build() -> None:
    session = Session()
    session.run("npx tsc --noEmit 2>&1 | head -50", SINGLE_FILE_TSC, ok=True)
    session.run("pnpm build 2>&1 | tail -40", NEXT_BUILD, ok=True)
    assert len(session.ledger.open_errors) == 3


def test_a_retry_that_only_passes_through_its_fallback_echo_does_not_fix_a_missing_program() -> (
    None
):
    # "… || echo 'not found'" always exits 0; its output still says the program is missing.
    session = Session()
    session.run("docker ps 2>&1", "(eval):1: command not found: docker\n", False)
    session.run(
        "which docker 2>/dev/null || ~/.docker/bin/docker ps 2>/dev/null || echo 'Docker not found on PATH'",
        "docker not found\nDocker not found on PATH\n",
        True,
    )
    [entry] = session.ledger.errors
    assert not entry.resolved
    # Once the program is really there, the same kind of retry settles it.
    session.run("which docker || echo 'Docker not found on PATH'", "/usr/local/bin/docker\n", True)
    session.run("docker ps 2>&1", "CONTAINER ID   IMAGE   COMMAND\n", True)
    assert session.ledger.errors[0].resolved


def test_the_session_went_on_only_with_a_command_that_did_its_job() -> None:
    # A wait loop exits 0 after its last "Waiting…"; curl exits 0 on a 503.
    session = Session()
    session.run("docker compose up -d", "(eval):1: command not found: docker\n", False)
    session.run(
        'for i in $(seq 1 3); do docker info >/dev/null 2>&1 && break; echo "Waiting..."; sleep 2; done',
        "Waiting...\nWaiting...\nWaiting...\n",
        True,
    )
    session.run(
        "curl -s -w '\\nHTTP:%{http_code}' http://localhost/health",
        "pool exhausted\nHTTP:503\n",
        True,
    )
    assert session.ledger.errors[0].went_on is None
    session.run("curl -s -w '\\nHTTP:%{http_code}' http://localhost/health", "ok\nHTTP:200\n", True)
    assert session.ledger.errors[0].went_on is not None


def test_a_mocha_run_is_followed_by_its_tests_not_by_its_hosts_log() -> None:
    from .diagnostics.test_diagnostics import MOCHA_IN_TEST_HOST

    session = Session()
    session.run("pnpm test", MOCHA_IN_TEST_HOST, ok=False)  # turn 2
    assert {entry.message for entry in session.ledger.open_errors} == {
        "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: false !== true",
        "Error: Timeout of 2000ms exceeded.",
    }
    # The rerun compiles the tests first (a "pretest" stage that passes), then one test still fails.
    session.run(
        "pnpm test",
        "> ext@0.0.1 pretest /work/ext\n> pnpm run compile-tests && pnpm run lint\n\n"
        "> ext@0.0.1 test /work/ext\n> vscode-test\n\n"
        "  Transcript Parsing\n    ✔ keeps malformed lines as fallback rows\n"
        "  Checkpoint Module\n    1) builds session cards\n"
        "  1 passing (6s)\n  1 failing\n"
        "  1) Checkpoint Module\n       builds session cards:\n     Error: Timeout of 2000ms exceeded.\n\n"
        "ERROR: Failed parsing extensions\n1 test failed.\n",
        ok=False,
    )  # turn 4
    assertion = session.ledger.errors[0]
    assert (assertion.resolved_turn, assertion.resolution) == (
        4,
        "gone from a rerun of the same check",
    )
    assert [entry.message for entry in session.ledger.open_errors] == [
        "Error: Timeout of 2000ms exceeded."
    ]
    passing = "  Checkpoint Module\n    ✔ builds session cards\n  2 passing (5s)\nERROR: Failed parsing extensions\n"
    session.run("pnpm test", passing, ok=True)
    assert not session.ledger.open_errors


def test_a_build_that_finished_its_type_check_resolves_the_type_errors() -> None:
    next_build = "> next build\n  Running TypeScript ...\n  Finished TypeScript in 1969ms ...\n"
    session = Session()
    session.run("npx tsc --noEmit 2>&1 | head -30", TSC, ok=True)  # turn 2: tsc's errors
    [entry] = session.ledger.open_errors
    session.run("npm run build 2>&1 | tail -3", "  Collecting page data ...\n", ok=True)
    assert not by_message(session.ledger, entry.message).resolved  # its type check is not seen
    session.run("npm run build 2>&1 | tail -35", next_build, ok=True)  # turn 6
    resolved = by_message(session.ledger, entry.message)
    assert (resolved.resolved_turn, resolved.resolution) == (
        6,
        "a whole-project run of the same checker passed (`next build`, which it ran)",
    )


def test_a_command_started_in_the_background_neither_succeeded_nor_resolved_anything() -> None:
    session = Session()
    session.run("docker compose up -d", "(eval):1: command not found: docker\n", ok=False)
    session.run("pnpm --filter api dev", "starting\n", ok=False)  # the same command, failing
    started = (
        "Command running in background with ID: b463a86. Output is being written to: /tmp/b.output"
    )
    session.run("pnpm --filter api dev", started, ok=True)
    docker, dev = session.ledger.errors
    assert (docker.went_on, dev.resolved) == (None, False)
    session.run("pnpm --filter api build", "done\n", ok=True)
    assert session.ledger.errors[0].went_on == "pnpm --filter api build"


def test_a_retry_whose_status_a_filter_hid_and_whose_output_reads_as_a_failure_resolves_nothing() -> (
    None
):
    session = Session()
    expired = '{"level":"fatal","msg":"rpc error: code = Unauthenticated desc = invalid session: Token is expired"}'
    session.run("argocd app sync proxy --force 2>&1", expired, ok=False)
    session.run(
        "argocd login --core 2>&1 || true && argocd app get proxy --core -o json 2>&1 | head -5",
        'Context \'kubernetes\' updated\n{"level":"fatal","msg":"configmap \\"argocd-cm\\" not found"}',
        ok=True,
    )
    [entry] = session.ledger.errors
    assert not entry.resolved
    # The same retry printing what it was asked for is a success, even through the filter.
    session.run(
        "argocd login --core 2>&1 || true && argocd app get proxy --core -o json 2>&1 | head -5",
        '{"metadata": {"name": "proxy"}}',
        ok=True,
    )
    assert session.ledger.errors[0].resolved


def test_a_line_the_passing_runs_print_too_is_not_the_failure() -> None:
    host_log = "Loading extension host\nERROR: Failed parsing extensions\n"
    session = Session()
    session.run("pnpm test", host_log + "all good\n", ok=True)
    session.run(
        "pnpm test", host_log + "Error: extension host crashed loading src/a.ts\n", ok=False
    )
    [entry] = session.ledger.errors
    assert entry.message == "Error: extension host crashed loading src/a.ts"
    session.run("pnpm test", host_log, ok=False)  # nothing else it printed reads as an error
    assert session.ledger.errors[-1].message == (
        "no line of its output reads as an error; it ended: Loading extension host"
    )


def test_a_glob_the_shell_refused_is_resolved_by_the_same_check_with_the_path_quoted() -> None:
    """zsh kept the backslashes and found no match: biome never ran, and the quoted retry is it."""
    session = Session()
    session.run(
        r"pnpm biome check --write src/pages/\\[id\\]/page.tsx 2>&1",
        "Exit code 1\n(eval):1: no matches found: src/pages/\\[id\\]/page.tsx",
        ok=False,
    )
    session.run('pnpm biome check --write "src/pages/[id]/page.tsx" 2>&1', "Fixed 1 file.", ok=True)
    (entry,) = session.ledger.errors
    assert entry.resolved and entry.resolved_turn == 4
    # Another file checked is no retry of the refused one.
    other = Session()
    other.run(
        r"pnpm biome check --write src/pages/\\[id\\]/page.tsx 2>&1",
        "Exit code 1\n(eval):1: no matches found: src/pages/\\[id\\]/page.tsx",
        ok=False,
    )
    other.run('pnpm biome check --write "src/app.tsx" 2>&1', "Fixed 1 file.", ok=True)
    assert not other.ledger.errors[0].resolved


def test_a_test_failure_of_a_chain_is_resolved_by_a_later_run_of_its_package() -> None:
    session = Session()
    chain = "go build ./... 2>&1 | head -20 && echo BUILD OK && go test ./internal/sem -run '^TestMasks'"
    failed = (
        "BUILD OK\n--- FAIL: TestMasks (0.00s)\n    masks_test.go:12: expected 3, got 4\nFAIL\n"
        "FAIL\texample.com/shop/internal/sem\t0.2s\nFAIL\n"
    )
    session.run(chain, failed, ok=False)
    session.run(
        "go test ./internal/sem/ 2>&1 | tail -20",
        "ok  \texample.com/shop/internal/sem\t1.4s\n",
        ok=True,
    )
    failures = [e for e in session.ledger.errors if e.kind == "test-runner"]
    assert failures and all(e.resolved for e in failures), session.ledger.errors


def test_an_error_gone_from_the_projects_lint_task_that_failed_on_others_is_resolved() -> None:
    # `npx eslint .` showed two errors; the project's lint task, eslint over the same project,
    # later failed on one of them only: the other is gone, though the command is another.
    def stylish(*rows: str) -> str:
        return "/repo/src/app.tsx\n" + "".join(rows) + "\n✖ problems\n"

    declared = "  159:29  error  Error: Cannot access variable before it is declared  react/x\n"
    any_type = "  18:7  error  Unexpected any. Specify a different type  ts/no-explicit-any\n"
    session = Session()
    session.run("cd client ; npx eslint .", stylish(declared, any_type), ok=False)
    session.run("cd client ; npm run lint", "> eslint\n\n" + stylish(any_type), ok=False)
    gone = by_message(session.ledger, "Error: Cannot access variable before it is declared")
    still = by_message(session.ledger, "Unexpected any. Specify a different type")
    assert (gone.resolved, gone.resolved_by) == (True, "cd client ; npm run lint")
    assert not still.resolved
    # A run on some files only says nothing of the others.
    narrow = Session()
    narrow.run("npx eslint .", stylish(declared, any_type), ok=False)
    narrow.run("npx eslint src/other.tsx", stylish(any_type), ok=False)
    assert not by_message(
        narrow.ledger, "Error: Cannot access variable before it is declared"
    ).resolved


def test_a_file_named_error_in_a_failed_commands_output_is_not_its_error() -> None:
    # git filter-branch lists the files it removes, one `rm 'path'` a line; the failure is at the end.
    output = (
        "Exit code 1\nRewrite ef5322e (1/9)\nrm '.claude/worktrees/w/src/error.rs'\n"
        "rm '.claude/worktrees/w/tests/missing_test.rs'\n"
        "error: invalid path '.git/hooks/pre-commit'\nCould not initialize the index\n"
    )
    found = unexplained_failure(
        "git filter-branch --force --index-filter 'git rm' HEAD~9..HEAD", output, 1
    )
    assert found.message.startswith("error: invalid path '.git/hooks/pre-commit'")


def test_an_error_a_task_runner_prefixed_is_the_same_error_printed_bare() -> None:
    # `mise run ci` shows the broken venv behind its task's name, the session's own probe shows it
    # bare; the task passing later settles both.
    broken = (
        'mise ERROR "/repo/.venv/bin/pytest" couldn\'t exec process: No such file or directory\n'
    )
    session = Session()
    session.run("mise run ci 2>&1", "[ci-test] " + broken, ok=False)
    session.run("which pytest 2>&1 && uv run pytest --version 2>&1", broken, ok=False)
    session.run("mise run ci 2>&1", "[ci-test] " + GREEN, ok=True)

    assert len(session.ledger.errors) == 1
    [entry] = session.ledger.errors
    assert entry.resolved and entry.resolved_turn == 6


def test_a_level_word_in_brackets_stays_part_of_the_error() -> None:
    session = Session()
    session.run("./deploy.sh", "[error] disk full\n", ok=False)
    session.run("./deploy.sh", "disk full\n", ok=False)

    assert len(session.ledger.errors) == 2


def test_a_monorepo_task_of_the_same_kind_settles_the_checkers_errors() -> None:
    # mypy's errors, then the project's own type-check task through nx passing.
    session = Session()
    session.run(
        "uv run mypy app 2>&1 | head -20",
        'app/sandbox.py:245:12: error: Name "io" is not defined  [name-defined]\n'
        "Found 1 error in 1 file (checked 696 source files)\n",
        ok=True,
    )
    session.run(
        "npx nx type-check api 2>&1 | head",
        "Success: no issues found in 696 source files\n NX   Successfully ran target type-check\n",
        ok=True,
    )
    assert [entry.resolved for entry in session.ledger.errors] == [True]


def test_a_run_asked_for_part_of_the_failed_selection_settles_its_failure() -> None:
    # `--lib` named no target; `--bin` over the test's module ran it among others and passed.
    session = Session()
    session.run(
        "cargo test -q --package mise --lib cli::upgrade::tests::test_age -- --exact",
        "error: no library targets found in package `mise`\n",
        ok=False,
    )
    session.run(
        "cargo test --package mise cli::upgrade::tests::test_age_other -- --exact",
        "test result: ok. 1 passed; 0 failed; 0 ignored\n",
        ok=True,
    )
    assert not session.ledger.errors[0].resolved  # another test by its exact name
    session.run(
        "cargo test --package mise --bin mise cli::upgrade::tests -- --nocapture",
        "test result: ok. 7 passed; 0 failed; 0 ignored\n",
        ok=True,
    )
    assert session.ledger.errors[0].resolved


def test_a_whole_project_vet_that_compiles_every_package_settles_a_build_error() -> None:
    missing = (
        "../go/pkg/mod/github.com/stretchr/testify@v1.11.1/assert/assertions.go:20:2: missing "
        "go.sum entry for module providing package github.com/davecgh/go-spew/spew\n"
    )
    session = Session()
    session.run("cd /repo/e2e && go build ./agents/ ./bootstrap/ 2>&1", missing, ok=False)
    session.run("cd /repo/other && go vet ./... 2>&1", "", ok=True)  # another module
    assert not session.ledger.errors[0].resolved
    session.run("cd /repo/e2e && go vet -tags=e2e ./... 2>&1", "", ok=True)
    [entry] = session.ledger.errors
    assert entry.kind == "compiler" and entry.resolved
    assert entry.resolution == "a whole-project `go vet`, which compiles every package, passed"


SETUP_FAILED = (
    "# ./e2e/...\npattern ./e2e/...: directory prefix e2e does not contain main module\n"
    "FAIL\t./e2e/... [setup failed]\nFAIL\n"
)
RAN_AND_FAILED = (
    "=== RUN   TestLifecycle_X\n    x_test.go:16: entire binary not available\n"
    "--- FAIL: TestLifecycle_X (0.00s)\nFAIL\nFAIL\tgithub.com/e/x/e2e\t0.557s\nFAIL\n"
)


def test_a_run_that_got_as_far_as_its_tests_is_past_the_setup_that_stopped_the_last_one() -> None:
    session = Session()
    session.run("cd /repo && go test -run TestLifecycle ./e2e/... 2>&1", SETUP_FAILED, ok=False)
    session.run("go test -run TestLifecycle ./other/... 2>&1", RAN_AND_FAILED, ok=False)
    assert not session.ledger.errors[0].resolved  # other packages' tests
    session.run("go test -run TestLifecycle ./... 2>&1", RAN_AND_FAILED, ok=False)
    setup = session.ledger.errors[0]
    assert setup.resolution == "a run covering the same tests got as far as running them"
    assert not next(e for e in session.ledger.errors if "binary" in e.message).resolved
