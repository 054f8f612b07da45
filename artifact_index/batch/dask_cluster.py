"""The Dask backend of a batch run: the same per-file function on a cluster's workers.

Only imported when asked for (``--dask``); ``distributed`` comes with the
``artifact-index[dask]`` extra.  Every worker must have artifact-index
installed and see the transcripts at the same paths (a shared file
system), as Dask's own readers require.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Executor
from contextlib import contextmanager

from artifact_index.batch.runner import BackendUnavailable
from artifact_index.distribution import reinstall_with

__all__ = ["dask_executor"]


@contextmanager
def dask_executor(address: str | None, jobs: int) -> Iterator[Executor]:
    """The workers of the Dask scheduler at ``address``, or of a local cluster of ``jobs`` processes."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as exc:
        raise BackendUnavailable(
            f"the Dask backend is an optional part this installation lacks: {reinstall_with('dask')}"
        ) from exc
    cluster = None
    try:
        if address:
            client = Client(address, timeout="10s")
        else:
            # One thread per worker: the work is pure Python, so threads would only contend for the GIL.
            # Its web server on a free loopback port: the usual 8787 may be taken, and it serves no one here.
            cluster = LocalCluster(
                n_workers=jobs,
                threads_per_worker=1,
                processes=True,
                dashboard_address="127.0.0.1:0",
                host="127.0.0.1",
            )
            client = Client(cluster)
    except (OSError, TimeoutError) as exc:
        if cluster is not None:
            cluster.close()
        raise BackendUnavailable(
            f"the Dask scheduler {address or '(local)'} cannot be reached ({exc})"
        ) from exc
    try:
        yield client.get_executor(pure=False)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
