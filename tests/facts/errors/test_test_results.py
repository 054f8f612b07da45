"""Test commands and the counts and failing ids their output reports."""

from __future__ import annotations

import pytest

from artifact_index.facts.errors.test_results import TestRun, is_test_command, parse_test_run

from .diagnostics.test_diagnostics import PYTEST


@pytest.mark.parametrize(
    "command",
    [
        "pytest",
        "pytest -x tests/test_auth.py::test_login",
        "cd /testbed && python -m pytest tests/queries -q 2>&1 | tail -30",
        "uv run pytest -k token",
        "PYTHONPATH=src timeout 300 python3 -m pytest",
        "tox -e py312",
        "npm test",
        "npm run test:unit -- --watch=false",
        "yarn test",
        "pnpm --filter web test",
        "npx jest src/auth",
        "npx vitest run",
        "go test ./...",
        "go test -run TestReset -v ./cmd/entire/cli/...",
        "cargo test claims",
        "cargo nextest run",
        "mix test test/spotter_web/live/session_live_test.exs:109",
        "bundle exec rspec spec/models",
        "vendor/bin/phpunit --filter testLogin",
        "mvn -q test",
        "./gradlew test",
        "ctest --output-on-failure",
        "make test",
        "python -m unittest discover -s tests",
        "python manage.py test reports",
        "python tests/runtests.py queries.test_bulk_update --verbosity 2",
        "mise run test",
        "mise run ci",
        "make ci",
        "npx nx affected -t test",
        "nx run api:test",
        "turbo run test --filter=web",
    ],
)
def test_test_commands(command: str) -> None:
    assert is_test_command(command)


@pytest.mark.parametrize(
    "command",
    [
        None,
        "",
        "ls -la",
        "git status",
        "cat tests/test_auth.py",
        "grep -rn pytest .",
        "python reproduce.py",
        "npm install",
        "npm run build",
        "tsc --noEmit",
        "ruff check .",
        "go build ./...",
        "cargo build --release",
        "mkdir -p tests && touch tests/__init__.py",
        "cat > test_wrap.py <<'EOF'\npytest.main()\nEOF",
        # The runner says something about itself and runs nothing.
        "uv sync --group dev && uv run pytest --version",
        "python -m pytest --collect-only -q",
        "npx jest --help",
        "npm ci",
        "cargo test --test github_integration --no-run",
    ],
)
def test_other_commands(command: str | None) -> None:
    assert not is_test_command(command)


def test_pytest_summary_and_failing_ids() -> None:
    run = parse_test_run(PYTEST, "pytest")
    assert run == TestRun(
        runner="pytest",
        command="pytest",
        passed=14,
        failed=2,
        failing=(
            "tests/test_auth.py::test_login",
            "tests/test_tokens.py::TestRefresh::test_expired",
        ),
        outcome="failed",
    )


def test_pytest_quiet_and_mixed_summaries() -> None:
    quiet = "..s.x\n4 passed, 1 skipped, 1 xfailed in 0.31s\n"
    run = parse_test_run(quiet, "pytest -q")
    assert run is not None
    assert (run.passed, run.failed, run.skipped, run.outcome) == (4, 0, 1, "passed")
    assert run.other == (("xfailed", 1),)

    errors = "ERROR tests/test_db.py::test_query - sqlite3.OperationalError: no such table\n= 1 failed, 9 passed, 1 error in 2.01s =\n"
    run = parse_test_run(errors, "pytest")
    assert run is not None
    assert (run.passed, run.failed, run.errors, run.failing) == (
        9,
        1,
        1,
        ("tests/test_db.py::test_query",),
    )

    nothing = "collected 0 items\n\n============================ no tests ran in 0.01s =============================\n"
    run = parse_test_run(nothing, "pytest -k nothing")
    assert run is not None and (run.passed, run.failed, run.outcome) == (0, 0, "passed")


def test_unittest_and_django() -> None:
    failed = """\
======================================================================
FAIL: test_plain_f_expression (queries.test_bulk_update.BulkUpdateTests)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/testbed/tests/queries/test_bulk_update.py", line 12, in test_plain_f_expression
AssertionError: 'F(misc)' != 'target'

======================================================================
ERROR: test_export (reports.tests.ExportTests.test_export)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/app/reports/export.py", line 12, in export
AttributeError: 'Report' object has no attribute 'rows'

----------------------------------------------------------------------
Ran 12 tests in 0.031s

FAILED (failures=1, errors=1, skipped=2)
Destroying test database for alias 'default'...
"""
    run = parse_test_run(failed, "python manage.py test")
    assert run is not None
    assert (run.runner, run.passed, run.failed, run.errors, run.skipped) == ("unittest", 8, 1, 1, 2)
    assert run.failing == (
        "queries.test_bulk_update.BulkUpdateTests.test_plain_f_expression",
        "reports.tests.ExportTests.test_export",
    )
    ok = "..........\n----------------------------------------------------------------------\nRan 10 tests in 0.004s\n\nOK\n"
    run = parse_test_run(ok, "python -m unittest")
    assert run is not None and (run.passed, run.outcome) == (10, "passed")


def test_go_test_verbose_and_quiet() -> None:
    verbose = """\
=== RUN   TestA
--- PASS: TestA (0.00s)
=== RUN   TestB
=== RUN   TestB/sub_one
    b_test.go:12: want 1, got 2
--- FAIL: TestB (0.00s)
    --- FAIL: TestB/sub_one (0.00s)
=== RUN   TestC
--- SKIP: TestC (0.00s)
FAIL
FAIL	example.com/calc	0.012s
ok  	example.com/calc/lexer	(cached)
"""
    run = parse_test_run(verbose, "go test -v ./...")
    assert run is not None
    assert (run.passed, run.failed, run.skipped, run.failing) == (1, 1, 1, ("TestB/sub_one",))

    build_failed = "# example.com/calc\ncalc.go:3:2: undefined: x\nFAIL\texample.com/calc [build failed]\nok  \texample.com/util\t0.2s\n"
    run = parse_test_run(build_failed, "go test ./...")
    assert run is not None and (run.errors, run.outcome) == (1, "failed")

    green = (
        "ok  \tgithub.com/entireio/cli/cmd/entire/cli\t2.615s\n"
        "ok  \tgithub.com/entireio/cli/cmd/entire/cli/agent\t(cached)\n"
        "?   \tgithub.com/entireio/cli/cmd/entire\t[no test files]\n"
    )
    run = parse_test_run(green, "go test ./...")
    assert run is not None
    assert (run.outcome, run.unit, run.passed) == ("passed", "packages", 2)  # no -v: packages only


def test_go_test_verbose_output_cut_by_tail_counts_its_packages() -> None:
    """`go test -v … | tail -40` shows the last tests only: the package lines are what can be counted."""
    tail = "--- PASS: TestY (0.00s)\n=== RUN   TestZ\n--- PASS: TestZ (0.00s)\nPASS\nok  \texample.com/calc\t0.1s\n"
    run = parse_test_run(tail, "go test -v ./calc/ 2>&1 | tail -5")
    assert run is not None
    assert (run.outcome, run.unit, run.passed, run.failed) == ("passed", "packages", 1, 0)
    whole = parse_test_run(tail, "go test -v ./calc/")
    assert whole is not None and (whole.unit, whole.passed) == ("tests", 2)


def test_cargo_sums_every_test_binary() -> None:
    output = """\
     Running unittests src/lib.rs (target/debug/deps/tokens-1a2b3c)
running 3 tests
test claims::tests::parses_exp ... ok
test claims::tests::rejects_missing_exp ... FAILED
test tokens::tests::roundtrip ... ignored

test result: FAILED. 1 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s

   Doc-tests tokens
running 2 tests
test src/lib.rs - parse (line 10) ... ok
test src/lib.rs - render (line 20) ... ok

test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.20s
"""
    run = parse_test_run(output, "cargo test")
    assert run is not None
    assert (run.passed, run.failed, run.skipped) == (3, 1, 1)
    assert run.failing == ("claims::tests::rejects_missing_exp",)


def test_jest_ids_from_bullets_or_crosses() -> None:
    output = """\
FAIL src/auth/token.test.ts
  AuthService
    createToken
      ✓ signs the payload (3 ms)
      ✕ sets an expiry (4 ms)

  ● AuthService › createToken › sets an expiry

    expect(received).toBeDefined()

Test Suites: 1 failed, 2 passed, 3 total
Tests:       1 failed, 1 skipped, 9 passed, 11 total
"""
    run = parse_test_run(output, "npm test")
    assert run is not None
    assert (run.runner, run.passed, run.failed, run.skipped) == ("jest", 9, 1, 1)
    assert run.failing == ("AuthService › createToken › sets an expiry",)
    crosses_only = output.replace("  ● AuthService › createToken › sets an expiry\n", "")
    run = parse_test_run(crosses_only, "npm test")
    assert run is not None and run.failing == ("sets an expiry",)


def test_vitest() -> None:
    output = """\
 ❯ src/auth/token.test.ts (3 tests | 1 failed) 12ms
   × AuthService > sets an expiry 5ms

 FAIL  src/auth/token.test.ts > AuthService > sets an expiry
AssertionError: expected undefined to be defined

 Test Files  1 failed | 3 passed (4)
      Tests  1 failed | 11 passed | 2 skipped (14)
"""
    run = parse_test_run(output, "pnpm test")
    assert run is not None
    assert (run.runner, run.passed, run.failed, run.skipped) == ("vitest", 11, 1, 2)
    assert run.failing == ("src/auth/token.test.ts > AuthService > sets an expiry",)


def test_vitest_file_that_failed_to_load_fails_the_run_though_every_test_passed() -> None:
    output = """\
 FAIL  tests/links.spec.ts [ tests/links.spec.ts ]
Error: Playwright Test did not expect test.describe() to be called here.

 Test Files  1 failed | 6 passed (7)
      Tests  36 passed (36)
"""
    run = parse_test_run(output, "pnpm test --run")
    assert run is not None
    assert (run.passed, run.failed, run.errors, run.outcome) == (36, 0, 1, "failed")
    assert run.failing == ("tests/links.spec.ts",)


def test_vitest_errors_outside_the_tests_fail_the_run() -> None:
    output = """\
⎯⎯⎯⎯ Unhandled Errors ⎯⎯⎯⎯
Error: connect ECONNREFUSED ::1:3000

 Test Files  7 passed (7)
      Tests  36 passed (36)
     Errors  1 error
"""
    run = parse_test_run(output, "pnpm test --run")
    assert run is not None
    assert (run.passed, run.failed, run.errors, run.outcome) == (36, 0, 1, "failed")


def test_cargo_output_cut_by_tail_counts_only_the_binaries_shown() -> None:
    output = """\
test test_unsubscribe_request_serializes ... ok

test result: ok. 35 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

   Doc-tests leeson

running 1 test
test src/models/cancel_after.rs - models::cancel_after (line 16) ... ignored

test result: ok. 0 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s
"""
    cut = parse_test_run(output, "cargo test 2>&1 | tail -10")
    assert cut is not None and (cut.passed, cut.passed_shown) == (35, False)
    # The whole output, or a tail that kept the first binary's header: every result is there.
    whole = parse_test_run(
        "     Running unittests src/lib.rs (target/x)\n" + output, "cargo test | tail -40"
    )
    assert whole is not None and whole.passed_shown
    assert parse_test_run(output, "cargo test").passed_shown  # type: ignore[union-attr]


def test_go_packages_counted_in_output_a_tail_cut_are_a_floor() -> None:
    output = "ok  \tgithub.com/o/r/internal/a\t0.1s\nok  \tgithub.com/o/r/internal/b\t0.2s\n"
    cut = parse_test_run(output, "go test ./... 2>&1 | tail -2")
    assert cut is not None and (cut.passed, cut.unit, cut.passed_shown) == (2, "packages", False)
    # Fewer lines than the tail keeps: nothing was cut.
    whole = parse_test_run(output, "go test ./... 2>&1 | tail -8")
    assert whole is not None and whole.passed_shown


def test_exunit() -> None:
    output = """\
  1) test transcript rows render as code (SpotterWeb.SessionLiveTest)
     test/spotter_web/live/session_live_test.exs:109
     ** (RuntimeError) no :secret_key_base configuration found

Finished in 1.8 seconds (1.2s async, 0.6s sync)
14 doctests, 68 tests, 1 failure, 2 skipped
"""
    run = parse_test_run(output, "mix test")
    assert run is not None
    assert (run.runner, run.passed, run.failed, run.skipped) == ("mix test", 79, 1, 2)
    assert run.failing == ("test transcript rows render as code (SpotterWeb.SessionLiveTest)",)
    green = parse_test_run(
        "....\nFinished in 0.3 seconds\n14 doctests, 65 tests, 0 failures\n", "mix test"
    )
    assert green is not None and (green.passed, green.outcome) == (79, "passed")


def test_rspec_phpunit_maven_gradle_ctest() -> None:
    rspec = parse_test_run(
        "Failures:\n\n1) User validates email\n\n12 examples, 1 failure, 2 pending\n\nFailed examples:\n\n"
        "rspec ./spec/models/user_spec.rb:14 # User validates email\n",
        "bundle exec rspec",
    )
    assert rspec is not None
    assert (rspec.passed, rspec.failed, rspec.skipped, rspec.failing) == (
        9,
        1,
        2,
        ("./spec/models/user_spec.rb:14",),
    )

    phpunit = parse_test_run(
        "There was 1 failure:\n\n1) Tests\\Unit\\LoginTest::testRejectsBadPassword\nFailed asserting that false is true.\n\n"
        "FAILURES!\nTests: 25, Assertions: 61, Failures: 1, Skipped: 1.\n",
        "vendor/bin/phpunit",
    )
    assert phpunit is not None
    assert (phpunit.passed, phpunit.failed, phpunit.failing) == (
        23,
        1,
        ("Tests\\Unit\\LoginTest::testRejectsBadPassword",),
    )

    maven = parse_test_run(
        "[ERROR] Tests run: 4, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.05 s <<< FAILURE! - in com.acme.BillingTest\n"
        "[ERROR] testTotal(com.acme.BillingTest)  Time elapsed: 0.01 s  <<< FAILURE!\n"
        "[INFO] Results:\n[ERROR] Tests run: 10, Failures: 1, Errors: 1, Skipped: 2\n",
        "mvn test",
    )
    assert maven is not None
    assert (maven.passed, maven.failed, maven.errors, maven.skipped) == (6, 1, 1, 2)
    assert maven.failing == ("com.acme.BillingTest.testTotal",)

    gradle = parse_test_run(
        "BillingTest > testTotal FAILED\n    org.opentest4j.AssertionFailedError at BillingTest.java:27\n\n"
        "12 tests completed, 1 failed, 1 skipped\n",
        "./gradlew test",
    )
    assert gradle is not None
    assert (gradle.passed, gradle.failed, gradle.failing) == (10, 1, ("BillingTest.testTotal",))

    ctest = parse_test_run(
        "80% tests passed, 1 tests failed out of 5\n\nThe following tests FAILED:\n\t  3 - parser_test (Failed)\n",
        "ctest",
    )
    assert ctest is not None and (ctest.passed, ctest.failed, ctest.failing) == (
        4,
        1,
        ("parser_test",),
    )


def test_no_test_summary_means_no_run() -> None:
    assert parse_test_run("", "pytest") is None
    assert parse_test_run("bash: pytest: command not found\n", "pytest") is None
    assert parse_test_run("Compiling...\nDone.\n", "npm test") is None


def test_test_run_is_not_collected_by_pytest() -> None:
    assert TestRun.__test__ is False


def test_mocha_counts_and_prose_that_only_looks_like_them() -> None:
    run = parse_test_run("  12 passing (340ms)\n  2 pending\n  1 failing\n", "npx mocha")
    assert run is not None
    assert (run.passed, run.failed, run.skipped) == (12, 1, 2)
    # A test harness's own report: its counts are not mocha's "0 passing, 981 failing".
    prose = "TOTAL   pass 385  skip 67   fail 981  / 1433\n\n981 failing tests are bugs in implemented commands.\n"
    run = parse_test_run(prose, "make test-cli")
    assert run is None or run.passed != 0


def test_bun_summary_with_errors_outside_the_tests_is_bun_s_not_pytest_s() -> None:
    # Bun's bare "3 errors" line (files that did not load) once read as pytest's totals: "failed before any test ran".
    output = (
        " 159 pass\n 0 fail\n 3 errors\n 649 expect() calls\nRan 159 tests across 24 files. [9.46s]"
    )
    run = parse_test_run(output, "bun test 2>&1 | tail -5")
    assert run is not None
    assert (run.runner, run.passed, run.failed, run.errors, run.outcome) == (
        "bun test",
        159,
        0,
        3,
        "failed",
    )


XCODEBUILD_TWO_BUNDLES = """Test Suite 'All tests' started at 2026-02-18 01:10:00.000.
Test Suite 'VaultTests.xctest' started at 2026-02-18 01:10:00.001.
Test Suite 'CartTests' passed at 2026-02-18 01:10:00.300.
\t Executed 3 tests, with 0 failures (0 unexpected) in 0.250 (0.251) seconds
Test Suite 'TaxTests' passed at 2026-02-18 01:10:00.500.
\t Executed 3 tests, with 0 failures (0 unexpected) in 0.180 (0.181) seconds
Test Suite 'VaultTests.xctest' passed at 2026-02-18 01:10:00.501.
\t Executed 6 tests, with 0 failures (0 unexpected) in 0.430 (0.433) seconds
Test Suite 'All tests' passed at 2026-02-18 01:10:00.502.
\t Executed 6 tests, with 0 failures (0 unexpected) in 0.430 (0.434) seconds
Test Suite 'All tests' started at 2026-02-18 01:10:05.000.
Test Suite 'VaultUITests.xctest' started at 2026-02-18 01:10:05.001.
Test Suite 'LoginUITests' passed at 2026-02-18 01:10:20.000.
\t Executed 2 tests, with 1 test skipped and 0 failures (0 unexpected) in 14.111 (14.113) seconds
Test Suite 'UnlockUITests' passed at 2026-02-18 01:10:36.000.
\t Executed 1 test, with 0 failures (0 unexpected) in 15.928 (15.928) seconds
Test Suite 'VaultUITests.xctest' passed at 2026-02-18 01:10:36.001.
\t Executed 3 tests, with 1 test skipped and 0 failures (0 unexpected) in 30.039 (30.041) seconds
Test Suite 'All tests' passed at 2026-02-18 01:10:36.002.
\t Executed 3 tests, with 1 test skipped and 0 failures (0 unexpected) in 30.039 (30.042) seconds
** TEST SUCCEEDED **
"""


def test_xcodebuild_counts_every_bundle_from_its_total_not_the_last_suite_line() -> None:
    # The last line closes the UI bundle (3 tests); the unit bundle's 6 ran before it, and a
    # class of 3 beside another of 3 is a sibling, not its parent.
    command = "xcodebuild -project Vault.xcodeproj -scheme Vault test 2>&1"
    run = parse_test_run(XCODEBUILD_TWO_BUNDLES, command)
    assert run is not None
    assert (run.passed, run.failed, run.skipped) == (8, 0, 1)
    # The same lines kept by `| grep Executed` (the suites' names gone) count the same.
    executed = "".join(
        line + "\n" for line in XCODEBUILD_TWO_BUNDLES.splitlines() if "Executed" in line
    )
    run = parse_test_run(executed, command + " | grep Executed")
    assert run is not None
    assert (run.passed, run.failed, run.skipped) == (8, 0, 1)


def test_a_mocha_hosts_closing_count_is_the_same_run() -> None:
    output = "  3 passing (2s)\n  2 failing\n\n  1) a:\n     Error: x\n\n2 tests failed.\n"
    run = parse_test_run(output, "pnpm test")
    assert run is not None
    assert (run.runner, run.passed, run.failed) == ("mocha", 3, 2)


PLAYWRIGHT_SUMMARY = """\
  1) [chromium] › tests/share.spec.ts:338:3 › Sharing › 6.1 Alice revokes access

    Error: expect(received).toBe(expected)

  1 failed
    [chromium] › tests/share.spec.ts:338:3 › Sharing › 6.1 Alice revokes access
  10 did not run
  9 passed (10.1s)
"""


def test_playwright_counts_are_read_from_its_whole_summary() -> None:
    run = parse_test_run(PLAYWRIGHT_SUMMARY, "pnpm --filter e2e test 2>&1 | tail -100")
    assert run is not None
    assert (run.runner, run.passed, run.failed, run.passed_shown) == ("playwright", 9, 1, True)
    assert run.failing == ("tests/share.spec.ts:338:3 › Sharing › 6.1 Alice revokes access",)


def test_a_filtered_playwright_summary_does_not_say_none_passed() -> None:
    # grep let the failure through and not the "9 passed" line: how many passed is not known.
    shown = PLAYWRIGHT_SUMMARY.split("  10 did not run")[0]
    run = parse_test_run(shown, 'npx playwright test --reporter=line 2>&1 | grep -E "failed|›"')
    assert run is not None
    assert (run.failed, run.passed_shown) == (1, False)
    # Unfiltered, a summary without a passed line means none passed.
    run = parse_test_run(shown, "npx playwright test --reporter=line")
    assert run is not None
    assert (run.passed, run.passed_shown) == (0, True)


def test_a_playwright_summary_through_tail_is_whole() -> None:
    # `tail` keeps the end, where "N passed" would follow "1 failed": none passed.
    shown = PLAYWRIGHT_SUMMARY.split("  10 did not run")[0]
    run = parse_test_run(shown, 'npx playwright test --grep "6.1" 2>&1 | tail -30')
    assert run is not None
    assert (run.passed, run.failed, run.passed_shown) == (0, 1, True)


def test_expected_failures_and_unexpected_passes_keep_the_runners_names() -> None:
    # Folded into skipped and passed, "392 passed, 12 xfailed, 2 xpassed" read as "394 passed,
    # 12 skipped": nothing was skipped, and two of the 394 were tests expected to fail.
    run = parse_test_run(
        "....x.X\n392 passed, 12 xfailed, 2 xpassed in 41.20s\n", "uv run pytest -q"
    )
    assert run is not None
    assert (run.passed, run.failed, run.skipped, run.outcome) == (392, 0, 0, "passed")
    assert run.other == (("xfailed", 12), ("xpassed", 2))

    unittest = (
        "Ran 10 tests in 0.010s\n\nOK (skipped=1, expected failures=2, unexpected successes=1)\n"
    )
    run = parse_test_run(unittest, "python -m unittest")
    assert run is not None
    assert (run.passed, run.skipped) == (6, 1)
    assert run.other == (("expected failures", 2), ("unexpected successes", 1))


def test_a_summary_behind_a_task_runners_prefix_is_read() -> None:
    # `mise run ci` prefixes each line of a task's output with the task's name.
    output = (
        "[ci-lint] All checks passed!\n"
        "[ci-test] tests/test_a.py::test_x PASSED [100%]\n"
        "[ci-test] ============================== 16 passed in 4.03s ===============\n"
        "[ci-test] Finished in 4.98s\n"
    )
    run = parse_test_run(output, "mise run ci 2>&1")

    assert run is not None and (run.runner, run.passed, run.failed) == ("pytest", 16, 0)
