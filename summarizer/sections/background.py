"""How the summary says the sub-agents the agent left running in the background, and what they reported.

What they are and how they are found is the engine's
(:mod:`~artifact_index.trail.conversation.background_agents`); this module says them.
"""

from __future__ import annotations

from artifact_index.trail.conversation.background_agents import PATHS_KEPT
from summarizer.sections.summary_facts import SessionFacts

__all__ = ["background_lines", "reported_paths", "reported_paths_line"]


def background_lines(facts: SessionFacts, since: int) -> list[str]:
    """Where It Stopped: the sub-agents still running at the cut, and those that finished since ``since``."""
    running = [a for a in facts.background if a.finished_turn is None]
    finished = sorted(
        (a for a in facts.background if a.finished_turn is not None and a.finished_turn >= since),
        key=lambda a: a.finished_turn or 0,
    )
    lines = []
    if running:
        lines.append(
            "Sub-agents still running in the background at the cut (launched, no completion notice seen): "
            + ", ".join(f'"{a.description}" (turn {a.turn})' for a in running)
            + "; their results arrive as notices: wait for them rather than redo their work."
        )
    if finished:
        lines.append(
            "Sub-agents that finished since the latest request: "
            + (f"{len(finished) - 8} earlier, then " if len(finished) > 8 else "")
            + ", ".join(
                f'"{a.description}" ({a.status}, turn {a.finished_turn})' for a in finished[-8:]
            )
        )
    return lines


def reported_paths(facts: SessionFacts) -> list[str]:
    """The files the sub-agents' reports name that the index did not see change, in the order named."""
    seen = {f.path for f in [*facts.changed, *facts.reverted]}
    root = (facts.root or "").rstrip("/")
    named = [p.removeprefix(root + "/") if root else p for a in facts.background for p in a.paths]
    named = [p for p in named if p not in seen and not any(s.endswith("/" + p) for s in seen)]
    return list(dict.fromkeys(named))


def reported_paths_line(facts: SessionFacts) -> str | None:
    """Files Changed: the files the sub-agents' reports name that the index did not see change."""
    named = reported_paths(facts)
    if not named:
        return None
    shown = ", ".join(f"`{p}`" for p in named[:PATHS_KEPT])
    more = f" and {len(named) - PATHS_KEPT} more" if len(named) > PATHS_KEPT else ""
    return (
        "Created or changed by sub-agents that worked in the background, as their reports say (their edits "
        f"are in their own transcripts, not seen here): {shown}{more}"
    )
