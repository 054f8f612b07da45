"""Claude Code session JSONL: hand-written fixtures for every shape, and the real corpus."""

from __future__ import annotations

import gzip
import json
from functools import cache, partial
from pathlib import Path

import pytest

from artifact_index.ingestion.adapters import detect
from artifact_index.ingestion.adapters.claude_code import ClaudeCodeAdapter
from artifact_index.ingestion.events import (
    AssistantMessage,
    CompactionBoundary,
    Event,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
    WorkingDirectory,
)
from artifact_index.ingestion.source import Source, read_source
from artifact_index.trail.build import build_index

from .helpers import call_with, read_events, result_of

ADAPTER = ClaudeCodeAdapter()
_events = partial(read_events, ADAPTER)
_call = call_with
_result = result_of
ROOT = "/home/dev/shop"


@pytest.fixture(scope="module")
def edits(fixtures_dir: Path) -> tuple[list[Event], Source]:
    return _events(fixtures_dir / "claude_code" / "edits.jsonl")


@pytest.fixture(scope="module")
def subagents(fixtures_dir: Path) -> list[Event]:
    return _events(fixtures_dir / "claude_code" / "subagents.jsonl")[0]


@pytest.fixture(scope="module")
def compaction(fixtures_dir: Path) -> tuple[list[Event], Source]:
    return _events(fixtures_dir / "claude_code" / "compaction.jsonl")


def test_detected_as_claude_code(fixtures_dir: Path) -> None:
    for name in ("edits", "subagents", "compaction"):
        assert (
            detect(read_source(fixtures_dir / "claude_code" / f"{name}.jsonl")).name
            == "claude-code"
        )


def test_session_info_comes_first_with_cwd_model_and_version(
    edits: tuple[list[Event], Source],
) -> None:
    info = edits[0][0]
    assert isinstance(info, SessionInfo)
    assert (info.cwd, info.agent, info.version, info.model, info.session_id) == (
        ROOT,
        "claude-code",
        "2.1.39",
        "claude-opus-4-6",
        "9d0c4a52-7e1b-4f38-a6c2-3b5e8d1f0a47",
    )


def test_read_is_a_read_operation_that_succeeded(edits: tuple[list[Event], Source]) -> None:
    events, _ = edits
    call = _call(events, "toolu_read1")
    assert [(op.action, op.path) for op in call.operations] == [("read", f"{ROOT}/src/price.py")]
    assert _result(events, "toolu_read1").status == "success"


def test_write_that_creates_reports_a_created_file_with_its_content(
    edits: tuple[list[Event], Source],
) -> None:
    events, _ = edits
    assert [op.action for op in _call(events, "toolu_write1").operations] == ["write"]
    result = _result(events, "toolu_write1")
    assert result.status == "success"
    assert result.reported is not None
    (change,) = result.reported
    assert (change.path, change.change) == (f"{ROOT}/src/discount.py", "created")
    assert change.content == "def apply(cost, discount):\n    return cost * (1 - discount)\n"


def test_write_over_an_existing_file_reports_modified(edits: tuple[list[Event], Source]) -> None:
    reported = _result(edits[0], "toolu_write2").reported
    assert reported is not None and [r.change for r in reported] == ["modified"]


def test_successful_edit_reports_the_patch_and_the_new_content(
    edits: tuple[list[Event], Source],
) -> None:
    events, _ = edits
    call = _call(events, "toolu_edit1")
    (op,) = call.operations
    assert (op.action, op.old, op.new) == (
        "edit",
        "    return item.cost\n",
        "    return item.cost * (1 - item.discount)\n",
    )
    result = _result(events, "toolu_edit1")
    assert result.status == "success" and result.reported is not None
    (change,) = result.reported
    assert change.change == "modified"
    assert change.diff is not None and "+    return item.cost * (1 - item.discount)" in change.diff
    assert change.content == (
        "def price(item):\n    return item.cost * (1 - item.discount)\n\n\n"
        "def total(items):\n    return sum(price(i) for i in items)\n"
    )


@pytest.mark.parametrize(
    ("call_id", "reason"),
    [
        ("toolu_edit2", "not_read"),  # File has not been read yet
        ("toolu_edit3", "not_unique"),  # Found 2 matches of the string to replace
        ("toolu_edit4", "stale"),  # File has been modified since read
        ("toolu_edit5", "rejected"),  # the user said no; no <tool_use_error> wrapper
        ("toolu_write3", "hook_blocked"),  # PreToolUse:Write hook error
        ("toolu_write4", "permission"),  # Claude requested permissions to write
        ("toolu_read2", "interrupted"),  # Sibling tool call errored
        ("toolu_multi2", "not_read"),
        ("toolu_edit6", "not_found"),  # String to replace not found in file
    ],
)
def test_every_failed_call_shape_is_a_classified_failure(
    edits: tuple[list[Event], Source], call_id: str, reason: str
) -> None:
    result = _result(edits[0], call_id)
    assert (result.status, result.failure, result.reported) == ("failure", reason, None)


def test_bash_failure_carries_its_exit_code_and_success_exit_zero(
    edits: tuple[list[Event], Source],
) -> None:
    events, _ = edits
    failed = _result(events, "toolu_bash1")
    assert (failed.status, failed.failure, failed.exit_code) == ("failure", "exit_status", 1)
    ok = _result(events, "toolu_bash2")
    assert (ok.status, ok.exit_code) == ("success", 0)


def test_bash_is_a_shell_operation_run_in_the_session_cwd(
    edits: tuple[list[Event], Source],
) -> None:
    (op,) = _call(edits[0], "toolu_bash2").operations
    assert (op.action, op.command, op.cwd, op.source) == (
        "shell",
        "git mv src/price.py src/pricing.py",
        ROOT,
        "shell",
    )


def test_parallel_calls_of_one_response_share_a_turn(edits: tuple[list[Event], Source]) -> None:
    events, _ = edits
    assert _call(events, "toolu_bash1").turn == _call(events, "toolu_read2").turn
    assert _result(events, "toolu_read2").turn == _call(events, "toolu_read2").turn


def test_multiedit_yields_one_edit_per_replacement_and_the_final_content(
    edits: tuple[list[Event], Source],
) -> None:
    events, _ = edits
    ops = _call(events, "toolu_multi1").operations
    assert [(op.action, op.old) for op in ops] == [
        ("edit", "def price(item)"),
        ("edit", "sum(price(i)"),
    ]
    reported = _result(events, "toolu_multi1").reported
    assert reported is not None
    assert reported[0].content is not None and "def unit_price(item)" in reported[0].content
    assert "sum(unit_price(i) for i in items)" in reported[0].content


def test_a_new_cwd_is_announced_before_the_record_and_used_for_shell(
    edits: tuple[list[Event], Source],
) -> None:
    events, _ = edits
    moves = [e for e in events if isinstance(e, WorkingDirectory)]
    assert [m.cwd for m in moves] == [f"{ROOT}/web"]
    (op,) = _call(events, "toolu_bash3").operations
    assert op.cwd == f"{ROOT}/web"
    assert events.index(moves[0]) < events.index(_call(events, "toolu_bash3"))


def test_malformed_line_is_skipped_and_counted_the_rest_is_read(
    edits: tuple[list[Event], Source],
) -> None:
    events, source = edits
    assert [(s.line, s.reason.startswith("not valid JSON")) for s in source.skipped] == [(30, True)]
    assert _result(events, "toolu_edit6").failure == "not_found"  # after the bad line


def test_two_records_that_lost_their_newline_are_both_read(
    edits: tuple[list[Event], Source],
) -> None:
    events, source = edits
    last = events[-1]
    assert isinstance(last, AssistantMessage) and last.text == "All web tests pass."
    assert last.line == 38 and all(s.line != 38 for s in source.skipped)


def test_every_call_gets_exactly_one_result(edits: tuple[list[Event], Source]) -> None:
    events, _ = edits
    calls = [e.call_id for e in events if isinstance(e, ToolCall)]
    results = [e.call_id for e in events if isinstance(e, ToolResult)]
    assert sorted(calls) == sorted(results) and len(set(calls)) == len(calls)


def test_turns_count_user_messages_and_responses_not_tool_results(
    edits: tuple[list[Event], Source],
) -> None:
    events, _ = edits
    assert [e.turn for e in events if isinstance(e, UserMessage)] == [1, 17]
    turns = [e.turn for e in events if isinstance(e, ToolCall)]
    assert turns == sorted(turns) and turns[0] == 2 and _call(events, "toolu_edit6").turn == 16


# -- sub-agents ----------------------------------------------------------------


def test_progress_records_carry_sub_agent_calls_as_sidechain_events(subagents: list[Event]) -> None:
    read = _call(subagents, "toolu_sub_read")
    assert read.sidechain == "a4f2c91"
    assert _result(subagents, "toolu_sub_read").sidechain == "a4f2c91"
    prompt = next(e for e in subagents if isinstance(e, UserMessage) and e.sidechain == "a4f2c91")
    assert prompt.synthetic  # written by the parent agent, not typed


def test_sub_agent_write_without_tool_use_result_is_reported_from_its_text(
    subagents: list[Event],
) -> None:
    result = _result(subagents, "toolu_sub_write")
    assert result.status == "success" and result.reported is not None
    (change,) = result.reported
    assert (change.path, change.change, change.content) == (
        "/home/dev/blog/docs/theme-plan.md",
        "created",
        "# Theme plan\n\n1. base.html\n",
    )


def test_sub_agent_failed_edit_is_a_failure(subagents: list[Event]) -> None:
    assert _result(subagents, "toolu_sub_edit").failure == "not_read"


def test_blocks_of_one_sub_agent_response_share_a_turn(subagents: list[Event]) -> None:
    text = next(
        e for e in subagents if isinstance(e, AssistantMessage) and e.text == "Writing the plan."
    )
    assert text.turn == _call(subagents, "toolu_sub_write").turn


def test_old_style_sidechain_records_are_marked_and_their_write_counts(
    subagents: list[Event],
) -> None:
    call = _call(subagents, "toolu_side_write")
    assert call.sidechain == "sidechain"
    reported = _result(subagents, "toolu_side_write").reported
    assert reported is not None and reported[0].change == "created"


def test_main_chain_events_have_no_sidechain(subagents: list[Event]) -> None:
    task = _call(subagents, "toolu_task1")
    assert task.sidechain is None and _result(subagents, "toolu_task1").status == "success"
    assert task.operations == ()


# -- compaction, synthetic messages, attachments ---------------------------------


def test_compact_boundary_keeps_trigger_tokens_and_summary(
    compaction: tuple[list[Event], Source],
) -> None:
    events, _ = compaction
    (boundary,) = [e for e in events if isinstance(e, CompactionBoundary)]
    assert (boundary.trigger, boundary.pre_tokens) == ("auto", 155312)
    assert (
        boundary.summary is not None
        and "api/items.py (list_items now takes page)" in boundary.summary
    )
    # The summary is not repeated as a user message.
    assert not any(isinstance(e, UserMessage) and "Primary Request" in e.text for e in events)


def test_only_typed_text_is_a_real_user_message(compaction: tuple[list[Event], Source]) -> None:
    events, _ = compaction
    real = [(e.channel, e.text) for e in events if isinstance(e, UserMessage) and not e.synthetic]
    assert real == [
        ("prompt", "Add pagination to the /items endpoint."),
        ("command", "/model"),
        ("prompt", "Now document the page parameter in @README.md"),
        ("queued", "and add a test"),  # still waiting in the queue when the transcript ends
    ]
    synthetic = [
        e.text.split(">", 1)[0] for e in events if isinstance(e, UserMessage) and e.synthetic
    ]
    assert synthetic == [
        "<local-command-caveat",
        "<local-command-stdout",
        "[Request interrupted by user]",
    ]


def test_every_way_the_person_speaks_is_a_user_message_in_order(fixtures_dir: Path) -> None:
    events, _ = _events(fixtures_dir / "claude_code" / "user_channels.jsonl")
    typed = [(e.channel, e.text) for e in events if isinstance(e, UserMessage) and not e.synthetic]
    assert typed == [
        ("command", "/review cart totals rounding"),
        # Typed while `go test` ran, beside its result; then the queued message handed over mid-turn.
        ("interjection", "the rounding bug only shows with three items"),
        ("queued", "only the cart package, not the whole repo"),
        # Typed when refusing the commit.
        ("feedback", "don't commit yet, I want to read the diff first"),
        # Dequeued as the next prompt: one message, not two; the one taken back to edit was never sent.
        ("prompt", "also check the tax lines"),
        # Handed over mid-turn while a background task's notice waited in the queue ahead of it.
        ("queued", "keep the old rounding for refunds"),
        ("prompt", "Show me the diff of cart.go"),
        ("queued", "and then stop"),
    ]
    # The harness's own queue entries (a background task finishing) are not the person's words.
    notification = [
        e for e in events if isinstance(e, UserMessage) and "task-notification" in e.text
    ]
    assert [e.synthetic for e in notification] == [True]


def test_attached_file_is_a_read(compaction: tuple[list[Event], Source]) -> None:
    events, _ = compaction
    (call,) = [e for e in events if isinstance(e, ToolCall) and e.tool == "Attachment"]
    assert [(op.action, op.path) for op in call.operations] == [("read", "/srv/api/README.md")]
    assert _result(events, call.call_id).status == "success"


def test_bookkeeping_records_are_ignored_and_unknown_ones_skipped(
    compaction: tuple[list[Event], Source],
) -> None:
    _, source = compaction
    assert [(s.line, s.reason) for s in source.skipped] == [
        (14, "unknown record type 'mystery-record'")
    ]


def test_not_claude_code(fixtures_dir: Path) -> None:
    assert not ADAPTER.sniff(read_source(fixtures_dir / "entire_compact" / "transcript.jsonl"))
    assert not ADAPTER.sniff(Source("x.jsonl", '{"role": "user", "content": "hi"}\n'))


def test_the_readme_example_session(fixtures_dir: Path) -> None:
    example = fixtures_dir.parent.parent / "examples" / "claude-code-session.jsonl"
    events, source = _events(example)
    assert source.skipped == []
    failed = [e for e in events if isinstance(e, ToolResult) and e.status == "failure"]
    assert [(f.call_id, f.failure) for f in failed] == [("toolu_01EditBad", "not_found")]
    created = [
        r.path
        for e in events
        if isinstance(e, ToolResult)
        for r in e.reported or ()
        if r.change == "created"
    ]
    assert created == ["/home/dev/webapp/tests/test_auth.py"]


# -- the real corpus -----------------------------------------------------------------


def _corpus(corpus_dir: Path) -> list[Path]:
    return sorted((corpus_dir / "claude_code").glob("*.gz"))


@cache
def _corpus_events(path: Path) -> tuple[list[Event], Source]:
    return _events(path)


def test_every_corpus_session_parses(corpus_dir: Path) -> None:
    for path in _corpus(corpus_dir):
        events, source = _corpus_events(path)
        assert isinstance(events[0], SessionInfo), path.name
        assert all(s.reason.startswith("not valid JSON") for s in source.skipped), (
            path.name,
            source.skipped,
        )
        calls = {e.call_id for e in events if isinstance(e, ToolCall)}
        results = {e.call_id for e in events if isinstance(e, ToolResult)}
        # Only calls cut off by the end of the transcript may lack a result.
        assert len(calls - results) <= 3, path.name


def _truth(corpus_dir: Path) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for line in (corpus_dir / "truth.jsonl").read_text().splitlines():
        row = json.loads(line)
        if row["format"] == "claude_code":
            root = (row["root"] or "").rstrip("/") + "/"
            out[row["file"]] = {p[len(root) :] if p.startswith(root) else p for p in row["changed"]}
    return out


def test_corpus_sessions_with_edits_yield_the_reported_changes(corpus_dir: Path) -> None:
    """Every file the harness reports changed comes out of a successful change operation."""
    missed: list[str] = []
    for name, changed in _truth(corpus_dir).items():
        events, _ = _corpus_events(corpus_dir / "claude_code" / f"{name}.gz")
        info = events[0]
        assert isinstance(info, SessionInfo)
        root = (info.cwd or "").rstrip("/") + "/"
        calls = {e.call_id: e for e in events if isinstance(e, ToolCall)}
        got: set[str] = set()
        for event in events:
            if (
                isinstance(event, ToolResult)
                and event.status == "success"
                and event.call_id in calls
            ):
                for op in calls[event.call_id].operations:
                    if op.action in ("write", "create", "edit") and op.path:
                        got.add(op.path[len(root) :] if op.path.startswith(root) else op.path)
        missed.extend(f"{name}: {p}" for p in changed - got)
        if changed:
            assert got, name
    # One file in the corpus was changed by the person between two sessions
    # (only a file-history snapshot shows it); no tool call can reveal it.
    assert len(missed) <= 1, missed


def test_corpus_failure_texts_are_all_classified(corpus_dir: Path) -> None:
    """No failed Edit/Write/MultiEdit in the corpus falls back to 'other'."""
    for path in _corpus(corpus_dir):
        events, _ = _corpus_events(path)
        calls = {e.call_id: e for e in events if isinstance(e, ToolCall)}
        failed = [
            e
            for e in events
            if isinstance(e, ToolResult) and e.status == "failure" and e.call_id in calls
        ]
        for result in failed:
            if calls[result.call_id].tool in ("Edit", "Write", "MultiEdit"):
                assert result.failure != "other", (path.name, result.output[:120])


def test_gzip_and_plain_read_the_same(tmp_path: Path, fixtures_dir: Path) -> None:
    plain = fixtures_dir / "claude_code" / "subagents.jsonl"
    packed = tmp_path / "subagents.jsonl.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    assert _events(packed)[0] == _events(plain)[0]


def test_an_edit_the_person_changed_before_accepting_reports_what_was_written() -> None:
    base = {"sessionId": "s", "cwd": "/w", "version": "2.1.39", "isSidechain": False}
    call = {
        **base,
        "type": "assistant",
        "uuid": "a",
        "parentUuid": None,
        "message": {
            "id": "msg_1",
            "role": "assistant",
            "model": "claude-opus-4-6",
            "content": [
                {
                    "type": "tool_use",
                    "id": "toolu_1",
                    "name": "Edit",
                    "input": {"file_path": "/w/a.py", "old_string": "x = 1", "new_string": "x = 2"},
                }
            ],
        },
    }
    result = {
        **base,
        "type": "user",
        "uuid": "b",
        "parentUuid": "a",
        "message": {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_1",
                    "content": "The file /w/a.py has been updated successfully.",
                }
            ],
        },
        "toolUseResult": {
            "filePath": "/w/a.py",
            "oldString": "x = 1",
            "newString": "x = 3",
            "originalFile": "x = 1\n",
            "structuredPatch": [],
            "userModified": True,
            "replaceAll": False,
        },
    }
    source = Source("s.jsonl", "\n".join(json.dumps(r) for r in (call, result)) + "\n")
    events = list(ADAPTER.events(source))
    reported = _result(events, "toolu_1").reported
    assert reported is not None and reported[0].content == "x = 3\n"


def test_records_whose_type_is_not_a_string_are_skipped() -> None:
    # Regression: a list ``type`` raised TypeError (unhashable) while reading
    # the session header, and in a progress record's nested message.
    records = [
        {"type": ["user"], "cwd": "/p"},
        {
            "type": "user",
            "uuid": "u1",
            "cwd": "/p",
            "sessionId": "s",
            "message": {"role": "user", "content": "hi"},
        },
        {
            "type": "progress",
            "uuid": "p1",
            "data": {"message": {"type": ["assistant"], "message": {}}},
        },
    ]
    source = Source("s.jsonl", "\n".join(json.dumps(r) for r in records) + "\n")
    events = list(ADAPTER.events(source))
    session = next(e for e in events if isinstance(e, SessionInfo))
    assert (session.line, session.cwd) == (2, "/p")
    assert [e.text for e in events if isinstance(e, UserMessage)] == ["hi"]
    assert [s.line for s in source.skipped] == [1]


# -- results logged before their call (2.1.x) ----------------------------------


def test_a_result_logged_before_its_call_is_paired_by_tool_use_id(fixtures_dir: Path) -> None:
    events, _ = _events(fixtures_dir / "claude_code" / "result-before-call.jsonl")
    tools = [e for e in events if isinstance(e, ToolCall | ToolResult)]
    position = next(
        i for i, e in enumerate(tools) if isinstance(e, ToolCall) and e.call_id == "toolu_01Init"
    )
    result = tools[position + 1]
    assert isinstance(result, ToolResult) and result.call_id == "toolu_01Init"
    assert result.turn == _call(events, "toolu_01Init").turn
    assert result.reported is not None and [(r.path, r.change) for r in result.reported] == [
        ("/home/dev/ledger/tests/__init__.py", "created")
    ]


def test_a_file_written_by_a_call_whose_result_came_first_is_in_the_trail(
    fixtures_dir: Path,
) -> None:
    index, _ = build_index(fixtures_dir / "claude_code" / "result-before-call.jsonl")
    assert {(f.path, f.status) for f in index.files()} == {
        ("ledger.py", "read"),
        ("tests/__init__.py", "created"),
        ("tests/test_ledger.py", "created"),
    }
    # The one result whose call is in no record of the file stays an orphan, counted.
    assert index.session.orphan_results == 1


def test_the_api_request_log_of_2_1_328_is_bookkeeping_not_conversation() -> None:
    # Claude Code 2.1.328 (run for real in tests/summarizer/integrations/test_real_agents.py) logs a copy of every
    # request it sends: read as messages, the copy would count the turn twice; read as unknown, every
    # session warned about two dozen skipped parts.
    blob = {
        "role": "user",
        "content": [{"type": "text", "text": "WRITE /p/copy.txt: not a second turn"}],
    }
    records = [
        {
            "type": "user",
            "uuid": "u1",
            "cwd": "/p",
            "sessionId": "s",
            "version": "2.1.328",
            "message": {"role": "user", "content": "hi"},
        },
        {"type": "atis-latch", "atis": "", "sessionId": "s"},
        {"type": "api-request-shape", "sessionId": "s", "shapeHash": "h", "shape": {"system": []}},
        {"type": "api-request-blob", "sessionId": "s", "hash": "b", "message": blob},
        {
            "type": "api-request",
            "sessionId": "s",
            "id": "r",
            "shapeHash": "h",
            "params": {"model": "m"},
        },
        {"type": "cost-state", "sessionId": "s"},
        {"type": "tools-used", "sessionId": "s", "tools": ["Write"]},
    ]
    source = Source("s.jsonl", "\n".join(json.dumps(r) for r in records) + "\n")
    events = list(ADAPTER.events(source))
    assert [e.text for e in events if isinstance(e, UserMessage)] == ["hi"]
    assert source.skipped == []


def test_bridge_backup_and_colour_records_are_bookkeeping() -> None:
    # Seen in real sessions of 2.1.1xx: read as unknown, each warned of a skipped part.
    records = [
        {
            "type": "user",
            "uuid": "u1",
            "cwd": "/p",
            "sessionId": "s",
            "version": "2.1.150",
            "message": {"role": "user", "content": "hi"},
        },
        {
            "type": "bridge-session",
            "sessionId": "s",
            "bridgeSessionId": "cse_1",
            "lastSequenceNum": 0,
        },
        {
            "type": "file-history-delta",
            "messageId": "m",
            "snapshotMessageId": "n",
            "trackingPath": "NOTICE",
            "backup": {"backupFileName": None, "version": 1},
        },
        {"type": "agent-color", "agentColor": "cyan", "sessionId": "s"},
    ]
    source = Source("s.jsonl", "\n".join(json.dumps(r) for r in records) + "\n")
    events = list(ADAPTER.events(source))
    assert [e.text for e in events if isinstance(e, UserMessage)] == ["hi"]
    assert source.skipped == []


def _records_file(tmp_path: Path, records: list[dict[str, object]]) -> Path:
    path = tmp_path / "session.jsonl"
    base = {"sessionId": "s1", "cwd": ROOT, "version": "2.1.0", "isSidechain": False}
    path.write_text("".join(json.dumps({**base, **r}) + "\n" for r in records))
    return path


def _assistant(uuid: str, blocks: list[dict[str, object]]) -> dict[str, object]:
    message = {"id": f"msg_{uuid}", "role": "assistant", "model": "m", "content": blocks}
    return {"type": "assistant", "uuid": uuid, "message": message}


def _user_result(uuid: str, call_id: str, text: str) -> dict[str, object]:
    block = {"type": "tool_result", "tool_use_id": call_id, "content": text}
    return {"type": "user", "uuid": uuid, "message": {"role": "user", "content": [block]}}


def test_a_server_tools_result_in_the_assistant_message_answers_its_call(tmp_path: Path) -> None:
    """An advisor's or web search's result is logged in the assistant's message, not a user record."""
    advice = {"type": "advisor_redacted_result", "encrypted_content": "QUJD"}
    path = _records_file(
        tmp_path,
        [
            {"type": "user", "uuid": "u0", "message": {"role": "user", "content": "review it"}},
            _assistant(
                "a1", [{"type": "server_tool_use", "id": "srv1", "name": "advisor", "input": {}}]
            ),
            _assistant(
                "a2", [{"type": "advisor_tool_result", "tool_use_id": "srv1", "content": advice}]
            ),
        ],
    )
    events, _ = _events(path)
    result = _result(events, "srv1")
    assert result.status == "success" and result.output == ""  # the encrypted payload is not text
    assert build_index(path)[0].pending_calls() == []


def test_a_call_logged_again_after_its_result_is_not_a_new_call(tmp_path: Path) -> None:
    """A record re-logged later (same call id) repeats an answered call: it is not left waiting."""
    bash = {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "gh issue list"}}
    path = _records_file(
        tmp_path,
        [
            {"type": "user", "uuid": "u0", "message": {"role": "user", "content": "list"}},
            _assistant("a1", [bash]),
            _user_result("u1", "t1", "[]"),
            _assistant("a1", [bash]),
        ],
    )
    events, _ = _events(path)
    assert len([e for e in events if isinstance(e, ToolCall)]) == 1
    assert _result(events, "t1").output == "[]"
    assert build_index(path)[0].pending_calls() == []


def test_a_message_from_another_agent_session_is_not_the_persons(tmp_path: Path) -> None:
    """Claude Code hands a teammate session's message over on the user's side: the person did not type it."""
    relayed = (
        "Another Claude session sent a message:\n"
        '<teammate-message teammate_id="docs-review" color="green" summary="Report on the docs">\n'
        "# Review\n\nThe install page is out of date.\n</teammate-message>"
    )
    path = _records_file(
        tmp_path,
        [
            {
                "type": "user",
                "uuid": "u0",
                "message": {"role": "user", "content": "split the docs work"},
            },
            _assistant("a1", [{"type": "text", "text": "Started two teammates."}]),
            {"type": "user", "uuid": "u1", "message": {"role": "user", "content": relayed}},
        ],
    )
    events, _ = _events(path)
    said = [(e.text, e.synthetic) for e in events if isinstance(e, UserMessage)]
    assert said == [("split the docs work", False), (relayed, True)]


def _bash(call_id: str, command: str) -> dict[str, object]:
    return {"type": "tool_use", "id": call_id, "name": "Bash", "input": {"command": command}}


def test_a_cwd_logged_after_the_calls_own_cd_ran_is_not_applied_twice(tmp_path: Path) -> None:
    """A message logged late carries the cwd its own leading `cd` moved to: the call ran from the one before."""
    moved = f"{ROOT}/data/runs"
    path = _records_file(
        tmp_path,
        [
            {"type": "user", "uuid": "u0", "message": {"role": "user", "content": "check runs"}},
            {**_assistant("a1", [{"type": "text", "text": "Looking at the runs."}]), "cwd": moved},
            {
                **_assistant("a1", [_bash("t1", "cd data/runs\ncat fit_a.json")]),
                "cwd": moved,
            },
            {**_user_result("u1", "t1", '{"lnZ": 1}'), "cwd": moved},
            {**_assistant("a2", [_bash("t2", "cat fit_b.json")]), "cwd": moved},
            {**_user_result("u2", "t2", '{"lnZ": 2}'), "cwd": moved},
        ],
    )
    events, _ = _events(path)
    (op,) = _call(events, "t1").operations
    assert op.cwd == ROOT  # where `cd data/runs` ran from
    (later,) = _call(events, "t2").operations
    assert later.cwd == moved  # and where the shell stayed after it
    files = {entry.path for entry in build_index(path)[0].files()}
    assert {"data/runs/fit_a.json", "data/runs/fit_b.json"} <= files
    assert not any("runs/data" in name for name in files)


def test_a_cd_into_the_folder_a_previous_cd_reached_runs_from_there(tmp_path: Path) -> None:
    """The cwd a previous call's own `cd` reached is that call's doing: the next call starts there."""
    moved = f"{ROOT}/data"
    path = _records_file(
        tmp_path,
        [
            {"type": "user", "uuid": "u0", "message": {"role": "user", "content": "go"}},
            _assistant("a1", [_bash("t1", "cd data && ls")]),
            {**_user_result("u1", "t1", "data\nfit.json"), "cwd": moved},
            {**_assistant("a2", [_bash("t2", "cd data && cat fit.json")]), "cwd": moved},
            {**_user_result("u2", "t2", "{}"), "cwd": moved},
        ],
    )
    events, _ = _events(path)
    (op,) = _call(events, "t2").operations
    assert op.cwd == moved


def test_the_ide_note_of_the_open_file_is_not_part_of_the_request(tmp_path: Path) -> None:
    """The IDE extension puts a note of the file open in the editor before what the person typed: only their
    words are the request, and a message that is only the note is the harness's."""
    note = (
        "<ide_opened_file>The user opened the file /tmp/scratch/notes.txt in the IDE. This may or may not be "
        "related to the current task.</ide_opened_file>"
    )
    content = [{"type": "text", "text": note}, {"type": "text", "text": "Why is the cache cold?"}]
    path = _records_file(
        tmp_path,
        [
            {"type": "user", "uuid": "u0", "message": {"role": "user", "content": content}},
            _assistant("a1", [{"type": "text", "text": "Looking."}]),
            {"type": "user", "uuid": "u1", "message": {"role": "user", "content": note}},
        ],
    )
    events, _ = _events(path)
    said = [(e.text, e.synthetic) for e in events if isinstance(e, UserMessage)]
    assert said == [("Why is the cache cold?", False), (note, True)]
