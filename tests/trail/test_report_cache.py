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


def test_a_cache_that_takes_no_snapshot_pickles_as_it_was_and_still_finds_this_calls_reports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A hook run that keeps no state does not pickle its reports: it takes no snapshot of them,
    # and what would be pickled is the last one taken, each report in it still right.
    lines = (ROOT / "examples" / "claude-code-session.jsonl").read_bytes().splitlines(keepends=True)
    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes(b"".join(lines[: len(lines) // 2]))
    live = LiveTranscript(transcript)
    live.refresh()
    kept = ReportCache()
    session_report(live.as_it_stands().index, kept)
    snapshot = pickle.dumps(kept)
    with transcript.open("ab") as out:
        out.write(b"".join(lines[len(lines) // 2 :]))
    live.refresh()
    index = live.finish()
    kept.snapshots = False
    taken: list[object] = []
    monkeypatch.setattr(file_reports.pickle, "dumps", lambda *a, **k: taken.append(a) or b"")
    reported = session_report(index, kept)
    assert taken == []
    monkeypatch.undo()
    assert pickle.dumps(kept) == snapshot
    made: list[str] = []
    _counting(made, monkeypatch)
    assert session_report(index, kept) == reported
    assert made == []  # this call's reports are found by the next call in the same process
    assert reported == session_report(index)
    assert session_report(index, pickle.loads(snapshot)) == reported


def test_every_field_a_report_is_made_from_is_spelled() -> None:
    # The JSON a file's entry and symbols are spelled in leaves out the fields marked
    # ``exclude``; those are spelled beside it, and a model nested in them is spelled too.
    from pydantic import BaseModel

    from artifact_index.trail.answers import FileEntry

    def models_in(annotation: object) -> set[type[BaseModel]]:
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            return {annotation}
        return {m for arg in getattr(annotation, "__args__", ()) for m in models_in(arg)}

    reached, todo = set(), [FileEntry, file_reports.SymbolEntry]
    while todo:
        model = todo.pop()
        if model in reached:
            continue
        reached.add(model)
        for field in model.model_fields.values():
            todo.extend(models_in(field.annotation))
    assert reached == set(file_reports.SPELLED_APART)
    for model, apart in file_reports.SPELLED_APART.items():
        assert {name for name, f in model.model_fields.items() if f.exclude} == apart


def test_a_change_to_a_field_left_out_of_the_json_is_a_change_to_what_a_report_is_made_from(
    tmp_path: Path,
) -> None:
    live = LiveTranscript(ROOT / "examples" / "claude-code-session.jsonl")
    live.refresh()
    index = live.finish()
    entry = next(e for e in index.files() if e.ops and e.evidence)
    state = index.find_file(entry.path)
    made_from = file_reports._made_from(entry, [], state)
    other_call = entry.model_copy(
        update={"ops": [entry.ops[0].model_copy(update={"call_id": "another"}), *entry.ops[1:]]}
    )
    other_evidence = entry.model_copy(update={"evidence": entry.evidence[1:]})
    other_certainty = entry.model_copy(update={"certainty": "unrecorded"})
    assert made_from == file_reports._made_from(entry.model_copy(), [], state)
    for changed in (other_call, other_evidence, other_certainty):
        assert file_reports._made_from(changed, [], state) != made_from


def test_a_file_whose_inputs_are_what_they_were_is_not_listed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Building every file's entry to digest it was most of a long session's report: a file
    # whose operations, state and symbols are those of the last call is reported from what
    # that call kept, and only a file that changed is listed again.
    from artifact_index.trail.index import ArtifactIndex

    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes((ROOT / "examples" / "claude-code-session.jsonl").read_bytes())
    live = LiveTranscript(transcript)
    live.refresh()
    index = live.finish()
    kept = ReportCache()
    reported = session_report(index, kept)
    listed: list[str] = []
    original = ArtifactIndex.file_entry

    def counted(self: ArtifactIndex, state: Any, waiting: Any) -> Any:
        listed.append(state.path)
        return original(self, state, waiting)

    monkeypatch.setattr(ArtifactIndex, "file_entry", counted)
    kept = pickle.loads(pickle.dumps(kept))
    assert session_report(index, kept) == reported
    assert listed == []
    state = index.find_file(reported.changed[0].path)
    assert state is not None
    state.sources.append("shell")
    again = session_report(index, kept)
    assert listed == [state.path]
    assert again == session_report(index)
    assert again != reported


def test_what_a_file_is_made_of_is_spelled_alike_in_every_process() -> None:
    import os
    import subprocess
    import sys

    script = """
import sys
from artifact_index.live.live_transcript import LiveTranscript
from artifact_index.trail import file_reports

live = LiveTranscript(sys.argv[1])
live.refresh()
index = live.finish()
symbols = index.symbols()
waiting = index.waiting_calls()
for state in index.listed_files():
    print(file_reports._inputs(state, index.operations_spelled(state.path),
        symbols.get(state.shown, []), waiting.get(state.path, []), (index.root, None)).hex())
"""
    example = str(ROOT / "examples" / "claude-code-session.jsonl")
    spelled = [
        subprocess.run(
            [sys.executable, "-c", script, example],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout.split()
        for seed in ("1", "2")
    ]
    assert spelled[0] and spelled[0] == spelled[1]


# The fields of a file's state that neither its entry nor its report reads but through its
# status (read), its place in the list (first_seq), or not at all (windows, depth, edit_trail).
_NOT_READ_APART = {"read", "first_seq", "windows", "depth", "edit_trail"}


def test_every_field_of_a_file_state_counts_in_what_the_file_is_made_of() -> None:
    from artifact_index.trail.file_state import FileState
    from artifact_index.trail.latest_writes import LatestWrite

    state = FileState(
        path="src/app.py",
        first_seq=1,
        existed_before=True,
        exists=True,
        changed=True,
        sources=["edit"],
        content="print(1)\n",
        original="print(0)\n",
    )
    others: dict[str, object] = {
        "path": "src/other.py",
        "display": "./src/app.py",
        "existed_before": False,
        "exists": False,
        "changed": False,
        "restored": True,
        "sources": ["edit", "shell"],
        "renamed_from": "src/old.py",
        "content": "print(2)\n",
        "original": None,
        "changed_unseen_turn": 3,
        "latest_write": LatestWrite(turn=2, text="print(1)\n"),
        "made_again_by": "make",
    }
    assert set(others) | _NOT_READ_APART == set(FileState.model_fields)

    def made_of(
        one: FileState, operations: bytes = b"[]", around: tuple[object, ...] = ()
    ) -> bytes:
        return file_reports._inputs(one, operations, [], [], around)

    before = made_of(state)
    assert made_of(state.model_copy()) == before
    for name, value in others.items():
        assert made_of(state.model_copy(update={name: value})) != before, name
    assert made_of(state, b"[({'result': 'success'}, None)]") != before
    assert made_of(state, around=("/root", None)) != before


def test_what_a_file_is_made_of_is_spelled_alike_after_the_state_is_pickled() -> None:
    # A kept state comes back from a pickle, its strings no longer shared or interned as they
    # were when the last call spelled them: the spelling is of the values alone.
    live = LiveTranscript(ROOT / "examples" / "codex-rollout.jsonl")
    live.refresh()
    index = live.finish()
    again = pickle.loads(pickle.dumps(index))
    keys = [state.path for state in index.listed_files()]
    assert keys and [state.path for state in again.listed_files()] == keys
    for key in keys:
        assert again.operations_spelled(key) == index.operations_spelled(key)
