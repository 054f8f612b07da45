"""``codex exec --json`` event streams: read as Codex transcripts, into the events a rollout gives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from artifact_index.ingestion.adapters import adapter_named, detect
from artifact_index.ingestion.adapters.codex.exec_stream import _script
from artifact_index.ingestion.events import (
    AssistantMessage,
    Event,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
)
from artifact_index.ingestion.following import AppendedLines
from artifact_index.ingestion.loading import Loaded
from artifact_index.ingestion.source import Source, read_source
from artifact_index.trail.build import build_index

from ..helpers import call_with, result_of


@pytest.fixture(scope="module")
def stream_path(fixtures_dir: Path) -> Path:
    return fixtures_dir / "codex" / "exec-stream.jsonl"


@pytest.fixture(scope="module")
def captured_path(fixtures_dir: Path) -> Path:
    return fixtures_dir / "codex" / "exec-stream-captured.log"


@pytest.fixture(scope="module")
def events(stream_path: Path) -> list[Event]:
    source = read_source(stream_path)
    return list(detect(source).events(source))


def test_both_shapes_are_detected_as_codex_from_their_head(
    stream_path: Path, captured_path: Path
) -> None:
    for path in (stream_path, captured_path):
        assert detect(read_source(path)).name == "codex", path.name


def test_format_codex_reads_the_stream_as_detection_does(stream_path: Path) -> None:
    source = read_source(stream_path)
    forced = list(adapter_named("codex").events(read_source(stream_path)))
    assert forced == list(detect(source).events(source))
    assert any(isinstance(e, ToolCall) for e in forced)


def test_the_session_is_the_thread(events: list[Event]) -> None:
    info = events[0]
    assert isinstance(info, SessionInfo)
    assert (info.session_id, info.agent, info.cwd) == (
        "0199aaaa-0000-7000-8000-00000000e0e0",
        "codex",
        None,  # the stream names no working directory
    )


def test_a_command_is_its_script_with_exit_code_and_output(events: list[Event]) -> None:
    call = call_with(events, "item_3")
    assert call.tool == "exec_command"
    assert call.arguments == {"command": "/bin/bash -lc 'ls weather'"}
    assert [(op.action, op.command) for op in call.operations] == [("shell", "ls weather")]
    result = result_of(events, "item_3")
    assert (result.status, result.exit_code) == ("success", 0)
    assert "old_units.py" in result.output
    failed = result_of(events, "item_6")
    assert (failed.status, failed.failure, failed.exit_code) == ("failure", "exit_status", 1)
    assert "1 failed, 1 passed" in failed.output
    declined = result_of(events, "item_7")
    assert (declined.status, declined.failure) == ("failure", "rejected")


def test_a_file_change_reports_each_kind_and_a_failed_one_changed_nothing(
    events: list[Event],
) -> None:
    call = call_with(events, "item_4")
    assert call.tool == "apply_patch"
    assert [(op.action, op.path) for op in call.operations] == [
        ("create", "/home/dev/weather/weather/units.py"),
        ("edit", "/home/dev/weather/weather/report.py"),
        ("delete", "/home/dev/weather/weather/old_units.py"),
    ]
    result = result_of(events, "item_4")
    assert result.status == "success" and result.reported is not None
    assert [(r.path.rsplit("/", 1)[-1], r.change) for r in result.reported] == [
        ("units.py", "created"),
        ("report.py", "modified"),
        ("old_units.py", "deleted"),
    ]
    failed = result_of(events, "item_5")
    assert (failed.status, failed.reported) == ("failure", None)


def test_mcp_calls_are_named_by_server_and_tool_and_fail_with_their_error(
    events: list[Event],
) -> None:
    write = call_with(events, "item_8")
    assert write.tool == "mcp__files__write_file"
    assert [(op.action, op.path) for op in write.operations] == [
        ("write", "/home/dev/weather/NOTES.md")
    ]
    assert result_of(events, "item_8").output == "Wrote 15 bytes"
    failed = result_of(events, "item_9")
    assert (failed.status, failed.output) == ("failure", "server web is not running")


def test_the_to_do_list_is_an_update_plan_call_per_new_state(events: list[Event]) -> None:
    plans = [e for e in events if isinstance(e, ToolCall) and e.tool == "update_plan"]
    # started, two updates; its completion repeats the last state and adds nothing
    assert [[s["status"] for s in p.arguments["plan"]] for p in plans] == [
        ["pending", "pending"],
        ["completed", "pending"],
        ["completed", "completed"],
    ]
    assert len({p.call_id for p in plans}) == 3


def test_messages_reasoning_and_calls_share_a_response_until_a_result(events: list[Event]) -> None:
    first, second = [e for e in events if isinstance(e, AssistantMessage)]
    assert first.text.startswith("I'll add a units helper")
    assert call_with(events, "item_3").turn > first.turn
    assert result_of(events, "item_3").turn == call_with(events, "item_3").turn
    assert second.turn > call_with(events, "item_9").turn


def test_turn_failures_and_errors_are_harness_notices(events: list[Event]) -> None:
    notices = [e.text for e in events if isinstance(e, UserMessage)]
    assert notices == [
        "[error: model stream interrupted; retrying]",
        "[turn failed: stream disconnected before completion]",
    ]
    assert all(e.synthetic for e in events if isinstance(e, UserMessage))


def test_the_trail_holds_what_succeeded_and_nothing_a_failed_change_named(
    stream_path: Path,
) -> None:
    index, _ = build_index(stream_path)
    assert {f.path: f.status for f in index.changed_files()} == {
        "/home/dev/weather/weather/units.py": "created",
        "/home/dev/weather/weather/report.py": "modified",
        "/home/dev/weather/weather/old_units.py": "deleted",
        "/home/dev/weather/setup.cfg": "modified",
        "/home/dev/weather/NOTES.md": "created",
    }
    assert [t.status for t in index.tasks()] == ["completed", "completed"]


def test_a_script_s_own_lines_around_the_stream_are_skipped_and_counted(
    captured_path: Path,
) -> None:
    index, loaded = build_index(captured_path)
    assert [s.line for s in loaded.source.skipped] == [1, 2, 9, 14, 15]
    assert {f.path: f.status for f in index.changed_files()} == {
        "/srv/review/out/status.txt": "created"
    }
    review = next(f for f in index.files() if f.path == "/srv/review/out/review.md")
    assert review.status is None  # only the failed file change named it


def test_followed_it_gives_what_reading_it_whole_gives(captured_path: Path) -> None:
    """The script's first lines show no layout yet: the records after them decide."""
    data = captured_path.read_bytes()
    stream = adapter_named("codex").stream()
    assert stream is not None
    appended = AppendedLines()
    handed: list[Event] = []
    for line in data.splitlines(keepends=True):
        records, _ = appended.feed(line)
        handed += stream.add(records)
    handed += stream.finish()
    assert handed == list(Loaded(Source.from_bytes("t", data), adapter_named("codex")).events())


def test_a_stream_cut_mid_call_leaves_the_call_open(stream_path: Path) -> None:
    lines = stream_path.read_text().splitlines()
    started = next(n for n, line in enumerate(lines) if '"item_6"' in line)
    source = Source("cut.jsonl", "\n".join(lines[: started + 1]) + "\n")
    events = list(detect(source).events(source))
    assert result_of(events, "item_6").status == "unknown"


def test_an_item_without_an_id_or_of_an_unknown_type_is_skipped_once() -> None:
    records = [
        {"type": "thread.started", "thread_id": "t"},
        {"type": "item.completed", "item": {"type": "agent_message", "text": "no id"}},
        {"type": "item.started", "item": {"id": "x", "type": "hologram"}},
        {"type": "item.completed", "item": {"id": "x", "type": "hologram"}},
    ]
    source = Source("t.jsonl", "".join(json.dumps(r) + "\n" for r in records))
    events = list(detect(source).events(source))
    assert [type(e).__name__ for e in events] == ["SessionInfo"]
    assert [s.line for s in source.skipped] == [2, 3]


@pytest.mark.parametrize(
    ("command", "script"),
    [
        ("/bin/zsh -lc 'rg --files | head -200'", "rg --files | head -200"),
        ("bash -c \"echo 'a b' > out.txt\"", "echo 'a b' > out.txt"),
        ("git status --short", "git status --short"),
        ("/bin/bash -lc 'unbalanced", "/bin/bash -lc 'unbalanced"),
        ("python -c 'print(1)'", "python -c 'print(1)'"),
    ],
)
def test_the_script_is_taken_out_of_its_shell_wrapper_only(command: str, script: str) -> None:
    assert _script(command) == script


def test_a_rollout_is_still_read_as_a_rollout(fixtures_dir: Path) -> None:
    source = read_source(fixtures_dir / "codex" / "rollout-0142.jsonl")
    events = list(detect(source).events(source))
    assert isinstance(events[0], SessionInfo) and events[0].version == "0.142.3"
    assert any(isinstance(e, ToolResult) and e.reported for e in events)  # patch_apply_end read
    assert not any("exec event" in s.reason for s in source.skipped)
