"""A saved state grows by each save's events: the same index as feeding them, private, redacted, and survivable."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from fake_secrets import fake_secrets
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from artifact_index.exceptions import StateError
from artifact_index.ingestion.events import (
    Event,
    FileOperation,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
)
from artifact_index.ingestion.loading import load_events
from artifact_index.presentation.render import files_json, symbols_json
from artifact_index.trail import saved_state
from artifact_index.trail.saved_state import NoExtra, SavedState
from artifact_index.trail.tracker import Tracker

from .test_incremental import streams

# A sub-agent's transcript (side-chain records) for the quick run; its parent session, with
# sub-agents interleaved through progress records and ten times the turns, at full scale.
SUB_AGENT = (
    "claude_code/spotter__4d5611e5-241a-462a-8d15-5122611a9569__subagents__agent-a2898e3.jsonl.gz"
)
PARENT = "claude_code/spotter__4d5611e5-241a-462a-8d15-5122611a9569.jsonl.gz"


def _turns(events: list[Event]) -> list[list[Event]]:
    """The events in order, cut wherever the turn changes."""
    runs: list[list[Event]] = []
    for event in events:
        if not runs or runs[-1][-1].turn != event.turn:
            runs.append([])
        runs[-1].append(event)
    return runs


def _write(turn: int, path: str, content: str) -> list[Event]:
    call = f"c{turn}"
    return [
        ToolCall(
            turn=turn,
            call_id=call,
            tool="Write",
            operations=(FileOperation(action="write", path=path, content=content),),
        ),
        ToolResult(turn=turn, call_id=call, status="success"),
    ]


class _Progress(BaseModel):
    """A caller's extra fields: what the compaction keeps beside its tracker."""

    last_turn: int = 0


def _resume_each_turn(folder: Path, turns: list[list[Event]]) -> SavedState[_Progress]:
    """What a compaction hook does: load, feed one turn, save, in a fresh process each time."""
    for number, turn in enumerate(turns, 1):
        state = SavedState(folder, extra=_Progress)
        restored = state.load(format="claude-code")
        assert restored.problem is None
        restored.tracker.feed_all(turn)
        state.save(restored.tracker, turn, _Progress(last_turn=number))
    return SavedState(folder, extra=_Progress)


@pytest.mark.parametrize(
    "transcript",
    [SUB_AGENT, pytest.param(PARENT, marks=pytest.mark.slow)],
    ids=["sub-agent", "parent"],
)
def test_a_session_saved_turn_by_turn_resumes_to_the_index_of_feeding_it_whole(
    corpus_dir: Path, tmp_path: Path, transcript: str
) -> None:
    events = load_events(corpus_dir / transcript)
    whole = Tracker(format="claude-code").feed_all(events)

    restored = _resume_each_turn(tmp_path, _turns(events)).load()

    assert restored.tracker.index.to_json() == whole.to_json()
    assert files_json(restored.tracker.index) == files_json(whole)
    assert symbols_json(restored.tracker.index) == symbols_json(whole)
    assert restored.extra == _Progress(last_turn=len(_turns(events)))


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(events=streams(), data=st.data())
def test_any_split_into_saves_gives_the_same_index(
    tmp_path_factory: pytest.TempPathFactory, events: list[Event], data: st.DataObject
) -> None:
    whole = Tracker(format="claude-code").feed_all(events)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(events)), max_size=4)))
    pieces = [
        events[start:end] for start, end in zip([0, *cuts], [*cuts, len(events)], strict=True)
    ]

    restored = _resume_each_turn(tmp_path_factory.mktemp("state"), pieces).load().tracker

    assert files_json(restored.index) == files_json(whole)
    assert restored.index.session == whole.session


def test_a_save_appends_one_line_and_leaves_the_snapshot_alone(tmp_path: Path) -> None:
    state = SavedState(tmp_path, extra=_Progress)
    tracker = state.load(format="claude-code").tracker
    first = [SessionInfo(turn=0, cwd="/repo"), *_write(1, "a.py", "a = 1\n")]
    tracker.feed_all(first)
    state.save(tracker, first)
    snapshot = state.snapshot.read_bytes()
    assert not state.journal.exists()  # the first save is a snapshot

    for turn in range(2, 5):
        batch = _write(turn, f"m{turn}.py", "x = 1\n")
        tracker.feed_all(batch)
        state.save(tracker, batch, _Progress(last_turn=turn))

    assert state.snapshot.read_bytes() == snapshot
    lines = [json.loads(line) for line in state.journal.read_text(encoding="utf-8").splitlines()]
    assert [len(line["events"]) for line in lines] == [2, 2, 2]
    assert [line["extra"] for line in lines] == [
        {"last_turn": 2},
        {"last_turn": 3},
        {"last_turn": 4},
    ]
    assert {f.path for f in SavedState(tmp_path).load().tracker.index.files()} == {
        "a.py",
        "m2.py",
        "m3.py",
        "m4.py",
    }


def test_a_journal_past_its_bound_is_folded_into_a_new_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(saved_state, "_MIN_JOURNAL_BOUND", 2_000)
    state = SavedState(tmp_path)
    tracker = state.load(format="claude-code").tracker
    generations = []
    for turn in range(1, 30):
        batch = _write(turn, f"m{turn}.py", "x = 1\n" * 20)
        tracker.feed_all(batch)
        state.save(tracker, batch)
        generations.append(json.loads(state.snapshot.read_text(encoding="utf-8"))["generation"])

    assert generations[0] == 1 and generations[-1] > 2  # folded more than once
    assert not state.journal.exists() or state.journal.stat().st_size < 4_000
    assert len(SavedState(tmp_path).load().tracker.index.files()) == 29


def test_journal_lines_of_an_older_generation_are_already_in_the_snapshot(tmp_path: Path) -> None:
    state = SavedState(tmp_path)
    tracker = state.load(format="claude-code").tracker
    batch = _write(1, "a.py", "a = 1\n")
    tracker.feed_all(batch)
    state.save(tracker, batch)
    # A compaction that stopped after writing the snapshot, before removing the journal.
    stale = {
        "generation": 0,
        "events": [e.model_dump(mode="json") for e in _write(2, "ghost.py", "")],
        "extra": {},
    }
    state.journal.write_text(json.dumps(stale) + "\n", encoding="utf-8")

    restored = SavedState(tmp_path).load()

    assert restored.problem is None
    assert [f.path for f in restored.tracker.index.files()] == ["a.py"]


def test_a_damaged_journal_line_costs_only_the_saves_from_it_on(tmp_path: Path) -> None:
    state = SavedState(tmp_path)
    tracker = state.load(format="claude-code").tracker
    for turn, path in enumerate(["a.py", "b.py", "c.py", "d.py"], 1):
        batch = _write(turn, path, "x = 1\n")
        tracker.feed_all(batch)
        state.save(tracker, batch)
    lines = state.journal.read_text(encoding="utf-8").splitlines()
    lines[1] = lines[1][: len(lines[1]) // 2]  # a crash mid-write
    state.journal.write_text("\n".join(lines) + "\n", encoding="utf-8")

    restored = SavedState(tmp_path).load()

    assert restored.problem is not None and "\n" not in restored.problem
    assert "damaged at line 2" in restored.problem and "tracker.journal.jsonl" in restored.problem
    assert [f.path for f in restored.tracker.index.files()] == ["a.py", "b.py"]
    # The state was rebuilt from what survived, and the damaged journal kept for inspection.
    assert (tmp_path / "tracker.journal.jsonl.damaged").exists() and not state.journal.exists()
    again = SavedState(tmp_path).load()
    assert again.problem is None and [f.path for f in again.tracker.index.files()] == [
        "a.py",
        "b.py",
    ]


def test_a_damaged_snapshot_is_one_clear_error(tmp_path: Path) -> None:
    (tmp_path / "tracker.json").write_text(
        '{"generation": 1, "tracker": {"version": 1, "gra', encoding="utf-8"
    )
    with pytest.raises(StateError, match="cannot be read") as caught:
        SavedState(tmp_path).load()
    assert "\n" not in str(caught.value)


def test_saving_over_a_state_that_was_not_loaded_is_refused(tmp_path: Path) -> None:
    first = SavedState(tmp_path)
    tracker = first.load().tracker
    first.save(tracker, [])
    with pytest.raises(StateError, match="load it before saving"):
        SavedState(tmp_path).save(Tracker(), [UserMessage(turn=1, text="hi")])


def test_a_snapshot_written_before_the_journal_existed_still_loads(tmp_path: Path) -> None:
    tracker = Tracker(format="messages")
    tracker.feed_all(_write(1, "a.py", "a = 1\n"))
    (tmp_path / "tracker.json").write_text(
        json.dumps({"last_turn": 3, "tracker": tracker.save()}), encoding="utf-8"
    )

    restored = SavedState(tmp_path, extra=_Progress).load()

    assert restored.extra == _Progress(last_turn=3)
    assert [f.path for f in restored.tracker.index.files()] == ["a.py"]


def test_snapshot_and_journal_are_private_and_hold_no_secret(tmp_path: Path) -> None:
    secrets = fake_secrets()
    state = SavedState(tmp_path / "state")
    tracker = state.load(format="claude-code").tracker
    for turn, secret in enumerate(secrets, 1):
        batch = [
            UserMessage(turn=turn, text=f"use this: {secret.context}"),
            *_write(turn, f"config/{turn}.env", secret.context),
        ]
        tracker.feed_all(batch)
        state.save(tracker, batch)

    files = sorted(p for p in (tmp_path / "state").iterdir())
    assert [p.name for p in files] == ["tracker.journal.jsonl", "tracker.json"]
    assert {stat.S_IMODE(p.stat().st_mode) for p in files} == {0o600}
    text = "".join(p.read_text(encoding="utf-8") for p in files)
    assert [s.kind for s in secrets if s.value in text] == []


def test_an_event_holding_a_secret_sent_again_after_a_resume_changes_nothing(
    tmp_path: Path,
) -> None:
    # The journal holds the event redacted, so it is replayed under the identity it had when first fed.
    secret = fake_secrets()[0]
    events = [
        SessionInfo(turn=0, cwd="/repo"),
        UserMessage(turn=1, text=f"the key is {secret.context}"),
        *_write(2, "a.py", f"KEY = {secret.value!r}\n"),
    ]
    once = Tracker(format="claude-code").feed_all(events)
    _resume_each_turn(tmp_path, [events[:1], events[1:]])  # the message goes to the journal
    assert secret.value not in (tmp_path / "tracker.journal.jsonl").read_text(encoding="utf-8")

    state = SavedState(tmp_path)
    restored = state.load()
    restored.tracker.feed_all(events)

    assert restored.tracker.index.session.events == once.session.events == 4
    assert restored.tracker.index.session.seen_events == once.session.seen_events


def test_extra_fields_come_back_as_the_callers_model_and_fields_it_does_not_name_are_kept(
    tmp_path: Path,
) -> None:
    tracker = Tracker(format="messages")
    tracker.feed_all(_write(1, "a.py", "a = 1\n"))
    # Written by an older version: the number as text, and a field this caller does not name.
    (tmp_path / "tracker.json").write_text(
        json.dumps({"last_turn": "3", "owner": "other", "tracker": tracker.save()}),
        encoding="utf-8",
    )
    state = SavedState(tmp_path, extra=_Progress)
    restored = state.load()
    assert restored.extra == _Progress(last_turn=3)
    state.save(restored.tracker, [], _Progress(last_turn=4))
    state.compact(restored.tracker)
    saved = json.loads((tmp_path / "tracker.json").read_text(encoding="utf-8"))
    assert (saved["last_turn"], saved["owner"]) == (4, "other")
    assert SavedState(tmp_path).load().extra == NoExtra()


def test_extra_fields_the_callers_model_refuses_are_one_clear_error(tmp_path: Path) -> None:
    tracker = Tracker(format="messages")
    (tmp_path / "tracker.json").write_text(
        json.dumps({"last_turn": "soon", "tracker": tracker.save()}), encoding="utf-8"
    )
    with pytest.raises(StateError, match=r"extra fields that are not valid \(last_turn: "):
        SavedState(tmp_path, extra=_Progress).load()
