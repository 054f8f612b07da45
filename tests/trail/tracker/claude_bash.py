"""Hand-written Claude Code transcripts of Bash calls, for trail tests of shell semantics."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from artifact_index.trail.build import build_index


def transcript(
    cwd: str,
    calls: list[tuple[str, str]],
    *,
    error: bool = False,
    shown: dict[int, str] | None = None,
) -> str:
    """A Claude Code JSONL: one Bash call per (command, stdout), each with its result.

    ``shown`` maps a call's 1-based number to the text its tool result shows the
    model when a hook replaced the command's output (``toolUseResult`` keeps it).
    """
    records: list[dict[str, Any]] = [
        {
            "type": "user",
            "uuid": "u0",
            "cwd": cwd,
            "sessionId": "s",
            "version": "2.1.235",
            "message": {"role": "user", "content": "go"},
        }
    ]
    for n, (command, stdout) in enumerate(calls, 1):
        records.append(
            {
                "type": "assistant",
                "uuid": f"a{n}",
                "cwd": cwd,
                "sessionId": "s",
                "version": "2.1.235",
                "message": {
                    "role": "assistant",
                    "content": [
                        {
                            "type": "tool_use",
                            "id": f"t{n}",
                            "name": "Bash",
                            "input": {"command": command},
                        }
                    ],
                },
            }
        )
        records.append(
            {
                "type": "user",
                "uuid": f"r{n}",
                "cwd": cwd,
                "sessionId": "s",
                "version": "2.1.235",
                "message": {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": f"t{n}",
                            "content": (shown or {}).get(n, stdout),
                            "is_error": error,
                        }
                    ],
                },
                "toolUseResult": {"stdout": stdout, "stderr": "", "interrupted": False},
            }
        )
    return "\n".join(json.dumps(r) for r in records) + "\n"


def changed(
    tmp_path: Path,
    cwd: str,
    calls: list[tuple[str, str]],
    *,
    shown: dict[int, str] | None = None,
) -> tuple[dict[str, str], list[tuple[str | None, str | None]]]:
    """(changed files by path -> status, unknown effects as (command, detail)) of such a session."""
    path = tmp_path / "session.jsonl"
    path.write_text(transcript(cwd, calls, shown=shown), encoding="utf-8")
    index, _ = build_index(path)
    files = {f.path: f.status for f in index.files() if f.status != "read"}
    unknown = [(u.command, u.detail) for u in index.unknown_effects()]
    return files, unknown
