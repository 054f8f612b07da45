"""A Claude Code sub-agent's own transcript belongs to its parent session in the store: one id, one session."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from artifact_index.live.store import SessionStore
from artifact_index.presentation.cli import main
from summarizer.integrations.access import SessionAccess

SESSION = "7f3c2a1e-0000-4000-8000-000000000001"


def _write_call(number: int, path: str, *, sidechain: str | None) -> list[dict[str, Any]]:
    extra: dict[str, Any] = {"isSidechain": True, "agentId": sidechain} if sidechain else {}
    common = {"sessionId": SESSION, "cwd": "/home/dev/app", **extra}
    return [
        {
            **common,
            "type": "assistant",
            "uuid": f"a{number}",
            "timestamp": f"2026-03-01T10:0{number}:00Z",
            "message": {
                "id": f"m{number}",
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": f"t{number}",
                        "name": "Write",
                        "input": {"file_path": f"/home/dev/app/{path}", "content": "x = 1\n"},
                    }
                ],
            },
        },
        {
            **common,
            "type": "user",
            "uuid": f"r{number}",
            "timestamp": f"2026-03-01T10:0{number}:30Z",
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": f"t{number}", "content": "ok"}],
            },
        },
    ]


def _prompt(text: str, *, sidechain: str | None) -> dict[str, Any]:
    extra: dict[str, Any] = {"isSidechain": True, "agentId": sidechain} if sidechain else {}
    return {
        "sessionId": SESSION,
        "cwd": "/home/dev/app",
        **extra,
        "type": "user",
        "uuid": f"p-{sidechain}",
        "timestamp": "2026-03-01T10:00:00Z",
        "message": {"role": "user", "content": text},
    }


def _jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.fixture
def projects(tmp_path: Path) -> Path:
    """Claude Code's layout: the session, and its sub-agent in SESSION/subagents/agent-ID.jsonl."""
    folder = tmp_path / "projects" / "-home-dev-app"
    _jsonl(
        folder / f"{SESSION}.jsonl",
        [
            _prompt("Add the parser and its tests.", sidechain=None),
            *_write_call(1, "parser.py", sidechain=None),
        ],
    )
    _jsonl(
        folder / SESSION / "subagents" / "agent-a81c2.jsonl",
        [
            _prompt("Write tests for parser.py", sidechain="a81c2"),
            *_write_call(2, "test_parser.py", sidechain="a81c2"),
        ],
    )
    return tmp_path / "projects"


def test_the_parents_id_names_the_parent_alone_and_the_sub_agent_belongs_to_it(
    projects: Path, tmp_path: Path
) -> None:
    store = SessionStore(tmp_path / "sessions.db")
    assert main(["store", str(projects), "--store", str(store.path)]) == 0
    rows = {row.session_id: row for row in store.sessions()}
    assert set(rows) == {SESSION, f"{SESSION}/a81c2"}
    assert store.session(SESSION).transcript.endswith(f"{SESSION}.jsonl")
    files = SessionAccess(store.path).files(session=SESSION)
    assert [f["path"] for f in files["files"]] == ["parser.py"]


def test_sessions_lists_a_sub_agent_under_its_parent(
    projects: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "sessions.db")
    assert main(["store", str(projects), "--store", db]) == 0
    capsys.readouterr()
    assert main(["sessions", "--store", db]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert sum(1 for line in lines if line[:4].isdigit()) == 1  # one session row
    sub_agent = next(i for i, line in enumerate(lines) if "sub-agent a81c2" in line)
    assert "1 changed" in lines[sub_agent] and lines[sub_agent - 1].startswith("    /home/dev/app")
    assert out.rstrip().endswith("1 session(s), 2 file change(s), 0 open error(s)")

    assert main(["sessions", "--store", db, "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["sessions"]
    assert sorted((s["session_id"], s["parent_session"]) for s in listed) == [
        (SESSION, None),
        (f"{SESSION}/a81c2", SESSION),
    ]


def test_a_session_without_a_known_workspace_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # An Anthropic Messages list names no working directory.
    example = Path(__file__).resolve().parents[2] / "examples" / "anthropic-messages.json"
    transcript = tmp_path / "messages.json"
    transcript.write_bytes(example.read_bytes())
    db = str(tmp_path / "sessions.db")
    assert main(["store", str(transcript), "--store", db]) == 0
    capsys.readouterr()
    assert main(["sessions", "--store", db]) == 0
    out = capsys.readouterr().out
    assert "(workspace unknown)" in out and str(transcript) not in out
