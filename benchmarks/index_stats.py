"""The index's figures over the whole corpus: symbols, errors, decisions, tasks, and the time of `show`.

    .venv/bin/python benchmarks/index_stats.py [--corpus ../shared/corpus] [--by-format]

For every transcript (``<corpus>/<format>/*.gz``) it runs ``artifact-index
show`` in-process and times it (reading, indexing and rendering), then counts
from the same index: changed files (created, modified, deleted) and how many
of them got at least one changed symbol, errors and how many were resolved,
candidate decisions, tasks (open ones too) and user messages.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from artifact_index.facts.symbols.definitions import language_for_path
from artifact_index.ingestion.loading import Loaded
from artifact_index.presentation import cli
from artifact_index.trail.build import build_index
from artifact_index.trail.index import ArtifactIndex

DEFAULT_CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


@dataclass
class Totals:
    sessions: int = 0
    changed_files: int = 0
    changed_code_files: int = 0  # in a language with a tags query
    with_symbol: int = 0
    errors: int = 0
    resolved: int = 0
    sessions_with_original: int = 0
    test_commands: int = 0
    decisions: Counter[str] = field(default_factory=Counter)
    tasks: int = 0
    open_tasks: int = 0
    sessions_with_tasks: int = 0
    user_messages: int = 0
    show_seconds: list[float] = field(default_factory=list)

    def add(self, index: ArtifactIndex, seconds: float) -> None:
        self.sessions += 1
        self.show_seconds.append(seconds)
        symbols = index.symbols()
        for entry in index.changed_files():
            self.changed_files += 1
            self.changed_code_files += language_for_path(entry.path) is not None
            self.with_symbol += any(s.change != "read" for s in symbols.get(entry.path, []))
        errors = index.errors()
        self.errors += len(errors)
        self.resolved += sum(1 for e in errors if e.resolved)
        self.sessions_with_original += index.original_error() is not None
        self.test_commands += len(index.tests())
        self.decisions.update(d.kind for d in index.decisions())
        tasks = index.tasks()
        self.tasks += len(tasks)
        self.open_tasks += sum(1 for t in tasks if t.status in ("pending", "in_progress"))
        self.sessions_with_tasks += bool(tasks)
        self.user_messages += len(index.user_messages())


def _pct(part: int, whole: int) -> str:
    return f"{part / whole:.0%}" if whole else "-"


def report(name: str, t: Totals) -> str:
    seconds = sorted(t.show_seconds)
    return "\n".join(
        [
            f"{name}: {t.sessions} sessions",
            f"  changed files           {t.changed_files}; with at least one symbol {t.with_symbol} "
            f"({_pct(t.with_symbol, t.changed_files)}); code files {t.changed_code_files}, of which with a symbol "
            f"{_pct(t.with_symbol, t.changed_code_files)}",
            f"  errors                  {t.errors}; resolved {t.resolved} ({_pct(t.resolved, t.errors)}); "
            f"sessions with an original error {t.sessions_with_original}; test commands {t.test_commands}",
            f"  decisions               {sum(t.decisions.values())} "
            f"({', '.join(f'{k} {v}' for k, v in sorted(t.decisions.items()))})",
            f"  tasks                   {t.tasks} in {t.sessions_with_tasks} sessions, {t.open_tasks} open; "
            f"user messages {t.user_messages}",
            f"  show, s/session         mean {statistics.fmean(seconds):.3f}, median {statistics.median(seconds):.3f}, "
            f"max {seconds[-1]:.3f}"
            if seconds
            else "  show                    no sessions",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument(
        "--by-format", action="store_true", help="also print the figures of each format"
    )
    args = parser.parse_args()
    paths = sorted(p for p in args.corpus.glob("*/*.gz"))
    if not paths:
        parser.error(f"no transcripts under {args.corpus}")
    built: dict[str, tuple[ArtifactIndex, Loaded]] = {}

    def keep(path: str, format: str | None = None) -> tuple[ArtifactIndex, Loaded]:
        built[path] = build_index(path, format)
        return built[path]

    setattr(cli, "build_index", keep)  # noqa: B010  # keep the index `show` built, to count from it
    overall = Totals()
    by_format: dict[str, Totals] = {}
    for path in paths:
        start = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            code = cli.main(["show", str(path)])
        seconds = time.perf_counter() - start
        if code != 0:
            print(f"show failed with exit code {code} on {path}")
            continue
        index, _ = built.pop(str(path))
        overall.add(index, seconds)
        by_format.setdefault(path.parent.name, Totals()).add(index, seconds)
    print(report("corpus", overall))
    if args.by_format:
        for name, totals in sorted(by_format.items()):
            print(report(name, totals))


if __name__ == "__main__":
    main()
