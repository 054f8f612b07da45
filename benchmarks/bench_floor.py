"""How far indexing is from the parsing floor, and whether its cost stays linear.

    python benchmarks/bench_floor.py [--corpus ../shared/corpus] [--repeat 3] [--sizes 25,50,100]

Prints, in one run:

1. for the largest transcript of every format in the corpus (by detected
   format, uncompressed size) and for synthetic Claude Code and Codex
   sessions of 25, 50 and 100 MB (``benchmarks/synthetic.py``), the CPU time
   of building the index (``build_index``: reading, detection, the adapter,
   the tracker) and its ratio to the CPU time ``orjson`` needs to parse the
   same bytes (each line of JSON lines, the whole of a JSON document; a
   format that is not JSON is timed as one JSON string of its text); the
   ``events`` column is the same ratio for reading, detection and the
   adapter alone (the events, not fed), so what is left is the tracker's;
   the ``fresh`` column divides the index time by orjson's first parse in
   a fresh process, like for like: the floor above is the best of repeated
   parses in this process, whose memory is already its own, while an index
   run also pays for its first touch of the memory (the target is judged on
   the stricter ``ratio``);
2. the 100 MB / 25 MB index time ratio (1.0 per size doubling is linear:
   4.0 for four times the size);
3. the mean feed cost per event in the last 10% of a 100 MB session against
   the first 10%, overall and per event kind;
4. the peak resident memory of ``artifact-index files --json`` on the 100 MB
   sessions;
5. the fixed cost of one index run on a small transcript, which sets the
   ratio of the corpus's transcripts of a few KB;
6. the start-up ratio: the CPU time of ``artifact-index files`` on a small
   transcript against ``python -c 'import json'`` (bytecode cached, as an
   installed package runs), and what importing the heavy parts costs.

Every figure is CPU time (user + system), the best of ``--repeat`` runs, each
index run in a fresh process so no cache or allocator state carries over.
The machine is shared (two cores, several engineers): CPU time is far
steadier than wall time under load, but not immune to it, so the load
average is printed at the start and the end.  Synthetic sessions are
written once to ``--work`` and reused.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import os
import statistics
import subprocess
import sys
import time
from array import array
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from synthetic import FORMATS, GENERATOR_VERSION, write_transcript  # noqa: E402

TARGET_RATIO = 5.0
TARGET_SCALING = 4.4
TARGET_DRIFT = 1.2
TARGET_PEAK_MIB = 400
SMALL_TRANSCRIPT = ROOT / "examples" / "claude-code-session.jsonl"


# --- measurements in a fresh process ------------------------------------------------


def _child_index(path: str) -> dict[str, Any]:
    from artifact_index.ingestion.adapters import known_formats
    from artifact_index.trail.build import build_index

    known_formats()  # importing the adapters is start-up, measured apart
    start = time.process_time()
    index, loaded = build_index(path)
    seconds = time.process_time() - start
    return {"seconds": seconds, "format": loaded.adapter.name, "files": len(index.files())}


def _child_adapter(path: str) -> dict[str, Any]:
    from artifact_index.ingestion.adapters import known_formats
    from artifact_index.ingestion.loading import open_transcript

    known_formats()
    start = time.process_time()
    for _ in open_transcript(path).events():
        pass
    return {"seconds": time.process_time() - start}


def _child_events(path: str) -> dict[str, Any]:
    from artifact_index.ingestion.loading import open_transcript
    from artifact_index.trail.collection import collector_spared
    from artifact_index.trail.tracker import Tracker

    # Events are fed as build_index feeds them: as the adapter hands them on
    # (a list of every event would itself be a heap the collector walks),
    # with what is built kept out of the collector's sight.
    loaded = open_transcript(path)
    tracker = Tracker(format=loaded.adapter.name)
    clock = time.process_time_ns
    costs, kinds = array("q"), array("b")
    names: dict[str, int] = {}
    events = collector_spared(loaded.events())
    for event in events:
        start = clock()
        tracker.feed(event)
        costs.append(clock() - start)
        kinds.append(names.setdefault(type(event).__name__, len(names)))
    events.close()
    tenth = len(costs) // 10
    by_kind: dict[str, list[list[int]]] = {name: [[], []] for name in names}
    kind_names = list(names)
    for part, indices in ((0, range(tenth)), (1, range(len(costs) - tenth, len(costs)))):
        for i in indices:
            by_kind[kind_names[kinds[i]]][part].append(costs[i])
    return {
        "events": len(costs),
        "first": statistics.mean(costs[:tenth]),
        "last": statistics.mean(costs[-tenth:]),
        "kinds": {
            k: [statistics.mean(a) if a else 0.0, statistics.mean(b) if b else 0.0, len(a) + len(b)]
            for k, (a, b) in by_kind.items()
        },
    }


def _in_child(kind: str, path: Path | str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, f"--child-{kind}", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{kind} run on {path} failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


# Runs a command and prints its CPU seconds and peak resident KiB.  Started
# through this small process, the command is not forked from the benchmark,
# whose own memory (the transcripts it read) a fork would count as the child's.
_MEASURE = (
    "import resource, subprocess, sys\n"
    "done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
    "usage = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "print(done.returncode, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)\n"
)


def _cpu_of(command: list[str], env: dict[str, str] | None = None) -> tuple[float, int]:
    """CPU seconds and peak resident KiB of running ``command`` to the end."""
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, *command],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    code, seconds, peak = done.stdout.split()
    if code != "0":
        raise SystemExit(f"{' '.join(command)} failed")
    return float(seconds), int(peak)


# --- the parsing floor -----------------------------------------------------------------


def _floor_kind(data: bytes) -> str:
    """How the bytes parse as JSON: ``json`` (one document), ``jsonl`` (mostly lines of JSON) or ``text``."""
    try:
        orjson.loads(data)
        return "json"
    except orjson.JSONDecodeError:
        lines = [line for line in data.splitlines() if line.strip()]
        good = 0
        for line in lines:
            try:
                orjson.loads(line)
                good += 1
            except orjson.JSONDecodeError:
                pass
        return "jsonl" if lines and good >= len(lines) / 2 else "text"


def _parse_time(kind: str, data: bytes) -> float:
    """The CPU time of one orjson parse of ``data`` as ``kind`` (text: as one JSON string, made beforehand)."""
    text = orjson.dumps(data.decode("utf-8", "replace")) if kind == "text" else b""
    start = time.process_time()
    if kind == "json":
        orjson.loads(data)
    elif kind == "jsonl":
        for line in data.splitlines():
            if line.strip():
                with contextlib.suppress(orjson.JSONDecodeError):
                    orjson.loads(line)
    else:
        orjson.loads(text)
    return time.process_time() - start


def _floor(data: bytes, repeat: int) -> tuple[str, float]:
    """How the bytes parse as JSON and orjson's best CPU time, in this (warm) process."""
    kind = _floor_kind(data)
    return kind, min(_parse_time(kind, data) for _ in range(repeat))


def _child_floor(argument: str) -> dict[str, Any]:
    # The first parse in a fresh process, as an index run meets it: its memory is not yet the process's.
    kind, path = argument.split(":", 1)
    return {"seconds": _parse_time(kind, Path(path).read_bytes())}


# --- the inputs ---------------------------------------------------------------------------


def _largest_per_format(corpus: Path, work: Path) -> list[tuple[str, Path, str]]:
    """``(format, uncompressed copy, corpus name)`` of the largest transcript of each format."""
    from artifact_index.exceptions import ArtifactIndexError
    from artifact_index.ingestion.adapters import detect
    from artifact_index.ingestion.source import read_source

    largest: dict[str, tuple[int, Path]] = {}
    for path in sorted(corpus.glob("*/*.gz")):
        if path.parent.name == "groundtruth":
            continue
        try:
            name = detect(read_source(path)).name
        except ArtifactIndexError:
            continue
        size = len(gzip.decompress(path.read_bytes()))
        if size > largest.get(name, (0, path))[0]:
            largest[name] = (size, path)
    out = []
    for name, (_, path) in sorted(largest.items()):
        copy = work / "corpus" / path.name.removesuffix(".gz")
        if not copy.exists():
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_bytes(gzip.decompress(path.read_bytes()))
        out.append((name, copy, f"{path.parent.name}/{path.name}"))
    return out


def _synthetic(format: str, megabytes: int, work: Path) -> Path:
    path = work / f"{format}-{megabytes}MB-v{GENERATOR_VERSION}.jsonl"
    if not path.exists():
        partial = path.with_suffix(".partial")
        with partial.open("w", encoding="utf-8") as out:
            write_transcript(format, megabytes, out)
        partial.rename(path)
    return path


# --- the report ---------------------------------------------------------------------------


def _index_row(label: str, path: Path, repeat: int) -> dict[str, Any]:
    data = path.read_bytes()
    kind, floor = _floor(data, repeat)
    runs = [_in_child("index", path) for _ in range(repeat)]
    seconds = min(r["seconds"] for r in runs)
    adapter = min(_in_child("adapter", path)["seconds"] for _ in range(repeat))
    fresh = min(_in_child("floor", f"{kind}:{path}")["seconds"] for _ in range(repeat))
    row = {
        "label": label,
        "format": runs[0]["format"],
        "mb": len(data) / 1e6,
        "floor_kind": kind,
        "floor": floor,
        "index": seconds,
        "ratio": seconds / floor if floor else float("inf"),
        "fresh_ratio": seconds / fresh if fresh else float("inf"),
    }
    print(
        f"{label:46} {row['format']:15} {row['mb']:7.1f} {kind:>5} {floor:8.3f} {seconds:8.2f} "
        f"{seconds and row['mb'] / seconds:6.1f} {row['ratio']:6.1f} {adapter / floor if floor else 0:7.1f} "
        f"{row['fresh_ratio']:6.1f}",
        flush=True,
    )
    return row


def _fixed_cost(repeat: int) -> None:
    """What one index run costs whatever its size, which sets the ratio of a transcript of a few KB."""
    data = SMALL_TRANSCRIPT.read_bytes()
    _, floor = _floor(data, repeat)
    seconds = min(_in_child("index", SMALL_TRANSCRIPT)["seconds"] for _ in range(repeat))
    print(
        f"\nFixed cost: indexing {SMALL_TRANSCRIPT.relative_to(ROOT)} ({len(data) / 1e3:.0f} KB) takes "
        f"{seconds * 1e3:.1f} ms, orjson {floor * 1e3:.2f} ms (ratio {seconds / floor:.0f}): for a transcript of a "
        f"few KB the ratio measures what a run costs, not what its bytes cost"
    )


def _startup(cli: str, work: Path, repeat: int) -> None:
    """The CPU time of short runs, with the bytecode cached as an installed package has it."""
    # An environment that sets PYTHONDONTWRITEBYTECODE (this sandbox does) would
    # otherwise compile every module of the package on every run.
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(work / "pycache")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)

    def best(command: list[str]) -> float:
        subprocess.run(command, env=env, capture_output=True, check=True)  # writes the bytecode
        return min(_cpu_of(command, env)[0] for _ in range(repeat))

    baseline = best([sys.executable, "-c", "import json"])
    files = best([cli, "files", str(SMALL_TRANSCRIPT)])
    print(
        f"\nStart-up: `artifact-index files {SMALL_TRANSCRIPT.relative_to(ROOT)}` {files * 1e3:.0f} ms, "
        f"`python -c 'import json'` {baseline * 1e3:.0f} ms: ratio {files / baseline:.1f}"
    )
    print(
        "  what importing costs (ms):",
        ", ".join(
            f"{module} {best([sys.executable, '-c', f'import {module}']) * 1e3:.0f}"
            for module in (
                "pydantic",
                "networkx",
                "tree_sitter",
                "artifact_index.ingestion.events",
                "artifact_index.trail.tracker",
                "artifact_index.presentation.cli",
            )
        ),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--work", type=Path, default=Path("/tmp/artifact-index-bench"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sizes", default="25,50,100")
    parser.add_argument("--child-index", help=argparse.SUPPRESS)
    parser.add_argument("--child-events", help=argparse.SUPPRESS)
    parser.add_argument("--child-adapter", help=argparse.SUPPRESS)
    parser.add_argument("--child-floor", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_index:
        print(json.dumps(_child_index(args.child_index)))
        return 0
    if args.child_floor:
        print(json.dumps(_child_floor(args.child_floor)))
        return 0
    if args.child_adapter:
        print(json.dumps(_child_adapter(args.child_adapter)))
        return 0
    if args.child_events:
        print(json.dumps(_child_events(args.child_events)))
        return 0

    sizes = [int(s) for s in args.sizes.split(",")]
    args.work.mkdir(parents=True, exist_ok=True)
    print(
        f"CPU time, best of {args.repeat}, each index run in a fresh process; shared machine, "
        f"load average {os.getloadavg()[0]:.2f} at the start\n"
    )
    header = f"{'transcript':46} {'format':15} {'MB':>7} {'floor':>5} {'orjson s':>8} {'index s':>8} {'MB/s':>6} {'ratio':>6} {'events':>7} {'fresh':>6}"
    rows: list[dict[str, Any]] = []
    if args.corpus.is_dir():
        print(f"Largest transcript of each format in {args.corpus}")
        print(header)
        for _, path, label in _largest_per_format(args.corpus, args.work):
            rows.append(_index_row(label[:46], path, args.repeat))
    else:
        print(f"no corpus at {args.corpus}: corpus rows skipped")

    _fixed_cost(args.repeat)

    print("\nSynthetic sessions (benchmarks/synthetic.py)")
    print(header)
    synthetic: dict[tuple[str, int], dict[str, Any]] = {}
    for format in FORMATS:
        for size in sizes:
            row = _index_row(
                f"synthetic {format} {size} MB", _synthetic(format, size, args.work), args.repeat
            )
            rows.append(row)
            synthetic[format, size] = row

    verdicts: list[tuple[str, bool]] = []
    worst = max(rows, key=lambda r: r["ratio"])
    verdicts.append(
        (
            f"every index/orjson ratio <= {TARGET_RATIO} (worst {worst['ratio']:.1f}, {worst['label']})",
            worst["ratio"] <= TARGET_RATIO,
        )
    )

    small, large = min(sizes), max(sizes)
    print(f"\nScaling: index time {large} MB / {small} MB (linear = {large / small:.1f})")
    for format in FORMATS:
        scaling = synthetic[format, large]["index"] / synthetic[format, small]["index"]
        print(f"  {format:12} {scaling:5.2f}")
        verdicts.append(
            (
                f"{format} {large} MB / {small} MB time ratio <= {TARGET_SCALING} ({scaling:.2f})",
                scaling <= TARGET_SCALING,
            )
        )

    print(f"\nFeed cost per event, last 10% / first 10% of the {large} MB sessions (microseconds)")
    for format in FORMATS:
        path = _synthetic(format, large, args.work)
        runs = [_in_child("events", path) for _ in range(args.repeat)]
        first = min(r["first"] for r in runs) / 1e3
        last = min(r["last"] for r in runs) / 1e3
        print(
            f"  {format:12} {runs[0]['events']:8} events  first {first:8.1f}  last {last:8.1f}  "
            f"ratio {last / first:5.2f}"
        )
        for kind in sorted(runs[0]["kinds"]):
            k_first = min(r["kinds"][kind][0] for r in runs) / 1e3
            k_last = min(r["kinds"][kind][1] for r in runs) / 1e3
            ratio = f"{k_last / k_first:5.2f}" if k_first else "    -"
            print(
                f"    {kind:20} {runs[0]['kinds'][kind][2]:8}  first {k_first:8.1f}  last {k_last:8.1f}  ratio {ratio}"
            )
        verdicts.append(
            (
                f"{format} per-event cost, last 10% within {TARGET_DRIFT}x of the first ({last / first:.2f})",
                last / first <= TARGET_DRIFT,
            )
        )

    cli = str(Path(sys.executable).with_name("artifact-index"))
    print(f"\nPeak memory of `artifact-index files --json` on the {large} MB sessions")
    for format in FORMATS:
        path = _synthetic(format, large, args.work)
        peak_mib = (
            min(
                _cpu_of([cli, "files", str(path), "--json"])[1]
                for _ in range(max(1, args.repeat - 1))
            )
            / 1024
        )
        print(f"  {format:12} {peak_mib:7.0f} MiB")
        verdicts.append(
            (
                f"{format} peak memory at {large} MB < {TARGET_PEAK_MIB} MiB ({peak_mib:.0f} MiB)",
                peak_mib < TARGET_PEAK_MIB,
            )
        )

    _startup(cli, args.work, max(5, args.repeat))

    print(f"\nLoad average at the end {os.getloadavg()[0]:.2f}")
    print("\nTargets")
    for text, ok in verdicts:
        print(f"  [{'ok' if ok else 'MISSED'}] {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
