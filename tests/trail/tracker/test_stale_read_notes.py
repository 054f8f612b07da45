"""Claude Code's note that a Bash command changed files the session had read: those files changed."""

from __future__ import annotations

import json
from pathlib import Path

from artifact_index.trail.build import build_index
from artifact_index.trail.index import ArtifactIndex

from .claude_bash import transcript

ROOT = "/home/dev/app"


def _index_with_note(tmp_path: Path, reads: list[str], command: str, note: str) -> ArtifactIndex:
    calls = [(f"cat {path}", "x = 1\n") for path in reads] + [(command, "5 files reformatted\n")]
    records = [json.loads(line) for line in transcript(ROOT, calls).splitlines()]
    last = records[-1]
    last["toolUseResult"]["staleReadFileStateHint"] = note
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    index, _ = build_index(path)
    return index


def test_the_files_the_note_names_were_changed_by_the_command(tmp_path: Path) -> None:
    index = _index_with_note(
        tmp_path,
        ["src/query.py", "src/models.py", "README.md"],
        "uv run ruff check . --fix",
        "[This command modified 2 files you've previously read: src/query.py, src/models.py."
        " Call Read before editing.]",
    )
    status = {f.path: f.status for f in index.files()}
    assert status == {"src/query.py": "modified", "src/models.py": "modified", "README.md": "read"}


def test_files_the_note_only_counts_may_be_any_of_those_read(tmp_path: Path) -> None:
    index = _index_with_note(
        tmp_path,
        ["src/query.py", "src/models.py", "src/tools.py"],
        "uv run ruff format .",
        "[This command modified 3 files you've previously read: src/query.py and 2 more."
        " Call Read before editing.]",
    )
    status = {f.path: f.status for f in index.files()}
    assert status["src/query.py"] == "modified"
    # (The formatter also said it may change the folder it was given: ".".)
    possible = {k: p for k, p in index.session.possible_changes.items() if k != "."}
    assert sorted(possible) == ["src/models.py", "src/tools.py"]
    assert all(p.command == "uv run ruff format ." for p in possible.values())
