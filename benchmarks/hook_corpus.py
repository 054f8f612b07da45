"""The hook over the whole corpus: exit codes and the largest output.

    python benchmarks/hook_corpus.py [--corpus ../shared/corpus] [--exe .venv/bin/artifact-index]

Runs ``artifact-index hook`` as an agent does (the hook input JSON on
standard input, one process per call) for every corpus transcript, once as
Claude Code's ``SessionStart`` after a compaction and once as ``PreCompact``,
and prints the exit codes seen and the largest output in characters: a hook
must never exit 2 (that blocks Claude Code's compaction) and never print
more than Claude Code's 10,000-character cap.
"""

from __future__ import annotations

import argparse
import collections
import gzip
import json
import subprocess
import sys
import tempfile
from pathlib import Path

EVENTS = (
    ("SessionStart", {"source": "compact"}),
    ("PreCompact", {"trigger": "auto", "custom_instructions": ""}),
)
CAP = 10_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--corpus", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "corpus"
    )
    parser.add_argument("--exe", default=str(Path(sys.executable).parent / "artifact-index"))
    args = parser.parse_args()
    codes: collections.Counter[int] = collections.Counter()
    largest, where, over = 0, "", 0
    with tempfile.TemporaryDirectory() as work:
        transcripts = sorted(args.corpus.rglob("*.gz"))
        for compressed in transcripts:
            plain = Path(work) / compressed.name[:-3]
            plain.write_bytes(gzip.decompress(compressed.read_bytes()))
            for event, extra in EVENTS:
                hook_input = {
                    "hook_event_name": event,
                    "session_id": "corpus",
                    "transcript_path": str(plain),
                    "cwd": work,
                    **extra,
                }
                done = subprocess.run(
                    [args.exe, "hook"],
                    input=json.dumps(hook_input),
                    capture_output=True,
                    text=True,
                    env={
                        "ARTIFACT_INDEX_STORE": str(Path(work) / "store.db"),
                        "PATH": "/usr/bin:/bin",
                    },
                )
                codes[done.returncode] += 1
                over += len(done.stdout) > CAP
                if len(done.stdout) > largest:
                    largest, where = len(done.stdout), f"{compressed.name}, {event}"
            plain.unlink()
    print(
        f"{sum(codes.values())} hook runs over {len(transcripts)} transcripts; exit codes "
        f"{dict(sorted(codes.items()))}; over {CAP:,} characters: {over}; largest output {largest:,} ({where})"
    )


if __name__ == "__main__":
    main()
