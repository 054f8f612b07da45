"""A project task's stages: the checkers `make check` or a git hook echoed, which of them passed, and what that settles."""

from __future__ import annotations

from itertools import count
from typing import Any

from artifact_index.facts.errors.ledger import LedgerEntry
from artifact_index.ingestion.events import Event, FileOperation, SessionInfo, ToolCall, ToolResult
from artifact_index.trail.index import ArtifactIndex
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


def index_of(*steps: list[Event]) -> ArtifactIndex:
    events: list[Event] = [SessionInfo(turn=0, cwd="/shop")]
    for step in steps:
        events += step
    return Tracker(format="claude-code").feed_all(events)


def owed(*steps: list[Event]) -> list[dict[str, Any]]:
    return [g.model_dump() for g in unverified_changes(index_of(*steps))]


def entries(*steps: list[Event]) -> list[LedgerEntry]:
    return index_of(*steps).ledger.errors


PYLINT_FAILS = """uvx ruff check src tests
All checks passed!
uvx black --check src tests
All done!
12 files would be left unchanged.
uvx --from pylint pylint src/shop --recursive=y
************* Module shop.cart
src/shop/cart.py:8:14: W0613: Unused argument 'basket' (unused-argument)

------------------------------------------------------------------
Your code has been rated at 9.98/10

make: *** [pylint] Error 4
"""

TESTS_FAIL = """uvx ruff check src tests
All checks passed!
uvx black --check src tests
All done!
12 files would be left unchanged.
uvx --from pylint pylint src/shop --recursive=y

------------------------------------------------------------------
Your code has been rated at 10.00/10

uv run pytest
FAILED tests/test_cart.py::test_total - assert 3 == 4
========================= 1 failed, 20 passed in 0.50s =========================
make: *** [test] Error 1
"""


def test_a_linter_make_check_echoed_and_went_past_is_a_lint_run() -> None:
    # The task failed at pylint, after ruff had run and passed: the file changed before is linted.
    groups = owed(
        edit("/shop/src/shop/cart.py", 1),
        shell("uv run ruff check src/shop/cart.py", "All checks passed!\n", 2),
        edit("/shop/src/shop/cart.py", 3),
        shell("make check 2>&1", PYLINT_FAILS, 4, ok=False),
    )
    assert not any(r["category"] == "lint" for g in groups for r in g["runs"])


def test_a_task_whose_output_hides_its_stages_runs_what_it_ran_before() -> None:
    groups = owed(
        shell("uv run ruff check src", "All checks passed!\n", 1),
        shell("make check 2>&1", TESTS_FAIL, 1, ok=False),
        edit("/shop/src/shop/cart.py", 2),
        shell("make check 2>&1 | tail -3", TESTS_FAIL.split("uv run pytest\n")[1], 3, ok=False),
    )
    assert not any(r["category"] == "lint" for g in groups for r in g["runs"])


def test_a_task_not_seen_running_the_owed_check_is_named_as_what_may_have() -> None:
    [group] = owed(
        shell("uv run ruff check src", "All checks passed!\n", 1),
        edit("/shop/src/shop/cart.py", 2),
        shell("make test", "20 passed in 0.5s\n", 3),
    )
    assert [r["category"] for r in group["runs"]] == ["lint"]
    assert [(r["command"], r["turn"]) for r in group["tasks_after"]] == [("make test", 3)]


def test_a_finding_is_resolved_when_a_rerun_of_the_task_went_past_its_checker() -> None:
    found = entries(
        shell("make check 2>&1", PYLINT_FAILS, 1, ok=False),
        edit("/shop/src/shop/cart.py", 2),
        shell("make check 2>&1", TESTS_FAIL, 3, ok=False),
    )
    [finding] = [e for e in found if "basket" in e.message]
    assert finding.resolved and finding.resolved_turn == 3


def test_a_failed_make_target_is_resolved_when_a_rerun_got_further() -> None:
    cpd_fails = PYLINT_FAILS.split("uvx --from pylint")[0] + (
        "duplicates=3\nmake: *** [cpd] Error 1\n"
    )
    found = entries(
        shell("make check 2>&1", cpd_fails, 1, ok=False),
        edit("/shop/src/shop/cart.py", 2),
        shell("make check 2>&1", TESTS_FAIL, 3, ok=False),
    )
    [target] = [e for e in found if "[cpd]" in e.message]
    assert target.resolved


def test_a_failed_make_target_stays_open_when_the_rerun_stopped_as_early() -> None:
    cpd_fails = PYLINT_FAILS.split("uvx --from pylint")[0] + (
        "duplicates=3\nmake: *** [cpd] Error 1\n"
    )
    found = entries(
        shell("make check 2>&1", cpd_fails, 1, ok=False),
        shell("make check 2>&1", cpd_fails.replace("=3", "=2"), 3, ok=False),
    )
    [target] = [e for e in found if "[cpd]" in e.message]
    assert not target.resolved


def test_a_static_finding_is_past_when_a_tailed_rerun_of_the_task_ran_its_tests() -> None:
    found = entries(
        shell(
            "make check 2>&1 | tail -6",
            PYLINT_FAILS.split("uvx --from pylint pylint src/shop --recursive=y\n")[1],
            1,
        ),
        edit("/shop/src/shop/cart.py", 2),
        shell("make check 2>&1 | tail -3", TESTS_FAIL.split("uv run pytest\n")[1], 3),
    )
    [finding] = [e for e in found if "basket" in e.message]
    assert finding.resolved


def test_a_hook_that_ran_the_linter_clears_its_finding() -> None:
    hook = "> shop@1.0.0 lint\n> eslint src\n\n> shop@1.0.0 typecheck\n> tsc --noEmit\n\n[main 1a2b3c4] fix cart\n 1 file changed\n"
    found = entries(
        shell(
            "npx eslint src/cart.ts",
            "/shop/src/cart.ts\n  3:7  error  'total' is assigned a value but never used  no-unused-vars\n\n✖ 1 problem (1 error, 0 warnings)\n",
            1,
            ok=False,
        ),
        edit("/shop/src/cart.ts", 2),
        shell("git commit -am 'fix cart'", hook, 3),
    )
    [finding] = [e for e in found if e.kind == "linter"]
    assert finding.resolved and finding.resolved_by == "git commit -am 'fix cart'"


def test_a_pre_commit_hook_that_type_checked_and_linted_is_a_run_of_each() -> None:
    hook = (
        "Running lint-staged...\n[STARTED] biome check --write --no-errors-on-unmatched\n"
        "[COMPLETED] biome check --write --no-errors-on-unmatched\n"
        "Running TypeScript type-check...\n$ tsc --noEmit\nPre-commit checks passed!\n"
        "[main 1a2b3c4] fix cart\n 1 file changed\n"
    )
    groups = owed(
        shell("npx tsc --noEmit", "", 1),
        shell("npx biome lint src", "Checked 3 files.\n", 1),
        edit("/shop/src/cart.ts", 2),
        shell("git commit -am 'fix cart'", hook, 3),
    )
    assert groups == []
