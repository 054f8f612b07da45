"""Prompt tokens of the narrative requests against the tokens of the whole transcript.

    .venv/bin/python benchmarks/narrative_prompt_tokens.py [--transcript FILE] [--corpus ../shared/corpus]

Takes the longest Claude Code transcript of the corpus (most turns) unless
one is given, and measures with the offline tokenizer (cl100k, an estimate
of Claude's) what the LLM narrative would be sent:

* the whole transcript: the raw JSONL file, and the conversation itself
  (every message, tool call and full tool output, as the model saw them);
* one summary of the whole transcript: each request's system prompt, user
  prompt (anchor + index facts + span with long outputs trimmed) and tool
  schema, chunked as ``summarize`` chunks a span (60k tokens by default);
* anchored cycles at the transcript's own compaction boundaries (and at the
  end): each cycle sends only the span since the previous one.

The writer records each request (``build_prompt`` and the reply model's
schema, exactly what ``AnthropicWriter`` sends) and answers with no new
items, so no network and no key are needed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from artifact_index.ingestion.events import CompactionBoundary, Event
from artifact_index.ingestion.loading import open_transcript
from artifact_index.ingestion.source import read_source
from artifact_index.trail.tracker import Tracker
from summarizer.narrative.llm import SYSTEM, TOOL_NAME, build_prompt
from summarizer.narrative.narrative_model import (
    Narrative,
    NarrativeReply,
    NarrativeRequest,
    SectionReply,
    reply_model,
)
from summarizer.narrative.span import render_event
from summarizer.sections.templates import load_template
from summarizer.summary import summarize
from summarizer.summary_commands import events_until_compaction
from summarizer.tokens import count_tokens

ROOT = Path(__file__).resolve().parent.parent


class CountingWriter:
    """Records the token cost of every narrative request; answers with nothing new."""

    needs_span = True

    def __init__(self) -> None:
        self.requests: list[
            tuple[int, int, tuple[int, int]]
        ] = []  # (prompt tokens, span tokens, turns)

    def write(self, request: NarrativeRequest) -> NarrativeReply:
        tool = {
            "name": TOOL_NAME,
            "input_schema": reply_model(request.sections).model_json_schema(),
        }
        prompt = (
            count_tokens(SYSTEM)
            + count_tokens(build_prompt(request))
            + count_tokens(json.dumps(tool))
        )
        self.requests.append((prompt, count_tokens(request.span), request.span_turns))
        return NarrativeReply(sections={s.key: SectionReply() for s in request.sections})


def _turns(path: Path) -> int:
    return max((e.turn for e in open_transcript(path).events()), default=0)


def _conversation_tokens(events: list[Event]) -> int:
    limit = 10**9  # nothing trimmed: the conversation as the model saw it
    return sum(count_tokens(text) for e in events if (text := render_event(e, limit)) is not None)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--transcript", type=Path)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--template", default="claude-code")
    args = parser.parse_args()

    path = args.transcript
    if path is None:
        candidates = sorted((args.corpus / "claude_code").glob("*.jsonl.gz"))
        if not candidates:
            print(f"no Claude Code transcripts under {args.corpus}")
            return 1
        path = max(candidates, key=_turns)
    template = load_template(args.template)
    loaded = open_transcript(path)
    events = list(loaded.events())
    raw = read_source(path).text
    boundaries = [e for e in events if isinstance(e, CompactionBoundary) and e.sidechain is None]
    print(
        f"{path.name}: {max(e.turn for e in events)} turns, {len(events)} events, "
        f"{len(boundaries)} compaction boundar{'y' if len(boundaries) == 1 else 'ies'}"
    )
    print(
        f"  whole transcript, raw JSONL:          {count_tokens(raw):>10,} tokens ({len(raw):,} chars)"
    )
    conversation = _conversation_tokens(events)
    print(f"  whole conversation (untrimmed):       {conversation:>10,} tokens")

    writer = CountingWriter()
    index = Tracker(format=loaded.adapter.name).feed_all(events)
    summarize(events, template=template, writer=writer, index=index)
    total = sum(p for p, _, _ in writer.requests)
    print(
        f"  one summary of everything: {len(writer.requests)} request(s), {total:,} prompt tokens "
        f"({total / conversation:.1%} of the conversation); per request: "
        + ", ".join(f"{p:,} (span {s:,}, turns {a}-{b})" for p, s, (a, b) in writer.requests)
    )

    if boundaries:
        writer = CountingWriter()
        previous: Narrative | None = None
        cuts = [events_until_compaction(events, n) for n in range(1, len(boundaries) + 1)] + [
            events
        ]
        for part in cuts:
            index = Tracker(format=loaded.adapter.name).feed_all(part)
            previous = summarize(
                part, template=template, writer=writer, index=index, previous=previous
            ).narrative
        total = sum(p for p, _, _ in writer.requests)
        print(
            f"  anchored cycles at the boundaries and the end: {len(writer.requests)} request(s), {total:,} prompt "
            f"tokens ({total / conversation:.1%}); per request: "
            + ", ".join(f"{p:,} (span {s:,}, turns {a}-{b})" for p, s, (a, b) in writer.requests)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
