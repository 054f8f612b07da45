"""mini-swe-agent trajectories, formats 1 (bash blocks) and 1.1 (tool calls), and the real corpus."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest

from artifact_index.ingestion.adapters.mini_swe_agent import MiniSweAgentAdapter
from artifact_index.ingestion.events import (
    Event,
    SessionInfo,
    Submission,
    ToolCall,
    ToolResult,
    UserMessage,
)
from artifact_index.ingestion.source import Source

from .conftest import Loader
from .helpers import read_events

ADAPTER = MiniSweAgentAdapter()
_events = partial(read_events, ADAPTER)


def _calls(events: list[Event]) -> list[ToolCall]:
    return [e for e in events if isinstance(e, ToolCall)]


def _results(events: list[Event]) -> dict[str, ToolResult]:
    return {e.call_id: e for e in events if isinstance(e, ToolResult)}


@pytest.fixture(scope="module")
def v1(fixtures_dir: Path) -> list[Event]:
    return _events(fixtures_dir / "mini_swe_agent" / "v1.traj.json")[0]


@pytest.fixture(scope="module")
def v2(fixtures_dir: Path) -> list[Event]:
    return _events(fixtures_dir / "mini_swe_agent" / "v2.traj.json")[0]


def test_session_cwd_comes_from_the_environment_config(v1: list[Event]) -> None:
    info = v1[0]
    assert isinstance(info, SessionInfo)
    assert (info.cwd, info.version, info.model, info.session_id, info.agent) == (
        "/testbed",
        "1.15.0",
        "gemini/gemini-3-pro-preview",
        "demo__calc-1",
        "mini-swe-agent",
    )


def test_session_cwd_is_inferred_from_cd_prefixes_without_config(v2: list[Event]) -> None:
    info = v2[0]
    assert isinstance(info, SessionInfo) and info.cwd == "/testbed"


def test_v1_every_single_bash_block_is_one_shell_command_in_the_workspace(v1: list[Event]) -> None:
    commands = [
        (c.operations[0].command, c.operations[0].cwd, c.operations[0].source) for c in _calls(v1)
    ]
    assert [c for c, _, _ in commands] == [
        "cat src/app.py",
        "sed -i 's/a - b/a + b/' src/app.py",
        "cat <<'EOF' > tests/test_add.py\nfrom src.app import add\n\ndef test_add():\n    assert add(1, 2) == 3\nEOF",
        "python -m pytest tests -q",
        "python slow_suite.py",
        "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached",
    ]
    assert {(cwd, source) for _, cwd, source in commands} == {("/testbed", "shell")}


def test_v1_two_blocks_run_nothing_and_the_format_error_is_synthetic(v1: list[Event]) -> None:
    assert not any(c.line == 5 for c in _calls(v1))
    feedback = [e for e in v1 if isinstance(e, UserMessage) and e.synthetic]
    assert [e.text.split(" in ")[0] for e in feedback] == [
        "Please always provide EXACTLY ONE action"
    ]
    assert next(e.text for e in v1 if isinstance(e, UserMessage) and not e.synthetic).startswith(
        "<pr_description>"
    )


def test_v1_results_carry_the_return_code(v1: list[Event]) -> None:
    results = [_results(v1)[c.call_id] for c in _calls(v1)]
    assert [(r.status, r.exit_code, r.failure) for r in results] == [
        ("success", 0, None),
        ("success", 0, None),
        ("success", 0, None),
        ("failure", 1, "exit_status"),
        ("failure", None, "interrupted"),  # timed out and killed
        ("success", None, None),  # the submission replaced the output
    ]
    assert results[0].output == "def add(a, b):\n    return a - b\n"
    assert results[-1].output.startswith("diff --git a/src/app.py")


def test_results_keep_the_turn_of_their_call(v1: list[Event]) -> None:
    for call in _calls(v1):
        assert _results(v1)[call.call_id].turn == call.turn


def test_v2_tool_calls_and_tool_messages_pair_by_id(v2: list[Event]) -> None:
    results = _results(v2)
    calls = _calls(v2)
    assert [c.call_id for c in calls] == ["call_00_a", "call_00_b", "call_00_d", "call_00_e"]
    assert [
        (results[c.call_id].status, results[c.call_id].exit_code, results[c.call_id].failure)
        for c in calls
    ] == [
        ("success", 0, None),
        ("failure", None, "interrupted"),  # <exception> ... timed out
        ("failure", 2, "exit_status"),
        ("success", None, None),  # answered by the exit message
    ]


def test_the_submit_command_ends_the_run_with_a_submission(
    v1: list[Event], v2: list[Event]
) -> None:
    for events in (v1, v2):
        submissions = [e for e in events if isinstance(e, Submission)]
        assert len(submissions) == 1 and events[-1] is submissions[0]
        (submission,) = submissions
        submit_call = _calls(events)[-1]
        assert (submission.command, submission.cwd, submission.turn, submission.exit_status) == (
            submit_call.operations[0].command,
            "/testbed",
            submit_call.turn,
            "Submitted",
        )


def _run(messages: list[dict[str, object]], info: dict[str, object]) -> list[Event]:
    doc = {"trajectory_format": "mini-swe-agent-1.1", "info": info, "messages": messages}
    return list(ADAPTER.events(Source("run.traj.json", json.dumps(doc))))


_CALL = {
    "role": "assistant",
    "content": "Fix.",
    "tool_calls": [
        {
            "id": "c1",
            "function": {
                "name": "bash",
                "arguments": json.dumps({"command": "cd /testbed && sed -i 's/a/b/' x.py"}),
            },
        }
    ],
}
_DONE = {
    "role": "tool",
    "tool_call_id": "c1",
    "content": "<returncode>0</returncode>\n<output>\n</output>",
}


def test_a_run_that_ended_on_an_error_submitted_nothing() -> None:
    exit_message = {
        "role": "exit",
        "content": "litellm.InternalServerError: EOF",
        "extra": {"exit_status": "InternalServerError", "submission": ""},
    }
    events = _run([_CALL, _DONE, exit_message], {"exit_status": "InternalServerError"})
    (submission,) = [e for e in events if isinstance(e, Submission)]
    assert (submission.command, submission.exit_status) == (None, "InternalServerError")


def test_an_exit_status_in_info_alone_also_ends_the_run() -> None:
    events = _run([_CALL, _DONE], {"exit_status": "LimitsExceeded"})
    assert isinstance(events[-1], Submission) and events[-1].exit_status == "LimitsExceeded"
    assert not any(isinstance(e, Submission) for e in _run([_CALL, _DONE], {}))


def test_v2_unparsable_tool_call_runs_nothing_and_its_error_is_synthetic(v2: list[Event]) -> None:
    assert "call_00_c" not in {c.call_id for c in _calls(v2)}
    errors = [e for e in v2 if isinstance(e, UserMessage) and e.synthetic]
    assert len(errors) == 1 and errors[0].text.startswith("Tool call error:")


def test_malformed_messages_are_skipped_with_their_line(fixtures_dir: Path) -> None:
    events, source = _events(fixtures_dir / "mini_swe_agent" / "malformed.traj.json")
    assert [s.line for s in source.skipped] == [1, 3]
    (call,) = _calls(events)
    # A command without any recorded result has an unknown outcome.
    assert _results(events)[call.call_id].status == "unknown"


def test_other_json_is_not_sniffed() -> None:
    assert not ADAPTER.sniff(Source("x.json", '{"messages": [], "info": {}}'))
    assert list(ADAPTER.events(Source("x.json", '{"trajectory": []}'))) == []


def test_detection_picks_mini_swe_agent(load: Loader, fixtures_dir: Path) -> None:
    for name in ("v1.traj.json", "v2.traj.json"):
        assert (
            load("mini-swe-agent", fixtures_dir / "mini_swe_agent" / name).detected
            == "mini-swe-agent"
        )


def test_real_trajectories_parse(corpus_dir: Path) -> None:
    files = sorted((corpus_dir / "mini_swe_agent").glob("*.gz"))
    assert files
    for path in files:
        events, source = _events(path)
        assert isinstance(events[0], SessionInfo) and events[0].cwd == "/testbed", path.name
        calls = _calls(events)
        assert calls and [c.call_id for c in calls] == [
            e.call_id for e in events if isinstance(e, ToolResult)
        ], path.name
        assert all(c.operations[0].action == "shell" for c in calls), path.name
        assert source.skipped == [], path.name
