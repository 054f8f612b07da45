"""Cursor, Windsurf, Droid, Continue CLI, Amp and Copilot (VS Code) transcripts."""

from __future__ import annotations

from pathlib import Path

import pytest

from artifact_index.events import SessionInfo

from .conftest import Loader, Run

R = "/Users/dev/proj"


def _run(load: Loader, fixtures_dir: Path, name: str) -> Run:
    folder = fixtures_dir / "other_agents"
    path = (
        folder / f"{name}.json" if (folder / f"{name}.json").exists() else folder / f"{name}.jsonl"
    )
    return load(name, path)


def _outcomes(run: Run, path: str) -> list[tuple[str, str, str | None]]:
    return [(t.action, t.status, t.failure) for t in run.touches()[path]]


@pytest.mark.parametrize(
    "name", ["cursor", "windsurf", "droid", "continue-cli", "amp", "copilot-vscode"]
)
def test_fixture_is_detected_and_malformed_input_is_counted(
    load: Loader, fixtures_dir: Path, name: str
) -> None:
    run = _run(load, fixtures_dir, name)
    assert run.detected == name
    assert len(run.source.skipped) == 1
    assert all(c.call_id in run.results for c in run.calls)


def test_cursor_calls_have_unknown_status(load: Loader, fixtures_dir: Path) -> None:
    run = _run(load, fixtures_dir, "cursor")
    assert _outcomes(run, f"{R}/shows.txt") == [
        ("read", "unknown", None),
        ("edit", "unknown", None),
    ]
    assert _outcomes(run, f"{R}/nineties.txt") == [("write", "unknown", None)]
    assert _outcomes(run, f"{R}/old.txt") == [("delete", "unknown", None)]
    assert [t.action for t in run.touches()["git status"]] == ["shell"]


def test_windsurf_steps_are_calls_with_results(load: Loader, fixtures_dir: Path) -> None:
    run = _run(load, fixtures_dir, "windsurf")
    assert _outcomes(run, f"{R}/song.md") == [("read", "success", None), ("write", "success", None)]
    # No original content: a new file; the URI is decoded.
    assert _outcomes(run, f"{R}/my notes.md") == [("create", "success", None)]
    assert _outcomes(run, f"{R}/README.md") == [("write", "failure", "rejected")]
    assert _outcomes(run, "npm test") == [("shell", "failure", "exit_status")]
    assert _outcomes(run, "git push --force") == [("shell", "failure", "rejected")]


def test_droid_patch_results_and_cwd(load: Loader, fixtures_dir: Path) -> None:
    run = _run(load, fixtures_dir, "droid")
    session = next(e for e in run.events if isinstance(e, SessionInfo))
    assert session.cwd == R
    assert _outcomes(run, f"{R}/index.ts") == [("read", "success", None), ("edit", "success", None)]
    assert _outcomes(run, f"{R}/lib.ts") == [("edit", "failure", "verification")]
    assert _outcomes(run, f"{R}/util.ts") == [("create", "success", None)]
    assert _outcomes(run, "rm old.ts") == [("shell", "failure", "exit_status")]


def test_continue_cli_tool_states(load: Loader, fixtures_dir: Path) -> None:
    run = _run(load, fixtures_dir, "continue-cli")
    assert _outcomes(run, f"{R}/index.ts") == [("read", "success", None), ("edit", "success", None)]
    assert _outcomes(run, f"{R}/notes.md") == [("write", "failure", "rejected")]
    assert _outcomes(run, f"{R}/missing.ts") == [("edit", "failure", "not_found")]


def test_amp_runs(load: Loader, fixtures_dir: Path) -> None:
    run = _run(load, fixtures_dir, "amp")
    assert _outcomes(run, f"{R}/jokes.csv") == [
        ("read", "success", None),
        ("edit", "success", None),
        ("undo", "success", None),
    ]
    assert f"{R}/src" not in run.touches()  # reading a directory reads no file
    assert _outcomes(run, f"{R}/src/cli.ts") == [("write", "success", None)]
    assert _outcomes(run, f"{R}/src/index.ts") == [("edit", "failure", "not_found")]
    assert _outcomes(run, f"{R}/secret.env") == [("write", "failure", "rejected")]


def test_copilot_mutation_log_is_replayed(load: Loader, fixtures_dir: Path) -> None:
    run = _run(load, fixtures_dir, "copilot-vscode")
    assert _outcomes(run, f"{R}/index.ts") == [("edit", "success", None)]
    # The second request was pushed (kind 2) and its result set later (kind 1).
    assert _outcomes(run, f"{R}/README.md") == [("write", "success", None)]
    assert _outcomes(run, "rm old.md") == [("shell", "failure", "rejected")]
    assert _outcomes(run, f"{R}/nope.ts") == [("read", "failure", "not_found")]
    readme = next(c for c in run.calls if c.tool == "create_file")
    assert readme.line == 2


def test_corpus_files_parse_and_yield_their_edits(load: Loader, corpus_dir: Path) -> None:
    expected = {
        "amp1": ("amp", False),
        "amp2": ("amp", True),
        "continue": ("continue-cli", True),
        "copilot": ("copilot-vscode", True),
        "cursor": ("cursor", True),
        "droid": ("droid", True),
        "windsurf": ("windsurf", True),
    }
    files = sorted((corpus_dir / "other").glob("*.gz"))
    assert len(files) == len(expected)
    for path in files:
        key = next(k for k in expected if k in path.name)
        name, edits = expected[key]
        run = load(name, path)
        assert run.detected == name, path.name
        # Cursor records no results, so its write counts with an unknown status.
        proposed = {
            p
            for p, touches in run.touches().items()
            if any(
                t.action in ("create", "write", "edit") and t.status != "failure" for t in touches
            )
        }
        assert bool(proposed) == edits, path.name
