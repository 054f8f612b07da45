"""The state of `compact --state-dir`: private files, written whole, one writer at a time, and a damaged file is survivable."""

from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

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


def test_a_full_disk_under_no_llm_is_said_as_such_and_not_counted_as_a_failed_summary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"

    def full(*_: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)  # the tracker's snapshot is the write that fails
    request = str(_request(tmp_path, "r.json"))
    command = ["compact", request, "--force", "--no-llm", "--state-dir", str(state)]
    assert main(command) == 1
    err = capsys.readouterr().err
    assert (
        err.count("\n") == 1 and "tracker.json cannot be written (No space left on device)" in err
    )
    assert "summary could not be written" not in err and "LLM" not in err
    # Not a failure of the summarizer: nothing towards the back-off.
    log = state / "events.jsonl"
    assert not log.exists() or "compaction_failure" not in log.read_text(encoding="utf-8")
    monkeypatch.undo()
    assert main(command) == 0


def test_a_state_directory_that_cannot_be_written_is_one_sentence_and_exit_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    command = ["compact", str(_request(tmp_path, "r.json")), "--force", "--no-llm"]
    assert main([*command, "--state-dir", str(state)]) == 0
    capsys.readouterr()
    # What a read-only file system answers (the superuser, who may run the tests, ignores modes).
    system_open = os.open

    def read_only(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if str(path).startswith(str(state)) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise OSError(errno.EROFS, "Read-only file system", str(path))
        return system_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", read_only)
    assert main([*command, "--state-dir", str(state)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "(Read-only file system)" in err, err
    assert main([*command, "--state-dir", str(state / "new")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "(Read-only file system)" in err, err


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0,
    reason="the superuser writes into read-only folders",
)
def test_a_read_only_state_directory_is_one_sentence_and_exit_1(tmp_path: Path) -> None:
    state = tmp_path / "state"
    request = str(_request(tmp_path, "r.json"))
    command = [sys.executable, "-m", "artifact_index", "compact", request, "--force", "--no-llm"]
    assert (
        subprocess.run([*command, "--state-dir", str(state)], capture_output=True).returncode == 0
    )
    state.chmod(0o500)
    try:
        done = subprocess.run(
            [*command, "--state-dir", str(state)], capture_output=True, text=True, timeout=120
        )
    finally:
        state.chmod(0o700)
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert "Permission denied" in done.stderr
