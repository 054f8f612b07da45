"""Indexing spares the cycle collector the growing index, and leaves it as it found it."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from artifact_index.trail import collection
from artifact_index.trail.build import build_index
from artifact_index.trail.collection import collector_paused, collector_spared


def test_items_pass_unchanged_and_what_was_built_is_frozen_until_the_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(collection, "_EVERY", 3)
    built: list[list[int]] = []
    seen, frozen = [], []
    items = collector_spared(range(7))
    for item in items:
        seen.append(item)
        built.append([item])  # a container the collector tracks
        frozen.append(gc.get_freeze_count())
    items.close()
    assert seen == list(range(7))
    assert frozen[2] == 0 and frozen[3] > 0  # frozen after every third item
    assert gc.get_freeze_count() == 0


def test_a_process_that_froze_objects_itself_keeps_them_frozen() -> None:
    gc.freeze()
    try:
        before = gc.get_freeze_count()
        items = collector_spared(iter([1, 2]))
        assert list(items) == [1, 2]
        assert gc.get_freeze_count() == before
    finally:
        gc.unfreeze()


def test_indexing_that_fails_part_way_still_gives_the_collector_everything_back(
    monkeypatch: pytest.MonkeyPatch, fixtures_dir: Path
) -> None:
    monkeypatch.setattr(collection, "_EVERY", 1)

    def broken(self: object, events: Iterator[object]) -> None:
        for _ in events:
            raise RuntimeError("a tracker bug")

    monkeypatch.setattr("artifact_index.trail.tracker.Tracker.feed_all", broken)
    with pytest.raises(RuntimeError):
        build_index(fixtures_dir / "claude_code" / "edits.jsonl")
    assert gc.get_freeze_count() == 0


def _generation_of(value: object) -> int | None:
    """The generation ``value`` is in (None: frozen, or not tracked)."""
    return next((n for n in range(3) if any(found is value for found in gc.get_objects(n))), None)


def test_what_a_lasting_step_built_is_moved_past_the_young_collections() -> None:
    assert gc.get_freeze_count() == 0
    with collector_paused(lasting=True):
        built = [[n] for n in range(100)]
    # In the oldest generation: the young collections do not walk it, a full one still does.
    assert _generation_of(built) == 2 and _generation_of(built[0]) == 2
    assert gc.get_freeze_count() == 0 and gc.isenabled()


def test_a_process_that_froze_objects_itself_has_what_a_lasting_step_built_frozen_too() -> None:
    gc.freeze()
    try:
        before = gc.get_freeze_count()
        with collector_paused(lasting=True):
            built = [[n] for n in range(100)]
        assert _generation_of(built) is None and gc.get_freeze_count() >= before + 101
    finally:
        gc.unfreeze()
