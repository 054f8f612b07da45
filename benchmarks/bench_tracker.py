"""Speed and memory of reading transcripts and building the index, over the real corpus.

    python benchmarks/bench_tracker.py [--corpus ../shared/corpus] [--repeat 1]

Prints, per format and overall: sessions, input megabytes (uncompressed),
seconds per session (mean, max), throughput, the peak Python heap of the
largest session (tracemalloc), the size of the saved tracker state, and the
cost of one save + resume.  Figures are in-process, so they exclude the
interpreter start-up the CLI pays once per call (measured separately at the end).
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections import defaultdict
from pathlib import Path

from artifact_index.trail.build import build_index
from artifact_index.trail.tracker import Tracker

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    corpus = Path(args.corpus)
    files = sorted(
        p
        for p in corpus.glob("*/*")
        if p.is_file()
        and p.parent.name != "groundtruth"
        and p.name not in ("MANIFEST.tsv", "truth.jsonl")
    )
    if not files:
        print(f"no corpus at {corpus}", file=sys.stderr)
        return 1
    rows: dict[str, list[tuple[float, int]]] = defaultdict(list)
    biggest = max(files, key=lambda p: p.stat().st_size)
    for path in files:
        size = (
            len(gzip.decompress(path.read_bytes())) if path.suffix == ".gz" else path.stat().st_size
        )
        best = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            build_index(path)
            best = min(best, time.perf_counter() - start)
        rows[path.parent.name].append((best, size))

    print(f"{'format':16} {'sess':>5} {'MB':>7} {'mean s':>7} {'max s':>7} {'MB/s':>6}")
    everything: list[tuple[float, int]] = []
    for fmt in sorted(rows):
        data = rows[fmt]
        everything += data
        seconds = [s for s, _ in data]
        megabytes = sum(b for _, b in data) / 1e6
        print(
            f"{fmt:16} {len(data):>5} {megabytes:>7.1f} {statistics.mean(seconds):>7.3f} {max(seconds):>7.3f} "
            f"{megabytes / sum(seconds):>6.1f}"
        )
    seconds = [s for s, _ in everything]
    megabytes = sum(b for _, b in everything) / 1e6
    print(
        f"{'ALL':16} {len(everything):>5} {megabytes:>7.1f} {statistics.mean(seconds):>7.3f} {max(seconds):>7.3f} "
        f"{megabytes / sum(seconds):>6.1f}"
    )

    tracemalloc.start()
    index, _ = build_index(biggest)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    start = time.perf_counter()
    state = Tracker(index).save()
    Tracker.resume(state)
    resume = time.perf_counter() - start
    size = (
        len(gzip.decompress(biggest.read_bytes()))
        if biggest.suffix == ".gz"
        else biggest.stat().st_size
    )
    print(
        f"\nlargest session {biggest.parent.name}/{biggest.name}: {size / 1e6:.1f} MB, "
        f"peak Python heap {peak / 1e6:.0f} MB, saved state {len(state) / 1e6:.1f} MB, save+resume {resume:.2f} s"
    )

    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "artifact_index", "formats"], check=True, capture_output=True
    )
    print(f"CLI start-up (artifact-index formats): {time.perf_counter() - start:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
