"""Indexing spares the cycle collector the growing index, and leaves it as it found it."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from artifact_index.trail import collection
from artifact_index.trail.build import build_index
from artifact_index.trail.collection import (
    collector_paused,
    collector_spared,
    collector_spared_in_steps,
)


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


def test_answering_every_query_sets_off_no_collection_and_leaves_the_collector_on(
    fixtures_dir: Path,
) -> None:
    # The report is hundreds of thousands of objects at 100 MB, none of them garbage: each full
    # collection they set off walked all those made so far.
    from artifact_index.trail.session_report import session_report

    index, _ = build_index(fixtures_dir / "claude_code" / "edits.jsonl")
    started: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started.append(info["generation"])

    threshold = gc.get_threshold()
    gc.set_threshold(1)  # a collection after every new container, were the collector on
    gc.callbacks.append(count)
    try:
        report = session_report(index)
    finally:
        gc.callbacks.remove(count)
        gc.set_threshold(*threshold)
    assert report.changed
    # Only around the work (entering and leaving the pause); the work itself made thousands.
    assert len(started) < 10
    assert gc.isenabled()


def test_a_process_frozen_for_good_is_not_counted_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # Counting walks every frozen object: in a hook's process, which froze its imports and then a
    # loaded state, that walk grew with the session at every step that asked.
    collection.freeze_for_process()
    try:
        before = gc.get_freeze_count()

        def walked() -> int:
            raise AssertionError("the frozen objects were counted")

        monkeypatch.setattr(gc, "get_freeze_count", walked)
        with collector_paused(lasting=True):
            built = [[n] for n in range(100)]
        assert list(collector_spared(iter([1, 2]))) == [1, 2]
        monkeypatch.undo()
        # What the lasting step built is frozen with the rest; nothing was given back.
        assert _generation_of(built) is None and gc.get_freeze_count() >= before + 101
    finally:
        collection.thaw_process()
    assert gc.get_freeze_count() == 0


def test_work_in_steps_has_each_step_frozen_and_everything_given_back_at_the_end() -> None:
    assert gc.get_freeze_count() == 0
    built: list[list[int]] = []
    with collector_spared_in_steps() as spare:
        built.append([1])
        assert gc.get_freeze_count() == 0
        spare()  # a piece read: what it built is out of the collector's sight
        assert _generation_of(built) is None and gc.get_freeze_count() > 0
        built.append([2])
        assert _generation_of(built[1]) is not None
    assert gc.get_freeze_count() == 0 and _generation_of(built) is not None


def test_a_process_frozen_for_good_keeps_what_its_steps_built_frozen() -> None:
    # A command's own process ends with its answer: what its first read built lives as long.
    collection.freeze_for_process()
    try:
        before = gc.get_freeze_count()
        with collector_spared_in_steps() as spare:
            built = [[n] for n in range(100)]
            spare()
        assert _generation_of(built) is None and gc.get_freeze_count() >= before + 101
    finally:
        collection.thaw_process()
    assert gc.get_freeze_count() == 0


def test_steps_leave_alone_a_process_that_froze_objects_itself() -> None:
    gc.freeze()
    try:
        before = gc.get_freeze_count()
        with collector_spared_in_steps() as spare:
            built = [[n] for n in range(100)]
            spare()
        assert gc.get_freeze_count() == before and _generation_of(built) is not None
    finally:
        gc.unfreeze()
