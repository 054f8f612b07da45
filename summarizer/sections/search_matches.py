"""How the summary says where the current thread's searches matched, and how far their places were worked.

Which searches count and how their places are read is the engine's
(:mod:`~artifact_index.trail.conversation.search_results`); this module says
where those places stand since.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from artifact_index.trail.conversation.search_results import place_path
from artifact_index.trail.conversation.told import Search
from summarizer.sections.summary_facts import SessionFacts

# ``place_path`` is the engine's, named here too for the sections that show places.
__all__ = ["PlaceProgress", "in_common_folder", "place_path", "place_progress"]


@dataclass(frozen=True)
class PlaceProgress:
    """A search's places by what the session did in their files since: what is left is what to look at next."""

    left: list[str]  # in files no later call named
    seen: list[str]  # in files a later call named (read, searched, run over), not changed
    changed: list[str]  # in files changed since: likely dealt with


def place_progress(search: Search, facts: SessionFacts) -> PlaceProgress:
    """Where ``search``'s places stand since it ran: changed, looked at, or left."""
    changed_after = {f.path: max(f.changed_turns) for f in facts.changed if f.changed_turns}
    looked_at = set(search.looked_at)
    left: list[str] = []
    seen: list[str] = []
    changed: list[str] = []
    for place in search.places:
        path = place_path(place)
        if changed_after.get(path, 0) > search.turn:
            changed.append(place)
        elif path in looked_at:
            seen.append(place)
        else:
            left.append(place)
    return PlaceProgress(left=left, seen=seen, changed=changed)


def in_common_folder(places: Sequence[str]) -> tuple[str, list[str]]:
    """The folder all ``places`` lie in ("" when none or one), and each place relative to it: said once, not each time."""
    if len(places) < 2 or len({os.path.isabs(p) for p in places}) > 1:
        # A search can list places inside the workspace (relative) beside places outside it
        # (absolute): they share no folder, and naming one would be false.
        return "", list(places)
    folder = os.path.commonpath(places).rstrip("/")
    if not folder or not all(p.startswith(folder + "/") for p in places):
        return "", list(places)
    return folder, [p[len(folder) + 1 :] for p in places]
