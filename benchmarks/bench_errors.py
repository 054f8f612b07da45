"""Times error extraction on real tool outputs and on one-megabyte logs.

    .venv/bin/python benchmarks/bench_errors.py [--corpus ../shared/corpus] [--repeat 3]

Real outputs: every tool result of the Claude Code, Codex and mini-swe-agent
transcripts in the corpus (read straight from their JSON). Large outputs:
1 MB slices of those outputs joined together, and a few hostile 1 MB texts
(one marker repeated on every line) that would expose a regex that backtracks.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from artifact_index.facts.errors.diagnostics import extract_errors


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            b["text"] for b in content if isinstance(b, dict) and isinstance(b.get("text"), str)
        )
    return ""


def _jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8", errors="replace") as handle:
        for line in handle:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(record, dict):
                yield record


def corpus_outputs(corpus: Path) -> list[str]:
    outputs: list[str] = []
    for path in sorted((corpus / "claude_code").glob("*.gz")):
        for record in _jsonl(path):
            content = (record.get("message") or {}).get("content")
            for block in content if isinstance(content, list) else []:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    outputs.append(_text(block.get("content")))
    for path in sorted((corpus / "codex").glob("*.gz")):
        for record in _jsonl(path):
            payload = record.get("payload") or {}
            if payload.get("type") in ("function_call_output", "custom_tool_call_output"):
                outputs.append(str(payload.get("output") or ""))
    for path in sorted((corpus / "mini_swe_agent").glob("*.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            for message in json.load(handle).get("messages", []):
                if message.get("role") in ("user", "tool"):
                    outputs.append(_text(message.get("content")))
    return [output for output in outputs if output]


def timed(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--corpus", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "corpus"
    )
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    outputs = corpus_outputs(args.corpus) if args.corpus.exists() else []
    if outputs:
        size = sum(len(o) for o in outputs) / 1e6
        seconds = timed(lambda: [extract_errors(o) for o in outputs], args.repeat)
        print(
            f"corpus outputs: {len(outputs)} outputs, {size:.1f} MB, {seconds:.2f} s, {size / seconds:.1f} MB/s"
        )
        joined = "\n".join(outputs)
        slices = [
            joined[i : i + 1_000_000] for i in range(0, min(len(joined), 5_000_000), 1_000_000)
        ]
        seconds = timed(lambda: [extract_errors(s) for s in slices], args.repeat)
        print(f"1 MB slices of real output: {len(slices)} slices, {len(slices) / seconds:.1f} MB/s")
    hostile = {
        "traceback headers": "Traceback (most recent call last):\n" * 28_000,
        "compiler errors": "src/a.c:1:1: error: x\n" * 50_000,
        "rust arrows": " --> src/a.rs:1:1\n" * 55_000,
        "go failures": "--- FAIL: TestX (0.00s)\n" * 40_000,
        "one long line": "x" * 999_000 + "\nerror: boom\n",
    }
    for name, text in hostile.items():
        seconds = timed(lambda text=text: extract_errors(text), args.repeat)
        print(f"hostile 1 MB ({name}): {seconds * 1000:.0f} ms")


if __name__ == "__main__":
    main()
