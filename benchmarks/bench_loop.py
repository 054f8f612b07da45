"""What a session pays inside the agent's loop, at any size: hooks, the watcher, start-up, batch.

    python benchmarks/bench_loop.py [--work /tmp/artifact-index-bench] [--sizes 25,100] [--repeat 3]
                                    [--corpus ../shared/corpus] [--skip-floor]
                                    [--parts hook,watch,startup,floor,batch] [--formats claude-code,codex]

Prints, in one run, for synthetic Claude Code and Codex sessions of each
size (``benchmarks/synthetic.py``):

1. the hook (``artifact-index hook``, a ``SessionStart`` after a compaction,
   one fresh process per call as an agent runs it): the first call, with no
   state kept yet, then calls after appending 10 records each (the best of
   ``--repeat``), and their ratio;
2. ``artifact-index watch`` on the session: the latency from appending 10
   records to the session store holding them (wall time, which includes the
   watcher's 200 ms debounce), the watcher's CPU time for that refresh, the
   latency of the first append after the catch-up alone (the refresh that
   pays for anything the catch-up left undone), and the watcher process's
   peak memory over the whole run (catch-up included);

then:

3. the start-up of ``hook`` on a small transcript against
   ``python -c 'import json'`` (CPU time, best of several fresh processes,
   bytecode cached as an installed package has it);
4. from ``benchmarks/bench_floor.py``: index time over one ``orjson`` parse
   of the same bytes, and the feed cost per event in the last tenth of the
   largest sessions against the first (skipped with ``--skip-floor``);
5. batch throughput over the corpus transcripts (``artifact-index files
   ... --json``) with the local process pool and with a local Dask cluster,
   in MB of transcript per second (wall time: the point of a batch is to
   use every core) and per CPU second.

CPU time is user + system of the process (and its children); the machine is
shared, so wall times move with its load (printed at the start and the end)
and only CPU times are compared with the targets, except for the watch
latency, which is a wall time by nature.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_floor  # noqa: E402
from synthetic import FORMATS  # noqa: E402

SMALL_TRANSCRIPT = ROOT / "examples" / "claude-code-session.jsonl"
APPENDED = 10  # records appended between two hook calls, or before a watch refresh
TARGET_HOOK_AFTER = 0.3  # CPU seconds at the largest size
TARGET_HOOK_SHARE = 0.1  # of the first call
TARGET_WATCH_LATENCY = 0.3  # seconds at the largest size
TARGET_WATCH_PEAK_MIB = 400
TARGET_STARTUP = 5.0
TARGET_INDEX_RATIO = {"claude-code": 6.0, "codex": 12.0}
TARGET_DRIFT = 1.1
PARTS = ("hook", "watch", "startup", "floor", "batch")

# Runs a command (standard input from the file named first, "-" for none) and prints its exit
# code, CPU seconds, peak resident KiB and wall seconds.  The command is not forked from the
# benchmark, whose own memory a fork would count as the child's.
_MEASURE = (
    "import resource, subprocess, sys, time\n"
    "stdin = None if sys.argv[1] == '-' else open(sys.argv[1], 'rb')\n"
    "start = time.perf_counter()\n"
    "done = subprocess.run(sys.argv[2:], stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)\n"
    "wall = time.perf_counter() - start\n"
    "usage = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "sys.stderr.buffer.write(done.stderr)\n"
    "print(done.returncode, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, wall)\n"
)


# Where the bytecode of every measured run is cached, as an installed package has it (an
# environment that sets PYTHONDONTWRITEBYTECODE would otherwise compile every module each run).
_BYTECODE: list[Path] = []


def _env(work: Path) -> dict[str, str]:
    """The environment of every measured run: bytecode cached, state and store under ``work``."""
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(_BYTECODE[0])}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["ARTIFACT_INDEX_STATE_HOME"] = str(work / "state")
    env["ARTIFACT_INDEX_STORE"] = str(work / "store.db")
    # CPU time is what is measured: on a loaded machine the hook's deadline would cut a long
    # first read short (and the benchmark would measure part of it).
    env["ARTIFACT_INDEX_HOOK_SECONDS"] = "3600"
    return env


def _warm_up(cli: str, work: Path) -> None:
    """Write the bytecode of everything the measured commands import."""
    env = _env(work / "warm-up")
    hook_input = work / "warm-up" / "input.json"
    hook_input.parent.mkdir(parents=True, exist_ok=True)
    hook_input.write_text(json.dumps({"transcript_path": str(SMALL_TRANSCRIPT)}))
    for command, stdin in (
        ([cli, "hook", "--event", "PreCompact"], hook_input),
        ([cli, "--help"], None),
        ([cli, "files", str(SMALL_TRANSCRIPT)], None),
        ([cli, "watch", "--help"], None),
    ):
        _measure(command, env, stdin)


def _measure(command: list[str], env: dict[str, str], stdin: Path | None = None) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(stdin) if stdin else "-", *command],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    code, cpu, peak, wall = done.stdout.split()
    if code != "0" or done.stderr.strip():
        raise SystemExit(f"{' '.join(command)} failed ({code}): {done.stderr.strip()[:500]}")
    return {"cpu": float(cpu), "peak_mib": int(peak) / 1024, "wall": float(wall)}


def _lines_after(format: str, megabytes: int, work: Path, count: int) -> list[bytes]:
    """The records that follow the synthetic session of ``megabytes`` MB (it goes on in a longer one)."""
    prefix = bench_floor._synthetic(format, megabytes, work).stat().st_size
    longer = bench_floor._synthetic(format, megabytes + 1, work)
    with longer.open("rb") as handle:
        handle.seek(prefix)
        return handle.read().splitlines(keepends=True)[:count]


# --- the hook ---------------------------------------------------------------------------------------


def _hook_row(cli: str, format: str, megabytes: int, work: Path, repeat: int) -> dict[str, Any]:
    source = bench_floor._synthetic(format, megabytes, work)
    run_dir = work / "hook" / f"{format}-{megabytes}"
    shutil.rmtree(run_dir, ignore_errors=True)
    run_dir.mkdir(parents=True)
    transcript = run_dir / "session.jsonl"
    shutil.copyfile(source, transcript)
    env = {**_env(run_dir), "ARTIFACT_INDEX_STORE": str(run_dir / "store.db")}
    hook_input = run_dir / "input.json"
    hook_input.write_text(
        json.dumps(
            {
                "hook_event_name": "SessionStart",
                "source": "compact",
                "transcript_path": str(transcript),
            }
        )
    )
    command = [cli, "hook"]
    first = _measure(command, env, hook_input)
    after = []
    appended = _lines_after(format, megabytes, work, APPENDED * repeat)
    for n in range(repeat):
        with transcript.open("ab") as out:
            out.write(b"".join(appended[n * APPENDED : (n + 1) * APPENDED]))
        after.append(_measure(command, env, hook_input))
    best = min(after, key=lambda r: r["cpu"])
    row = {
        "format": format,
        "mb": megabytes,
        "first": first["cpu"],
        "first_wall": first["wall"],
        "after": best["cpu"],
        "after_wall": best["wall"],
        "peak_mib": max(first["peak_mib"], *(r["peak_mib"] for r in after)),
    }
    print(
        f"  {format:12} {megabytes:5} MB  first {row['first']:7.2f} s ({row['first_wall']:6.1f} wall)  "
        f"after {APPENDED} records {row['after']:6.2f} s ({row['after_wall']:5.1f} wall)  "
        f"ratio {row['after'] / row['first']:5.3f}  peak {row['peak_mib']:5.0f} MiB",
        flush=True,
    )
    return row


# --- the watcher ------------------------------------------------------------------------------------


def _stored_events(store: Path) -> int:
    import sqlite3

    if not store.exists():
        return 0
    try:
        with sqlite3.connect(store, timeout=1) as db:
            row = db.execute("SELECT events FROM sessions").fetchone()
    except sqlite3.Error:
        return 0
    return int(row[0]) if row else 0


def _cpu_of_pid(pid: int) -> float:
    """The CPU seconds (user + system) a running process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def _watch_row(cli: str, format: str, megabytes: int, work: Path, repeat: int) -> dict[str, Any]:
    source = bench_floor._synthetic(format, megabytes, work)
    run_dir = work / "watch" / f"{format}-{megabytes}"
    shutil.rmtree(run_dir, ignore_errors=True)
    (run_dir / "sessions").mkdir(parents=True)
    transcript = run_dir / "sessions" / "session.jsonl"
    shutil.copyfile(source, transcript)
    store = run_dir / "store.db"
    env = _env(run_dir)
    measured = subprocess.Popen(
        [sys.executable, "-c", _MEASURE, "-", cli, "watch", str(transcript), "--store", str(store)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        # Ctrl-C is how a watch ends: a benchmark started in the background (where SIGINT is
        # ignored, and the ignoring inherited) must still be able to end it.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    appended = _lines_after(format, megabytes, work, APPENDED * repeat)
    latencies, cpus = [], []
    try:
        deadline = time.monotonic() + 3600
        while _stored_events(store) == 0:
            if time.monotonic() > deadline or measured.poll() is not None:
                raise SystemExit(f"the watcher never stored {transcript}")
            time.sleep(0.2)
        time.sleep(1.0)  # watching now
        watcher = _watcher_pid(measured.pid)
        for n in range(repeat):
            before = _stored_events(store)
            cpu = _cpu_of_pid(watcher)
            start = time.perf_counter()
            with transcript.open("ab") as out:
                out.write(b"".join(appended[n * APPENDED : (n + 1) * APPENDED]))
            while _stored_events(store) == before:
                if time.perf_counter() - start > 600:
                    raise SystemExit("the watcher never stored the appended records")
                time.sleep(0.005)
            latencies.append(time.perf_counter() - start)
            time.sleep(0.5)  # the refresh is over
            cpus.append(_cpu_of_pid(watcher) - cpu)
    finally:
        # Ctrl-C ends a watch; the measuring process then reports on it.
        watcher_pid = _watcher_pid(measured.pid, missing_ok=True)
        if watcher_pid:
            os.kill(watcher_pid, signal.SIGINT)
        out, _ = measured.communicate(timeout=300)
    fields = out.split()
    peak = int(fields[2]) / 1024 if len(fields) == 4 else float("nan")
    row = {
        "format": format,
        "mb": megabytes,
        "latency": min(latencies),
        "latency_median": sorted(latencies)[len(latencies) // 2],
        "first_latency": latencies[0],
        "cpu": min(cpus),
        "peak_mib": peak,
    }
    print(
        f"  {format:12} {megabytes:5} MB  latency {row['latency']:5.2f} s (median {row['latency_median']:5.2f})  "
        f"refresh CPU {row['cpu']:5.2f} s  first after catch-up {row['first_latency']:5.2f} s  "
        f"peak {row['peak_mib']:5.0f} MiB",
        flush=True,
    )
    return row


def _watcher_pid(wrapper: int, *, missing_ok: bool = False) -> int:
    """The watcher process the measuring wrapper started (its child)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == wrapper:
            return int(stat.parent.name)
    if missing_ok:
        return 0
    raise SystemExit("the watcher process is gone")


# --- start-up, batch ----------------------------------------------------------------------------------


def _startup(cli: str, work: Path, repeat: int) -> tuple[float, float]:
    env = _env(work / "startup")
    hook_input = work / "startup" / "input.json"
    hook_input.parent.mkdir(parents=True, exist_ok=True)
    hook_input.write_text(
        json.dumps(
            {
                "hook_event_name": "SessionStart",
                "source": "compact",
                "transcript_path": str(SMALL_TRANSCRIPT),
            }
        )
    )

    def best(command: list[str], stdin: Path | None = None) -> float:
        _measure(command, env, stdin)  # writes the bytecode
        return min(_measure(command, env, stdin)["cpu"] for _ in range(repeat))

    baseline = best([sys.executable, "-c", "import json"])
    hook = best([cli, "hook"], hook_input)
    print(
        f"  `artifact-index hook` on {SMALL_TRANSCRIPT.relative_to(ROOT)}: {hook * 1e3:.0f} ms, "
        f"`python -c 'import json'` {baseline * 1e3:.0f} ms: ratio {hook / baseline:.1f}"
    )
    for command in (["--help"], ["files", str(SMALL_TRANSCRIPT)]):
        seconds = best([cli, *command])
        print(
            f"  `artifact-index {' '.join(command)}`: {seconds * 1e3:.0f} ms, ratio {seconds / baseline:.1f}"
        )
    return hook, baseline


def _corpus_transcripts(corpus: Path) -> tuple[list[str], float]:
    lines = (corpus / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]
    paths = [corpus / line.split("\t")[1] for line in lines if line.strip()]
    megabytes = 0.0
    for path in paths:
        data = path.read_bytes()
        megabytes += len(gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data) / 1e6
    return [str(p) for p in paths], megabytes


def _batch(cli: str, corpus: Path, work: Path) -> list[tuple[str, float, float]]:
    paths, megabytes = _corpus_transcripts(corpus)
    env = _env(work / "batch")
    rows = []
    for label, options in (("process pool", ["--jobs", "2"]), ("Dask", ["--dask", "--jobs", "2"])):
        result = _measure_batch([cli, "files", *paths, "--json", *options], env)
        rows.append((label, megabytes / result["wall"], megabytes / result["cpu"]))
        print(
            f"  {label:12} {len(paths)} transcripts, {megabytes:.1f} MB: {megabytes / result['wall']:6.1f} MB/s "
            f"(wall {result['wall']:.1f} s), {megabytes / result['cpu']:6.1f} MB per CPU second",
            flush=True,
        )
    return rows


def _measure_batch(command: list[str], env: dict[str, str]) -> dict[str, Any]:
    # A batch run's own failures (a transcript no format reads) are its output, not the benchmark's.
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, "-", *command], capture_output=True, text=True, env=env
    )
    _, cpu, peak, wall = done.stdout.split()
    return {"cpu": float(cpu), "peak_mib": int(peak) / 1024, "wall": float(wall)}


# --- the report ---------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--work", type=Path, default=Path("/tmp/artifact-index-bench"))
    parser.add_argument("--sizes", default="25,100")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument(
        "--skip-floor", action="store_true", help="leave out index/orjson and drift"
    )
    parser.add_argument(
        "--parts",
        default=",".join(PARTS),
        help=f"the parts to run, comma-separated (default: all of {','.join(PARTS)})",
    )
    parser.add_argument("--formats", default=",".join(FORMATS), help="the synthetic formats")
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    if args.skip_floor:
        parts.discard("floor")
    formats = [f for f in args.formats.split(",") if f in FORMATS]
    sizes = [int(s) for s in args.sizes.split(",")]
    largest = max(sizes)
    args.work.mkdir(parents=True, exist_ok=True)
    cli = str(Path(sys.executable).with_name("artifact-index"))
    _BYTECODE.append(args.work / "pycache")
    _warm_up(cli, args.work)
    print(
        f"CPU times are user + system; wall times move with the load (shared machine, load average "
        f"{os.getloadavg()[0]:.1f} at the start)\n"
    )
    verdicts: list[tuple[str, bool]] = []

    if "hook" in parts:
        print(
            f"Hook: first call, then after appending {APPENDED} records (CPU; best of {args.repeat})"
        )
    for format in formats if "hook" in parts else []:
        for size in sizes:
            row = _hook_row(cli, format, size, args.work, args.repeat)
            share = row["after"] / row["first"]
            verdicts.append(
                (
                    f"{format} {size} MB hook after {APPENDED} records <= 1/10 of the first ({share:.3f})",
                    share <= TARGET_HOOK_SHARE,
                )
            )
            if size == largest:
                verdicts.append(
                    (
                        f"{format} {size} MB hook after {APPENDED} records <= {TARGET_HOOK_AFTER} s CPU "
                        f"({row['after']:.2f})",
                        row["after"] <= TARGET_HOOK_AFTER,
                    )
                )

    if "watch" in parts:
        print(
            f"\nWatch: latency from appending {APPENDED} records to the store holding them (best of {args.repeat})"
        )
    for format in formats if "watch" in parts else []:
        for size in sizes:
            row = _watch_row(cli, format, size, args.work, args.repeat)
            if size == largest:
                verdicts.append(
                    (
                        f"{format} {size} MB watch latency <= {TARGET_WATCH_LATENCY} s wall ({row['latency']:.2f})",
                        row["latency"] <= TARGET_WATCH_LATENCY,
                    )
                )
                verdicts.append(
                    (
                        f"{format} {size} MB watcher peak < {TARGET_WATCH_PEAK_MIB} MiB ({row['peak_mib']:.0f})",
                        row["peak_mib"] < TARGET_WATCH_PEAK_MIB,
                    )
                )

    if "startup" in parts:
        print("\nStart-up (CPU, best of several fresh processes)")
        hook, baseline = _startup(cli, args.work, max(5, args.repeat))
        verdicts.append(
            (
                f"hook start-up <= {TARGET_STARTUP}x `python -c 'import json'` ({hook / baseline:.1f}x)",
                hook / baseline <= TARGET_STARTUP,
            )
        )

    if "floor" in parts:
        print(
            "\nIndex over orjson (benchmarks/bench_floor.py: CPU, best of each run in a fresh process)"
        )
        print(
            f"  {'transcript':46} {'format':15} {'MB':>7} {'floor':>5} {'orjson s':>8} {'index s':>8} "
            f"{'MB/s':>6} {'ratio':>6} {'events':>7} {'fresh':>6}"
        )
        for format in formats:
            path = bench_floor._synthetic(format, largest, args.work)
            row = bench_floor._index_row(f"synthetic {format} {largest} MB", path, args.repeat)
            verdicts.append(
                (
                    f"{format} {largest} MB index/orjson <= {TARGET_INDEX_RATIO[format]} ({row['ratio']:.1f})",
                    row["ratio"] <= TARGET_INDEX_RATIO[format],
                )
            )
        print(f"\nFeed cost per event, last 10% / first 10% of the {largest} MB sessions")
        for format in formats:
            path = bench_floor._synthetic(format, largest, args.work)
            runs = [bench_floor._in_child("events", path) for _ in range(args.repeat)]
            drift = min(r["last"] for r in runs) / min(r["first"] for r in runs)
            print(f"  {format:12} {runs[0]['events']:8} events  ratio {drift:5.2f}")
            verdicts.append(
                (f"{format} per-event drift <= {TARGET_DRIFT} ({drift:.2f})", drift <= TARGET_DRIFT)
            )

    if "batch" not in parts:
        pass
    elif (args.corpus / "MANIFEST.tsv").exists():
        print(f"\nBatch: `artifact-index files ... --json` over {args.corpus}")
        _batch(cli, args.corpus, args.work)
    else:
        print(f"\nno corpus at {args.corpus}: batch throughput skipped")

    print(f"\nLoad average at the end {os.getloadavg()[0]:.1f}")
    print("\nTargets")
    for text, ok in verdicts:
        print(f"  [{'ok' if ok else 'MISSED'}] {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
