"""Codex CLI rollouts: hand-written fixtures for every shape, and the real corpus."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from artifact_index.ingestion.adapters import detect
from artifact_index.ingestion.adapters.codex import CodexAdapter
from artifact_index.ingestion.adapters.codex import outputs as codex_outputs
from artifact_index.ingestion.events import (
    AssistantMessage,
    CompactionBoundary,
    Event,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
    WorkingDirectory,
)
from artifact_index.ingestion.source import Source, read_source

from ..helpers import call_with, read_events, result_of

ADAPTER = CodexAdapter()
_events = partial(read_events, ADAPTER)
_call = call_with
_result = result_of


@pytest.fixture(scope="module")
def session(fixtures_dir: Path) -> tuple[list[Event], Source]:
    return _events(fixtures_dir / "codex" / "rollout-0142.jsonl")


def test_session_info_comes_first_with_cwd_version_and_both_id_shapes(
    session: tuple[list[Event], Source], fixtures_dir: Path
) -> None:
    events, _ = session
    info = events[0]
    assert isinstance(info, SessionInfo)
    assert (info.session_id, info.cwd, info.version, info.agent) == (
        "019f0000-aaaa-7000-8000-000000000001",
        "/home/dev/shop",
        "0.142.3",
        "codex",
    )
    old, _ = _events(fixtures_dir / "codex" / "rollout-0140.jsonl")
    assert (
        isinstance(old[0], SessionInfo)
        and old[0].session_id == "019e0000-bbbb-7000-8000-000000000002"
    )


def test_messages_are_not_doubled_by_event_msg_copies(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    users = [e for e in events if isinstance(e, UserMessage)]
    typed = [u.text for u in users if not u.synthetic]
    assert typed == ["Add a price formatter and use it in the cart.", "Now list the templates."]
    assert [e.text for e in events if isinstance(e, AssistantMessage)] == [
        "I'll look at the cart first."
    ]
    # AGENTS.md and the environment context are injected by Codex, not typed.
    assert sum(u.synthetic for u in users) == 2


def test_turns_group_one_model_response(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    message = next(e for e in events if isinstance(e, AssistantMessage))
    read = _call(events, "call_read")
    assert read.turn == message.turn  # reasoning + message + call are one response
    assert _call(events, "call_add").turn == read.turn + 1  # a new response after the output
    assert _result(events, "call_add").turn == _call(events, "call_add").turn


def test_read_like_shell_command_keeps_its_workdir(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    (op,) = _call(events, "call_read").operations
    assert (op.action, op.command, op.cwd, op.source) == (
        "shell",
        "sed -n '1,40p' cart.py",
        "/home/dev/shop/src",
        "shell",
    )
    result = _result(events, "call_read")
    assert (result.status, result.exit_code) == ("success", 0)


def test_create_reported_when_patch_apply_end_precedes_the_output(
    session: tuple[list[Event], Source],
) -> None:
    events, _ = session
    (op,) = _call(events, "call_add").operations
    assert (op.action, op.path, op.source) == ("create", "src/money.py", "patch")
    assert op.content is not None and "def format_price" in op.content
    result = _result(events, "call_add")
    assert result.status == "success"
    assert result.reported is not None
    assert [(r.path, r.change) for r in result.reported] == [
        ("/home/dev/shop/src/money.py", "created")
    ]


def test_edit_reported_when_patch_apply_end_follows_the_output(
    session: tuple[list[Event], Source],
) -> None:
    events, _ = session
    (op,) = _call(events, "call_update").operations
    assert (op.action, op.path) == ("edit", "src/cart.py")
    result = _result(events, "call_update")
    assert result.reported is not None
    assert [(r.path, r.change) for r in result.reported] == [
        ("/home/dev/shop/src/cart.py", "modified")
    ]
    assert (
        result.reported[0].diff is not None
        and "+from money import format_price" in result.reported[0].diff
    )


def test_failed_patch_shapes(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    verification = _result(events, "call_badpatch")
    assert (verification.status, verification.failure) == ("failure", "verification")
    assert not verification.reported
    rejected = _result(events, "call_rejected")
    assert (rejected.status, rejected.failure) == ("failure", "rejected")


def test_delete_and_move(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    ops = _call(events, "call_move").operations
    assert [(o.action, o.path, o.dest) for o in ops] == [
        ("delete", "src/old_utils.py", None),
        ("move", "src/helpers.py", "src/shop/helpers.py"),
        ("edit", "src/shop/helpers.py", None),
    ]
    reported = _result(events, "call_move").reported
    assert reported is not None
    assert [(r.path, r.change, r.move_to) for r in reported] == [
        ("/home/dev/shop/src/old_utils.py", "deleted", None),
        ("/home/dev/shop/src/helpers.py", "modified", "/home/dev/shop/src/shop/helpers.py"),
    ]


def test_exit_codes_and_unified_exec_sessions(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    running = _result(events, "call_pytest")
    # Still running when the call returned: a poll shows how it ends.
    assert (running.status, running.exit_code, running.running) == ("success", None, True)
    polled = _result(events, "call_poll")
    assert (polled.status, polled.exit_code, polled.failure) == ("failure", 1, "exit_status")
    assert _call(events, "call_poll").operations == ()  # an empty poll types nothing
    # Its output is the polled command's: the adapter names that command.
    assert _call(events, "call_poll").arguments["polled_command"] == "pytest -q"
    assert "polled_command" not in _call(events, "call_typed").arguments
    (typed,) = _call(events, "call_typed").operations  # typed into a running bash
    assert (typed.action, typed.command.strip() if typed.command else None) == (
        "shell",
        "rm -f build.log",
    )


def test_shell_argv_form_and_json_envelope_output(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    (op,) = _call(events, "call_shell").operations
    assert (op.command, op.cwd) == ("cat README.md", "/home/dev/shop")
    result = _result(events, "call_shell")
    assert (result.output, result.exit_code) == ("# Shop\n", 0)


def test_compaction_resume_and_user_shell_command(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    (boundary,) = [e for e in events if isinstance(e, CompactionBoundary)]
    assert boundary.summary is not None and boundary.summary.startswith(
        "Summary: added src/money.py"
    )
    assert boundary.pre_tokens == 21000
    assert [e.cwd for e in events if isinstance(e, WorkingDirectory)] == ["/home/dev/shop/web"]
    (op,) = _call(events, "user_cmd_1").operations
    assert (op.command, op.cwd) == ("git stash", "/home/dev/shop/web")


def test_every_call_gets_one_result_and_open_calls_are_unknown(
    session: tuple[list[Event], Source],
) -> None:
    events, _ = session
    calls = [e.call_id for e in events if isinstance(e, ToolCall)]
    results = [e.call_id for e in events if isinstance(e, ToolResult)]
    assert sorted(calls) == sorted(results)
    assert _result(events, "call_ls").status == "unknown"


def test_malformed_line_is_skipped_and_counted(session: tuple[list[Event], Source]) -> None:
    _, source = session
    assert [s.line for s in source.skipped] == [37]


def test_interrupted_command(fixtures_dir: Path) -> None:
    events, _ = _events(fixtures_dir / "codex" / "rollout-0140.jsonl")
    result = _result(events, "call_rm")
    assert (result.status, result.failure) == ("failure", "interrupted")


def test_2025_layout_local_shell_and_intercepted_apply_patch(fixtures_dir: Path) -> None:
    events, source = _events(fixtures_dir / "codex" / "rollout-2025-legacy.jsonl")
    assert isinstance(events[0], SessionInfo) and events[0].cwd == "/work/legacy"
    (read,) = _call(events, "call_ls1").operations
    assert (read.action, read.command, read.cwd) == ("shell", "cat setup.py", "/work/legacy")
    (patch,) = _call(events, "call_ap").operations
    assert (patch.action, patch.path, patch.source) == ("edit", "setup.py", "patch")
    # `cd pkg && apply_patch <<EOF`: the patch's paths are relative to pkg/.
    (created,) = _call(events, "call_ap2").operations
    assert (created.action, created.path) == ("create", "/work/legacy/pkg/VERSION")
    assert source.skipped == []


def test_other_formats_are_not_claimed() -> None:
    claude = '{"type":"user","message":{"role":"user","content":"hi"},"uuid":"u1"}\n'
    assert not ADAPTER.sniff(Source("x.jsonl", claude))
    assert not ADAPTER.sniff(Source("x.json", '{"messages": []}'))


def test_real_rollouts_parse(corpus_dir: Path) -> None:
    files = sorted((corpus_dir / "codex").glob("*.gz"))
    assert files
    for path in files:
        events, source = _events(path)
        assert isinstance(events[0], SessionInfo) and events[0].cwd
        calls = {e.call_id for e in events if isinstance(e, ToolCall)}
        assert calls == {e.call_id for e in events if isinstance(e, ToolResult)}, path.name
        assert source.skipped == [], path.name


def test_detected_by_the_registry(fixtures_dir: Path) -> None:
    assert detect(read_source(fixtures_dir / "codex" / "rollout-0142.jsonl")).name == "codex"


def test_patch_applied_outside_any_call_of_the_file(session: tuple[list[Event], Source]) -> None:
    # patch_apply_end for a call this rollout never made (another thread of the session).
    events, _ = session
    call = _call(events, "call_other_thread")
    assert [(o.action, o.path) for o in call.operations] == [
        ("create", "/home/dev/shop/web/templates/base.html")
    ]
    result = _result(events, "call_other_thread")
    assert result.status == "success" and result.reported is not None
    assert [(r.path, r.change) for r in result.reported] == [
        ("/home/dev/shop/web/templates/base.html", "created")
    ]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["\n", "\r", "\r\n", "\x0b", "\x1c", "\x85", "\u2028", "x", "x" * 300, "Output:"]
        ),
        max_size=60,
    )
)
def test_the_header_of_an_output_is_read_from_its_first_lines_only(pieces: list[str]) -> None:
    # Long outputs are not split whole to find the header: the first lines must be the same.
    text = "".join(pieces)
    assert codex_outputs._head(text, 8) == text.splitlines()[:8]


def test_the_bookkeeping_lines_of_0_169_are_ignored_not_skipped() -> None:
    # Codex 0.169.0 (run for real in tests/summarizer/integrations/test_real_agents.py) writes a snapshot of the
    # environment it describes to the model and a token record per response between the usual lines.
    lines = [
        {
            "timestamp": "t",
            "type": "session_meta",
            "payload": {"id": "s", "cwd": "/p", "cli_version": "0.169.0"},
        },
        {
            "timestamp": "t",
            "ordinal": 4,
            "type": "world_state",
            "payload": {
                "full": True,
                "state": {"environments": {"environments": {"local": {"cwd": "/p"}}}},
            },
        },
        {
            "timestamp": "t",
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "hi"}],
            },
        },
        {
            "timestamp": "t",
            "ordinal": 10,
            "type": "token_usage_record",
            "payload": {"session_id": "s", "usage": {"input_tokens": 100, "output_tokens": 20}},
        },
    ]
    source = Source("rollout.jsonl", "\n".join(json.dumps(line) for line in lines) + "\n")
    assert ADAPTER.sniff(source)
    events = list(ADAPTER.events(source))
    assert [e.text for e in events if isinstance(e, UserMessage)] == ["hi"]
    assert source.skipped == []


# --- one pass: what later records say is learned from the lines that hold it ---------------


def _line(kind: str, payload: dict[str, object], second: int) -> str:
    return json.dumps(
        {"timestamp": f"2026-03-01T10:00:{second:02d}.000Z", "type": kind, "payload": payload}
    )


def _rollout_that_looks_ahead() -> str:
    """A rollout whose every later-record question is asked before the record that answers it."""
    patch = "*** Begin Patch\n*** Add File: notes.md\n+hello\n*** End Patch"
    lines = [
        _line("session_meta", {"id": "s1", "cli_version": "0.142.0"}, 0),  # no cwd, no model yet
        _line("event_msg", {"type": "agent_message", "message": "Looking."}, 1),  # echoed later
        _line(
            "response_item",
            {"type": "message", "role": "user", "content": "<environment_context><cwd>/w</cwd>"},
            2,
        ),
        _line("event_msg", {"type": "context_compacted"}, 3),  # a compacted record follows
        _line("turn_context", {"cwd": "/w", "model": "gpt-5.5"}, 4),
        _line("response_item", {"type": "message", "role": "assistant", "content": "Looking."}, 5),
        _line(
            "response_item",
            {"type": "custom_tool_call", "name": "apply_patch", "call_id": "p1", "input": patch},
            6,
        ),
        # The harness reports the patch before the call's output, as Codex 0.142 writes it.
        _line(
            "event_msg",
            {
                "type": "patch_apply_end",
                "call_id": "p1",
                "success": True,
                "changes": {"/w/notes.md": {"type": "add", "content": "hello\n"}},
            },
            7,
        ),
        _line(
            "response_item",
            {"type": "custom_tool_call_output", "call_id": "p1", "output": "Success."},
            8,
        ),
        _line(
            "response_item",
            {
                "type": "function_call",
                "name": "exec_command",
                "call_id": "c1",
                "arguments": '{"cmd": "make"}',
            },
            9,
        ),
        _line(
            "response_item",
            {"type": "function_call_output", "call_id": "c1", "output": "built"},
            10,
        ),
        _line(
            "event_msg", {"type": "exec_command_end", "call_id": "c1", "exit_code": 2}, 11
        ),  # after
        _line(
            "event_msg",
            {
                "type": "patch_apply_end",
                "call_id": "p9",
                "success": True,  # no call, no output
                "changes": {"/w/other.md": {"type": "add", "content": "x\n"}},
            },
            12,
        ),
        _line(
            "event_msg",
            {
                "type": "exec_command_end",
                "call_id": "u1",
                "source": "user_shell",
                "command": ["bash", "-lc", "rm old.md"],
                "exit_code": 0,
            },
            13,
        ),
        _line(
            "response_item",
            {
                "type": "function_call",
                "name": "exec_command",
                "call_id": "u1",
                "arguments": '{"cmd": "ls"}',
            },
            14,
        ),
        json.dumps(
            {
                "timestamp": "2026-03-01T10:00:15.000Z",
                "type": "compacted",
                "payload": {"message": "summary"},
            }
        ),
    ]
    return "\n".join(lines) + "\n"


def test_one_pass_answers_what_later_records_say_as_the_whole_file_does() -> None:
    from artifact_index.ingestion.adapters.codex.lookahead import RolloutIndex
    from artifact_index.ingestion.adapters.codex.records import Rollout
    from artifact_index.ingestion.adapters.codex.rollout_reader import Reader

    text = _rollout_that_looks_ahead()
    one_pass = list(ADAPTER.events(Source("r.jsonl", text)))
    whole = Source("r.jsonl", text)
    records = list(Rollout(whole, whole.records))
    assert one_pass == list(Reader(whole.skip, RolloutIndex.of(records)).read(records))
    session = next(e for e in one_pass if isinstance(e, SessionInfo))
    assert (session.cwd, session.model) == ("/w", "gpt-5.5")
    patch = next(e for e in one_pass if isinstance(e, ToolResult) and e.call_id == "p1")
    assert patch.reported is not None and patch.reported[0].path == "/w/notes.md"
    made = next(e for e in one_pass if isinstance(e, ToolResult) and e.call_id == "c1")
    assert made.exit_code == 2 and made.status == "failure"
    assert [e.call_id for e in one_pass if isinstance(e, ToolCall)] == ["p1", "c1", "p9", "u1"]
    assert sum(isinstance(e, CompactionBoundary) for e in one_pass) == 1
    assert sum(isinstance(e, AssistantMessage) for e in one_pass) == 1  # the event is an echo


@pytest.mark.parametrize(
    "fixture",
    [
        "rollout-0140.jsonl",
        "rollout-0142.jsonl",
        "rollout-2025-legacy.jsonl",
        "rollout-tmp-deliverable.jsonl",
    ],
)
def test_each_fixture_reads_in_one_pass_as_with_the_whole_file_known(
    fixtures_dir: Path, fixture: str
) -> None:
    from artifact_index.ingestion.adapters.codex.lookahead import RolloutIndex
    from artifact_index.ingestion.adapters.codex.records import Rollout
    from artifact_index.ingestion.adapters.codex.rollout_reader import Reader

    path = fixtures_dir / "codex" / fixture
    one_pass = list(ADAPTER.events(read_source(path)))
    whole = read_source(path)
    records = list(Rollout(whole, whole.records))
    assert one_pass == list(Reader(whole.skip, RolloutIndex.of(records)).read(records))
