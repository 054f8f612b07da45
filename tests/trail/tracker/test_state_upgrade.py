"""A state saved by an earlier version resumes as the index of feeding its events again."""

from __future__ import annotations

import json

import pytest

from artifact_index.exceptions import StateError
from artifact_index.ingestion.events import ToolResult
from artifact_index.presentation.render import show_json
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.state_versions import STATE_VERSION
from artifact_index.trail.tracker import Tracker
from tests.support.paths import FIXTURES

from .saved_v1 import EVENTS

V1 = FIXTURES / "state" / "v1.json"
# The same events saved by the second version, before files kept their latest write.
V2 = FIXTURES / "state" / "v2.json"


def test_a_first_version_state_upgrades_to_the_index_of_its_events() -> None:
    upgraded = ArtifactIndex.from_json(V1.read_text(encoding="utf-8"))
    fed = Tracker(format="claude-code").feed_all(EVENTS)

    assert json.loads(upgraded.to_json())["version"] == STATE_VERSION
    assert show_json(upgraded) == show_json(fed)
    # The first version did not keep which command printed a commit: all else is as fed.
    assert [c.command for c in fed.session.work.commits] == [
        "git add -A && git commit -m 'Round totals'"
    ]
    for commit in fed.session.work.commits:
        commit.command = None
    _forget_what_went_on(fed, upgraded)
    _forget_latest_writes(fed)
    assert upgraded.to_json() == fed.to_json()


def _forget_what_went_on(fed: ArtifactIndex, saved: ArtifactIndex) -> None:
    """What succeeded after an open error was not kept by the first version either."""
    ledger = fed.ledger
    ledger.errors = [
        e.model_copy(update={"went_on": None, "went_on_turn": None}) for e in ledger.errors
    ]
    ledger.awaiting_next = saved.ledger.awaiting_next


def _forget_latest_writes(fed: ArtifactIndex) -> None:
    """What each file's latest change wrote, and the branch switches, were kept from the third version on.

    Each file's placed edits were kept from the fourth.
    """
    for file in fed.file_states():
        file.latest_write = None
        file.edit_trail = None
    fed.session.work.switches = []


def test_a_second_version_state_upgrades_to_the_index_of_its_events_with_no_latest_writes() -> None:
    upgraded = ArtifactIndex.from_json(V2.read_text(encoding="utf-8"))
    fed = Tracker(format="claude-code").feed_all(EVENTS)
    assert [f.path for f in fed.file_states() if f.latest_write is not None] == [
        "app.py",
        "lib.py",
        "NOTES.md",
    ]

    assert json.loads(upgraded.to_json())["version"] == STATE_VERSION == 4
    assert show_json(upgraded) == show_json(fed)
    _forget_latest_writes(fed)
    assert upgraded.to_json() == fed.to_json()


def test_a_second_version_state_resumes_and_keeps_what_later_changes_write() -> None:
    resumed = Tracker.resume(V2.read_text(encoding="utf-8"))
    late = ToolResult(turn=11, call_id="late1", status="success")

    resumed.feed(late)

    written = resumed.index.file_state("late.py")
    assert written is not None and written.latest_write is not None
    assert (written.latest_write.turn, written.latest_write.text) == (11, "x = 1\n")
    app = resumed.index.file_state("app.py")
    assert app is not None and app.latest_write is None  # not kept by the second version


def test_a_first_version_state_resumes_where_it_stopped() -> None:
    resumed = Tracker.resume(V1.read_text(encoding="utf-8"))
    whole = Tracker(format="claude-code")
    late = ToolResult(turn=11, call_id="late1", status="success")

    resumed.feed(late)
    whole.feed_all([*EVENTS, late])
    for commit in whole.index.session.work.commits:
        commit.command = None
    _forget_what_went_on(whole.index, resumed.index)
    _forget_latest_writes(whole.index)
    _forget_latest_writes(resumed.index)

    assert resumed.index.to_json() == whole.index.to_json()
    # app.py's change was committed before the stash: HEAD holds it, so the stash left it changed.
    assert [f.path for f in resumed.index.changed_files()] == [
        "app.py",
        "NOTES.md",
        "build/out/NOTES.md",
        "late.py",
    ]


def test_a_first_version_state_with_a_key_no_version_kept_is_refused() -> None:
    payload = json.loads(V1.read_text(encoding="utf-8"))
    payload["meta"]["mystery"] = 1
    with pytest.raises(StateError, match="mystery"):
        ArtifactIndex.from_state(payload)


@pytest.mark.parametrize("version", [0, STATE_VERSION + 1, "2", None])
def test_a_state_of_a_version_that_never_was_is_refused(version: object) -> None:
    with pytest.raises(StateError, match="version"):
        ArtifactIndex.from_state({"version": version})


def test_a_state_whose_files_and_graph_disagree_is_refused() -> None:
    state = Tracker(format="claude-code").feed_all(EVENTS).to_state()
    state["files"].pop()
    with pytest.raises(StateError, match="state or a graph node"):
        ArtifactIndex.from_state(state)
