"""Every template's summary at every compaction point of the corpus, against its token budget.

    .venv/bin/python benchmarks/summary_budgets.py [--corpus ../shared/corpus] [--details]

At each compaction boundary of the main agent in every corpus transcript
(Claude Code ``compact_boundary`` records, Codex ``compacted`` records, any
format's), the offline summary of everything before it is rendered with each
built-in template; prints, per template, the largest summary in tokens
against the budget, and how many points needed the long texts condensed or
sections cut.  ``tests/summarizer/test_corpus_budgets.py`` asserts the bound.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from summarizer.narrative.extractive import ExtractiveWriter  # noqa: E402
from summarizer.sections.templates import builtin_templates, load_template  # noqa: E402
from summarizer.summary import summarize  # noqa: E402
from tests.support.compaction_points import (  # noqa: E402
    compaction_points,
    transcripts_with_compactions,
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--details", action="store_true", help="one line per point and template")
    args = parser.parse_args()
    templates = {name: load_template(name) for name in builtin_templates()}
    largest = dict.fromkeys(templates, 0)
    condensed = dict.fromkeys(templates, 0)
    points = 0
    for path in transcripts_with_compactions(args.corpus):
        for point in compaction_points(path):
            points += 1
            for name, template in templates.items():
                summary = summarize(
                    point.events, template=template, writer=ExtractiveWriter(), index=point.index
                )
                largest[name] = max(largest[name], summary.tokens)
                cut = "[condensed to fit" in summary.markdown or "to fit the summary's budget]" in (
                    summary.markdown
                )
                condensed[name] += cut
                if args.details:
                    print(
                        f"{path.name}#{point.number} {name}: {summary.tokens}/{template.budget_tokens}"
                        f" detail {summary.detail}{' (condensed or cut)' if cut else ''}"
                    )
    print(f"{points} compaction points")
    for name, template in templates.items():
        print(
            f"{name:12} max {largest[name]:5} / budget {template.budget_tokens} tokens; "
            f"{condensed[name]} point(s) condensed or cut"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
