"""One batch run against a loop of single-file CLI calls, over the corpus's transcripts.

    python benchmarks/batch_vs_loop.py [--corpus ../shared/corpus] [--command files] [--jobs N]

The loop is what a user had before: ``artifact-index COMMAND FILE --json``
once per transcript, each call paying the interpreter's start-up and the
imports.  The batch is ``artifact-index COMMAND FILE... --json``: one
process tree, one worker per core.  Both read every transcript listed in
``MANIFEST.tsv``; the script checks that they print the same JSON for each,
then prints both wall times, the ratio, and the load average, since on a
shared machine the other processes' load is part of every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def transcripts(corpus: Path) -> list[str]:
    lines = (corpus / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]
    return [str(corpus / line.split("\t")[1]) for line in lines if line.strip()]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    parser.add_argument("--command", default="files")
    parser.add_argument("--jobs", type=int, help="batch workers (default: one per core)")
    args = parser.parse_args()
    corpus = Path(args.corpus)
    if not (corpus / "MANIFEST.tsv").exists():
        print(f"no corpus at {corpus}", file=sys.stderr)
        return 1
    paths = transcripts(corpus)
    cli = [sys.executable, "-m", "artifact_index", args.command]
    print(
        f"{len(paths)} transcripts, {os.cpu_count()} cores, load average before: "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )

    started = time.perf_counter()
    looped = {}
    for path in paths:
        done = subprocess.run([*cli, path, "--json"], capture_output=True, text=True, check=True)
        looped[path] = json.loads(done.stdout)
    loop_seconds = time.perf_counter() - started
    print(f"loop of {len(paths)} CLI calls: {loop_seconds:.1f} s")

    jobs = ["--jobs", str(args.jobs)] if args.jobs else []
    started = time.perf_counter()
    done = subprocess.run(
        [*cli, *paths, "--json", *jobs], capture_output=True, text=True, check=True
    )
    batch_seconds = time.perf_counter() - started
    print(f"one batch run:              {batch_seconds:.1f} s")

    batched = {}
    for line in done.stdout.splitlines():
        document = json.loads(line)
        batched[document.pop("transcript")] = document
    if batched != looped:
        differing = [p for p in paths if batched.get(p) != looped[p]]
        print(
            f"the outputs differ for {len(differing)} transcript(s), e.g. {differing[:3]}",
            file=sys.stderr,
        )
        return 1
    print(
        f"same JSON for every transcript; batch is {loop_seconds / batch_seconds:.1f}x faster "
        f"(load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
