"""The offline summary says what is certain and no more.

Blind raters found, at real compaction points: a typed ``/compact`` taken for
the latest request; an error called open when the file its check named was
changed after it; an agent's announcement ("I'll update issue #532 ...")
listed as a root cause; decisions from long before the latest request read
as the state of things; a stale task list given as the next step while the
agent had handed over to the user, or after the user had asked for something
else; scratch files under ``/tmp`` pushing the
project's changed files out of a budget-cut list.
"""

from __future__ import annotations

from artifact_index.facts.decisions import Decision
from artifact_index.ingestion.events import AssistantMessage, ToolCall, ToolResult, UserMessage
from artifact_index.trail.session_state import UserSaid
from summarizer.narrative.offline_decisions import worth_stating
from summarizer.sections.file_lists import changed_paths
from summarizer.sections.thread import latest_request
from tests.support.session_steps import ROOT, edit, section, shell, summary_of, write


def test_a_typed_compact_is_not_the_latest_request() -> None:
    messages = [
        UserSaid(turn=1, text="Add a cache to the loader", channel="prompt"),
        UserSaid(turn=5, text="/compact", channel="prompt"),
    ]
    latest = latest_request(messages)
    assert latest is not None and latest.turn == 1


def test_an_error_whose_file_changed_after_it_is_not_called_open() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Tidy lib/loader.py"),
        edit(2, f"{ROOT}/lib/loader.py"),
        shell(3, "ruff format --check lib/loader.py", "Would reformat: lib/loader.py", ok=False),
        edit(4, f"{ROOT}/lib/loader.py", "b", "c"),
        AssistantMessage(turn=5, text="Formatted."),
    )
    errors = section(summary, "Errors")
    assert "[OPEN]" not in errors
    assert "changed after it: `lib/loader.py` (turn 4); the check was not seen run again" in errors
    assert "error(s) open" not in section(summary, "Current State")


def test_an_error_with_nothing_after_it_stays_open() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Tidy lib/loader.py"),
        edit(2, f"{ROOT}/lib/loader.py"),
        shell(3, "ruff format --check lib/loader.py", "Would reformat: lib/loader.py", ok=False),
    )
    assert "[OPEN]" in section(summary, "Errors")


def test_an_announced_action_is_no_decision_nor_root_cause() -> None:
    announced = Decision(
        kind="root-cause",
        text="I'll update issue #532 — its stated root cause is now wrong.",
        turn=9,
        files=[],
        symbols=[],
    )
    found = announced.model_copy(
        update={"text": "The template branched on a variable the regex never captured."}
    )
    assert not worth_stating(announced)
    assert worth_stating(found)


def test_a_decision_before_the_latest_request_is_said_as_earlier() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Make the loader faster"),
        AssistantMessage(turn=2, text="Should I cache on disk?"),
        UserMessage(turn=3, text="No, let's keep it in memory because the disk is slow."),
        edit(4, f"{ROOT}/lib/loader.py"),
        UserMessage(turn=5, text="Now document it"),
        edit(6, f"{ROOT}/README.md"),
    )
    assert "(turn 3, before the latest request) The user" in section(summary, "Decisions Made")


def test_the_hand_over_leads_the_next_steps_and_an_old_task_list_is_dated() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Release it"),
        AssistantMessage(turn=2, text="Planning."),
        *_todo(3, "Prepare the release notes"),
        UserMessage(turn=4, text="proceed"),
        edit(5, f"{ROOT}/CHANGELOG.md"),
        AssistantMessage(turn=6, text="The signing agent refused: you need to commit yourself."),
    )
    steps = section(summary, "Next Steps").split("\n")
    assert steps[0].startswith("- The agent's last message (turn 6) reported back")
    assert any(
        "Prepare the release notes (the agent's task list of turn 3, written before the latest "
        "request of turn 4" in step
        for step in steps
    )


def test_a_task_list_from_before_a_new_request_is_no_next_step() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Add the diagnose phase and plan the corpus harness"),
        *_todo(2, "Add DIAGNOSE to the phase enum"),
        edit(3, f"{ROOT}/tests/test_phases.py"),
        AssistantMessage(turn=4, text="Context is nearly full. How do you want to proceed?"),
        UserMessage(turn=5, text="Write a hand-off note for a fresh session"),
        write(6, f"{ROOT}/docs/handoff.md", "# Hand-off\n"),
    )
    steps = section(summary, "Next Steps")
    assert "DIAGNOSE" not in steps  # the old plan, still listed under Pending Tasks with its turn
    assert "Add DIAGNOSE to the phase enum" in section(summary, "Pending Tasks")
    assert steps.startswith(
        "- No next step stated: the work stopped during the latest request (turn 5)"
    )


def test_an_answer_in_the_last_message_is_not_denied_under_findings() -> None:
    summary = summary_of(
        UserMessage(
            turn=1, text="The scraper's spans are missing from the dashboard; find out why"
        ),
        *_read(2, f"{ROOT}/scraper/classifier.py"),
        AssistantMessage(
            turn=3,
            text="Found the problem: the classifier enables tracing a second time at import, which resets "
            "the session the runner had set up.",
        ),
    )
    findings = section(summary, "Findings")
    assert "No conclusion recorded" not in findings
    assert "is its last message (turn 3), under Where It Stopped" in findings


def _read(turn: int, path: str) -> list[object]:
    return [
        ToolCall(turn=turn, call_id=f"r{turn}", tool="Read", arguments={"file_path": path}),
        ToolResult(turn=turn, call_id=f"r{turn}", status="success", output="import tracing\n"),
    ]


def _todo(turn: int, content: str) -> list[object]:
    todos = [{"content": content, "status": "in_progress", "activeForm": content}]
    return [
        ToolCall(turn=turn, call_id=f"t{turn}", tool="TodoWrite", arguments={"todos": todos}),
        ToolResult(turn=turn, call_id=f"t{turn}", status="success", output="ok"),
    ]


def test_scratch_files_come_after_the_project_files_their_folder_said_once() -> None:
    scratch = "/tmp/claude-1000/-home-me-project/5e12a303/scratchpad"
    summary = summary_of(
        UserMessage(turn=1, text="Try the schema, then fix the workflow"),
        write(2, f"{scratch}/cuetest/schema.cue", "a"),
        write(3, f"{scratch}/cuetest/t1.json", "{}"),
        edit(4, f"{ROOT}/.github/workflows/cleanup.yml"),
        write(5, f"{ROOT}/docs/spec.md", "# Spec"),
    )
    lines = changed_paths(summary.facts).split("\n")
    assert lines == [
        "- created in docs/ (1): `spec.md`",
        "- modified in .github/workflows/ (1): `cleanup.yml`",
        f"- created outside the workspace under {scratch}/cuetest/ (2): `schema.cue`, `t1.json`",
    ]
