"""What the session store and the hook read off the file states (turns, changed paths) agrees with the entries."""

from __future__ import annotations

from pathlib import Path

import pytest

from artifact_index.trail.build import build_index
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
