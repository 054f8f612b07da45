"""Where the start-up of ``hook`` on a small transcript goes, by kind of cost.

    python benchmarks/start_up_costs.py [--work /tmp/artifact-index-start-up] [--repeat 5]
                                        [--event SessionStart] [--cold]

``benchmarks/bench_loop.py --parts startup`` says how much ``hook`` costs on
the example transcript against ``python -c 'import json'``; this says where
it goes, so that the next cut is made where the time is.  Each of
``--repeat`` runs is a fresh process (bytecode cached as an installed package
has it, the hook's state kept by a first run unless ``--cold``) that runs the
command line in-process with timers around:

* ``interpreter``: the process's CPU time when its first line runs;
* ``imports``: the command line and the hook's modules, as the console
  script imports them (collector held off, then frozen), with the number of
  modules imported, all and this project's;
* ``work``: the hook's own work (the command's function);

and, within each, what the timers around these saw (thread CPU time; a
figure may hold another: a validator's build holds pydantic's scan of the
installed packages for its plugins):

* ``dataclasses``, ``model classes``: creating the classes (the generated
  methods of a dataclass, the fields of a pydantic model), this project's
  and those of the packages it imports;
* ``entry-point scans``: ``importlib.metadata.entry_points`` (the command
  line's plugins, pydantic's);
* ``validators built``: pydantic builds a model's validator on its first use;
* ``patterns compiled``: regular expressions compiled (not found in ``re``'s
  cache): the redaction rules, compiled on first use, are most of the work's.

``total`` is the process's CPU time at its end.  Also measured, each in its
own fresh process: ``python -c 'import json'`` and ``import pydantic`` with
its ``BaseModel`` (what any use of a model costs).  The run with the least
total is printed, with the median of each figure over all runs.  CPU times
are user + system and move with the machine's load (printed at the start
and the end); the timers add a little of their own.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "claude-code-session.jsonl"

# Runs in the measured process: timers wrapped around what start-up is made of, then the command.
_PROBE = r"""
import resource, sys, time
def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime
started = cpu()
import dataclasses, json, re
costs = {"dataclasses": 0.0, "dataclasses (other packages)": 0.0, "model classes": 0.0,
         "model classes (other packages)": 0.0, "entry-point scans": 0.0,
         "validators built": 0.0, "patterns compiled": 0.0}
counts = dict.fromkeys(costs, 0)
def timed(kind, function):
    def wrapper(*args, **kwargs):
        before = time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            costs[kind] += time.thread_time() - before
            counts[kind] += 1
    return wrapper
def by_owner(kind, function):
    # Classes of this project, apart from those of the packages it imports.
    ours, others = timed(kind, function), timed(kind + " (other packages)", function)
    def wrapper(*args, **kwargs):
        if isinstance(args[0], type) and len(args) > 3 and isinstance(args[3], dict):
            module = args[3].get("__module__", "")  # a metaclass's (mcs, name, bases, namespace)
        else:
            module = getattr(args[0], "__module__", "")  # a decorated class
        if str(module).startswith(("artifact_index", "summarizer")):
            return ours(*args, **kwargs)
        return others(*args, **kwargs)
    return wrapper
dataclasses._process_class = by_owner("dataclasses", dataclasses._process_class)
compile_pattern = re._compile
def compiling(pattern, flags):
    if isinstance(pattern, re.Pattern) or (type(pattern), pattern, flags) in re._cache:
        return compile_pattern(pattern, flags)
    return timed("patterns compiled", compile_pattern)(pattern, flags)
re._compile = compiling
# pydantic's model classes and validators, and the entry-point scans, timed where they are made:
# the wrappers are put in place as their modules load (pydantic imports its own lazily).
def wrap(module):
    if module.__name__ == "pydantic._internal._model_construction":
        meta = module.ModelMetaclass
        meta.__new__ = by_owner("model classes", meta.__new__)
        module.complete_model_class = timed("validators built", module.complete_model_class)
    if module.__name__ == "importlib.metadata":
        module.entry_points = timed("entry-point scans", module.entry_points)
import importlib._bootstrap as bootstrap
load = bootstrap._load_unlocked
def loading(spec):
    module = load(spec)
    wrap(module)
    return module
bootstrap._load_unlocked = loading
imported_before = set(sys.modules)
marks = {}
import summarizer.cli as summarizer_cli
run_hook = summarizer_cli.cmd_hook
def hook(args):
    marks["work"] = cpu()
    marks["at work"] = (dict(costs), dict(counts))
    try:
        return run_hook(args)
    finally:
        marks["done"] = cpu()
summarizer_cli.cmd_hook = hook
# Imported as the console script imports the command line (summarizer.cli above is a few ms of it).
import contextlib, io, os
from artifact_index.presentation.command import main
sys.argv = ["artifact-index", "hook"]
ending = os._exit
def report(code):
    marks.setdefault("done", cpu())  # the hook ends its process with its answer (os._exit)
    ours = [m for m in set(sys.modules) - imported_before if m.split(".")[0] in ("artifact_index", "summarizer")]
    print(json.dumps({
        "interpreter": started, "imports": marks["work"] - started, "work": marks["done"] - marks["work"],
        "total": cpu(), "costs": costs, "counts": counts, "modules": len(sys.modules),
        "imports costs": marks["at work"][0], "imports counts": marks["at work"][1],
        "ours": len(ours), "code": code,
    }), file=sys.__stdout__, flush=True)
    ending(code)
os._exit = report
with contextlib.redirect_stdout(io.StringIO()):
    code = main()
report(code)
"""

_BASELINES = {
    "python -c 'import json'": "import json",
    "import pydantic, BaseModel": "import json; from pydantic import BaseModel",
}
_CPU = (
    "import resource, subprocess, sys\n"
    "subprocess.run([sys.executable, '-c', sys.argv[1]], check=True)\n"
    "usage = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "print(usage.ru_utime + usage.ru_stime)\n"
)


def _env(work: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(work / "pycache")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["ARTIFACT_INDEX_STATE_HOME"] = str(work / "state")
    env["ARTIFACT_INDEX_STORE"] = str(work / "store.db")
    env["ARTIFACT_INDEX_HOOK_SECONDS"] = "3600"
    return env


def _probe(work: Path, payload: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE],
        input=payload,
        capture_output=True,
        text=True,
        env=_env(work),
        check=True,
        timeout=300,
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if result["code"] != 0:
        raise SystemExit(f"the hook failed ({result['code']}): {done.stderr.strip()[:500]}")
    # What the work made: the costs at its end less those at its start.
    for figures in ("costs", "counts"):
        before = result[f"imports {figures}"]
        result[f"work {figures}"] = {k: v - before[k] for k, v in result[figures].items()}
    return result


def _baseline(work: Path, code: str, repeat: int) -> float:
    def once() -> float:
        done = subprocess.run(
            [sys.executable, "-c", _CPU, code],
            capture_output=True,
            text=True,
            env=_env(work),
            check=True,
        )
        return float(done.stdout)

    once()  # writes the bytecode
    return min(once() for _ in range(repeat))


# What the timers in the measured process add up, in the order printed.
_KINDS = (
    "dataclasses",
    "dataclasses (other packages)",
    "model classes",
    "model classes (other packages)",
    "entry-point scans",
    "validators built",
    "patterns compiled",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=Path("/tmp/artifact-index-start-up"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--event", default="SessionStart", help="the hook event")
    parser.add_argument(
        "--cold", action="store_true", help="no kept state: every run reads the transcript whole"
    )
    args = parser.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    args.work.mkdir(parents=True)
    payload = json.dumps(
        {"hook_event_name": args.event, "source": "compact", "transcript_path": str(EXAMPLE)}
    )
    print(f"load average at the start {os.getloadavg()[0]:.1f}")
    _probe(args.work, payload)  # writes the bytecode, keeps the state
    runs = []
    for _ in range(max(1, args.repeat)):
        if args.cold:
            shutil.rmtree(args.work / "state", ignore_errors=True)
        runs.append(_probe(args.work, payload))
    best = min(runs, key=lambda run: float(run["total"]))

    def line(label: str, figure: Callable[[dict[str, Any]], float], note: str = "") -> None:
        median = statistics.median(figure(run) * 1e3 for run in runs)
        print(f"  {label:34} {figure(best) * 1e3:7.1f} ms  (median {median:6.1f}){note}")

    state = "no kept state" if args.cold else "state kept by an earlier run"
    print(f"`artifact-index hook` ({args.event}, {state}) on {EXAMPLE.relative_to(ROOT)}:")
    line("total", lambda run: run["total"])
    line("interpreter", lambda run: run["interpreter"])
    modules = f"  {best['modules']} modules, {best['ours']} of this project"
    for phase in ("imports", "work"):
        line(phase, lambda run, phase=phase: run[phase], modules if phase == "imports" else "")
        for kind in _KINDS:
            if count := best[f"{phase} counts"][kind]:
                line(f"  {kind}", lambda run, k=kind, p=phase: run[f"{p} costs"][k], f"  {count}")
    for label, code in _BASELINES.items():
        print(f"  {label:34} {_baseline(args.work, code, args.repeat) * 1e3:7.1f} ms")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
