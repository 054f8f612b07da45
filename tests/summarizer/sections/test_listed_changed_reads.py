"""A file only read that `git status` or `git diff` lists as changed is not said "read (unchanged)".

Hand-written sessions: a fixer script the trail cannot follow rewrites a
file the agent only read, and ``git diff --name-only HEAD`` then lists it.
The hook says what the listing showed, not that the file is unchanged.  A
file the listing leaves out stays a plain read.
"""

from __future__ import annotations

import pytest

from artifact_index.ingestion.events import Event, SessionInfo
from artifact_index.trail.answers import FileReport
from artifact_index.trail.tracker import Tracker
from summarizer.integrations.hooks import file_trail_context
from summarizer.sections.file_lists import read_files
from summarizer.sections.index_sections import MAX_DETAIL
from summarizer.sections.session_facts import session_facts
from tests.support.session_steps import ROOT, read, shell


def _reads(*steps: list[Event]) -> str:
    events: list[Event] = [SessionInfo(turn=0, cwd=ROOT)]
    for step in steps:
        events += step
    hook = file_trail_context(session_facts(Tracker(format="claude-code").feed_all(events)))
    title = "## Files read (unchanged)\n"
    return hook.split(title, 1)[1].split("\n## ", 1)[0] if title in hook else ""


def test_a_read_file_a_git_diff_lists_as_changed_is_said_with_that_listing() -> None:
    reads = _reads(
        read(1, "R/taxonomy.R", "f <- function(x) x\n"),
        read(1, "R/plots.R", "g <- function(x) x\n"),
        shell(2, "Rscript tools/auto-fixers.R fix_format .", '{"applied":true}'),
        shell(3, "git diff --name-only HEAD", "R/taxonomy.R\n"),
    )
    line = next(line for line in reads.splitlines() if "R/taxonomy.R" in line)
    assert line.startswith(
        "- read, but `git diff --name-only HEAD` (turn 3) listed them as changed"
    )
    assert "R/plots.R" not in line
    assert "- `R/plots.R`" in reads


def test_a_git_status_that_lists_the_read_file_in_its_long_form_counts_too() -> None:
    status = (
        "On branch main\nChanges not staged for commit:\n"
        "\tmodified:   lib/worker.ts\n\nno changes added to commit\n"
    )
    reads = _reads(read(1, "lib/worker.ts", "export {}\n"), shell(2, "git status", status))
    assert "`git status` (turn 2) listed them as changed" in reads
    assert "- `lib/worker.ts`\n" not in reads + "\n"


def test_a_read_file_no_listing_names_stays_unchanged() -> None:
    reads = _reads(
        read(1, "lib/worker.ts", "export {}\n"),
        shell(2, "git status", "On branch main\nnothing to commit, working tree clean\n"),
    )
    assert reads.strip() == "- `lib/worker.ts`"


def test_taking_apart_many_listed_reads_does_not_compare_every_file_with_every_other(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A long session reads thousands of files: comparing each with every one set apart (a model's
    # equality walks its fields) made this rendering quadratic, seconds at 100 MB.
    events: list[Event] = [SessionInfo(turn=0, cwd=ROOT)]
    for n in range(300):
        events += read(1, f"src/module_{n}.py", "x = 1\n")
    facts = session_facts(Tracker(format="claude-code").feed_all(events))
    listed = (2, "git status")
    facts = facts.model_copy(
        update={
            "read": [
                f.model_copy(update={"listed_changed_by": listed}) if n % 2 else f
                for n, f in enumerate(facts.read)
            ]
        }
    )
    compared: list[object] = []
    equal = FileReport.__eq__

    def counted(self: FileReport, other: object) -> bool:
        compared.append(other)
        return equal(self, other)

    monkeypatch.setattr(FileReport, "__eq__", counted)
    body = read_files(facts, MAX_DETAIL)
    # Naming the few files shown compares each with those; setting the listed ones apart compared each
    # with all of them (tens of thousands here).
    assert len(compared) <= 2 * len(facts.read)
    assert "`git status` (turn 2) listed them as changed" in body
