"""Error extraction and the ledger on real transcripts, read here straight from their raw JSON.

The adapters are tested elsewhere; this reads just enough of three formats
(Claude Code, Codex, mini-swe-agent) to get each shell command, its output and
whether it failed.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from artifact_index.facts.errors.diagnostics import extract_errors
from artifact_index.facts.errors.ledger import ErrorLedger
from artifact_index.ingestion.events import POLLED_COMMAND, ToolCall, ToolResult
from tests.conftest import CorpusIndex


@dataclass(frozen=True)
class Result:
    turn: int
    call_id: str
    tool: str
    command: str | None
    output: str
    succeeded: bool | None


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            block["text"]
            for block in content
            if isinstance(block, dict) and isinstance(block.get("text"), str)
        )
    return ""


def _records(path: Path) -> Iterator[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8", errors="replace") as handle:
        for line in handle:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(record, dict):
                yield record


def claude_code_results(path: Path) -> Iterator[Result]:
    calls: dict[str, tuple[str, str | None, int]] = {}
    turn = 0
    for record in _records(path):
        if record.get("type") not in ("user", "assistant"):
            continue
        turn += 1
        content = (record.get("message") or {}).get("content")
        for block in content if isinstance(content, list) else []:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use":
                arguments = block.get("input") or {}
                command = arguments.get("command") if block.get("name") == "Bash" else None
                calls[block.get("id", "")] = (block.get("name", ""), command, turn)
            elif block.get("type") == "tool_result" and block.get("tool_use_id") in calls:
                tool, command, call_turn = calls[block["tool_use_id"]]
                yield Result(
                    call_turn,
                    block["tool_use_id"],
                    tool,
                    command,
                    _text(block.get("content")),
                    not block.get("is_error"),
                )


def codex_results(path: Path) -> Iterator[Result]:
    commands: dict[str, str | None] = {}
    for turn, record in enumerate(_records(path), 1):
        payload = record.get("payload") or {}
        if payload.get("type") == "function_call":
            try:
                arguments = json.loads(payload.get("arguments") or "{}")
            except json.JSONDecodeError:
                arguments = {}
            commands[payload.get("call_id", "")] = (
                arguments.get("cmd") if isinstance(arguments, dict) else None
            )
        elif payload.get("type") in ("function_call_output", "custom_tool_call_output"):
            output = payload.get("output")
            if isinstance(output, str):
                exit_code = re.search(r"(?:Process exited with code|Exit code:) (\d+)", output)
                call_id = payload.get("call_id", "")
                yield Result(
                    turn,
                    call_id,
                    "exec_command",
                    commands.get(call_id),
                    output,
                    exit_code.group(1) == "0" if exit_code else None,
                )


def mini_swe_agent_results(path: Path) -> Iterator[Result]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        messages = json.load(handle)["messages"]
    command = None
    for turn, message in enumerate(messages, 1):
        text = _text(message.get("content"))
        if message.get("role") == "assistant":
            blocks = re.findall(r"```bash\n(.*?)\n```", text, re.DOTALL)
            command = blocks[0] if blocks else None
        elif command is not None and (code := re.search(r"<returncode>(-?\d+)</returncode>", text)):
            yield Result(turn - 1, f"call-{turn}", "bash", command, text, code.group(1) == "0")
            command = None


READERS = {
    "claude_code": claude_code_results,
    "codex": codex_results,
    "mini_swe_agent": mini_swe_agent_results,
}
TRANSCRIPTS = [
    "claude_code/spotter__8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl.gz",
    "claude_code/entire__48b4b05476e5_0.jsonl.gz",
    "claude_code/entire__f3df91827bd6_0.jsonl.gz",
    "claude_code/entire_bmad__ec227c481d0b_0.jsonl.gz",
    "claude_code/ccviewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl.gz",
    "codex/entire_agentv__1f4427577930_1.jsonl.gz",
    "mini_swe_agent/gruckion_gemini3__matplotlib__matplotlib-21568.traj.json.gz",
    "mini_swe_agent/gruckion_gemini3__django__django-15368.traj.json.gz",
]


def results(corpus_dir: Path, name: str) -> list[Result]:
    path = corpus_dir / name
    if not path.exists():
        pytest.skip(f"{name} is not in this corpus")
    return list(READERS[name.split("/")[0]](path))


@pytest.mark.parametrize("name", TRANSCRIPTS)
def test_every_tool_output_is_read_without_error(corpus_dir: Path, name: str) -> None:
    outputs = results(corpus_dir, name)
    assert outputs, "the reader found no tool results"
    for result in outputs:  # warnings are errors here: a parser bug would fail this test
        for diagnostic in extract_errors(result.output, result.command):
            assert diagnostic.message.strip()


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            "claude_code/entire__48b4b05476e5_0.jsonl.gz",
            ("test-runner", "git_operations_test.go", 357, "TestHasUncommittedChanges"),
        ),
        (
            "claude_code/entire_bmad__ec227c481d0b_0.jsonl.gz",
            ("type-checker", "scripts/fetch-checkpoints.test.ts", 250, None),
        ),
        (
            "claude_code/spotter__8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl.gz",
            (
                "test-runner",
                "test/spotter_web/live/session_live_test.exs",
                109,
                "test transcript row class mapping code rows have is-code class and render as pre/code (SpotterWeb.SessionLiveTest)",
            ),
        ),
        (
            "claude_code/entire__f3df91827bd6_0.jsonl.gz",
            ("compiler", "cmd/entire/cli/strategy/auto_commit.go", 874, None),
        ),
    ],
)
def test_known_errors_are_found(corpus_dir: Path, name: str, expected: tuple[Any, ...]) -> None:
    found = {
        (d.kind, d.file, d.line, d.test)
        for result in results(corpus_dir, name)
        if result.succeeded is not True or "FAIL" in result.output or "error" in result.output
        for d in extract_errors(result.output, result.command)
    }
    assert expected in found


def test_node_error_in_a_codex_session(corpus_dir: Path) -> None:
    messages = {
        (d.tool, d.message)
        for result in results(corpus_dir, "codex/entire_agentv__1f4427577930_1.jsonl.gz")
        if result.succeeded is False
        for d in extract_errors(result.output, result.command)
    }
    assert ("node", "TypeError: sdk.registerBuiltInApiProviders is not a function") in messages


def test_ledger_of_a_real_debugging_session(corpus_dir: Path) -> None:
    ledger = ErrorLedger()
    for result in results(corpus_dir, TRANSCRIPTS[6]):
        ledger.observe(
            result.turn,
            result.command,
            result.tool,
            result.output,
            result.succeeded,
            result.call_id,
        )
    # The run reproduced the bug first: a pandas ValueError raised through matplotlib.
    original = ledger.original
    assert original is not None
    assert original.message.startswith("ValueError: Multi-dimensional indexing")
    assert (original.file, original.line, original.symbol) == (
        "/testbed/lib/matplotlib/cbook/__init__.py",
        1327,
        "_check_1d",
    )
    assert original.command == "python reproduce_issue.py"
    # The same script ran cleanly later on, and the failing date test passed once fixed.
    assert (original.resolved, original.resolved_by) == (True, "python reproduce_issue.py")
    assert all(entry.resolved for entry in ledger.errors)
    [dates] = [t for t in ledger.tests if t.key == "pytest lib/matplotlib/tests/test_dates.py"]
    assert (dates.passed, dates.failed, dates.outcome) == (76, 0, "passed")
    # Saved and restored mid-session state gives the same answers.
    assert ErrorLedger.model_validate_json(ledger.model_dump_json()) == ledger


def _failed_shell_results(events: list[Any]) -> int:
    shell_calls = {
        e.call_id
        for e in events
        if isinstance(e, ToolCall)
        and (
            any(op.action == "shell" and op.command for op in e.operations)
            # a poll of a running command: its result is that command's
            or isinstance(e.arguments.get(POLLED_COMMAND), str)
        )
    }
    return sum(
        1
        for e in events
        if isinstance(e, ToolResult) and e.status == "failure" and e.call_id in shell_calls
    )


@pytest.mark.parametrize(
    "folder", ["claude_code", "codex", "mini_swe_agent", "openhands", "opencode"]
)
def test_every_failed_shell_command_is_an_error_or_noise_with_its_reason(
    corpus_dir: Path, corpus_index: CorpusIndex, folder: str
) -> None:
    failed = classed = 0
    for path in sorted((corpus_dir / folder).glob("*.gz")):
        index, loaded = corpus_index(path)
        failed += _failed_shell_results(list(loaded.events()))
        for run in index.ledger.failed_runs:
            assert (run.outcome == "error" and run.errors) or (
                run.outcome == "noise" and run.reason
            ), run
            classed += 1
    assert classed == failed
