"""A run's counts are worded so they never contradict its outcome."""

from __future__ import annotations

from artifact_index.trail.answers import TestReport
from summarizer.sections.claim_wording import test_counts as counts_of


def _run(passed: int, failed: int, outcome: str, command: str = "pytest") -> TestReport:
    return TestReport.model_validate(
        {
            "command": command,
            "passed": passed,
            "failed": failed,
            "skipped": 0,
            "failing": [],
            "turn": 4,
            "outcome": outcome,
        }
    )


def test_a_failed_run_in_which_no_test_failed_says_which_part_failed() -> None:
    text = counts_of(_run(12, 0, "failed"))
    assert text.startswith("12 passed, 0 failed")
    assert "no test failed, yet the run itself failed" in text


def test_a_passing_or_failing_run_reads_as_its_counts() -> None:
    assert counts_of(_run(12, 0, "passed")) == "12 passed, 0 failed"
    assert counts_of(_run(11, 1, "failed")) == "11 passed, 1 failed"
    assert counts_of(_run(0, 0, "failed")) == "failed before any test ran"


def test_a_run_that_ran_no_test_says_so_not_zero_passed() -> None:
    assert counts_of(_run(0, 0, "passed")) == "no test ran"


def test_a_run_whose_output_was_cut_says_its_count_was_not_seen() -> None:
    # `| tail -5` left only cargo's doc-test section ("running 0 tests"): the unit tests ran above it.
    run = _run(0, 0, "passed", "cargo fmt && cargo test | tail -5")
    assert counts_of(run) == "no count seen: the output was cut (`| tail -5`)"
