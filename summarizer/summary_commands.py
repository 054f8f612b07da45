"""What the ``summary`` and ``compact`` commands do, apart from argument parsing.

The LLM is used when a provider is configured (see
:mod:`summarizer.providers.choice`: an API key, or a named endpoint), unless
``use_llm`` is False; ``use_llm=True`` without one is an error rather than a
silent fallback.  The SDKs are imported only when used.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, cast

from artifact_index.ingestion.events import CompactionBoundary, Event, JSONObject
from artifact_index.ingestion.loading import Loaded
from artifact_index.trail.tracker import Tracker
from summarizer.compaction.event_log import EventLog
from summarizer.compaction.index_summarizer import IndexSummarizer
from summarizer.config import api_key_configured
from summarizer.exceptions import SummarizerError
from summarizer.narrative.extractive import ExtractiveWriter
from summarizer.narrative.narrative_model import Narrative, NarrativeWriter, Strategy
from summarizer.providers.choice import LLMChoice, choose_endpoint, make_client
from summarizer.sections.templates import DEFAULT_TEMPLATE, Template, load_template
from summarizer.summary import Summary, parse_previous, summarize

if TYPE_CHECKING:
    from summarizer.compaction.request import CompactedRequest

__all__ = [
    "EVENT_LOG_FILE",
    "compact_request",
    "events_until_compaction",
    "make_writer",
    "read_request_body",
    "summary_command",
]


EVENT_LOG_FILE = "events.jsonl"


def make_writer(choice: LLMChoice, session_model: str | None = None) -> NarrativeWriter:
    """The LLM writer when asked for or when a provider is configured; else the offline one."""
    endpoint = choose_endpoint(choice, session_model)
    if endpoint is None:
        return ExtractiveWriter()
    from summarizer.narrative.llm import LLMWriter

    return LLMWriter(make_client(endpoint))


def events_until_compaction(events: Sequence[Event], number: int) -> list[Event]:
    """The events before the ``number``-th compaction boundary of the main agent (1-based).

    A sub-agent compacting its own context (a side-chain boundary) is not a
    compaction of the session.
    """
    seen = 0
    for position, event in enumerate(events):
        if isinstance(event, CompactionBoundary) and event.sidechain is None:
            seen += 1
            if seen == number:
                return list(events[:position])
    raise SummarizerError(
        f"the transcript has {seen} compaction boundar{'y' if seen == 1 else 'ies'}, not {number}"
    )


def summary_command(
    loaded: Loaded,
    *,
    template: str = DEFAULT_TEMPLATE,
    use_llm: bool | None = None,
    previous: str | None = None,
    model: str | None = None,
    config: str | None = None,
    provider: str | None = None,
    base_url: str | None = None,
    strategy: Strategy = "anchored",
    until_compaction: int | None = None,
    instructions: Sequence[str] = (),
) -> Summary:
    chosen: Template = load_template(template)
    events = list(loaded.events())
    if until_compaction is not None:
        events = events_until_compaction(events, until_compaction)
    tracker = Tracker(format=loaded.adapter.name)
    tracker.feed_all(events)
    writer = make_writer(
        LLMChoice(use_llm, provider, base_url, model, config), tracker.index.session.model
    )
    anchor: Narrative | None = None
    if previous is not None:
        try:
            anchor = parse_previous(Path(previous).read_text(encoding="utf-8"), chosen)
        except OSError as exc:
            raise SummarizerError(
                f"previous summary {previous} cannot be read ({exc.strerror or exc})"
            ) from exc
    return summarize(
        events,
        template=chosen,
        writer=writer,
        previous=anchor,
        strategy=strategy,
        index=tracker.index,
        extra_context=instructions,
    )


def read_request_body(path: str) -> JSONObject:
    """The API request body in the JSON file at ``path`` (``-``: standard input)."""
    from artifact_index.ingestion.source import read_source

    source = read_source(path)
    body = source.document
    if not isinstance(body, dict):
        raise SummarizerError(
            f'{source.name} is not a JSON request body (an object with "messages")'
        )
    return body


def compact_request(
    body: JSONObject,
    *,
    context_window: int | None = None,
    state_dir: str | Path | None = None,
    use_llm: bool | None = None,
    model: str | None = None,
    config: str | None = None,
    provider: str | None = None,
    base_url: str | None = None,
    template: str = DEFAULT_TEMPLATE,
    force: bool = False,
    instructions: Sequence[str] = (),
    exact_tokens: bool = False,
    report: Callable[[str], None] | None = None,
) -> CompactedRequest:
    """Compact an API request body; ``report`` gets one sentence per problem worked around.

    With ``state_dir``, the whole read-compact-write runs under the
    directory's lock, so concurrent compactions on one directory take turns.
    """
    from artifact_index.state_files import state_lock
    from summarizer.compaction.request import run_compact
    from summarizer.compaction.summary_message import load_summary_key, user_state_directory

    choice = LLMChoice(use_llm, provider, base_url, model, config)
    session_model = body.get("model")
    writer = make_writer(choice, session_model if isinstance(session_model, str) else None)
    folder = Path(state_dir) if state_dir else None
    summarizer = IndexSummarizer(
        load_template(template), writer, state_dir=folder, extra_context=instructions, report=report
    )
    log = EventLog(folder / EVENT_LOG_FILE) if folder else None
    prompt_counter = None
    if exact_tokens:
        endpoint = choose_endpoint(
            LLMChoice(True, "anthropic", base_url, model, config),
            session_model if isinstance(session_model, str) else None,
        )
        if not api_key_configured() or endpoint is None:
            raise SummarizerError(
                "exact token counts come from the Anthropic API and need ANTHROPIC_API_KEY"
            )
        from summarizer.providers.anthropic_api import AnthropicPromptCounter

        prompt_counter = AnthropicPromptCounter(endpoint.model)
    if folder is not None:
        # Load the tokenizer (half a second) before queueing for the lock, so processes
        # waiting on one directory do not also wait on each other's start-up.
        from summarizer.tokens import encoding

        encoding()
    # The key that marks our summaries lives with the state, never in a request.
    key = load_summary_key(folder if folder is not None else user_state_directory())
    with state_lock(folder) if folder else nullcontext():
        result = run_compact(
            body,
            context_window,
            summarizer,
            event_log=log,
            # Checked there: anything but an object is a clear "usage must be an object" error.
            usage=cast("Mapping[str, object] | None", body.get("usage")),
            force=force,
            prompt_counter=prompt_counter,
            summary_key=key,
        )
    if log is not None and log.skipped and report is not None:
        line, reason = log.skipped[0]
        report(f"skipped {len(log.skipped)} damaged line(s) of {log.path} (line {line}: {reason})")
    json.dumps(result)  # the result must be JSON: fail here, not half-way through printing
    return result
