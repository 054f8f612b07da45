"""OpenCode exports: a hand-written session covering every part shape, and the real corpus."""

from __future__ import annotations

import gzip
import json
from functools import partial
from pathlib import Path

import pytest

from artifact_index.ingestion.adapters import detect
from artifact_index.ingestion.adapters.opencode import OpenCodeAdapter
from artifact_index.ingestion.events import (
    AssistantMessage,
    CompactionBoundary,
    Event,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
)
from artifact_index.ingestion.loading import open_transcript
from artifact_index.ingestion.source import Source, read_source

from .helpers import call_with, read_events, result_of

ADAPTER = OpenCodeAdapter()
_events = partial(read_events, ADAPTER)
_call = call_with
_result = result_of
ROOT = "/home/dev/notes"


@pytest.fixture(scope="module")
def session(fixtures_dir: Path) -> tuple[list[Event], Source]:
    return _events(fixtures_dir / "opencode" / "session-export.json")


def test_root_is_the_session_directory(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    info = events[0]
    assert isinstance(info, SessionInfo)
    assert (info.cwd, info.session_id, info.version, info.agent) == (
        ROOT,
        "ses_fixture01",
        "1.2.26",
        "opencode",
    )


def test_user_text_and_attached_file(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    user = next(e for e in events if isinstance(e, UserMessage))
    assert user.text.startswith("Tidy the notes app") and "Called the Read tool" not in user.text
    (read,) = _call(events, "prt_u1c").operations
    assert (read.action, read.path) == ("read", f"{ROOT}/src/app.ts")


def test_a_pasted_image_is_no_file_read(fixtures_dir: Path, tmp_path: Path) -> None:
    # An image pasted from the clipboard comes inline (a data: URL) under the name "clipboard".
    export = json.loads((fixtures_dir / "opencode" / "session-export.json").read_text())
    export["messages"][0]["parts"].append(
        {
            "id": "prt_paste",
            "sessionID": "ses_fixture01",
            "messageID": "msg_u1",
            "type": "file",
            "mime": "image/png",
            "filename": "clipboard",
            "url": "data:image/png;base64,iVBORw0KGgo=",
            "source": {"type": "file", "path": "clipboard", "text": {"value": "[Image 1]"}},
        }
    )
    path = tmp_path / "session.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    events, _ = _events(path)
    reads = [op.path for e in events if isinstance(e, ToolCall) for op in e.operations if op.path]
    assert f"{ROOT}/src/app.ts" in reads
    assert not any(path.endswith("clipboard") for path in reads)


def test_steps_are_turns(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    text = next(e for e in events if isinstance(e, AssistantMessage))
    assert _call(events, "call_read").turn == text.turn
    assert _call(events, "call_patch").turn == text.turn + 1  # second step-start of the message


def test_read_and_shell(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    (read,) = _call(events, "call_read").operations
    assert (read.action, read.path) == ("read", f"{ROOT}/src/title.ts")
    (shell,) = _call(events, "call_ls").operations
    assert (shell.action, shell.command, shell.cwd) == ("shell", "ls src", ROOT)
    assert _result(events, "call_ls").exit_code == 0


def test_apply_patch_create_edit_delete_move_reported(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    ops = _call(events, "call_patch").operations
    assert [(o.action, o.path, o.dest) for o in ops] == [
        ("create", "README.md", None),
        ("edit", "src/title.ts", None),
        ("delete", "src/old.ts", None),
        ("move", "src/util.ts", "src/lib/util.ts"),
        ("edit", "src/lib/util.ts", None),
    ]
    reported = _result(events, "call_patch").reported
    assert reported is not None
    assert [(r.path, r.change, r.move_to) for r in reported] == [
        (f"{ROOT}/README.md", "created", None),
        (f"{ROOT}/src/title.ts", "modified", None),
        (f"{ROOT}/src/old.ts", "deleted", None),
        (f"{ROOT}/src/util.ts", "modified", f"{ROOT}/src/lib/util.ts"),
    ]


def test_snapshot_patch_part_reports_what_tools_did_not(
    session: tuple[list[Event], Source],
) -> None:
    events, _ = session
    snapshot = _call(events, "prt_snap")
    assert (snapshot.tool, snapshot.operations) == ("snapshot", ())
    result = _result(events, "prt_snap")
    assert result.status == "success" and result.reported is not None
    # Only app.ts (changed by the formatter) is new; the patch's own files keep their precise changes.
    assert [(r.path, r.change) for r in result.reported] == [(f"{ROOT}/src/app.ts", "modified")]


def test_successful_edit_and_write_are_reported(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    edit = _result(events, "call_edit")
    assert edit.reported is not None and [(r.path, r.change) for r in edit.reported] == [
        (f"{ROOT}/src/app.ts", "modified")
    ]
    write = _result(events, "call_write")
    assert write.reported is not None and [(r.path, r.change) for r in write.reported] == [
        (f"{ROOT}/CHANGELOG.md", "created")
    ]


@pytest.mark.parametrize(
    ("call_id", "failure"),
    [
        ("call_notfound", "not_found"),
        ("call_multi", "not_unique"),
        ("call_unread", "not_read"),
        ("call_stale", "stale"),
        ("call_rejected", "rejected"),
        ("call_badpatch", "verification"),
        ("call_aborted", "interrupted"),
    ],
)
def test_failed_edit_shapes(
    session: tuple[list[Event], Source], call_id: str, failure: str
) -> None:
    events, _ = session
    result = _result(events, call_id)
    assert (result.status, result.failure, result.reported) == ("failure", failure, None)
    assert result.output.startswith(("Error:", "Tool execution aborted"))


def test_nonzero_exit_and_unfinished_call(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    lint = _result(events, "prt_lint-2")  # callID redacted: the id stays unique
    assert (lint.status, lint.exit_code, lint.failure) == ("failure", 1, "exit_status")
    assert _result(events, "call_pending").status == "unknown"


def test_tools_that_touch_no_file(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    assert _call(events, "call_todo").operations == ()


def test_a_sub_agent_is_an_unknown_effect(session: tuple[list[Event], Source]) -> None:
    # Its calls are in its own session: what it changed cannot be named here.
    events, _ = session
    (op,) = _call(events, "call_task").operations
    assert (op.action, op.path, op.source) == ("unknown", None, "tool")


def test_snapshot_changes_are_seen_during_the_steps_calls(fixtures_dir: Path) -> None:
    events, _ = _events(fixtures_dir / "opencode" / "shared-checkout.json")
    result = _result(events, "prt_004")  # the patch part after the README edit
    assert result.reported is not None
    # README.md is apply_patch's own change; TODO.md is only seen while that call ran.
    assert [(r.path, r.change, r.seen_during) for r in result.reported] == [
        ("/Users/dev/shop/TODO.md", "modified", ("call_readme",))
    ]


def test_snapshot_changes_take_the_replys_net_change(fixtures_dir: Path) -> None:
    events, _ = _events(fixtures_dir / "opencode" / "shared-checkout.json")
    seen = {
        (r.path.removeprefix("/Users/dev/shop/"), r.change)
        for e in events
        if isinstance(e, ToolResult) and e.reported
        for r in e.reported
        if r.seen_during is not None
    }
    # The user message's summary.diffs: index.md was added, draft.md came and went
    # (no change at all), old.bin was deleted; the second reply has no diffs.
    assert ("docs/out/index.md", "created") in seen
    assert not any(path == "docs/out/draft.md" for path, _ in seen)
    assert ("build-cache/old.bin", "deleted") in seen
    assert ("src/cart.ts", "modified") in seen


def test_compaction_carries_the_summary(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    (boundary,) = [e for e in events if isinstance(e, CompactionBoundary)]
    assert boundary.trigger == "auto"
    assert boundary.summary is not None and "Renamed util.ts" in boundary.summary


def test_malformed_message_is_skipped_and_counted(session: tuple[list[Event], Source]) -> None:
    _, source = session
    assert [s.line for s in source.skipped] == [4]


def test_every_call_gets_one_result(session: tuple[list[Event], Source]) -> None:
    events, _ = session
    calls = [e.call_id for e in events if isinstance(e, ToolCall)]
    assert len(calls) == len(set(calls))
    assert sorted(calls) == sorted(e.call_id for e in events if isinstance(e, ToolResult))


def test_other_documents_are_not_claimed() -> None:
    assert not ADAPTER.sniff(
        Source("x.json", json.dumps({"messages": [{"role": "user", "content": "hi"}]}))
    )
    assert not ADAPTER.sniff(Source("x.jsonl", '{"type":"user"}\n'))


def test_real_exports_parse(corpus_dir: Path) -> None:
    files = sorted((corpus_dir / "opencode").glob("*.gz"))
    assert files
    for path in files:
        events, source = _events(path)
        document = json.loads(gzip.decompress(path.read_bytes()))
        assert isinstance(events[0], SessionInfo) and events[0].cwd == document["info"]["directory"]
        calls = [e.call_id for e in events if isinstance(e, ToolCall)]
        assert len(calls) == len(set(calls)), path.name
        assert source.skipped == [], path.name


def test_detected_by_the_registry(fixtures_dir: Path) -> None:
    assert detect(read_source(fixtures_dir / "opencode" / "session-export.json")).name == "opencode"


def test_a_slash_command_run_as_a_subtask_is_a_user_command(corpus_dir: Path) -> None:
    path = corpus_dir / "opencode" / "entire_nimbus__07fe4e0ea90c_1.json.gz"
    if not path.exists():
        pytest.skip(f"{path.name} is not in this corpus")
    events = list(open_transcript(path).events())
    commands = [e.text for e in events if isinstance(e, UserMessage) and e.channel == "command"]
    assert commands and set(commands) == {"/review"}


def test_a_snapshot_of_thousands_of_files_is_read_in_one_pass(
    fixtures_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A step that ran an install: its patch part lists every file under node_modules.
    export = json.loads((fixtures_dir / "opencode" / "shared-checkout.json").read_text())
    installed = [f"/Users/dev/shop/node_modules/pkg{i}/index.js" for i in range(1500)]
    patch = next(
        part
        for message in export["messages"]
        for part in message["parts"]
        if part["type"] == "patch"
    )
    patch["files"] = [*installed, *patch["files"]]
    path = tmp_path / "install.json"
    path.write_text(json.dumps(export))
    from artifact_index.ingestion.adapters import opencode

    calls = 0
    relative = opencode._Reader.relative

    def counted(self: object, name: str) -> str:
        nonlocal calls
        calls += 1
        return relative(self, name)  # type: ignore[arg-type]

    monkeypatch.setattr(opencode._Reader, "relative", counted)
    events, _ = _events(path)
    seen = {r.path for e in events if isinstance(e, ToolResult) and e.reported for r in e.reported}
    assert not seen & set(installed)  # not in the reply's net diffs: they came back as they were
    assert calls < 3 * len(installed)  # each file looked up a bounded number of times


@pytest.mark.parametrize("workdir", ["C:\\Users\\dev\\shop", "D:/work/shop"])
def test_a_windows_workdir_is_absolute(fixtures_dir: Path, tmp_path: Path, workdir: str) -> None:
    # OpenCode on Windows records a shell call's directory with its drive:
    # joined under the session's directory it would name the workspace twice.
    export = json.loads((fixtures_dir / "opencode" / "session-export.json").read_text())
    ls = next(
        part
        for message in export["messages"]
        for part in message["parts"]
        if part.get("callID") == "call_ls"
    )
    ls["state"]["input"]["workdir"] = workdir
    path = tmp_path / "windows.json"
    path.write_text(json.dumps(export))
    events, _ = _events(path)
    (shell,) = _call(events, "call_ls").operations
    assert shell.cwd == workdir
