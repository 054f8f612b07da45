"""How much of the corpus's output redaction changes, how fast it is, and samples of what it hid.

    .venv/bin/python benchmarks/redaction_corpus.py [--corpus ../shared/corpus] [--samples 40]

For every transcript of the corpus, the ``show --json`` payload (files,
symbols, errors, tests, decisions, tasks, user messages) is redacted; the
script prints the share of strings and of characters that changed, the
time redaction took next to the time the index took, each placeholder
kind's count, and a sample of redacted spans with their context, to read
for false positives (paths, hashes, UUIDs, identifiers, test data).
"""

from __future__ import annotations

import argparse
import random
import re
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from artifact_index.presentation.render import show_json
from artifact_index.redaction import redact_json, redact_text
from artifact_index.trail.build import build_index

_PLACEHOLDER = re.compile(r"\[REDACTED ([a-z0-9-]+)\]")


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _payload(path: Path) -> Any:
    index, loaded = build_index(str(path))
    # What show --json prints, the same payload the JSON contracts give.
    return show_json(index, skipped=len(loaded.skipped))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", default="../shared/corpus")
    parser.add_argument("--samples", type=int, default=40)
    args = parser.parse_args()
    transcripts = sorted(Path(args.corpus).rglob("*.gz"))
    strings = changed = chars = changed_chars = 0
    kinds: Counter[str] = Counter()
    samples: list[str] = []
    index_time = redact_time = 0.0
    for path in transcripts:
        started = time.perf_counter()
        try:
            payload = _payload(path)
        except Exception as exc:  # a transcript the engine rejects is not this script's subject
            print(f"skip {path.name}: {type(exc).__name__}")
            continue
        index_time += time.perf_counter() - started
        started = time.perf_counter()
        redacted = redact_json(payload)
        redact_time += time.perf_counter() - started
        for before, after in zip(_strings(payload), _strings(redacted), strict=True):
            strings += 1
            chars += len(before)
            if before == after:
                continue
            changed += 1
            changed_chars += len(before) - len(_PLACEHOLDER.sub("", after))
            for match in _PLACEHOLDER.finditer(after):
                kinds[match.group(1)] += 1
                context = after[max(0, match.start() - 60) : match.end() + 30].replace("\n", "\\n")
                samples.append(f"{path.parent.name}/{path.name[:40]}: …{context}…")
    print(
        f"{len(transcripts)} transcripts; {strings} strings, {changed} changed ({changed / max(strings, 1):.3%}); "
        f"{chars} characters, {changed_chars} redacted ({changed_chars / max(chars, 1):.4%})"
    )
    print(
        f"index {index_time:.1f} s, redaction {redact_time:.1f} s ({redact_time / max(index_time, 1e-9):.1%})"
    )
    print("placeholders:", ", ".join(f"{kind} {count}" for kind, count in kinds.most_common()))
    started = time.perf_counter()
    blob = "\n".join(_strings(_payload(transcripts[0]))) * 20 if transcripts else ""
    redact_text(blob)
    print(f"one text of {len(blob) / 1e6:.1f} MB: {time.perf_counter() - started:.2f} s")
    for line in random.Random(1).sample(samples, min(args.samples, len(samples))):
        print(" ", line)


if __name__ == "__main__":
    main()
