"""GitHub Copilot CLI events.jsonl: a hand-written session and the real corpus."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from artifact_index.ingestion.adapters import detect
from artifact_index.ingestion.adapters.copilot_cli import CopilotCliAdapter
from artifact_index.ingestion.events import (
    AssistantMessage,
    CompactionBoundary,
    Event,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
)
from artifact_index.ingestion.source import Source, read_source
from artifact_index.trail.build import build_index

from .helpers import call_with, read_events, result_of

ADAPTER = CopilotCliAdapter()
_events = partial(read_events, ADAPTER)
_call = call_with
_result = result_of
ROOT = "/home/dev/api"


@pytest.fixture(scope="module")
def session(fixtures_dir: Path) -> tuple[list[Event], Source]:
    return _events(fixtures_dir / "copilot_cli" / "events.jsonl")


def test_session_and_messages(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    info = events[0]
    assert isinstance(info, SessionInfo)
    assert (info.cwd, info.session_id, info.version) == (ROOT, "cop-1", "1.0.64")
    users = [e for e in events if isinstance(e, UserMessage)]
    assert (users[0].text, users[0].synthetic) == ("Add a health endpoint and document it.", False)
    assert users[-1].synthetic  # the harness's shell-completed notification
    assert [a.text for a in events if isinstance(a, AssistantMessage)] == [
        "Let me read the server first.",
        "Done: /health added.",
    ]


def test_calls_take_the_turn_of_the_requesting_message(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    first = next(e for e in events if isinstance(e, AssistantMessage))
    assert _call(events, "t_view").turn == _call(events, "t_grep").turn == first.turn
    assert (
        _call(events, "t_create").turn == first.turn + 1
    )  # the empty second message is a turn too


def test_view_is_a_read(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    (op,) = _call(events, "t_view").operations
    assert (op.action, op.path, op.start_line, op.end_line) == (
        "read",
        f"{ROOT}/src/server.ts",
        1,
        40,
    )
    # A view's diff-shaped detailedContent is not a change.
    assert _result(events, "t_view").reported is None


def test_create_and_edit_reported_from_the_diff(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    (create,) = _call(events, "t_create").operations
    assert (create.action, create.path) == ("create", f"{ROOT}/src/health.ts")
    reported = _result(events, "t_create").reported
    assert reported is not None and [(r.path, r.change) for r in reported] == [
        (f"{ROOT}/src/health.ts", "created")
    ]
    (edit,) = _call(events, "t_edit").operations
    assert (edit.action, edit.old, edit.new) == (
        "edit",
        "const app = express()",
        "const app = express()\napp.get('/health', health)",
    )
    reported = _result(events, "t_edit").reported
    assert reported is not None and [r.change for r in reported] == ["modified"]


@pytest.mark.parametrize(
    ("call_id", "failure"),
    [
        ("t_nomatch", "not_found"),
        ("t_multi", "not_unique"),
        ("t_missing", "not_found"),
        ("t_denied", "rejected"),
    ],
)
def test_failed_edit_shapes(
    session: tuple[list[Event], Source], call_id: str, failure: str
) -> None:
    events, _ = session
    result = _result(events, call_id)
    assert (result.status, result.failure, result.reported) == ("failure", failure, None)
    assert result.output  # the error message the model saw


def test_shell_exit_codes(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    grep = _result(events, "t_grep")
    assert (grep.status, grep.exit_code, grep.failure) == ("failure", 1, "exit_status")
    moved = _result(events, "t_mv")
    assert (moved.status, moved.exit_code) == ("success", 0)


def test_delete_and_move_go_through_the_shell(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    (op,) = _call(events, "t_mv").operations
    assert (op.action, op.command, op.cwd, op.source) == (
        "shell",
        "git mv src/util.ts src/lib/util.ts && rm -f src/old.ts",
        ROOT,
        "shell",
    )


def test_input_typed_into_a_shell_session(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    (op,) = _call(events, "t_typed").operations
    assert (
        op.action == "shell"
        and op.command is not None
        and op.command.strip() == "touch docs/NOTES.md"
    )


def test_apply_patch_with_text_arguments(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    (op,) = _call(events, "t_patch").operations
    assert (op.action, op.path, op.source) == ("create", "docs/health.md", "patch")


def test_sub_agent_calls_are_side_chains(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    assert _call(events, "t_sub_view").sidechain == "t_task"
    assert _result(events, "t_sub_view").sidechain == "t_task"
    assert _call(events, "t_view").sidechain is None


def test_compaction(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    (boundary,) = [e for e in events if isinstance(e, CompactionBoundary)]
    assert (boundary.pre_tokens, boundary.summary) == (
        151000,
        "<overview>Added /health.</overview>",
    )


def test_unfinished_call_and_malformed_line(session: tuple[list[Event], Source]) -> None:
    events, source = session
    assert _result(events, "t_open").status == "unknown"
    assert [s.line for s in source.skipped] == [25]
    calls = [e.call_id for e in events if isinstance(e, ToolCall)]
    assert sorted(calls) == sorted(e.call_id for e in events if isinstance(e, ToolResult))


def test_other_formats_are_not_claimed() -> None:
    codex = '{"timestamp":"t","type":"session_meta","payload":{"id":"x","cwd":"/x"}}\n'
    assert not ADAPTER.sniff(Source("x.jsonl", codex))


def test_real_sessions_parse(corpus_dir: Path) -> None:
    files = sorted((corpus_dir / "copilot_cli").glob("*.gz"))
    assert files
    for path in files:
        events, source = _events(path)
        assert isinstance(events[0], SessionInfo) and events[0].cwd
        calls = [e.call_id for e in events if isinstance(e, ToolCall)]
        assert sorted(calls) == sorted(e.call_id for e in events if isinstance(e, ToolResult)), (
            path.name
        )
        assert source.skipped == [], path.name


def test_detected_by_the_registry(fixtures_dir: Path) -> None:
    assert detect(read_source(fixtures_dir / "copilot_cli" / "events.jsonl")).name == "copilot-cli"


# -- Windows: the powershell tools, and every file tool ---------------------------

WIN_ROOT = "C:\\Users\\dev\\shop"


@pytest.fixture(scope="module")
def windows(fixtures_dir: Path) -> tuple[list[Event], Source]:
    return _events(fixtures_dir / "copilot_cli" / "windows-powershell.jsonl")


def test_a_view_of_a_directory_reads_no_file(windows: tuple[list[Event], Source]) -> None:
    events, _ = windows
    assert _call(events, "w_dir").operations == ()
    (read,) = _call(events, "w_view").operations
    assert (read.action, read.path, read.start_line, read.end_line) == (
        "read",
        f"{WIN_ROOT}\\src\\cart.ts",
        1,
        3,
    )


def test_powershell_commands_are_declared_powershell(windows: tuple[list[Event], Source]) -> None:
    events, _ = windows
    (op,) = _call(events, "w_ps").operations
    assert (op.action, op.dialect, op.cwd) == ("shell", "powershell", WIN_ROOT)
    assert (
        _result(events, "w_fail").failure == "exit_status"
        and _result(events, "w_fail").exit_code == 1
    )


def test_powershell_session_tools(windows: tuple[list[Event], Source]) -> None:
    events, _ = windows
    (typed,) = _call(events, "w_typed").operations
    assert (typed.action, typed.command) == ("shell", "Set-Content -Path VERSION -Value 1.4.0\n")
    for call_id in ("w_read", "w_list", "w_stop"):
        assert _call(events, call_id).operations == ()


def test_the_trail_of_a_windows_session(fixtures_dir: Path) -> None:
    index, _ = build_index(fixtures_dir / "copilot_cli" / "windows-powershell.jsonl")
    assert index.root == "c:/Users/dev/shop"
    assert {f.path: f.status for f in index.files()} == {
        "src/cart.ts": "deleted",
        "src/basket.ts": "created",
        "src/index.ts": None,  # create refused: the path exists
        "RELEASE.md": "created",
        "VERSION": "created",
    }
    basket = next(f for f in index.files() if f.path == "src/basket.ts")
    assert basket.renamed_from == "src/cart.ts"
    assert index.unknown_effects() == []  # logs/ is a directory no file of which the trail knows


def test_the_person_stopping_the_agent_is_kept_as_an_injected_message_in_order(
    fixtures_dir: Path,
) -> None:
    events, _ = _events(fixtures_dir / "copilot_cli" / "abort.jsonl")
    said = [(e.synthetic, e.text) for e in events if isinstance(e, UserMessage)]
    assert said == [
        (False, "Add a finalize command that pushes the results branch."),
        (True, "[abort: user_initiated]"),
        (False, "instead of finalize call it update, no need to rename the branch"),
    ]


def test_a_call_runs_only_once_the_person_approves_it(fixtures_dir: Path) -> None:
    events, _ = _events(fixtures_dir / "copilot_cli" / "permissions.jsonl")
    assert _result(events, "t_mv").status == "success"
    refused = _result(events, "t_rm")
    assert (refused.status, refused.failure) == ("failure", "rejected")
    by_rule = _result(events, "t_cp")  # no completion was logged for it
    assert (by_rule.status, by_rule.failure) == ("failure", "permission")
    # Still at the approval prompt when the log ends: it never ran, so it has no result.
    assert not [e for e in events if isinstance(e, ToolResult) and e.call_id == "t_note"]
    index, _ = build_index(fixtures_dir / "copilot_cli" / "permissions.jsonl")
    assert {f.path: f.status for f in index.files() if f.status != "read"} == {
        "app.log": "deleted",
        "app.log.1": "created",
        "debug.log": None,  # the refused attempts are kept, as failed
    }


def test_a_call_open_when_the_person_stops_the_agent_did_not_complete(fixtures_dir: Path) -> None:
    events, _ = _events(fixtures_dir / "copilot_cli" / "abort.jsonl")
    stopped = _result(events, "t_mv")
    assert (stopped.status, stopped.failure) == ("failure", "interrupted")
