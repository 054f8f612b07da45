"""Cline: results are text in the next user message (api history) or in api_req_started (ui)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from artifact_index.ingestion.adapters import adapter_named
from artifact_index.ingestion.events import SessionInfo, UserMessage, WorkingDirectory
from artifact_index.ingestion.source import Source

from .conftest import Loader, Run


@pytest.fixture(scope="module")
def api(load: Loader, fixtures_dir: Path) -> Run:
    return load("cline", fixtures_dir / "cline" / "api_conversation_history.json")


@pytest.fixture(scope="module")
def ui(load: Loader, fixtures_dir: Path) -> Run:
    return load("cline-ui", fixtures_dir / "cline-ui" / "ui_messages.json")


def _outcomes(run: Run, path: str) -> list[tuple[str, str, str | None]]:
    return [(t.action, t.status, t.failure) for t in run.touches()[path]]


def test_both_files_are_detected(api: Run, ui: Run) -> None:
    assert (api.detected, ui.detected) == ("cline", "cline-ui")


def test_api_read_and_windows_paths_are_kept(api: Run) -> None:
    assert _outcomes(api, "src/index.ts") == [("read", "success", None)]
    logger = api.touches()["c:\\Work\\demo\\src\\logger.ts"]
    assert [(t.action, t.status) for t in logger] == [("write", "success")]


def test_api_replace_in_file_is_one_edit_per_block_and_reports_saved_content(api: Run) -> None:
    call = next(c for c in api.calls if c.call_id == "toolu_3")
    assert [(op.action, op.old, op.new) for op in call.operations] == [
        ("edit", "console.log('start');\n", "import { log } from './logger';\nlog('start');\n")
    ]
    reported = api.results["toolu_3"].reported
    assert reported is not None and reported[0].content is not None
    assert reported[0].content.endswith("main();")


def test_api_failed_and_denied_edits_do_not_count(api: Run) -> None:
    assert (api.results["toolu_4"].status, api.results["toolu_4"].failure) == (
        "failure",
        "not_found",
    )
    assert _outcomes(api, "c:\\Work\\demo\\.env") == [("write", "failure", "rejected")]


def test_api_only_the_persons_words_are_user_messages(api: Run) -> None:
    typed = [
        (e.channel, e.text) for e in api.events if isinstance(e, UserMessage) and not e.synthetic
    ]
    assert typed == [
        (
            "prompt",
            "Add a logger module and use it in src/index.ts",
        ),  # without the environment details
        (
            "feedback",
            "no secrets in the repo: write .env.example instead",
        ),  # given when refusing the write
    ]
    resumed = [
        e
        for e in api.events
        if isinstance(e, UserMessage) and e.text.startswith("[TASK RESUMPTION]")
    ]
    assert [e.synthetic for e in resumed] == [True]


def test_api_user_edit_during_approval_still_saves(api: Run) -> None:
    assert _outcomes(api, "c:\\Work\\demo\\README.md") == [("write", "success", None)]


def test_api_commands_keep_their_exit_code(api: Run) -> None:
    npm = api.results["toolu_7"]
    assert (npm.status, npm.failure, npm.exit_code) == ("failure", "exit_status", 1)


def test_api_xml_tool_calls_of_older_cline_are_read(api: Run) -> None:
    shell = api.touches()["del src\\old.ts"]
    assert [(t.action, t.status) for t in shell] == [("shell", "success")]


def test_api_call_without_result_before_resumption_is_interrupted(api: Run) -> None:
    assert _outcomes(api, "notes.md") == [("read", "failure", "interrupted")]


def test_api_working_directory_follows_task_resumption(api: Run) -> None:
    session = next(e for e in api.events if isinstance(e, SessionInfo))
    moves = [e.cwd for e in api.events if isinstance(e, WorkingDirectory)]
    assert session.cwd == "c:/Work/demo2"  # where the task ends is the workspace root
    assert moves == ["c:/Work/demo", "c:/Work/demo2"]


def test_api_malformed_message_is_skipped_and_counted(api: Run) -> None:
    assert [(s.line, s.reason) for s in api.source.skipped] == [
        (16, "not a user or assistant message")
    ]


def test_ui_tools_and_their_results(ui: Run) -> None:
    assert _outcomes(ui, "lib/main.dart") == [("read", "success", None), ("edit", "success", None)]
    assert _outcomes(ui, "lib/settings.dart") == [("create", "success", None)]
    assert _outcomes(ui, "pubspec.yaml") == [("edit", "failure", "rejected")]
    # write_to_file on an existing file shows the whole new content, not a diff.
    assert _outcomes(ui, "README.md") == [("write", "success", None)]


def test_ui_command_result_comes_from_the_next_request(ui: Run) -> None:
    (touch,) = ui.touches()["flutter test"]
    assert (touch.status, touch.failure) == ("failure", "exit_status")


def test_ui_feedback_is_told_apart_from_the_task(ui: Run) -> None:
    typed = [(e.channel, e.text) for e in ui.events if isinstance(e, UserMessage)]
    assert typed == [("prompt", "Add a settings screen"), ("feedback", "don't rename the package")]


def test_ui_session_root_and_skipped_record(ui: Run) -> None:
    session = next(e for e in ui.events if isinstance(e, SessionInfo))
    assert session.cwd == "c:/Users/dev/app"
    assert [s.reason for s in ui.source.skipped] == ["tool record whose text is not JSON"]


def test_ui_result_lines_point_at_the_request(ui: Run) -> None:
    read = next(c for c in ui.calls if c.tool == "readFile")
    assert (read.line, ui.results[read.call_id].line) == (4, 7)


def test_not_json_at_all_is_reported(load: Loader, tmp_path: Path) -> None:
    path = tmp_path / "ui_messages.json"
    path.write_text(json.dumps([{"ts": 1, "type": "say", "say": "text", "text": "hi"}]))
    run = load("cline-ui", path)
    assert run.calls == []


def test_corpus_files_parse_and_find_their_edits(load: Loader, corpus_dir: Path) -> None:
    files = sorted((corpus_dir / "cline").glob("*.gz"))
    assert files
    for path in files:
        name = "cline" if "api_conversation_history" in path.name else "cline-ui"
        run = load(name, path)
        assert run.detected == name, path.name
        assert all(c.call_id in run.results for c in run.calls), path.name
        has_edits = any(
            marker in run.source.text
            for marker in (
                "write_to_file",
                "replace_in_file",
                "newFileCreated",
                "editedExistingFile",
            )
        )
        if has_edits and "haram" not in path.name:
            assert run.changed(), path.name


def test_an_empty_ui_message_list_is_an_empty_session() -> None:
    # Regression: ``[]`` used to raise IndexError reading the first message.
    events = list(adapter_named("cline-ui").events(Source("ui_messages.json", "[]")))
    assert [type(e) for e in events] == [SessionInfo]
