"""Every statement the index makes, one :class:`~artifact_index.facts.claims.Claim` each, for an audit.

The queries answer with models that carry their claims beside their values
(:class:`~artifact_index.facts.claims.Claimed`); :func:`claims` lists those
claims on their own, by kind: a file's status, an error's state, a test
command's last result and what its counts count, a task's state, what a
commit holds.  A reviewer checks each against the transcript by its
evidence.
"""

from __future__ import annotations

from artifact_index.facts.claims import Claim
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.work_state import work_state

__all__ = ["claims"]


def claims(index: ArtifactIndex) -> list[Claim]:
    """Every statement of the index's answers, files first, then errors, tests, tasks and commits."""
    found: list[Claim] = []
    for entry in index.files():
        if entry.status is not None:
            found.append(
                Claim(
                    kind="file_status",
                    subject=entry.path,
                    statement=entry.status,
                    certainty=entry.certainty,
                    evidence=entry.evidence,
                )
            )
    for call in index.pending_calls():
        found.append(
            Claim(
                kind="pending_call",
                subject=", ".join(call.paths) or call.command or call.tool,
                statement=f"{call.tool} issued, result not recorded",
                certainty=call.certainty,
                evidence=call.evidence,
            )
        )
    for error in index.errors():
        if error.resolved:
            state = f"resolved: {error.resolution}" if error.resolution else "resolved"
        elif error.pre_existing is not None:
            state = f"there before the session: {error.pre_existing}"
        else:
            state = "open"
        found.append(
            Claim(
                kind="error_state",
                subject=error.message.splitlines()[0] if error.message else error.kind,
                statement=state,
                certainty=error.certainty,
                evidence=error.evidence,
            )
        )
    for test in index.tests():
        state = test.outcome
        if test.superseded_by is not None:
            state += f"; a later run covering it passed (turn {test.superseded_turn})"
        found.append(
            Claim(
                kind="test_state",
                subject=test.command,
                statement=state,
                certainty=test.certainty,
                evidence=test.evidence,
            )
        )
        found.append(
            Claim(
                kind="count",
                subject=test.command,
                statement=(
                    f"{test.passed} passed, {test.failed} failed, {test.skipped} skipped"
                    + "".join(f", {n} {word}" for word, n in test.other)
                    + f" ({test.unit})"
                    if test.passed_shown
                    else f"{test.failed} failed, passed not shown ({test.unit})"
                ),
                certainty="seen",  # what its run printed, whatever came after
                evidence=test.evidence[:1],
            )
        )
    for task in index.tasks():
        found.append(
            Claim(
                kind="task_state",
                subject=task.content,
                statement=task.status,
                certainty=task.certainty,
                evidence=task.evidence,
            )
        )
    for commit in work_state(index).commits:
        held = (
            f"holds {len(commit.files)} file(s)"
            if commit.files is not None
            else "holds files not worked out"
        )
        found.append(
            Claim(
                kind="commit",
                subject=commit.hash,
                statement=held,
                certainty=commit.certainty,
                evidence=commit.evidence,
            )
        )
    return found
