"""Every built-in template's summary is within its budget at every compaction point of the corpus.

The points are where each session's main agent compacted its context, in
every format the corpus holds (see ``tests/support/compaction_points.py``);
the summary is the offline one of everything before the point.  The bound
is the template's own budget: a summary replaces the context it summarizes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from summarizer.narrative.extractive import ExtractiveWriter
from summarizer.sections.templates import builtin_templates, load_template
from summarizer.summary import summarize
from tests.support.compaction_points import compaction_points, transcripts_with_compactions
from tests.support.paths import CORPUS

TRANSCRIPTS = transcripts_with_compactions(CORPUS) if (CORPUS / "MANIFEST.tsv").exists() else []


@pytest.fixture(autouse=True)
def _corpus(corpus_dir: Path) -> None:
    """Skips, saying what is missing, where the corpus is absent (tests/support/paths.py)."""


def test_the_corpus_has_compaction_points() -> None:
    assert sum(1 for path in TRANSCRIPTS for _ in compaction_points(path)) >= 10


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=[p.name.split(".")[0] for p in TRANSCRIPTS])
def test_every_template_is_within_its_budget_at_every_compaction_point(path: Path) -> None:
    over = []
    for point in compaction_points(path):
        for name in builtin_templates():
            template = load_template(name)
            summary = summarize(
                point.events, template=template, writer=ExtractiveWriter(), index=point.index
            )
            if summary.tokens > template.budget_tokens:
                over.append(f"#{point.number} {name}: {summary.tokens} > {template.budget_tokens}")
    assert over == []
