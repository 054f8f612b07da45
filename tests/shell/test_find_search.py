"""`find DIR -name PATTERN -exec CMD {}`: CMD runs on each known file the search matches."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.trail.tracker.claude_bash import changed

from .helpers import analyze, effects

KNOWN: dict[str, str | None] = {
    "/w/t/arts/dup.yml": "name: old\n",
    "/w/t/arts/deep/more.yml": "name: old\n",
    "/w/t/arts/notes.txt": "old\n",
    "/w/src/app.yml": "name: old\n",
}


def test_a_sed_run_by_find_edits_each_known_file_the_search_matches() -> None:
    command = "find t/arts -name \"*.yml\" -exec sed -i '' 's/name: old/name: new/g' {} \\;"
    assert effects(analyze(command, files=KNOWN)) == [
        ("edit", "t/arts/deep/more.yml"),
        ("edit", "t/arts/dup.yml"),
    ]


@pytest.mark.parametrize(
    ("tests", "edited"),
    [
        ("-maxdepth 1 -type f -name '*.yml'", ["t/arts/dup.yml"]),
        ("-iname 'DUP.YML'", ["t/arts/dup.yml"]),
        ("-type f", ["t/arts/deep/more.yml", "t/arts/dup.yml", "t/arts/notes.txt"]),
    ],
)
def test_the_search_s_tests_choose_the_files(tests: str, edited: list[str]) -> None:
    command = f"find /w/t/arts {tests} -exec sed -i 's/old/new/' {{}} +"
    assert effects(analyze(command, files=KNOWN)) == [("edit", path) for path in edited]


@pytest.mark.parametrize(
    "tests",
    ["-newer t/arts/dup.yml -name '*.yml'", "-name '*.yml' -o -name '*.txt'", "! -name '*.txt'"],
)
def test_a_search_with_a_test_not_modelled_names_no_file(tests: str) -> None:
    command = f"find t/arts {tests} -exec sed -i 's/old/new/' {{}} \\;"
    assert effects(analyze(command, files=KNOWN)) == [("unknown", None)]


def test_a_search_that_matches_no_known_file_leaves_the_effect_unknown() -> None:
    command = "find t/arts -name '*.json' -exec rm {} \\;"
    assert effects(analyze(command, files=KNOWN)) == [("unknown", None)]


def test_a_session_s_yaml_files_edited_by_find_exec_sed_are_modified(tmp_path: Path) -> None:
    arts = "/repo/t/arts"
    files, unknown = changed(
        tmp_path,
        "/repo",
        [
            (f"cat {arts}/dup.yml", "  - name: datadog_sli\n"),
            (f"cat {arts}/README.md", "# fixtures\n"),
            (
                f"find {arts} -name \"*.yml\" -exec sed -i '' 's/name: datadog_sli/name: slo/g' {{}} \\;",
                "",
            ),
        ],
    )
    assert (files, unknown) == ({"t/arts/dup.yml": "modified"}, [])
