"""Cursor, Windsurf, Droid, Continue CLI, Amp and Copilot (VS Code) transcripts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from artifact_index.ingestion.adapters import adapter_named
from artifact_index.ingestion.events import (
    AssistantMessage,
    Event,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
)
from artifact_index.ingestion.source import Source
from artifact_index.presentation.render import files_json
from artifact_index.trail.tracker import Tracker

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


def _events(fmt: str, value: object) -> tuple[list[Event], Source]:
    source = Source("session.json", value if isinstance(value, str) else json.dumps(value))
    return list(adapter_named(fmt).events(source)), source


def test_amp_tolerates_non_list_content_and_a_non_string_model() -> None:
    # Regressions: int content raised TypeError in the result read-ahead; a list
    # model raised a pydantic ValidationError building the AssistantMessage.
    events, _ = _events(
        "amp",
        {
            "id": "T",
            "messages": [
                {"role": "user", "content": 5},
                {
                    "role": "assistant",
                    "usage": {"model": ["m"]},
                    "content": [
                        {"type": "text", "text": "ok"},
                        {
                            "type": "tool_use",
                            "id": "a1",
                            "name": "Read",
                            "input": {"path": "/p/x.py"},
                        },
                    ],
                },
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "toolUseID": "a1",
                            "run": {"status": "done", "result": {"content": "x"}},
                        },
                    ],
                },
            ],
        },
    )
    reply = next(e for e in events if isinstance(e, AssistantMessage))
    assert (reply.text, reply.model) == ("ok", None)
    assert [(e.call_id, e.status) for e in events if isinstance(e, ToolResult)] == [
        ("a1", "success")
    ]


def test_continue_tolerates_tool_fields_of_the_wrong_type() -> None:
    # Regressions: non-list toolCalls / toolCallStates / output raised TypeError
    # (not iterable); a list status raised TypeError (unhashable).
    call = {
        "id": "t1",
        "function": {"name": "Read", "arguments": json.dumps({"filepath": "/p/a.ts"})},
    }
    events, _ = _events(
        "continue-cli",
        {
            "sessionId": "s",
            "workspaceDirectory": "/p",
            "history": [
                {"message": {"role": "user", "content": "hi"}},
                {
                    "message": {"role": "assistant", "content": "", "toolCalls": 7},
                    "toolCallStates": 3,
                },
                {
                    "message": {"role": "assistant", "content": "", "toolCalls": [call]},
                    "toolCallStates": [{"toolCallId": "t1", "status": ["done"], "output": 2.5}],
                },
            ],
        },
    )
    assert [(e.tool, e.operations[0].path) for e in events if isinstance(e, ToolCall)] == [
        ("Read", "/p/a.ts")
    ]
    assert [(e.call_id, e.status) for e in events if isinstance(e, ToolResult)] == [
        ("t1", "unknown")
    ]


def test_copilot_vscode_skips_mutations_that_do_not_fit_the_session() -> None:
    # Regressions: a string index into a list, a missing key, an index out of
    # range and a list/dict as the last key raised TypeError/KeyError/IndexError.
    records = [
        {"kind": 0, "v": {"version": 3, "sessionId": "s", "requests": []}},
        {"kind": 1, "k": ["requests", "0", "result"], "v": 1},
        {"kind": 1, "k": ["requests", 5, "result"], "v": 1},
        {"kind": 1, "k": ["nope", "x"], "v": 1},
        {"kind": 1, "k": [["requests"]], "v": 1},
        {"kind": 2, "k": [{"a": 1}], "v": []},
        {
            "kind": 2,
            "k": ["requests"],
            "v": [{"requestId": "r1", "message": {"text": "hello", "parts": []}, "response": []}],
        },
    ]
    events, source = _events("copilot-vscode", "\n".join(json.dumps(r) for r in records))
    assert [e.text for e in events if isinstance(e, UserMessage)] == ["hello"]
    assert [s.line for s in source.skipped] == [2, 3, 4, 5, 6]


def test_copilot_vscode_tolerates_rounds_calls_and_responses_that_are_not_lists() -> None:
    # Regression: ``toolCallRounds: true`` raised TypeError (not iterable).
    good = {
        "requestId": "r2",
        "message": {"text": "again"},
        "response": 3,
        "result": {"metadata": {"toolCallRounds": [{"response": "ok", "toolCalls": {"a": 1}}]}},
    }
    bad = {
        "requestId": "r1",
        "message": {"text": "hello"},
        "response": [],
        "result": {"metadata": {"toolCallRounds": True}},
    }
    events, _ = _events("copilot-vscode", {"version": 3, "sessionId": "s", "requests": [bad, good]})
    assert [e.text for e in events if isinstance(e, UserMessage)] == ["hello", "again"]
    assert [e.text for e in events if isinstance(e, AssistantMessage)] == ["ok"]


def test_cursor_turn_records_are_read(load: Loader, fixtures_dir: Path) -> None:
    # Newer Cursor versions end each turn with a typed record among the message records.
    run = load("cursor", fixtures_dir / "other_agents" / "cursor-turns.jsonl")
    assert run.detected == "cursor"
    assert run.source.skipped == []
    assert _outcomes(run, f"{R}/deploy/NOTES.md") == [
        ("read", "unknown", None),
        ("edit", "unknown", None),
    ]
    assert _outcomes(run, f"{R}/deploy/PLAN.md") == [("write", "unknown", None)]
    trail = files_json(Tracker(format="cursor").feed_all(run.events))
    assert {f["path"]: f["status"] for f in trail["files"] if f["status"] != "read"} == {
        f"{R}/deploy/NOTES.md": "modified",
        f"{R}/deploy/PLAN.md": "created",
        "/tmp/proxy-forward.log": "created",
    }
    # The person's stop is an interruption; a usage limit is not.
    stops = [e for e in run.events if isinstance(e, UserMessage) and e.synthetic]
    assert [(e.text, e.line) for e in stops] == [("[abort: user_initiated]", 7)]


def test_cursor_dynamic_todo_calls_keep_a_task_list(load: Loader, tmp_path: Path) -> None:
    # Cursor reaches its TodoWrite through CallDynamicTool; a later call with merge: true
    # sends only the changed items (id and status), which update the list rather than replace it.
    def dynamic(arguments: dict[str, object]) -> str:
        call = {"namespace": "cursor", "toolName": "TodoWrite", "arguments": arguments}
        block = {"type": "tool_use", "name": "CallDynamicTool", "input": call}
        return json.dumps({"role": "assistant", "message": {"content": [block]}})

    todos = [
        {"id": "1", "content": "Query the cluster", "status": "in_progress"},
        {"id": "2", "content": "Write the report", "status": "pending"},
    ]
    update = [{"id": "1", "status": "completed"}, {"id": "2", "status": "in_progress"}]
    lookup = {"type": "tool_use", "name": "GetDynamicTools", "input": {"toolName": "TodoWrite"}}
    lines = [
        json.dumps({"role": "user", "message": {"content": [{"type": "text", "text": "go"}]}}),
        json.dumps({"role": "assistant", "message": {"content": [lookup]}}),
        dynamic({"merge": False, "todos": todos}),
        dynamic({"merge": True, "todos": update}),
    ]
    path = tmp_path / "cursor-todos.jsonl"
    path.write_text("\n".join(lines) + "\n")
    run = load("cursor", path)
    assert [c.tool for c in run.calls] == ["GetDynamicTools", "TodoWrite", "TodoWrite"]
    index = Tracker(format="cursor").feed_all(run.events)
    assert [(t.content, t.status) for t in index.tasks()] == [
        ("Query the cluster", "completed"),
        ("Write the report", "in_progress"),
    ]


def test_cursor_patches_given_as_text_are_read(load: Loader, tmp_path: Path) -> None:
    # Cursor's ApplyPatch takes the patch itself as its input: a file its Add File made and
    # later patches changed is one the session created, not one it modified.
    doc = f"{R}/docs/runbook.md"

    def patch(body: str) -> str:
        block = {"type": "tool_use", "name": "ApplyPatch", "input": body}
        return json.dumps({"role": "assistant", "message": {"content": [block]}})

    lines = [
        json.dumps({"role": "user", "message": {"content": [{"type": "text", "text": "go"}]}}),
        patch(f"*** Begin Patch\n*** Add File: {doc}\n+# Runbook\n+run it\n*** End Patch"),
        patch(
            f"*** Begin Patch\n*** Update File: {doc}\n@@\n-run it\n+run it twice\n*** End Patch"
        ),
        # An empty input names no patch: skipped, as a call without input is.
        patch(""),
    ]
    path = tmp_path / "cursor-patches.jsonl"
    path.write_text("\n".join(lines) + "\n")
    run = load("cursor", path)
    assert [c.tool for c in run.calls] == ["ApplyPatch", "ApplyPatch"]
    assert _outcomes(run, doc) == [("create", "unknown", None), ("edit", "unknown", None)]
    trail = files_json(Tracker(format="cursor").feed_all(run.events))
    assert {f["path"]: f["status"] for f in trail["files"]} == {doc: "created"}


def test_a_transcript_without_a_directory_takes_home_from_its_files(
    load: Loader, tmp_path: Path
) -> None:
    # Cursor records no working directory, so `$HOME` and `~` were unknown and a move of the
    # folder the session had written into left its files listed where they no longer are. The
    # session's own paths all lie in one home: `$HOME/proj` is the folder its patch wrote.
    doc = f"{R}/notes/plan.md"

    def call(name: str, arguments: object) -> str:
        block = {"type": "tool_use", "name": name, "input": arguments}
        return json.dumps({"role": "assistant", "message": {"content": [block]}})

    lines = [
        json.dumps({"role": "user", "message": {"content": [{"type": "text", "text": "go"}]}}),
        call("ApplyPatch", f"*** Begin Patch\n*** Add File: {doc}\n+# Plan\n*** End Patch"),
        call("Shell", {"command": 'A="$HOME/archive"; mkdir -p "$A"; mv "$HOME/proj/notes" "$A/"'}),
        call("Shell", {"command": "printf 'x\\n' > ~/archive/notes/RESTORE.md"}),
    ]
    path = tmp_path / "cursor-home.jsonl"
    path.write_text("\n".join(lines) + "\n")
    trail = files_json(Tracker(format="cursor").feed_all(load("cursor", path).events))
    statuses = {f["path"]: f["status"] for f in trail["files"]}
    assert statuses == {
        doc: "reverted",  # made, then moved away: nothing of it is left there
        "/Users/dev/archive/notes/plan.md": "created",
        "/Users/dev/archive/notes/RESTORE.md": "created",
    }
    assert trail["unknown_effects"] == []
