"""The Dask backend runs the same per-file function on a cluster's workers: here a real local cluster."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

distributed = pytest.importorskip(
    "distributed", reason="the Dask backend is the optional [dask] extra"
)


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address="127.0.0.1:0",
        host="127.0.0.1",
    ) as cluster:
        yield str(cluster.scheduler_address)


def lines_of(*args: str) -> tuple[list[dict[str, object]], str]:
    done = subprocess.run(
        [sys.executable, "-m", "artifact_index", *args], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()], done.stderr


def test_a_cluster_indexes_real_transcripts_exactly_as_local_workers_do(
    corpus_dir: Path, scheduler: str
) -> None:
    folder = str(corpus_dir / "opencode")
    on_cluster, stderr = lines_of("files", folder, "--json", "--dask", scheduler)
    here, _ = lines_of("files", folder, "--json", "--jobs", "2")
    assert len(on_cluster) == len(list((corpus_dir / "opencode").glob("*.gz"))) > 1
    assert on_cluster == here
    assert "other files are not transcripts" in stderr


def test_an_unreachable_scheduler_is_one_sentence(tmp_path: Path) -> None:
    example = Path(__file__).resolve().parents[2] / "examples" / "codex-rollout.jsonl"
    (tmp_path / "rollout.jsonl").write_bytes(example.read_bytes())
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "artifact_index",
            "files",
            str(tmp_path),
            "--dask",
            "tcp://127.0.0.1:9",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "cannot be reached" in done.stderr
