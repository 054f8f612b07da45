"""What a live session pays per turn to resume its saved state, feed the turn and save again.

    python benchmarks/bench_resume.py [--work /tmp/artifact-index-bench] [--size 100] [--format claude-code]

A compaction hook runs in a fresh process each turn: it loads the tracker's
state, feeds the new turn's events and saves.  On the synthetic session of
``--size`` MB (``benchmarks/synthetic.py``), with the state saved just before
the last turns, this prints the CPU time of one such turn:

1. rewriting the whole state each turn (``Tracker.save`` into one file, as
   before the journal): best of ``--repeat`` turns;
2. with :class:`~artifact_index.trail.saved_state.SavedState`: every turn of
   one journal cycle, from an empty journal until the save that folds it
   into a new snapshot; the median, the worst ordinary turn, the folding
   turn, and the mean over the cycle (what a long session pays per turn).

CPU time (user + system) of this process; the load average is printed so a
loaded machine can be recognized.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from synthetic import GENERATOR_VERSION, write_transcript  # noqa: E402

from artifact_index.ingestion.events import Event  # noqa: E402
from artifact_index.ingestion.loading import load_events  # noqa: E402
from artifact_index.state_files import write_atomically  # noqa: E402
from artifact_index.trail.saved_state import SavedState  # noqa: E402
from artifact_index.trail.tracker import Tracker  # noqa: E402


def _cpu() -> float:
    times = os.times()
    return times.user + times.system


def _runs(events: list[Event]) -> list[list[Event]]:
    """The events in order, cut wherever the turn changes."""
    runs: list[list[Event]] = []
    for event in events:
        if not runs or runs[-1][-1].turn != event.turn:
            runs.append([])
        runs[-1].append(event)
    return runs


def _whole_state_turn(folder: Path, turn: list[Event]) -> float:
    state = folder / "whole.json"
    start = _cpu()
    saved = json.loads(state.read_text(encoding="utf-8"))
    tracker = Tracker.resume(saved["tracker"])
    tracker.feed_all(turn)
    write_atomically(state, json.dumps({"last_turn": turn[-1].turn, "tracker": tracker.save()}))
    return _cpu() - start


def _journal_turn(folder: Path, turn: list[Event]) -> tuple[float, bool]:
    """One turn's CPU time, and whether its save folded the journal into a new snapshot."""
    start = _cpu()
    state = SavedState(folder)
    tracker = state.load().tracker
    tracker.feed_all(turn)
    state.save(tracker, turn, {"last_turn": turn[-1].turn})
    folded = not state.journal.exists()
    return _cpu() - start, folded


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, default=Path("/tmp/artifact-index-bench"))
    parser.add_argument("--size", type=int, default=100, help="megabytes of synthetic session")
    parser.add_argument("--format", default="claude-code", choices=["claude-code", "codex"])
    parser.add_argument(
        "--repeat", type=int, default=3, help="turns timed with the whole-state rewrite"
    )
    parser.add_argument(
        "--max-turns", type=int, default=400, help="cap on the turns of the journal cycle"
    )
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    path = args.work / f"{args.format}-{args.size}MB-v{GENERATOR_VERSION}.jsonl"
    if not path.exists():
        partial = path.with_suffix(".partial")
        with partial.open("w", encoding="utf-8") as out:
            write_transcript(args.format, args.size, out)
        partial.rename(path)
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    runs = _runs(load_events(path))
    head_runs, tail_runs = runs[: -args.max_turns], runs[-args.max_turns :]
    tracker = Tracker(format=args.format)
    for run in head_runs:
        tracker.feed_all(run)

    with tempfile.TemporaryDirectory(dir=args.work) as scratch:
        folder = Path(scratch)
        snapshot_text = tracker.save()
        print(
            f"{path.name}: {len(runs)} turns; state before the timed turns {len(snapshot_text) / 1e6:.1f} MB"
        )

        write_atomically(
            folder / "whole.json", json.dumps({"last_turn": 0, "tracker": snapshot_text})
        )
        whole = [_whole_state_turn(folder, run) for run in tail_runs[: args.repeat]]
        print(
            f"whole state rewritten each turn: best {min(whole):.2f} s, mean {statistics.mean(whole):.2f} s "
            f"per turn ({len(whole)} turns)"
        )

        journal_folder = folder / "journal"
        state = SavedState(journal_folder)
        state.load()
        start = _cpu()
        state.save(tracker, [])  # the snapshot the cycle starts from
        print(f"snapshot written in {_cpu() - start:.2f} s")
        ordinary: list[float] = []
        folding: list[float] = []
        for run in tail_runs:
            seconds, folded = _journal_turn(journal_folder, run)
            (folding if folded else ordinary).append(seconds)
            if folded:
                break
        cycle = ordinary + folding
        print(
            f"snapshot + journal: median {statistics.median(ordinary):.2f} s, worst ordinary "
            f"{max(ordinary):.2f} s, folding turn {max(folding) if folding else float('nan'):.2f} s, "
            f"mean over the cycle {statistics.mean(cycle):.2f} s per turn ({len(ordinary)} turns + "
            f"{len(folding)} fold{'' if folding else ' (cycle longer than --max-turns)'})"
        )
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
