"""What the hooks say of every corpus transcript as it grows, to diff before and after a change.

    python benchmarks/hook_outputs.py OUT_DIR [--corpus ../shared/corpus] [--cuts 4]

Each transcript is written line by line into one file, as its agent wrote
it, and at ``--cuts`` points (the last one its end) the hook runs on it as
an agent runs it: ``SessionStart`` after a compaction, and ``PreCompact`` at
every other point.  Runs on one transcript share the state the hooks keep
between runs (a temporary state directory per transcript), so a later run
reads only what was appended since the earlier one.  ``OUT_DIR/<transcript>.json``
holds each run's event, exit code, note and output.  Compare two runs with
``diff -r BEFORE AFTER``: hooks that keep state must say what reading the
whole transcript says.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import os
import sys
import tempfile
from pathlib import Path

from summarizer.integrations.hooks import run_hook

_EVENTS = ("SessionStart", "PreCompact")


def _transcripts(corpus: Path) -> list[Path]:
    with (corpus / "MANIFEST.tsv").open(encoding="utf-8") as manifest:
        rows = list(csv.DictReader(manifest, delimiter="\t"))
    return [corpus / row["local_path"] for row in rows]


def _runs(transcript: Path, cuts: int) -> list[dict[str, object]]:
    data = transcript.read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    lines = data.splitlines(keepends=True)
    points = sorted({max(1, len(lines) * n // cuts) for n in range(1, cuts + 1)})
    suffix = transcript.name.removesuffix(".gz").rsplit(".", 1)[-1]
    runs: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as work:
        os.environ["ARTIFACT_INDEX_STATE_HOME"] = str(Path(work) / "state")
        growing = Path(work) / f"transcript.{suffix}"
        growing.write_bytes(b"")
        written = 0
        for number, point in enumerate(points):
            with growing.open("ab") as out:
                out.write(b"".join(lines[written:point]))
            written = point
            event = _EVENTS[number % 2] if point != len(lines) else "SessionStart"
            payload = {
                "hook_event_name": event,
                "source": "compact",
                "trigger": "auto",
                "transcript_path": str(growing),
            }
            run = run_hook(json.dumps(payload))
            runs.append(
                {
                    "lines": point,
                    "event": event,
                    "exit": run.exit_code,
                    "note": run.note.replace(str(growing), "TRANSCRIPT") if run.note else None,
                    "output": run.output.replace(str(growing), "TRANSCRIPT"),
                }
            )
    return runs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument(
        "--corpus", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "corpus"
    )
    parser.add_argument("--cuts", type=int, default=4)
    args = parser.parse_args()
    os.environ.setdefault("ARTIFACT_INDEX_STORE", str(Path(tempfile.mkdtemp()) / "sessions.db"))
    args.out.mkdir(parents=True, exist_ok=True)
    transcripts = _transcripts(args.corpus)
    for number, transcript in enumerate(transcripts, start=1):
        name = f"{transcript.parent.name}__{transcript.name}"
        print(f"{number}/{len(transcripts)} {name}", file=sys.stderr, flush=True)
        runs = _runs(transcript, args.cuts)
        (args.out / f"{name}.json").write_text(
            json.dumps(runs, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
