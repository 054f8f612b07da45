"""A ``PostToolUse`` hook that formats the file an edit changed: the file's text is no longer the edit's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from artifact_index.ingestion.adapters.claude_hooks import may_rewrite
from artifact_index.trail.build import build_index

ROOT = "/home/dev/dotnix"
SOURCE = "{\n  devShells.default = mkShell { };\n}\n"


def _record(kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "cwd": ROOT, "sessionId": "s1", "version": "2.1.72", **fields}


def _call(call_id: str, name: str, given: dict[str, Any]) -> dict[str, Any]:
    content = [{"type": "tool_use", "id": call_id, "name": name, "input": given}]
    return _record("assistant", message={"role": "assistant", "content": content})


def _result(call_id: str, text: str) -> dict[str, Any]:
    content = [{"type": "tool_result", "tool_use_id": call_id, "content": text}]
    return _record("user", message={"role": "user", "content": content})


def _progress_hook(call_id: str, command: str) -> dict[str, Any]:
    data = {
        "type": "hook_progress",
        "hookEvent": "PostToolUse",
        "hookName": "PostToolUse:Edit",
        "command": command,
    }
    return _record("progress", data=data, toolUseID=call_id, parentToolUseID=call_id)


def _attached_hook(call_id: str, command: str) -> dict[str, Any]:
    attachment = {
        "type": "hook_success",
        "hookName": "PostToolUse:Edit",
        "toolUseID": call_id,
        "hookEvent": "PostToolUse",
        "content": "",
        "stdout": "",
        "stderr": "",
        "exitCode": 0,
        "command": command,
    }
    return _record("attachment", attachment=attachment)


def _session(tmp_path: Path, *hooks: dict[str, Any]) -> Path:
    path = f"{ROOT}/flake.nix"
    shown = "".join(f"{n:>6}→{line}\n" for n, line in enumerate(SOURCE.splitlines(), start=1))
    edit = {
        "file_path": path,
        "old_string": "mkShell { }",
        "new_string": "mkShell {shellHook = '';}",
    }
    records = [
        _record("user", message={"role": "user", "content": "add a shell hook"}),
        _call("toolu_read", "Read", {"file_path": path}),
        _result("toolu_read", shown),
        _call("toolu_edit", "Edit", edit),
        _result("toolu_edit", f"The file {path} has been updated successfully."),
        *hooks,
    ]
    out = tmp_path / "session.jsonl"
    out.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return out


def _net_diff(transcript: Path) -> str | None:
    return build_index(transcript)[0].net_diff("flake.nix")


@pytest.mark.parametrize("hook", [_progress_hook, _attached_hook])
def test_a_formatting_hook_after_an_edit_leaves_the_file_text_unknown(
    tmp_path: Path, hook: Any
) -> None:
    assert _net_diff(_session(tmp_path)) is not None  # read whole, then edited: known
    formatted = _session(tmp_path, hook("toolu_edit", "nix run .#fmt"))
    assert _net_diff(formatted) is None
    index, _ = build_index(formatted)
    (entry,) = [f for f in index.files() if f.path == "flake.nix"]
    assert entry.status == "modified"


def test_a_hook_that_only_logs_keeps_what_the_edit_wrote(tmp_path: Path) -> None:
    logged = _session(
        tmp_path,
        _progress_hook("toolu_edit", "claude-code-wakatime"),
        _attached_hook("toolu_edit", 'node "${CLAUDE_PLUGIN_ROOT}/hooks/post-tool-use.mjs"'),
    )
    assert _net_diff(logged) is not None


def test_a_hook_after_another_call_rewrites_nothing(tmp_path: Path) -> None:
    assert _net_diff(_session(tmp_path, _progress_hook("toolu_read", "nix run .#fmt"))) is not None


@pytest.mark.parametrize(
    ("command", "rewrites"),
    [
        ("nix run .#fmt", True),
        ("python /home/dev/.claude/custom-scripts/markdown_formatter.py", True),
        ('bash "$CLAUDE_PROJECT_DIR/.claude/hooks/ruff-fix.sh"', True),
        ("f=$(jq -r '.tool_input.file_path'); biome check --write \"$f\"", True),
        ("claude-code-wakatime", False),
        ('bun run "$CLAUDE_PROJECT_DIR"/src/hooks/hook.ts', False),
        ("entire hooks claude-code post-task", False),
    ],
)
def test_which_hooks_may_rewrite(command: str, rewrites: bool) -> None:
    assert may_rewrite(command) is rewrites
