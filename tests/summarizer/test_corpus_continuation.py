"""Done-when: at every Claude Code compaction of the corpus, the default summary is one an agent can continue from.

At each real boundary, our default offline summary of everything before it
must hold the person's latest message whole and every piece of feedback
they typed when refusing a tool call; it must show no error as open that a
later passing run of the same command, or a later successful commit after
a failed one, covered; and it must be no longer than half as long again
as Claude Code's own summary written at that boundary, in characters and
in tokens (``LONGER_THAN_OWN``), besides its template's hard budget.  Work in
flight must read as such: a file edited after the last test run is called
untested (and nothing is "None open" then), and a ``bd`` item set in
progress and not closed is shown in progress, finishing it a next step.
What the person typed, edited and ran are read from Claude Code's records
(``cc_harness``), never through our adapters.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from artifact_index.ingestion.loading import open_transcript
from tests.support.cc_harness import Transcript, read_transcript
from tests.support.continuation_checks import PointReport, check_point
from tests.support.paths import CORPUS


def _points() -> list[tuple[Path, int]]:
    if not CORPUS.exists():
        return []
    return [
        (path, number)
        for path in sorted((CORPUS / "claude_code").glob("*.jsonl.gz"))
        for number in range(1, len(_transcript(path).boundaries) + 1)
    ]


@functools.cache
def _transcript(path: Path) -> Transcript:
    return read_transcript(path)


@functools.cache
def _report(path: Path, number: int) -> PointReport:
    transcript = _transcript(path)
    events = list(open_transcript(path).events())
    return check_point(path, transcript, events, number, transcript.boundaries[number - 1])


POINTS = _points()


@pytest.fixture(autouse=True)
def _corpus(corpus_dir: Path) -> None:
    """Skips, saying what is missing, where the corpus is absent (tests/support/paths.py)."""


def test_the_corpus_has_compaction_points() -> None:
    assert len(POINTS) >= 10, "expected the corpus's Claude Code compaction boundaries"


@pytest.mark.parametrize(
    ("path", "number"), POINTS, ids=[f"{p.name.split('.')[0]}#{n}" for p, n in POINTS]
)
def test_the_latest_user_message_is_whole(path: Path, number: int) -> None:
    report = _report(path, number)
    assert report.latest is not None and report.latest_whole, report.latest


@pytest.mark.parametrize(
    ("path", "number"), POINTS, ids=[f"{p.name.split('.')[0]}#{n}" for p, n in POINTS]
)
def test_every_refusal_feedback_is_kept(path: Path, number: int) -> None:
    assert _report(path, number).feedback_missing == []


@pytest.mark.parametrize(
    ("path", "number"), POINTS, ids=[f"{p.name.split('.')[0]}#{n}" for p, n in POINTS]
)
def test_no_error_shown_open_was_covered_by_a_later_pass_or_commit(path: Path, number: int) -> None:
    assert _report(path, number).stale_open == []


@pytest.mark.parametrize(
    ("path", "number"), POINTS, ids=[f"{p.name.split('.')[0]}#{n}" for p, n in POINTS]
)
def test_the_summary_is_at_most_half_as_long_again_as_claude_codes_own(
    path: Path, number: int
) -> None:
    report = _report(path, number)
    assert report.cc_chars > 0
    assert report.within_cc, (
        f"ours {report.chars} chars / {report.tokens} tokens, Claude Code's {report.cc_chars} / {report.cc_tokens}"
    )


@pytest.mark.parametrize(
    ("path", "number"), POINTS, ids=[f"{p.name.split('.')[0]}#{n}" for p, n in POINTS]
)
def test_files_edited_after_the_last_test_run_are_called_untested(path: Path, number: int) -> None:
    report = _report(path, number)
    assert report.untested_missing == []
    assert not (report.untested and report.says_none_open)


@pytest.mark.parametrize(
    ("path", "number"), POINTS, ids=[f"{p.name.split('.')[0]}#{n}" for p, n in POINTS]
)
def test_a_tracker_item_in_progress_is_shown_in_progress_and_finishing_it_is_a_next_step(
    path: Path, number: int
) -> None:
    assert _report(path, number).in_progress_missing == []


def test_the_corpus_has_points_with_untested_edits_and_items_in_progress() -> None:
    """The two checks above are not vacuous: the corpus's boundaries fall in the middle of such work."""
    reports = [_report(path, number) for path, number in POINTS]
    assert sum(1 for r in reports if r.untested) >= 5
    assert sum(1 for r in reports if r.in_progress) >= 3


def test_feedback_typed_when_refusing_a_commit_reaches_the_summary() -> None:
    """The one real refusal with feedback before a boundary: the person stopped a commit they had not asked for."""
    report = _report(CORPUS / "claude_code" / "entire__b6f735fbac66_0.jsonl.gz", 2)
    assert report.feedback == 1
    assert (
        "(turn 216, feedback when refusing a call) no, I did not say commit anything"
        in report.summary
    )
