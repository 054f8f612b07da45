"""Whose change is it: a change seen in the working tree, set against the calls that ran meanwhile.

Some harnesses record what changed in the checkout while a step ran (an
OpenCode ``patch`` part lists the files its snapshot saw change).  That is
what happened to the working tree, not what the session did: the user, an
editor or another agent working in the same checkout changes files too, and
``git stash`` / ``git checkout -- .`` by anyone puts changes back.  Such a
change (a :class:`~artifact_index.ingestion.events.ReportedChange` with
``seen_during``) is the session's only when one of the calls that ran
meanwhile could have made it:

* a call that named the file already recorded its own change (``named``),
  unless it could only say that the file *may* have changed (``npm
  install`` and its lock file): the snapshot settles that it did;
* a file under a directory one of the calls removed (``rm -r``) was deleted;
* a call that may change files it does not name (a script whose text is not
  known, an unknown program, a sub-agent) may have made it (``open``);
* otherwise the session did not make it: it is recorded as seen, with its
  evidence, and never counted as the session's change.

The calls of the current turn are kept in ``SessionState.step_calls`` (what
each named, and whether it was open); a snapshot is judged against the calls
it lists, which ran in the same turn.
"""

from __future__ import annotations

from typing import Literal

from artifact_index.trail.session_state import SeenChange, SessionState, StepCall

__all__ = ["Verdict", "judge", "note_call", "record_seen"]

Verdict = Literal["made", "confirmed", "deleted", "directory", "maybe", "seen"]


def note_call(
    session: SessionState, call_id: str, turn: int, named: dict[str, str], open_effects: bool
) -> None:
    """Remember what the call ``call_id`` of ``turn`` named (key -> action) and whether it was open."""
    calls = session.step_calls
    if any(entry.turn != turn for entry in calls.values()):
        calls.clear()  # a snapshot is judged against the calls of its own turn
    if named or open_effects:  # a call that did neither explains nothing: it need not be kept
        calls[call_id] = StepCall(turn=turn, open=open_effects, named=named)


def judge(session: SessionState, during: tuple[str, ...], key: str, is_directory: bool) -> Verdict:
    """Whether the change of ``key`` seen while the calls ``during`` ran is the session's.

    ``made``: a call changed it and recorded so; ``confirmed``: a call said it
    may change it; ``deleted``: a call removed the directory that held it;
    ``directory``: it is a directory (its files are judged one by one);
    ``maybe``: an open call may have made it; ``seen``: no call could have.
    """
    calls = [c for c in (session.step_calls.get(call_id) for call_id in during) if c]
    actions = [c.named[key] for c in calls if key in c.named]
    if any(action != "unknown" for action in actions):
        return "made"
    if actions:
        return "confirmed"
    for call in calls:
        for named, action in call.named.items():
            if action == "delete" and key.startswith(named.rstrip("/") + "/"):
                return "deleted"
    # A call that may have changed files under a folder it names (a project-wide formatter's
    # `ultracite fix`, the workspace itself being ".") may have made a change seen there.
    if any(
        action == "unknown" and _under(key, named)
        for c in calls
        for named, action in c.named.items()
    ):
        return "confirmed"
    if is_directory:
        return "directory"
    if any(call.open for call in calls):
        return "maybe"
    return "seen"


def _under(key: str, folder: str) -> bool:
    """Whether the file ``key`` lies in the folder key ``folder`` ("." is the workspace's)."""
    if folder == ".":
        return not key.startswith(("/", "../")) and not (len(key) > 1 and key[1] == ":")
    return key.startswith(folder.rstrip("/") + "/")


def record_seen(
    session: SessionState, key: str, turn: int, call_id: str, change: str, evidence: str
) -> None:
    """Note a change of ``key`` the session did not make, with what showed it."""
    session.seen_not_made.append(
        SeenChange(path=key, turn=turn, call_id=call_id, change=change, evidence=evidence)
    )
