"""Unlabelled pairs of summaries for a blind reader: ours and Claude Code's own, at every corpus compaction point.

    .venv/bin/python benchmarks/blind_pairs.py OUT_DIR [--corpus ../shared/corpus] [--seed 9] [--tail-tokens 6000]

For each compaction boundary of each Claude Code transcript, ``OUT_DIR/NN/``
gets ``A.md`` and ``B.md`` (our default offline summary of everything
before the boundary, and the summary Claude Code wrote there, in an order
drawn from ``--seed``) and ``context.md``: the end of the transcript before
the boundary (user messages, the agent's messages, its tool calls and their
results, long outputs cut in the middle), which a reader needs to judge
whether a summary lets the agent continue.  Marks that would name the
author are removed: our embedded narrative state, Claude Code's opening
"This session is being continued…" and its closing pointer to the full
transcript.  ``OUT_DIR/key.json`` says which is which; ``OUT_DIR/README.md``
is the brief for the reader: rate each summary 1-5 on accuracy, context
awareness, artifact trail, completeness, continuity and instruction
following, as the agent that must continue right after the compaction.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from artifact_index.ingestion.events import Event  # noqa: E402
from artifact_index.ingestion.loading import open_transcript  # noqa: E402
from artifact_index.trail.tracker import Tracker  # noqa: E402
from benchmarks.blind_points import render_events  # noqa: E402
from summarizer.narrative.extractive import ExtractiveWriter  # noqa: E402
from summarizer.sections.templates import load_template  # noqa: E402
from summarizer.summary import summarize  # noqa: E402
from summarizer.summary_commands import events_until_compaction  # noqa: E402
from tests.support.cc_harness import read_transcript  # noqa: E402

_OUR_STATE = re.compile(r"\n?<!-- artifact-index:state .*? -->\n?", re.S)
_CC_OPENING = re.compile(r"^This session is being continued from a previous conversation[^\n]*\n+")
_CC_CLOSING = re.compile(
    r"\n+(?:If you need specific details from before compaction|Please continue the conversation)"
    r".*\Z",
    re.S,
)

BRIEF = """# Rating compaction summaries, blind

Each folder holds one real moment of a coding-agent session: the agent's context was full and was
replaced by a summary. `context.md` is the end of the session before that moment. `A.md` and `B.md`
are two summaries of everything before it, written by two different methods, in no particular order.

Read `context.md`, then read each summary as if you were the agent that must continue the work right
after the compaction with only that summary, and rate each from 1 (useless) to 5 (all you need) on:

1. accuracy: nothing it states is wrong (files, errors, what was done, what works);
2. context awareness: it knows where the work stands: what was just done, what is in progress;
3. artifact trail: which files were created, modified, read, and what changed in them;
4. completeness: every request, constraint and piece of feedback from the user is there;
5. continuity: you could take the next step at once, without re-reading files or asking;
6. instruction following: it keeps to what the user asked (and did not ask) for.

Write one line per summary and dimension, e.g. `03 A continuity 4: names the failing test and the fix tried`,
and a one-line overall verdict per folder.
"""


def _tail(events: list[Event], tokens: int) -> str:
    """The rendered events before the boundary, as many from the end as fit in ``tokens``."""
    return render_events(
        events, tokens, from_end=True, heading="The end of the session before the compaction"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="the folder to write the pairs into")
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--seed", type=int, default=9, help="seed of the A/B order")
    parser.add_argument(
        "--tail-tokens", type=int, default=6000, help="how much of the transcript's end to show"
    )
    args = parser.parse_args()

    draw = random.Random(args.seed)
    template = load_template("default")
    key: dict[str, dict[str, object]] = {}
    args.out.mkdir(parents=True, exist_ok=True)
    for path in sorted((args.corpus / "claude_code").glob("*.jsonl.gz")):
        transcript = read_transcript(path)
        if not transcript.boundaries:
            continue
        events = list(open_transcript(path).events())
        for number, boundary in enumerate(transcript.boundaries, start=1):
            if not boundary.summary:
                continue
            before = events_until_compaction(events, number)
            index = Tracker(format="claude-code").feed_all(before)
            ours = summarize(
                before, template=template, writer=ExtractiveWriter(), index=index
            ).markdown
            theirs = _CC_CLOSING.sub("\n", _CC_OPENING.sub("", boundary.summary.strip()))
            pair = [
                ("ours", _OUR_STATE.sub("\n", ours).strip() + "\n"),
                ("claude-code", theirs.strip() + "\n"),
            ]
            draw.shuffle(pair)
            folder = args.out / f"{len(key) + 1:02d}"
            folder.mkdir(exist_ok=True)
            (folder / "A.md").write_text(pair[0][1], encoding="utf-8")
            (folder / "B.md").write_text(pair[1][1], encoding="utf-8")
            (folder / "context.md").write_text(_tail(before, args.tail_tokens), encoding="utf-8")
            key[folder.name] = {
                "transcript": path.name,
                "compaction": number,
                "A": pair[0][0],
                "B": pair[1][0],
            }
    if not key:
        print(f"no Claude Code compaction with a summary found under {args.corpus}")
        return 1
    (args.out / "key.json").write_text(json.dumps(key, indent=2) + "\n", encoding="utf-8")
    (args.out / "README.md").write_text(BRIEF, encoding="utf-8")
    print(
        f"{len(key)} pairs written to {args.out} (key in {args.out / 'key.json'}, seed {args.seed})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
