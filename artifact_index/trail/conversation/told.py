"""What the agent's words and the tools' output tell, as engine models (see :mod:`artifact_index.trail.conversation`).

Each model is one kind of fact a query of this package answers: what was
tried against an open error, what the agent said a change did, the user's
answers to numbered questions, what a search matched, the last calls and
how they ended, the sub-agents launched in the background, and how the
latest request's numbered items were followed.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

__all__ = [
    "Activity",
    "Answer",
    "AnsweredQuestion",
    "Attempt",
    "BackgroundAgent",
    "ChangeAccount",
    "RequestItem",
    "Search",
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
