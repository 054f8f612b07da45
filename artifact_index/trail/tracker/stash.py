"""The whole working tree at once: ``git reset --hard``, ``git stash`` and bringing a stash back."""

from __future__ import annotations

from typing import Any

from artifact_index.shell.git import STASHED_WITH_UNTRACKED
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.tracker.file_state import is_stash, mark_restored, snapshot

__all__ = ["restore_all", "stash_entry", "unstash"]


def restore_all(index: ArtifactIndex, op_node: str, call_id: str, detail: str | None) -> None:
    """The whole working tree back to HEAD (``git reset --hard``, ``git stash``).

    A stash keeps what it put away, so a later ``git stash pop`` brings
    it back; ``git stash -u`` also puts away the files the session created.
    """
    stash = stash_entry(index.meta, call_id) if is_stash(detail) else None
    untracked = detail == STASHED_WITH_UNTRACKED
    for node, data in list(index.nodes_of_kind("file")):
        if data["changed"] and data["existed_before"] is not False:
            if stash is not None:
                stash[str(data["path"])] = snapshot(data)
            mark_restored(data)
        elif stash is not None and untracked and data["existed_before"] is False and data["exists"]:
            stash[str(data["path"])] = snapshot(data)
            data["exists"] = False
            data["content"] = None
        else:
            continue
        index.fed_graph.add_edge(op_node, node, kind="touched", action="restore")


def stash_entry(meta: dict[str, Any], call_id: str) -> dict[str, Any]:
    """The files of the stash ``call_id`` makes (one command may stash path by path)."""
    stashes: list[dict[str, Any]] = meta.setdefault("stashes", [])
    if not stashes or stashes[-1]["call_id"] != call_id:
        stashes.append({"call_id": call_id, "files": {}})
    files: dict[str, Any] = stashes[-1]["files"]
    return files


def unstash(index: ArtifactIndex, op_node: str, detail: str | None) -> set[str]:
    """``git stash pop`` / ``apply`` bring the latest stash back; ``drop`` / ``clear`` forget it."""
    stashes: list[dict[str, Any]] = index.meta.setdefault("stashes", [])
    if detail == "clear":
        stashes.clear()
        return set()
    if not stashes:
        # A stash made before the session: what it holds is not known.
        index.fed_graph.nodes[op_node].update(
            action="unknown",
            detail=f"git stash {detail} brings back a stash from before the session",
        )
        return set()
    entry = stashes[-1] if detail == "apply" else stashes.pop()
    if detail == "drop":
        return set()
    touched = set()
    for key, saved in entry["files"].items():
        node = f"file:{key}"
        if node in index.fed_graph:
            index.fed_graph.nodes[node].update(saved)
            index.fed_graph.add_edge(op_node, node, kind="touched", action="unstash")
            touched.add(key)
    return touched
