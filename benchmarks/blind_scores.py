"""The blind ratings of ``blind_points.py`` folders, unblinded: the mean per method and dimension.

    python benchmarks/blind_scores.py OUT_DIR [OUT_DIR ...]

Reads ``OUT_DIR/key.json`` and every ``OUT_DIR/rate/NN/ratings.json`` a reader wrote, and
prints, per method, the mean of each dimension and of all six, how often the reader preferred
it, and the folders that were not rated.  Given several rounds, it pools their points (each
point counts once, whichever round it came from).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

DIMENSIONS = (
    "accuracy",
    "context awareness",
    "artifact trail",
    "completeness",
    "continuity",
    "instruction following",
)


def _score(ratings: dict[str, object], dimension: str) -> float | None:
    for name in (dimension, dimension.replace(" ", "_")):
        value = ratings.get(name)
        if isinstance(value, int | float):
            return float(value)
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "out", type=Path, nargs="+", help="a folder made by blind_points.py (several: pooled)"
    )
    outs: list[Path] = parser.parse_args().out
    points: list[tuple[str, Path, dict[str, str]]] = []
    for out in outs:
        try:
            key = json.loads((out / "key.json").read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            print(f"blind_scores: cannot read {out / 'key.json'}: {error}", file=sys.stderr)
            return 2
        named = str(out) + "/" if len(outs) > 1 else ""
        points += [(named + folder, out, letters) for folder, letters in sorted(key.items())]
    scores: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    preferred: dict[str, int] = defaultdict(int)
    missing = []
    for name, out, letters in points:
        folder = name.rsplit("/", 1)[-1]
        path = out / "rate" / folder / "ratings.json"
        if not path.exists():
            missing.append(name)
            continue
        try:
            ratings = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as error:
            print(
                f"blind_scores: {path} is not JSON ({error}); counted as not rated", file=sys.stderr
            )
            missing.append(name)
            continue
        for letter in "ABCD":
            method = letters.get(letter)
            rated = ratings.get(letter)
            if method is None or not isinstance(rated, dict):
                continue
            for dimension in DIMENSIONS:
                value = _score(rated, dimension)
                if value is not None:
                    scores[method][dimension].append(value)
        choice = ratings.get("preferred")
        if isinstance(choice, str) and choice in letters:
            preferred[letters[choice]] += 1
    rated_points = len(points) - len(missing)
    print(
        f"{rated_points} of {len(points)} points rated"
        + (f" (missing: {missing})" if missing else "")
    )
    header = "method".ljust(10) + "".join(d.split()[0][:8].rjust(9) for d in DIMENSIONS)
    print(header + "     mean  preferred")
    for method in sorted(scores):
        means = [
            sum(values) / len(values) if values else float("nan")
            for values in (scores[method][d] for d in DIMENSIONS)
        ]
        overall = sum(means) / len(means)
        row = method.ljust(10) + "".join(f"{m:9.2f}" for m in means)
        print(f"{row}{overall:9.2f}{preferred[method]:11d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
