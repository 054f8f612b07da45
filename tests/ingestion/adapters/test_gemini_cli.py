"""Gemini CLI chat recordings, JSON and JSONL: hand-written sessions and the real corpus."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest

from artifact_index.ingestion.adapters import detect
from artifact_index.ingestion.adapters.gemini_cli import GeminiCliAdapter
from artifact_index.ingestion.adapters.gemini_tools import tool_operations
from artifact_index.ingestion.events import (
    AssistantMessage,
    CompactionBoundary,
    Event,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
)
from artifact_index.ingestion.source import Source, read_source
from artifact_index.trail.build import build_index

from .helpers import call_with, read_events, result_of

ADAPTER = GeminiCliAdapter()
_events = partial(read_events, ADAPTER)
_call = call_with
_result = result_of


@pytest.fixture(scope="module")
def chat(fixtures_dir: Path) -> tuple[list[Event], Source]:
    return _events(fixtures_dir / "gemini_cli" / "session-2026-01-20.json")


@pytest.fixture(scope="module")
def jsonl(fixtures_dir: Path) -> tuple[list[Event], Source]:
    return _events(fixtures_dir / "gemini_cli" / "session-2026-03-01.jsonl")


def test_workspace_root_recovered_from_a_tool_answer(chat: tuple[list[Event], Source]) -> None:
    events, _ = chat
    info = events[0]
    assert isinstance(info, SessionInfo)
    assert (info.session_id, info.cwd, info.agent) == (
        "gem-json-1",
        "/Users/dev/site",
        "gemini-cli",
    )


def test_messages_skip_ui_notices_and_flag_injected_text(chat: tuple[list[Event], Source]) -> None:
    events, _ = chat
    users = [(e.text, e.synthetic) for e in events if isinstance(e, UserMessage)]
    assert users == [
        ("Add an about page and fix the footer year.", False),
        ("System: Please continue.", True),
    ]
    texts = [e.text for e in events if isinstance(e, AssistantMessage)]
    assert "Request cancelled." not in texts


def test_read(chat: tuple[list[Event], Source]) -> None:
    events, _ = chat
    (op,) = _call(events, "read_file-1").operations
    assert (op.action, op.path) == ("read", "src/footer.html")
    assert _result(events, "read_file-1").output == "<footer>2024</footer>"


def test_create_and_edit_are_reported_from_the_answer(chat: tuple[list[Event], Source]) -> None:
    events, _ = chat
    (write,) = _call(events, "write_file-1").operations
    assert (write.action, write.path, write.content) == (
        "write",
        "src/about.html",
        "<h1>About</h1>\n",
    )
    reported = _result(events, "write_file-1").reported
    assert reported is not None and [(r.path, r.change) for r in reported] == [
        ("src/about.html", "created")
    ]
    (edit,) = _call(events, "replace-1").operations
    assert (edit.action, edit.old, edit.new) == ("edit", "2024", "2026")
    reported = _result(events, "replace-1").reported
    assert reported is not None and [r.change for r in reported] == ["modified"]


def test_expected_replacements_means_every_occurrence(chat: tuple[list[Event], Source]) -> None:
    events, _ = chat
    (edit,) = _call(events, "replace-4").operations
    assert edit.replace_all


@pytest.mark.parametrize(
    ("call_id", "failure"),
    [
        ("replace-2", "not_found"),
        ("replace-3", "not_unique"),
        ("write_file-2", "rejected"),
        ("read_file-2", "not_found"),
    ],
)
def test_failed_shapes(chat: tuple[list[Event], Source], call_id: str, failure: str) -> None:
    events, _ = chat
    result = _result(events, call_id)
    assert (result.status, result.failure, result.reported) == ("failure", failure, None)
    assert result.output


def test_shell_exit_code_and_directory(chat: tuple[list[Event], Source]) -> None:
    events, _ = chat
    (tidy,) = _call(events, "run_shell_command-1").operations
    assert (tidy.action, tidy.command, tidy.cwd) == (
        "shell",
        "rm src/old.html && mv src/contact.htm src/contact.html",
        "/Users/dev/site",
    )
    assert _result(events, "run_shell_command-1").exit_code == 0
    (test,) = _call(events, "run_shell_command-2").operations
    assert test.cwd == "/Users/dev/site/web"
    failed = _result(events, "run_shell_command-2")
    assert (failed.status, failed.exit_code, failed.failure) == ("failure", 1, "exit_status")


def test_jsonl_rewritten_messages_give_one_call_and_one_result(
    jsonl: tuple[list[Event], Source],
) -> None:
    events, _ = jsonl
    assert isinstance(events[0], SessionInfo) and events[0].cwd == "/srv/blog"
    assert [e.call_id for e in events if isinstance(e, ToolCall)].count("read_file-a") == 1
    result = _result(events, "read_file-a")
    assert (result.status, result.output) == ("success", "# Post")
    assert _call(events, "read_file-a").turn == result.turn


def test_jsonl_history_rewrite_is_a_compaction(jsonl: tuple[list[Event], Source]) -> None:
    events, _ = jsonl
    (boundary,) = [e for e in events if isinstance(e, CompactionBoundary)]
    assert boundary.summary is not None and "Renamed drafts/post.md" in boundary.summary
    # The summary is not replayed as a user message.
    assert all("state_snapshot" not in e.text for e in events if isinstance(e, UserMessage))
    later = next(
        e for e in events if isinstance(e, UserMessage) and e.text == "Also add a tags file."
    )
    assert later.turn > boundary.turn


def test_jsonl_call_without_result_is_unknown(jsonl: tuple[list[Event], Source]) -> None:
    events, _ = jsonl
    assert _result(events, "write_file-a").status == "unknown"


def test_jsonl_malformed_line_is_skipped_and_counted(jsonl: tuple[list[Event], Source]) -> None:
    _, source = jsonl
    assert [s.line for s in source.skipped] == [6]


def test_other_formats_are_not_claimed() -> None:
    assert not ADAPTER.sniff(Source("x.json", '{"messages": [{"role": "user", "content": "hi"}]}'))
    assert not ADAPTER.sniff(
        Source("x.jsonl", '{"type":"user","message":{"content":"hi"},"uuid":"1"}\n')
    )


def test_real_recordings_parse(corpus_dir: Path) -> None:
    files = sorted((corpus_dir / "gemini_cli").glob("*.gz"))
    assert files
    for path in files:
        events, source = _events(path)
        assert isinstance(events[0], SessionInfo)
        calls = [e.call_id for e in events if isinstance(e, ToolCall)]
        assert sorted(calls) == sorted(e.call_id for e in events if isinstance(e, ToolResult)), (
            path.name
        )
        assert source.skipped == [], path.name


def test_detected_by_the_registry(fixtures_dir: Path) -> None:
    assert (
        detect(read_source(fixtures_dir / "gemini_cli" / "session-2026-03-01.jsonl")).name
        == "gemini-cli"
    )


# -- a session saved as its Gemini API history (/chat save, checkpoints) --------

API_HISTORY = "checkpoint-release.json"


@pytest.fixture(scope="module")
def api_history(fixtures_dir: Path) -> tuple[list[Event], Source]:
    return _events(fixtures_dir / "gemini_cli" / API_HISTORY)


def test_an_api_history_is_detected_as_gemini_cli(fixtures_dir: Path) -> None:
    assert detect(read_source(fixtures_dir / "gemini_cli" / API_HISTORY)).name == "gemini-cli"


def test_the_workspace_comes_from_the_context_setup_which_nobody_typed(
    api_history: tuple[list[Event], Source],
) -> None:
    events, source = api_history
    info = events[0]
    assert isinstance(info, SessionInfo) and info.cwd == "/home/maint/widgetlib"
    users = [(e.text.split("\n")[0], e.synthetic) for e in events if isinstance(e, UserMessage)]
    assert users == [
        ("This is the Gemini CLI. We are setting up the context for our chat.", True),
        (
            "Release 2.4.0: bump the version everywhere, add a changelog entry, and run the tests.",
            False,
        ),
        ("Skip the docs page. The version test still pins 2.3.1.", False),
    ]
    assert source.skipped == []


def test_function_calls_pair_with_their_responses_by_id_or_else_by_name(
    api_history: tuple[list[Event], Source],
) -> None:
    events, _ = api_history
    calls = [e for e in events if isinstance(e, ToolCall)]
    results = {e.call_id: e for e in events if isinstance(e, ToolResult)}
    assert [(c.tool, results[c.call_id].status, results[c.call_id].failure) for c in calls] == [
        ("read_file", "success", None),
        ("replace", "success", None),
        ("write_file", "success", None),
        ("run_shell_command", "success", None),
        ("write_file", "failure", "rejected"),
        ("replace", "success", None),
    ]
    shell = results["run_shell_command-1778000000004-77aa11"]
    assert shell.exit_code == 0 and "42 passed" in shell.output


def test_every_changed_file_of_the_saved_session_is_in_the_trail(fixtures_dir: Path) -> None:
    index, _ = build_index(fixtures_dir / "gemini_cli" / API_HISTORY)
    assert {(f.path, f.status) for f in index.files() if f.status} == {
        ("src/widgetlib/__init__.py", "modified"),
        ("CHANGES/2.4.0.md", "created"),
        ("pyproject.toml", "modified"),
        ("tests/test_version.py", "modified"),
    }
    assert [f.path for f in index.files() if f.status is None] == ["docs/release.md"]


def test_the_checkpoint_wrappers_hold_the_same_history(fixtures_dir: Path, tmp_path: Path) -> None:
    contents = json.loads((fixtures_dir / "gemini_cli" / API_HISTORY).read_text())
    for wrapper in (
        {"history": contents, "authType": "oauth-personal"},
        {
            "history": [],
            "clientHistory": contents,
            "commitHash": "9f1c2e7",
            "toolCall": {"name": "replace"},
        },
    ):
        saved = tmp_path / "checkpoint.json"
        saved.write_text(json.dumps(wrapper))
        index, loaded = build_index(saved)
        assert loaded.adapter.name == "gemini-cli"
        assert len(index.changed_files()) == 4


def test_a_call_with_no_response_and_a_response_with_no_call() -> None:
    contents = [
        {"role": "user", "parts": [{"text": "Write the notes."}]},
        {
            "role": "model",
            "parts": [
                {
                    "functionCall": {
                        "name": "write_file",
                        "args": {"file_path": "/w/notes.md", "content": "x"},
                    }
                }
            ],
        },
        {"role": "model", "parts": [{"text": "Interrupted."}]},
        {
            "role": "user",
            "parts": [{"functionResponse": {"name": "replace", "response": {"output": "ok"}}}],
        },
        {"role": "tool", "content": "not a Content entry"},
    ]
    source = Source("history.json", json.dumps(contents))
    events = list(ADAPTER.events(source))
    (result,) = [e for e in events if isinstance(e, ToolResult)]
    assert result.status == "unknown"
    assert [s.line for s in source.skipped] == [4, 5]


def test_a_windows_directory_of_a_shell_call_is_absolute() -> None:
    root = "C:\\Users\\dev\\shop"
    (shell,) = tool_operations("run_shell_command", {"command": "dir", "dir_path": root}, root)
    assert shell.cwd == root
    (nested,) = tool_operations("run_shell_command", {"command": "dir", "dir_path": "web"}, root)
    assert nested.cwd == "C:\\Users\\dev\\shop/web"


def test_the_workspace_the_context_setup_lists_is_the_root(tmp_path: Path) -> None:
    """A lint finding spelled by the workspace's absolute path is on the file the session edited there."""
    root = "C:\\Users\\dev\\bookmarks"
    setup = (
        "<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\n"
        f"My operating system is: win32\n- **Workspace Directories:**\n  - {root}\n"
        f"- **Directory Structure:**\n\n{root}\\\n└───client\\\n</session_context>"
    )
    lint = (
        f"Output: \n{root}\\client\\signin-form.tsx\n"
        "  12:20  error  `'` can be escaped with `&apos;`  react/no-unescaped-entities\n\n"
        "✖ 1 problem (1 error, 0 warnings)\nExit Code: 1"
    )
    records: list[dict[str, object]] = [
        {"sessionId": "g", "projectHash": "h", "startTime": "t", "kind": "main"},
        {"$set": {"messages": [{"id": "c0", "type": "user", "content": [{"text": setup}]}]}},
        {"id": "u1", "type": "user", "content": [{"text": "Reword the sign-in form."}]},
        {
            "id": "g1",
            "type": "gemini",
            "content": "",
            "toolCalls": [
                {
                    "id": "replace-1",
                    "name": "replace",
                    "args": {
                        "file_path": "client/signin-form.tsx",
                        "old_string": "Sign in",
                        "new_string": "We're glad you're back",
                    },
                    "status": "success",
                    "result": [{"functionResponse": {"response": {"output": "Modified."}}}],
                }
            ],
        },
        {
            "id": "g2",
            "type": "gemini",
            "content": "",
            "toolCalls": [
                {
                    "id": "shell-1",
                    "name": "run_shell_command",
                    "args": {"command": "npx eslint client"},
                    "status": "success",
                    "result": [{"functionResponse": {"response": {"output": lint}}}],
                }
            ],
        },
    ]
    path = tmp_path / "session.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    events, _ = _events(path)
    info = events[0]
    assert isinstance(info, SessionInfo) and info.cwd == root
    index, _ = build_index(path)
    (finding,) = [e for e in index.ledger.errors if e.file]
    assert finding.pre_existing is None  # the session edited that file before the lint reported it


def test_a_shell_call_the_harness_has_no_tool_for_changes_nothing(tmp_path: Path) -> None:
    """`Tool "run_shell_command" not found`: the `sed -i` the call asked for never ran; the later
    successful `replace` is the change to the file."""

    def call(call_id: str, name: str, args: dict[str, str], status: str, answer: str) -> object:
        key = "output" if status == "success" else "error"
        return {
            "id": call_id,
            "name": name,
            "args": args,
            "status": status,
            "result": [
                {"functionResponse": {"id": call_id, "name": name, "response": {key: answer}}}
            ],
        }

    refused = call(
        "run_shell_command-1",
        "run_shell_command",
        {"command": "sed -i 's/connect();/connect().catch(log);/' src/main.ts"},
        "error",
        'Tool "run_shell_command" not found. Did you mean one of: "grep_search", "read_file"?',
    )
    read = call("read_file-1", "read_file", {"file_path": "src/main.ts"}, "success", "connect();")
    replaced = call(
        "replace-1",
        "replace",
        {
            "file_path": "src/main.ts",
            "old_string": "connect();",
            "new_string": "connect().catch(log);",
        },
        "success",
        "Successfully modified file: src/main.ts (1 replacements).",
    )
    session = {
        "sessionId": "g",
        "projectHash": "h",
        "startTime": "2026-02-26T20:58:55.815Z",
        "messages": [
            {"id": "u1", "type": "user", "content": [{"text": "Make the redis connection safe."}]},
            {"id": "g0", "type": "gemini", "content": "", "toolCalls": [read]},
            {"id": "g1", "type": "gemini", "content": "", "toolCalls": [refused]},
            {"id": "g2", "type": "gemini", "content": "", "toolCalls": [replaced]},
        ],
    }
    saved = tmp_path / "session.json"
    saved.write_text(json.dumps(session))
    index, _ = build_index(saved)
    (changed,) = index.changed_files()
    assert [(op.tool, op.result) for op in changed.ops if op.action != "read"] == [
        ("run_shell_command", "failure"),
        ("replace", "success"),
    ]
