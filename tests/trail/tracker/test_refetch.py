"""Re-fetch frequency: redundant reads, and re-reads after a compaction."""

from __future__ import annotations

import pytest

from artifact_index.ingestion.events import CompactionBoundary, Event
from artifact_index.ingestion.events import FileOperation as Op
from artifact_index.trail.refetch import refetch_report
from artifact_index.trail.tracker import Tracker
from tests.support.paths import FIXTURES

from .conftest import Call


def _read(call: Call, path: str, turn: int, **kwargs: object) -> list[Event]:
    return call(Op(action="read", path=path), tool="Read", turn=turn, **kwargs)


def test_reads_again_after_a_compaction_are_counted_per_boundary(
    session: list[Event], call: Call
) -> None:
    events = session + [
        *_read(call, "/repo/a.py", 1),
        *_read(call, "/repo/b.py", 2),
        CompactionBoundary(turn=3, trigger="auto"),
        *_read(call, "/repo/a.py", 4),
        *_read(call, "/repo/c.py", 5),
        *_read(call, "/repo/b.py", 6),
        CompactionBoundary(turn=7, trigger="auto"),
        *_read(call, "/repo/c.py", 8),
    ]
    report = refetch_report(Tracker(format="claude-code").feed_all(events))
    assert [(c.turn, c.rereads, c.reads_after, c.files) for c in report.compactions] == [
        (3, 2, 3, ["a.py", "b.py"]),
        (7, 1, 1, ["c.py"]),
    ]
    assert report.rereads_after_compaction == (3, 4)


def test_a_read_after_a_change_is_not_redundant(session: list[Event], call: Call) -> None:
    events = session + [
        *_read(call, "/repo/a.py", 1),
        *_read(call, "/repo/a.py", 2),  # redundant: nothing changed
        *call(Op(action="edit", path="/repo/a.py", old="x", new="y"), turn=3),
        *_read(call, "/repo/a.py", 4),  # needed: the file changed
        *call(
            Op(action="read", path="/repo/a.py"),
            tool="Read",
            turn=5,
            status="failure",
            failure="not_found",
        ),
    ]
    report = refetch_report(Tracker(format="claude-code").feed_all(events))
    assert (report.reads, report.redundant_reads, report.compactions) == (3, 1, [])


def test_refetch_command(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from artifact_index.presentation.cli import main

    session = FIXTURES / "cli" / "session.jsonl"
    assert main(["refetch", str(session), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["reads"], out["redundant_reads"], out["compactions"]) == (1, 0, [])
    assert main(["refetch", str(session)]) == 0
    assert "no compaction in this transcript" in capsys.readouterr().out
