"""What the ``evaluate`` command does, apart from argument parsing.

Reads the session (up to a compaction boundary when asked), builds its
index, reads each summary, adds the agent's own summary recorded at the
boundary when asked, and evaluates them all with the chosen LLM (or only
offline without one).  What the session did right after the boundary goes
to the judge for the continuation.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from artifact_index.exceptions import UsageError
from artifact_index.ingestion.events import CompactionBoundary, Event, UserMessage
from artifact_index.ingestion.loading import open_transcript
from artifact_index.presentation.cli import report_skipped
from artifact_index.trail.tracker import Tracker
from summarizer.evaluation.evaluate import Evaluation, evaluate_summaries
from summarizer.exceptions import SummarizerError
from summarizer.narrative.span import render_event
from summarizer.providers.choice import LLMChoice, choose_endpoint, make_client
from summarizer.sections.condense import condense_text
from summarizer.summary import session_facts

__all__ = ["evaluate_command", "what_came_next"]

_AFTER_CHARS = 4000
_AFTER_EVENTS = 40


def _boundary_position(events: Sequence[Event], number: int) -> int:
    seen = 0
    for position, event in enumerate(events):
        if isinstance(event, CompactionBoundary) and event.sidechain is None:
            seen += 1
            if seen == number:
                return position
    raise SummarizerError(
        f"the transcript has {seen} compaction boundar{'y' if seen == 1 else 'ies'}, not {number}"
    )


def what_came_next(events: Sequence[Event], position: int) -> str | None:
    """What the session did right after ``position``: up to the second user message, bounded."""
    lines: list[str] = []
    spoke = 0
    for event in events[position + 1 : position + 1 + _AFTER_EVENTS]:
        if isinstance(event, UserMessage) and event.sidechain is None and not event.synthetic:
            spoke += 1
            if spoke == 2:
                break
        if getattr(event, "sidechain", None) is not None:
            continue
        rendered = render_event(event, output_limit=300)
        if rendered:
            lines.append(rendered)
    return condense_text("\n".join(lines), _AFTER_CHARS) if lines else None


def evaluate_command(
    transcript: str,
    summaries: Sequence[str],
    *,
    format: str | None = None,
    until_compaction: int | None = None,
    agent_summary: bool = False,
    use_llm: bool | None = None,
    provider: str | None = None,
    base_url: str | None = None,
    model: str | None = None,
    config: str | None = None,
) -> Evaluation:
    loaded = open_transcript(transcript, format)
    events = list(loaded.events())
    report_skipped(loaded)
    after = None
    candidates: list[tuple[str, str]] = []
    for path in summaries:
        try:
            candidates.append((Path(path).name, Path(path).read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            raise SummarizerError(f"summary {path} cannot be read ({reason})") from exc
    if until_compaction is not None:
        position = _boundary_position(events, until_compaction)
        boundary = events[position]
        after = what_came_next(events, position)
        events = list(events[:position])
        if agent_summary:
            own = boundary.summary if isinstance(boundary, CompactionBoundary) else None
            if not own:
                raise SummarizerError(
                    f"the transcript recorded no summary of its own at compaction {until_compaction}"
                )
            candidates.append((f"agent's own (compaction {until_compaction})", own))
    elif agent_summary:
        raise UsageError("--agent-summary needs --until-compaction N (which boundary's summary)")
    if not candidates:
        raise UsageError("nothing to evaluate: give one or more SUMMARY files (or --agent-summary)")
    tracker = Tracker(format=loaded.adapter.name)
    tracker.feed_all(events)
    facts = session_facts(tracker.index, events)
    # The judge is the user's choice of model, never the session's own.
    endpoint = choose_endpoint(LLMChoice(use_llm, provider, base_url, model, config))
    client = make_client(endpoint) if endpoint is not None else None
    return evaluate_summaries(
        facts,
        candidates,
        client,
        after=after,
        judge_name=endpoint.describe() if endpoint is not None else None,
    )
