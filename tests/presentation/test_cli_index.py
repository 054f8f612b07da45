"""The index commands (show, symbols, errors, decisions, tasks) on a hand-written Claude Code session, table and JSON.

The session (tests/fixtures/cli/index_session.jsonl) fixes a login bug: it
plans with TodoWrite, reads auth.py, runs pytest (2 failed, 14 passed with
``KeyError: 'exp'`` at auth.py:9), states the root cause, edits
``create_token`` and adds ``refresh``, reruns pytest (16 passed) and creates
tests/test_refresh.py.  The JSON shapes asserted here are the contracts the
summarizer and other tools read.
"""

from __future__ import annotations

import json
import sys
from importlib import metadata
from typing import Any

import pytest

from artifact_index.grammars import grammar_source
from artifact_index.presentation.cli import main
from tests.support.paths import FIXTURES

SESSION = FIXTURES / "cli" / "index_session.jsonl"

AUTH_DIFF = "".join(
    line + "\n"
    for line in [
        "--- a/auth.py",
        "+++ b/auth.py",
        "@@ -3,7 +3,10 @@",
        " ",
        " class AuthService:",
        "     def create_token(self, user):",
        '-        return {"sub": user}',
        '+        return {"sub": user, "exp": time.time() + 3600}',
        "+",
        "+    def refresh(self, token):",
        '+        return self.create_token(token["sub"])',
        " ",
        "     def verify(self, token):",
        '         return token["exp"] > time.time()',
    ]
)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    """What the command prints, its envelope checked and taken off."""
    out = json.loads(run(capsys, *argv, str(SESSION), "--json"))
    assert (out.pop("schema_version"), out.pop("transcript")) == (1, str(SESSION))
    return out


def test_symbols_json_lists_each_files_definitions_with_their_net_change(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = run_json(capsys, "symbols")
    assert out == {
        "files": [
            {
                "path": "auth.py",
                "symbols": [
                    {
                        "name": "AuthService",
                        "kind": "class",
                        "container": None,
                        "change": "read",
                        "turns": [3],
                    },
                    {
                        "name": "create_token",
                        "kind": "method",
                        "container": "AuthService",
                        "change": "modified",
                        "turns": [3, 6],
                    },
                    {
                        "name": "verify",
                        "kind": "method",
                        "container": "AuthService",
                        "change": "read",
                        "turns": [3],
                    },
                    {
                        "name": "refresh",
                        "kind": "method",
                        "container": "AuthService",
                        "change": "added",
                        "turns": [6],
                    },
                ],
            },
            {
                "path": "tests/test_refresh.py",
                "symbols": [
                    {
                        "name": "test_refresh_keeps_subject",
                        "kind": "function",
                        "container": None,
                        "change": "added",
                        "turns": [9],
                    },
                ],
            },
        ],
        "grammars": {"python": grammar_source("python")},
    }


def test_symbols_json_names_the_grammar_that_found_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Python 3.11 and 3.12 take the grammars bundled in tree-sitter-languages, newer Pythons the
    # per-language packages, which may find other symbols: the output says which it was.
    out = run_json(capsys, "symbols")
    source = out["grammars"]["python"]
    package = "tree-sitter-languages" if sys.version_info < (3, 13) else "tree-sitter-python"
    assert source == f"{package} {metadata.version(package)}"


def test_symbols_table_hides_reads_with_changed(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "symbols", str(SESSION), "--changed")
    assert "modified  method     AuthService.create_token  (turns 3,6)" in out
    assert "added     method     AuthService.refresh  (turns 6)" in out
    assert "verify" not in out


def test_errors_json_has_the_original_error_its_resolution_and_the_last_test_result(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = run_json(capsys, "errors")
    assert set(out) == {"original", "errors", "tests", "failed_runs"}
    [error] = out["errors"]
    assert {
        "message",
        "kind",
        "file",
        "line",
        "symbol",
        "first_turn",
        "last_turn",
        "resolved",
        "command",
    } <= set(error)
    assert (error["message"], error["kind"], error["file"], error["line"]) == (
        "KeyError: 'exp'",
        "pytest",
        "auth.py",
        9,
    )
    assert error["symbol"] in ("verify", "AuthService.verify")
    assert (error["first_turn"], error["last_turn"], error["resolved"]) == (4, 4, True)
    assert error["command"] == "python -m pytest tests -q"
    # The whole suite passed at turn 8, after the edit of auth.py at turn 6.
    assert (error["resolved_turn"], error["resolution"], error["fixed_by"]) == (
        8,
        "the same check passed",
        ["auth.py"],
    )
    assert out["original"] == error
    [failed] = out["failed_runs"]
    assert (failed["turn"], failed["outcome"], failed["reason"]) == (4, "error", None)
    assert out["tests"] == [
        {
            "command": "python -m pytest tests -q",
            "passed": 16,
            "failed": 0,
            "skipped": 0,
            "failing": [],
            "turn": 8,
        }
    ]


def test_errors_table_says_what_is_resolved(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "errors", str(SESSION))
    assert out.splitlines()[0] == "Original error (turn 4): KeyError: 'exp'"
    assert "resolved turns 4" in out and "auth.py:9" in out
    assert "KeyError: 'exp'  (the same check passed at turn 8)" in out
    assert "16 passed, 0 failed, 0 skipped" in out


def test_decisions_json_carries_kind_turn_files_and_symbols(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = run_json(capsys, "decisions")
    assert out == {
        "decisions": [
            {
                "kind": "root-cause",
                "turn": 5,
                "files": ["auth.py"],
                "symbols": ["create_token", "exp", "verify"],
                "text": "The root cause is that `create_token` in auth.py never sets the `exp` claim, so `verify` raises.",
            },
            {
                "kind": "rejected-alternative",
                "turn": 5,
                "files": [],
                "symbols": ["create_token", "verify"],
                "text": "I'll set an expiry in `create_token` instead of making `verify` tolerate a missing claim.",
            },
        ]
    }


def test_tasks_json_is_the_latest_list_and_the_user_messages(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = run_json(capsys, "tasks")
    assert out["tasks"] == [
        {
            "id": "1",
            "content": "Reproduce the failing login test",
            "status": "completed",
            "turn": 7,
        },
        {"id": "2", "content": "Set exp in create_token", "status": "completed", "turn": 7},
        {"id": "3", "content": "Document token expiry in README", "status": "pending", "turn": 7},
    ]
    assert out["user_messages"] == [
        {
            "turn": 1,
            "text": "Fix the login bug: tokens never expire, and add a refresh method.",
            "channel": "prompt",
        }
    ]
    table = run(capsys, "tasks", str(SESSION))
    assert "[ ] Document token expiry in README  (turn 7)" in table and "1 open of 3" in table


def test_show_is_one_screen_with_every_part_of_the_index(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = run(capsys, "show", str(SESSION))
    assert out.splitlines()[0] == "claude-code session s-auth, 10 turns, root /work/auth"
    for line in (
        "Files: 1 created, 1 modified",
        "  modified  auth.py  [create_token, refresh]",
        "  created   tests/test_refresh.py  [test_refresh_keeps_subject]",
        "Errors: 1 seen, 0 open",
        "  original (turn 4): KeyError: 'exp'",
        "Tests: python -m pytest tests -q -> 16 passed, 0 failed (turn 8)",
        "Tasks: 1 open of 3",
        "  [ ] Document token expiry in README",
        "  turn 5 root-cause: The root cause is that `create_token` in auth.py never sets the `exp` claim, so `verify` …",
    ):
        assert line in out.splitlines()
    assert len(out.splitlines()) < 40


def test_show_json_keeps_files_and_symbols_apart(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "show")
    assert [(f["path"], f["status"]) for f in out["files"]] == [
        ("auth.py", "modified"),
        ("tests/test_refresh.py", "created"),
    ]
    assert [s["path"] for s in out["symbols"]] == ["auth.py", "tests/test_refresh.py"]
    assert out["original"]["message"] == "KeyError: 'exp'" and len(out["decisions"]) == 2
    assert len(out["tasks"]) == 3 and out["user_messages"][0]["turn"] == 1


def test_history_json_has_the_timeline_and_the_net_diff(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history", str(SESSION), "auth.py", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {
        "schema_version": 1,
        "transcript": str(SESSION),
        "path": "auth.py",
        "net_diff": AUTH_DIFF,
        "ops": [
            {"turn": 3, "action": "read", "tool": "Read", "source": "tool"},
            {"turn": 6, "action": "edit", "tool": "Edit", "source": "tool"},
        ],
    }
    assert main(["history", str(SESSION), "tests/test_refresh.py", "--json"]) == 0
    created = json.loads(capsys.readouterr().out)["net_diff"]
    assert created.startswith(
        "--- /dev/null\n+++ b/tests/test_refresh.py\n@@ -0,0 +1,6 @@\n+from auth import AuthService\n"
    )


def test_history_table_ends_with_the_net_diff(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "history", str(SESSION), "auth.py")
    assert out.endswith("Net diff:\n" + AUTH_DIFF)
    assert (
        run(capsys, "history", str(SESSION), "nowhere.py") == "No operation touched nowhere.py.\n"
    )
