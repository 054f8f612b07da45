"""Claims: each statement the index makes, with the evidence for it and how sure it is.

A reader acts on what the index states: that a file was modified, that an
error was resolved, that a test command last passed 12 tests, that a task is
in progress, that a commit holds three files.  One false line makes every
other line less trusted, so each statement carries

* its **evidence**: the call (its id and tool), the run (its command) and
  the turn that showed it, with what that showed in a few words;
* its **certainty**: ``seen`` when the session's own record shows it (a call
  and its recorded result: an edit that succeeded, a run whose output
  printed the count); ``inferred`` when a rule derived it from what was seen
  (a shell command's effects worked out from its words, an error resolved
  by a broader run of its checker, a commit's files from the staging
  model); ``unrecorded`` when a call bearing on it was issued and its result
  is not in the transcript.

The models the index answers with (:class:`Claimed`) hold these two beside
their values, outside their JSON contracts; :class:`Claim` is one statement
on its own, as :meth:`~artifact_index.trail.index.ArtifactIndex.claims`
lists them for an audit.  A rendering states what is ``seen`` plainly and
says of the rest what was seen.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Certainty", "Claim", "ClaimKind", "Claimed", "Evidence", "least_certain"]

Certainty = Literal["seen", "inferred", "unrecorded"]
ClaimKind = Literal[
    "file_status", "error_state", "test_state", "task_state", "count", "commit", "pending_call"
]

_ORDER: dict[Certainty, int] = {"seen": 0, "inferred": 1, "unrecorded": 2}


class Evidence(BaseModel):
    """One thing the session did or printed that a claim rests on."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    turn: int
    call_id: str | None = None  # the call
    tool: str | None = None
    command: str | None = None  # the run
    shows: str  # what it shows, in a few words: "edit succeeded", "failed", "3 passed"


class Claimed(BaseModel):
    """A model that states something: its certainty and evidence, kept out of its JSON contract."""

    model_config = ConfigDict(defer_build=True)

    certainty: Certainty = Field(default="seen", exclude=True)
    evidence: tuple[Evidence, ...] = Field(default=(), exclude=True)


class Claim(BaseModel):
    """One statement of the index on its own: what it is about, what it says, how sure, and why."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    kind: ClaimKind
    subject: str  # a path, an error's message, a test command, a task, a commit hash
    statement: str  # "modified", "resolved", "12 passed, 0 failed", "in_progress", "holds 3 files"
    certainty: Certainty
    evidence: tuple[Evidence, ...] = ()


def least_certain(*certainties: Certainty) -> Certainty:
    """The weakest of ``certainties`` (``seen`` when there are none): a claim is as sure as its weakest ground."""
    return max(certainties, key=_ORDER.__getitem__, default="seen")
