"""Any transcript command over several transcripts or folders, in one process tree.

Each transcript is indexed in a worker (see :mod:`artifact_index.batch`)
by the very command that handles one transcript; its output comes back
here, in command-line order.  With ``--json`` each transcript is the one
line of JSON the command prints for it alone (``{"schema_version",
"transcript", ...}``), or ``{"schema_version", "transcript", "error"}``;
without, each output follows a ``==> PATH <==`` header, as ``head`` and
``tail`` do.
Files in a folder that no format recognizes are counted on standard error,
not printed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from concurrent.futures import Executor
from contextlib import AbstractContextManager

from artifact_index.batch.discovery import Candidate, expand
from artifact_index.batch.per_file import Outcome, run_command
from artifact_index.batch.progress_bar import Progress
from artifact_index.batch.runner import batch_size, default_jobs, local_executor, run_in_order
from artifact_index.exceptions import ArtifactIndexError, UsageError
from artifact_index.presentation.output import SCHEMA_VERSION
from artifact_index.redaction import redact_json, redact_text

__all__ = ["executor_for", "items_per_task", "run_batch"]

# A transcript that could not be read is a data error, as for one transcript alone.
EXIT_FAILED = 1


def executor_for(
    args: argparse.Namespace, items: int
) -> tuple[AbstractContextManager[Executor], int]:
    """The executor the batch options ask for, and how many workers it has (see :func:`items_per_task`)."""
    jobs = args.jobs if args.jobs is not None else default_jobs()
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {jobs}")
    jobs = min(jobs, max(items, 1))
    if args.dask:
        from artifact_index.batch.dask_cluster import dask_executor

        return dask_executor(None if args.dask == "local" else args.dask, jobs), jobs
    return local_executor(jobs), jobs


def items_per_task(args: argparse.Namespace, items: int, jobs: int) -> int:
    """Transcripts per task: one on this machine's processes, a batch on a Dask cluster."""
    return batch_size(items, jobs) if args.dask else 1


def _json_line(candidate: Candidate, outcome: Outcome) -> str:
    """The transcript's JSON line: what its command printed (already one line), or its error."""
    if outcome.kind == "done" and outcome.stdout.endswith("\n") and outcome.stdout.count("\n") == 1:
        return outcome.stdout
    data: dict[str, object] = {
        "schema_version": SCHEMA_VERSION,
        "transcript": candidate.path,
        "error": outcome.message or "printed no JSON",
    }
    return json.dumps(redact_json(data), ensure_ascii=False) + "\n"


def _noun(candidates: list[Candidate]) -> str:
    """What the progress bar counts: transcripts when each was named, else files of folders."""
    return "transcripts" if all(c.named for c in candidates) else "files"


def _folders(arguments: list[str]) -> str:
    return ", ".join(arguments)


def run_batch(args: argparse.Namespace) -> int:
    """Run ``args.run`` on every transcript ``args.transcript`` names; 2 when any failed."""
    arguments: list[str] = args.transcript
    candidates = expand(arguments)
    if not candidates:
        raise ArtifactIndexError(f"no files in {_folders(arguments)}")
    executor, jobs = executor_for(args, len(candidates))
    as_json = bool(getattr(args, "json", False))
    progress = Progress(len(candidates), noun=_noun(candidates))
    counts: Counter[str] = Counter()
    with executor as pool:
        for candidate, outcome in run_in_order(
            run_command,
            candidates,
            pool,
            extra=(args,),
            workers=jobs,
            on_done=progress.advance,
            batch=items_per_task(args, len(candidates), jobs),
        ):
            counts[outcome.kind] += 1
            if outcome.kind != "not_transcript":
                progress.found_transcript()
            progress.clear()
            if outcome.stderr:
                sys.stderr.write(outcome.stderr)
            if outcome.kind == "failed":
                message = outcome.message or "failed"
                shown = message if candidate.path in message else f"{candidate.path}: {message}"
                print(redact_text(f"artifact-index: error: {shown}"), file=sys.stderr)
            if outcome.kind == "not_transcript":
                continue
            if as_json:
                sys.stdout.write(_json_line(candidate, outcome))
            elif outcome.kind == "done":
                sys.stdout.write(
                    f"{'' if counts['done'] == 1 else chr(10)}==> {candidate.path} <==\n{outcome.stdout}"
                )
            sys.stdout.flush()
    progress.clear()
    transcripts = counts["done"] + counts["failed"]
    if not transcripts:
        raise ArtifactIndexError(
            f"no transcripts in {_folders(arguments)} "
            f"({counts['not_transcript']} files, none in a format this tool knows)"
        )
    others = (
        f"; {counts['not_transcript']} other files are not transcripts"
        if counts["not_transcript"]
        else ""
    )
    failed = f", {counts['failed']} failed" if counts["failed"] else ""
    print(
        f"artifact-index: {transcripts} transcripts, {counts['done']} indexed{failed}{others}",
        file=sys.stderr,
    )
    return EXIT_FAILED if counts["failed"] else 0
