"""Where a hook call after appended records spends its CPU, phase by phase, at each session size.

    python benchmarks/hook_phases.py [--work /tmp/artifact-index-bench] [--sizes 25,100]
                                     [--formats claude-code,codex] [--repeat 3]

``benchmarks/bench_loop.py --parts hook`` says how much a ``SessionStart``
hook after 10 appended records costs; this says where it goes, so that what
grows with the session is found first.  For each synthetic session
(``benchmarks/synthetic.py``) a first hook call keeps its state, then each
of ``--repeat`` calls, after appending 10 more records, runs in a fresh
process with the hook's work inline (no worker thread, no deadline) and
timers around its phases:

* ``imports``: the command line and the hook's modules, as the console
  script imports them (collector held off, then frozen);
* ``state``: loading the kept state (:meth:`HookStates.load_kept`);
* ``read``: reading and indexing the appended records;
* ``report``: the session's report, and within it the symbols, the file
  entries, the digests that find the kept file reports, and the errors;
* ``render``: the sections as Markdown; ``redact``: every redaction;
* ``total``: the process's CPU time.

The call with the least total is printed.  CPU times are user + system and
move with the machine's load (printed at the start and the end), wall times
are not shown.
"""

from __future__ import annotations

import argparse
import functools
import gc
import importlib
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_floor
import bench_loop
from synthetic import FORMATS

# (column, module, attribute path): the callable timed as that phase.  Functions other modules
# imported by name are timed through the module-level function they call.
PHASES = (
    ("state", "summarizer.integrations.hook_state", "HookStates.load_kept"),
    ("read", "artifact_index.live.live_transcript", "LiveTranscript.refresh"),
    ("report", "artifact_index.trail.session_report", "_session_report"),
    ("symbols", "artifact_index.trail.index", "ArtifactIndex.symbols"),
    ("files", "artifact_index.trail.index", "ArtifactIndex.files"),
    ("digests", "artifact_index.trail.file_reports", "_made_from"),
    ("errors", "artifact_index.trail.index", "ArtifactIndex.errors"),
    ("render", "summarizer.integrations.hooks", "file_trail_context"),
    ("redact", "artifact_index.redaction", "_redact"),
)
COLUMNS = ("imports", *(name for name, _, _ in PHASES), "total")


def _timed(spent: dict[str, float], name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(function)
    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[name] = spent.get(name, 0.0) + time.process_time() - start

    return timed


def _child() -> None:
    """One hook call, inline, with its phases timed; prints them as JSON on standard error."""
    spent: dict[str, float] = {}
    start = time.process_time()
    gc.disable()  # as artifact_index.presentation.command imports the command line
    from artifact_index.presentation.cli import main as run_command_line
    from summarizer.cli import register_commands  # noqa: F401 (the hook's command)
    from summarizer.integrations import hook_limits, hooks

    gc.freeze()
    gc.enable()
    spent["imports"] = time.process_time() - start
    for name, module_name, path in PHASES:
        module = importlib.import_module(module_name)
        owner_name, _, attribute = path.rpartition(".")
        owner = getattr(module, owner_name) if owner_name else module
        setattr(owner, attribute, _timed(spent, name, getattr(owner, attribute)))

    def inline(work: Any, deadline: Any) -> Any:
        return hook_limits.Within(work(hook_limits.Offers()), late=False)

    hooks.answer_within = inline  # type: ignore[assignment]

    def report(code: int) -> None:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        spent["total"] = usage.ru_utime + usage.ru_stime
        sys.stdout.flush()
        print(json.dumps({"exit": code, **spent}), file=sys.stderr, flush=True)

    # The hook ends its own process with its answer (os._exit): the phases are told on the way.
    ending = os._exit

    def end(code: int) -> NoReturn:
        report(code)
        ending(code)

    os._exit = end
    sys.argv = ["artifact-index", "hook"]
    report(run_command_line())


def _call(env: dict[str, str], hook_input: Path) -> dict[str, float]:
    with hook_input.open("rb") as stdin:
        done = subprocess.run(
            [sys.executable, __file__, "--child"],
            stdin=stdin,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=env,
            check=True,
        )
    spent: dict[str, float] = json.loads(done.stderr.decode().strip().splitlines()[-1])
    return spent


def _row(cli: str, format: str, megabytes: int, work: Path, repeat: int) -> dict[str, float]:
    source = bench_floor._synthetic(format, megabytes, work)
    run_dir = work / "phases" / f"{format}-{megabytes}"
    shutil.rmtree(run_dir, ignore_errors=True)
    run_dir.mkdir(parents=True)
    transcript = run_dir / "session.jsonl"
    shutil.copyfile(source, transcript)
    env = {**bench_loop._env(run_dir), "ARTIFACT_INDEX_STORE": str(run_dir / "store.db")}
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
    bench_loop._measure([cli, "hook"], env, hook_input)  # the first call keeps the state
    appended = bench_loop._lines_after(format, megabytes, work, bench_loop.APPENDED * repeat)
    calls = []
    for n in range(repeat):
        with transcript.open("ab") as out:
            out.write(b"".join(appended[n * bench_loop.APPENDED : (n + 1) * bench_loop.APPENDED]))
        calls.append(_call(env, hook_input))
    return min(calls, key=lambda spent: spent["total"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--work", type=Path, default=Path("/tmp/artifact-index-bench"))
    parser.add_argument("--sizes", default="25,100")
    parser.add_argument("--formats", default=",".join(FORMATS))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if args.child:
        _child()
        return 0
    args.work.mkdir(parents=True, exist_ok=True)
    cli = str(Path(sys.executable).with_name("artifact-index"))
    bench_loop._BYTECODE.append(args.work / "pycache")
    bench_loop._warm_up(cli, args.work)
    print(
        f"CPU ms of a hook call after {bench_loop.APPENDED} appended records (best of {args.repeat});"
    )
    print(f"load average {os.getloadavg()[0]:.1f} at the start")
    print(f"{'session':18}" + "".join(f"{column:>9}" for column in COLUMNS))
    for format in [f for f in args.formats.split(",") if f in FORMATS]:
        for megabytes in [int(s) for s in args.sizes.split(",")]:
            spent = _row(cli, format, megabytes, args.work, args.repeat)
            cells = "".join(f"{spent.get(column, 0.0) * 1e3:9.0f}" for column in COLUMNS)
            print(f"{format + f' {megabytes} MB':18}{cells}", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
