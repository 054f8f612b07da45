"""A transcript read as it grows gives, at every line, the events of reading it whole up to that line."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from artifact_index.exceptions import UnknownFormat
from artifact_index.ingestion.adapters import adapter_named
from artifact_index.ingestion.events import Event, ToolResult
from artifact_index.ingestion.following import AppendedLines, RecordStream, Reread
from artifact_index.ingestion.loading import Loaded
from artifact_index.ingestion.source import Source
from tests.support.paths import ROOT

FIXTURES = ROOT / "tests" / "fixtures"
FOLLOWED = [
    ("claude-code", ROOT / "examples" / "claude-code-session.jsonl"),
    *(("claude-code", path) for path in sorted((FIXTURES / "claude_code").glob("*.jsonl"))),
    ("codex", ROOT / "examples" / "codex-rollout.jsonl"),
    *(("codex", path) for path in sorted((FIXTURES / "codex").glob("*.jsonl"))),
]


def whole(format: str, data: bytes) -> list[Event]:
    try:
        return list(Loaded(Source.from_bytes("t", data), adapter_named(format)).events())
    except UnknownFormat:
        return []  # nothing readable yet: a stream gives nothing either


def finished(stream: RecordStream, lines: AppendedLines) -> list[Event]:
    """What the stream adds at the end, read on a copy (finishing spends a stream)."""
    copy, tail = pickle.loads(pickle.dumps((stream, lines)))
    records, _ = tail.tail()
    return [*copy.add(records), *copy.finish()]


def follow(format: str, lines: list[bytes]) -> tuple[list[Event], RecordStream, AppendedLines]:
    stream = adapter_named(format).stream()
    assert stream is not None
    appended = AppendedLines()
    events: list[Event] = []
    for line in lines:
        records, _ = appended.feed(line)
        events += stream.add(records)
    return events, stream, appended


@pytest.mark.parametrize(("format", "path"), FOLLOWED, ids=lambda v: getattr(v, "name", v))
def test_at_every_line_the_events_are_those_of_the_file_so_far(format: str, path: Path) -> None:
    lines = path.read_bytes().splitlines(keepends=True)
    stream = adapter_named(format).stream()
    assert stream is not None
    appended = AppendedLines()
    handed: list[Event] = []
    for count, line in enumerate(lines, start=1):
        # Each line arrives in two writes, the second one completing it.
        for part in (line[: len(line) // 2], line[len(line) // 2 :]):
            records, _ = appended.feed(part)
            handed += stream.add(records)
        assert handed + finished(stream, appended) == whole(format, b"".join(lines[:count]))
    # A last line without its newline is read as reading the whole file reads it.
    cut = b"".join(lines).rstrip(b"\n")
    events, stream, appended = follow(format, [cut])
    assert events + finished(stream, appended) == whole(format, cut)


def claude_code(kind: str, **fields: Any) -> bytes:
    record = {"type": kind, "sessionId": "s1", "version": "2.1.0", "cwd": "/w", **fields}
    return (json.dumps(record) + "\n").encode()


def assistant(text: str, model: str = "claude-x") -> bytes:
    return claude_code(
        "assistant",
        message={"id": f"m-{text}", "model": model, "content": [{"type": "text", "text": text}]},
    )


def user(text: str) -> bytes:
    return claude_code("user", message={"content": text})


def test_claude_code_holds_the_session_start_until_the_first_response_names_the_model() -> None:
    events, stream, _ = follow("claude-code", [user("hello")])
    assert events == [] and stream.holding
    more = stream.add(AppendedLines().feed(assistant("hi"))[0])
    assert [type(e).__name__ for e in more] == ["SessionInfo", "UserMessage", "AssistantMessage"]
    assert more[0].model == "claude-x"  # type: ignore[attr-defined]


def test_claude_code_holds_a_compaction_boundary_until_its_summary_is_written() -> None:
    boundary = claude_code(
        "system", subtype="compact_boundary", compactMetadata={"trigger": "auto", "preTokens": 9}
    )
    summary = claude_code(
        "user", isCompactSummary=True, message={"content": "The summary of what came before."}
    )
    lines = [user("hello"), assistant("hi"), boundary]
    events, stream, appended = follow("claude-code", lines)
    assert stream.holding and not any(type(e).__name__ == "CompactionBoundary" for e in events)
    events += stream.add(appended.feed(summary)[0])
    boundaries = [e for e in events if type(e).__name__ == "CompactionBoundary"]
    assert [b.summary for b in boundaries] == ["The summary of what came before."]  # type: ignore[attr-defined]
    assert events + finished(stream, appended) == whole("claude-code", b"".join([*lines, summary]))


def codex(kind: str, payload: dict[str, Any]) -> bytes:
    return (json.dumps({"timestamp": "t", "type": kind, "payload": payload}) + "\n").encode()


CODEX_START = [
    codex("session_meta", {"id": "s", "cwd": "/w", "cli_version": "0.142.0"}),
    codex("turn_context", {"cwd": "/w", "model": "gpt-x"}),
    codex("response_item", {"type": "message", "role": "user", "content": "edit it"}),
    codex("response_item", {"type": "message", "role": "assistant", "content": "ok"}),
]
PATCH = "*** Begin Patch\n*** Update File: a.py\n@@\n-x\n+y\n*** End Patch\n"
PATCH_CALL = codex(
    "response_item",
    {"type": "custom_tool_call", "call_id": "c1", "name": "apply_patch", "input": PATCH},
)
PATCH_OUTPUT = codex(
    "response_item", {"type": "custom_tool_call_output", "call_id": "c1", "output": "Done"}
)
PATCH_END = codex(
    "event_msg",
    {
        "type": "patch_apply_end",
        "call_id": "c1",
        "success": True,
        "changes": {"/w/a.py": {"update": {"unified_diff": "@@\n-x\n+y\n"}}},
    },
)


def test_codex_holds_a_patch_output_until_its_outcome_is_written() -> None:
    events, stream, appended = follow("codex", [*CODEX_START, PATCH_CALL, PATCH_OUTPUT])
    assert stream.holding and not any(isinstance(e, ToolResult) for e in events)
    events += stream.add(appended.feed(PATCH_END)[0])
    results = [e for e in events if isinstance(e, ToolResult)]
    assert [r.reported is not None for r in results] == [True]
    lines = [*CODEX_START, PATCH_CALL, PATCH_OUTPUT, PATCH_END]
    assert events + finished(stream, appended) == whole("codex", b"".join(lines))


def test_a_record_that_contradicts_what_was_read_asks_for_the_file_to_be_read_again() -> None:
    # The output waits for its patch_apply_end only so long; once read without it, the late
    # record changes what that result was.
    filler = [codex("event_msg", {"type": "token_count", "info": None}) for _ in range(40)]
    events, stream, appended = follow("codex", [*CODEX_START, PATCH_CALL, PATCH_OUTPUT, *filler])
    assert any(isinstance(e, ToolResult) for e in events)
    with pytest.raises(Reread):
        stream.add(appended.feed(PATCH_END)[0])


def test_a_last_line_taken_without_its_newline_must_not_go_on() -> None:
    appended = AppendedLines()
    appended.feed(b'{"a": 1}\n{"b": 2}')
    records, bad = appended.tail()
    assert (records, bad) == ([(2, {"b": 2})], [])
    appended.take_open()
    assert appended.feed(b'\n{"c": 3}\n') == ([(3, {"c": 3})], [])
    appended.feed(b'{"d": 4}')
    appended.take_open()
    with pytest.raises(Reread):
        appended.feed(b', "e": 5}\n')
