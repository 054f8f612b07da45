"""Times compaction of a large synthetic agent session, in both API shapes.

    .venv/bin/python benchmarks/bench_compaction.py [--steps 120 2000] [--repeat 3]

The session: one user prompt every 25 steps, each step an assistant message
with one or two tool calls (Read / Bash / Grep) whose outputs are 1-8 KB of
varied code-like text; 120 steps is about one 200k-token window, 2,000 steps
about 3.5M tokens.  Timed: the token estimate of the whole request alone, and
a full ``Compactor.compact`` (micro-compaction, pruning, LLM compaction with
a summarizer that returns at once) with a 200k window.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from summarizer.compaction.compactor import Compactor, CompactorConfig
from summarizer.tokens import PromptEstimator, count_tokens, estimate_prompt

WORDS = [
    "def",
    "class",
    "return",
    "self",
    "value",
    "items",
    "index",
    "parse",
    "render",
    "token",
    "cache",
    "path",
    "error",
    "test",
]


def _code(rng: random.Random, size: int) -> str:
    lines = []
    total = 0
    while total < size:
        line = "    " * rng.randint(0, 3) + " ".join(rng.choices(WORDS, k=rng.randint(3, 10)))
        line += f"  # {rng.randint(0, 99999)}"
        lines.append(line)
        total += len(line) + 1
    return "\n".join(lines)


def session(shape: str, steps: int, seed: int = 7) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    messages: list[dict[str, Any]] = []
    if shape == "openai":
        messages.append({"role": "system", "content": "You are a coding agent."})
    call = 0
    for step in range(steps):
        if step % 25 == 0:
            messages.append({"role": "user", "content": f"task {step // 25}: " + _code(rng, 200)})
        calls = []
        for _ in range(rng.randint(1, 2)):
            call += 1
            tool = rng.choice(["Read", "Bash", "Grep"])
            calls.append((f"call_{call}", tool, _code(rng, rng.randint(1_000, 8_000))))
        if shape == "anthropic":
            messages.append(
                {
                    "role": "assistant",
                    "content": [{"type": "text", "text": "Next I look at this."}]
                    + [
                        {
                            "type": "tool_use",
                            "id": cid,
                            "name": tool,
                            "input": {"path": f"src/m{cid}.py"},
                        }
                        for cid, tool, _ in calls
                    ],
                }
            )
            messages.append(
                {
                    "role": "user",
                    "content": [
                        {"type": "tool_result", "tool_use_id": cid, "content": out}
                        for cid, _, out in calls
                    ],
                }
            )
        else:
            messages.append(
                {
                    "role": "assistant",
                    "content": "Next I look at this.",
                    "tool_calls": [
                        {
                            "id": cid,
                            "type": "function",
                            "function": {
                                "name": tool,
                                "arguments": json.dumps({"path": f"src/m{cid}.py"}),
                            },
                        }
                        for cid, tool, _ in calls
                    ],
                }
            )
            messages += [
                {"role": "tool", "tool_call_id": cid, "content": out} for cid, _, out in calls
            ]
    return messages


class InstantSummarizer:
    def summarize(
        self, dropped_messages: Sequence[dict[str, Any]], previous_summary: str | None, cycle: int
    ) -> str:
        return f"## Summary (cycle {cycle})\n- {len(dropped_messages)} messages summarized"


def _time(action: Callable[[], object], repeat: int) -> float:
    timings = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        timings.append(time.perf_counter() - start)
    return statistics.median(timings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, nargs="+", default=[120, 2_000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    count_tokens("warm up")  # load the encoding outside the timings

    for steps, shape in (
        (steps, shape) for steps in args.steps for shape in ("anthropic", "openai")
    ):
        messages = session(shape, steps)
        characters = len(json.dumps(messages))
        tokens = estimate_prompt(messages)
        estimate = _time(lambda: PromptEstimator().prompt(messages), args.repeat)  # noqa: B023

        def compact() -> tuple[list[dict[str, Any]], Any]:
            compactor = Compactor(CompactorConfig(), InstantSummarizer())
            return compactor.compact(messages)  # noqa: B023

        full = _time(compact, args.repeat)
        compacted, result = compact()
        print(
            f"{shape:9} {len(messages):6,} messages {characters / 1e6:6.1f} MB {tokens:11,} tokens | "
            f"estimate {estimate:6.2f} s | compact {full:6.2f} s "
            f"-> {len(compacted)} messages, released {result.released:,}, "
            f"prompt {result.prompt_estimate:,}"
        )


if __name__ == "__main__":
    main()
