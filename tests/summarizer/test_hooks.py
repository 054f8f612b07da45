"""The Claude Code hooks: after a compaction the agent gets the exact file trail back."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from artifact_index.presentation.cli import main

SESSION = Path(__file__).resolve().parent.parent / "fixtures" / "cli" / "session.jsonl"


def _run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], payload: str, *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(payload))
    code = main(["hook", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_session_start_after_compact_returns_the_file_trail_as_additional_context(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    payload = json.dumps({"hook_event_name": "SessionStart", "source": "compact", "session_id": "s-1",
                          "transcript_path": str(SESSION), "cwd": "/work/demo"})
    code, out, _ = _run(monkeypatch, capsys, payload)
    assert code == 0
    answer = json.loads(out)["hookSpecificOutput"]
    assert answer["hookEventName"] == "SessionStart"
    assert "## Files modified\n- `app.py`" in answer["additionalContext"]
    assert "test_app.py" not in answer["additionalContext"]  # its Write failed: never claimed as changed


def test_pre_compact_asks_to_keep_the_paths(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(monkeypatch, capsys, json.dumps({"transcript_path": str(SESSION)}), "--event", "PreCompact")
    assert code == 0 and out.startswith("Keep every file path below") and "`app.py`" in out


@pytest.mark.parametrize(("payload", "message"), [
    ("not json", "not JSON"),
    ("{}", "no transcript_path"),
    (json.dumps({"transcript_path": "/no/such.jsonl"}), "no such file"),
])
def test_bad_hook_input_is_one_sentence(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                        payload: str, message: str) -> None:
    code, out, err = _run(monkeypatch, capsys, payload)
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1
