"""The generic OpenAI chat-completions adapter."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from artifact_index.ingestion.adapters import adapter_named
from artifact_index.ingestion.events import UserMessage
from artifact_index.ingestion.source import Source
from tests.support.paths import ROOT

from .conftest import Loader, Run


@pytest.fixture(scope="module")
def run(load: Loader, fixtures_dir: Path) -> Run:
    return load("openai-chat", fixtures_dir / "openai-chat" / "session.jsonl")


def _outcomes(run: Run, path: str) -> list[tuple[str, str, str | None]]:
    return [(t.action, t.status, t.failure) for t in run.touches()[path]]


def test_jsonl_is_detected(run: Run) -> None:
    assert run.detected == "openai-chat"


def test_tool_calls_with_json_string_arguments(run: Run) -> None:
    assert _outcomes(run, "app.py") == [("read", "success", None), ("edit", "success", None)]
    assert _outcomes(run, "app/__init__.py") == [("write", "success", None)]
    assert _outcomes(run, "old.py") == [("delete", "success", None)]
    move = next(c for c in run.calls if c.tool == "move_file")
    assert [(op.action, op.dest) for op in move.operations] == [("move", "app/lib.py")]


def test_error_results_are_failures_with_reasons(run: Run) -> None:
    assert _outcomes(run, "setup.py") == [("edit", "failure", "not_found")]
    assert (run.results["c8"].failure, run.results["c8"].exit_code) == ("exit_status", 2)


def test_legacy_function_call(run: Run) -> None:
    assert _outcomes(run, "README.md") == [("read", "success", None)]


def test_bad_line_is_skipped_with_its_number(run: Run) -> None:
    assert [s.line for s in run.source.skipped] == [5]


def test_request_body_and_array(load: Loader, tmp_path: Path) -> None:
    messages = [
        {"role": "user", "content": "edit"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "c",
                    "type": "function",
                    "function": {
                        "name": "edit_file",
                        "arguments": json.dumps(
                            {"path": "a.py", "old_string": "1", "new_string": "2"}
                        ),
                    },
                }
            ],
        },
        {"role": "tool", "tool_call_id": "c", "content": "done"},
    ]
    for name, document in (
        ("body.json", {"model": "gpt-4o", "messages": messages}),
        ("list.json", messages),
    ):
        path = tmp_path / name
        path.write_text(json.dumps(document))
        run = load("openai-chat", path)
        assert run.detected == "openai-chat", name
        assert run.changed() == {"a.py"}, name


def test_example_session(load: Loader) -> None:
    run = load("openai-chat", ROOT / "examples" / "openai-chat.jsonl")
    assert run.detected == "openai-chat"
    assert run.changed() == {"src/config.py", "src/cli.py", "src/server.py"}


def test_a_message_whose_role_is_not_a_string_is_skipped() -> None:
    # Regression: a list role raised TypeError (unhashable) in the role check.
    text = (
        json.dumps({"role": ["user"], "content": "x"})
        + "\n"
        + json.dumps({"role": "user", "content": "hi"})
    )
    source = Source("chat.jsonl", text)
    events = list(adapter_named("openai-chat").events(source))
    assert [e.text for e in events if isinstance(e, UserMessage)] == ["hi"]
    assert [s.line for s in source.skipped] == [1]
