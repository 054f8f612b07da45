"""Done-when: at every Claude Code compaction in the corpus, our offline summary names every changed file.

For each real Claude Code transcript with a compaction boundary, the
summary of the transcript up to that boundary (``--no-llm``,
``--until-compaction N``) must name by path every file the harness recorded
as changed before it.  "Recorded as changed" is read here from the
harness's own records (``toolUseResult`` create/update/structuredPatch and
``file-history-snapshot``, see ``cc_harness``), never from our tracker.
Claude Code's own summaries at the same boundaries name about two thirds.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import pytest

from artifact_index.ingestion.events import CompactionBoundary, Event
from artifact_index.ingestion.loading import Loaded, open_transcript
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.tracker import Tracker
from summarizer.narrative.extractive import ExtractiveWriter
from summarizer.sections.templates import load_template
from summarizer.summary import summarize
from summarizer.summary_commands import events_until_compaction, summary_command
from tests.support.cc_harness import Transcript, harness_changed, names_path, read_transcript


@dataclass(frozen=True)
class Case:
    transcript: Transcript
    number: int  # 1-based compaction boundary
    line: int
    changed: dict[str, str]


@pytest.fixture(scope="module")
def transcripts(corpus_dir: Path) -> list[Transcript]:
    """Every Claude Code transcript of the corpus that has at least one compaction boundary."""
    found = [read_transcript(p) for p in sorted((corpus_dir / "claude_code").glob("*.jsonl.gz"))]
    return [t for t in found if t.boundaries]


@functools.cache
def _loaded_events(path: Path) -> tuple[str, tuple[Event, ...]]:
    loaded: Loaded = open_transcript(path)
    return loaded.adapter.name, tuple(loaded.events())


@pytest.fixture(scope="module")
def cases(transcripts: list[Transcript]) -> list[Case]:
    return [
        Case(t, n, b.line, harness_changed(t, b.line))
        for t in transcripts
        for n, b in enumerate(t.boundaries, start=1)
    ]


@functools.cache
def _until(path: Path, number: int) -> tuple[list[Event], ArtifactIndex]:
    name, events = _loaded_events(path)
    before = events_until_compaction(events, number)
    return before, Tracker(format=name).feed_all(before)


def _summary(case: Case, template: str = "default") -> str:
    before, index = _until(case.transcript.path, case.number)
    return summarize(
        before, template=load_template(template), writer=ExtractiveWriter(), index=index
    ).markdown


def test_the_corpus_has_compactions_with_changed_files(cases: list[Case]) -> None:
    assert len(cases) >= 5
    assert sum(len(c.changed) for c in cases) >= 50


def test_the_adapter_marks_every_compaction_boundary(transcripts: list[Transcript]) -> None:
    for transcript in transcripts:
        _, events = _loaded_events(transcript.path)
        emitted = [e for e in events if isinstance(e, CompactionBoundary) and e.sidechain is None]
        assert [e.line for e in emitted] == [b.line for b in transcript.boundaries], (
            transcript.path.name
        )
        # The compaction summary Claude Code wrote travels with the boundary.
        assert [bool(e.summary) for e in emitted] == [
            bool(b.summary) for b in transcript.boundaries
        ]


@pytest.mark.parametrize("template", ["default", "claude-code"])
def test_offline_summary_names_every_file_changed_before_each_compaction(
    cases: list[Case], template: str
) -> None:
    missing: list[str] = []
    for case in cases:
        markdown = _summary(case, template)
        missing += [
            f"{case.transcript.path.name} compaction {case.number}: {path} ({status})"
            for path, status in sorted(case.changed.items())
            if not names_path(markdown, path)
        ]
    total = sum(len(c.changed) for c in cases)
    assert missing == [], f"{len(missing)} of {total} changed files not named:\n" + "\n".join(
        missing
    )


def test_the_cli_path_gives_the_same_summary(cases: list[Case]) -> None:
    case = max(cases, key=lambda c: len(c.changed))
    via_command = summary_command(
        open_transcript(case.transcript.path), use_llm=False, until_compaction=case.number
    )
    assert via_command.markdown == _summary(case)


def test_names_path_needs_the_whole_path() -> None:
    assert names_path("- `lib/a.ex`: modified", "lib/a.ex")
    assert names_path("edited /home/USER/p/lib/a.ex today", "lib/a.ex")
    assert not names_path("- `lib/a.exs`", "lib/a.ex")
    assert not names_path("- `mylib/a.ex`", "lib/a.ex")
    assert not names_path("- `lib/a.ex.bak`", "lib/a.ex")
    assert names_path("see lib/a.ex.", "lib/a.ex")
