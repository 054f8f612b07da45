"""The command line as a user meets it: tables, JSON, stdin, gzip, and one-sentence errors."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

from artifact_index.presentation.cli import main
from tests.support.paths import FIXTURES, ROOT

SESSION = FIXTURES / "cli" / "session.jsonl"


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "artifact_index", *args],
        input=stdin.decode() if stdin is not None else None,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_files_json_contract_and_skipped_lines_reported() -> None:
    done = run("files", str(SESSION), "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["format"] == "claude-code" and out["root"] == "/work/demo"
    files = {f["path"]: f for f in out["files"]}
    assert files["app.py"]["status"] == "modified"
    assert files["app.py"]["sources"] == ["tool"]
    assert [(op["turn"], op["action"], op["tool"]) for op in files["app.py"]["ops"]] == [
        (2, "read", "Read"),
        (3, "edit", "Edit"),
    ]
    assert "test_app.py" not in files  # the Write failed
    assert [f["path"] for f in out["failed"]] == ["test_app.py"]
    assert out["skipped_lines"] == 2
    assert "skipped 2" in done.stderr and "line 4" in done.stderr and "line 9" in done.stderr
    assert "Traceback" not in done.stderr


def test_files_json_separates_what_a_submission_left_behind() -> None:
    example = ROOT / "examples" / "mini-swe-agent.traj.json"
    done = run("files", str(example), "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert [(f["path"], f["status"]) for f in out["files"]] == [("src/calc.py", "modified")]
    assert sorted((f["path"], f["status"]) for f in out["unsubmitted"]) == [
        ("patch.txt", "created"),
        ("reproduce.py", "created"),
        ("src/calc.py.bak", "created"),
    ]
    assert out["submission"] == {
        "turn": 9,
        "command": "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && cat patch.txt",
        "exit_status": "Submitted",
        "files": ["src/calc.py"],
        "unresolved": None,
    }


def test_table_is_the_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["files", str(SESSION)]) == 0
    out = capsys.readouterr().out
    assert "modified  app.py" in out and "touched only by failed calls: test_app.py" in out


def test_gzip_and_stdin(tmp_path: Path) -> None:
    packed = tmp_path / "s.jsonl.gz"
    packed.write_bytes(gzip.compress(SESSION.read_bytes()))
    from_gz = json.loads(run("files", str(packed), "--json").stdout)
    from_stdin = json.loads(run("files", "-", "--json", stdin=SESSION.read_bytes()).stdout)
    assert from_gz["files"] == from_stdin["files"] != []


def test_input_that_cannot_be_used_is_one_sentence_and_exit_1() -> None:
    done = run("files", "/no/such/file.jsonl")
    assert done.returncode == 1
    assert done.stderr == "artifact-index: error: /no/such/file.jsonl: no such file\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["files", str(SESSION), "--format", "nope"], "argument --format: unknown format 'nope'"),
        (["files", str(SESSION), "--bogus"], "unrecognized arguments: --bogus"),
        (["files"], "the following arguments are required: TRANSCRIPT"),
        (["files", str(SESSION), "--jobs", "0"], "argument --jobs: must be at least 1, not 0"),
    ],
)
def test_a_wrong_command_line_shows_the_commands_usage_and_exits_2(
    args: list[str], message: str
) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert done.stderr.startswith("usage: artifact-index files ")
    assert f"artifact-index files: error: {message}" in done.stderr
    assert "Traceback" not in done.stderr


def test_unknown_content_bad_gzip_and_a_folder_without_transcripts(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("just some notes, no agent here\n")
    bad_gz = tmp_path / "x.jsonl.gz"
    bad_gz.write_bytes(b"\x1f\x8b\x08\x00garbage")
    empty = tmp_path / "docs"
    empty.mkdir()
    (empty / "notes.md").write_text("# no transcript here\n")
    for path, message in [
        (text, "not a transcript format"),
        (bad_gz, "not a valid gzip file"),
        (empty, "no transcripts in"),
    ]:
        done = run("files", str(path))
        assert done.returncode == 1, done.stderr
        assert message in done.stderr and "Traceback" not in done.stderr


def test_history_of_one_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history", str(SESSION), "app.py"]) == 0
    out = capsys.readouterr().out
    assert "edit" in out and "read" in out


def test_formats_lists_every_adapter(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["formats"]) == 0
    names = {line.split()[0] for line in capsys.readouterr().out.splitlines()}
    assert {
        "claude-code",
        "codex",
        "opencode",
        "swe-agent",
        "mini-swe-agent",
        "openhands",
        "aider",
        "cline",
        "gemini-cli",
        "copilot-cli",
        "entire-compact",
        "git-ai-note",
        "anthropic-messages",
        "openai-chat",
    } <= names
