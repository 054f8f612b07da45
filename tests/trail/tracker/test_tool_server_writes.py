"""A tool server's write, named by the absolute path its result states (not the path it was given)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from artifact_index.trail.build import build_index

ROOT = "/Users/dev/canvas"


def _session(tmp_path: Path, tool: str, arguments: dict[str, Any], result: str) -> dict[str, str]:
    records: list[dict[str, Any]] = [
        {
            "type": "user",
            "uuid": "u0",
            "cwd": ROOT,
            "sessionId": "s",
            "version": "2.1.220",
            "message": {"role": "user", "content": "tidy the inspector"},
        },
        {
            "type": "assistant",
            "uuid": "a1",
            "cwd": ROOT,
            "sessionId": "s",
            "version": "2.1.220",
            "message": {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "t1", "name": tool, "input": arguments}],
            },
        },
        {
            "type": "user",
            "uuid": "r1",
            "cwd": ROOT,
            "sessionId": "s",
            "version": "2.1.220",
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "t1", "content": result}],
            },
            "toolUseResult": result,
        },
    ]
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    index, _ = build_index(path)
    return {f.path: f.status for f in index.files()}


def _result(**fields: Any) -> str:
    return json.dumps({"filePath": "Canvas/Sources/Views/Panel.swift", "success": True, **fields})


def test_an_overwrite_lands_where_the_result_says(tmp_path: Path) -> None:
    files = _session(
        tmp_path,
        "mcp__xcode-tools__XcodeWrite",
        {"filePath": "Canvas/Sources/Views/Panel.swift", "content": "import SwiftUI\n"},
        _result(absolutePath=f"{ROOT}/Sources/Views/Panel.swift", wasExistingFile=True),
    )
    assert files == {"Sources/Views/Panel.swift": "modified"}


def test_a_new_file_is_created(tmp_path: Path) -> None:
    files = _session(
        tmp_path,
        "mcp__xcode-tools__XcodeWrite",
        {"filePath": "Canvas/Sources/Views/Badge.swift", "content": "struct Badge {}\n"},
        _result(absolutePath=f"{ROOT}/Sources/Views/Badge.swift", wasExistingFile=False),
    )
    assert files == {"Sources/Views/Badge.swift": "created"}


def test_without_an_absolute_path_or_a_word_on_existence_nothing_is_named(tmp_path: Path) -> None:
    arguments = {"filePath": "Canvas/Sources/Views/Panel.swift", "content": "x\n"}
    assert _session(tmp_path, "mcp__xcode-tools__XcodeWrite", arguments, _result()) == {}
    relative = _result(absolutePath="Sources/Views/Panel.swift", wasExistingFile=True)
    assert _session(tmp_path, "mcp__xcode-tools__XcodeWrite", arguments, relative) == {}
    failed = json.dumps(
        {
            "success": False,
            "absolutePath": f"{ROOT}/Sources/Views/Panel.swift",
            "wasExistingFile": True,
        }
    )
    assert _session(tmp_path, "mcp__xcode-tools__XcodeWrite", arguments, failed) == {}


def test_a_one_line_report_naming_the_given_file_is_its_change(tmp_path: Path) -> None:
    values = {"filePath": ".env", "values": {"PUBLIC_HOST": "https://example.test"}}
    tool = "mcp__wizard-tools__set_env_values"
    assert _session(tmp_path, tool, values, "Updated 2 key(s) in .env") == {".env": "modified"}
    made = {"filePath": "docs/setup.md", "content": "# Setup\n"}
    assert _session(tmp_path, "mcp__docs__put", made, "Created file at docs/setup.md") == {
        "docs/setup.md": "created"
    }


def test_a_report_naming_another_file_or_no_change_names_nothing(tmp_path: Path) -> None:
    tool = "mcp__wizard-tools__set_env_values"
    values = {"filePath": ".env", "values": {"KEY": "x"}}
    assert _session(tmp_path, tool, values, "Updated 1 key(s) in .env.local") == {}
    assert _session(tmp_path, tool, values, "No keys changed in .env") == {}
    assert _session(tmp_path, tool, values, "Could not write to .env: permission denied") == {}
