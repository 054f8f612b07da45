"""An edit that puts back exactly what the edit before it changed, the file's content never seen."""

from __future__ import annotations

import pytest

from artifact_index.ingestion.events import Event
from artifact_index.ingestion.events import FileOperation as Op
from artifact_index.trail.tracker import Tracker

from .conftest import Call


def _status(events: list[Event], path: str = "registry/eza.toml") -> str | None:
    file = Tracker(format="claude-code").feed_all(events).file_state(path)
    assert file is not None
    return file.status


def _replace(old: str, new: str, **extra: object) -> Op:
    return Op(action="edit", path="/repo/registry/eza.toml", old=old, new=new, **extra)  # type: ignore[arg-type]


def _patch(minus: str, plus: str, at: str = "@@ -4,3 +4,3 @@") -> Op:
    diff = f'{at}\n   ] }},\n-  {minus}\n+  {plus}\n   "cargo:eza",\n'
    return Op(action="edit", path="/repo/registry/eza.toml", diff=diff, source="patch")


def test_a_replacement_and_its_inverse_put_the_file_back(session: list[Event], call: Call) -> None:
    events = (
        session
        + call(_replace('"asdf:eza"', '"vfox:eza"'))
        + call(_replace('"vfox:eza"', '"asdf:eza"'))
    )
    assert _status(events) == "reverted"


def test_a_patch_and_its_inverse_at_the_same_lines_put_the_file_back(
    session: list[Event], call: Call
) -> None:
    events = (
        session
        + call(_patch('"asdf:eza"', '"vfox:eza"'), tool="apply_patch")
        + call(_patch('"vfox:eza"', '"asdf:eza"'), tool="apply_patch")
    )
    assert _status(events) == "reverted"


def test_inverses_undo_in_order_the_latest_first(session: list[Event], call: Call) -> None:
    events = (
        session
        + call(_replace("one", "two"))
        + call(_replace("alpha", "beta"))
        + call(_replace("beta", "alpha"))
        + call(_replace("two", "one"))
    )
    assert _status(events) == "reverted"
    # Undone out of order, the first edit's inverse does not match the latest edit.
    crossed = session + call(_replace("one", "two")) + call(_replace("alpha", "beta"))
    crossed += call(_replace("two", "one"))
    assert _status(crossed) == "modified"


@pytest.mark.parametrize(
    "second",
    [
        # placed by its context alone: it may apply elsewhere
        _patch('"vfox:eza"', '"asdf:eza"', at="@@"),
        # another line
        _patch('"vfox:eza"', '"asdf:eza"', at="@@ -9,3 +9,3 @@"),
        # every match replaced
        _replace('"vfox:eza"', '"asdf:eza"', replace_all=True),
    ],
)
def test_an_edit_not_placed_exactly_where_the_first_was_keeps_the_file_changed(
    session: list[Event], call: Call, second: Op
) -> None:
    first = (
        _patch('"asdf:eza"', '"vfox:eza"') if second.diff else _replace('"asdf:eza"', '"vfox:eza"')
    )
    events = session + call(first, tool="apply_patch") + call(second, tool="apply_patch")
    assert _status(events) == "modified"


def test_a_first_match_replacement_keeps_the_file_changed(session: list[Event], call: Call) -> None:
    # Cline's SEARCH/REPLACE takes the first "vfox" in the file, which may be an earlier one.
    events = (
        session
        + call(_replace('"asdf:eza"', '"vfox:eza"'), tool="replace_in_file")
        + call(_replace('"vfox:eza"', '"asdf:eza"'), tool="replace_in_file")
    )
    assert _status(events) == "modified"


def test_another_change_between_keeps_the_file_changed(session: list[Event], call: Call) -> None:
    events = (
        session
        + call(_replace('"asdf:eza"', '"vfox:eza"'))
        + call(Op(action="edit", path="/repo/registry/eza.toml", detail="sed -i"), tool="Bash")
        + call(_replace('"vfox:eza"', '"asdf:eza"'))
    )
    assert _status(events) == "modified"


def test_after_a_put_back_the_trail_starts_again(session: list[Event], call: Call) -> None:
    events = (
        session
        + call(_replace("one", "two"))
        + call(Op(action="write", path="/repo/registry/eza.toml", content="x\n"), tool="Write")
        + call(Op(action="restore", path="/repo/registry/eza.toml"), tool="Bash")
        + call(_replace("alpha", "beta"))
        + call(_replace("beta", "alpha"))
    )
    assert _status(events) == "reverted"
