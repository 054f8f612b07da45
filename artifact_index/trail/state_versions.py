"""The versions of a saved tracker state, and how an older one is brought up to the current one.

A live session's state outlives the code that wrote it (a hook saves it,
the next release resumes it), so a state of an earlier version is upgraded
on load, one version at a time, rather than refused:

1. the first version: the session's facts in one untyped ``meta`` object,
   each file's state in the attributes of its graph node;
2. the session's facts as a :class:`~artifact_index.trail.session_state.SessionState`
   (``session``), each file's state as a
   :class:`~artifact_index.trail.file_state.FileState` (``files``), the
   graph's file nodes holding only their kind and key;
3. each file's state with the text its latest change wrote
   (``latest_write``), the work record with the branch switches it saw
   (``switches``), and the files commands said they may change, not yet
   settled by a status (``possible_changes``).  A state of version 2 kept
   none of these: upgraded, it has none, and a file's latest text is known
   again from its next change;
4. each file's exactly placed edits since it was last as before the session
   (``edit_trail``, see :mod:`artifact_index.trail.edit_shapes`).  A state of
   version 3 did not keep them: upgraded, a file's trail is unknown (None)
   until it is put back, so no later edit is taken to undo an earlier one.

Each step works on the JSON data and leaves validating it to the loader.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypedDict

from artifact_index.exceptions import StateError
from artifact_index.ingestion.events import JSONObject
from artifact_index.trail.graph import NodeLinkData

__all__ = ["STATE_VERSION", "IndexState", "upgraded"]

STATE_VERSION = 4


class IndexState(TypedDict):
    """A whole index as saved (:meth:`~artifact_index.trail.index.ArtifactIndex.to_state`), at the current version.

    ``session``, ``files`` and ``ledger`` are the JSON of their models
    (:class:`~artifact_index.trail.session_state.SessionState`,
    :class:`~artifact_index.trail.file_state.FileState`,
    :class:`~artifact_index.facts.errors.ledger.ErrorLedger`); an older
    version is upgraded on load (:func:`upgraded`).
    """

    version: int
    session: JSONObject
    files: list[JSONObject]
    graph: NodeLinkData
    ledger: JSONObject


# A saved state of an earlier version, as read from disk: its nested parts are whatever the
# file holds, so a step reads them unchecked and upgraded() turns the KeyError, TypeError or
# AttributeError of a malformed one into a StateError.
_SavedState = dict[str, Any]

# What each step needs to read: an object of the version it upgrades from.
_Step = Callable[[_SavedState], _SavedState]

# The keys of the first version's ``meta`` that kept the same name and shape.
_V1_SESSION_KEYS = frozenset(
    {
        "format",
        "root",
        "session_id",
        "model",
        "agent",
        "version",
        "cwd",
        "events",
        "seen_events",
        "op_count",
        "orphan_results",
        "pending",
        "listed_directories",
        "directories",
        "cleared_directories",
        "scratch",
        "user_messages",
        "last_assistant",
        "compactions",
        "decision_count",
        "task_lists",
        "check_runs",
        "error_symbols",
        "git",
        "work",
        "stashes",
        "submission",
    }
)
# The first version's issue-tracker keys, now parts of one record.
_V1_WORK_ITEM_KEYS = {"work_items": "items", "tracker_listing": "listing", "listed_items": "seen"}
_V1_FILE_NODE_KEYS = frozenset({"kind", "path", "id"})


def _from_v1(payload: _SavedState) -> _SavedState:
    meta = payload["meta"]
    if not isinstance(meta, dict):
        raise StateError("saved state of version 1 has no meta object")
    unknown = sorted(meta.keys() - _V1_SESSION_KEYS - _V1_WORK_ITEM_KEYS.keys())
    if unknown:
        raise StateError(f"saved state of version 1 holds {unknown[0]!r}, which no version kept")
    session = {key: value for key, value in meta.items() if key in _V1_SESSION_KEYS}
    session["work_items"] = {
        new: meta[old] for old, new in _V1_WORK_ITEM_KEYS.items() if meta.get(old) is not None
    }
    for stash in session.get("stashes") or []:
        for saved in stash.get("files", {}).values():
            saved["windows"] = saved.get("windows") or []
    files = []
    for node in payload["graph"]["nodes"]:
        if node.get("kind") != "file":
            continue
        files.append({key: value for key, value in node.items() if key not in ("kind", "id")})
        for key in [key for key in node if key not in _V1_FILE_NODE_KEYS]:
            del node[key]
    return {
        "version": 2,
        "session": session,
        "files": files,
        "graph": payload["graph"],
        "ledger": payload["ledger"],
    }


def _from_v2(payload: _SavedState) -> _SavedState:
    for file in payload["files"]:
        file["latest_write"] = None
    session = payload["session"]
    session["possible_changes"] = {}
    work = session.get("work")
    if isinstance(work, dict):
        work["switches"] = []
    payload["version"] = 3
    return payload


def _from_v3(payload: _SavedState) -> _SavedState:
    for file in payload["files"]:
        file["edit_trail"] = None
    payload["version"] = 4
    return payload


# Step ``n`` upgrades a state of version ``n`` to version ``n + 1``.
_STEPS: dict[int, _Step] = {1: _from_v1, 2: _from_v2, 3: _from_v3}


def upgraded(payload: Any) -> _SavedState:
    """``payload`` as the current version holds it; :class:`StateError` when it is no saved state.

    ``payload`` is consumed: an upgrade moves its parts rather than copying them.
    """
    if not isinstance(payload, dict):
        raise StateError("saved state is not a valid artifact-index state (not a JSON object)")
    version = payload.get("version")
    if (
        not isinstance(version, int)
        or isinstance(version, bool)
        or not 1 <= version <= STATE_VERSION
    ):
        raise StateError(
            f"saved state has version {version!r}, expected {STATE_VERSION} or an earlier one"
        )
    current: _SavedState = payload
    try:
        while version < STATE_VERSION:
            current = _STEPS[version](current)
            version += 1
    except (KeyError, TypeError, AttributeError) as exc:
        raise StateError(
            f"saved state of version {version} is not a valid artifact-index state ({exc})"
        ) from exc
    return current
