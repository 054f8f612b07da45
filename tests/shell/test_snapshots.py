"""Test runs that rewrite their golden or snapshot files: an effect at paths the tests compute."""

from __future__ import annotations

import pytest

from artifact_index.shell.snapshots import SNAPSHOT_WRITES, is_snapshot_file

from .helpers import analyze


def _snapshot_details(command: str, succeeded: bool = True) -> list[str]:
    return [
        op.detail or ""
        for op in analyze(command, succeeded=succeeded).operations
        if op.action == "unknown" and (op.detail or "").startswith(SNAPSHOT_WRITES)
    ]


@pytest.mark.parametrize(
    ("command", "where"),
    [
        ("go test ./internal/sem -run TestGolden -update", "/w/internal/sem"),
        ("go test ./... -args -update", "/w"),
        ("cd api && go test . -update-golden", "/w/api"),
        ("npx jest -u src/cart", "/w"),
        ("npx vitest run --update", "/w"),
        ("python -m pytest tests --snapshot-update", "/w"),
        ("UPDATE_SNAPSHOTS=1 go test ./pkg", "/w/pkg"),
        ("INSTA_UPDATE=always cargo test", "/w"),
        ("cargo insta test --accept", "/w"),
        ("bun test --update-snapshots", "/w"),
    ],
)
def test_a_run_that_updates_its_expectations_writes_under_the_folders_it_tests(
    command: str, where: str
) -> None:
    assert _snapshot_details(command) == [f"{SNAPSHOT_WRITES} (under {where})"]


def test_a_failing_update_run_may_still_have_written() -> None:
    assert _snapshot_details("go test ./pkg -update", succeeded=False) != []


@pytest.mark.parametrize(
    "command",
    [
        "go test ./...",
        "npx jest src/cart",
        "pytest -q",
        "UPDATE_SNAPSHOTS=0 go test ./pkg",
        "go mod tidy -update",  # not a test run
        "npm update",
    ],
)
def test_other_runs_write_no_snapshots(command: str) -> None:
    assert _snapshot_details(command) == []


@pytest.mark.parametrize(
    ("path", "shaped"),
    [
        ("internal/sem/testdata/fixtures/go-basic.ndjson.golden", True),
        ("src/cart/__snapshots__/cart.test.ts.snap", True),
        ("tests/snapshots/test_api.ambr", True),
        ("testdata/out.golden.json", True),
        ("internal/sem/golden_test.go", False),
        ("testdata/input.json", False),
    ],
)
def test_snapshot_files_are_known_by_their_names_and_folders(path: str, shaped: bool) -> None:
    assert is_snapshot_file(path) is shaped
