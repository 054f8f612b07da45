"""What the session store and the hook read off the file states (turns, changed paths) agrees with the entries."""

from __future__ import annotations

from pathlib import Path

import pytest

from artifact_index.ingestion.loading import open_transcript
from artifact_index.trail.build import build_index
from artifact_index.trail.tracker import Tracker
from tests.support.paths import ROOT

SESSIONS = [
    ROOT / "examples" / "claude-code-session.jsonl",
    ROOT / "examples" / "codex-rollout.jsonl",
    *sorted((ROOT / "tests" / "fixtures" / "claude_code").glob("*.jsonl")),
    *sorted((ROOT / "tests" / "fixtures" / "codex").glob("*.jsonl")),
]


@pytest.mark.parametrize("session", SESSIONS, ids=lambda p: p.name)
def test_file_turns_are_the_turns_of_each_listed_files_operations(session: Path) -> None:
    index, _ = build_index(session)
    listed = index.file_turns()
    assert [state.shown for state, _ in listed] == [entry.path for entry in index.files()]
    for state, turns in listed:
        assert turns == [op["turn"] for op in index.operations_on(state.path)]


@pytest.mark.parametrize("session", SESSIONS, ids=lambda p: p.name)
def test_changed_paths_are_the_changed_files_paths_and_statuses_in_order(session: Path) -> None:
    index, _ = build_index(session)
    assert index.changed_paths() == [(entry.path, entry.status) for entry in index.changed_files()]


@pytest.mark.parametrize("session", SESSIONS, ids=lambda p: p.name)
def test_each_files_last_change_and_its_turns_are_those_of_its_operations(session: Path) -> None:
    # Read off the graph without copying each operation, for every file at each question.
    index, _ = build_index(session)
    for state in index.file_states():
        changes = [
            op
            for op in index.operations_on(state.path)
            if op["action"] not in ("read", "unknown") and op["result"] != "failure"
        ]
        last = max((int(op["seq"]) for op in changes), default=0)
        assert index.change_turns(state.path) == (last, sorted({op["turn"] for op in changes}))
        assert index.last_change(state.path) == last
    assert index.change_turns("never/touched.py") == (0, [])


@pytest.mark.parametrize("session", SESSIONS, ids=lambda p: p.name)
def test_a_files_last_change_asked_as_the_session_grows_is_that_of_its_operations_so_far(
    session: Path,
) -> None:
    # The index remembers each file's answer while no node with an edge into it is added: asked
    # after every event, each answer must still be the one its operations so far give.
    loaded = open_transcript(session)
    tracker = Tracker(format=loaded.adapter.name)
    index = tracker.index
    for event in loaded.events():
        tracker.feed(event)
        for state in index.file_states():
            changes = [
                op
                for op in index.operations_on(state.path)
                if op["action"] not in ("read", "unknown") and op["result"] != "failure"
            ]
            assert index.last_change(state.path) == max(
                (int(op["seq"]) for op in changes), default=0
            )


@pytest.mark.parametrize("session", SESSIONS, ids=lambda p: p.name)
def test_each_listed_files_edge_count_grows_with_its_operations(session: Path) -> None:
    # What the session store keys a file's row on: a new operation on the file moves its count.
    index, _ = build_index(session)
    edges = index.file_edges()
    assert [state for state, _ in edges] == [state for state, _ in index.file_turns()]
    for state, count in edges:
        operations = index.operations_on(state.path)
        assert count >= len(operations)
        assert index.operation_turns(state.path) == [op["turn"] for op in operations]
