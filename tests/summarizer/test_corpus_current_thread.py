"""At real Claude Code compaction points of the corpus: what the continuing agent read was missing or wrong.

A blind reader, continuing from our summary at these boundaries, found it
said how much each change did but not what; lost what was left of the task
(the tests a tracker item's definition of done asks for, the next item the
epic listed); called a file the session never saw unchanged; contradicted
itself on a moved file; counted a read as a change; gave an investigation
no question, hypothesis or next check; spent its findings on earlier
answers; and left the user's own choice out of the decisions.  Each test
pins one of those, at the boundary where it was found, on the summary
written from everything before it.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from artifact_index.ingestion.loading import open_transcript
from tests.support.cc_harness import read_transcript
from tests.support.continuation_checks import check_point
from tests.support.paths import CORPUS


@pytest.fixture(autouse=True)
def _corpus(corpus_dir: Path) -> None:
    """Skips, saying what is missing, where the corpus is absent (tests/support/paths.py)."""


@functools.cache
def _summary(name: str, number: int = 1) -> str:
    path = CORPUS / "claude_code" / f"{name}.jsonl.gz"
    transcript = read_transcript(path)
    events = list(open_transcript(path).events())
    return check_point(path, transcript, events, number, transcript.boundaries[number - 1]).summary


def _section(summary: str, title: str) -> str:
    return summary.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_each_change_says_what_it_did_by_signature_doc_line_and_test_names() -> None:
    changed = _section(_summary("entire__81e66f80705a_0"), "Files Changed")
    assert (
        "`func filesWithRemainingAgentChanges(repo *git.Repository, shadowBranchName string, "
        in changed
    )
    assert (
        "tests added: `TestFilesWithRemainingAgentChanges_FileNotCommitted`, "
        "`TestFilesWithRemainingAgentChanges_FullyCommitted`"
    ) in changed
    assert "added definition(s)" not in changed


def test_a_file_created_then_moved_reads_the_same_in_every_section() -> None:
    summary = _summary("entire__81e66f80705a_0")
    assert (
        "- `docs/architecture/checkpoint-scenarios.md` (created, then moved here from "
        "`docs/checkpoint-scenarios.md`)"
    ) in _section(summary, "Files Changed")
    assert "1 file(s) created, 3 modified, 0 deleted" in _section(summary, "Current State")


def test_the_users_settled_choice_is_among_the_decisions() -> None:
    decisions = _section(_summary("entire__81e66f80705a_0"), "Decisions Made")
    assert (
        '(turn 40, before the latest request) The user: "No I think this is fine and has to much risk of false positive.'
        in decisions
    )
    assert 'This is fine."' in decisions


def test_a_read_is_not_counted_among_a_files_changes() -> None:
    changed = _section(_summary("entire__b6f735fbac66_0"), "Files Changed")
    # The removal is said by the agent's own account of it; no count of lines that would include the read,
    # and no leftover comment of the removed function shown as the code the change wrote.
    assert changed.startswith(
        "- `cmd/entire/cli/strategy/common.go` (modified): `StageFiles` removed; "
        'the agent (turn 20): "Removed the dead `StageFiles()` function."; turn 17\n'
    )
    assert "latest change (turn 17)" not in changed


def test_an_investigation_states_its_question_latest_conclusion_and_checks_since() -> None:
    steps = _section(_summary("entire__b6f735fbac66_0"), "Next Steps")
    assert steps.startswith("- Answer the open request (turn 102, shown under User Messages): ")
    assert (
        "- Its latest conclusion (turn 121), to confirm or correct: Found it! Look at the Bash commands"
        in steps
    )
    assert "(whole under Findings)" in steps
    assert (
        "(turn 128) The transcript shows the files were modified, but let me check if they're being filtered out "
        "by `FilterAndNormalizePaths`; (turn 134) Let me check the actual order and timestamps of events."
    ) in steps
    assert "Carry on with the latest request" not in steps


def test_findings_are_the_threads_not_the_design_mock_ups_of_earlier_answers() -> None:
    findings = _section(_summary("entire__c08972f3adb1_0"), "Findings")
    assert findings.startswith(
        "- (turn 63) The issue is that `findBranchesForCheckpoint` searches all commits"
    )
    assert "(turn 3)" not in findings and "┌" not in findings


def test_the_tests_a_definition_of_done_asks_for_lead_the_next_steps() -> None:
    steps = _section(_summary("spotter__258c7280-ae70-4798-800f-63464d01a85d"), "Next Steps")
    assert steps.startswith(
        '- Not done yet: "LiveView tests cover close with N>0 and N=0 paths." (the definition of '
        "done of `spotter-gqc.6`); no test file changed since turn 96.\n"
    )


def test_the_agents_own_plan_and_the_item_agree_on_what_is_left_and_no_unseen_file_is_called_unchanged() -> (
    None
):
    summary = _summary("spotter__fa812bfe-b295-4cca-9c2f-fdf01028cb46")
    steps = _section(summary, "Next Steps")
    assert steps.startswith(
        '- Not done yet: "LiveView tests cover PubSub-driven updates for both pages." (the '
        'definition of done of `spotter-a0y.4`; also the agent\'s plan at turn 137: "write tests"); '
        "no test file changed since turn 130.\n"
    )
    # The description's `assets/css/spotter.css` is the `priv/static/assets/spotter.css` the agent changed.
    assert "assets/css/spotter.css" not in summary


def test_the_next_item_the_epic_listed_follows_the_item_in_progress() -> None:
    steps = _section(_summary("spotter__8463c716-a2ea-4c14-9efa-87158ebd9f20"), "Next Steps")
    assert (
        "- Then the next open tracker item(s) (open in the last `bd show spotter-fum`, turn 62): `spotter-fum.4` "
        "(Add regression coverage for renderer metadata"
    ) in steps


def test_a_request_about_this_issue_keeps_the_conclusion_it_refers_to() -> None:
    """ "can we check the whole code base if this is an issue in other places?" follows the bug found at turn 193."""
    findings = _section(_summary("entire__b6f735fbac66_0", 2), "Findings")
    assert findings.startswith("- (turn 193) **Found the actual bug!**")
