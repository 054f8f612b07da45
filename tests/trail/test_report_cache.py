"""Files' reports kept between runs on a growing session are those made afresh, and only changed files are made again."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest

from artifact_index.live.live_transcript import LiveTranscript
from artifact_index.trail import file_reports
from artifact_index.trail.file_reports import ReportCache
from artifact_index.trail.session_report import session_report
from tests.support.paths import ROOT

SESSIONS = [
    ROOT / "examples" / "claude-code-session.jsonl",
    ROOT / "examples" / "codex-rollout.jsonl",
    *sorted((ROOT / "tests" / "fixtures" / "claude_code").glob("*.jsonl")),
    *sorted((ROOT / "tests" / "fixtures" / "codex").glob("*.jsonl")),
]


@pytest.mark.parametrize("session", SESSIONS, ids=lambda p: p.name)
def test_reports_kept_between_runs_are_those_made_afresh(session: Path, tmp_path: Path) -> None:
    lines = session.read_bytes().splitlines(keepends=True)
    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes(b"")
    live, kept, written = LiveTranscript(transcript), ReportCache(), 0
    for cut in sorted({max(1, len(lines) * n // 4) for n in range(1, 5)}):
        with transcript.open("ab") as out:
            out.write(b"".join(lines[written:cut]))
        written = cut
        live.refresh()
        if live.format is None:
            continue
        # As a hook runs: the transcript is kept before its end is read, the reports after.
        before_end = pickle.dumps(live)
        index = live.finish()
        assert session_report(index, kept) == session_report(index)
        live, kept = pickle.loads(before_end), pickle.loads(pickle.dumps(kept))


def _counting(made: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    original = file_reports._report

    def counted(index: Any, entry: Any, symbols: Any, state: Any) -> Any:
        made.append(entry.path)
        return original(index, entry, symbols, state)

    monkeypatch.setattr(file_reports, "_report", counted)


def test_only_the_files_a_run_changed_are_reported_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = (ROOT / "examples" / "claude-code-session.jsonl").read_bytes().splitlines(keepends=True)
    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes(b"".join(lines))
    live = LiveTranscript(transcript)
    live.refresh()
    kept = ReportCache()
    index = live.finish()
    reported = session_report(index, kept)
    assert reported.changed
    made: list[str] = []
    _counting(made, monkeypatch)
    kept = pickle.loads(pickle.dumps(kept))
    assert session_report(index, kept) == reported
    assert made == []
    # A file whose content is not what it was is reported again, and only it.
    state = index.find_file(reported.changed[0].path)
    assert state is not None and state.content is not None
    state.content += "\n# one more line\n"
    again = session_report(index, kept)
    assert made == [reported.changed[0].path]
    assert again == session_report(index)


def test_a_report_changed_in_place_after_a_run_is_not_what_the_next_run_reuses(
    tmp_path: Path,
) -> None:
    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes((ROOT / "examples" / "claude-code-session.jsonl").read_bytes())
    live = LiveTranscript(transcript)
    live.refresh()
    index = live.finish()
    kept = ReportCache()
    first = session_report(index, kept).changed[0]
    first.sources.append("changed by a caller")
    assert session_report(index, pickle.loads(pickle.dumps(kept))) == session_report(index)


_DIGEST_OF_EXAMPLE = """
import sys
from artifact_index.live.live_transcript import LiveTranscript
from artifact_index.trail import file_reports

live = LiveTranscript(sys.argv[1])
live.refresh()
index = live.finish()
symbols = index.symbols()
for entry in index.files():
    state = index.find_file(entry.path)
    print(file_reports._made_from(entry, symbols.get(entry.path, []), state).hex())
"""


def test_what_a_report_is_made_from_digests_alike_in_every_process() -> None:
    # A report kept by one hook run is found by the next only if both spell it in the same bytes,
    # whatever order the process's hash seed gives to sets.
    import os
    import subprocess
    import sys

    example = str(ROOT / "examples" / "claude-code-session.jsonl")
    digests = [
        subprocess.run(
            [sys.executable, "-c", _DIGEST_OF_EXAMPLE, example],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout.split()
        for seed in ("1", "2")
    ]
    assert digests[0] and digests[0] == digests[1]


def test_every_field_of_an_entry_counts_in_what_its_report_is_made_from(tmp_path: Path) -> None:
    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes((ROOT / "examples" / "claude-code-session.jsonl").read_bytes())
    live = LiveTranscript(transcript)
    live.refresh()
    index = live.finish()
    entry = next(e for e in index.files() if e.status is not None and e.ops)
    state = index.find_file(entry.path)
    made_from = file_reports._made_from(entry, [], state)
    assert file_reports._made_from(entry, [], state) == made_from
    op = entry.ops[0]
    # call_id is left out of the JSON contract, but a report reads it.
    for changed in (
        entry.model_copy(
            update={"certainty": "inferred" if entry.certainty != "inferred" else "seen"}
        ),
        entry.model_copy(
            update={"ops": [op.model_copy(update={"call_id": "another"}), *entry.ops[1:]]}
        ),
        entry.model_copy(update={"sources": [*entry.sources, "x"]}),
    ):
        assert file_reports._made_from(changed, [], state) != made_from
