"""What a summary states: the index's report of the session, and what only the events tell.

The index's side is the engine's own :class:`~artifact_index.trail.session_report.SessionReport`
(files, errors, tests, tasks, git work...), taken as it is.  The events add
what the index does not keep, the agent's words and the tools' output: the
last calls and how they ended, the agent's latest messages and findings,
the current thread, what was tried against an open error, what the agent
said each change did, the numbered items of the latest request, searches,
answers, interruptions, lessons.  :class:`SessionFacts` holds both;
:func:`~summarizer.sections.session_facts.session_facts` builds it, and
everything downstream (index sections, the narrative prompt, the offline
narrative, the consistency check) works on it.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from artifact_index.trail.session_report import SessionReport
from artifact_index.trail.session_state import AssistantSaid, UserSaid

__all__ = [
    "Activity",
    "Answer",
    "AnsweredQuestion",
    "Attempt",
    "BackgroundAgent",
    "ChangeAccount",
    "LatestCode",
    "LeftBehind",
    "RequestItem",
    "Search",
    "SessionFacts",
]


class _Told(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)


class Attempt(_Told):
    """What the session did between two runs that showed the same error: it did not resolve it."""

    turn: int
    text: str  # the agent's words announcing it, the files it changed, the options the rerun added


class ChangeAccount(_Told):
    """What the agent said a file's last change did, and when (for the files of the current thread)."""

    turn: int
    text: str


class LatestCode(_Told):
    """The new text the last change of a file of the current thread wrote, bounded (see summarizer.sections.latest_code)."""

    turn: int
    text: str
    lines_left_out: int = 0


class AnsweredQuestion(_Told):
    number: int
    question: str  # the agent's question, by its title and the sentence that asks
    answer: str  # the user's answer, in their words


class Answer(_Told):
    """The user's reply that answered the agent's numbered questions, each answer beside its question."""

    turn: int
    asked_turn: int
    answers: list[AnsweredQuestion]


class Search(_Told):
    """A search of the current thread and the places it matched (``path:line``, or paths)."""

    turn: int
    query: str
    places: list[str]
    # The places' files a later call of the agent named (a read, an edit, a command or search over them).
    looked_at: list[str] = []


class LeftBehind(_Told):
    """A file changed before the session switched branches, which the latest ``git status`` no longer lists."""

    path: str
    switch_turn: int
    branch: str  # the branch switched to


class Activity(_Told):
    """One of the last tool calls before the summary: what was done, and how it ended."""

    turn: int
    tool: str
    target: str  # the command, or the file, or the arguments in short
    status: str  # success, failure, unknown, pending (no result yet)
    output: str = ""  # the tail of its output
    lines: tuple[int, int] | None = (
        None  # the lines a read of part of a file asked for, first and last
    )


class BackgroundAgent(_Told):
    """A sub-agent the agent launched to work in the background, and its completion notice when one came.

    Its own tool calls are in its own transcript, not in the session's: what it changed is known here only
    from what its report says.
    """

    turn: int  # launched
    description: str
    finished_turn: int | None = None  # the turn of its completion notice; None: none seen
    status: str | None = None  # as the notice says: completed, failed, killed
    result: str = ""  # its report, as the notice quotes it
    paths: list[str] = []  # the files its report names


class RequestItem(_Told):
    """One item of the latest request's numbered list, and what the session's words and changes since say of it."""

    number: int
    text: str
    status: str  # done, checked, in progress, edited, then moved on, changed, no evidence either way, not started
    evidence: str  # the agent's sentence (and turn), or what named it
    changes: list[str] = []  # the changes since the request to what it names


class SessionFacts(SessionReport):
    """The index's report, with what the events tell (empty when the summary has only the index)."""

    # What was tried against each open error since it first appeared, by the error's signature.
    attempts: dict[str, list[Attempt]] = Field(default_factory=dict)
    # What the agent said the last change of each file of the current thread did, by path.
    accounts: dict[str, ChangeAccount] = Field(default_factory=dict)
    # The last tool calls, and the agent's last messages, oldest first.
    activity: list[Activity] = Field(default_factory=list)
    recent_messages: list[AssistantSaid] = Field(default_factory=list)
    # What the agent established, in its words.
    findings: list[AssistantSaid] = Field(default_factory=list)
    # The agent's message the user's latest request replied to ("Let's do option 2", "Proceed."): what the
    # request refers to, in the agent's words.
    replied_to: AssistantSaid | None = None
    # The current thread: the agent's messages and how many tool calls it made since the
    # user's latest request (see summarizer.sections.thread).
    thread_messages: list[AssistantSaid] = Field(default_factory=list)
    thread_calls: int = 0
    # The latest request's numbered items, each followed.
    request_items: list[RequestItem] = Field(default_factory=list)
    # What the current thread's searches matched.
    searches: list[Search] = Field(default_factory=list)
    # Changes left on the branch switched away from.
    left_behind: list[LeftBehind] = Field(default_factory=list)
    # Constraints of the project the agent ran into and acted on.
    lessons: list[AssistantSaid] = Field(default_factory=list)
    # The times the person stopped the agent, and their replies to its numbered questions.
    interruptions: list[UserSaid] = Field(default_factory=list)
    answers: list[Answer] = Field(default_factory=list)
    # The new text of the last change of each file of the current thread, by path.
    latest_code: dict[str, LatestCode] = Field(default_factory=dict)
    # What each change does and why, one line per changed path, when an LLM wrote them (the narrative's).
    file_notes: dict[str, str] = Field(default_factory=dict)
    # The sub-agents launched in the background, in launch order (see summarizer.sections.background).
    background: list[BackgroundAgent] = Field(default_factory=list)
