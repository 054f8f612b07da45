"""Places a search listed, said once under their common folder when they have one."""

from __future__ import annotations

from summarizer.sections.search_matches import in_common_folder


def test_places_under_one_folder_are_said_relative_to_it() -> None:
    assert in_common_folder(["src/a/x.py", "src/a/y.py"]) == ("src/a", ["x.py", "y.py"])


def test_workspace_and_outside_places_share_no_folder() -> None:
    places = ["notes/plan.md", "/home/user/data/run.log"]
    assert in_common_folder(places) == ("", places)


def test_one_place_has_no_folder_to_factor_out() -> None:
    assert in_common_folder(["src/a/x.py"]) == ("", ["src/a/x.py"])
