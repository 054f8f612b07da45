"""What a summary states: the index's report of the session, and what only the events tell.

Both sides are the engine's own models, taken as they are: the index's
:class:`~artifact_index.trail.session_report.SessionReport` (files, errors,
tests, tasks, git work...) and, when the events were read, its
:class:`~artifact_index.trail.conversation.conversation_report.ConversationReport`
(the agent's words and the tools' output: the last calls and how they
ended, the agent's latest messages and findings, the current thread, what
was tried against an open error, what the agent said each change did, the
numbered items of the latest request, searches, answers, interruptions,
lessons).  :class:`SessionFacts` holds both, and the key code of the
current changes the summary bounds;
:func:`~summarizer.sections.session_facts.session_facts` builds it, and
everything downstream (index sections, the narrative prompt, the offline
narrative, the consistency check) works on it.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from artifact_index.trail.conversation.conversation_report import ConversationReport
from artifact_index.trail.session_report import SessionReport

__all__ = ["LatestCode", "SessionFacts"]


class LatestCode(BaseModel):
    """The new text the last change of a file of the current thread wrote, bounded (see summarizer.sections.latest_code)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    turn: int
    text: str
    lines_left_out: int = 0


class SessionFacts(SessionReport, ConversationReport):
    """The index's report, with what the events tell (empty when the summary has only the index).

    ``last_assistant`` is the main agent's last message when the events were
    read, else the index's (the last message of any agent).
    """

    # The new text of the last change of each file of the current thread, by path (from the index).
    latest_code: dict[str, LatestCode] = Field(default_factory=dict)
    # What each change does and why, one line per changed path, when an LLM wrote them (the narrative's).
    file_notes: dict[str, str] = Field(default_factory=dict)
