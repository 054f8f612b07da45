"""Files written outside the workspace (a script in /tmp that was the whole task) are kept and marked."""

from __future__ import annotations

import json

import pytest

from artifact_index.ingestion.events import (
    Event,
    FileOperation,
    SessionInfo,
    Submission,
    ToolCall,
    ToolResult,
)
from artifact_index.presentation.cli import main
from artifact_index.presentation.render import files_json
from artifact_index.trail.tracker import Tracker
from tests.support.paths import FIXTURES

SESSION = FIXTURES / "codex" / "rollout-tmp-deliverable.jsonl"


def _files(capsys: pytest.CaptureFixture[str], *flags: str) -> list[tuple[str, str, bool]]:
    assert main(["files", str(SESSION), "--json", *flags]) == 0
    out = json.loads(capsys.readouterr().out)
    return [(f["path"], f["status"], f.get("outside_workspace", False)) for f in out["files"]]


def test_files_written_in_tmp_are_kept_and_marked_outside_the_workspace(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert _files(capsys) == [
        ("/tmp/cleanup_tmp.sh", "created", True),
        ("/tmp/landcheck.mjs", "created", True),
        ("notes/cleanup.md", "created", False),
    ]


def test_views_hide_them_by_choice(capsys: pytest.CaptureFixture[str]) -> None:
    assert _files(capsys, "--workspace-only") == [("notes/cleanup.md", "created", False)]
    assert main(["files", str(SESSION)]) == 0
    table = capsys.readouterr().out
    assert "Outside the workspace (2 created; --workspace-only hides them):" in table
    assert table.index("notes/cleanup.md") < table.index("/tmp/cleanup_tmp.sh")
    assert main(["files", str(SESSION), "--workspace-only"]) == 0
    assert "/tmp/" not in capsys.readouterr().out.split("shell effect")[0]


def test_a_mktemp_file_has_no_name_worth_listing(capsys: pytest.CaptureFixture[str]) -> None:
    assert not any("artifact-index" in path for path, _, _ in _files(capsys))


def _shell(call_id: str, command: str, turn: int) -> list[Event]:
    return [
        ToolCall(
            turn=turn,
            call_id=call_id,
            tool="bash",
            operations=(FileOperation(action="shell", command=command, source="shell"),),
        ),
        ToolResult(turn=turn, call_id=call_id, status="success"),
    ]


def test_a_submitted_diff_never_holds_a_file_outside_the_repository() -> None:
    events: list[Event] = [
        SessionInfo(turn=0, cwd="/testbed"),
        *_shell("c1", "cat > /tmp/repro.py <<'EOF'\nprint(1)\nEOF", 1),
        *_shell("c2", "sed -i 's/a/b/' src/calc.py", 2),
        Submission(
            turn=3,
            command="git add -A && git diff --cached",
            cwd="/testbed",
            exit_status="Submitted",
        ),
    ]
    out = files_json(Tracker(format="mini-swe-agent").feed_all(events))
    assert [f["path"] for f in out["files"]] == ["src/calc.py"]
    assert [(f["path"], f.get("outside_workspace")) for f in out["unsubmitted"]] == [
        ("/tmp/repro.py", True)
    ]


def test_without_a_root_only_temporary_directories_are_known_to_be_outside() -> None:
    events: list[Event] = [*_shell("c1", "echo x > /tmp/a.txt && echo y > /srv/app/b.txt", 1)]
    out = files_json(Tracker(format="aider").feed_all(events))
    assert [(f["path"], f.get("outside_workspace", False)) for f in out["files"]] == [
        ("/tmp/a.txt", True),
        ("/srv/app/b.txt", False),
    ]
