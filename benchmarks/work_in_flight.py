"""How much of the corpus the continuation facts of a summary concern (tracker items, checks owed, other repositories, moves), transcript by transcript.

    .venv/bin/python benchmarks/work_in_flight.py [--corpus ../shared/corpus] [--details]

For every transcript of the corpus (all formats), the whole session is
indexed and summarized offline, and the script counts:

* issue-tracker items driven from the shell (``bd``, ``gh issue``/``gh pr``)
  by status, and the sessions that end with one in progress;
* sessions that end with checks owed: files changed after the last run of
  a kind of check (tests, lint, type check, build) the session ran;
* sessions whose git commands ran in another repository;
* files moved or renamed (which a summary must call moved, not reverted);
* findings kept whole (conclusions, answers to the user's questions);
* decisions the index proposes and those the summary states (the bar in
  :func:`summarizer.narrative.extractive.worth_stating`).

A measurement that prints counts; the tests assert behaviour.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import Counter
from pathlib import Path

from artifact_index.trail.build import build_index
from artifact_index.trail.conversation.agent_findings import findings
from summarizer.narrative.offline_decisions import worth_stating
from summarizer.sections.progress import checks_owed, items_in_progress
from summarizer.sections.session_facts import session_facts

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument(
        "--details", action="store_true", help="one line per transcript that has any of these"
    )
    args = parser.parse_args()
    manifest = args.corpus / "MANIFEST.tsv"
    if not manifest.exists():
        print(f"no corpus manifest at {manifest}", file=sys.stderr)
        return 1
    with manifest.open(encoding="utf-8") as handle:
        paths = [args.corpus / row["local_path"] for row in csv.DictReader(handle, delimiter="\t")]

    statuses: Counter[str] = Counter()
    trackers: Counter[str] = Counter()
    counts: Counter[str] = Counter()
    for path in paths:
        index, loaded = build_index(path)
        facts = session_facts(index)
        found = findings(list(loaded.events()))
        owed = checks_owed(facts)
        moved = [f for f in [*facts.created, *facts.modified] if f.renamed_from]
        stated = [d for d in facts.decisions if worth_stating(d)]
        counts["transcripts"] += 1
        counts["with tracker items"] += bool(facts.work_items)
        counts["ending with an item in progress"] += bool(items_in_progress(facts))
        counts["running checks"] += bool(facts.check_runs)
        counts["ending with checks owed"] += bool(owed)
        counts["files owed a check at the end"] += len(
            {f.path for group in owed for f in group.files}
        )
        counts["with git in another repository"] += bool(facts.work.elsewhere)
        counts["with a moved file"] += bool(moved)
        counts["moved files"] += len(moved)
        counts["with findings"] += bool(found)
        counts["findings"] += len(found)
        counts["decisions proposed"] += len(facts.decisions)
        counts["decisions stated"] += len(stated)
        statuses.update(i.status for i in facts.work_items)
        trackers.update(i.tracker for i in facts.work_items)
        if args.details and (facts.work_items or owed or facts.work.elsewhere or moved):
            print(
                f"{path.name}: {len(facts.work_items)} tracker item(s) "
                f"({', '.join(f'{i.id} {i.status}' for i in facts.work_items if i.status != 'closed')}); "
                f"{sum(len(g.files) for g in owed)} file(s) owed a check; "
                f"other repositories: {[o.path for o in facts.work.elsewhere]}; moved: {len(moved)}"
            )
    total = counts["transcripts"]
    print(f"{total} transcripts")
    print(
        f"with issue-tracker items driven from the shell: {counts['with tracker items']} "
        f"({sum(statuses.values())} items: {dict(trackers)}; by status {dict(statuses)}); "
        f"ending with an item the session started still in progress: {counts['ending with an item in progress']}"
    )
    print(
        f"running recognized checks: {counts['running checks']}; ending with checks owed: "
        f"{counts['ending with checks owed']} ({counts['files owed a check at the end']} files)"
    )
    print(f"with git commands in another repository: {counts['with git in another repository']}")
    print(
        f"with a moved or renamed file: {counts['with a moved file']} ({counts['moved files']} files)"
    )
    print(
        f"with findings kept whole: {counts['with findings']} ({counts['findings']} findings, the latest 6 each)"
    )
    print(
        f"decisions the index proposes: {counts['decisions proposed']}; stated in the summary: "
        f"{counts['decisions stated']}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
