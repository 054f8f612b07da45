"""A transcript followed while its agent writes it: only new bytes read, the index always that of the file so far."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from artifact_index.live.live_transcript import LiveTranscript
from artifact_index.presentation.render import files_json
from artifact_index.trail.build import build_index
from artifact_index.trail.index import ArtifactIndex

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def facts(index: ArtifactIndex) -> dict[str, object]:
    return {
        "files": files_json(index),
        "errors": [e.model_dump() for e in index.errors()],
        "tests": [t.model_dump() for t in index.tests()],
        "tasks": [t.model_dump() for t in index.tasks()],
        "decisions": [d.model_dump() for d in index.decisions()],
        "user_messages": [m.model_dump() for m in index.user_messages()],
    }


def corpus_lines(corpus_dir: Path, name: str) -> list[bytes]:
    return gzip.decompress((corpus_dir / name).read_bytes()).splitlines(keepends=True)


@pytest.mark.parametrize(
    ("name", "most_rebuilds"),
    [
        # Claude Code and Codex are followed record by record: what depends on a later record waits
        # for it (the session's model, a patch's outcome) instead of being read again.
        ("claude_code/ccviewer__5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl.gz", 0),
        ("codex/entire_agentv__a392ff332928_0.jsonl.gz", 0),
        # Copilot CLI is read whole at each change; a later record that supersedes an earlier
        # one's event rebuilds.
        ("copilot_cli/entire_agentv__d88be769afd1_0.jsonl.gz", 2),
    ],
)
def test_appended_line_by_line_the_index_is_always_that_of_the_file_so_far(
    corpus_dir: Path, tmp_path: Path, name: str, most_rebuilds: int
) -> None:
    lines = corpus_lines(corpus_dir, name)
    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes(b"")
    live = LiveTranscript(transcript)
    rebuilds = 0
    for number, line in enumerate(lines, start=1):
        with transcript.open("ab") as handle:
            handle.write(line)
        rebuilds += live.refresh().rebuilt
        assert live.offset == transcript.stat().st_size
        if number % 10 == 0 or number == len(lines):
            # Calls still waiting for their result wait here too (see the next test), so compare
            # with the whole file only where nothing waits.
            whole, loaded = build_index(transcript)
            if len(list(loaded.events())) == live.tally.events:
                assert facts(live.index) == facts(whole)
    whole, _ = build_index(transcript)
    assert facts(live.index) == facts(whole)
    assert rebuilds <= most_rebuilds


def test_a_partial_last_line_waits_for_its_newline(tmp_path: Path) -> None:
    lines = (EXAMPLES / "claude-code-session.jsonl").read_bytes().splitlines(keepends=True)
    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes(b"".join(lines[:5]))
    live = LiveTranscript(transcript)
    before = live.refresh()
    assert before.new_events > 0 and not before.waiting
    half = len(lines[5]) // 2
    with transcript.open("ab") as handle:
        handle.write(lines[5][:half])
    waiting = live.refresh()
    assert (waiting.new_events, waiting.waiting) == (0, True)
    assert live.offset == sum(map(len, lines[:5]))
    with transcript.open("ab") as handle:
        handle.write(lines[5][half:] + b"".join(lines[6:]))
    done = live.refresh()
    assert done.new_events > 0 and not done.waiting
    assert facts(live.index) == facts(build_index(EXAMPLES / "claude-code-session.jsonl")[0])


def test_a_last_record_without_its_newline_is_not_lost(tmp_path: Path) -> None:
    text = (EXAMPLES / "claude-code-session.jsonl").read_text()
    transcript = tmp_path / "session.jsonl"
    transcript.write_text(text.rstrip("\n"))
    live = LiveTranscript(transcript)
    assert not live.refresh().waiting
    assert facts(live.index) == facts(build_index(EXAMPLES / "claude-code-session.jsonl")[0])


def test_a_call_waiting_for_its_result_is_applied_when_the_result_arrives(tmp_path: Path) -> None:
    records = [
        json.loads(line) for line in (EXAMPLES / "codex-rollout.jsonl").read_text().splitlines()
    ]
    call = next(
        n
        for n, r in enumerate(records)
        if r.get("payload", {}).get("type") in ("function_call", "custom_tool_call")
    )
    transcript = tmp_path / "rollout.jsonl"
    transcript.write_text("".join(json.dumps(r) + "\n" for r in records[: call + 1]))
    live = LiveTranscript(transcript)
    live.refresh()
    # Read whole, the file's end closes the call with an unknown outcome; followed, the call is still running.
    assert live.tally.events < len(list(build_index(transcript)[1].events()))
    with transcript.open("a") as handle:
        handle.write("".join(json.dumps(r) + "\n" for r in records[call + 1 :]))
    assert not live.refresh().rebuilt
    assert facts(live.index) == facts(build_index(EXAMPLES / "codex-rollout.jsonl")[0])


def test_a_file_replaced_by_another_is_read_again_from_the_start(tmp_path: Path) -> None:
    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes((EXAMPLES / "claude-code-session.jsonl").read_bytes())
    live = LiveTranscript(transcript)
    live.refresh()
    replacement = tmp_path / "new.jsonl"
    replacement.write_bytes((EXAMPLES / "codex-rollout.jsonl").read_bytes())
    replacement.replace(transcript)
    refresh = live.refresh()
    assert refresh.rebuilt and live.format == "codex"
    assert facts(live.index) == facts(build_index(EXAMPLES / "codex-rollout.jsonl")[0])


def test_a_json_document_rewritten_as_it_grows_is_read_whole(tmp_path: Path) -> None:
    trajectory = json.loads((EXAMPLES / "mini-swe-agent.traj.json").read_text())
    messages = trajectory["messages"]
    transcript = tmp_path / "run.traj.json"
    transcript.write_text(json.dumps({**trajectory, "messages": messages[:4]}, indent=2))
    live = LiveTranscript(transcript)
    assert live.refresh().new_events > 0
    transcript.write_text(json.dumps(trajectory, indent=2))
    live.refresh()
    assert facts(live.index) == facts(build_index(EXAMPLES / "mini-swe-agent.traj.json")[0])


def test_a_start_no_format_recognizes_yet_waits(tmp_path: Path) -> None:
    transcript = tmp_path / "new.jsonl"
    transcript.write_text('{"hello": "world"}\n')
    live = LiveTranscript(transcript)
    assert live.refresh().waiting and live.format is None
