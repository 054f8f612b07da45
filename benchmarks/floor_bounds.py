"""Where each step of indexing stands against the parsing floor, in a warm process.

    python benchmarks/floor_bounds.py [--corpus ../shared/corpus] [--repeat 5]

``bench_floor.py`` measures each index run in a fresh process, as a user
runs the CLI, so first-use costs count.  This script asks a narrower
question: once everything is loaded, how far is each step from the floor?
For the largest transcript of every format (and the synthetic sessions
``bench_floor.py`` writes, when present), it prints the CPU time of these
steps as multiples of ``orjson``'s parse of the same bytes, each the best of
``--repeat`` runs in one process:

- ``reader``: the least any Python reader does: read the file, split JSON
  lines (or take the document whole), parse with orjson and look at one key
  of each record;
- ``open``: reading the file and recognizing its format among all known
  ones (``open_transcript``);
- ``events``: that, and the adapter turning records into events;
- ``index``: that, and the tracker (``build_index``).

A step's ratio is a floor for every step after it: when ``open`` alone is
past 5, no tracker can bring the index under 5.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_floor import _floor, _largest_per_format, _synthetic
from synthetic import FORMATS

from artifact_index.ingestion.adapters import known_formats
from artifact_index.ingestion.loading import open_transcript
from artifact_index.trail.build import build_index

ROOT = Path(__file__).resolve().parent.parent


def _best(step: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        step()
        best = min(best, time.process_time() - start)
    return best


def _plain_reader(path: Path) -> Callable[[], object]:
    def read() -> int:
        data = path.read_bytes()
        try:
            records = [orjson.loads(data)]
        except orjson.JSONDecodeError:
            records = []
            for line in data.split(b"\n"):
                if line.strip():
                    try:
                        records.append(orjson.loads(line))
                    except orjson.JSONDecodeError:
                        records.append(None)
        return sum(1 for record in records if isinstance(record, dict) and "type" in record)

    return read


def _events(path: Path) -> Callable[[], object]:
    def read() -> int:
        return sum(1 for _ in open_transcript(path).events())

    return read


def _row(label: str, path: Path, repeat: int) -> None:
    data = path.read_bytes()
    _, floor = _floor(data, repeat)
    build_index(path)  # first use of every module, regex and grammar: paid once per process
    steps = {
        "reader": _plain_reader(path),
        "open": lambda: open_transcript(path),
        "events": _events(path),
        "index": lambda: build_index(path),
    }
    ratios = [_best(step, repeat) / floor if floor else float("inf") for step in steps.values()]
    print(
        f"{label:46} {len(data) / 1e6:7.2f} {floor * 1e3:9.3f} "
        + " ".join(f"{r:7.1f}" for r in ratios),
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--work", type=Path, default=Path("/tmp/artifact-index-bench"))
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    known_formats()
    args.work.mkdir(parents=True, exist_ok=True)
    print(f"CPU time in one warm process, best of {args.repeat}, as multiples of orjson's parse\n")
    print(
        f"{'transcript':46} {'MB':>7} {'orjson ms':>9} {'reader':>7} {'open':>7} {'events':>7} {'index':>7}"
    )
    if args.corpus.is_dir():
        for name, path, _ in _largest_per_format(args.corpus, args.work):
            _row(f"{name} ({path.name})"[:46], path, args.repeat)
    for format in FORMATS:
        _row(
            f"synthetic {format} 25 MB", _synthetic(format, 25, args.work), max(1, args.repeat // 2)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
