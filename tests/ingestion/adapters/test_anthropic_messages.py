"""The generic Anthropic Messages adapter and the context service's tool vocabulary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from artifact_index.ingestion.events import SessionInfo
from tests.support.paths import ROOT

from .conftest import Loader, Run


@pytest.fixture(scope="module")
def run(load: Loader, fixtures_dir: Path) -> Run:
    return load("anthropic-messages", fixtures_dir / "anthropic-messages" / "session.json")


def _outcomes(run: Run, path: str) -> list[tuple[str, str, str | None]]:
    return [(t.action, t.status, t.failure) for t in run.touches()[path]]


def test_request_body_is_detected_with_its_model(run: Run) -> None:
    assert run.detected == "anthropic-messages"
    session = next(e for e in run.events if isinstance(e, SessionInfo))
    assert session.model == "claude-sonnet-4-5"


def test_seed_vocabulary(run: Run) -> None:
    assert _outcomes(run, "src/utils.py") == [
        ("read", "success", None),
        ("edit", "failure", "not_unique"),
    ]
    assert _outcomes(run, "src/strings.py") == [("write", "success", None)]
    assert _outcomes(run, "src/legacy.py") == [("delete", "success", None)]
    move = next(c for c in run.calls if c.tool == "rename_file")
    assert [(op.action, op.path, op.dest) for op in move.operations] == [
        ("move", "src/helpers.py", "src/tools.py")
    ]
    # Search and web tools touch no file.
    assert not next(c for c in run.calls if c.tool == "search_code").operations


def test_error_text_without_flag_is_a_failure(run: Run) -> None:
    assert _outcomes(run, "src/missing.py") == [("edit", "failure", "not_found")]


def test_is_error_with_exit_code(run: Run) -> None:
    result = run.results["t8"]
    assert (result.status, result.failure, result.exit_code) == ("failure", "exit_status", 2)


def test_unanswered_call_is_unknown_and_malformed_message_counted(run: Run) -> None:
    assert run.results["t9"].status == "unknown"
    assert [s.line for s in run.source.skipped] == [8]


def test_plain_list_is_accepted(load: Loader, tmp_path: Path) -> None:
    path = tmp_path / "messages.json"
    path.write_text(
        json.dumps(
            [
                {"role": "user", "content": "make a file"},
                {
                    "role": "assistant",
                    "content": [
                        {
                            "type": "tool_use",
                            "id": "a",
                            "name": "write_file",
                            "input": {"path": "x.txt", "content": "x"},
                        }
                    ],
                },
                {
                    "role": "user",
                    "content": [{"type": "tool_result", "tool_use_id": "a", "content": "ok"}],
                },
            ]
        )
    )
    run = load("anthropic-messages", path)
    assert run.detected == "anthropic-messages"
    assert run.changed() == {"x.txt"}


def test_example_session(load: Loader) -> None:
    run = load("anthropic-messages", ROOT / "examples" / "anthropic-messages.json")
    assert run.detected == "anthropic-messages"
    assert run.changed() == {"app/health.py", "tests/test_health.py"}
    assert [t.status for t in run.touches()["app/health.py"]] == ["success", "failure", "success"]
