"""Where the summary spends its budget: on what the agent that continues uses, not on what it no longer needs.

Resolved errors shrink to a line each, a long "all done" recap is not
quoted whole, the agent's own plan files are not the project's changes, and
the files read past the latest few are named by folder while there is room.
"""

from __future__ import annotations

from artifact_index.ingestion.events import (
    AssistantMessage,
    Event,
    FileOperation,
    ToolCall,
    ToolResult,
    UserMessage,
)
from artifact_index.trail.answers import ErrorReport
from summarizer.sections.index_sections import MAX_DETAIL, render_index_section
from tests.support.session_steps import ROOT, read, section, summary_of, write


def test_files_read_past_the_latest_few_are_named_by_folder_while_there_is_room() -> None:
    reads = [
        read(2 + n, f"{ROOT}/{folder}/{name}.py", "x = 1\n")
        for n, (folder, name) in enumerate(
            [
                ("shop", "cart"),
                ("shop", "tax"),
                ("shop/io", "csv_reader"),
                ("shop/io", "json_reader"),
                *(("lib", f"util_{k}") for k in range(12)),
            ]
        )
    ]
    summary = summary_of(
        UserMessage(turn=1, text="How are totals computed?"),
        *reads,
        UserMessage(turn=40, text="Thanks. Now rename the module."),
    )
    full = render_index_section("files_read", summary.facts, 0)
    # Read before the current thread: the 12 latest by path, the 4 read first by name under their folder.
    assert (
        "- and 4 more read, in `shop/`: `cart.py`, `tax.py`; `shop/io/`: `csv_reader.py`, `json_reader.py`"
        in full
    )
    compact = render_index_section("files_read", summary.facts, 3)
    assert "- and 13 more read, in `lib/` (9), `shop/io/` (2), `shop/` (2)" in compact
    assert "Files Read" in summary.markdown and "`shop/io/`" in section(summary, "Files Read")


def _lint_finding(message: str, resolved_turn: int) -> ErrorReport:
    return ErrorReport(
        message=message,
        kind="linter",
        first_turn=40,
        last_turn=40,
        occurrences=1,
        resolved=True,
        resolved_turn=resolved_turn,
        resolution="the same check passed",
        resolved_by="mise run lint",
        fixed_by=["cmd/list/data.go"],
        command="mise run lint",
    )


def test_errors_one_run_showed_gone_share_one_line_once_the_budget_is_tight() -> None:
    facts = summary_of(UserMessage(turn=1, text="Make lint pass.")).facts.model_copy(
        update={
            "errors": [
                _lint_finding(
                    "error returned from external package is unwrapped: sig: func Head()", 50
                ),
                _lint_finding(
                    "error returned from external package is unwrapped: sig: func NewStateStore()",
                    50,
                ),
                _lint_finding(
                    "error returned from external package is unwrapped: sig: func List()", 50
                ),
                _lint_finding("ineffectual assignment to err", 58),
            ]
        }
    )
    full = render_index_section("errors", facts, 0).splitlines()
    assert len(full) == 4 and all(line.startswith("- [resolved] `") for line in full)
    compact = render_index_section("errors", facts, 2).splitlines()
    assert compact == [
        "- [resolved] 3 errors, the first `error returned from external package is unwrapped: sig: func Head()`: "
        "the same check passed at turn 50; fixed by `cmd/list/data.go`",
        "- [resolved] `ineffectual assignment to err`: the same check passed at turn 58; fixed by `cmd/list/data.go`",
    ]


def test_many_errors_one_run_showed_gone_share_one_line_even_at_full_detail() -> None:
    facts = summary_of(UserMessage(turn=1, text="Make lint pass.")).facts.model_copy(
        update={"errors": [_lint_finding(f"unused variable `v{i}`", 50) for i in range(12)]}
    )
    assert render_index_section("errors", facts, 0).splitlines() == [
        "- [resolved] 12 errors, the first `` unused variable `v0` ``: the same check passed at turn 50 "
        "(`mise run lint`); fixed by `cmd/list/data.go`"
    ]


_RECAP = (
    "Done! All tests pass. Here's what I implemented:\n\n## Changes Made\n"
    + "".join(
        f"- Added the `{name}` rounding rule to the cart totals and its test\n"
        for name in (
            "half_even",
            "half_up",
            "floor",
            "ceiling",
            "banker",
            "none",
            "cash",
            "card",
            "swiss",
            "nordic",
            "euro_cent",
            "yen",
        )
    )
    + "\n## Test Results\n- 42 passed, 0 failed; the linter is clean and the type checker reports nothing\n"
    + "\n## How It Works\nEach rule is a function of the total; the cart picks one by the currency.\n"
)


def test_a_long_all_done_recap_is_whole_and_outlined_only_at_the_most_compact_detail() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Add the rounding rules."), AssistantMessage(turn=2, text=_RECAP)
    )
    # Whole while the budget allows: the next agent must not redo what it reports.
    assert "half_up" in section(summary, "Where It Stopped")
    stopped = render_index_section("last_activity", summary.facts, MAX_DETAIL)
    assert (
        "  Done! All tests pass. Here's what I implemented:\n  (a recap of 21 lines, shortened here: its parts "
        "were Changes Made; Test Results; How It Works)"
    ) in stopped
    assert "half_up" not in stopped


def test_a_long_answer_to_the_users_question_stays_whole() -> None:
    answer = _RECAP.replace(
        "Done! All tests pass. Here's what I implemented:", "Great question! Here's what happened:"
    )
    summary = summary_of(
        UserMessage(turn=1, text="Why did the totals change?"),
        AssistantMessage(turn=2, text=answer),
    )
    assert "half_up" in section(summary, "Where It Stopped")


def test_the_agents_plan_file_is_not_a_project_change() -> None:
    plan = "/home/dev/.claude/plans/drifting-tumbling-whisper.md"
    summary = summary_of(
        UserMessage(turn=1, text="Plan the rounding rules, then add them."),
        write(2, plan, "# Plan: rounding rules\n\n## Approach\n"),
        write(3, f"{ROOT}/shop/rounding.py", "def half_even(total):\n    return total\n"),
        write(4, f"{ROOT}/.claude/settings.json", "{}\n"),
    )
    assert [f.path for f in summary.facts.created] == ["shop/rounding.py", ".claude/settings.json"]
    changed = section(summary, "Files Changed")
    assert changed.splitlines()[-1] == (
        "Not the project's (the agent's own files, outside the workspace): "
        f"`{plan}` (created, turn 2)"
    )
    assert "2 file(s) created" in section(summary, "Current State")


def test_where_it_stopped_says_a_run_of_calls_once_and_a_repeated_announcement_once() -> None:
    path = f"{ROOT}/shop/cart.py"
    summary = summary_of(
        UserMessage(turn=1, text="Update the callers."),
        AssistantMessage(
            turn=2, text="Now let me update all the callers. Let's start with `cart.py`:"
        ),
        AssistantMessage(turn=3, text="Now let me update each caller. Let's start with `cart.py`:"),
        AssistantMessage(turn=4, text="The total needs the tax first."),
        read(5, path, "x = 1\n"),
        read(6, path, "x = 1\n"),
        read(7, path, "x = 1\n"),
        AssistantMessage(turn=7, text="Let me see what function this is in:"),
    )
    stopped = section(summary, "Where It Stopped")
    assert "- (turn 2) Now let me update all the callers." in stopped and "(turn 3)" not in stopped
    # Inside the workspace a path is said relative to it, as in every other section.
    assert "- (turns 5–7, 3 calls) Read `shop/cart.py` → success" in stopped


def _read_part(turn: int, path: str, offset: int, limit: int) -> list[Event]:
    call_id = f"part{turn}"
    return [
        ToolCall(
            turn=turn,
            call_id=call_id,
            tool="Read",
            arguments={"file_path": path, "offset": offset, "limit": limit},
            operations=(FileOperation(action="read", path=path),),
        ),
        ToolResult(turn=turn, call_id=call_id, status="success", output=f"{offset:>6}→x\n"),
    ]


def test_reads_of_parts_of_a_file_say_which_lines_the_agent_was_looking_at() -> None:
    path = f"{ROOT}/cli/strategy/common.go"
    summary = summary_of(
        UserMessage(turn=1, text="Is os.Getwd() misused elsewhere?"),
        _read_part(2, path, 525, 50),
        _read_part(3, path, 570, 30),
        _read_part(4, path, 490, 45),
    )
    assert (
        "- (turns 2–4, 3 calls) Read `cli/strategy/common.go` lines 490–599 → success"
        in section(summary, "Where It Stopped")
    )
