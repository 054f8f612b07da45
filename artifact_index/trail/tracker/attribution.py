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

The calls of the current turn are kept in ``meta["step_calls"]`` (what each
named, and whether it was open); a snapshot is judged against the calls it
lists, which ran in the same turn.
"""

from __future__ import annotations

from typing import Any, Literal

__all__ = ["Verdict", "judge", "note_call", "record_seen", "seen_changes"]

Verdict = Literal["made", "confirmed", "deleted", "directory", "maybe", "seen"]

_STEP_CALLS = "step_calls"
_SEEN = "seen_not_made"


def note_call(
    meta: dict[str, Any], call_id: str, turn: int, named: dict[str, str], open_effects: bool
) -> None:
    """Remember what the call ``call_id`` of ``turn`` named (key -> action) and whether it was open."""
    calls: dict[str, Any] = meta.setdefault(_STEP_CALLS, {})
    if any(entry.get("turn") != turn for entry in calls.values()):
        calls.clear()  # a snapshot is judged against the calls of its own turn
    calls[call_id] = {"turn": turn, "open": open_effects, "named": named}


def judge(meta: dict[str, Any], during: tuple[str, ...], key: str, is_directory: bool) -> Verdict:
    """Whether the change of ``key`` seen while the calls ``during`` ran is the session's.

    ``made``: a call changed it and recorded so; ``confirmed``: a call said it
    may change it; ``deleted``: a call removed the directory that held it;
    ``directory``: it is a directory (its files are judged one by one);
    ``maybe``: an open call may have made it; ``seen``: no call could have.
    """
    calls = [c for c in (meta.get(_STEP_CALLS, {}).get(call_id) for call_id in during) if c]
    actions = [c["named"][key] for c in calls if key in c["named"]]
    if any(action != "unknown" for action in actions):
        return "made"
    if actions:
        return "confirmed"
    for call in calls:
        for named, action in call["named"].items():
            if action == "delete" and key.startswith(named.rstrip("/") + "/"):
                return "deleted"
    if is_directory:
        return "directory"
    if any(call["open"] for call in calls):
        return "maybe"
    return "seen"


def record_seen(
    meta: dict[str, Any], key: str, turn: int, call_id: str, change: str, evidence: str
) -> None:
    """Note a change of ``key`` the session did not make, with what showed it."""
    seen: list[dict[str, Any]] = meta.setdefault(_SEEN, [])
    seen.append(
        {"path": key, "turn": turn, "call_id": call_id, "change": change, "evidence": evidence}
    )


def seen_changes(meta: dict[str, Any]) -> list[dict[str, Any]]:
    """Every change seen but not made by the session, in order."""
    return list(meta.get(_SEEN, []))
