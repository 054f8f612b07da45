"""Every real transcript goes through every index command (show, symbols, errors, decisions, tasks), table and JSON, with exit code 0.

Runs in-process through :func:`artifact_index.presentation.cli.main`; each transcript's
index is built once (the session-wide ``corpus_index`` cache of conftest.py)
and shared with the other corpus tests.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from artifact_index.presentation import cli
from tests.support.corpus_index import CORPUS_FOLDERS, CorpusIndex
from tests.support.paths import CORPUS

FOLDERS = CORPUS_FOLDERS
COMMANDS = ["show", "symbols", "errors", "decisions", "tasks"]
# The top-level keys each command's --json promises (design.md).
JSON_KEYS = {
    "show": {
        "format",
        "root",
        "files",
        "symbols",
        "errors",
        "original",
        "tests",
        "decisions",
        "tasks",
        "user_messages",
        "work",
    },
    "symbols": {"files"},
    "errors": {"original", "errors", "tests", "failed_runs"},
    "decisions": {"decisions"},
    "tasks": {"tasks", "user_messages"},
}


def corpus_files() -> list[Path]:
    if not CORPUS.exists():
        return []
    return sorted(p for folder in FOLDERS for p in (CORPUS / folder).glob("*.gz"))


@pytest.fixture
def run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], corpus_index: CorpusIndex
) -> Callable[..., tuple[int, str, str]]:
    # The commands import the engine when they run: the index is replaced where they find it.
    monkeypatch.setattr(
        "artifact_index.trail.build.build_index",
        lambda path, format=None: corpus_index(Path(path)),
    )

    def invoke(*argv: str) -> tuple[int, str, str]:
        code = cli.main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return invoke


def test_the_corpus_has_every_format_folder(corpus_dir: Path) -> None:
    assert [f for f in FOLDERS if not list((corpus_dir / f).glob("*.gz"))] == []


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_index_command_runs_on_a_real_transcript(
    path: Path, corpus_dir: Path, run: Callable[..., tuple[int, str, str]]
) -> None:
    for command in COMMANDS:
        code, out, err = run(command, str(path))
        assert code == 0, f"{command}: {err}"
        assert out.strip() and "internal error" not in err
        code, out, err = run(command, str(path), "--json")
        assert code == 0, f"{command} --json: {err}"
        data = json.loads(out)
        assert JSON_KEYS[command] <= set(data), command
    # The timeline of the first changed file, with its net diff when known.
    code, out, _ = run("files", str(path), "--json")
    changed = [
        f["path"]
        for f in json.loads(out)["files"]
        if f["status"] in ("created", "modified", "deleted")
    ]
    if changed:
        code, out, err = run("history", str(path), changed[0], "--json")
        assert code == 0, err
        history = json.loads(out)
        assert history["ops"] and (
            history["net_diff"] is None or isinstance(history["net_diff"], str)
        )
        assert run("history", str(path), changed[0])[0] == 0
