"""OpenHands: the legacy event stream, the older resolver output, SDK events, and the real corpus."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest

from artifact_index.ingestion.adapters.openhands import OpenHandsAdapter, ipython_operations
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
from artifact_index.ingestion.source import Source
from artifact_index.trail.tracker import Tracker

from ..conftest import Loader
from ..helpers import call_with, read_events, result_of

ADAPTER = OpenHandsAdapter()
_events = partial(read_events, ADAPTER)
_call = call_with
_result = result_of
REPO = "/workspace/demo__calc__1.0"


def _outcome(events: list[Event], call_id: str) -> tuple[str, str | None]:
    result = _result(events, call_id)
    return result.status, result.failure


@pytest.fixture(scope="module")
def legacy(fixtures_dir: Path) -> list[Event]:
    return _events(fixtures_dir / "openhands" / "legacy.json")[0]


@pytest.fixture(scope="module")
def resolver(fixtures_dir: Path) -> list[Event]:
    return _events(fixtures_dir / "openhands" / "resolver.jsonl")[0]


@pytest.fixture(scope="module")
def sdk(fixtures_dir: Path) -> list[Event]:
    return _events(fixtures_dir / "openhands" / "sdk.json")[0]


# -- A: the legacy event stream ---------------------------------------------------------------------------
def test_root_is_the_uploaded_repository(legacy: list[Event]) -> None:
    info = legacy[0]
    assert isinstance(info, SessionInfo)
    assert (info.cwd, info.session_id, info.model) == (
        REPO,
        "demo__calc-1",
        "anthropic/claude-3-5-sonnet",
    )


def test_read_of_a_directory_reads_no_file_and_view_range_is_kept(legacy: list[Event]) -> None:
    assert _call(legacy, "toolu_02").operations == ()
    (read,) = _call(legacy, "toolu_03").operations
    assert (read.action, read.path, read.start_line, read.end_line) == (
        "read",
        f"{REPO}/calc/core.py",
        1,
        2,
    )


def test_failed_edit_still_says_i_edited_the_file_but_is_a_failure(legacy: list[Event]) -> None:
    (edit,) = _call(legacy, "toolu_04").operations
    assert (edit.action, edit.old, edit.new) == ("edit", "return a * b", "return a + b")
    assert _outcome(legacy, "toolu_04") == ("failure", "not_found")
    # prev_exist/new_content of a failed edit are the arguments, not the file: nothing is reported.
    assert _result(legacy, "toolu_04").reported is None
    assert _outcome(legacy, "toolu_07") == ("failure", "invalid")  # insert_line out of range


def test_successful_str_replace_reports_a_modification(legacy: list[Event]) -> None:
    assert _outcome(legacy, "toolu_05") == ("success", None)
    (change,) = _result(legacy, "toolu_05").reported or ()
    assert (change.path, change.change, change.content) == (
        f"{REPO}/calc/core.py",
        "modified",
        None,
    )
    assert change.diff and "+    return a + b" in change.diff


def test_create_from_translated_ipython_code_reports_the_new_content(legacy: list[Event]) -> None:
    (create,) = _call(legacy, "toolu_06").operations
    assert (create.action, create.path) == ("create", f"{REPO}/tests/test_add.py")
    assert (
        create.content
        == "from calc.core import add\n\ndef test_add():\n    assert add(1, 2) == 3\n"
    )
    (change,) = _result(legacy, "toolu_06").reported or ()
    assert (change.change, change.content) == ("created", create.content)


def test_write_action_is_a_whole_file_write(legacy: list[Event]) -> None:
    (write,) = _call(legacy, "toolu_12").operations
    assert (write.action, write.path, write.content) == (
        "write",
        f"{REPO}/NOTES.md",
        "Fixed add().\n",
    )


def test_run_exit_codes_and_directories(legacy: list[Event]) -> None:
    assert (_result(legacy, "toolu_01").status, _result(legacy, "toolu_01").exit_code) == (
        "success",
        0,
    )
    assert (_result(legacy, "toolu_08").status, _result(legacy, "toolu_08").exit_code) == (
        "failure",
        1,
    )
    # exit code -1: still running (a server) - neither success nor failure.
    assert (_result(legacy, "toolu_09").status, _result(legacy, "toolu_09").exit_code) == (
        "unknown",
        None,
    )
    moves = [e.cwd for e in legacy if isinstance(e, WorkingDirectory)]
    assert moves == [f"{REPO}/tests"]
    (listing,) = _call(legacy, "toolu_11").operations
    assert (listing.command, listing.cwd) == ("ls -la", f"{REPO}/tests")


def test_input_to_a_running_process_is_not_a_command(legacy: list[Event]) -> None:
    assert _call(legacy, "toolu_10").operations == ()


def test_rejected_action_and_unpaired_error(legacy: list[Event]) -> None:
    assert _outcome(legacy, "toolu_13") == ("failure", "rejected")
    synthetic = [e for e in legacy if isinstance(e, UserMessage) and e.synthetic]
    assert len(synthetic) == 1 and synthetic[0].text.startswith("Parameter 'command' is expected")


def test_condensation_is_a_compaction_boundary(legacy: list[Event]) -> None:
    (boundary,) = [e for e in legacy if isinstance(e, CompactionBoundary)]
    assert boundary.summary == "Fixed add() in calc/core.py; tests added."


def test_legacy_session_nets_out(legacy: list[Event]) -> None:
    index = Tracker(format="openhands").feed_all(legacy)
    changed = {
        f.path: f.status for f in index.files() if f.status in ("created", "modified", "deleted")
    }
    assert changed == {
        "calc/core.py": "modified",
        "tests/test_add.py": "created",
        "NOTES.md": "created",
    }


# -- B: the older resolver output ------------------------------------------------------------------------------
def test_resolver_pairs_flat_items_in_order(resolver: list[Event]) -> None:
    info = resolver[0]
    assert isinstance(info, SessionInfo) and info.cwd == "/workspace"
    calls = [e for e in resolver if isinstance(e, ToolCall)]
    assert [c.tool for c in calls][:2] == ["run", "run_ipython"]
    assert len(calls) == len([e for e in resolver if isinstance(e, ToolResult)])


def test_agentskills_calls_become_exact_operations(resolver: list[Event]) -> None:
    ops = [
        (op.action, op.path, op.old, op.new, op.detail)
        for c in resolver
        if isinstance(c, ToolCall)
        for op in c.operations
        if op.source == "tool"
    ]
    assert ops == [
        ("read", "/workspace/src/App.css", None, None, None),
        (
            "edit",
            "/workspace/src/App.css",
            "  color: black;",
            "  color: black;\n  background: white;",
            None,
        ),
        ("edit", "/workspace/src/App.tsx", None, 'import { useState } from "react"', "insert"),
        ("create", "/workspace/LICENSE", None, None, None),
        ("edit", "/workspace/LICENSE", None, "MIT License", "append"),
    ]


def test_agentskills_lint_failure_and_python_exception_are_failures(resolver: list[Event]) -> None:
    calls = [e for e in resolver if isinstance(e, ToolCall)]
    insert = next(c for c in calls if any(op.detail == "insert" for op in c.operations))
    assert _outcome(resolver, insert.call_id) == ("failure", "verification")
    raising = next(
        c for c in calls if "missing.txt" in (c.operations[0].command or "") if c.operations
    )
    assert _outcome(resolver, raising.call_id) == ("failure", "other")


def test_plain_python_and_bang_lines_go_to_the_shell_module(resolver: list[Event]) -> None:
    shell = [
        op
        for c in resolver
        if isinstance(c, ToolCall)
        for op in c.operations
        if op.action == "shell"
    ]
    script = next(
        op for op in shell if op.detail == "IPython cell" and "notes.txt" in (op.command or "")
    )
    assert (
        script.command
        == "python3 - <<'PYTHON_EOF'\nwith open('notes.txt', 'w') as f:\n    f.write('todo')\nprint('written')\nPYTHON_EOF"
    )
    assert script.cwd == "/workspace"
    assert any(op.command == "rm notes.txt" for op in shell)


def test_resolver_follows_the_prompt_directory(resolver: list[Event]) -> None:
    assert [e.cwd for e in resolver if isinstance(e, WorkingDirectory)] == ["/workspace/src"]
    last = [e for e in resolver if isinstance(e, ToolCall)][-1]
    assert (last.operations[0].command, last.operations[0].cwd) == ("git status", "/workspace/src")


def test_ipython_operations_with_a_variable_path_fall_back_to_the_shell_module() -> None:
    ops, current = ipython_operations(
        "name = 'a.py'\nedit_file_by_replace(name, 'x', 'y')", "/w", None
    )
    assert [op.action for op in ops] == ["shell"]
    assert current is None
    ops, current = ipython_operations("open_file('/w/a.py')\nscroll_down()", "/w", None)
    assert [(op.action, op.path) for op in ops] == [("read", "/w/a.py"), ("read", "/w/a.py")]
    assert current == "/w/a.py"


# -- C: the software-agent SDK ----------------------------------------------------------------------------------
def test_sdk_instruction_is_the_first_user_message(sdk: list[Event]) -> None:
    users = [e for e in sdk if isinstance(e, UserMessage) and not e.synthetic]
    assert [u.text for u in users] == ["Write hello.py in /workspace.", "Also add a test."]
    assert users[0].turn == 1


def test_sdk_editor_calls(sdk: list[Event]) -> None:
    assert _outcome(sdk, "c1") == ("failure", "invalid")  # the path does not exist
    (create,) = _call(sdk, "c3").operations
    assert (create.action, create.path, create.content) == (
        "create",
        "/workspace/hello.py",
        "print('hello')\n",
    )
    (change,) = _result(sdk, "c3").reported or ()
    assert (change.change, change.content) == ("created", "print('hello')\n")
    assert _outcome(sdk, "c5") == ("failure", "not_found")
    (modified,) = _result(sdk, "c6").reported or ()
    assert (modified.change, modified.content) == ("modified", None)


def test_sdk_parallel_calls_share_a_turn_and_pair_by_id(sdk: list[Event]) -> None:
    assert _call(sdk, "c3").turn == _call(sdk, "c4").turn
    assert _result(sdk, "c4").turn == _call(sdk, "c4").turn


def test_sdk_shell_exit_codes_timeout_rejection(sdk: list[Event]) -> None:
    assert (_result(sdk, "c2").status, _result(sdk, "c2").exit_code) == ("success", 0)
    assert (_result(sdk, "c7").status, _result(sdk, "c7").exit_code) == ("failure", 1)
    assert _outcome(sdk, "c8") == ("failure", "interrupted")
    assert _outcome(sdk, "c9") == ("failure", "rejected")
    assert [e.cwd for e in sdk if isinstance(e, WorkingDirectory)] == ["/workspace/sub"]
    assert _call(sdk, "c8").operations[0].cwd == "/workspace/sub"


def test_sdk_agent_error_without_a_call_and_condensation(sdk: list[Event]) -> None:
    synthetic = [e.text for e in sdk if isinstance(e, UserMessage) and e.synthetic]
    assert len(synthetic) == 1 and synthetic[0].startswith("Error validating args")
    (boundary,) = [e for e in sdk if isinstance(e, CompactionBoundary)]
    assert boundary.summary == "Created hello.py and README.md."
    assert any(
        isinstance(e, AssistantMessage) and e.text == "hello.py prints a greeting." for e in sdk
    )


# -- shapes, malformed input, detection ---------------------------------------------------------------------------
def test_bare_event_list(fixtures_dir: Path) -> None:
    events, _ = _events(fixtures_dir / "openhands" / "events.json")
    (call,) = [e for e in events if isinstance(e, ToolCall)]
    assert call.operations[0].command == "mv /workspace/game.py /workspace/main.py"
    assert _result(events, call.call_id).status == "success"


def test_malformed_jsonl_keeps_what_it_can(fixtures_dir: Path) -> None:
    events, source = _events(fixtures_dir / "openhands" / "malformed.jsonl")
    assert [s.line for s in source.skipped] == [
        3
    ]  # the non-object line; the broken one is reported by the loader
    calls = [e for e in events if isinstance(e, ToolCall)]
    assert [c.tool for c in calls] == ["run", "edit"]
    assert _result(events, calls[0].call_id).exit_code == 0
    assert _result(events, calls[1].call_id).status == "unknown"  # no observation was recorded


def test_other_documents_are_not_openhands() -> None:
    assert not ADAPTER.sniff(Source("x.json", '{"trajectory": [], "history": [{"action": "ls"}]}'))
    assert not ADAPTER.sniff(Source("x.json", '[{"role": "user", "content": "hi"}]'))


def test_detection_picks_openhands(load: Loader, fixtures_dir: Path) -> None:
    for name in ("legacy.json", "resolver.jsonl", "sdk.json", "events.json"):
        assert load("openhands", fixtures_dir / "openhands" / name).detected == "openhands"


def test_real_histories_parse(corpus_dir: Path) -> None:
    files = sorted((corpus_dir / "openhands").glob("*.gz"))
    assert files
    for path in files:
        events, source = _events(path)
        assert isinstance(events[0], SessionInfo) and events[0].cwd, path.name
        calls = {e.call_id for e in events if isinstance(e, ToolCall)}
        assert calls == {e.call_id for e in events if isinstance(e, ToolResult)}, path.name
        assert source.skipped == [], path.name


def test_real_failed_edits_are_failures(corpus_dir: Path) -> None:
    events, _ = _events(corpus_dir / "openhands" / "oh_multiswebench__ponylang__ponyc-4593.json.gz")
    assert isinstance(events[0], SessionInfo) and events[0].cwd == "/workspace/ponylang__ponyc__0.1"
    edits = [
        c
        for c in events
        if isinstance(c, ToolCall) and any(op.action == "edit" for op in c.operations)
    ]
    outcomes = [_result(events, c.call_id).status for c in edits]
    assert outcomes.count("success") == 1 and len(outcomes) == 11


def test_ids_and_causes_of_the_wrong_type_do_not_stop_pairing() -> None:
    # Regression: a dict ``id`` raised TypeError (unhashable) while pairing
    # actions with observations.
    history = [
        {"id": 0, "source": "user", "action": "message", "args": {"content": "go"}},
        {"id": {"x": 1}, "source": "agent", "action": "run", "args": {"command": "ls"}},
        {"id": 3, "source": "agent", "action": "run", "args": {"command": "rm a.py"}},
        {
            "id": 4,
            "cause": 3,
            "source": "agent",
            "observation": "run",
            "content": "",
            "extras": {"exit_code": 0},
        },
        {
            "id": 5,
            "cause": [3],
            "source": "agent",
            "observation": "run",
            "content": "",
            "extras": {"exit_code": 1},
        },
    ]
    events = list(ADAPTER.events(Source("events.json", json.dumps(history))))
    results = {e.call_id: e.status for e in events if isinstance(e, ToolResult)}
    assert results["event-3"] == "success"
    assert len([e for e in events if isinstance(e, ToolCall)]) == 2
