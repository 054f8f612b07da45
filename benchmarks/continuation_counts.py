"""Can an agent continue from our default summary? Counts at every Claude Code compaction point of the corpus.

    .venv/bin/python benchmarks/continuation_counts.py [--corpus ../shared/corpus] [--details]

For each compaction boundary of each Claude Code transcript, our default
offline summary of everything before it is checked the way
``tests/summarizer/test_corpus_continuation.py`` checks it (see
``tests/summarizer/continuation_checks.py``): is the person's latest message
before the boundary in it whole, is every piece of feedback they typed when
refusing a tool call in it, does it show as open an error that a later
passing run of the same command or a later successful commit covered, and
is it within 1.5 times Claude Code's own summary at that boundary, does it
call untested the files edited after the last test run, and does it show
in progress (to finish next) the ``bd`` items started and not closed.  A
measurement that prints the counts; the test asserts them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from artifact_index.ingestion.loading import open_transcript  # noqa: E402
from tests.support.cc_harness import read_transcript  # noqa: E402
from tests.support.continuation_checks import LONGER_THAN_OWN, PointReport, check_point  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument(
        "--details", action="store_true", help="one line per compaction point, and every miss"
    )
    args = parser.parse_args()

    reports: list[PointReport] = []
    for path in sorted((args.corpus / "claude_code").glob("*.jsonl.gz")):
        transcript = read_transcript(path)
        if not transcript.boundaries:
            continue
        events = list(open_transcript(path).events())
        for number, boundary in enumerate(transcript.boundaries, start=1):
            report = check_point(path, transcript, events, number, boundary)
            reports.append(report)
            if args.details:
                print(
                    f"{report.name}: latest {'whole' if report.latest_whole else 'MISSING'}; feedback "
                    f"{report.feedback - len(report.feedback_missing)}/{report.feedback}; open errors "
                    f"{report.open_errors} ({len(report.stale_open)} covered by a later pass); "
                    f"{report.chars} chars / {report.tokens} tokens vs Claude Code's "
                    f"{report.cc_chars} / {report.cc_tokens}"
                )
                for miss in report.feedback_missing:
                    print(f"    feedback missing: {miss[:100]}")
                for stale in report.stale_open:
                    print(f"    stale open error: {stale}")
                for path in report.untested_missing:
                    print(f"    edited after the last test run, not called untested: {path}")
                for item in report.in_progress_missing:
                    print(f"    item in progress not shown as such: {item}")
    if not reports:
        print(f"no Claude Code compaction found under {args.corpus}")
        return 1
    feedback = sum(r.feedback for r in reports)
    kept = feedback - sum(len(r.feedback_missing) for r in reports)
    print(f"{len(reports)} compaction points")
    print(f"latest user message whole: {sum(r.latest_whole for r in reports)}/{len(reports)}")
    print(f"refusal feedback kept: {kept}/{feedback}")
    print(
        f"errors shown open: {sum(r.open_errors for r in reports)}, of which covered by a later pass or commit: "
        f"{sum(len(r.stale_open) for r in reports)}"
    )
    print(
        f"within {LONGER_THAN_OWN} times Claude Code's own (chars and tokens): {sum(r.within_cc for r in reports)}/{len(reports)}"
    )
    untested = sum(len(r.untested) for r in reports)
    print(
        f"files edited after the last test run, called untested: {untested - sum(len(r.untested_missing) for r in reports)}"
        f"/{untested} (at {sum(1 for r in reports if r.untested)} points); 'None open' beside them: "
        f"{sum(1 for r in reports if r.untested and r.says_none_open)}"
    )
    started = sum(len(r.in_progress) for r in reports)
    print(
        f"bd items in progress shown in progress with finishing them next: "
        f"{started - sum(len(r.in_progress_missing) for r in reports)}/{started}"
    )
    print(
        f"mean length: ours {statistics.mean(r.chars for r in reports):,.0f} chars / "
        f"{statistics.mean(r.tokens for r in reports):,.0f} tokens; Claude Code's "
        f"{statistics.mean(r.cc_chars for r in reports):,.0f} / {statistics.mean(r.cc_tokens for r in reports):,.0f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
