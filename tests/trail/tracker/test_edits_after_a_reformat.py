"""An edit after a formatter rewrote the file is placed in its definition by the text last known."""

from __future__ import annotations

from artifact_index.ingestion.events import Event, SessionInfo
from artifact_index.trail.tracker import Tracker
from tests.support.session_steps import ROOT, edit, read, shell

SOURCE = """def compute(rows):
    row = {
        "a": 1,
        "b": 2,
    }
    return row


def table(rows):
    lines = ["| a | b |"]
    return lines
"""


def _changed(*steps: list[Event]) -> dict[str, str]:
    events: list[Event] = [SessionInfo(turn=0, cwd=ROOT)]
    for step in steps:
        events += step
    index = Tracker(format="claude-code").feed_all(events)
    return {s.name: s.change for s in index.symbols().get("calc.py", []) if s.change != "read"}


def test_an_edit_inside_a_definition_after_a_reformat_names_that_definition() -> None:
    path = f"{ROOT}/calc.py"
    changed = _changed(
        read(1, path, SOURCE),
        shell(2, "ruff format calc.py", "1 file reformatted\n"),
        edit(3, path, '        "b": 2,\n    }', '        "b": 2,\n        "c": 3,\n    }'),
        edit(4, path, '    lines = ["| a | b |"]', '    lines = ["| a | b | c |"]'),
    )
    assert changed == {"compute": "modified", "table": "modified"}


def test_an_edit_whose_text_the_last_known_content_lacks_is_not_placed() -> None:
    path = f"{ROOT}/calc.py"
    changed = _changed(
        read(1, path, SOURCE),
        shell(2, "ruff format calc.py", "1 file reformatted\n"),
        edit(3, path, "    x = 1\n", "    x = 2\n"),
    )
    assert changed == {}
