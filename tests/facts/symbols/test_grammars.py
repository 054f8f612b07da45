"""Grammars load on every supported Python, and a missing one is a loud error, never a silent drop."""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from artifact_index import grammars
from artifact_index.exceptions import GrammarUnavailable
from artifact_index.facts.symbols import definitions
from artifact_index.presentation.cli import main
from artifact_index.shell.parser import bash_grammar as shell_grammar
from artifact_index.shell.scripts import interpreter as script_interpreter

LANGUAGES = [
    "bash",
    "python",
    "javascript",
    "typescript",
    "tsx",
    "go",
    "rust",
    "java",
    "c",
    "cpp",
    "c_sharp",
    "ruby",
    "php",
    "kotlin",
    "elixir",
]


def _clear_grammar_caches() -> None:
    grammars.language.cache_clear()
    shell_grammar.bash_parser.cache_clear()
    script_interpreter._parser.cache_clear()
    definitions.tags_query.cache_clear()


@pytest.fixture
def fresh_grammars() -> Iterator[None]:
    _clear_grammar_caches()
    yield
    _clear_grammar_caches()


@pytest.mark.parametrize("name", LANGUAGES)
def test_every_supported_grammar_is_installed_and_parses(name: str) -> None:
    parser = grammars.parser(name)
    assert parser is not None
    assert parser.parse(b"x").root_node is not None


def test_a_missing_bash_grammar_stops_the_command_with_one_sentence(
    fresh_grammars: None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    real_import = importlib.import_module

    def without_grammars(name: str, package: str | None = None) -> object:
        if name.startswith("tree_sitter_"):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, package)

    monkeypatch.setattr(grammars, "_bundled_library", lambda: None)
    monkeypatch.setattr(grammars.importlib, "import_module", without_grammars)
    session = tmp_path / "s.jsonl"
    records = [
        {
            "type": "user",
            "cwd": "/w",
            "sessionId": "s",
            "uuid": "u1",
            "message": {"role": "user", "content": "go"},
        },
        {
            "type": "assistant",
            "cwd": "/w",
            "sessionId": "s",
            "uuid": "a1",
            "message": {
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "t1",
                        "name": "Bash",
                        "input": {"command": "echo hi > notes.txt"},
                    }
                ],
            },
        },
        {
            "type": "user",
            "cwd": "/w",
            "sessionId": "s",
            "uuid": "u2",
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "t1", "content": ""}],
            },
        },
    ]
    session.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    code = main(["files", str(session)])
    captured = capsys.readouterr()
    assert code == 1 and captured.out == ""
    assert "no tree-sitter grammar for bash: install tree-sitter-bash" in captured.err
    assert len(captured.err.strip().splitlines()) == 1
    with pytest.raises(GrammarUnavailable):
        grammars.language("python")
