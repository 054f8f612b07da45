"""False positives of redaction on the corpus: how much output it changes, and whether any path breaks.

    .venv/bin/python benchmarks/redaction_corpus.py [--corpus ../shared/corpus] [--samples 40]
        [--no-summary] [--raw] [--check]

The corpus's sessions hold almost no real secret, so what redaction changes
there is mostly false positives.  For every transcript this measures:

* **output strings**: every string of the ``show --json`` payload (files,
  symbols, errors, tests, decisions, tasks, user messages) and every line
  of the offline summary (``summary --no-llm``); the share that redaction
  changes is the false-positive rate (the target is under 0.05%);
* **paths**: every path of the trail (``files --json``'s ``path`` and
  ``renamed_from``), redacted inside the payload as every output redacts
  it: a path is *broken* when redaction changes it, and *collapsed* when two
  paths become one;
* with ``--raw``, every string of the transcript itself (what a compaction
  request sends to a model), for the share of input redaction touches.

It prints the figures, the time redaction takes next to the index, each
placeholder kind's count, and a sample of redacted spans with their context
to read for false positives.  ``--check`` exits 1 when the rate is at or
over 0.05% or a path is broken.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from artifact_index.ingestion.loading import open_transcript
from artifact_index.presentation.render import show_json
from artifact_index.redaction import redact_json, redact_text
from artifact_index.trail.tracker import Tracker

_PLACEHOLDER = re.compile(r"\[REDACTED[ -]([a-z0-9-]+?)(?:-[0-9a-f]{10})?\]")
TARGET = 0.0005


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


@dataclass
class Tally:
    strings: int = 0
    changed: int = 0
    chars: int = 0
    changed_chars: int = 0
    seconds: float = 0.0
    kinds: Counter[str] = field(default_factory=Counter)
    samples: list[str] = field(default_factory=list)

    def count(self, where: str, before: str, after: str) -> None:
        self.strings += 1
        self.chars += len(before)
        if before == after:
            return
        self.changed += 1
        self.changed_chars += len(before) - len(_PLACEHOLDER.sub("", after))
        for match in _PLACEHOLDER.finditer(after):
            self.kinds[match.group(1)] += 1
            context = after[max(0, match.start() - 60) : match.end() + 30].replace("\n", "\\n")
            self.samples.append(f"{where}: …{context}…")

    def line(self, name: str) -> str:
        return (
            f"{name}: {self.strings} strings, {self.changed} changed "
            f"({self.changed / max(self.strings, 1):.4%}); {self.chars} characters, "
            f"{self.changed_chars} redacted ({self.changed_chars / max(self.chars, 1):.4%}); "
            f"redaction {self.seconds:.1f} s"
        )


def _payload(index: Any, skipped: int) -> dict[str, Any]:
    # What show --json prints, the same payload the JSON contracts give.
    payload: dict[str, Any] = show_json(index, skipped=skipped)
    return payload


def _summary(events: list[Any], index: Any) -> str:
    from summarizer.narrative.extractive import ExtractiveWriter
    from summarizer.sections.templates import load_template
    from summarizer.summary import summarize

    return summarize(
        events, template=load_template("default"), writer=ExtractiveWriter(), index=index
    ).markdown


def _raw_strings(path: Path) -> Iterator[str]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as handle:
        text = handle.read()
    try:
        yield from _strings(json.loads(text))
        return
    except json.JSONDecodeError:
        pass
    for line in text.splitlines():
        try:
            yield from _strings(json.loads(line))
        except json.JSONDecodeError:
            yield line


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", default="../shared/corpus")
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--no-summary", action="store_true", help="leave out the summary lines")
    parser.add_argument("--raw", action="store_true", help="also every string of the transcripts")
    parser.add_argument("--check", action="store_true", help="exit 1 past the target")
    args = parser.parse_args()
    transcripts = sorted(Path(args.corpus).rglob("*.gz"))
    output, raw = Tally(), Tally()
    paths = broken = collapsed = 0
    broken_samples: list[str] = []
    index_time = 0.0
    for path in transcripts:
        where = f"{path.parent.name}/{path.name[:40]}"
        started = time.perf_counter()
        try:
            loaded = open_transcript(path)
            events = list(loaded.events())
            index = Tracker(format=loaded.adapter.name).feed_all(events)
            payload = _payload(index, len(loaded.skipped))
            summary = "" if args.no_summary else _summary(events, index)
        except Exception as exc:  # a transcript the engine rejects is not this script's subject
            print(f"skip {path.name}: {type(exc).__name__}")
            continue
        index_time += time.perf_counter() - started

        started = time.perf_counter()
        redacted = redact_json(payload)
        lines = summary.split("\n")
        redacted_lines = [redact_text(line) for line in lines]
        output.seconds += time.perf_counter() - started
        for before, after in zip(_strings(payload), _strings(redacted), strict=True):
            output.count(where, before, after)
        for before, after in zip(lines, redacted_lines, strict=True):
            output.count(where, before, after)

        trail = [(f["path"], f.get("renamed_from")) for f in payload["files"]]
        kept = [(f["path"], f.get("renamed_from")) for f in redacted["files"]]
        originals = {p for pair in trail for p in pair if p}
        paths += len(originals)
        for (before, was), (after, had) in zip(trail, kept, strict=True):
            for old, new in ((before, after), (was, had)):
                if old and old != new:
                    broken += 1
                    broken_samples.append(f"{where}: {old} -> {new}")
        collapsed += len({f["path"] for f in payload["files"]}) - len(
            {f["path"] for f in redacted["files"]}
        )

        if args.raw:
            strings = list(_raw_strings(path))
            started = time.perf_counter()
            redacted_raw = [redact_text(text) for text in strings]
            raw.seconds += time.perf_counter() - started
            for before, after in zip(strings, redacted_raw, strict=True):
                raw.count(where, before, after)

    rate = output.changed / max(output.strings, 1)
    print(f"{len(transcripts)} transcripts; index and summary {index_time:.1f} s")
    print(output.line("output strings (show --json payload, summary --no-llm lines)"))
    print(f"false-positive rate {rate:.4%} (target under {TARGET:.2%})")
    print(f"paths: {paths}, broken {broken}, collapsed {collapsed}")
    for line in broken_samples[:10]:
        print("  broken", line)
    print(
        "placeholders:", ", ".join(f"{kind} {count}" for kind, count in output.kinds.most_common())
    )
    if args.raw:
        print(raw.line("transcript strings"))
        print(
            "  placeholders:",
            ", ".join(f"{kind} {count}" for kind, count in raw.kinds.most_common(20)),
        )
    samples = output.samples + (raw.samples if args.raw else [])
    for line in random.Random(1).sample(samples, min(args.samples, len(samples))):
        print(" ", line[:400])
    if args.check and (rate >= TARGET or broken):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
