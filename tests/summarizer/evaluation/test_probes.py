"""Probe-based evaluation: a summary passes a probe when it states what the index knows."""

from __future__ import annotations

from pathlib import Path

import pytest

from artifact_index.ingestion.events import Event, FileOperation, SessionInfo, ToolCall, ToolResult
from artifact_index.presentation.cli import main
from artifact_index.trail.tracker import Tracker
from summarizer.evaluation.probes import probe_summary
from summarizer.sections.session_facts import session_facts
from summarizer.sections.summary_facts import SessionFacts
from tests.support.paths import FIXTURES

TRACEBACK = "Traceback (most recent call last):\n  File \"/r/app.py\", line 2, in f\n    x()\nKeyError: 'exp'\n"


def _facts() -> SessionFacts:
    events: list[Event] = [SessionInfo(turn=0, cwd="/r")]
    for n, (tool, op, status, output) in enumerate(
        [
            (
                "Write",
                FileOperation(action="write", path="/r/app.py", content="def f():\n    x()\n"),
                "success",
                "",
            ),
            (
                "Bash",
                FileOperation(action="shell", command="python app.py", source="shell"),
                "failure",
                TRACEBACK,
            ),
            ("TodoWrite", None, "success", ""),
        ],
        start=1,
    ):
        args = (
            {"todos": [{"content": "Handle a missing exp claim", "status": "pending"}]}
            if tool == "TodoWrite"
            else {}
        )
        events += [
            ToolCall(
                turn=n, call_id=f"c{n}", tool=tool, arguments=args, operations=(op,) if op else ()
            ),
            ToolResult(turn=n, call_id=f"c{n}", status=status, output=output),
        ]  # type: ignore[arg-type]
    return session_facts(Tracker(format="claude-code").feed_all(events))


def test_a_summary_that_states_everything_passes_every_probe() -> None:
    summary = "Created `app.py`. The original error was KeyError: 'exp'. Next: handle a missing exp claim."
    report = probe_summary(summary, _facts())
    assert {p.kind: p.score for p in report.probes} == {
        "artifact": 1.0,
        "recall": 1.0,
        "continuation": 1.0,
        "decision": 1.0,
    }
    assert report.overall == 1.0


def test_what_a_summary_leaves_out_is_listed() -> None:
    report = probe_summary("We worked on the app.", _facts())
    by_kind = {p.kind: p for p in report.probes}
    assert by_kind["artifact"].missing == ["app.py"]
    assert by_kind["recall"].missing == ["KeyError: 'exp'"]
    assert by_kind["continuation"].missing == ["Handle a missing exp claim"]
    assert by_kind["decision"].expected == []  # nothing was decided: not asked, not counted
    assert report.overall == 0.0


def test_probe_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    session = FIXTURES / "cli" / "session.jsonl"
    summary = tmp_path / "s.md"
    summary.write_text("Renamed greet in app.py.", encoding="utf-8")
    assert main(["probe", str(session), str(summary)]) == 0
    out = capsys.readouterr().out
    assert "artifact      1.00  1/1 named" in out and "overall       1.00" in out
    assert main(["probe", str(session), str(tmp_path / "missing.md")]) == 1
    assert "cannot be read" in capsys.readouterr().err
