"""How often the current-thread facts of a summary apply (what each change did, sub-steps, investigations, settled choices), transcript by transcript.

    .venv/bin/python benchmarks/current_thread.py [--corpus ../shared/corpus] [--details]

For every transcript of the corpus (all formats), the summary facts are
computed as ``summarize`` computes them at points where a compaction could
fall: just before each message of the person after the first, in the
middle of the work after every 25th tool call of the main agent, and at the
end; the script counts, point by point:

* what each change says it did: changed files with the signature of an
  added definition, with its doc line, with the tests they added, with the
  first lines or headings of a file without definitions, and with nothing
  to say beyond their status;
* sessions that end with sub-steps of the current task no change carried
  out (from the item's definition of done, from the agent's own plan);
* sessions that end in an investigation (no file changed since the latest
  request, the agent reading and querying), with or without a conclusion;
* user messages that settle a choice, quoted under Decisions;
* sessions whose latest tracker listing names a next open item;
* files a request or an item names that the session never opened.

``--details`` prints every sub-step, investigation and user choice found,
for spot checks.  A measurement that prints counts; the tests assert
behaviour.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from corpus_points import corpus_transcripts, session_points

from summarizer.narrative.next_steps import next_steps
from summarizer.narrative.offline_decisions import user_choices
from summarizer.sections.progress import item_progress, items_in_progress, request_files_not_changed
from summarizer.sections.session_facts import session_facts
from summarizer.sections.substeps import remaining_steps
from summarizer.sections.summary_facts import SessionFacts
from summarizer.sections.thread import investigation

ROOT = Path(__file__).resolve().parent.parent
_EVERY_CALLS = 25


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument(
        "--details", action="store_true", help="every sub-step, investigation and choice found"
    )
    args = parser.parse_args()
    paths = corpus_transcripts(args.corpus)
    if paths is None:
        print(f"no corpus manifest in {args.corpus}", file=sys.stderr)
        return 1

    counts: Counter[str] = Counter()
    fired: dict[str, set[Path]] = {}
    for path in paths:
        counts["transcripts"] += 1
        for point in session_points(path, _EVERY_CALLS):
            facts = session_facts(point.index, point.events[: point.number])
            found = _count(facts, counts, end=point.at_end)
            for rule in found:
                fired.setdefault(rule, set()).add(path)
            if args.details and found:
                _details(path.relative_to(args.corpus), point.number, facts)
    files = counts["changed files"]
    print(
        f"{counts['transcripts']} transcripts, {counts['points']} points (before each later user message, every "
        f"{_EVERY_CALLS} tool calls, and the end)"
    )
    print(
        f"at the end: created or modified files {files}; with an added definition's signature: "
        f"{counts['with a signature']} (with its doc line: {counts['with a doc line']}); with tests added: "
        f"{counts['with tests added']}; with first lines or headings: {counts['with first lines']}; definitions by "
        f"name only: {counts['described by names only']}; nothing beyond the status: {counts['nothing to say']}"
    )

    def sessions(rule: str) -> int:
        return len(fired.get(rule, ()))

    print(
        f"sub-steps no change carried out: at {counts['points with sub-steps']} points of {sessions('sub-steps')} "
        f"sessions ({counts['sub-steps left']} steps, {counts['from a definition of done']} from a definition of "
        "done)"
    )
    print(
        f"stopped in an investigation: at {counts['points investigating']} points of {sessions('investigation')} "
        f"sessions (with a conclusion stated: {counts['with a conclusion']})"
    )
    print(
        f"user messages settling a choice (at the end): {counts['user choices']} quoted, in "
        f"{sessions('choices')} sessions"
    )
    print(
        f"a next open tracker item: at {counts['points with a next item']} points of {sessions('next item')} "
        f"sessions (named by the latest listing: {counts['from the latest listing']})"
    )
    print(
        f"files a request or item names that the session never opened: at {counts['points with unseen files']} "
        f"points ({counts['named files never opened']} names)"
    )
    return 0


def _count(facts: SessionFacts, counts: Counter[str], *, end: bool) -> list[str]:
    """Count one point's facts; the rules that fired there."""
    counts["points"] += 1
    fired = []
    if end:
        for f in [*facts.created, *facts.modified]:
            counts["changed files"] += 1
            counts["with a signature"] += bool(f.signatures)
            counts["with a doc line"] += bool(f.docs)
            counts["with tests added"] += bool(f.tests_added)
            counts["with first lines"] += bool(f.first_lines)
            counts["described by names only"] += bool(f.symbols) and not (
                f.signatures or f.tests_added
            )
            counts["nothing to say"] += not (f.symbols or f.tests_added or f.first_lines)
        chosen = user_choices(facts)
        counts["user choices"] += len(chosen)
        fired += ["choices"] if chosen else []
    steps = remaining_steps(facts)
    counts["points with sub-steps"] += bool(steps)
    counts["sub-steps left"] += len(steps)
    counts["from a definition of done"] += sum(
        1 for s in steps if s.source.startswith("the definition")
    )
    fired += ["sub-steps"] if steps else []
    found = investigation(facts)
    counts["points investigating"] += found is not None
    counts["with a conclusion"] += found is not None and found.conclusion is not None
    fired += ["investigation"] if found else []
    nexts = [s for s in next_steps(facts) if s.startswith("Then the next open tracker item")]
    counts["points with a next item"] += bool(nexts)
    counts["from the latest listing"] += any("open in the last" in s for s in nexts)
    fired += ["next item"] if nexts else []
    named = request_files_not_changed(facts)
    unseen = [m for m in (named[1] if named else []) if "never opened" in m]
    unseen += [
        m
        for item in items_in_progress(facts)
        for m in item_progress(facts, item).named_not_changed
        if "never opened" in m
    ]
    counts["points with unseen files"] += bool(unseen)
    counts["named files never opened"] += len(unseen)
    return fired


def _details(name: Path, number: int, facts: SessionFacts) -> None:
    print(f"== {name} before event {number}")
    for step in remaining_steps(facts):
        print(f"  left: {step.text!r} ({step.source}; {step.missing} since turn {step.since})")
    found = investigation(facts)
    if found is not None:
        print(
            f"  investigating turn {found.question.turn} ({found.calls} calls): "
            f"{(found.conclusion.text[:160] if found.conclusion else 'no conclusion')!r}; "
            f"checks {[c.text[:80] for c in found.checks]}"
        )
    for step in next_steps(facts):
        if step.startswith("Then the next open tracker item"):
            print(f"  {step[:200]}")


if __name__ == "__main__":
    sys.exit(main())
