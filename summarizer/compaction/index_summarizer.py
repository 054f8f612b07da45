"""The compactor's summarizer: each dropped span goes through the tracker, then the template.

:class:`IndexSummarizer` implements :class:`~summarizer.compaction.protocol.NarrativeSummarizer`.
The dropped messages are read by the plain Anthropic / OpenAI adapters into
events, fed to a tracker that *continues* from the previous cycle's state
(kept in memory and, with ``state_dir``, on disk), so the file, symbol and
error sections cover the whole session although each cycle only sees its
own span.  The narrative anchor comes from the previous summary.  The state
is a snapshot and a journal of the events fed since
(:class:`~artifact_index.trail.saved_state.SavedState`): each cycle appends
its events instead of rewriting the whole state.  Both files are ``0600``
(:mod:`artifact_index.state_files`); a damaged snapshot is set aside and
reported through ``report``, never a reason to fail every later compaction,
and a damaged journal costs only the saves it lost.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from artifact_index.exceptions import StateError
from artifact_index.ingestion.adapters import adapter_named
from artifact_index.ingestion.events import Event
from artifact_index.ingestion.source import Source
from artifact_index.trail.saved_state import SavedState
from artifact_index.trail.tracker import Tracker
from summarizer.compaction.message_lists import Message, detect_shape
from summarizer.narrative.narrative_model import Narrative, NarrativeWriter, Strategy
from summarizer.sections.templates import Template
from summarizer.summary import parse_previous, summarize

__all__ = ["STATE_FILE", "IndexSummarizer", "events_of_messages"]

STATE_FILE = "tracker.json"


class CompactionProgress(BaseModel):
    """What the saved tracker state keeps beside the tracker between compactions."""

    model_config = ConfigDict(frozen=True)

    # The last turn the tracker was fed: the messages of the next request after it are new.
    # A number saved as text by an older version is read as the number.
    last_turn: int = 0


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__


def events_of_messages(messages: Sequence[Message], *, turn_offset: int = 0) -> list[Event]:
    """Normalized events of an Anthropic or OpenAI message list, turns shifted by ``turn_offset``."""
    shape = detect_shape(messages)
    adapter = adapter_named("anthropic-messages" if shape == "anthropic" else "openai-chat")
    source = Source("<messages>", json.dumps(list(messages)))
    return [e.model_copy(update={"turn": e.turn + turn_offset}) for e in adapter.events(source)]


def _saved_state(directory: Path) -> SavedState[CompactionProgress]:
    return SavedState(directory, STATE_FILE.removesuffix(".json"), extra=CompactionProgress)


class IndexSummarizer:
    """Summaries whose index sections span every cycle, for the :class:`~summarizer.Compactor`."""

    def __init__(
        self,
        template: Template,
        writer: NarrativeWriter,
        *,
        state_dir: Path | None = None,
        strategy: Strategy = "anchored",
        extra_context: Sequence[str] = (),
        report: Callable[[str], None] | None = None,
    ) -> None:
        self.template = template
        self.extra_context = list(extra_context)
        self.writer = writer
        self.strategy = strategy
        self.state_dir = state_dir
        self.report = report or (lambda _: None)
        self._tracker: Tracker | None = None
        self._saved: SavedState[CompactionProgress] | None = None
        self._last_turn = 0

    def _load(self) -> Tracker:
        if self._tracker is not None:
            return self._tracker
        if self.state_dir is None:
            return Tracker(format="messages")
        saved = self._saved = _saved_state(self.state_dir)
        try:
            restored = saved.load(format="messages")
            self._last_turn = restored.extra.last_turn
        except (OSError, TypeError, ValueError, StateError) as exc:
            # One damaged file must not stop every later compaction: keep it for inspection, start afresh.
            state = saved.snapshot
            aside = state.with_name(f"{state.name}.damaged")
            with contextlib.suppress(OSError):
                os.replace(state, aside)
            with contextlib.suppress(OSError):
                os.unlink(saved.journal)  # it extends the damaged snapshot
            self.report(
                f"the saved tracker state {state} is damaged ({_first_line(exc)}); it was moved to "
                f"{aside.name} and the file trail is rebuilt from the messages of this request, so files "
                "of earlier compactions are known only from the previous summary's text"
            )
            self._last_turn = 0
            self._saved = _saved_state(self.state_dir)
            return self._saved.load(format="messages").tracker
        if restored.problem is not None:
            self.report(restored.problem)
        return restored.tracker

    def _save(self, tracker: Tracker, events: Sequence[Event]) -> None:
        self._tracker = tracker
        if self._saved is not None:
            self._saved.save(tracker, events, CompactionProgress(last_turn=self._last_turn))

    def summarize(
        self, dropped_messages: Sequence[Message], previous_summary: str | None, cycle: int
    ) -> str:
        tracker = self._load()
        previous = (
            parse_previous(previous_summary, self.template) if previous_summary else Narrative()
        )
        offset = max(self._last_turn, previous.last_turn)
        events = events_of_messages(dropped_messages, turn_offset=offset)
        tracker.feed_all(events)
        if previous.cycle < cycle - 1:
            previous = previous.model_copy(update={"cycle": cycle - 1})
        summary = summarize(
            events,
            template=self.template,
            writer=self.writer,
            previous=previous,
            strategy=self.strategy,
            index=tracker.index,
            extra_context=self.extra_context,
        )
        self._last_turn = max([offset, *(e.turn for e in events)])
        self._save(tracker, events)
        return summary.markdown
