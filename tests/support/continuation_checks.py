"""What an agent continuing after a compaction needs from a summary, checked at a real Claude Code boundary.

Shared by ``test_corpus_continuation.py`` and ``benchmarks/continuation_counts.py``.
At one compaction point of a corpus transcript, :func:`check_point` writes
our default offline summary of everything before the boundary and reports:

* whether the person's latest message before the boundary is in it whole
  (every word, in order; line breaks may differ);
* which feedback messages (typed when refusing a tool call) are missing;
* which errors it shows as open although a later run of the same command
  succeeded without printing them again, or a later ``git commit`` succeeded
  after a commit that failed on them;
* its length beside Claude Code's own summary at that boundary (at most :data:`LONGER_THAN_OWN` times it);
* which files the agent edited after its last test run that the summary
  does not call untested ("Not ... tested by any run seen since their last change"),
  and whether it then says nothing is pending ("None open");
* which ``bd`` items the agent set in progress and had not closed that the
  summary does not show in progress, with finishing them as a next step.

What the person typed and what ran are read from Claude Code's own records
(:mod:`cc_harness`), not through the project's adapters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from artifact_index.facts.errors.test_results import parse_test_run
from artifact_index.ingestion.events import Event
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.tracker import Tracker
from summarizer.narrative.extractive import ExtractiveWriter
from summarizer.sections.templates import load_template
from summarizer.summary import summarize
from summarizer.summary_commands import events_until_compaction
from summarizer.tokens import count_tokens
from tests.support.cc_harness import (
    Boundary,
    ShellRun,
    Transcript,
    main_agent_edits,
    shell_runs,
    typed_messages,
)

__all__ = [
    "LONGER_THAN_OWN",
    "PointReport",
    "check_point",
    "items_in_progress",
    "stale_open_errors",
    "untested_edits",
    "words",
]


# How much longer than Claude Code's own summary at the same boundary ours may be.  Readers rated the own
# summary followed by our hook's facts best on the artifact trail; that pair runs 1.2 to 1.6 times the own
# summary at the corpus's points.  The extra goes to what changed in each file and the key code of the
# latest changes; the template's budget stays the bound whatever the session.
LONGER_THAN_OWN = 1.5


def words(text: str) -> str:
    return " ".join(text.split())


@dataclass(frozen=True)
class PointReport:
    name: str  # "transcript #n"
    summary: str
    latest: str | None  # the person's latest message before the boundary
    latest_whole: bool
    feedback: int
    feedback_missing: list[str]
    open_errors: int
    stale_open: list[str]
    chars: int
    tokens: int
    cc_chars: int
    cc_tokens: int
    untested: list[str]  # files edited after the last test run
    untested_missing: list[str]  # of those, the ones the summary does not call untested
    says_none_open: bool
    in_progress: list[str]  # bd items set in progress and not closed
    in_progress_missing: list[
        str
    ]  # of those, the ones the summary does not show in progress and to finish

    @property
    def within_cc(self) -> bool:
        return (
            self.chars <= LONGER_THAN_OWN * self.cc_chars
            and self.tokens <= LONGER_THAN_OWN * self.cc_tokens
        )


def _passed(run: ShellRun) -> bool:
    if run.failed:
        return False
    tests = parse_test_run(run.output, run.command)
    return tests is None or tests.outcome == "passed"


def stale_open_errors(index: ArtifactIndex, runs: list[ShellRun]) -> list[str]:
    """Open errors a later passing run of the same command, or a later successful commit, covered."""
    position = {run.call_id: n for n, run in enumerate(runs)}
    stale = []
    for entry in index.ledger.open_errors:
        at = position.get(entry.last_call_id or "")
        if at is None:
            continue
        raised = {words(c) for c in entry.commands}
        for later in runs[at + 1 :]:
            same = (
                words(later.command) in raised and entry.message.splitlines()[0] not in later.output
            )
            commit = any("git commit" in c for c in raised) and "git commit" in later.command
            if _passed(later) and (same or commit):
                stale.append(
                    f"{entry.message.splitlines()[0][:100]} (open; line {later.line} "
                    f"`{words(later.command)[:60]}` passed)"
                )
                break
    return stale


# Test runners written the way the corpus's agents run them; independent of the project's check recognizer.
_TEST_RUN = re.compile(
    r"\b(?:pytest|go test|mix test|cargo test|npm test|npx (?:jest|vitest)|rspec|"
    r"mise run test|make test|bun test)\b"
)
_PROSE = (".md", ".txt", ".rst")


def untested_edits(transcript: Transcript, before_line: int) -> list[str]:
    """Files of the workspace the main agent edited after its last test run (none when it ran no test)."""
    runs = [
        run.line for run in shell_runs(transcript, before_line) if _TEST_RUN.search(run.command)
    ]
    if not runs:
        return []
    return sorted(
        {
            edit.path
            for edit in main_agent_edits(transcript, before_line)
            if edit.line > runs[-1]
            and not edit.path.startswith("/")
            and not edit.path.endswith(_PROSE)
        }
    )


def items_in_progress(transcript: Transcript, before_line: int) -> list[str]:
    """``bd`` items a successful ``bd update X --status in_progress`` started and no ``bd close`` closed."""
    started: dict[str, None] = {}
    for run in shell_runs(transcript, before_line):
        if run.failed:
            continue
        for found in re.finditer(
            r"\bbd update ([\w.-]+)[^;&|\n]*--status[= ]in_progress", run.command
        ):
            started[found.group(1)] = None
        for found in re.finditer(r"\bbd close ((?:[\w.-]+ ?)+)", run.command):
            for item in found.group(1).split():
                started.pop(item, None)
    return list(started)


def _section(markdown: str, title: str) -> str:
    return (
        markdown.split(f"## {title}\n", 1)[-1].split("\n## ", 1)[0]
        if f"## {title}\n" in markdown
        else ""
    )


def check_point(
    path: Path, transcript: Transcript, events: list[Event], number: int, boundary: Boundary
) -> PointReport:
    before = events_until_compaction(events, number)
    index = Tracker(format="claude-code").feed_all(before)
    markdown = summarize(
        before, template=load_template("default"), writer=ExtractiveWriter(), index=index
    ).markdown
    flat = words(markdown)
    typed = typed_messages(transcript, boundary.line)
    latest = typed[-1].text if typed else None
    feedback = [m.text for m in typed if m.kind == "feedback"]
    untested = untested_edits(transcript, boundary.line)
    said_untested = [
        line
        for line in _section(markdown, "Test Status").splitlines()
        if line.startswith("- Not ") and "tested by any run seen" in line
    ]
    in_progress = items_in_progress(transcript, boundary.line)
    pending, steps = _section(markdown, "Pending Tasks"), _section(markdown, "Next Steps")
    return PointReport(
        name=f"{path.name} #{number}",
        summary=markdown,
        latest=latest,
        latest_whole=latest is None or words(latest) in flat,
        feedback=len(feedback),
        feedback_missing=[f for f in feedback if words(f) not in flat],
        open_errors=len(index.ledger.open_errors),
        stale_open=stale_open_errors(index, shell_runs(transcript, boundary.line)),
        chars=len(markdown),
        tokens=count_tokens(markdown),
        cc_chars=len(boundary.summary),
        cc_tokens=count_tokens(boundary.summary),
        untested=untested,
        untested_missing=[
            p for p in untested if not any(f"`{p}`" in line for line in said_untested)
        ],
        says_none_open="None open" in markdown,
        in_progress=in_progress,
        in_progress_missing=[
            item
            for item in in_progress
            if f"[in progress] `{item}`" not in pending or f"Finish `{item}`" not in steps
        ],
    )
