"""What the views show of one session: changed files only, the evidence of a change, one file's history."""

from __future__ import annotations

import json

import pytest

from artifact_index.ingestion.events import FileOperation, SessionInfo, ToolCall, ToolResult
from artifact_index.presentation.cli import main
from artifact_index.trail.tracker import Tracker
from tests.support.paths import FIXTURES

MIX = FIXTURES / "claude_code" / "mix-project.jsonl"


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(list(args)) == 0
    return dict(json.loads(capsys.readouterr().out))


def test_changed_json_lists_no_file_that_was_only_read(capsys: pytest.CaptureFixture[str]) -> None:
    every = _json(capsys, "files", str(MIX), "--json")
    changed = _json(capsys, "files", str(MIX), "--json", "--changed")
    assert [f["path"] for f in every["files"]] == ["mix.exs", "lib/relay/worker.ex", "README.md"]  # type: ignore[index]
    assert [(f["path"], f["status"]) for f in changed["files"]] == [  # type: ignore[index]
        ("mix.exs", "modified"),
        ("lib/relay/worker.ex", "created"),
    ]


def test_a_created_file_that_was_edited_later_shows_its_create_as_evidence(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["files", str(MIX)]) == 0
    rows = {
        line.split()[1]: line for line in capsys.readouterr().out.splitlines()[1:] if line.strip()
    }
    assert rows["lib/relay/worker.ex"].endswith("Write (write)")
    assert rows["mix.exs"].endswith("Edit (edit)")


@pytest.mark.parametrize(
    "spelled", ["mix.exs", "./mix.exs", "/home/dev/relay/mix.exs", ".//mix.exs"]
)
def test_history_finds_a_file_however_its_path_is_spelled(
    capsys: pytest.CaptureFixture[str], spelled: str
) -> None:
    history = _json(capsys, "history", str(MIX), spelled, "--json")
    assert [(op["turn"], op["action"]) for op in history["ops"]] == [(2, "read"), (5, "edit")]  # type: ignore[index]
    assert "+    [extra_applications: [:logger, :runtime_tools]" in str(history["net_diff"])


def _read(call_id: str, path: str, output: str, turn: int) -> list[ToolCall | ToolResult]:
    return [
        ToolCall(
            turn=turn,
            call_id=call_id,
            tool="read",
            operations=(FileOperation(action="read", path=path),),
        ),
        ToolResult(turn=turn, call_id=call_id, status="success", output=output),
    ]


def test_a_directory_is_not_a_read_file() -> None:
    tracker = Tracker(format="opencode")
    tracker.feed(SessionInfo(turn=0, cwd="/repo"))
    listing = "<path>/repo/specs</path>\n<type>directory</type>\n<entries>\nplan.md\n\n(1 entries)\n</entries>"
    editor_listing = "Here's the files and directories up to 2 levels deep in /repo/docs, excluding hidden items:\n/repo/docs\n"
    events = [
        *_read("r1", "/repo/specs", listing, 1),
        *_read("r2", "/repo/docs", editor_listing, 2),
        # A path other files lie under is a directory, whatever its read printed.
        *_read("r3", "/repo/src/lib", ".gitkeep\nformat.ts\n", 3),
        *_read("r4", "/repo/src/lib/format.ts", "<content>\n1: export {}\n</content>", 4),
    ]
    index = tracker.feed_all(events)
    assert [(f.path, f.status) for f in index.files()] == [("src/lib/format.ts", "read")]
