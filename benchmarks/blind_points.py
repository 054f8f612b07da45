"""Blind rating folders at real compaction points of any Claude Code transcript, for four ways to continue.

    python benchmarks/blind_points.py OUT_DIR POINTS.json [--cli artifact-index]
        [--base-url http://127.0.0.1:PORT] [--seed 7] [--before-tokens 6000] [--after-tokens 3000]

Readers get ``OUT_DIR/rate/`` only; the cut transcripts are in ``OUT_DIR/work/`` and the
key in ``OUT_DIR/key.json``.

``POINTS.json`` lists ``{"transcript": PATH, "line": N}``: N is the 1-based line of a
compaction (its boundary record or the summary record right after it). For each point,
``OUT_DIR/rate/NN/`` gets ``context.md`` (the end of the session before the compaction and
what the agent did right after it, which a reader needs to judge what the agent had to
know) and, in an order drawn from ``--seed``, up to four summaries, ``A.md``...``D.md``:

- ``own``: the summary the agent wrote at that point;
- ``own+hook``: the same, followed by what ``artifact-index hook`` (SessionStart, source
  ``compact``) adds to the context right after the compaction;
- ``offline``: ``artifact-index summary --no-llm`` of everything before the compaction;
- ``llm``: ``artifact-index summary --llm`` against ``--base-url`` (a stand-in for the
  Anthropic API such as ``replay_anthropic.py``, whose replies someone else writes); left
  out when no base URL is given.

The commands run as a user would run them (the installed CLI), on a copy of the
transcript cut at the compaction. Marks that would name the author are removed: the
agent's opening "This session is being continued..." and closing pointer, and our
embedded narrative state. ``OUT_DIR/key.json`` says which letter is which,
``OUT_DIR/rate/README.md`` is the brief for the reader.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from artifact_index.ingestion.events import Event  # noqa: E402
from artifact_index.ingestion.loading import open_transcript  # noqa: E402
from summarizer.narrative.span import render_event  # noqa: E402
from summarizer.tokens import count_tokens  # noqa: E402

_OUR_STATE = re.compile(r"\n?<!-- artifact-index:state .*? -->\n?", re.S)
_OPENING = re.compile(r"^This session is being continued from a previous conversation[^\n]*\n+")
_SUMMARY_LABEL = re.compile(r"^(?:The summary below covers[^\n]*\n+)?(?:Summary:\n)?")
_CLOSING = re.compile(
    r"\n+(?:If you need specific details from before compaction|Please continue the conversation)"
    r".*\Z",
    re.S,
)

BRIEF = """# Rating ways to continue after a compaction, blind

Each folder holds one real moment of a coding-agent session: the agent's context was full and was
replaced by what you see in `A.md`, `B.md`, ... (made by different methods, in no particular order).
`context.md` shows the end of the session before that moment and what the agent did right after it.

Read `context.md`, then read each candidate as if you were the agent that must continue the work
right after the compaction with only that text, and rate each from 1 (useless) to 5 (all you need) on:

1. accuracy: nothing it states is wrong (files, errors, what was done, what works);
2. context awareness: it knows where the work stands: what was just done, what is in progress;
3. artifact trail: which files were created, modified, read, and what changed in them;
4. completeness: every request, constraint and piece of feedback from the user is there;
5. continuity: you could take the next step at once, without re-reading files or asking;
6. instruction following: it keeps to what the user asked (and did not ask) for.

Check statements against `context.md` where you can; a false statement costs accuracy even when
the rest is good. Write your ratings to `ratings.json` in the folder:
`{"A": {"accuracy": 4, ..., "note": "one line"}, "B": {...}, ..., "preferred": "A", "verdict": "one line"}`.
"""


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8", errors="surrogateescape").splitlines()


def _record(line: str) -> dict[str, Any]:
    try:
        value = json.loads(line)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _boundary_and_summary(lines: list[str], line: int) -> tuple[int, int, str]:
    """The 0-based positions of the compaction boundary and of its summary, and the summary's text."""
    boundary = next(
        (
            at
            for at in range(min(line, len(lines)) - 1, max(line - 6, 0) - 1, -1)
            if _record(lines[at]).get("subtype") == "compact_boundary"
        ),
        None,
    )
    if boundary is None:
        # Forms without a boundary record (Entire's compact transcripts) keep the summary alone:
        # the point is then the summary's own line, and the session before it is what came first.
        text = _summary_text(_record(lines[line - 1])) if 0 < line <= len(lines) else None
        if text is None:
            raise SystemExit(f"no compaction boundary or summary at or before line {line}")
        return line - 1, line - 1, text
    for at in range(boundary + 1, min(boundary + 6, len(lines))):
        text = _summary_text(_record(lines[at]))
        if text is not None:
            return boundary, at, text
    raise SystemExit(f"no compaction summary after the boundary at line {boundary + 1}")


def _summary_text(record: dict[str, Any]) -> str | None:
    """The text of a compaction summary record (a Claude Code message or Entire's compact form), else None."""
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else record.get("content")
    text = content if isinstance(content, str) else ""
    if isinstance(content, list):
        text = "".join(str(block.get("text", "")) for block in content if isinstance(block, dict))
    if record.get("isCompactSummary") or text.startswith("This session is being continued"):
        return text
    return None


def render_events(events: list[Event], tokens: int, *, from_end: bool, heading: str) -> str:
    """The main agent's events as a reader sees them, as many as fit in ``tokens`` from one end."""
    chosen = [event for event in events if event.sidechain is None]
    if from_end:
        chosen.reverse()
    lines: list[str] = []
    used = 0
    for event in chosen:
        line = render_event(event, output_limit=600)
        if line is None:
            continue
        cost = count_tokens(line)
        if used + cost > tokens and lines:
            break
        lines.append(line)
        used += cost
    if from_end:
        lines.reverse()
    return f"# {heading}\n\n" + "\n\n".join(lines) + "\n"


def _render(path: Path, tokens: int, *, from_end: bool, heading: str) -> str:
    events = list(open_transcript(path).events())
    return render_events(events, tokens, from_end=from_end, heading=heading)


def _run(command: list[str], *, stdin: str | None = None, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        command,
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=900,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(
            f"{' '.join(command[:3])}... exited {done.returncode}: {done.stderr[-800:]}"
        )
    return done.stdout


def _hook_context(cli: str, transcript: Path, session_id: str, cwd: str) -> str:
    request = {
        "hook_event_name": "SessionStart",
        "source": "compact",
        "session_id": session_id,
        "transcript_path": str(transcript),
        "cwd": cwd,
    }
    store = transcript.parent / "store.db"
    out = _run(
        [cli, "hook", "--event", "SessionStart", "--store", str(store)], stdin=json.dumps(request)
    )
    try:
        answer = json.loads(out)
    except ValueError:
        return out
    specific = answer.get("hookSpecificOutput") or {}
    return str(specific.get("additionalContext") or answer.get("systemMessage") or "")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("points", type=Path)
    parser.add_argument("--cli", default="artifact-index")
    parser.add_argument("--base-url", default=None)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--before-tokens", type=int, default=6000)
    parser.add_argument("--after-tokens", type=int, default=3000)
    args = parser.parse_args()

    draw = random.Random(args.seed)
    points = json.loads(args.points.read_text(encoding="utf-8"))
    key: dict[str, dict[str, Any]] = {}
    args.out.mkdir(parents=True, exist_ok=True)
    for number, point in enumerate(points, start=1):
        source = Path(point["transcript"])
        lines = _lines(source)
        boundary, summary_at, summary = _boundary_and_summary(lines, int(point["line"]))
        folder = args.out / "rate" / f"{number:02d}"
        work = args.out / "work" / f"{number:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        work.mkdir(parents=True, exist_ok=True)
        before = work / "before.jsonl"
        before.write_text("\n".join(lines[:boundary]) + "\n", encoding="utf-8")
        through_summary = work / "through-summary.jsonl"
        through_summary.write_text("\n".join(lines[: summary_at + 1]) + "\n", encoding="utf-8")
        after = work / "after.jsonl"
        after.write_text("\n".join(lines[summary_at + 1 :]) + "\n", encoding="utf-8")
        first = _record(lines[boundary])
        session_id = str(first.get("sessionId") or source.stem)
        cwd = str(first.get("cwd") or "/")

        own = _CLOSING.sub("\n", _SUMMARY_LABEL.sub("", _OPENING.sub("", summary.strip())))
        own = own.strip() + "\n"
        hook = _hook_context(args.cli, through_summary, session_id, cwd)
        variants = {
            "own": own,
            "own+hook": own + "\n" + hook.strip() + "\n",
            "offline": _OUR_STATE.sub(
                "\n", _run([args.cli, "summary", str(before), "--no-llm"])
            ).strip()
            + "\n",
        }
        if args.base_url:
            variants["llm"] = (
                _OUR_STATE.sub(
                    "\n",
                    _run(
                        [
                            args.cli,
                            "summary",
                            str(before),
                            "--llm",
                            "--provider",
                            "anthropic",
                            "--base-url",
                            args.base_url,
                        ],
                        env={"ANTHROPIC_API_KEY": "replay"},
                    ),
                ).strip()
                + "\n"
            )
        order = list(variants)
        draw.shuffle(order)
        letters = {}
        for letter, name in zip("ABCD", order, strict=False):
            (folder / f"{letter}.md").write_text(variants[name], encoding="utf-8")
            letters[letter] = name
        context = (
            _render(
                before,
                args.before_tokens,
                from_end=True,
                heading="The end of the session before the compaction",
            )
            + "\n"
            + _render(
                after,
                args.after_tokens,
                from_end=False,
                heading="What the agent did right after the compaction",
            )
        )
        (folder / "context.md").write_text(context, encoding="utf-8")
        key[folder.name] = {
            "transcript": str(source),
            "line": point["line"],
            "boundary_line": boundary + 1,
            **letters,
            "sizes": {name: len(text) for name, text in variants.items()},
        }
        print(f"{folder.name}: {source.name} at line {boundary + 1}: {letters}", flush=True)
    (args.out / "key.json").write_text(json.dumps(key, indent=2) + "\n", encoding="utf-8")
    (args.out / "rate" / "README.md").write_text(BRIEF, encoding="utf-8")
    print(f"{len(key)} points written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
