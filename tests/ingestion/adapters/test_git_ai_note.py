"""git-ai authorship notes: hand-written notes for each agent shape, and the real corpus."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest

from artifact_index.ingestion.adapters import detect
from artifact_index.ingestion.adapters.git_ai_note import GitAiNoteAdapter, parse_note
from artifact_index.ingestion.events import (
    AssistantMessage,
    Event,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
)
from artifact_index.ingestion.source import Source, read_source

from .helpers import read_events

ADAPTER = GitAiNoteAdapter()
_events = partial(read_events, ADAPTER)
ROOT = "/Users/dev/projects/notes-app"


def _note(fixtures_dir: Path, name: str) -> tuple[list[Event], Source]:
    return _events(fixtures_dir / "git_ai_note" / name)


def _by_tool(events: list[Event]) -> list[tuple[str, str, str | None]]:
    """``(tool, status, failure)`` of every call, in order."""
    calls = {
        e.call_id: e for e in events if isinstance(e, ToolCall) and e.tool != "git-ai attestation"
    }
    return [
        (calls[e.call_id].tool, e.status, e.failure)
        for e in events
        if isinstance(e, ToolResult) and e.call_id in calls
    ]


def test_detected_as_git_ai_note(fixtures_dir: Path) -> None:
    for name in ("claude-with-results.txt", "cursor.txt", "claude-no-results.txt"):
        assert detect(read_source(fixtures_dir / "git_ai_note" / name)).name == "git-ai-note"


def test_head_lists_the_attested_files(fixtures_dir: Path) -> None:
    note = parse_note((fixtures_dir / "git_ai_note" / "cursor.txt").read_text())
    assert note is not None
    assert note.attested == {
        "src/store.rs": {"f976e97": "3-9"},
        "src/store_test.rs": {"f976e97": "1-20"},
    }
    assert list(note.body["prompts"]) == ["f976e97"]


def test_attested_files_are_reported_changes_of_their_prompt(fixtures_dir: Path) -> None:
    events, _ = _note(fixtures_dir, "cursor.txt")
    (call,) = [e for e in events if isinstance(e, ToolCall) and e.tool == "git-ai attestation"]
    assert [(op.action, op.path) for op in call.operations] == [
        ("edit", "src/store.rs"),
        ("edit", "src/store_test.rs"),
    ]
    result = next(e for e in events if isinstance(e, ToolResult) and e.call_id == call.call_id)
    assert result.status == "success" and result.reported is not None
    assert [(r.path, r.change) for r in result.reported] == [
        ("src/store.rs", "modified"),
        ("src/store_test.rs", "modified"),
    ]


def test_session_root_is_inferred_from_attested_paths(fixtures_dir: Path) -> None:
    events, _ = _note(fixtures_dir, "cursor.txt")
    info = events[0]
    assert isinstance(info, SessionInfo)
    assert (info.cwd, info.agent, info.model) == (ROOT, "cursor", "claude-4.5-opus-high-thinking")


def test_cursor_tools_become_file_operations_with_unknown_outcome(fixtures_dir: Path) -> None:
    events, _ = _note(fixtures_dir, "cursor.txt")
    ops = [
        (op.action, op.path or op.command)
        for e in events
        if isinstance(e, ToolCall) and e.tool != "git-ai attestation"
        for op in e.operations
    ]
    assert ops == [
        ("read", f"{ROOT}/src/store.rs"),
        ("edit", f"{ROOT}/src/store.rs"),
        ("write", f"{ROOT}/src/store_test.rs"),
        ("delete", f"{ROOT}/src/cache.rs"),
        ("shell", f"cd {ROOT} && cargo test"),
    ]
    assert {status for _, status, _ in _by_tool(events)} == {"unknown"}


def test_bad_messages_are_skipped_and_counted(fixtures_dir: Path) -> None:
    events, source = _note(fixtures_dir, "cursor.txt")
    assert [s.reason for s in source.skipped] == [
        "prompt f976e97 message 9 is not an object",
        "prompt f976e97 message 10 has type 'system'",
    ]
    last = [e for e in events if isinstance(e, AssistantMessage)][-1]
    assert last.text.startswith("Done")


def test_claude_note_with_results_pairs_each_result_with_its_call(fixtures_dir: Path) -> None:
    events, _ = _note(fixtures_dir, "claude-with-results.txt")
    assert _by_tool(events) == [
        ("Read", "success", None),
        ("Task", "unknown", None),  # the next response began: no result was kept
        ("Write", "success", None),
        ("Edit", "success", None),
        ("Edit", "failure", "not_found"),
        ("Bash", "failure", "exit_status"),
        ("Edit", "unknown", None),  # in the result's place, in no result's wording
    ]
    write = next(
        e for e in events if isinstance(e, ToolResult) and e.status == "success" and e.reported
    )
    assert write.reported is not None
    assert (write.reported[0].path, write.reported[0].change) == (
        f"{ROOT}/src/commands/search.rs",
        "created",
    )


def test_claude_note_results_are_not_user_messages(fixtures_dir: Path) -> None:
    events, _ = _note(fixtures_dir, "claude-with-results.txt")
    users = [e.text for e in events if isinstance(e, UserMessage)]
    assert users == ["Add a search command."]
    bash = next(e for e in events if isinstance(e, ToolResult) and e.failure == "exit_status")
    assert bash.exit_code == 101


def test_current_claude_note_without_results_is_all_unknown(fixtures_dir: Path) -> None:
    events, _ = _note(fixtures_dir, "claude-no-results.txt")
    assert _by_tool(events) == [
        ("Read", "unknown", None),
        ("Edit", "unknown", None),
        ("Bash", "unknown", None),
    ]
    info = events[0]
    assert isinstance(info, SessionInfo) and info.cwd == ROOT
    # Each response (text and the call after it) is its own turn.
    assert [
        e.turn for e in events if isinstance(e, ToolCall) and e.call_id.endswith((":2", ":4", ":6"))
    ] == [2, 3, 4]


def test_broken_note_is_not_sniffed_and_forced_reading_reports_it(fixtures_dir: Path) -> None:
    source = read_source(fixtures_dir / "git_ai_note" / "broken.txt")
    assert not ADAPTER.sniff(source)
    assert list(ADAPTER.events(source)) == []
    assert len(source.skipped) == 1


def test_not_a_note(fixtures_dir: Path) -> None:
    assert not ADAPTER.sniff(read_source(fixtures_dir / "claude_code" / "edits.jsonl"))
    assert not ADAPTER.sniff(Source("x.md", "# title\n---\nsome text\n"))


def _corpus(corpus_dir: Path) -> list[Path]:
    return sorted((corpus_dir / "git_ai_note").glob("*.gz"))


@pytest.fixture(scope="module")
def corpus_notes(corpus_dir: Path) -> list[tuple[Path, list[Event], Source]]:
    return [(path, *_events(path)) for path in _corpus(corpus_dir)]


def test_every_corpus_note_parses_with_a_root(
    corpus_notes: list[tuple[Path, list[Event], Source]],
) -> None:
    assert corpus_notes
    for path, events, source in corpus_notes:
        assert source.skipped == [], path.name
        info = events[0]
        assert isinstance(info, SessionInfo) and info.cwd, path.name
        calls = [e for e in events if isinstance(e, ToolCall)]
        assert len({c.call_id for c in calls}) == len(calls)
        assert len([e for e in events if isinstance(e, ToolResult)]) == len(calls), path.name


def test_corpus_notes_with_edits_yield_changes_to_committed_files(
    corpus_notes: list[tuple[Path, list[Event], Source]], corpus_dir: Path
) -> None:
    """The files of the annotated commit come out of change operations, apart from a few.

    A commit can hold changes from other sessions or by the person; git-ai
    attributes no lines of those to any prompt.
    """
    hits = total = 0
    for path, events, _ in corpus_notes:
        truth = json.loads(
            (
                corpus_dir / "git_ai_note" / "groundtruth" / f"{path.stem}.groundtruth.json"
            ).read_text()
        )
        committed = {entry.split("\t")[-1] for entry in truth["name_status"]}
        info = events[0]
        assert isinstance(info, SessionInfo) and info.cwd
        root = info.cwd + "/"
        results = {e.call_id: e for e in events if isinstance(e, ToolResult)}
        changed = {
            op.path.removeprefix(root)
            for e in events
            if isinstance(e, ToolCall) and results[e.call_id].status != "failure"
            for op in e.operations
            if op.action in ("edit", "write", "create", "delete") and op.path
        }
        assert changed, path.name
        attested = set(truth["attestation_files"])
        assert committed & attested <= changed, path.name
        hits += len(committed & changed)
        total += len(committed)
    # 4 of the 19 committed files carry no line git-ai attributes to the AI.
    assert hits / total >= 0.75
