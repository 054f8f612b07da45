"""Recall of changed files: our offline summaries against Claude Code's own, at each real compaction.

    .venv/bin/python benchmarks/summary_recall.py [--corpus ../shared/corpus] [--details]

For every Claude Code transcript of the corpus with a compaction boundary,
and every boundary in it: the files the harness recorded as changed before
the boundary (read from its own records, see ``tests/support/cc_harness.py``),
the share of them named by path in our offline summary of the transcript up
to the boundary (``default`` and ``claude-code`` templates) and in Claude
Code's own summary written at that boundary (the ``isCompactSummary``
message), and the lengths of the summaries in characters.  A measurement,
not a test.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from artifact_index.ingestion.loading import open_transcript  # noqa: E402
from artifact_index.trail.tracker import Tracker  # noqa: E402
from summarizer.narrative.extractive import ExtractiveWriter  # noqa: E402
from summarizer.sections.templates import load_template  # noqa: E402
from summarizer.summary import summarize  # noqa: E402
from summarizer.summary_commands import events_until_compaction  # noqa: E402
from tests.support.cc_harness import harness_changed, names_path, read_transcript  # noqa: E402

TEMPLATES = ("default", "claude-code")
_STATE = re.compile(r"\n<!-- artifact-index:state .*? -->\n", re.S)


def _named_by_basename(text: str, path: str) -> bool:
    return names_path(text, path) or names_path(text, path.rsplit("/", 1)[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument(
        "--details", action="store_true", help="one line per compaction, and every miss"
    )
    args = parser.parse_args()

    changed_total = 0
    named = {t: 0 for t in TEMPLATES}
    named_cc = named_cc_basename = 0
    lengths: dict[str, list[int]] = {t: [] for t in TEMPLATES}
    visible: dict[str, list[int]] = {t: [] for t in TEMPLATES}
    cc_lengths: list[int] = []
    compactions = 0
    for path in sorted((args.corpus / "claude_code").glob("*.jsonl.gz")):
        transcript = read_transcript(path)
        if not transcript.boundaries:
            continue
        loaded = open_transcript(path)
        events = list(loaded.events())
        for number, boundary in enumerate(transcript.boundaries, start=1):
            compactions += 1
            changed = harness_changed(transcript, boundary.line)
            before = events_until_compaction(events, number)
            index = Tracker(format=loaded.adapter.name).feed_all(before)
            changed_total += len(changed)
            line = [f"{path.name} #{number}: {len(changed)} changed"]
            for template in TEMPLATES:
                markdown = summarize(
                    before, template=load_template(template), writer=ExtractiveWriter(), index=index
                ).markdown
                hits = [p for p in changed if names_path(markdown, p)]
                named[template] += len(hits)
                lengths[template].append(len(markdown))
                visible[template].append(len(_STATE.sub("\n", markdown)))
                line.append(f"{template} {len(hits)}/{len(changed)} ({len(markdown)} chars)")
                if args.details:
                    line += [f"    ours/{template} misses {p}" for p in changed if p not in hits]
            cc_hits = [p for p in changed if names_path(boundary.summary, p)]
            named_cc += len(cc_hits)
            named_cc_basename += sum(_named_by_basename(boundary.summary, p) for p in changed)
            cc_lengths.append(len(boundary.summary))
            line.append(
                f"claude-code's own {len(cc_hits)}/{len(changed)} ({len(boundary.summary)} chars)"
            )
            if args.details:
                print(line[0] + "; " + "; ".join(x for x in line[1:] if not x.startswith("    ")))
                for miss in (x for x in line[1:] if x.startswith("    ")):
                    print(miss)
                for p in changed:
                    if p not in cc_hits:
                        print(f"    claude-code's own misses {p}")

    if not compactions:
        print(f"no Claude Code compaction found under {args.corpus}")
        return 1
    print(f"{compactions} compactions, {changed_total} files changed before them (harness records)")
    for template in TEMPLATES:
        print(
            f"ours ({template:11}): named by path {named[template]}/{changed_total} = "
            f"{named[template] / changed_total:.1%}; mean length {statistics.mean(lengths[template]):,.0f} chars "
            f"({statistics.mean(visible[template]):,.0f} without the embedded narrative state)"
        )
    print(
        f"Claude Code's own   : named by path {named_cc}/{changed_total} = {named_cc / changed_total:.1%} "
        f"(path or basename {named_cc_basename / changed_total:.1%}); mean length "
        f"{statistics.mean(cc_lengths):,.0f} chars"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
