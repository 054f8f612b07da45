"""One vocabulary on the command line: global options anywhere, help with examples, one JSON shape, tables that fit."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pytest
from fake_secrets import fake_secrets

from artifact_index.presentation.cli import build_parser, main
from artifact_index.presentation.tables import Column, render_table, shorten_middle
from summarizer.sections.templates import DEFAULT_TEMPLATE
from tests.support.paths import ROOT

EXAMPLE = ROOT / "examples" / "claude-code-session.jsonl"

# Commands about transcripts: each prints one object per transcript with --json.
TRANSCRIPT_COMMANDS = ["files", "symbols", "decisions", "tasks", "show", "errors", "refetch"]


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def _session_with_a_secret(folder: Path) -> tuple[Path, str]:
    secret = next(s for s in fake_secrets() if s.kind == "aws-access-key-id")
    records = [
        {
            "type": "user",
            "sessionId": "s1",
            "uuid": "u1",
            "cwd": "/w",
            "message": {"role": "user", "content": f"deploy with {secret.context}"},
        },
        {
            "type": "assistant",
            "sessionId": "s1",
            "uuid": "a1",
            "cwd": "/w",
            "message": {
                "id": "m1",
                "role": "assistant",
                "content": [{"type": "text", "text": "ok"}],
            },
        },
    ]
    path = folder / "session.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path, secret.value


@pytest.mark.parametrize("where", ["before", "after"])
def test_a_global_option_is_taken_before_or_after_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    session, secret = _session_with_a_secret(tmp_path)
    command = ["tasks", str(session), "--json"]
    argv = ["--no-redact", *command] if where == "before" else [*command, "--no-redact"]
    assert main(argv) == 0
    assert secret in capsys.readouterr().out
    assert main(command) == 0
    assert secret not in capsys.readouterr().out


def test_every_command_says_what_it_does_and_shows_an_example() -> None:
    commands = _commands()
    assert {"files", "summary", "compact", "serve", "mcp", "install"} <= set(commands)
    for name, parser in commands.items():
        assert parser.description, name
        assert parser.epilog and parser.epilog.startswith("examples:\n"), name
        examples = parser.epilog.splitlines()[1:]
        assert examples and all("artifact-index" in line for line in examples), name
        assert any(f"artifact-index {name}" in line for line in examples), name


def test_summary_help_mentions_no_option_it_does_not_take(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as done:
        main(["summary", "--help"])
    assert done.value.code == 0
    assert "--json" not in capsys.readouterr().out


@pytest.mark.parametrize("command", TRANSCRIPT_COMMANDS)
def test_json_is_one_line_with_its_schema_version_and_the_transcript(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([command, str(EXAMPLE), "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    document = json.loads(out)
    assert list(document)[:2] == ["schema_version", "transcript"]
    assert (document["schema_version"], document["transcript"]) == (1, str(EXAMPLE))


def test_files_json_keeps_the_keys_of_its_contract(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["files", str(EXAMPLE), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert {"format", "root", "files", "skipped_lines"} <= set(document)
    assert document["files"][0].keys() >= {"path", "status", "sources", "ops"}


def test_the_templates_default_is_the_same_for_every_command() -> None:
    commands = _commands()
    defaults = {
        name: commands[name].get_default("template") for name in ("summary", "compact", "serve")
    }
    assert defaults == dict.fromkeys(defaults, DEFAULT_TEMPLATE)


def test_tasks_shows_every_user_message_with_how_it_was_given(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["tasks", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "User messages (1):" in out
    assert "turn 1 (prompt): Login accepts expired tokens." in out


def test_history_finds_a_file_by_its_bare_name_as_where_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["history", str(EXAMPLE), "auth.py", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["path"] == "src/auth.py" and len(document["ops"]) == 3


def test_a_bare_name_of_several_files_asks_for_more_of_the_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = []
    for number, path in enumerate(["/w/src/app.py", "/w/tests/app.py"], 1):
        records += [
            {
                "type": "assistant",
                "sessionId": "s",
                "uuid": f"a{number}",
                "cwd": "/w",
                "message": {
                    "id": f"m{number}",
                    "role": "assistant",
                    "content": [
                        {
                            "type": "tool_use",
                            "id": f"t{number}",
                            "name": "Write",
                            "input": {"file_path": path, "content": "x = 1\n"},
                        }
                    ],
                },
            },
            {
                "type": "user",
                "sessionId": "s",
                "uuid": f"r{number}",
                "cwd": "/w",
                "message": {
                    "role": "user",
                    "content": [
                        {"type": "tool_result", "tool_use_id": f"t{number}", "content": "ok"}
                    ],
                },
            },
        ]
    session = tmp_path / "s.jsonl"
    session.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert main(["history", str(session), "app.py"]) == 1
    err = capsys.readouterr().err
    assert "app.py names 2 files (src/app.py, tests/app.py): give more of its path" in err
    assert main(["history", str(session), "tests/app.py"]) == 0


def test_a_long_path_is_shortened_in_the_middle_to_fit_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    deep = "/w/" + "/".join(f"folder_number_{n}" for n in range(8)) + "/module.py"
    records = [
        {
            "type": "assistant",
            "sessionId": "s",
            "uuid": "a1",
            "cwd": "/w",
            "message": {
                "id": "m1",
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": deep}}
                ],
            },
        },
        {
            "type": "user",
            "sessionId": "s",
            "uuid": "r1",
            "cwd": "/w",
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "x = 1"}],
            },
        },
    ]
    session = tmp_path / "s.jsonl"
    session.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)  # a terminal 80 columns wide
    assert main(["files", str(session)]) == 0
    table = capsys.readouterr().out.splitlines()
    assert all(len(line) <= 80 for line in table)
    [row] = [line for line in table if line.startswith("read")]
    assert row.split()[1].startswith("folder_number_0") and "/module.py" in row and "…" in row
    assert main(["files", str(session), "--wide"]) == 0
    assert deep.removeprefix("/w/") in capsys.readouterr().out


def test_shortening_keeps_both_ends() -> None:
    assert shorten_middle("src/a/b/c/d/e/module.py", 16) == "src/a/…module.py"
    assert shorten_middle("short.py", 16) == "short.py"
    columns = (Column("A"), Column("PATH", shrink="middle"), Column("NOTE", shrink="end"))
    rows = [("x", "p" * 60, "n" * 60)]
    assert all(len(line) <= 50 for line in render_table(columns, rows, 50))
    assert render_table(columns, rows, None)[1].endswith("n" * 60)
