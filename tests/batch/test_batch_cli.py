"""Several transcripts, or folders of them, in one run: what a user sees on the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from artifact_index.presentation.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "artifact_index", *args],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=cwd,
    )


def single(
    command: str, path: str, capsys: pytest.CaptureFixture[str], *extra: str
) -> dict[str, object]:
    assert main([command, path, *extra, "--json"]) == 0
    document: dict[str, object] = json.loads(capsys.readouterr().out)
    return document


def test_a_folder_of_real_transcripts_gives_one_json_line_each_in_order(
    corpus_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = corpus_dir / "codex"
    done = run("files", str(folder), "--json", "--jobs", "2")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    transcripts = sorted(str(p) for p in folder.rglob("*.jsonl.gz"))
    # The ground-truth sidecars in codex/groundtruth/ are JSON, but no transcript: counted, not printed.
    assert [line["transcript"] for line in lines] == transcripts
    assert "6 transcripts, 6 indexed; 6 other files are not transcripts" in done.stderr
    # One transcript or many, each is the same object: the one line its command prints alone.
    for line in lines:
        assert line == single("files", str(line["transcript"]), capsys)


def test_every_command_takes_several_transcripts(capsys: pytest.CaptureFixture[str]) -> None:
    first, second = (
        str(EXAMPLES / "claude-code-session.jsonl"),
        str(EXAMPLES / "codex-rollout.jsonl"),
    )
    assert main(["errors", first, second, "--json", "--jobs", "1"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["transcript"] for line in lines] == [first, second]
    assert lines == [single("errors", first, capsys), single("errors", second, capsys)]


def test_history_of_a_path_across_transcripts(capsys: pytest.CaptureFixture[str]) -> None:
    first, second = str(EXAMPLES / "claude-code-session.jsonl"), str(EXAMPLES / "openai-chat.jsonl")
    assert main(["history", first, second, "src/auth.py", "--json", "--jobs", "1"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(line["transcript"], line["path"], len(line["ops"]) > 0) for line in lines] == [
        (first, "src/auth.py", True),
        (second, "src/auth.py", False),
    ]


def test_tables_follow_a_header_per_transcript(capsys: pytest.CaptureFixture[str]) -> None:
    first, second = str(EXAMPLES / "claude-code-session.jsonl"), str(EXAMPLES / "swe-agent.traj")
    assert main(["files", first, second, "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"==> {first} <==\nSTATUS")
    assert f"\n\n==> {second} <==\nSTATUS" in out and "modified  textkit/util.py" in out


def test_a_named_file_that_fails_is_reported_and_the_others_still_printed(tmp_path: Path) -> None:
    broken = tmp_path / "broken.jsonl.gz"
    broken.write_bytes(b"\x1f\x8b\x08\x00garbage")
    notes = tmp_path / "notes.txt"
    notes.write_text("no agent here\n")
    good = str(EXAMPLES / "claude-code-session.jsonl")
    done = run("files", good, str(broken), str(notes), "--json", "--jobs", "2")
    assert done.returncode == 1  # a data error, as for one transcript that fails
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["transcript"] for line in lines] == [good, str(broken), str(notes)]
    assert all(line["schema_version"] == 1 for line in lines)
    assert lines[0]["format"] == "claude-code"
    assert (
        "not a valid gzip file" in lines[1]["error"]
        and "not a transcript format" in lines[2]["error"]
    )
    assert "3 transcripts, 1 indexed, 2 failed" in done.stderr and "Traceback" not in done.stderr


def test_standard_input_cannot_join_other_transcripts() -> None:
    done = run("files", "-", str(EXAMPLES / "claude-code-session.jsonl"))
    assert done.returncode == 2  # a usage error
    assert done.stderr.strip() == (
        "artifact-index: error: - (standard input) is one transcript; it cannot be read with others"
    )


def test_hidden_folders_are_not_searched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / ".cache").mkdir()
    (tmp_path / ".cache" / "copy.jsonl").write_bytes(
        (EXAMPLES / "claude-code-session.jsonl").read_bytes()
    )
    (tmp_path / "session.jsonl").write_bytes((EXAMPLES / "claude-code-session.jsonl").read_bytes())
    assert main(["files", str(tmp_path), "--json", "--jobs", "1"]) == 0
    assert [json.loads(line)["transcript"] for line in capsys.readouterr().out.splitlines()] == [
        str(tmp_path / "session.jsonl")
    ]


def test_a_terminal_sees_a_progress_bar_and_a_pipe_does_not(tmp_path: Path) -> None:
    import os
    import pty

    for name in ("claude-code-session.jsonl", "codex-rollout.jsonl", "swe-agent.traj"):
        (tmp_path / name).write_bytes((EXAMPLES / name).read_bytes())
    leader, follower = pty.openpty()
    try:
        try:
            done = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "artifact_index",
                    "files",
                    str(tmp_path),
                    "--json",
                    "--jobs",
                    "2",
                ],
                stdout=subprocess.PIPE,
                stderr=follower,
                timeout=300,
                cwd=ROOT,
            )
        finally:
            os.close(follower)
        seen = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal closed: everything was read
                break
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(leader)
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 3
    assert b"\r\x1b[K[" in seen and b"3/3 files, 3 transcripts" in seen
    piped = run("files", str(tmp_path), "--json", "--jobs", "2")
    assert "\033[K" not in piped.stderr and "3/3" not in piped.stderr
