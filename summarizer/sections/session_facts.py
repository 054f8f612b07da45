"""The one place the summarizer reads the index (and, when it has them, the events).

The index answers everything it knows in one report
(:func:`~artifact_index.trail.session_report.session_report`); the events
add only what the index does not keep: the agent's words and the tools'
output (see :class:`~summarizer.sections.summary_facts.SessionFacts`).  A hook that
has only a saved index gets the index's report alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from artifact_index.ingestion.events import Event
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.file_reports import ReportCache
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.session_report import session_report
from artifact_index.trail.session_state import UserSaid
from summarizer.sections.activity import (
    last_message,
    message_before,
    recent_activity,
    recent_messages,
    thread_since,
)
from summarizer.sections.attempts import failed_attempts
from summarizer.sections.background import background_agents
from summarizer.sections.change_account import change_account
from summarizer.sections.file_lists import latest_files
from summarizer.sections.findings import findings
from summarizer.sections.interruptions import interruptions
from summarizer.sections.latest_code import latest_code
from summarizer.sections.lessons import lessons
from summarizer.sections.request_items import request_items
from summarizer.sections.search_matches import searches_since
from summarizer.sections.summary_facts import ChangeAccount, SessionFacts
from summarizer.sections.thread import latest_request, thread_start
from summarizer.sections.user_answers import answered_questions

__all__ = ["session_facts"]


# What Claude Code appends to the plan a user approves with "clear context" ("If you need specific details
# from before exiting plan mode ..., read the full transcript at: PATH"): the harness's pointer, not the user's
# words, and a path the agent that continues cannot use for the task.
_HARNESS_NOTE = lazy_pattern(
    r"\s*If you need specific details from before (?:exiting plan mode|compaction)\b[^\n]*\s*\Z"
)


def _without_harness_note(message: UserSaid) -> UserSaid:
    text = _HARNESS_NOTE.sub("", message.text)
    return (
        message if text == message.text or not text else message.model_copy(update={"text": text})
    )


def session_facts(
    index: ArtifactIndex, events: Sequence[Event] | None = None, *, kept: ReportCache | None = None
) -> SessionFacts:
    """What a summary states: the index's report, with what only ``events`` tell when given.

    ``kept``: the files' reports of an earlier run on the same growing session (see
    :class:`~artifact_index.trail.file_reports.ReportCache`).
    """
    report = session_report(index, kept)
    facts = SessionFacts(**{name: getattr(report, name) for name in type(report).model_fields})
    facts = facts.model_copy(
        update={"user_messages": [_without_harness_note(m) for m in facts.user_messages]}
    )
    since = thread_start(facts)
    changed = [*facts.created, *facts.modified]
    current = [f for f in changed if any(t >= since for t in f.changed_turns)]
    if not current:
        # The thread changed nothing yet (the user asks about the change just made): the session's latest
        # changes are what the next agent continues from, their code and the agent's account of them too.
        latest_paths = latest_files(changed, 0)
        current, since = [f for f in changed if f.path in latest_paths], 0
    facts = facts.model_copy(update={"latest_code": latest_code(current)})
    if events is None:
        return facts
    latest = latest_request(facts.user_messages)
    said, calls = thread_since(events, latest.turn if latest is not None else 0)
    accounts = {}
    for f in current:
        found = change_account(events, f, since)
        if found:
            accounts[f.path] = ChangeAccount(turn=found[0], text=found[1])
    return facts.model_copy(
        update={
            "background": background_agents(events),
            "attempts": {
                e.signature: failed_attempts(events, e, facts.changed)
                for e in facts.errors
                if not e.resolved
            },
            "accounts": accounts,
            "activity": recent_activity(events, root=facts.root),
            "recent_messages": recent_messages(events),
            # The main agent's, not a sub-agent's: where the agent that continues stopped.
            "last_assistant": last_message(events) or facts.last_assistant,
            "findings": findings(events),
            "replied_to": message_before(events, latest.turn) if latest is not None else None,
            "thread_messages": said,
            "thread_calls": calls,
            "request_items": request_items(events, latest, facts.changed, facts.tasks),
            "answers": answered_questions(events),
            "searches": searches_since(events, since, facts.root),
            "interruptions": interruptions(events),
            "lessons": lessons(events),
        }
    )
