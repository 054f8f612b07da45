"""benchmarks/fresh/score.py and materialize.py on hand-written sessions and a fake build."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.support.paths import ROOT

FRESH = ROOT / "benchmarks" / "fresh"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"fresh_{name}", FRESH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


score = _load("score")
materialize = _load("materialize")


def _session(folder: Path, sid: str, **fields: object) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    raw = {
        "id": sid,
        "repo": "someone/project",
        "commit": "0" * 40,
        "path": "logs/session.jsonl",
        "format": "claude-code",
        "platform": "posix",
        "root": "/home/u/proj",
        "changed": {},
        "uncertain": {},
        "judged_from": "transcript",
    }
    raw.update(fields)
    (folder / f"{sid}.json").write_text(json.dumps(raw))


def _fake_build(tmp_path: Path, answers: dict[str, object]) -> str:
    """A command that prints, for a transcript named <id>.jsonl, the answer stored for <id>."""
    table = tmp_path / "answers.json"
    table.write_text(json.dumps(answers))
    script = tmp_path / "fake_build.py"
    script.write_text(
        "import json, pathlib, sys\n"
        f"answers = json.loads(pathlib.Path({str(table)!r}).read_text())\n"
        "sid = pathlib.Path(sys.argv[1]).name.split('.')[0]\n"
        "answer = answers[sid]\n"
        "if answer == 'crash':\n"
        "    sys.exit('boom')\n"
        "print(json.dumps(answer))\n"
    )
    return f"{sys.executable} {script} {{path}}"


def test_changed_set_uses_only_change_statuses_of_files_and_normalizes_paths(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    set_dir, local = tmp_path / "set", tmp_path / "local"
    _session(
        set_dir / "sessions",
        "a",
        changed={"src/a.py": "modified", "new.txt": "created", "gone.md": "deleted"},
        uncertain={"package-lock.json": "npm install may rewrite it"},
    )
    local.mkdir()
    (local / "a.jsonl").write_text("{}\n")
    output = {
        "format": "claude-code",
        "root": "/home/u/proj",
        "files": [
            {"path": "/home/u/proj/src/a.py", "status": "modified"},
            {"path": "./new.txt", "status": "modified"},
            {"path": "README.md", "status": "read"},
            {"path": "tmp.txt", "status": "reverted"},
            {"path": "package-lock.json", "status": "modified"},
            {"path": "wrong.py", "status": "created"},
        ],
        "unknown_effects": [{"command": "make", "path": "gone.md"}],
    }
    cmd = _fake_build(tmp_path, {"a": output})
    assert (
        score.main(
            ["--cmd", cmd, "--set-dir", str(set_dir), "--sessions-dir", str(local), "--json"]
        )
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    only = report["sessions"][0]
    assert only["false_positives"] == {"wrong.py": "created"}
    assert only["false_negatives"] == {"gone.md": "deleted"}
    assert only["status_mismatches"] == {"new.txt": {"truth": "created", "got": "modified"}}
    figures = report["all"]
    assert (figures["precision"], figures["recall"]) == (round(2 / 3, 4), round(2 / 3, 4))
    assert figures["status_agreement"] == 0.5


def test_windows_sessions_compare_without_case_and_backslashes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    set_dir, local = tmp_path / "set", tmp_path / "local"
    _session(
        set_dir / "sessions",
        "w",
        platform="windows",
        root="C:\\Users\\me\\proj",
        changed={"Src\\Main.cs": "modified"},
    )
    _session(set_dir / "sessions", "p", changed={"Src/Main.cs": "modified"})
    local.mkdir()
    for sid in ("w", "p"):
        (local / f"{sid}.jsonl").write_text("{}\n")
    files = [{"path": "c:/users/me/proj/src/main.cs", "status": "modified"}]
    answers = {
        "w": {"root": "C:/Users/me/proj", "files": files},
        "p": {"root": "/home/u/proj", "files": [{"path": "src/main.cs", "status": "modified"}]},
    }
    cmd = _fake_build(tmp_path, answers)
    score.main(["--cmd", cmd, "--set-dir", str(set_dir), "--sessions-dir", str(local), "--json"])
    by_id = {s["id"]: s for s in json.loads(capsys.readouterr().out)["sessions"]}
    assert not by_id["w"]["false_positives"] and not by_id["w"]["false_negatives"]
    # On a case-sensitive platform the two names are two files.
    assert by_id["p"]["false_positives"] == {"src/main.cs": "modified"}


def test_errors_and_missing_transcripts_are_reported_not_fatal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    set_dir, local = tmp_path / "set", tmp_path / "local"
    _session(set_dir / "sessions", "bad", changed={"x.py": "created"})
    _session(set_dir / "sessions", "absent", changed={"y.py": "created"})
    local.mkdir()
    (local / "bad.jsonl").write_text("{}\n")
    cmd = _fake_build(tmp_path, {"bad": "crash"})
    assert score.main(["--cmd", cmd, "--set-dir", str(set_dir), "--sessions-dir", str(local)]) == 0
    out, err = capsys.readouterr()
    assert "! claude-code/bad: exit 1" in out
    assert "absent" in err and "materialize.py" in err
    all_row = next(line for line in out.splitlines() if line.startswith("ALL"))
    assert all_row.split()[1:3] == ["1", "1"]  # one session, one error


def test_holdout_sessions_count_only_with_the_flag_and_once_judged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    set_dir, local, held = tmp_path / "set", tmp_path / "local", tmp_path / "held"
    _session(set_dir / "holdout", "judged", changed={"a.py": "modified"})
    _session(set_dir / "holdout", "unjudged", changed={}, judged_from=None)
    _session(set_dir / "sessions", "dev", changed={"a.py": "modified"})
    for folder, sid in ((local, "dev"), (held, "judged"), (held, "unjudged")):
        folder.mkdir(exist_ok=True)
        (folder / f"{sid}.jsonl").write_text("{}\n")
    answer = {"files": [{"path": "a.py", "status": "modified"}]}
    cmd = _fake_build(tmp_path, {"dev": answer, "judged": answer, "unjudged": answer})
    base = ["--cmd", cmd, "--set-dir", str(set_dir), "--sessions-dir", str(local), "--json"]
    score.main(base)
    assert [s["id"] for s in json.loads(capsys.readouterr().out)["sessions"]] == ["dev"]
    score.main([*base, "--holdout", "--holdout-dir", str(held)])
    assert [s["id"] for s in json.loads(capsys.readouterr().out)["sessions"]] == ["dev", "judged"]


def test_materialize_reads_the_mirror_applies_redactions_and_lists_unfetched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mirror = tmp_path / "mirror"
    work = tmp_path / "work"
    work.mkdir()

    def git(*args: str) -> str:
        done = subprocess.run(["git", "-C", str(work), *args], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    git("init", "-q")
    (work / "logs").mkdir()
    (work / "logs" / "session.jsonl").write_text('{"token": "tok_abcdef123456"}\n')
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "log")
    commit = git("rev-parse", "HEAD")
    mirror.mkdir()
    subprocess.run(
        ["git", "clone", "-q", "--bare", str(work), str(mirror / "someone+project" / "repo")],
        check=True,
    )
    set_dir, local = tmp_path / "set", tmp_path / "local"
    _session(set_dir / "sessions", "s1", commit=commit, redact=["tok_[a-z0-9]+"])
    _session(set_dir / "sessions", "s2", repo="other/repo", commit=commit)
    argv = ["--mirror", str(mirror), "--set-dir", str(set_dir), "--sessions-dir", str(local)]
    assert materialize.main([*argv, "--no-holdout"]) == 1  # other/repo is not fetched
    out = capsys.readouterr().out
    assert (local / "s1.jsonl").read_text() == '{"token": "[REDACTED]"}\n'
    assert "github:other/repo" in out


def test_materialize_batch_writes_only_that_holdout_batch(tmp_path: Path) -> None:
    set_dir = tmp_path / "set"
    _session(set_dir / "sessions", "dev")
    _session(set_dir / "holdout", "old", batch="2026-01-01a")
    _session(set_dir / "holdout", "new", batch="2026-01-02b")
    _session(set_dir / "holdout", "unlabelled")
    wanted = materialize.wanted_sessions(
        set_dir, tmp_path / "local", tmp_path / "held", batch="2026-01-02b"
    )
    assert [(w.id, w.target_dir) for w in wanted] == [("new", tmp_path / "held")]
    everything = materialize.wanted_sessions(set_dir, tmp_path / "local", tmp_path / "held")
    assert sorted(w.id for w in everything) == ["dev", "new", "old", "unlabelled"]


def test_materialize_batch_refuses_no_holdout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--set-dir", str(tmp_path), "--batch", "2026-01-02b", "--no-holdout"]
    assert materialize.main(argv) == 2
    assert "--batch" in capsys.readouterr().err


def test_changes_left_out_of_a_submission_are_changes_of_the_session(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    set_dir, local = tmp_path / "set", tmp_path / "local"
    _session(
        set_dir / "sessions",
        "m",
        format="mini-swe-agent",
        root="/testbed",
        changed={"pkg/core.py": "modified", "/tmp/fix.py": "created"},
    )
    local.mkdir()
    (local / "m.json").write_text("{}\n")
    output = {
        "root": "/testbed",
        "files": [{"path": "pkg/core.py", "status": "modified"}],
        "unsubmitted": [
            {"path": "/tmp/fix.py", "status": "created", "outside_workspace": True},
            {"path": "reproduce.py", "status": "created"},
        ],
        "failed": [{"path": "setup.py", "status": None}],
    }
    cmd = _fake_build(tmp_path, {"m": output})
    score.main(["--cmd", cmd, "--set-dir", str(set_dir), "--sessions-dir", str(local), "--json"])
    only = json.loads(capsys.readouterr().out)["sessions"][0]
    assert only["false_negatives"] == {}
    assert only["false_positives"] == {"reproduce.py": "created"}
