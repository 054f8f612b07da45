"""Everything the events tell beyond the index, answered at once: the query the summarizer asks.

:func:`conversation_report` runs each query of this package over the
session's events, given what the index already answered
(:class:`~artifact_index.trail.session_report.SessionReport`) and where the
reader's current thread starts.  Where that thread starts (the user's latest
request, the turn since which changes are the thread's) is the reader's
choice, so it is passed in rather than decided here.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from artifact_index.ingestion.events import Event
from artifact_index.trail.answers import FileReport
from artifact_index.trail.conversation.agent_findings import findings
from artifact_index.trail.conversation.agent_lessons import lessons
from artifact_index.trail.conversation.background_agents import background_agents
from artifact_index.trail.conversation.change_accounts import change_account
from artifact_index.trail.conversation.error_attempts import failed_attempts
from artifact_index.trail.conversation.interrupted import interruptions
from artifact_index.trail.conversation.question_answers import answered_questions
from artifact_index.trail.conversation.recent_calls import (
    last_message,
    message_before,
    recent_activity,
    recent_messages,
    thread_since,
)
from artifact_index.trail.conversation.request_followup import request_items
from artifact_index.trail.conversation.search_results import searches_since
from artifact_index.trail.conversation.told import (
    Activity,
    Answer,
    Attempt,
    BackgroundAgent,
    ChangeAccount,
    RequestItem,
    Search,
)
from artifact_index.trail.session_report import SessionReport
from artifact_index.trail.session_state import AssistantSaid, UserSaid

__all__ = ["ConversationReport", "conversation_report"]


class ConversationReport(BaseModel):
    """What the agent's words and the tools' output tell of a session (empty when no events were read)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    # What was tried against each open error since it first appeared, by the error's signature.
    attempts: dict[str, list[Attempt]] = Field(default_factory=dict)
    # What the agent said the last change of each file of the current thread did, by path.
    accounts: dict[str, ChangeAccount] = Field(default_factory=dict)
    # The last tool calls, and the agent's last messages, oldest first.
    activity: list[Activity] = Field(default_factory=list)
    recent_messages: list[AssistantSaid] = Field(default_factory=list)
    # The main agent's last message (a sub-agent's is not where the session stopped); the same field as
    # the index's report, which keeps the last message of any agent.
    last_assistant: AssistantSaid | None = None
    # What the agent established, in its words.
    findings: list[AssistantSaid] = Field(default_factory=list)
    # The agent's message the user's latest request replied to ("Let's do option 2", "Proceed."): what the
    # request refers to, in the agent's words.
    replied_to: AssistantSaid | None = None
    # The current thread: the agent's messages and how many tool calls it made since the
    # user's latest request.
    thread_messages: list[AssistantSaid] = Field(default_factory=list)
    thread_calls: int = 0
    # The latest request's numbered items, each followed.
    request_items: list[RequestItem] = Field(default_factory=list)
    # What the current thread's searches matched.
    searches: list[Search] = Field(default_factory=list)
    # Constraints of the project the agent ran into and acted on.
    lessons: list[AssistantSaid] = Field(default_factory=list)
    # The times the person stopped the agent, and their replies to its numbered questions.
    interruptions: list[UserSaid] = Field(default_factory=list)
    answers: list[Answer] = Field(default_factory=list)
    # The sub-agents launched in the background, in launch order.
    background: list[BackgroundAgent] = Field(default_factory=list)


def conversation_report(
    report: SessionReport,
    events: Sequence[Event],
    *,
    latest: UserSaid | None,
    since: int,
    current: Sequence[FileReport],
) -> ConversationReport:
    """What ``events`` tell beyond ``report``, the index's answer for the same session.

    ``latest``: the user's latest request; ``since``: the turn the current
    thread started; ``current``: the files it changed (their accounts are
    looked for).
    """
    said, calls = thread_since(events, latest.turn if latest is not None else 0)
    accounts = {}
    for f in current:
        found = change_account(events, f, since)
        if found:
            accounts[f.path] = found
    return ConversationReport(
        background=background_agents(events),
        attempts={
            e.signature: failed_attempts(events, e, report.changed)
            for e in report.errors
            if not e.resolved
        },
        accounts=accounts,
        activity=recent_activity(events, root=report.root),
        recent_messages=recent_messages(events),
        last_assistant=last_message(events),
        findings=findings(events),
        replied_to=message_before(events, latest.turn) if latest is not None else None,
        thread_messages=said,
        thread_calls=calls,
        request_items=request_items(events, latest, report.changed, report.tasks),
        answers=answered_questions(events),
        searches=searches_since(events, since, report.root),
        interruptions=interruptions(events),
        lessons=lessons(events),
    )
