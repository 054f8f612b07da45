"""Write what every query command prints for every corpus transcript, to diff before and after a change.

    python benchmarks/corpus_outputs.py OUT_DIR [--corpus ../shared/corpus] [--commands files,symbols,...]

For each transcript and command, ``OUT_DIR/<command>/<transcript>.json``
holds the exit code, standard error and standard output of
``artifact-index <command> TRANSCRIPT --json`` (``summary --no-llm`` is
Markdown).  The commands run in this process, through the same ``main``
the console script calls, so one run over the corpus takes minutes, not an
hour of start-ups.  Compare two runs with ``diff -r BEFORE AFTER``: an
optimization that changes nothing a user sees leaves no difference.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import json
import os
import sys
from pathlib import Path

from artifact_index.presentation.cli import main

DEFAULT_COMMANDS = (
    "files",
    "symbols",
    "errors",
    "show",
    "decisions",
    "tasks",
    "refetch",
    "summary",
)


def _arguments(command: str, transcript: Path) -> list[str]:
    if command == "summary":
        return [command, str(transcript), "--no-llm"]
    return [command, str(transcript), "--json"]


def _transcripts(corpus: Path) -> list[Path]:
    """The transcripts ``MANIFEST.tsv`` lists (the folders also hold ground truth, which is no transcript)."""
    with (corpus / "MANIFEST.tsv").open(encoding="utf-8") as manifest:
        rows = list(csv.DictReader(manifest, delimiter="\t"))
    return [corpus / row["local_path"] for row in rows]


def _run(arguments: list[str]) -> dict[str, object]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(arguments)
    return {"exit": code, "stderr": err.getvalue(), "stdout": out.getvalue()}


def main_outputs() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument(
        "--corpus", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "corpus"
    )
    parser.add_argument("--commands", default=",".join(DEFAULT_COMMANDS))
    args = parser.parse_args()
    # The summary's offline narrative must not depend on a key in the environment.
    for name in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        os.environ.pop(name, None)
    transcripts = _transcripts(args.corpus)
    commands = args.commands.split(",")
    for number, transcript in enumerate(transcripts, 1):
        name = str(transcript.relative_to(args.corpus)).replace("/", "__")
        for command in commands:
            target = args.out / command / f"{name}.json"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(
                json.dumps(_run(_arguments(command, transcript)), indent=1, ensure_ascii=False)
                + "\n",
                encoding="utf-8",
            )
        print(f"{number}/{len(transcripts)} {name}", file=sys.stderr)


if __name__ == "__main__":
    main_outputs()
