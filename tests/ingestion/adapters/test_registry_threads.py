"""The adapter registry loads once, whole, whichever threads ask for it first (a server's workers do)."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.support.paths import ROOT

# In a process of its own: the registry loads only once per process.
_FIRST_READS_AT_ONCE = """
import json, sys, threading
from artifact_index.ingestion.adapters import detect
from artifact_index.ingestion.source import read_source

start = threading.Barrier(8)
found = []

def read():
    start.wait()
    try:
        found.append(detect(read_source(sys.argv[1])).name)
    except Exception as exc:
        found.append(f"{type(exc).__name__}: {exc}")

threads = [threading.Thread(target=read) for _ in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(json.dumps(found))
"""


def test_the_first_reads_at_once_all_see_every_format() -> None:
    transcript = ROOT / "examples" / "claude-code-session.jsonl"
    for _ in range(3):  # each run a fresh process, each a fresh race
        done = subprocess.run(
            [sys.executable, "-c", _FIRST_READS_AT_ONCE, str(transcript)],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=ROOT,
        )
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == ["claude-code"] * 8
