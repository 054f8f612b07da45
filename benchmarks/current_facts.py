"""How often the summary facts say what is current instead of what was (errors there before, git status, tracker items, open errors, latest changes), transcript by transcript.

    .venv/bin/python benchmarks/current_facts.py [--corpus ../shared/corpus] [--details]

For every transcript of the corpus (all formats), the summary facts are
computed as ``summarize`` computes them at the points where a compaction
could fall (before each message of the person after the first, every 25th
tool call of the main agent, the end), and the script counts:

* errors classed as there before the session, by reason (a lint finding
  on a file the session had not changed; the agent's own words), and the
  check runs no longer called failed because they showed only those;
* the latest ``git status`` of the workspace: how often one speaks for
  the uncommitted files, and how often it contradicts the trail (a changed
  file it does not list);
* open items of the epic in hand known only from a listing;
* open errors with the attempts they survived;
* the latest changed files said by the agent's account, by their changed
  lines, or by their size only;
* numbered requests followed item by item, by state.

``--details`` prints each finding at the end of its session, for spot
checks.  A measurement that prints counts; the tests assert behaviour.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from corpus_points import corpus_transcripts, session_points

from summarizer.sections.file_lists import latest_files
from summarizer.sections.progress import open_in_epic
from summarizer.sections.session_facts import session_facts
from summarizer.sections.summary_facts import SessionFacts
from summarizer.sections.thread import thread_start

ROOT = Path(__file__).resolve().parent.parent
_EVERY_CALLS = 25
_BY_PLACE = "pre-existing: a lint finding on a file not changed"
_BY_WORDS = "pre-existing: the agent said so"
_BY_ACCOUNT = "said by the agent's own account"


def _count(
    facts: SessionFacts, counts: Counter[str], check_runs_failed: tuple[int, int]
) -> list[str]:
    """Count one point; returns what fired there."""
    counts["points"] += 1
    fired = []
    pre = facts.pre_existing_errors
    if pre:
        fired.append("pre-existing")
        counts["points with pre-existing findings"] += 1
        for e in pre:
            counts[_BY_WORDS if (e.pre_existing or "").startswith("the agent") else _BY_PLACE] += 1
    raw, now = check_runs_failed
    counts["check runs failed (trail)"] += raw
    counts["check runs failed (now)"] += now
    status = facts.work.status
    if status is not None:
        counts["points with a status"] += 1
        if status.current:
            counts["status speaks for the tree"] += 1
        if status.not_shown:
            fired.append("status overrides")
            counts["status overrides the trail"] += 1
    if open_in_epic(facts):
        fired.append("epic items")
        counts["points with open epic items from listings"] += 1
    tried = [e for e in facts.open_errors if e.attempts]
    if tried:
        fired.append("attempts")
        counts["points with attempts listed"] += 1
        counts["attempts listed"] += sum(len(e.attempts) for e in tried)
    files = [*facts.created, *facts.modified, *facts.deleted, *facts.reverted]
    latest = latest_files(files, thread_start(facts))
    for f in files:
        if f.path not in latest or f.status != "modified":
            continue
        counts["latest modified files"] += 1
        if f.account:
            counts[_BY_ACCOUNT] += 1
        elif any(f.changed_code.values()):
            counts["said by changed lines"] += 1
        else:
            counts["said by size or names only"] += 1
    if facts.request_items:
        fired.append("numbered request")
        counts["points with a numbered request followed"] += 1
        for item in facts.request_items:
            counts[f"item {item.status}"] += 1
    return fired


def _details(name: Path, facts: SessionFacts) -> None:
    for e in facts.pre_existing_errors:
        print(
            f"{name}: pre-existing `{e.message[:70]}` in {e.file}: {(e.pre_existing or '')[:120]}"
        )
    status = facts.work.status
    if status is not None and status.not_shown:
        print(
            f"{name}: `{status.command}` (turn {status.turn}) does not list {', '.join(status.not_shown[:4])}"
        )
    for item in open_in_epic(facts):
        print(f"{name}: open in the epic: {item.id} (`{item.command}`, turn {item.turn})")
    for e in facts.open_errors:
        for attempt in e.attempts:
            print(
                f"{name}: tried against `{e.message[:50]}`: (turn {attempt.turn}) {attempt.text[:120]}"
            )
    for f in facts.modified:
        if f.account:
            print(f"{name}: {f.path}: the agent (turn {f.account_turn}): {f.account[:120]}")
    for item in facts.request_items:
        print(f"{name}: item {item.number} [{item.status}] {item.evidence[:100]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument(
        "--details", action="store_true", help="each finding at the end of its session"
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
            runs = point.index.session.check_runs
            failed = (
                sum(1 for r in runs if not r.passed),
                sum(1 for r in facts.check_runs if not r.passed),
            )
            for rule in _count(facts, counts, failed):
                fired.setdefault(rule, set()).add(path)
            if args.details and point.at_end:
                _details(path.relative_to(args.corpus), facts)

    def sessions(rule: str) -> int:
        return len(fired.get(rule, ()))

    print(
        f"{counts['transcripts']} transcripts, {counts['points']} points (before each later user message, every "
        f"{_EVERY_CALLS} tool calls, and the end)"
    )
    print(
        f"findings there before the session: at {counts['points with pre-existing findings']} points of "
        f"{sessions('pre-existing')} sessions; by the file they point at: {counts[_BY_PLACE]}, "
        f"by the agent's words: {counts[_BY_WORDS]}"
    )
    print(
        f"check runs called failed, summed over the points: {counts['check runs failed (trail)']} by their output, "
        f"{counts['check runs failed (now)']} once findings from before the session are set apart"
    )
    print(
        f"a latest git status: at {counts['points with a status']} points; it speaks for the whole tree at "
        f"{counts['status speaks for the tree']}; it contradicts the trail at {counts['status overrides the trail']} "
        f"points of {sessions('status overrides')} sessions"
    )
    print(
        f"open items of the epic in hand from listings: at {counts['points with open epic items from listings']} "
        f"points of {sessions('epic items')} sessions"
    )
    print(
        f"open errors with the attempts they survived: at {counts['points with attempts listed']} points of "
        f"{sessions('attempts')} sessions ({counts['attempts listed']} attempts)"
    )
    print(
        f"latest modified files: {counts['latest modified files']}; said by the agent's account: "
        f"{counts[_BY_ACCOUNT]}, by changed lines: {counts['said by changed lines']}, "
        f"by size or names only: {counts['said by size or names only']}"
    )
    states = ", ".join(
        f"{key[5:]} {n}" for key, n in sorted(counts.items()) if key.startswith("item ")
    )
    print(
        f"numbered requests followed: at {counts['points with a numbered request followed']} points of "
        f"{sessions('numbered request')} sessions; items: {states or 'none'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
