"""The whole working tree at once: ``git reset --hard``, ``git stash`` and bringing a stash back."""

from __future__ import annotations

from collections.abc import Callable

from artifact_index.shell.git import STASHED_WITH_UNTRACKED
from artifact_index.trail.file_state import FileState, is_stash
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.paths import is_absolute, join
from artifact_index.trail.session_state import SessionState, Stash
from artifact_index.trail.work_state import committed_per_status

__all__ = ["restore_all", "stash_entry", "unstash"]


def restore_all(
    index: ArtifactIndex, op_node: str, call_id: str, detail: str | None, where: str | None
) -> None:
    """The whole working tree back to HEAD (``git reset --hard``, ``git stash``), run in ``where``.

    A stash keeps what it put away, so a later ``git stash pop`` brings
    it back; ``git stash -u`` also puts away the files the session created.
    A file whose last change a commit holds is as HEAD has it: neither touches it.
    Nor does either touch a file outside the repository: one outside the
    workspace (``~/.claude/.../MEMORY.md``, a cache) is left alone unless git
    ran outside the workspace too, in a folder holding it.
    """
    stash = stash_entry(index.session, call_id) if is_stash(detail) else None
    untracked = detail == STASHED_WITH_UNTRACKED
    # Back to HEAD itself (not `git reset --hard origin/main`, which moves HEAD too).
    to_head = stash is not None or detail == "git reset --hard"
    committed = index.session.work.committed_at
    outside = _outside_repository(index, where)
    for file in list(index.file_states()):
        if outside(file.path):
            continue
        if to_head and file.changed and _held_by_head(index, file, committed):
            # HEAD has its change (a commit after its last change holds it, or a status printed since
            # lists it no more): going back to HEAD leaves the file as it is, and a stash does not take it.
            continue
        if file.changed and file.existed_before is not False:
            if stash is not None:
                stash.files[file.path] = file.snapshot()
            file.mark_restored()
        elif stash is not None and untracked and file.existed_before is False and file.exists:
            stash.files[file.path] = file.snapshot()
            file.gone()
        else:
            continue
        index.fed_graph.add_edge(op_node, f"file:{file.path}", kind="touched", action="restore")


def _outside_repository(index: ArtifactIndex, where: str | None) -> Callable[[str], bool]:
    """Whether a file's key lies outside the repository git ran in at ``where``."""
    root = index.session.root
    if not root:
        return lambda key: False  # no workspace to tell inside from outside
    inside_root = root.rstrip("/") + "/"
    if not where or not is_absolute(where) or (where.rstrip("/") + "/").startswith(inside_root):
        # Git ran in the workspace (or where is not known): its files are the workspace's.
        return is_absolute
    # Git ran elsewhere: its repository holds what lies under that folder (the workspace too,
    # when the folder holds it).
    elsewhere = where.rstrip("/") + "/"
    return lambda key: not (key if is_absolute(key) else join(root, key)).startswith(elsewhere)


def _held_by_head(index: ArtifactIndex, file: FileState, committed: dict[str, int]) -> bool:
    last = index.last_change(file.path)
    return committed.get(file.path, -1) >= last or committed_per_status(
        index, file.path, file.existed_before is False, last
    )


def stash_entry(session: SessionState, call_id: str) -> Stash:
    """The stash ``call_id`` makes (one command may stash path by path)."""
    stashes = session.stashes
    if not stashes or stashes[-1].call_id != call_id:
        stashes.append(Stash(call_id=call_id))
    return stashes[-1]


def unstash(index: ArtifactIndex, op_node: str, detail: str | None) -> set[str]:
    """``git stash pop`` / ``apply`` bring the latest stash back; ``drop`` / ``clear`` forget it."""
    stashes = index.session.stashes
    if detail == "clear":
        stashes.clear()
        return set()
    if detail == "drop" and not stashes:
        return set()  # it forgets a stash, whosever it was: the working tree stays as it is
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
    for key, saved in entry.files.items():
        file = index.file_state(key)
        if file is not None:
            file.bring_back(saved)
            index.fed_graph.add_edge(op_node, f"file:{key}", kind="touched", action="unstash")
            touched.add(key)
    return touched
