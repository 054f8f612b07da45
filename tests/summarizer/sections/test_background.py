"""Sub-agents left working in the background: still running or finished at the cut, and what they made.

A hand-written session: the agent launches two sub-agents in the background;
one reports back (its notice names the test file it created, and the module
it tested), the other is still running when the summary is written.
"""

from __future__ import annotations

from artifact_index.ingestion.events import (
    AssistantMessage,
    Event,
    ToolCall,
    ToolResult,
    UserMessage,
)
from tests.support.session_steps import ROOT, edit, section, summary_of, write


def _launch(
    turn: int,
    call_id: str,
    agent_id: str,
    description: str,
    launched: str = "Async agent launched successfully.",
) -> list[Event]:
    return [
        ToolCall(
            turn=turn,
            call_id=call_id,
            tool="Agent",
            arguments={
                "description": description,
                "prompt": "Write the tests.",
                "run_in_background": True,
            },
        ),
        ToolResult(
            turn=turn,
            call_id=call_id,
            status="success",
            output=f"{launched}\nagentId: {agent_id} (internal ID)\n"
            "The agent is working in the background.",
        ),
    ]


def _notice(turn: int, agent_id: str, description: str, result: str) -> UserMessage:
    return UserMessage(
        turn=turn,
        synthetic=True,
        text=f"<task-notification>\n<task-id>{agent_id}</task-id>\n<status>completed</status>\n"
        f'<summary>Agent "{description}" completed</summary>\n<result>{result}</result>\n'
        "</task-notification>",
    )


def _session() -> list[Event | list[Event]]:
    return [
        UserMessage(turn=1, text="Raise the test coverage of the server"),
        _launch(2, "c1", "a111", "Route tests"),
        _launch(2, "c2", "a222", "Formatter tests"),
        _notice(
            3,
            "a111",
            "Route tests",
            f"All 19 tests pass.\n\nCreated `{ROOT}/server/src/routes/facets.test.ts` with 19 tests.\n"
            "It follows the pattern of `server/src/routes/sessions.test.ts`.",
        ),
        AssistantMessage(turn=4, text="Waiting for the formatter tests..."),
    ]


def test_a_sub_agent_with_no_completion_notice_is_still_running_and_the_agent_waits_for_it() -> (
    None
):
    summary = summary_of(*_session())
    stopped = section(summary, "Where It Stopped")
    assert (
        'still running in the background at the cut (launched, no completion notice seen): "Formatter '
        'tests" (turn 2)'
    ) in stopped
    assert 'finished since the latest request: "Route tests" (completed, turn 3)' in stopped
    steps = section(summary, "Next Steps")
    assert "1 sub-agent(s) still ran in the background" in steps
    assert "reported back" not in steps


def test_the_files_a_sub_agent_reports_it_created_are_in_files_changed() -> None:
    changed = section(summary_of(*_session()), "Files Changed")
    assert "as their reports say" in changed
    assert "`server/src/routes/facets.test.ts`" in changed
    # A file the report only mentions is not said to be changed.
    assert "sessions.test.ts" not in changed


def test_a_launch_in_the_newer_wording_is_a_sub_agent_still_running() -> None:
    # Newer Claude Code adds a note to the launch line; the five agents left running at a real cut were missed.
    newer = (
        "Async agent launched successfully. (This tool result is internal metadata — never quote or paste any "
        "part of it, including the agentId below, into a user-facing reply.)"
    )
    summary = summary_of(
        UserMessage(turn=1, text="Rewrite every plugin's agents"),
        _launch(2, "c1", "a0f3", "Rewrite the proof agents", newer),
        AssistantMessage(
            turn=3, text="The agents are running; I'll take the shared files meanwhile."
        ),
        write(4, f"{ROOT}/shared/constitution.md", "# Constitution\n"),
    )
    assert (
        'still running in the background at the cut (launched, no completion notice seen): "Rewrite the '
        'proof agents" (turn 2)'
    ) in section(summary, "Where It Stopped")
    assert (
        "1 sub-agent(s) it launched still ran in the background (under Where It Stopped): their results arrive "
        "as notices; do not redo their work."
    ) in section(summary, "Next Steps")


def test_the_change_counts_say_they_are_the_agents_own_and_name_the_sub_agents_files() -> None:
    # "0 file(s) created" while the sub-agents created files read as a false fact.
    state = section(summary_of(*_session()), "Current State")
    assert (
        "No file changed by the agent's own calls; sub-agents' reports name 1 file(s) they created or "
        "changed (under Files Changed)."
    ) in state
    state = section(summary_of(*_session(), edit(5, f"{ROOT}/server/src/app.ts")), "Current State")
    assert (
        "By the agent's own calls: 0 file(s) created, 1 modified, 0 deleted; sub-agents' reports name 1 "
        "file(s) they created or changed (under Files Changed), not counted here."
    ) in state


def test_with_sub_agents_that_named_no_file_the_counts_still_say_they_are_the_agents_own() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Split the page into modules"),
        _launch(2, "c1", "a111", "Narrative module"),
        edit(3, f"{ROOT}/web/src/App.jsx"),
    )
    assert (
        "By the agent's own calls: 0 file(s) created, 1 modified, 0 deleted; what the 1 sub-agent(s) it "
        "launched changed is in their own transcripts, not counted here."
    ) in section(summary, "Current State")
