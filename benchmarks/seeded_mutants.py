"""Seeded type mutants of the corpus: does a damaged record ever cost more than itself?

    python benchmarks/seeded_mutants.py [--corpus ../shared/corpus] [--per-folder 10] [--mutants 20] [--seed 7]

For the smallest ``--per-folder`` transcripts of every corpus folder, each of
``--mutants`` mutants replaces one value somewhere inside one record (a JSON
line, or a part of a JSON document) by a value of the wrong type (null, a
number, a list, an object, a string).  Each mutant is indexed in process and
classed as:

- ``read through``: every record but the damaged one was read;
- ``reading stopped``: an adapter raised, so the rest of the transcript was
  lost (it is counted and warned about, but lost);
- ``refused``: a clean one-line error (for example a document whose only
  message list was replaced: nothing is left to read);
- ``crash``: anything else, an internal error.

Anything but ``read through`` is listed with the mutated spot.  Text formats
(Aider, git-ai notes) are not JSON and are left out.
"""

from __future__ import annotations

import argparse
import collections
import gzip
import json
import random
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from artifact_index.exceptions import ArtifactIndexError
from artifact_index.trail.build import build_index

WRONG_VALUES: list[Any] = [None, 12345, [], {}, "x", -1.5, True]


def spots(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every key path inside ``value``."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield (*path, key)
            yield from spots(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield (*path, index)
            yield from spots(inner, (*path, index))


def put(value: Any, path: tuple[Any, ...], new: Any) -> None:
    for key in path[:-1]:
        value = value[key]
    value[path[-1]] = new


def json_line_numbers(lines: list[str]) -> list[int]:
    numbers = []
    for number, line in enumerate(lines):
        try:
            if isinstance(json.loads(line), dict):
                numbers.append(number)
        except ValueError:
            continue
    return numbers


def mutants(text: str, count: int, rng: random.Random) -> Iterator[tuple[str, str]]:
    """``(mutated text, what was damaged)``."""
    try:
        document = json.loads(text)
    except ValueError:
        document = None
    if document is not None:
        for _ in range(count):
            copy = json.loads(text)
            where = list(spots(copy))
            if not where:
                return
            spot, wrong = rng.choice(where), rng.choice(WRONG_VALUES)
            put(copy, spot, wrong)
            yield json.dumps(copy), f"{spot}={wrong!r}"
        return
    lines = text.split("\n")
    candidates = json_line_numbers(lines)
    for _ in range(count if candidates else 0):
        number = rng.choice(candidates)
        record = json.loads(lines[number])
        where = list(spots(record))
        if not where:
            continue
        spot, wrong = rng.choice(where), rng.choice(WRONG_VALUES)
        put(record, spot, wrong)
        yield (
            "\n".join([*lines[:number], json.dumps(record), *lines[number + 1 :]]),
            f"line {number + 1} {spot}={wrong!r}",
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--corpus", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "corpus"
    )
    parser.add_argument("--per-folder", type=int, default=10)
    parser.add_argument("--mutants", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    counts: collections.Counter[str] = collections.Counter()
    notes: list[str] = []
    with tempfile.TemporaryDirectory() as work:
        for folder in sorted(p for p in args.corpus.iterdir() if p.is_dir()):
            for transcript in sorted(folder.glob("*.gz"), key=lambda p: p.stat().st_size)[
                : args.per_folder
            ]:
                text = gzip.decompress(transcript.read_bytes()).decode("utf-8", "replace")
                target = Path(work) / transcript.name[:-3]
                for mutated, damage in mutants(text, args.mutants, rng):
                    target.write_text(mutated, encoding="utf-8")
                    name = f"{folder.name}/{transcript.name} at {damage}"
                    try:
                        _, loaded = build_index(target)
                    except ArtifactIndexError as exc:
                        counts["refused"] += 1
                        notes.append(f"refused  {name}: {str(exc)[:120]}")
                        continue
                    except Exception as exc:  # what this script is looking for
                        counts["crash"] += 1
                        notes.append(f"crash    {name}: {type(exc).__name__}: {exc}"[:300])
                        continue
                    stops = [
                        s.reason for s in loaded.skipped if s.reason.startswith("reading stopped")
                    ]
                    counts["reading stopped" if stops else "read through"] += 1
                    if stops:
                        notes.append(f"stopped  {name}: {stops[0]}"[:300])
    total = sum(counts.values())
    print(
        f"{total} mutants: "
        + ", ".join(
            f"{kind} {counts[kind]}"
            for kind in ("read through", "reading stopped", "refused", "crash")
        )
    )
    for note in notes:
        print("  " + note)


if __name__ == "__main__":
    main()
