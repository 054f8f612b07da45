"""Probe scores of Claude Code's own compaction summaries against ours, at every compaction in the corpus.

    python benchmarks/probe_compare.py [--corpus ../shared/corpus]

For each main-chain compaction boundary of each Claude Code transcript, the
index of the transcript up to that boundary answers the probes; Claude Code's
summary (kept at the boundary) and our offline summary of the same span are
scored on them.  Prints the mean score per probe kind.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

from artifact_index.ingestion.events import CompactionBoundary
from artifact_index.ingestion.loading import load_events
from artifact_index.trail.tracker import Tracker
from summarizer.evaluation.probes import probe_summary
from summarizer.narrative.extractive import ExtractiveWriter
from summarizer.sections.session_facts import session_facts
from summarizer.sections.templates import load_template
from summarizer.summary import summarize

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    args = parser.parse_args()
    template = load_template("default")
    scores: dict[str, dict[str, list[float]]] = {
        "claude-code": defaultdict(list),
        "ours": defaultdict(list),
    }
    boundaries = 0
    for path in sorted(Path(args.corpus, "claude_code").glob("*.gz")):
        events = load_events(path)
        for position, event in enumerate(events):
            if (
                not isinstance(event, CompactionBoundary)
                or event.sidechain is not None
                or not event.summary
            ):
                continue
            boundaries += 1
            before = events[:position]
            index = Tracker(format="claude-code").feed_all(before)
            facts = session_facts(index)
            ours = summarize(
                before, template=template, writer=ExtractiveWriter(), index=index
            ).markdown
            for name, text in (("claude-code", event.summary), ("ours", ours)):
                for probe in probe_summary(text, facts).probes:
                    if probe.expected:
                        scores[name][probe.kind].append(probe.score)
    print(f"{boundaries} compactions")
    kinds = sorted({k for s in scores.values() for k in s})
    print(f"{'probe':13} " + " ".join(f"{name:>12}" for name in scores) + "   asked")
    for kind in kinds:
        cells = [
            sum(scores[n][kind]) / len(scores[n][kind]) if scores[n][kind] else float("nan")
            for n in scores
        ]
        print(
            f"{kind:13} "
            + " ".join(f"{c:>12.3f}" for c in cells)
            + f"   {len(scores['ours'][kind])}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
