"""Findings that were there before the session are reported, but not errors for the session to resolve.

A linter's finding first reported on a file the session had not changed, and
output the agent itself calls pre-existing right after seeing it, are classed
apart with the reason; a check run that printed only such findings did not
fail.  The one the session caused, beside them, stays open.
"""

from __future__ import annotations

from artifact_index.ingestion.events import (
    AssistantMessage,
    Event,
    FileOperation,
    SessionInfo,
    ToolCall,
    ToolResult,
)
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.tracker import Tracker
from artifact_index.trail.verification import run_passed

# `mix credo --strict | tail` as Elixir projects print it: design suggestions in a file nobody touched.
CREDO = """┃ [D] ↘ Nested modules could be aliased at the top of the invoking module.
┃       lib/shop/services/waiting_summary.ex:105:9 #(Shop.Services.WaitingSummary.call_llm)
┃ [R] ↘ Function body is nested too deep (max depth is 2, was 3).
┃       lib/shop/cart.ex:41:11 #(Shop.Cart.total)

Analysis took 0.4 seconds (0.04s to load, 0.3s running 69 checks on 114 files)
876 mods/funs, found 1 refactoring opportunity, 1 software design suggestion.
"""
# `tsc --noEmit` after a change to one component, with errors in files the session never opened.
TSC = """src/components/Chart.tsx(12,5): error TS2345: Argument of type 'unknown' is not assignable to parameter of type 'string'.
src/lib/github.ts(40,3): error TS2322: Type 'string | undefined' is not assignable to type 'string'.
src/components/QualityDebt.tsx(8,1): error TS2304: Cannot find name 'Section'.
"""


def _session(*events: Event) -> ArtifactIndex:
    return Tracker(format="fixture").feed_all([SessionInfo(turn=0, cwd="/shop"), *events])


def _edit(turn: int, path: str, call_id: str) -> list[Event]:
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


def _run(turn: int, command: str, output: str, call_id: str, ok: bool = True) -> list[Event]:
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


def _by_file(index: ArtifactIndex) -> dict[str, str | None]:
    return {str(e.file).rsplit("/", 1)[-1]: e.pre_existing for e in index.errors()}


def test_a_lint_finding_on_a_file_the_session_had_not_changed_is_pre_existing_and_the_run_did_not_fail() -> (
    None
):
    index = _session(
        *_edit(3, "/shop/lib/shop/cart.ex", "e1"),
        *_run(4, "mix credo --strict 2>&1 | tail -10", CREDO, "c1"),
    )
    found = _by_file(index)
    assert (
        found["waiting_summary.ex"] is not None and "had not changed" in found["waiting_summary.ex"]
    )
    assert (
        found["cart.ex"] is None
    )  # the session changed it before the run: its finding is the session's
    assert [e.file for e in index.ledger.open_errors] == ["lib/shop/cart.ex"]
    assert not run_passed(index, index.session.check_runs[-1])


def test_a_run_that_printed_only_findings_from_before_the_session_passed() -> None:
    only_old = CREDO.split("┃ [R]")[0]
    index = _session(
        *_edit(3, "/shop/lib/shop/cart.ex", "e1"),
        *_run(4, "mix credo --strict", only_old, "c1", ok=False),
    )
    assert index.ledger.open_errors == []
    assert run_passed(index, index.session.check_runs[-1])


def test_the_first_lint_run_before_any_change_finds_only_what_was_there() -> None:
    index = _session(
        *_run(2, "mix credo --strict", CREDO, "c1", ok=False),
        *_edit(3, "/shop/lib/shop/cart.ex", "e1"),
    )
    assert all(e.pre_existing for e in index.errors())
    assert index.ledger.original is None  # nothing the session caused


def test_the_agent_calling_errors_pre_existing_classes_those_of_the_files_it_names_only() -> None:
    index = _session(
        *_edit(3, "/shop/src/components/QualityDebt.tsx", "e1"),
        *_run(4, "npx tsc --noEmit", TSC, "t1", ok=False),
        AssistantMessage(
            turn=5,
            text="All the TS errors are pre-existing (Chart, github) — none from my new "
            "`QualityDebt.tsx`. Let me look at the one in QualityDebt.",
        ),
    )
    found = _by_file(index)
    assert found["Chart.tsx"] is not None and "turn 5" in str(found["Chart.tsx"])
    assert found["github.ts"] is not None
    assert found["QualityDebt.tsx"] is None
    assert [e.file for e in index.ledger.open_errors] == ["src/components/QualityDebt.tsx"]


def test_a_claim_naming_no_file_leaves_the_errors_in_changed_files_open() -> None:
    index = _session(
        *_edit(3, "/shop/src/components/QualityDebt.tsx", "e1"),
        *_run(4, "npx tsc --noEmit", TSC, "t1", ok=False),
        AssistantMessage(
            turn=5, text="The other errors are pre-existing issues unrelated to my changes."
        ),
    )
    assert [e.file for e in index.ledger.open_errors] == ["src/components/QualityDebt.tsx"]


def test_questions_plans_and_work_the_agent_takes_up_claim_nothing() -> None:
    for said in (
        "Let me check which of these are pre-existing.",
        "Are these pre-existing?",
        "This might be a pre-existing issue.",
        "There's a type error in `Chart.tsx` (unrelated to my changes but needs fixing). Let me fix it:",
    ):
        index = _session(
            *_edit(3, "/shop/src/components/QualityDebt.tsx", "e1"),
            *_run(4, "npx tsc --noEmit", TSC, "t1", ok=False),
            AssistantMessage(turn=5, text=said),
        )
        assert len(index.ledger.open_errors) == 3, said


def test_the_agent_speaks_of_the_output_it_saw_since_it_last_spoke() -> None:
    index = _session(
        *_edit(3, "/shop/src/components/QualityDebt.tsx", "e1"),
        *_run(4, "npx tsc --noEmit", TSC, "t1", ok=False),
        AssistantMessage(turn=5, text="Three type errors. Let me look at them one by one."),
        AssistantMessage(turn=6, text="No new warnings from the formatter."),
    )
    assert len(index.ledger.open_errors) == 3


def test_a_name_that_no_longer_resolves_is_not_pre_existing_by_where_it_points() -> None:
    # golangci-lint reports compile errors as its `typecheck` linter: a definition removed elsewhere.
    lint = "cmd/cli/hooks.go:956:5: undefined: isGeminiTranscript (typecheck)\n1 issues:\n* typecheck: 1\n"
    index = _session(
        *_edit(3, "/shop/cmd/cli/transcript.go", "e1"),
        *_run(4, "golangci-lint run ./...", lint, "l1", ok=False),
    )
    assert [e.message for e in index.ledger.open_errors] == ["undefined: isGeminiTranscript"]


def test_the_classification_survives_save_and_resume() -> None:
    index = _session(*_run(2, "mix credo --strict", CREDO, "c1", ok=False))
    resumed = Tracker.resume(Tracker(index).save()).index
    assert [e.pre_existing for e in resumed.ledger.errors] == [
        e.pre_existing for e in index.ledger.errors
    ]
    assert resumed.ledger.open_errors == []
