"""The MCP server as an agent meets it: the official SDK's client, over stdio, against `artifact-index mcp`."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from artifact_index.presentation.cli import main

mcp = pytest.importorskip("mcp", reason="the MCP server is the optional [mcp] extra")

from tests.support.paths import ROOT  # noqa: E402

SESSION = ROOT / "examples" / "claude-code-session.jsonl"


def with_client(store: Path, work: Callable[[Any], Awaitable[None]]) -> None:
    parameters = mcp.StdioServerParameters(
        command=sys.executable, args=["-m", "artifact_index", "mcp", "--store", str(store)]
    )

    async def run() -> None:
        async with mcp.Client(parameters, read_timeout_seconds=120) as client:
            await work(client)

    asyncio.run(run())


def cli_json(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    assert main([*args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_tools_answer_what_the_command_line_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = {
        name: cli_json(capsys, name, str(SESSION))
        for name in ("files", "errors", "symbols", "tasks")
    }
    expected["history"] = cli_json(capsys, "history", str(SESSION), "src/auth.py")
    answers: dict[str, Any] = {}

    async def work(client: Any) -> None:
        tools = {tool.name for tool in (await client.list_tools()).tools}
        answers["tools"] = tools
        for name in ("files", "errors", "symbols", "tasks"):
            result = await client.call_tool(name, {"transcript": str(SESSION)})
            assert not result.is_error, result.content
            answers[name] = result.structured_content
        result = await client.call_tool(
            "history", {"transcript": str(SESSION), "path": "src/auth.py"}
        )
        answers["history"] = result.structured_content
        summary = await client.call_tool("summary", {"transcript": str(SESSION)})
        answers["summary"] = summary.content[0].text

    with_client(tmp_path / "s.db", work)
    assert answers.pop("tools") >= {
        "files",
        "history",
        "errors",
        "symbols",
        "decisions",
        "tasks",
        "summary",
        "sessions",
        "where",
    }
    summary = answers.pop("summary")
    assert "src/auth.py" in summary and "tests/test_auth.py" in summary
    assert answers == expected


def test_a_watched_live_session_is_answered_as_it_grows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = SESSION.read_bytes().splitlines(keepends=True)
    live = tmp_path / "projects" / "session.jsonl"
    live.parent.mkdir()
    live.write_bytes(b"".join(lines[:12]))
    store = tmp_path / "s.db"
    assert main(["store", str(live.parent), "--store", str(store), "--jobs", "1"]) == 0
    session_id = (
        "5b1e2c4d-8f3a-4e6b-9c2d-1a7f0e3b5c9d"  # the agent's own id, as Claude Code writes it
    )
    seen: list[list[tuple[str, str]]] = []

    async def work(client: Any) -> None:
        for more in (lines[12:], []):
            result = await client.call_tool("files", {"session": session_id})
            assert not result.is_error, result.content
            seen.append([(f["path"], f["status"]) for f in result.structured_content["files"]])
            with live.open("ab") as handle:
                handle.write(b"".join(more))
        stored = await client.call_tool("sessions", {})
        seen.append([(s["format"], s["transcript"]) for s in stored.structured_content["sessions"]])
        where = await client.call_tool("where", {"path": "src/auth.py"})
        seen.append([(s["file"]["status"], s["id"]) for s in where.structured_content["sessions"]])

    with_client(store, work)
    assert seen[0] == [("README.md", "read"), ("src/auth.py", "read")]
    assert sorted(seen[1]) == [
        ("README.md", "read"),
        ("src/auth.py", "modified"),
        ("tests/test_auth.py", "created"),
    ]
    assert seen[2] == [("claude-code", str(live.resolve()))]
    # The store holds what was stored; a watch (not running here) would have kept it current.
    assert [status for status, _ in seen[3]] == ["read"]


def test_mistakes_come_back_as_one_sentence_tool_errors(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("no agent here\n")
    errors: dict[str, str] = {}
    unreadable = []  # inputs a read would wait on forever, or never finish
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "pipe.jsonl")
        unreadable.append(("a FIFO", {"transcript": str(tmp_path / "pipe.jsonl")}))
    if Path("/dev/zero").exists():
        unreadable.append(("a device", {"transcript": "/dev/zero"}))

    async def work(client: Any) -> None:
        for label, arguments in [
            ("unknown", {"session": "nope"}),
            ("neither", {}),
            ("both", {"session": "x", "transcript": str(SESSION)}),
            ("missing", {"transcript": str(tmp_path / "gone.jsonl")}),
            ("not a transcript", {"transcript": str(notes)}),
            *unreadable,
        ]:
            result = await client.call_tool("files", arguments)
            assert result.is_error, label
            errors[label] = result.content[0].text

    with_client(tmp_path / "s.db", work)
    assert "no stored session has the id 'nope'" in errors["unknown"]
    assert "neither" in errors["neither"] and "both" in errors["both"]
    assert "no such file" in errors["missing"]
    assert "not a transcript format" in errors["not a transcript"]
    assert "is a FIFO" in errors.get("a FIFO", "is a FIFO")
    assert "is a character device" in errors.get("a device", "is a character device")
    assert not any("Traceback" in text for text in errors.values())


def test_the_server_starts_from_the_installed_command(tmp_path: Path) -> None:
    command = shutil.which("artifact-index", path=str(Path(sys.executable).parent))
    assert command is not None
    names: list[str] = []

    async def run() -> None:
        parameters = mcp.StdioServerParameters(
            command=command, args=["mcp", "--store", str(tmp_path / "s.db")]
        )
        async with mcp.Client(parameters, read_timeout_seconds=120) as client:
            names.extend(tool.name for tool in (await client.list_tools()).tools)

    asyncio.run(run())
    assert "files" in names


def test_the_tools_speak_the_command_lines_vocabulary_and_refuse_what_they_do_not_take(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    changed = cli_json(capsys, "files", str(SESSION), "--changed")
    symbols = cli_json(capsys, "symbols", str(SESSION), "--changed")
    answers: dict[str, Any] = {}

    async def work(client: Any) -> None:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        answers["schema"] = listed["files"].input_schema
        for label, name, arguments in [
            ("changed", "files", {"transcript": str(SESSION), "changed": True}),
            ("symbols", "symbols", {"transcript": str(SESSION), "changed": True}),
            ("bare name", "history", {"transcript": str(SESSION), "path": "auth.py"}),
            ("unknown", "files", {"transcript": str(SESSION), "changed_only": True}),
            ("wrong kind", "files", {"transcript": str(SESSION), "changed": "very"}),
        ]:
            result = await client.call_tool(name, arguments)
            answers[label] = (
                result.content[0].text if result.is_error else result.structured_content
            )

    with_client(tmp_path / "s.db", work)
    assert answers["schema"]["additionalProperties"] is False
    assert set(answers["schema"]["properties"]) == {
        "transcript",
        "session",
        "changed",
        "workspace_only",
    }
    assert answers["changed"] == changed and answers["symbols"] == symbols
    assert answers["bare name"]["path"] == "src/auth.py"
    assert answers["unknown"] == (
        "files takes changed, session, transcript, workspace_only; not changed_only"
    )
    assert answers["wrong kind"].startswith("files: changed: Input should be a valid boolean")
    errors = [answers["unknown"], answers["wrong kind"]]
    assert not any("pydantic" in error or "--" in error for error in errors)
