"""What the events tell beyond the index, asked of the engine: small hand-written sessions."""

from __future__ import annotations

from artifact_index.ingestion.events import AssistantMessage, Event, SessionInfo, UserMessage
from artifact_index.trail.conversation.conversation_report import (
    ConversationReport,
    conversation_report,
)
from artifact_index.trail.session_report import session_report
from artifact_index.trail.tracker import Tracker
from tests.support.session_steps import ROOT, edit, shell

REFUSED = """Pre-commit validation failed:

[DIALYZER]
lib/shop/trace.ex:57:13:pattern_match
The pattern can never match the type.
Fix these issues before committing.
"""


def _told(*steps: Event | list[Event], latest_turn: int = 1) -> ConversationReport:
    events: list[Event] = [SessionInfo(turn=0, cwd=ROOT)]
    for step in steps:
        events += step if isinstance(step, list) else [step]
    report = session_report(Tracker(format="claude-code").feed_all(events))
    latest = next((m for m in report.user_messages if m.turn == latest_turn), None)
    return conversation_report(report, events, latest=latest, since=latest_turn, current=[])


def test_a_rerun_is_an_attempt_by_the_options_it_added_not_by_words_inside_quotes() -> None:
    # The shell layer reads the command: "--force" inside the commit message is no option.
    commit = "git commit -m 'Trace requests, no --force needed' 2>&1 | tail -20"
    told = _told(
        UserMessage(turn=1, text="Commit the tracing."),
        edit(2, f"{ROOT}/lib/shop/trace.ex"),
        shell(3, commit, REFUSED, ok=False),
        shell(4, commit.replace("commit", "commit --no-verify", 1), REFUSED, ok=False),
    )
    [attempts] = told.attempts.values()
    assert [a.text for a in attempts] == ["re-ran with `--no-verify`"]


def test_an_option_named_in_a_comment_of_the_rerun_is_not_one_it_added() -> None:
    # Read as bash reads it, "# then --no-verify" is a comment: the rerun changed a file, nothing more.
    commit = "git commit -m 'Trace requests'"
    told = _told(
        UserMessage(turn=1, text="Commit the tracing."),
        edit(2, f"{ROOT}/lib/shop/trace.ex"),
        shell(3, commit, REFUSED, ok=False),
        edit(4, f"{ROOT}/lib/shop/trace.ex"),
        shell(5, commit + "  # else --no-verify", REFUSED, ok=False),
    )
    [attempts] = told.attempts.values()
    assert [a.text for a in attempts] == ["changed its file"]


def test_the_last_message_is_the_main_agents_and_interruptions_are_the_persons() -> None:
    told = _told(
        UserMessage(turn=1, text="Fix the cart total."),
        AssistantMessage(turn=2, text="The total is rounded too early; moving the rounding."),
        UserMessage(turn=3, text="[Request interrupted by user]", synthetic=True),
        AssistantMessage(turn=4, text="A sub-agent's note.", sidechain="agent-1"),
    )
    assert told.last_assistant is not None
    assert told.last_assistant.text.startswith("The total is rounded too early")
    assert [(m.turn, m.text, m.channel) for m in told.interruptions] == [
        (3, "stopped the agent", "interrupt")
    ]


def test_without_events_nothing_is_told() -> None:
    empty = ConversationReport()
    assert empty.last_assistant is None and empty.attempts == {} and empty.thread_calls == 0
