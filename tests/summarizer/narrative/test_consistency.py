"""Narrative claims the index contradicts are flagged in the rendered summary, never passed through.

The bug-fix fixture: ``auth/config.py`` was only read (its edit failed),
``auth/service.py`` existed and was modified, ``auth/retry.py`` was
created, and the last test run (the integration suite) failed.
"""

from __future__ import annotations

import pytest

from artifact_index.ingestion.loading import load_events as load_transcript
from summarizer.narrative.consistency import contradictions, still_failing
from summarizer.narrative.extractive import ExtractiveWriter
from summarizer.sections.index_sections import render_index_section
from summarizer.sections.templates import load_template
from summarizer.summary import parse_previous, summarize
from summarizer.summary_commands import events_until_compaction
from tests.support.summary_fixtures import SUMMARIES, ScriptedWriter, load_events, reply

DEFAULT = load_template("default")
EVENTS = load_events("bugfix")
FACTS = summarize(EVENTS, template=DEFAULT, writer=ExtractiveWriter(), format="fixture").facts


def _rendered_line(markdown: str, text: str) -> str:
    return next(line for line in markdown.splitlines() if line.startswith(f"- {text}"))


def test_contradicted_claims_are_flagged_in_the_rendered_summary() -> None:
    writer = ScriptedWriter(
        [
            reply(
                {
                    "decisions": ["Raised TOKEN_TTL to 7200 by editing auth/config.py"],
                    "current_state": [
                        "Created auth/service.py with the corrected expiry check",
                        "All tests pass now",
                    ],
                    "next_steps": ["Ship it"],
                }
            )
        ]
    )
    markdown = summarize(EVENTS, template=DEFAULT, writer=writer, format="fixture").markdown
    assert _rendered_line(markdown, "Raised TOKEN_TTL") == (
        "- Raised TOKEN_TTL to 7200 by editing auth/config.py ⚠ [index: `auth/config.py` was only read, "
        "never changed]"
    )
    assert _rendered_line(markdown, "Created auth/service.py") == (
        "- Created auth/service.py with the corrected expiry check ⚠ [index: `auth/service.py` existed "
        "before: it was modified, not created]"
    )
    assert _rendered_line(markdown, "All tests pass now") == (
        "- All tests pass now ⚠ [index: the last run of `python -m pytest tests/integration -q` (turn 5) "
        "had 1 failing]"
    )
    assert _rendered_line(markdown, "Ship it") == "- Ship it"


@pytest.mark.parametrize(
    "claim",
    [
        "Modified auth/config.py to raise the TTL",
        "Updated `auth/config.py`",
        "Fixed the TTL in /repo/auth/config.py",
    ],
)
def test_a_change_claimed_for_a_read_only_file_is_flagged(claim: str) -> None:
    assert any("was only read, never changed" in flag for flag in contradictions(claim, FACTS))


@pytest.mark.parametrize("claim", ["Deleted config.py", "Modified other/auth/config.py"])
def test_a_name_the_index_does_not_know_exactly_is_not_flagged_as_only_read(claim: str) -> None:
    # A bare name, or a path that only ends like a read file's, may be another file (in a worktree, a
    # sub-agent's): a flag there is a guess that contradicts the text.
    assert not any("was only read" in flag for flag in contradictions(claim, FACTS))


@pytest.mark.parametrize("claim", ["Created auth/service.py", "Added a new file auth/service.py"])
def test_a_creation_claimed_for_a_file_that_existed_is_flagged(claim: str) -> None:
    assert contradictions(claim, FACTS) == [
        "`auth/service.py` existed before: it was modified, not created"
    ]


@pytest.mark.parametrize(
    "claim",
    [
        "All tests pass",
        "The test suite is green",
        "Tests are passing",
        "Everything is passing",
        "The login fix is done",
    ],
)
def test_success_claimed_while_the_last_run_failed_is_flagged(claim: str) -> None:
    assert contradictions(claim, FACTS) == [
        "the last run of `python -m pytest tests/integration -q` (turn 5) had 1 failing"
    ]


@pytest.mark.parametrize(
    "claim",
    [
        "Read auth/config.py and modified auth/service.py",  # the change verb belongs to service.py
        "Created auth/retry.py with with_retry",
        "Deleted auth/legacy_auth.py",
        "2 tests pass, 1 fails in tests/integration",  # reports the failure
        "Looked at auth/config.py",
        "Redis is not running",
    ],
)
def test_claims_the_index_supports_are_not_flagged(claim: str) -> None:
    assert contradictions(claim, FACTS) == []


def test_a_change_to_a_path_the_index_never_saw_is_flagged() -> None:
    assert contradictions("Updated docs/auth.md with the new TTL", FACTS) == [
        "no change to `docs/auth.md` was recorded"
    ]


@pytest.mark.parametrize(
    "claim",
    [
        # A web address is a page, not a file: merged at https://… names no path of the session.
        "PR #272 was merged by the user (https://github.com/o/r/pull/272) with the fixed budget",
        # A verb inside a quoted path is not the prose's claim ("update" in the folder's name).
        "The committed `specs/flutter-version-update/spec.md` still specifies the text parse",
        "`docs/update-notes/ttl.md` describes the old TTL",
    ],
)
def test_addresses_and_verbs_inside_quoted_paths_are_not_claims_of_change(claim: str) -> None:
    assert contradictions(claim, FACTS) == []


def test_a_change_claimed_in_the_prose_beside_a_quoted_path_is_still_checked() -> None:
    assert contradictions("Updated `docs/auth.md` (see https://example.com/ttl)", FACTS) == [
        "no change to `docs/auth.md` was recorded"
    ]


def test_a_later_larger_passing_run_clears_an_earlier_narrow_failure() -> None:
    events = load_transcript(SUMMARIES / "cc_two_compactions.jsonl")
    facts = summarize(
        events, template=DEFAULT, writer=ExtractiveWriter(), format="claude-code"
    ).facts
    assert [t.command for t in facts.tests] == [
        "python -m pytest -q tests/test_tags.py",
        "rm scratch.py && python -m pytest -q",
    ]
    assert still_failing(facts) == []
    # The narrow failure is gone; what remains is that notes/cli.py changed (turn 11) after the passing run.
    assert contradictions("All tests pass", facts) == [
        "1 file(s) changed after the last test run (turn 9) are not yet tested"
    ]
    before = summarize(
        events_until_compaction(events, 1),
        template=DEFAULT,
        writer=ExtractiveWriter(),
        format="claude-code",
    ).facts
    assert [t.command for t in still_failing(before)] == ["python -m pytest -q tests/test_tags.py"]


def test_flags_are_recomputed_against_the_index_on_every_cycle() -> None:
    events = load_transcript(SUMMARIES / "cc_two_compactions.jsonl")
    writer = ScriptedWriter(
        [reply({"current_state": ["Updated notes/cli.py to print tags"]}), reply({})]
    )
    first = summarize(
        events_until_compaction(events, 1), template=DEFAULT, writer=writer, format="claude-code"
    )
    assert (
        "- Updated notes/cli.py to print tags ⚠ [index: `notes/cli.py` was only read, never changed]"
        in (first.markdown)
    )
    # By the second compaction the edit happened: the same item is no longer contradicted.
    second = summarize(
        events_until_compaction(events, 2),
        template=DEFAULT,
        writer=writer,
        format="claude-code",
        previous=parse_previous(first.markdown, DEFAULT),
    )
    assert "- Updated notes/cli.py to print tags\n" in second.markdown
    assert "⚠" not in second.markdown


def test_the_agents_last_message_quoted_where_it_stopped_is_checked_too() -> None:
    facts = FACTS.model_copy(
        update={
            "last_assistant": FACTS.last_assistant.model_copy(  # type: ignore[union-attr]
                update={"text": "I updated auth/config.py and all tests pass."}
            )
        }
    )
    stopped = render_index_section("last_activity", facts)
    assert "I updated auth/config.py and all tests pass." in stopped
    assert (
        "⚠ [index: `auth/config.py` was only read, never changed; the last run of "
        "`python -m pytest tests/integration -q` (turn 5) had 1 failing]"
    ) in stopped


def test_requests_and_plans_are_not_checked_as_claims() -> None:
    writer = ScriptedWriter(
        [
            reply(
                {
                    "intent": ["Raise the TTL in auth/config.py"],
                    "next_steps": ["Update docs/auth.md", "Make all tests pass"],
                    "current_state": ["Updated docs/auth.md"],
                }
            )
        ]
    )
    markdown = summarize(EVENTS, template=DEFAULT, writer=writer, format="fixture").markdown
    assert "- Raise the TTL in auth/config.py\n" in markdown
    assert "- Update docs/auth.md\n- Make all tests pass\n" in markdown
    assert "- Updated docs/auth.md ⚠ [index: no change to `docs/auth.md` was recorded]" in markdown


def test_a_file_called_not_yet_edited_that_the_index_saw_changed_is_flagged_in_every_section() -> (
    None
):
    """An earlier cycle's "not yet edited", repeated after the edit came, is stale: flagged, even as a to-do."""
    writer = ScriptedWriter(
        [
            reply(
                {
                    "current_state": [
                        "auth/service.py NOT YET EDITED",
                        "auth/config.py is unchanged",
                    ],
                    "next_steps": ["Edit auth/service.py (not yet edited) to fix the expiry check"],
                }
            )
        ]
    )
    markdown = summarize(EVENTS, template=DEFAULT, writer=writer, format="fixture").markdown
    assert (
        "- auth/service.py NOT YET EDITED ⚠ [index: `auth/service.py` was changed, last at turn"
        in (markdown)
    )
    assert (
        "- Edit auth/service.py (not yet edited) to fix the expiry check ⚠ [index: `auth/service.py` was "
        in (markdown)
    )
    # Only read, so "unchanged" is true: neither flagged as changed nor as "only read, never changed".
    assert (
        _rendered_line(markdown, "auth/config.py is unchanged") == "- auth/config.py is unchanged"
    )
