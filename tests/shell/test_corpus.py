"""Every shell command of the real transcripts is analyzed without an error.

The commands are pulled out of the transcripts with a small local helper,
independent of the adapters: mini-swe-agent messages (fenced ``bash`` blocks
and ``bash`` tool calls), SWE-agent actions, Codex ``exec_command`` calls
and Claude Code ``Bash`` calls.
"""

from __future__ import annotations

import ast
import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from artifact_index.shell import analyze_command


def _loads(value: Any) -> Any:
    """JSON, or the Python repr some mini-swe-agent files store instead."""
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except ValueError:
        try:
            return ast.literal_eval(value)
        except (ValueError, SyntaxError):
            return None


def _fenced_bash(text: str) -> Iterator[str]:
    rest = text
    while True:
        start = rest.find("```bash")
        if start < 0:
            return
        body_start = rest.find("\n", start)
        end = rest.find("```", body_start + 1)
        if body_start < 0 or end < 0:
            return
        yield rest[body_start + 1 : end]
        rest = rest[end + 3 :]


def _document(path: Path) -> Any:
    with gzip.open(path) as handle:
        return json.loads(handle.read())


def _mini_swe_agent(path: Path) -> Iterator[str]:
    document = _document(path)
    for message in document.get("messages", []):
        if message.get("role") != "assistant":
            continue
        calls = _loads(message.get("tool_calls"))
        if calls:
            for call in calls:
                arguments = _loads((call.get("function") or {}).get("arguments"))
                if isinstance(arguments, dict) and isinstance(arguments.get("command"), str):
                    yield arguments["command"]
        elif isinstance(message.get("content"), str):
            yield from _fenced_bash(message["content"])


def _swe_agent(path: Path) -> Iterator[str]:
    document = _document(path)
    for step in document.get("trajectory", []):
        if isinstance(step.get("action"), str):
            yield step["action"]


def _jsonl(path: Path, needle: str) -> Iterator[dict[str, Any]]:
    """Records of a JSONL file whose line mentions ``needle`` (most lines do not; skip their parse)."""
    with gzip.open(path, "rt") as handle:
        for line in handle:
            if needle not in line:
                continue
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict):
                yield record


def _codex(path: Path) -> Iterator[str]:
    for record in _jsonl(path, "exec_command"):
        payload = record.get("payload") or {}
        if (
            record.get("type") == "response_item"
            and payload.get("type") == "function_call"
            and payload.get("name") == "exec_command"
        ):
            arguments = _loads(payload.get("arguments"))
            if isinstance(arguments, dict) and isinstance(arguments.get("cmd"), str):
                yield arguments["cmd"]


def _claude_code(path: Path) -> Iterator[str]:
    for record in _jsonl(path, '"Bash"'):
        if record.get("type") != "assistant":
            continue
        for block in (record.get("message") or {}).get("content") or []:
            if (
                isinstance(block, dict)
                and block.get("type") == "tool_use"
                and block.get("name") == "Bash"
            ):
                command = (block.get("input") or {}).get("command")
                if isinstance(command, str):
                    yield command


_EXTRACTORS = {
    "mini_swe_agent": _mini_swe_agent,
    "swe_agent": _swe_agent,
    "codex": _codex,
    "claude_code": _claude_code,
}


@pytest.fixture(scope="module")
def corpus_commands(corpus_dir: Path) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for name, extract in _EXTRACTORS.items():
        found[name] = [
            command
            for path in sorted((corpus_dir / name).glob("*.gz"))
            for command in extract(path)
        ]
    return found


def test_commands_were_found_in_every_format(corpus_commands: dict[str, list[str]]) -> None:
    assert all(len(commands) >= 100 for commands in corpus_commands.values()), {
        k: len(v) for k, v in corpus_commands.items()
    }


@pytest.mark.parametrize("fmt", sorted(_EXTRACTORS))
@pytest.mark.parametrize("succeeded", [None, False])
def test_every_command_is_analyzed(
    corpus_commands: dict[str, list[str]], fmt: str, succeeded: bool | None
) -> None:
    for command in corpus_commands[fmt]:
        result = analyze_command(command, "/testbed", succeeded=succeeded)
        for op in result.operations:
            assert op.source in ("shell", "patch"), (command, op)
            assert op.command, (command, op)
            assert op.path is None or op.path.startswith("/"), (command, op)
            assert op.action != "unknown" or op.detail, (command, op)
