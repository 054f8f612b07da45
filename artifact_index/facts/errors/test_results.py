"""Test runs: which commands run tests, and what their output says about them.

:func:`parse_test_run` reads the summary a test runner prints (pytest's
``= 2 failed, 14 passed in 3.1s =``, Go's ``--- FAIL:`` lines, cargo's
``test result:``, Jest's ``Tests:``, ExUnit's ``N tests, M failures``...) and
the ids of the failing tests, so the index can say "14 pass, 2 fail:
tests/test_auth.py::test_login, ..." for the last run of each test command.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict

from artifact_index.facts.errors.checks import checks_in, segments
from artifact_index.facts.errors.checks.command_line import executable, unwrap
from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["MAX_FAILING", "TestRun", "is_test_command", "may_run_tests", "parse_test_run"]

MAX_FAILING = 200  # failing ids kept per run; a run failing more is broken as a whole


class TestRun(BaseModel):
    """The outcome of one test command."""

    __test__: ClassVar[bool] = False  # not a pytest test class, despite the name

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    runner: str  # "pytest", "unittest", "go test", "cargo test", "jest", "vitest", "mix test"...
    command: str | None = None
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    errors: int = 0  # errors outside assertions: collection errors, build failures
    failing: tuple[str, ...] = ()  # ids of failing (or erroring) tests, in output order
    outcome: Literal["passed", "failed"] = "passed"
    # What the counts count: "go test" without -v names only packages.
    unit: Literal["tests", "packages"] = "tests"
    # False when the runner prints its counts one per line and a filter (`| grep`, `| tail`) may have
    # left the passed count out: ``passed`` is then what was seen, not what ran.
    passed_shown: bool = True
    # Counts the runner names that are none of the above, by its own names: pytest's "xfailed" and
    # "xpassed", unittest's "expected failures". Folded into skipped or passed they would misquote
    # the run ("12 skipped" where nothing was skipped).
    other: tuple[tuple[str, int], ...] = ()


def is_test_command(command: str | None) -> bool:
    """True when ``command`` runs a test suite (``pytest``, ``npm test``, ``go test ./...``...)."""
    return any(check.category == "test" for check in checks_in(command))


# Programs that run the project's own code or tasks: a test suite behind one of them
# (`make check`, `./run_tests.sh`, `bun run ci`) prints its runner's summary all the same.
_PROJECT_RUNNERS = frozenset(
    [
        "make",
        "just",
        "mise",
        "task",
        "npm",
        "pnpm",
        "yarn",
        "bun",
        "npx",
        "bunx",
        "deno",
        "node",
        "python",
        "python3",
        "uv",
        "poetry",
        "pdm",
        "hatch",
        "tox",
        "nox",
        "rake",
        "bundle",
        "composer",
        "dotnet",
        "swift",
        "zig",
        "mvn",
        "gradle",
        "gradlew",
        "cargo",
        "go",
        "mix",
        "sh",
        "bash",
        "zsh",
        "ruby",
        "perl",
        "php",
    ]
)


@functools.lru_cache(maxsize=4096)  # asked of every result's command
def may_run_tests(command: str | None) -> bool:
    """True when ``command`` runs a test suite, or a script or task that may run one.

    A reader (`cat log.txt`, `grep passed`), git or a remote log is no run of the session's
    tests, whatever the text it prints holds.
    """
    if is_test_command(command):
        return True
    for piped, words in segments(command or ""):
        words = unwrap(words)
        if piped or not words:
            continue
        name = executable(words[0])
        if name in _PROJECT_RUNNERS or (words[0].startswith("./") and name not in _READERS):
            return True
    return False


_READERS = frozenset({"cat", "head", "tail", "less", "more", "grep", "rg", "sed", "awk", "jq"})


def _counts(text: str, pattern: re.Pattern[str]) -> dict[str, int]:
    """``{"passed": 14, "failed": 2}`` from "14 passed, 2 failed" style fragments."""
    counts: dict[str, int] = {}
    for match in pattern.finditer(text):
        counts[match["word"].lower()] = counts.get(match["word"].lower(), 0) + int(match["n"])
    return counts


def _unique(ids: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(ids))[:MAX_FAILING]


def _run(
    runner: str,
    command: str | None,
    passed: int,
    failed: int,
    skipped: int = 0,
    errors: int = 0,
    failing: list[str] | None = None,
    failed_anyway: bool = False,
    unit: Literal["tests", "packages"] = "tests",
    passed_shown: bool = True,
    other: tuple[tuple[str, int], ...] = (),
) -> TestRun:
    ids = _unique(failing or [])
    bad = failed > 0 or errors > 0 or failed_anyway or bool(ids)
    return TestRun(
        runner=runner,
        command=command,
        passed=passed,
        failed=failed,
        skipped=skipped,
        errors=errors,
        failing=ids,
        outcome="failed" if bad else "passed",
        unit=unit,
        passed_shown=passed_shown,
        other=tuple((word, n) for word, n in other if n),
    )


# --- pytest ----------------------------------------------------------------------------------

_PYTEST_TOTALS = lazy_pattern(
    r"^=*[ \t]*(?P<totals>(?:\d+ (?:failed|passed|errors?|skipped|xfailed|xpassed|deselected|warnings?"
    r"|rerun|subtests passed|subtests failed)(?:, )?)+)(?: in [\d.]+s[^\n]*?)?[ \t]*=*[ \t]*$",
    re.MULTILINE,
)
_PYTEST_NOTHING = lazy_pattern(r"^=*[ \t]*no tests ran in [\d.]+s", re.MULTILINE)
_PYTEST_WORD = lazy_pattern(r"(?P<n>\d+) (?P<word>failed|passed|errors?|skipped|xfailed|xpassed)")
_PYTEST_FAILING = lazy_pattern(
    r"^(?:(?P<status>FAILED|ERROR) (?P<id>[^\s\[]+(?:\[[^\]\n]*\])?)(?: - [^\n]*)?"
    r"|(?P<vid>[^\s\[]+::[^\s\[]+(?:\[[^\]\n]*\])?) (?P<vstatus>FAILED|ERROR)\b[^\n]*)$",
    re.MULTILINE,
)


def _pytest(output: str, command: str | None) -> TestRun | None:
    # Both patterns match within one line, so they are tried line by line: the
    # summary from the last line up (the final one counts), failing ids only on
    # lines that say FAILED or ERROR.  A regular expression run over the whole
    # output would be tried at every character.
    lines = output.split("\n")
    totals = next((m for m in map(_PYTEST_TOTALS.match, reversed(lines)) if m is not None), None)
    if totals is None:
        if _PYTEST_NOTHING.search(output):
            return _run("pytest", command, 0, 0)
        return None
    counts = _counts(totals["totals"], _PYTEST_WORD)
    failing = []
    for line in lines:
        match = _PYTEST_FAILING.match(line) if "FAILED" in line or "ERROR" in line else None
        if match is None:
            continue
        test_id = match["id"] or match["vid"]
        if "::" in test_id or test_id.endswith(".py"):
            failing.append(test_id)
    return _run(
        "pytest",
        command,
        passed=counts.get("passed", 0),
        failed=counts.get("failed", 0),
        skipped=counts.get("skipped", 0),
        errors=counts.get("error", 0) + counts.get("errors", 0),
        failing=failing,
        other=(("xfailed", counts.get("xfailed", 0)), ("xpassed", counts.get("xpassed", 0))),
    )


# --- unittest and Django ---------------------------------------------------------------------

_UNITTEST_RAN = lazy_pattern(
    r"^Ran (?P<n>\d+) tests? in [\d.]+s[ \t]*\n(?:[ \t]*\n)*(?P<verdict>OK|FAILED)(?: \((?P<details>[^)\n]*)\))?",
    re.MULTILINE,
)
_UNITTEST_DETAIL = lazy_pattern(
    r"(?P<word>failures|errors|skipped|expected failures|unexpected successes)=(?P<n>\d+)"
)
_UNITTEST_FAILING = lazy_pattern(
    r"^(?:FAIL|ERROR): (?P<name>\S+) \((?P<where>[\w.]+)\)", re.MULTILINE
)


def _unittest(output: str, command: str | None) -> TestRun | None:
    ran = None
    for ran in _UNITTEST_RAN.finditer(output):  # noqa: B007 - the last run counts
        pass
    if ran is None:
        return None
    details = _counts(ran["details"] or "", _UNITTEST_DETAIL)
    failures, errors = details.get("failures", 0), details.get("errors", 0)
    skipped = details.get("skipped", 0)
    expected, unexpected = (
        details.get("expected failures", 0),
        details.get("unexpected successes", 0),
    )
    failing = []
    for match in _UNITTEST_FAILING.finditer(output):
        name, where = match["name"], match["where"]
        failing.append(where if where.endswith("." + name) else f"{where}.{name}")
    total = int(ran["n"])
    return _run(
        "unittest",
        command,
        passed=max(total - failures - errors - skipped - expected - unexpected, 0),
        failed=failures,
        skipped=skipped,
        errors=errors,
        failing=failing,
        failed_anyway=ran["verdict"] == "FAILED",
        other=(("expected failures", expected), ("unexpected successes", unexpected)),
    )


# --- go test ---------------------------------------------------------------------------------

_GO_RESULT = lazy_pattern(r"^[ \t]*--- (?P<word>PASS|FAIL|SKIP): (?P<name>\S+)", re.MULTILINE)
_GO_PACKAGE = lazy_pattern(
    r"^(?P<word>ok|FAIL|\?)[ \t]+(?P<package>\S+)(?P<rest>[ \t]+(?:[\d.]+s|\(cached\)|\[[^\]\n]+\])[^\n]*)$",
    re.MULTILINE,
)


def _output_cut(command: str | None) -> bool:
    """Whether the command pipes its output through ``head`` or ``tail``, so lines are missing."""
    return any(
        piped and words and executable(words[0]) in ("head", "tail")
        for piped, words in segments(command or "")
    )


def _cut_short(command: str | None, output: str) -> bool:
    """Whether a ``head``/``tail`` the output went through may have left lines out.

    ``| tail -8`` over output of fewer than 8 lines kept it all.
    """
    for piped, words in segments(command or ""):
        if not (piped and words and executable(words[0]) in ("head", "tail")):
            continue
        count = None
        for at, word in enumerate(words[1:], start=1):
            if re.fullmatch(r"-\d+", word):
                count = int(word[1:])
            elif word in ("-n", "--lines") and at + 1 < len(words) and words[at + 1].isdigit():
                count = int(words[at + 1])
            elif re.fullmatch(r"-n\d+|--lines=\d+", word):
                count = int(re.sub(r"\D", "", word))
        if count is None or len(output.splitlines()) >= count:
            return True
    return False


def _go(output: str, command: str | None) -> TestRun | None:
    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    failing = []
    for match in _GO_RESULT.finditer(output):
        counts[match["word"]] += 1
        if match["word"] == "FAIL":
            failing.append(match["name"])
    packages = list(_GO_PACKAGE.finditer(output))
    package_failed = [m for m in packages if m["word"] == "FAIL"]
    if not any(counts.values()) and not packages:
        return None
    # A parent test fails when a subtest does; only the leaves are the failures to fix.
    leaves = [name for name in failing if not any(o.startswith(name + "/") for o in failing)]
    build_failures = sum(1 for m in package_failed if "[" in m["rest"])
    # `go test -v … | tail -40` shows the last tests only: their lines cannot be counted, its
    # package lines (at the end) can.
    cut = any(counts.values()) and packages and _output_cut(command)
    if not any(counts.values()) or cut:  # without -v Go reports packages, not tests
        tested = [m for m in packages if m["word"] == "ok" and "[no test" not in m["rest"]]
        return _run(
            "go test",
            command,
            passed=len(tested),
            failed=len(package_failed) - build_failures,
            errors=build_failures,
            failing=leaves if cut else None,
            failed_anyway=bool(package_failed),
            unit="packages",
            # A filter that cut lines may have cut the lines of other packages.
            passed_shown=not _cut_short(command, output),
        )
    return _run(
        "go test",
        command,
        passed=counts["PASS"],
        failed=len(leaves),
        skipped=counts["SKIP"],
        errors=build_failures,
        failing=leaves,
        failed_anyway=bool(package_failed),
    )


# --- cargo test ------------------------------------------------------------------------------

_CARGO_RESULT = lazy_pattern(
    r"^test result: (?P<verdict>ok|FAILED)\. (?P<passed>\d+) passed; (?P<failed>\d+) failed; (?P<ignored>\d+) ignored",
    re.MULTILINE,
)
_CARGO_FAILING = lazy_pattern(r"^test (?P<name>\S+)(?: - [^\n]*?)? \.\.\. FAILED$", re.MULTILINE)
_CARGO_BINARY = lazy_pattern(r"^\s*(?:Running|Doc-tests) \S", re.MULTILINE)
_NEXTEST_SUMMARY = lazy_pattern(
    r"^\s*Summary \[[^\]]*\] (?P<total>\d+) tests? run: (?P<passed>\d+) passed(?:[^,\n]*)?(?:, (?P<failed>\d+) failed)?(?:, (?P<skipped>\d+) skipped)?",
    re.MULTILINE,
)
_NEXTEST_FAILING = lazy_pattern(
    r"^\s*FAIL \[[^\]]*\] (?:\([^)]*\) )?\S+ (?P<name>\S+)\s*$", re.MULTILINE
)


def _cargo(output: str, command: str | None) -> TestRun | None:
    results = list(_CARGO_RESULT.finditer(output))
    if results:
        # Each test binary prints its own result after its "Running" (or "Doc-tests") line; a
        # `| tail` that cut the first binary's header may have cut earlier binaries' results.
        first_header = _CARGO_BINARY.search(output)
        partial = _cut_short(command, output) and (
            first_header is None or first_header.start() > results[0].start()
        )
        return _run(
            "cargo test",
            command,
            passed=sum(int(m["passed"]) for m in results),
            failed=sum(int(m["failed"]) for m in results),
            skipped=sum(int(m["ignored"]) for m in results),
            failing=[m["name"] for m in _CARGO_FAILING.finditer(output)],
            failed_anyway=any(m["verdict"] == "FAILED" for m in results),
            passed_shown=not partial,
        )
    summary = _NEXTEST_SUMMARY.search(output)
    if summary:
        return _run(
            "cargo test",
            command,
            passed=int(summary["passed"]),
            failed=int(summary["failed"] or 0),
            skipped=int(summary["skipped"] or 0),
            failing=[m["name"] for m in _NEXTEST_FAILING.finditer(output)],
        )
    return None


# --- Jest and Vitest -------------------------------------------------------------------------

_JEST_TESTS = lazy_pattern(r"^Tests:[ \t]+(?P<totals>[^\n]*\d+ total)", re.MULTILINE)
_JEST_WORD = lazy_pattern(r"(?P<n>\d+) (?P<word>failed|passed|skipped|todo|pending)")
_JEST_BULLET = lazy_pattern(r"^ {0,4}● (?P<title>[^\n]+ › [^\n]+|[^\n›]+)$", re.MULTILINE)
_JEST_CROSS = lazy_pattern(
    r"^[ \t]+[✕×✗] (?P<name>[^\n]+?)(?: \(\d+(?:\.\d+)? ?m?s\))?$", re.MULTILINE
)
_VITEST_TESTS = lazy_pattern(r"^[ \t]*Tests[ \t]+(?P<totals>[^\n]*\(\d+\))", re.MULTILINE)
_VITEST_WORD = lazy_pattern(r"(?P<n>\d+) (?P<word>failed|passed|skipped|todo)")
_VITEST_FAILING = lazy_pattern(r"^[ \t]*FAIL[ \t]+(?P<id>\S+ > [^\n]+?)[ \t]*$", re.MULTILINE)
# A test file that failed as a whole (it did not load, a hook threw): "FAIL  tests/a.spec.ts [ tests/a.spec.ts ]".
_VITEST_FILE_FAILED = lazy_pattern(
    r"^[ \t]*FAIL[ \t]+(?P<file>\S+)[ \t]+\[ [^\]\n]+ \][ \t]*$", re.M
)
_VITEST_FILES = lazy_pattern(r"^[ \t]*Test Files[ \t]+(?P<totals>[^\n]*\(\d+\))", re.MULTILINE)
# Errors thrown outside any test ("Errors  1 error"): the run failed though every test passed.
_VITEST_ERRORS = lazy_pattern(r"^[ \t]*Errors[ \t]+(?P<n>\d+) errors?\b", re.MULTILINE)
_VITEST_CROSS = lazy_pattern(
    r"^[ \t]+[×✕✗] (?P<id>[^\n]+?)(?: \d+(?:\.\d+)?m?s)?[ \t]*$", re.MULTILINE
)


def _jest(output: str, command: str | None) -> TestRun | None:
    totals = None
    for totals in _JEST_TESTS.finditer(output):  # noqa: B007 - the final summary counts
        pass
    if totals is None:
        return None
    counts = _counts(totals["totals"], _JEST_WORD)
    failing = [
        m["title"].strip()
        for m in _JEST_BULLET.finditer(output)
        if not m["title"].startswith(("Console", "Test suite failed to run"))
    ]
    if not failing:
        failing = [m["name"].strip() for m in _JEST_CROSS.finditer(output)]
    suite_errors = output.count("● Test suite failed to run")
    return _run(
        "jest",
        command,
        passed=counts.get("passed", 0),
        failed=counts.get("failed", 0),
        skipped=counts.get("skipped", 0) + counts.get("todo", 0) + counts.get("pending", 0),
        errors=suite_errors,
        failing=failing,
    )


def _vitest(output: str, command: str | None) -> TestRun | None:
    totals = None
    for totals in _VITEST_TESTS.finditer(output):  # noqa: B007 - the final summary counts
        pass
    if totals is None:
        return None
    counts = _counts(totals["totals"], _VITEST_WORD)
    # The "FAIL file > suite > test" headers name the file; the "×" tree lines do not.
    failing = [m["id"].strip() for m in _VITEST_FAILING.finditer(output)]
    if not failing:
        failing = [m["id"].strip() for m in _VITEST_CROSS.finditer(output)]
    # A file that failed as a whole counts no failed test ("Tests 36 passed (36)" under "Test
    # Files 1 failed"): it is an error of the run, named by its file.
    broken = _unique([m["file"] for m in _VITEST_FILE_FAILED.finditer(output)])
    files = None
    for files in _VITEST_FILES.finditer(output):  # noqa: B007 - the final summary counts
        pass
    files_failed = _counts(files["totals"], _VITEST_WORD).get("failed", 0) if files else 0
    with_failing_tests = {test.split(" > ", 1)[0] for test in failing}
    unexplained = max(0, files_failed - len(with_failing_tests) - len(broken))
    thrown = sum(int(m["n"]) for m in _VITEST_ERRORS.finditer(output))
    return _run(
        "vitest",
        command,
        passed=counts.get("passed", 0),
        failed=counts.get("failed", 0),
        skipped=counts.get("skipped", 0) + counts.get("todo", 0),
        errors=len(broken) + unexplained + thrown,
        failing=[*failing, *broken],
    )


# --- Playwright ----------------------------------------------------------------------------

# Playwright closes with one count per line ("  1 failed", "  10 did not run", "  9 passed (10.1s)"),
# each failing test under its count as "[project] › file:line:col › title".
_PLAYWRIGHT_COUNT = lazy_pattern(
    r"^[ \t]*(?P<n>\d+) (?P<word>passed|failed|flaky|skipped|did not run|interrupted)"
    r"(?: \([^)\n]*\))?[ \t]*$",
    re.MULTILINE,
)
_PLAYWRIGHT_TEST = lazy_pattern(r"^[ \t]*(?:\d+\) )?\[[^\]\n]+\] › (?P<id>[^\n]+?)[ \t]*$", re.M)
# Filters that may drop a line from the middle or the end of the output: `tail` keeps the end, where
# the closing counts are.
_FILTERS = frozenset({"grep", "egrep", "rg", "head", "sed", "awk"})


def _filtered(command: str | None) -> bool:
    """Whether ``command`` pipes its output through a filter that may drop its closing lines."""
    return any(
        piped and words and executable(words[0]) in _FILTERS
        for piped, words in segments(command or "")
    )


def _playwright(output: str, command: str | None) -> TestRun | None:
    named = "playwright" in (command or "")
    if not named and "] › " not in output:
        return None
    counts: dict[str, int] = {}
    failing: list[str] = []
    in_failed = False
    for line in output.split("\n"):
        count = _PLAYWRIGHT_COUNT.match(line)
        if count is not None:
            counts[count["word"]] = int(count["n"])
            in_failed = count["word"] in ("failed", "flaky", "interrupted")
            continue
        test = _PLAYWRIGHT_TEST.match(line) if in_failed else None
        if test is not None and counts.get("failed"):
            failing.append(test["id"])
        elif line.strip() and test is None:
            in_failed = False
    if not counts or not (named or failing or "did not run" in counts or "flaky" in counts):
        return None
    return _run(
        "playwright",
        command,
        passed=counts.get("passed", 0) + counts.get("flaky", 0),
        failed=counts.get("failed", 0),
        skipped=counts.get("skipped", 0),
        errors=counts.get("interrupted", 0),
        failing=failing,
        # It prints "N passed" whenever a test passed: missing only from what a filter let through.
        passed_shown="passed" in counts or not _filtered(command),
    )


# --- ExUnit, RSpec, PHPUnit, Maven/Gradle, CTest ---------------------------------------------

_EXUNIT_TOTALS = lazy_pattern(
    r"^(?:(?P<doctests>\d+) doctests?, )?(?:(?P<properties>\d+) propert(?:y|ies), )?(?P<tests>\d+) tests?, "
    r"(?P<failures>\d+) failures?(?P<rest>[^\n]*)$",
    re.MULTILINE,
)
_EXUNIT_REST = lazy_pattern(r"(?P<n>\d+) (?P<word>skipped|excluded|invalid)")
_EXUNIT_FAILING = lazy_pattern(
    r"^[ \t]+\d+\) (?P<title>(?:test|doctest) [^\n]+?) \((?P<module>[\w.]+)\)[ \t]*$", re.MULTILINE
)


def _exunit(output: str, command: str | None) -> TestRun | None:
    totals = None
    for totals in _EXUNIT_TOTALS.finditer(output):  # noqa: B007 - the final summary counts
        pass
    if totals is None:
        return None
    total = int(totals["tests"]) + int(totals["doctests"] or 0) + int(totals["properties"] or 0)
    failures = int(totals["failures"])
    rest = _counts(totals["rest"], _EXUNIT_REST)
    skipped = rest.get("skipped", 0) + rest.get("excluded", 0)
    invalid = rest.get("invalid", 0)
    return _run(
        "mix test",
        command,
        passed=max(total - failures - skipped - invalid, 0),
        failed=failures,
        skipped=skipped,
        errors=invalid,
        failing=[f"{m['title']} ({m['module']})" for m in _EXUNIT_FAILING.finditer(output)],
    )


_RSPEC_TOTALS = lazy_pattern(
    r"^(?P<examples>\d+) examples?, (?P<failures>\d+) failures?(?:, (?P<pending>\d+) pending)?"
    r"(?:, (?P<errors>\d+) errors? occurred outside of examples)?",
    re.MULTILINE,
)
_RSPEC_FAILING = lazy_pattern(r"^rspec (?P<id>\./\S+:\d+|\S+\[[\d:]+\]) #", re.MULTILINE)


def _rspec(output: str, command: str | None) -> TestRun | None:
    totals = None
    for totals in _RSPEC_TOTALS.finditer(output):  # noqa: B007 - the final summary counts
        pass
    if totals is None:
        return None
    failures, pending = int(totals["failures"]), int(totals["pending"] or 0)
    return _run(
        "rspec",
        command,
        passed=max(int(totals["examples"]) - failures - pending, 0),
        failed=failures,
        skipped=pending,
        errors=int(totals["errors"] or 0),
        failing=[m["id"] for m in _RSPEC_FAILING.finditer(output)],
    )


_PHPUNIT_OK = lazy_pattern(r"^OK \((?P<tests>\d+) tests?, \d+ assertions?\)", re.MULTILINE)
_PHPUNIT_TOTALS = lazy_pattern(
    r"^Tests: (?P<tests>\d+), Assertions: \d+(?P<rest>[^\n]*)$", re.MULTILINE
)
_PHPUNIT_WORD = lazy_pattern(
    r"(?P<word>Failures|Errors|Skipped|Incomplete|Risky|Warnings): (?P<n>\d+)"
)
_PHPUNIT_FAILING = lazy_pattern(r"^\d+\) (?P<id>[\w\\]+::\w+)", re.MULTILINE)


def _phpunit(output: str, command: str | None) -> TestRun | None:
    ok = _PHPUNIT_OK.search(output)
    if ok:
        return _run("phpunit", command, passed=int(ok["tests"]), failed=0)
    totals = _PHPUNIT_TOTALS.search(output)
    if totals is None:
        return None
    counts = _counts(totals["rest"], _PHPUNIT_WORD)
    failures, errors = counts.get("failures", 0), counts.get("errors", 0)
    skipped = counts.get("skipped", 0) + counts.get("incomplete", 0)
    return _run(
        "phpunit",
        command,
        passed=max(int(totals["tests"]) - failures - errors - skipped, 0),
        failed=failures,
        skipped=skipped,
        errors=errors,
        failing=[m["id"] for m in _PHPUNIT_FAILING.finditer(output)],
    )


_SUREFIRE_TOTALS = lazy_pattern(
    r"Tests run: (?P<run>\d+), Failures: (?P<failures>\d+), Errors: (?P<errors>\d+), Skipped: (?P<skipped>\d+)(?P<rest>[^\n]*)$",
    re.MULTILINE,
)
_SUREFIRE_FAILING = lazy_pattern(
    r"^(?:\[ERROR\] )?(?:(?P<method>\w+)\((?P<cls>[\w.$]+)\)|(?P<cls2>[\w.$]+)\.(?P<method2>\w+))"
    r"[^\n]*<<< (?:FAILURE|ERROR)!",
    re.MULTILINE,
)
_GRADLE_TOTALS = lazy_pattern(
    r"^(?P<run>\d+) tests? completed(?:, (?P<failed>\d+) failed)?(?:, (?P<skipped>\d+) skipped)?",
    re.MULTILINE,
)
_GRADLE_FAILING = lazy_pattern(r"^(?P<cls>[\w.$]+) > (?P<method>[^\n]+?) FAILED$", re.MULTILINE)


def _jvm(output: str, command: str | None) -> TestRun | None:
    totals = None
    for match in _SUREFIRE_TOTALS.finditer(output):
        if "Time elapsed" not in match["rest"] or totals is None:
            totals = match  # the aggregate line has no "Time elapsed"; it comes last
    failing = []
    for match in _SUREFIRE_FAILING.finditer(output):
        cls, method = match["cls"] or match["cls2"], match["method"] or match["method2"]
        failing.append(f"{cls}.{method}")
    if totals is not None:
        failures, errors, skipped = (
            int(totals["failures"]),
            int(totals["errors"]),
            int(totals["skipped"]),
        )
        return _run(
            "maven",
            command,
            passed=max(int(totals["run"]) - failures - errors - skipped, 0),
            failed=failures,
            skipped=skipped,
            errors=errors,
            failing=failing,
        )
    gradle = _GRADLE_TOTALS.search(output)
    if gradle is None:
        return None
    failed, skipped = int(gradle["failed"] or 0), int(gradle["skipped"] or 0)
    return _run(
        "gradle",
        command,
        passed=max(int(gradle["run"]) - failed - skipped, 0),
        failed=failed,
        skipped=skipped,
        failing=[f"{m['cls']}.{m['method']}" for m in _GRADLE_FAILING.finditer(output)],
    )


_CTEST_TOTALS = lazy_pattern(
    r"^\d+% tests passed, (?P<failed>\d+) tests? failed out of (?P<total>\d+)", re.MULTILINE
)
_CTEST_FAILING = lazy_pattern(r"^\s+\d+ - (?P<name>\S+) \((?P<why>[^)]+)\)", re.MULTILINE)


def _ctest(output: str, command: str | None) -> TestRun | None:
    totals = _CTEST_TOTALS.search(output)
    if totals is None:
        return None
    failed = int(totals["failed"])
    failing_section = output[totals.end() :]
    return _run(
        "ctest",
        command,
        passed=int(totals["total"]) - failed,
        failed=failed,
        failing=[
            m["name"] for m in _CTEST_FAILING.finditer(failing_section) if m["why"] != "Not Run"
        ],
    )


# --- other runners' closing counts: bun, node --test, mocha, deno, dotnet, XCTest, AVA ----------

# Bun's summary: one count per line; "3 errors" counts what failed outside any test (a file that did not load).
_BUN_COUNT = lazy_pattern(
    r"^[ \t]*(?P<n>\d+) (?P<word>pass|fail|skip|todo|errors?)[ \t]*$", re.MULTILINE
)
_BUN_RAN = lazy_pattern(r"^Ran \d+ tests? across \d+ files?\.", re.MULTILINE)
_NODE_COUNT = lazy_pattern(
    r"^(?:#|ℹ) (?P<word>pass|fail|skipped|todo|cancelled) (?P<n>\d+)[ \t]*$", re.M
)
# Mocha's summary lines hold nothing but the count, the word and, for passing, the time:
# "981 failing tests are bugs in ..." in some other tool's prose is not one.
_MOCHA_COUNT = lazy_pattern(
    r"^[ \t]*(?P<n>\d+) (?P<word>passing|failing|pending)(?:[ \t]+\([^)\n]*\))?[ \t]*$",
    re.MULTILINE,
)
_DENO = lazy_pattern(
    r"^(?:ok|FAILED) \| (?P<passed>\d+) passed(?: \(\d+ steps?\))? \| (?P<failed>\d+) failed"
    r"(?: \(\d+ steps?\))?(?: \| (?P<ignored>\d+) ignored)?",
    re.MULTILINE,
)
_DOTNET = lazy_pattern(
    r"^\s*(?:Passed|Failed)!\s+-\s+Failed:\s+(?P<failed>\d+),\s+Passed:\s+(?P<passed>\d+),"
    r"\s+Skipped:\s+(?P<skipped>\d+)"
    r"|^Test summary: total: \d+, failed: (?P<failed2>\d+), succeeded: (?P<passed2>\d+), skipped: (?P<skipped2>\d+)",
    re.MULTILINE,
)
_XCTEST = lazy_pattern(
    r"^\s*Executed (?P<total>\d+) tests?, with (?:(?P<skipped>\d+) tests? skipped and )?"
    r"(?P<failures>\d+) failures?(?: \(\d+ unexpected\))?(?: in (?P<time>[\d.]+))?",
    re.MULTILINE,
)


def _xctest_totals(output: str) -> tuple[int, int, int] | None:
    """Executed, failed and skipped of every test bundle an XCTest run's "Executed" lines close.

    XCTest closes each suite with its line, inner suites first: a test class, then its
    bundle (the sum of its classes), then "All tests" (the same count, in the same time).
    ``xcodebuild test`` runs several bundles (unit and UI tests), each closed by its own
    total, so neither the last line (a UI class of one test) nor any single line is the
    run's count. Lines of the same count and time are one suite (a bundle and "All tests",
    or the output printed twice); a line whose count is the sum of two or more lines just
    before it closes them, and so does one larger than all the lines before it together
    (a filter such as ``| tail`` cut some of its classes' lines off). What is left are the
    bundles' totals.
    """
    closed: list[tuple[int, int, int, str | None]] = []
    for m in _XCTEST.finditer(output):
        line = (int(m["total"]), int(m["failures"]), int(m["skipped"] or 0), m["time"])
        if closed and closed[-1] == line:
            continue
        total, start = 0, len(closed)
        while start > 0 and total + closed[start - 1][0] <= line[0]:
            start -= 1
            total += closed[start][0]
        if (
            (total == line[0] and len(closed) - start >= 2)
            or start == 0
            or (total == line[0] and closed[-1][3] == line[3])
        ):
            del closed[start:]
        closed.append(line)
    if not closed:
        return None
    return (
        sum(c[0] for c in closed),
        sum(c[1] for c in closed),
        sum(c[2] for c in closed),
    )


_AVA = lazy_pattern(r"^[ \t]*(?P<n>\d+) tests? (?P<word>passed|failed)\b", re.MULTILINE)


def _other_runners(output: str, command: str | None) -> TestRun | None:
    """The closing counts of runners with no parser of their own, the last summary printed."""
    found: list[tuple[int, TestRun]] = []
    if _BUN_RAN.search(output) or "bun test" in (command or ""):
        counts = {m["word"]: int(m["n"]) for m in _BUN_COUNT.finditer(output)}
        if "pass" in counts or "fail" in counts:
            found.append(
                (
                    0,
                    _run(
                        "bun test",
                        command,
                        passed=counts.get("pass", 0),
                        failed=counts.get("fail", 0),
                        skipped=counts.get("skip", 0) + counts.get("todo", 0),
                        errors=counts.get("error", 0) + counts.get("errors", 0),
                    ),
                )
            )
    node = {m["word"]: int(m["n"]) for m in _NODE_COUNT.finditer(output)}
    if "pass" in node and "fail" in node:
        found.append((1, _run("node --test", command, passed=node["pass"], failed=node["fail"])))
    mocha = {m["word"]: int(m["n"]) for m in _MOCHA_COUNT.finditer(output)}
    if "passing" in mocha:  # mocha always prints its passing line, 0 included
        found.append(
            (
                2,
                _run(
                    "mocha",
                    command,
                    passed=mocha.get("passing", 0),
                    failed=mocha.get("failing", 0),
                    skipped=mocha.get("pending", 0),
                ),
            )
        )
    for m in _DENO.finditer(output):
        found.append(
            (
                3,
                _run(
                    "deno test",
                    command,
                    passed=int(m["passed"]),
                    failed=int(m["failed"]),
                    skipped=int(m["ignored"] or 0),
                ),
            )
        )
    dotnet = list(_DOTNET.finditer(output))
    if dotnet:
        failed = sum(int(m["failed"] or m["failed2"]) for m in dotnet)
        passed = sum(int(m["passed"] or m["passed2"]) for m in dotnet)
        skipped = sum(int(m["skipped"] or m["skipped2"]) for m in dotnet)
        found.append((4, _run("dotnet test", command, passed, failed, skipped)))
    xctest = _xctest_totals(output)
    if xctest is not None:
        executed, failures, skipped = xctest
        found.append(
            (
                5,
                _run("xctest", command, max(executed - failures - skipped, 0), failures, skipped),
            )
        )
    ava = {m["word"]: int(m["n"]) for m in _AVA.finditer(output)}
    if ava and "passing" in mocha and ava.get("failed", 0) == mocha.get("failing", 0):
        # A mocha host's own closing line ("2 tests failed." from vscode-test) repeats mocha's count.
        ava = {}
    if ava:
        found.append((6, _run("ava", command, ava.get("passed", 0), ava.get("failed", 0))))
    return found[0][1] if len(found) == 1 else None  # two formats at once: not one run's summary


_Parser = Callable[[str, str | None], TestRun | None]
_PARSERS: dict[str, _Parser] = {
    # Before pytest: its one-count lines ("  1 failed") read as pytest's totals.
    "playwright": _playwright,
    "pytest": _pytest,
    "unittest": _unittest,
    "go test": _go,
    "cargo test": _cargo,
    "jest": _jest,
    "vitest": _vitest,
    "mix test": _exunit,
    "rspec": _rspec,
    "phpunit": _phpunit,
    "jvm": _jvm,
    "ctest": _ctest,
    "other": _other_runners,
}
# Which parser to try first for a runner named in the command.
_HINTS = {
    "pytest": "pytest",
    "tox": "pytest",
    "nox": "pytest",
    "unittest": "unittest",
    "django test": "unittest",
    "setup.py test": "unittest",
    "go test": "go test",
    "cargo test": "cargo test",
    "jest": "jest",
    "vitest": "vitest",
    "mix test": "mix test",
    "rspec": "rspec",
    "rake test": "rspec",
    "rails test": "rspec",
    "phpunit": "phpunit",
    "maven test": "jvm",
    "gradle test": "jvm",
    "ctest": "ctest",
    "playwright test": "playwright",
    # Bun's summary has a bare "3 errors" line that pytest's totals pattern would take for its own.
    "bun test": "other",
}
_ANSI = lazy_pattern(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
# The task a runner prefixes each line of its output with ("[ci-test] 16 passed in 4.03s" from
# ``mise run ci``). A level word in brackets ("[error] …") is part of the line.
_TASK_PREFIX = lazy_pattern(
    r"^\[(?!(?i:error|err|warn|warning|info|debug|fatal|fail|failed|ok|pass|notice)\])"
    r"[a-z][\w.:@/-]*\][ \t]",
    re.MULTILINE,
)


def without_task_prefixes(text: str) -> str:
    """``text`` with the task prefix a runner put before each line taken off: what the task printed."""
    return _TASK_PREFIX.sub("", text) if "[" in text else text


def parse_test_run(output: str, command: str | None = None) -> TestRun | None:
    """The test counts and failing ids ``output`` reports; ``None`` when it reports none.

    The runner named in ``command`` is tried first; otherwise each runner's
    summary format is tried in turn (``npm test`` may run Jest or Vitest).
    """
    if not output:
        return None
    if "\x1b" in output:
        output = _ANSI.sub("", output)
    if "\r" in output:
        output = output.replace("\r\n", "\n").replace("\r", "\n")
    output = without_task_prefixes(output)
    order = list(_PARSERS)
    for check in checks_in(command):
        hint = _HINTS.get(check.runner) or (
            "unittest" if check.runner.startswith("python ") else None
        )
        if hint is not None:
            order.remove(hint)
            order.insert(0, hint)
            break
    for name in order:
        run = _PARSERS[name](output, command)
        if run is not None:
            return run
    return None
