"""Files the session made though a read or an append took them for old: one first found missing, a log in the session's own folder."""

from __future__ import annotations

from itertools import count
from pathlib import Path

from artifact_index.ingestion.events import Event, SessionInfo, ToolCall, ToolResult
from artifact_index.ingestion.events import FileOperation as Op
from artifact_index.trail.build import build_index
from artifact_index.trail.tracker import Tracker

from .claude_bash import transcript

_ids = count(1)


def _step(op: Op, tool: str, output: str, status: str = "success") -> list[Event]:
    call_id = f"c{next(_ids)}"
    return [
        ToolCall(turn=1, call_id=call_id, tool=tool, arguments={}, operations=(op,)),
        ToolResult(turn=1, call_id=call_id, status=status, output=output),  # type: ignore[arg-type]
    ]


def _statuses(*steps: list[Event]) -> dict[str, str | None]:
    events: list[Event] = [SessionInfo(turn=0, cwd="/repo", session_id="s1")]
    for step in steps:
        events += step
    return {f.path: f.status for f in Tracker(format="claude-code").feed_all(events).files()}


GITIGNORE = "/repo/.gitignore"
WRITE = Op(action="write", path=GITIGNORE, content="__pycache__/\n")


def test_a_file_first_found_missing_is_created_whatever_a_later_read_seemed_to_show() -> None:
    # `cat .gitignore 2>/dev/null; echo EXIT:$?` prints whether or not the file is there.
    statuses = _statuses(
        _step(Op(action="read", path=GITIGNORE), "Read", "File does not exist.", "failure"),
        _step(Op(action="read", path=GITIGNORE, source="shell"), "Bash", "---EXIT:1"),
        _step(WRITE, "Write", f"File created successfully at: {GITIGNORE}"),
    )
    assert statuses == {".gitignore": "created"}


def test_a_write_the_harness_calls_a_creation_after_a_read_found_the_file_is_a_change() -> None:
    # Claude Code says "created" for a file it found empty: the read showed it there.
    statuses = _statuses(
        _step(Op(action="read", path=GITIGNORE), "Read", "(the file is empty)"),
        _step(WRITE, "Write", f"File created successfully at: {GITIGNORE}"),
    )
    assert statuses == {".gitignore": "modified"}


def test_a_write_that_updated_the_file_after_a_read_leaves_it_modified() -> None:
    statuses = _statuses(
        _step(Op(action="read", path=GITIGNORE), "Read", "1\tnode_modules/\n"),
        _step(WRITE, "Write", f"The file {GITIGNORE} has been updated."),
    )
    assert statuses == {".gitignore": "modified"}


def test_made_again_after_the_session_deleted_it_stays_modified() -> None:
    statuses = _statuses(
        _step(Op(action="read", path=GITIGNORE), "Read", "1\tnode_modules/\n"),
        _step(Op(action="delete", path=GITIGNORE, source="shell"), "Bash", ""),
        _step(WRITE, "Write", f"File created successfully at: {GITIGNORE}"),
    )
    assert statuses == {".gitignore": "modified"}


SESSION_ID = "24aa0e53-2ab9-45d2-b25d-1e0eaf434369"
SCRATCH = f"/private/tmp/claude-501/-home-dev-lab/{SESSION_ID}/scratchpad"


def test_a_log_appended_to_in_the_sessions_own_folder_is_created(tmp_path: Path) -> None:
    calls = [
        (f'LOG={SCRATCH}/upgrade.log; {{ date; echo done; }} >> "$LOG"', ""),
        ("echo ok >> /var/log/app.log", ""),
    ]
    text = transcript("/home/dev/lab", calls).replace(
        '"sessionId": "s"', f'"sessionId": "{SESSION_ID}"'
    )
    path = tmp_path / "session.jsonl"
    path.write_text(text, encoding="utf-8")
    index, _ = build_index(path)
    # The harness made the session's scratchpad for it; a log elsewhere may predate it.
    assert {f.path: f.status for f in index.files()} == {
        f"{SCRATCH}/upgrade.log": "created",
        "/var/log/app.log": "modified",
    }
