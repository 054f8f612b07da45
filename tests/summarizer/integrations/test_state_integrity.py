"""The state of `compact --state-dir`: private files, written whole, one writer at a time, and a damaged file is survivable."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from artifact_index.exceptions import StateError
from artifact_index.presentation.cli import main
from artifact_index.state_files import write_atomically
from artifact_index.trail.saved_state import SavedState
from tests.support.compaction_chat import Chat
from tests.support.paths import ROOT


def _request(tmp_path: Path, name: str, path: str = "src/parser.py") -> Path:
    chat = Chat("anthropic").user(f"Write {path}.")
    chat.tools(
        [("write_file", f"Wrote {path}")],
        args={"path": path, "content": "def parse():\n    pass\n"},
    )
    chat.assistant("Written.").user("Carry on.")
    body = tmp_path / name
    body.write_text(
        json.dumps({"model": "claude-test", "messages": chat.messages}), encoding="utf-8"
    )
    return body


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_state_files_are_readable_by_their_owner_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    assert (
        main(
            [
                "compact",
                str(_request(tmp_path, "r.json")),
                "--force",
                "--no-llm",
                "--state-dir",
                str(state),
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert _mode(state) == 0o700
    assert {p.name: _mode(p) for p in state.iterdir()} == {
        "tracker.json": 0o600,
        "events.jsonl": 0o600,
        ".lock": 0o600,
        "summary.key": 0o600,
    }


def test_a_damaged_tracker_state_is_reported_in_one_sentence_set_aside_and_rebuilt(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / "tracker.json").write_text(
        '{"last_turn": 3, "tracker": "{\\"version\\": 1, \\"gra', encoding="utf-8"
    )
    assert (
        main(
            [
                "compact",
                str(_request(tmp_path, "r.json")),
                "--force",
                "--no-llm",
                "--state-dir",
                str(state),
            ]
        )
        == 0
    )
    captured = capsys.readouterr()
    assert "src/parser.py" in captured.out
    assert len(captured.err.strip().splitlines()) == 1 and "tracker.json is damaged" in captured.err
    assert (state / "tracker.json.damaged").exists()
    saved = SavedState(state).load().tracker
    assert "src/parser.py" in json.dumps(saved.index.changed_files(), default=str)


def test_a_write_that_fails_half_way_leaves_the_old_state_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "tracker.json"
    write_atomically(target, "old state")

    def crash(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(StateError, match="No space left on device"):
        write_atomically(target, "new state")
    assert target.read_text(encoding="utf-8") == "old state"
    assert [p.name for p in tmp_path.iterdir()] == ["tracker.json"]  # no temporary file left behind


# Six processes already contend for the lock at every step; forty is the same property at scale.
@pytest.mark.parametrize(
    "concurrent", [6, pytest.param(40, marks=pytest.mark.slow)], ids=["six", "forty"]
)
def test_concurrent_compactions_on_one_state_directory_all_succeed_and_leave_it_intact(
    tmp_path: Path, concurrent: int
) -> None:
    state = tmp_path / "state"
    requests = [_request(tmp_path, f"r{n}.json", f"src/module_{n}.py") for n in range(concurrent)]
    command = [
        sys.executable,
        "-m",
        "artifact_index",
        "compact",
        "--force",
        "--no-llm",
        "--state-dir",
        str(state),
    ]
    processes = [
        subprocess.Popen(
            [*command, str(request)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for request in requests
    ]
    outcomes = [(p.wait(timeout=600), *p.communicate()) for p in processes]

    for code, out, err in outcomes:
        assert code == 0, err
        assert err == ""
        json.loads(out)
    events = [
        json.loads(line)
        for line in (state / "events.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert sum(1 for e in events if e["type"] == "summary") == concurrent
    changed = {entry.path for entry in SavedState(state).load().tracker.index.changed_files()}
    # Each compaction resumed from the state the one before it saved: none was lost.
    assert {f"src/module_{n}.py" for n in range(concurrent)} <= changed
    assert sorted(p.name for p in state.iterdir()) == [
        ".lock",
        "events.jsonl",
        "summary.key",
        "tracker.journal.jsonl",
        "tracker.json",
    ]
