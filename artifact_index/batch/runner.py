"""One per-file function over many files, in parallel, with the results in input order.

The function runs in worker processes on this machine
(:class:`~concurrent.futures.ProcessPoolExecutor`, one per core by
default), or on a Dask cluster (:mod:`artifact_index.batch.dask_cluster`,
the optional ``artifact-index[dask]`` extra), which offers the same
executor interface;
the function and its arguments must be picklable, so module-level.  At most
a few tasks per worker are in flight, so a million transcripts need no more
memory than a hundred; results come back in input order as soon as each
one and all before it are done.  A task may take several items
(``batch``): a Dask scheduler's round trip for each task costs more client
time than a short transcript takes to index.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import Any, TypeVar

from artifact_index.exceptions import ArtifactIndexError

__all__ = ["BackendUnavailable", "batch_size", "default_jobs", "local_executor", "run_in_order"]

Item = TypeVar("Item")
Result = TypeVar("Result")

# Tasks in flight per worker: enough to keep every worker busy, few enough to bound memory.
_AHEAD_PER_WORKER = 4
# Items per task at most, and tasks per worker at least, when items are batched: the tasks of a
# run stay many enough that a worker that drew the long transcripts does not hold up the end.
_MOST_PER_BATCH = 32
_TASKS_PER_WORKER = 8


class BackendUnavailable(ArtifactIndexError):
    """The asked-for parallel backend is not installed or cannot be reached."""


def default_jobs() -> int:
    """Worker processes by default: one per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class _InProcess(Executor):
    """Runs each task at once, here: for one worker, where starting a process costs more than it saves."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:
            future.set_exception(exc)
        return future


@contextmanager
def local_executor(jobs: int) -> Iterator[Executor]:
    """Processes on this machine (``jobs`` of them; 1 runs everything in this process)."""
    if jobs <= 1:
        yield _InProcess()
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield pool


def batch_size(items: int, workers: int) -> int:
    """Items per task for ``items`` over ``workers``: at most 32, and 8 tasks per worker at least."""
    return max(1, min(_MOST_PER_BATCH, items // (max(1, workers) * _TASKS_PER_WORKER)))


def _each(function: Callable[..., Result], items: Sequence[Item], *extra: Any) -> list[Result]:
    """One task of a batched run: ``function`` over several items, in a worker."""
    return [function(item, *extra) for item in items]


def run_in_order(
    function: Callable[..., Result],
    items: Sequence[Item],
    executor: Executor,
    *,
    extra: Iterable[Any] = (),
    workers: int = 1,
    on_done: Callable[[], None] | None = None,
    batch: int = 1,
) -> Iterator[tuple[Item, Result]]:
    """``(item, function(item, *extra))`` for each item, in the order of ``items``.

    ``batch`` items go to a worker as one task.  ``on_done`` is called as
    each item finishes, in whatever order they do (a progress bar).  An
    exception of ``function`` is raised here at its item's turn and ends the
    run, so a failure that concerns one item belongs in that item's result.
    """
    arguments = tuple(extra)
    batch = max(1, batch)
    batches = [items[start : start + batch] for start in range(0, len(items), batch)]
    window = max(1, workers) * _AHEAD_PER_WORKER
    pending: dict[Future[list[Result]], int] = {}
    finished: dict[int, Future[list[Result]]] = {}
    submitted = emitted = 0
    while emitted < len(batches):
        while submitted < len(batches) and len(pending) + len(finished) < window:
            task = executor.submit(_each, function, batches[submitted], *arguments)
            pending[task] = submitted
            submitted += 1
        if emitted not in finished:
            done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            for future in done:
                number = pending.pop(future)
                finished[number] = future
                if on_done is not None:
                    for _ in batches[number]:
                        on_done()
            continue
        yield from zip(batches[emitted], finished.pop(emitted).result(), strict=True)
        emitted += 1
