"""Checks owed: the changed files that came after the last run of each kind of check the session runs."""

from __future__ import annotations

from itertools import count
from typing import Any

from artifact_index.ingestion.events import Event, FileOperation, SessionInfo, ToolCall, ToolResult
from artifact_index.trail.tracker import Tracker
from artifact_index.trail.verification import unverified_changes

_ids = count(1)


def edit(path: str, turn: int) -> list[Event]:
    call_id = f"e{next(_ids)}"
    return [
        ToolCall(
            turn=turn,
            call_id=call_id,
            tool="Edit",
            arguments={"file_path": path},
            operations=(FileOperation(action="edit", path=path, old="a", new="b"),),
        ),
        ToolResult(turn=turn, call_id=call_id, status="success"),
    ]


def shell(command: str, output: str, turn: int, ok: bool = True) -> list[Event]:
    call_id = f"b{next(_ids)}"
    return [
        ToolCall(
            turn=turn,
            call_id=call_id,
            tool="Bash",
            arguments={"command": command},
            operations=(FileOperation(action="shell", command=command, source="shell"),),
        ),
        ToolResult(
            turn=turn,
            call_id=call_id,
            status="success" if ok else "failure",
            failure=None if ok else "exit_status",
            output=output,
        ),
    ]


def owed(*steps: list[Event]) -> list[dict[str, Any]]:
    events: list[Event] = [SessionInfo(turn=0, cwd="/shop")]
    for step in steps:
        events += step
    return [
        g.model_dump() for g in unverified_changes(Tracker(format="claude-code").feed_all(events))
    ]


PASSED = "===== 5 passed in 0.12s =====\n"


def test_a_file_changed_after_the_last_test_run_is_not_yet_tested() -> None:
    [group] = owed(
        edit("/shop/cart.py", 1),
        shell("pytest -q 2>&1 | tail -5", PASSED, 2),
        edit("/shop/tests/test_cart.py", 4),
        edit("/shop/README.md", 4),  # prose needs no test run
    )
    assert group["files"] == [{"path": "tests/test_cart.py", "turns": [4]}]
    assert [(r["category"], r["turn"], r["command"], r["passed"]) for r in group["runs"]] == [
        ("test", 2, "pytest -q 2>&1 | tail -5", True)
    ]


def test_data_logs_images_backups_and_git_files_owe_no_check() -> None:
    """No build or test run reads a database, a backup or .gitignore: changing one owes nothing."""
    [group] = owed(
        shell("pytest -q", PASSED, 1),
        edit("/shop/cart.py", 2),
        *(
            edit(f"/shop/{path}", 3)
            for path in (
                ".gitignore",
                "data/pipeline.db",
                "data/pipeline.db.bak-20260217-123434",
                "cart.py.orig",
                "logs/run.log",
                "docs/logo.png",
                ".env.local",
                "e2e-test.sqlite-wal",
                "e2e-test.sqlite-shm",
                "data/app.db-journal",
            )
        ),
        edit("/shop/uv.lock", 3),  # dependencies: the tests run against them
    )
    assert [f["path"] for f in group["files"]] == ["cart.py", "uv.lock"]


def test_a_later_run_clears_what_it_checked() -> None:
    assert (
        owed(
            edit("/shop/cart.py", 1),
            shell("pytest -q", PASSED, 2),
            edit("/shop/cart.py", 3),
            shell("pytest -q tests/test_cart.py", PASSED, 4),
        )
        == []
    )


def test_one_line_per_set_of_changes_with_every_kind_of_check_they_came_after() -> None:
    [group] = owed(
        shell("ruff check . && pytest -q", "All checks passed!\n" + PASSED, 2),
        shell("make", "cc -o shop shop.c\n", 3),
        edit("/shop/cart.py", 5),
    )
    assert [(r["category"], r["turn"]) for r in group["runs"]] == [
        ("build", 3),
        ("lint", 2),
        ("test", 2),
    ]
    assert group["files"] == [{"path": "cart.py", "turns": [5]}]


def test_a_failing_run_is_still_the_last_run_and_says_it_failed() -> None:
    [group] = owed(
        edit("/shop/cart.py", 1),
        shell(
            "pytest -q",
            "FAILED tests/test_cart.py::test_total - assert 3 == 4\n===== 1 failed in 0.1s =====\n",
            2,
            ok=False,
        ),
        edit("/shop/cart.py", 3),
    )
    assert [(r["category"], r["passed"]) for r in group["runs"]] == [("test", False)]


def test_a_session_that_runs_no_check_owes_none() -> None:
    assert owed(edit("/shop/cart.py", 1), shell("python cart.py", "ok\n", 2)) == []


def test_a_checker_of_one_language_is_owed_only_for_its_files() -> None:
    # `tsc` never reads a Swift file; xcodebuild's build does, and it is a build run.
    [group] = owed(
        shell("npx tsc --noEmit", "", 1),
        edit("/shop/functions/src/index.ts", 2),
        edit("/shop/App/CartView.swift", 2),
    )
    assert [f["path"] for f in group["files"]] == ["functions/src/index.ts"]
    assert [r["runner"] for r in group["runs"]] == ["tsc"]


def test_an_xcodebuild_build_is_a_build_run() -> None:
    groups = owed(
        edit("/shop/App/CartView.swift", 1),
        shell(
            "xcodebuild -scheme Shop -destination 'generic/platform=iOS' build 2>&1 | tail -3",
            "** BUILD SUCCEEDED **",
            2,
        ),
        edit("/shop/App/CartView.swift", 3),
    )
    assert [(r["category"], r["runner"]) for g in groups for r in g["runs"]] == [
        ("build", "xcodebuild build")
    ]


GO_OK = "ok  \texample.com/shop/cart\t0.012s\n"


def test_what_a_build_wrote_and_what_only_ci_reads_owe_no_test_run() -> None:
    """The binary `go build -o` wrote is the build's output; a workflow is checked by CI, not locally."""
    [group] = owed(
        shell("go test ./...", GO_OK, 1),
        edit("/shop/cart/cart.go", 2),
        shell("go build -o ./shop ./cmd/shop", "", 3),
        edit("/shop/.github/workflows/release.yml", 4),
        edit("/shop/.goreleaser.yml", 4),
    )
    assert group["files"] == [{"path": "cart/cart.go", "turns": [2]}]
    assert [r["category"] for r in group["runs"]] == ["test"]


def test_a_source_file_a_command_rewrote_after_the_tests_is_still_owed_its_run() -> None:
    [group] = owed(
        shell("go test ./...", GO_OK, 1),
        shell("gofmt -w cart/cart.go", "", 2),
    )
    assert group["files"] == [{"path": "cart/cart.go", "turns": [2]}]


NEXT_BUILD = (
    "> shop@0.1.0 build\n> next build\n\n  Creating an optimized production build ...\n"
    "✓ Compiled successfully in 3.1s\n  Running TypeScript ...\n  Finished TypeScript in 1969ms ...\n"
    "  Collecting page data using 7 workers ...\n"
)


def test_a_build_that_type_checks_the_project_is_a_type_check() -> None:
    """`next build` runs tsc over the project and says it finished: the changes before it are type-checked."""
    assert (
        owed(
            shell("npx tsc --noEmit 2>&1 | head -30", "", 1),
            edit("/shop/src/app/page.tsx", 2),
            shell("npm run build 2>&1 | tail -35", NEXT_BUILD, 3),
        )
        == []
    )
    # All a `| tail -5` leaves of it is the route table's legend, printed once the build is done.
    assert (
        owed(
            shell("npx tsc --noEmit", "", 1),
            edit("/shop/app/page.tsx", 2),
            shell(
                "pnpm build 2>&1 | tail -5",
                "ƒ Proxy (Middleware)\n\n○  (Static)   prerendered as static content\n"
                "ƒ  (Dynamic)  server-rendered on demand\n",
                3,
            ),
        )
        == []
    )
    # A build whose output does not show the type check leaves it owed.
    [group] = owed(
        shell("npx tsc --noEmit 2>&1 | head -30", "", 1),
        edit("/shop/src/app/page.tsx", 2),
        shell("npm run build 2>&1 | tail -3", "  Collecting page data using 7 workers ...\n", 3),
    )
    assert [r["category"] for r in group["runs"]] == ["typecheck"]


def test_a_script_run_itself_after_its_change_owes_no_test_run() -> None:
    [group] = owed(
        shell("pytest -q", PASSED, 1),
        edit("/shop/scratch/make_table.py", 2),
        edit("/shop/scratch/verify_table.py", 2),
        edit("/shop/scripts/deploy.sh", 2),
        shell("cd scratch && python3 -u make_table.py", "done\n", 3),
        shell("bash scripts/deploy.sh --dry-run", "would deploy\n", 3),
        shell(
            "python scratch/verify_table.py", "Traceback (most recent call last):\n", 4, ok=False
        ),
        edit("/shop/scratch/slow_check.py", 5),
        # Started in the background: how it ended is not seen.
        shell(
            "python scratch/slow_check.py",
            "Command running in background with ID: b5db730. Output is being written to: /tmp/b.out",
            6,
        ),
    )
    # The table script ran and passed; the one whose run failed is still owed its check.
    assert group["files"] == [
        {"path": "scratch/slow_check.py", "turns": [5]},
        {"path": "scratch/verify_table.py", "turns": [2]},
    ]


def test_a_script_run_itself_tests_it_but_does_not_lint_it() -> None:
    groups = owed(
        shell("ruff check . && pytest -q", "All checks passed!\n" + PASSED, 1),
        edit("/shop/scratch/make_table.py", 2),
        shell("python scratch/make_table.py", "done\n", 3),
    )
    assert [(g["files"], [r["category"] for r in g["runs"]]) for g in groups] == [
        ([{"path": "scratch/make_table.py", "turns": [2]}], ["lint"])
    ]


PRE_PUSH = (
    "Biome lint...............................................................Passed\n"
    "TypeScript type check....................................................Passed\n"
    "Unit tests...............................................................Passed\n"
    "New UI Biome lint....................................(no files to check)Skipped\n"
    "trim trailing whitespace.................................................Passed\n"
    "To github.com:shop/shop.git\n   d9faa78..bbc0c3a  main -> main\n"
)


def test_the_checks_a_push_s_hooks_listed_as_passed_are_runs() -> None:
    """A pre-push hook's "Unit tests....Passed" ran the tests after the change: nothing is owed."""
    steps = (
        shell("bun test", "5 pass\n0 fail\n", 1),
        shell("bunx biome lint .", "Checked 3 files in 2ms. No fixes applied.\n", 1),
        edit("/shop/src/cart.ts", 2),
    )
    assert owed(*steps)  # the change came after the runs
    assert owed(*steps, shell("git push origin main 2>&1", PRE_PUSH, 3)) == []


def test_a_hook_that_failed_is_a_failed_run_and_one_skipped_no_run() -> None:
    failed = "\n".join(
        line[: line.rindex(".") + 1] + "Failed" if line.startswith("Unit tests") else line
        for line in PRE_PUSH.splitlines()
    )
    events: list[Event] = [SessionInfo(turn=0, cwd="/shop")]
    events += shell("git push origin main 2>&1", failed, 3, ok=False)
    runs = Tracker(format="claude-code").feed_all(events).session.check_runs
    assert [(r.category, r.runner, r.passed) for r in runs] == [
        ("lint", "biome", True),
        ("typecheck", "tsc", True),
        ("test", "hook tests", False),
    ]


def test_hook_lines_printed_by_another_command_are_no_runs() -> None:
    # Only a commit or a push runs hooks: the same lines printed by `cat` are no runs.
    assert owed(
        shell("bun test", "5 pass\n0 fail\n", 1),
        edit("/shop/src/cart.ts", 2),
        shell("cat hooks.log", PRE_PUSH, 3),
    )
