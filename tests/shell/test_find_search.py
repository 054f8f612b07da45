"""`find DIR -name PATTERN -exec CMD {}`: CMD runs on each known file the search matches."""

from __future__ import annotations

from pathlib import Path

import pytest

from artifact_index.trail.build import build_index
from artifact_index.trail.session_report import session_report
from tests.trail.tracker.claude_bash import changed, transcript

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
        ("unknown", None),  # and those the trail does not know
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
    assert effects(analyze(command, files=KNOWN)) == [
        *(("edit", path) for path in edited),
        ("unknown", None),
    ]


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


def test_a_search_that_only_reads_claims_nothing() -> None:
    assert effects(analyze("find t/arts -name '*.yml' -exec grep -l old {} +", files=KNOWN)) == []


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
    assert files == {"t/arts/dup.yml": "modified"}
    assert [detail for _, detail in unknown] == [
        "find code writes the files its search under /repo/t/arts matches (`sed -i`), at paths"
        " computed at run time"
    ]


def test_a_file_first_read_after_a_find_exec_sed_may_have_been_changed_by_it(
    tmp_path: Path,
) -> None:
    arts = "/repo/t/arts"
    path = tmp_path / "session.jsonl"
    path.write_text(
        transcript(
            "/repo",
            [
                (f"cat {arts}/dup.yml", "  - name: datadog_sli\n"),
                (f"find {arts} -name \"*.yml\" -exec sed -i 's/datadog_sli/slo/g' {{}} \\;", ""),
                (f"cat {arts}/names.yml", "  - name: slo\n"),
                (f"cat {arts}/notes.txt", "slo\n"),
                ("cat /repo/t/other/names.yml", "  - name: slo\n"),
            ],
        ),
        encoding="utf-8",
    )
    index, _ = build_index(path)
    report = session_report(index)
    maybe = {f.path: f.maybe_changed_by for f in report.read}
    assert maybe["t/arts/notes.txt"] is None
    assert maybe["t/other/names.yml"] is None  # outside the folder searched
    effect = maybe["t/arts/names.yml"]
    assert effect is not None and effect.command is not None and "find" in effect.command
