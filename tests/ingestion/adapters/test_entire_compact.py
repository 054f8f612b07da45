"""Entire's compact transcript: a hand-written fixture for every shape, and the real corpus."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from artifact_index.ingestion.adapters import detect
from artifact_index.ingestion.adapters.entire_compact import EntireCompactAdapter
from artifact_index.ingestion.events import (
    AssistantMessage,
    Event,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
)
from artifact_index.ingestion.source import Source, read_source

from .helpers import call_with, read_events, result_of

ADAPTER = EntireCompactAdapter()
_events = partial(read_events, ADAPTER)
_call = call_with
_result = result_of
ROOT = "D:\\proj"


@pytest.fixture(scope="module")
def session(fixtures_dir: Path) -> tuple[list[Event], Source]:
    return _events(fixtures_dir / "entire_compact" / "transcript.jsonl")


def test_detected_as_entire_compact_not_claude_code(fixtures_dir: Path) -> None:
    assert (
        detect(read_source(fixtures_dir / "entire_compact" / "transcript.jsonl")).name
        == "entire-compact"
    )


def test_session_info_has_agent_version_and_the_cwd_from_claude_code_folder_names(
    session: tuple[list[Event], Source],
) -> None:
    info = session[0][0]
    assert isinstance(info, SessionInfo)
    # The scratchpad path ...\claude\D--proj\<session>\... names the workspace D:\proj.
    assert (info.agent, info.version, info.cwd) == ("claude-code", "0.8.42", ROOT)


def test_read_call_and_its_inlined_result(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    call = _call(events, "toolu_e1")
    assert [(op.action, op.path) for op in call.operations] == [("read", f"{ROOT}\\src\\writer.go")]
    result = _result(events, "toolu_e1")
    assert (result.status, result.line) == ("success", call.line)


def test_write_creating_a_file_is_reported_created_with_content(
    session: tuple[list[Event], Source],
) -> None:
    reported = _result(session[0], "toolu_e2").reported
    assert reported is not None
    assert [(r.path, r.change, r.content) for r in reported] == [
        (f"{ROOT}\\src\\gradient.go", "created", "package terminal\n"),
    ]


def test_edit_success_is_reported_modified(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    (op,) = _call(events, "toolu_e3").operations
    assert (op.action, op.old, op.new) == ("edit", "func write(", "func writeColored(")
    reported = _result(events, "toolu_e3").reported
    assert reported is not None and [r.change for r in reported] == ["modified"]


@pytest.mark.parametrize(
    ("call_id", "reason", "exit_code"),
    [
        ("toolu_e4", "not_found", None),
        ("toolu_e5", "not_read", None),
        ("toolu_e6", "rejected", None),
        ("toolu_e7", "exit_status", 1),
    ],
)
def test_failures_are_classified(
    session: tuple[list[Event], Source], call_id: str, reason: str, exit_code: int | None
) -> None:
    result = _result(session[0], call_id)
    assert (result.status, result.failure, result.exit_code, result.reported) == (
        "failure",
        reason,
        exit_code,
        None,
    )


def test_two_calls_of_one_response_share_a_turn_and_bash_success_exits_zero(
    session: tuple[list[Event], Source],
) -> None:
    events, _ = session
    assert _call(events, "toolu_e8").turn == _call(events, "toolu_e9").turn
    (op,) = _call(events, "toolu_e9").operations
    assert op.action == "shell"
    assert _result(events, "toolu_e9").exit_code == 0


def test_a_call_cut_off_before_its_result_has_no_result(
    session: tuple[list[Event], Source],
) -> None:
    events, _ = session
    assert _call(events, "toolu_e10").tool == "Bash"
    assert not any(isinstance(e, ToolResult) and e.call_id == "toolu_e10" for e in events)


def test_user_messages_typed_and_injected(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    users = [(e.turn, e.synthetic) for e in events if isinstance(e, UserMessage)]
    assert users == [(1, False), (10, True)]
    assert isinstance(events[2], AssistantMessage) and events[2].turn == 2


def test_malformed_line_is_skipped_and_counted(session: tuple[list[Event], Source]) -> None:
    _, source = session
    assert [s.line for s in source.skipped] == [8]


def test_not_entire_compact(fixtures_dir: Path) -> None:
    assert not ADAPTER.sniff(read_source(fixtures_dir / "claude_code" / "edits.jsonl"))


def test_every_corpus_transcript_parses_and_edits_yield_changes(corpus_dir: Path) -> None:
    paths = sorted((corpus_dir / "entire_compact").glob("*.gz"))
    assert paths
    with_changes = 0
    for path in paths:
        events, source = _events(path)
        assert isinstance(events[0], SessionInfo), path.name
        assert source.skipped == [], path.name
        calls = {e.call_id: e for e in events if isinstance(e, ToolCall)}
        edits = [c for c in calls.values() if c.tool in ("Edit", "Write")]
        changed = {
            op.path
            for e in events
            if isinstance(e, ToolResult) and e.status == "success"
            for op in calls[e.call_id].operations
            if op.action in ("edit", "write")
        }
        if any(_result(events, c.call_id).status == "success" for c in edits):
            assert changed, path.name
            with_changes += 1
    assert with_changes >= 3
