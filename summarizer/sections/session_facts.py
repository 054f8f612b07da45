"""The one place the summarizer asks the engine for a session's facts (the index's, and the events' when given).

The index answers everything it knows in one report
(:func:`~artifact_index.trail.session_report.session_report`); the events
add only what the index does not keep, the agent's words and the tools'
output, answered by the engine's
:func:`~artifact_index.trail.conversation.conversation_report.conversation_report`
(see :class:`~summarizer.sections.summary_facts.SessionFacts`).  A hook that
has only a saved index gets the index's report alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from artifact_index.ingestion.events import Event
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.conversation.conversation_report import (
    ConversationReport,
    conversation_report,
)
from artifact_index.trail.conversation.picked_answers import picked_answers
from artifact_index.trail.file_reports import ReportCache
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.session_report import session_report
from artifact_index.trail.session_state import UserSaid
from summarizer.sections.file_lists import latest_files
from summarizer.sections.latest_code import latest_code
from summarizer.sections.summary_facts import SessionFacts
from summarizer.sections.thread import latest_request, thread_start
from summarizer.sections.user_words import in_own_words

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
    # The report's fields are validated already (and frozen): constructed, not validated again,
    # so a hook builds no validator for the facts' hundred fields (a twentieth of its start-up).
    facts = SessionFacts.model_construct(
        **{name: getattr(report, name) for name in type(report).model_fields}
    )
    facts = facts.model_copy(
        # The user's own words: a host app's wrappers off (notices never got here: the adapter marks them).
        update={
            "user_messages": [_without_harness_note(m) for m in in_own_words(facts.user_messages)]
        }
    )
    since = thread_start(facts)
    changed = [*facts.created, *facts.modified]
    current = [f for f in changed if any(t >= since for t in f.changed_turns)]
    if not current:
        # The thread changed nothing yet (the user asks about the change just made): the session's latest
        # changes are what the next agent continues from, their code and the agent's account of them too.
        latest_paths = latest_files(changed, 0)
        current = [f for f in changed if f.path in latest_paths]
    facts = facts.model_copy(update={"latest_code": latest_code(current)})
    if events is None:
        return facts
    told = conversation_report(
        report,
        events,
        latest=latest_request(facts.user_messages),
        since=since,
        current=current,
    )
    update: dict[str, object] = {
        name: getattr(told, name) for name in ConversationReport.model_fields
    }
    update["last_assistant"] = told.last_assistant or facts.last_assistant
    # Choices the user picked in the agent's question tool: answers as much as a typed reply to numbered questions.
    update["answers"] = sorted(
        [*told.answers, *picked_answers(events)], key=lambda answer: answer.turn
    )
    return facts.model_copy(update=update)
