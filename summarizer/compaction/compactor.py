"""The compactor: cheap policies first, LLM compaction when a trigger fires.

One call to :meth:`Compactor.compact` takes the message list of the next
request (Anthropic or OpenAI shape) and the usage of the last response, and
returns the message list to send and a :class:`CompressResult`:

1. History before the latest summary is dropped (the session-compaction design): either the list
   already holds a summary message this compactor's key marked (a header in
   tool output or a user's text is not one; see
   :mod:`~summarizer.compaction.summary_message`), or the event log's last ``summary``
   event covers a prefix of the list, which is then replaced by that summary
   without asking the summarizer again (the context service's incremental compaction).
2. Micro-compaction and pruning shorten old tool output (cheap, no LLM).
3. If a trigger fires (threshold, overflow, sliding window, task boundary;
   or ``force=True``, the manual trigger) and the back-off allows it, the
   span between the summary and the kept recent turns is sent to the
   :class:`NarrativeSummarizer` with the previous summary, and replaced by
   one summary message.

System prompts, OpenAI system/developer messages and tool definitions are
never changed, and no cut separates a tool call from its result.  Every
step is recorded in the :class:`EventLog`.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from artifact_index.exceptions import StateError
from summarizer.compaction.event_log import (
    BackoffResetEvent,
    CompactEvent,
    CompactionFailureEvent,
    EventLog,
    LogEvent,
    SummaryEvent,
)
from summarizer.compaction.message_lists import (
    Conversation,
    Message,
    MessageEditor,
    Shape,
    detect_shape,
    is_system_message,
    stable_message_id,
)
from summarizer.compaction.policies import (
    Backoff,
    BackoffConfig,
    ContentPolicy,
    KeepRecentConfig,
    MicroCompactionConfig,
    OverflowConfig,
    PolicyContext,
    PolicyOutcome,
    PruningConfig,
    ThresholdTriggerConfig,
    Trigger,
    TriggerConfig,
    compaction_cut,
    content_policy_for,
    trigger_for,
)
from summarizer.compaction.protocol import NarrativeSummarizer
from summarizer.compaction.result import CompressResult
from summarizer.compaction.summary_message import (
    find_latest_summary,
    new_summary_key,
    read_summary,
    summary_message,
)
from summarizer.compaction.usage import Usage
from summarizer.exceptions import CompactionFailed
from summarizer.tokens import PromptCounter, PromptEstimator, TokenCounter, count_tokens

__all__ = ["CompactionReport", "Compactor", "CompactorConfig"]


class CompactorConfig(BaseModel):
    """Every knob of the compactor; a policy set to ``None`` is off."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    context_window: int = Field(200_000, gt=0)
    micro_compaction: MicroCompactionConfig | None = MicroCompactionConfig()
    pruning: PruningConfig | None = PruningConfig()
    triggers: tuple[TriggerConfig, ...] = (ThresholdTriggerConfig(), OverflowConfig())
    keep_recent: KeepRecentConfig = KeepRecentConfig()
    backoff: BackoffConfig = BackoffConfig()


@dataclass
class CompactionReport:
    """What the last :meth:`Compactor.compact` call did, beyond its ``CompressResult``."""

    resumed_after_turn: int | None = None
    outcomes: list[PolicyOutcome] = field(default_factory=list)
    trigger: str | None = None
    summary: SummaryEvent | None = None
    failure: str | None = None
    blocked_until: datetime | None = None
    events: list[LogEvent] = field(default_factory=list)


@dataclass
class _Base:
    """The request once history before the latest summary is gone.

    ``head`` holds the system messages kept ahead of the summary, ``body``
    the messages after it (unmodified), numbered from ``last_turn + 1``.
    """

    head: list[Message]
    summary: Message | None
    previous: str | None
    last_turn: int
    cycle: int
    body: list[Message]

    def assemble(self, body: Sequence[Message]) -> list[Message]:
        summary = [self.summary] if self.summary is not None else []
        return [*self.head, *summary, *body]


class _SummarizerError(Exception):
    """Internal: the summarizer failed; ``compact`` records it and raises ``CompactionFailed``."""

    def __init__(self, error: str) -> None:
        super().__init__(error)
        self.error = error


def _utc(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


class Compactor:
    """Compacts request message lists; see the module docstring for the order of steps."""

    def __init__(
        self,
        config: CompactorConfig | None = None,
        summarizer: NarrativeSummarizer | None = None,
        event_log: EventLog | None = None,
        *,
        counter: TokenCounter | None = None,
        prompt_counter: PromptCounter | None = None,
        clock: Callable[[], datetime] | None = None,
        new_id: Callable[[], str] | None = None,
        summary_key: bytes | None = None,
    ) -> None:
        self.config = config or CompactorConfig()
        # Only summaries marked with this key are trusted (see summary_message); without
        # one, a fresh key trusts just the summaries this compactor writes.
        self.summary_key = summary_key if summary_key is not None else new_summary_key()
        self.summarizer = summarizer
        self.event_log = event_log if event_log is not None else EventLog()
        self.counter: TokenCounter = counter or count_tokens
        self._prompt_counter = prompt_counter
        self._clock = clock or (lambda: datetime.now(UTC))
        self._new_id = new_id or (lambda: str(uuid.uuid4()))
        self._content: list[ContentPolicy] = [
            content_policy_for(policy)
            for policy in (self.config.micro_compaction, self.config.pruning)
            if policy is not None
        ]
        self._triggers: list[Trigger] = [trigger_for(trigger) for trigger in self.config.triggers]
        self._backoff = Backoff(self.config.backoff)
        self.last_report = CompactionReport()

    # -- public -------------------------------------------------------------

    def compact(
        self,
        messages: Sequence[Message],
        usage: Usage | Mapping[str, Any] | None = None,
        *,
        force: bool = False,
        system: Any = None,
        tools: Any = None,
    ) -> tuple[list[Message], CompressResult]:
        """The messages to send instead of ``messages``, and what was done.

        ``usage`` is the last response's usage (for overflow detection);
        ``system`` and ``tools`` only count towards the prompt estimate.
        ``force`` runs LLM compaction whatever the triggers and back-off say.
        Raises :class:`CompactionFailed` when the summarizer fails.
        """
        now = _utc(self._clock())
        report = CompactionReport()
        self.last_report = report
        original = list(messages)
        shape = detect_shape(original)
        estimator = PromptEstimator(
            self.counter, system=system, tools=tools, prompt_counter=self._prompt_counter
        )
        before = estimator.prompt(original)
        usage_model = Usage.coerce(usage)

        base = self._base(original, shape)
        if base.summary is not None:
            report.resumed_after_turn = base.last_turn
        first_turn = base.last_turn + 1
        conversation = Conversation(base.body, shape, first_turn=first_turn)
        editor = MessageEditor(base.body)

        for policy in self._content:
            estimate = estimator.prompt(base.assemble(editor.messages))
            context = PolicyContext(
                context_window=self.config.context_window,
                prompt_estimate=estimate,
                counter=self.counter,
                now=now,
                usage=usage_model,
            )
            outcome = policy.apply(conversation, editor, context)
            if outcome is None:
                continue
            released = estimate - estimator.prompt(base.assemble(editor.messages))
            outcome = replace(outcome, released=released)
            report.outcomes.append(outcome)
            self._record_compact(outcome, now, report)
            conversation = Conversation(editor.messages, shape, first_turn=first_turn)

        current = base.assemble(editor.messages)
        cut = compaction_cut(conversation, self.config.keep_recent)
        context = PolicyContext(
            context_window=self.config.context_window,
            prompt_estimate=estimator.prompt(current),
            counter=self.counter,
            now=now,
            usage=usage_model,
            compactable_stop=cut,
        )
        report.trigger = "manual" if force else self._trigger_reason(conversation, context)

        if report.trigger is not None and cut is not None and self.summarizer is not None:
            state = self._backoff.state(self.event_log.events(), now)
            if state.reset_due:
                self._append(BackoffResetEvent(uuid=self._new_id(), timestamp=now), report)
            if state.blocked and not force:
                report.blocked_until = state.blocked_until
            else:
                try:
                    current = self._summarize(base, conversation, editor, cut, shape, now, report)
                except _SummarizerError as failure:
                    report.failure = failure.error
                    self._append(
                        CompactionFailureEvent(
                            uuid=self._new_id(), timestamp=now, error=failure.error
                        ),
                        report,
                    )
                    failures = self._backoff.state(
                        self.event_log.events(), now
                    ).consecutive_failures
                    raise CompactionFailed(
                        f"the summary could not be written ({failures} failure(s) in a row): "
                        f"{failure.error}",
                        messages=current,
                        result=self._result(original, current, before, estimator),
                        consecutive_failures=failures,
                    ) from failure.__cause__

        return current, self._result(original, current, before, estimator)

    @staticmethod
    def _result(
        original: list[Message], current: list[Message], before: int, estimator: PromptEstimator
    ) -> CompressResult:
        after = estimator.prompt(current)
        changed = len(current) != len(original) or any(
            new is not old for new, old in zip(current, original, strict=True)
        )
        return CompressResult(did_compress=changed, released=before - after, prompt_estimate=after)

    # -- steps --------------------------------------------------------------

    def _base(self, messages: list[Message], shape: Shape) -> _Base:
        at = find_latest_summary(messages, self.summary_key)
        # Dropping what precedes the summary must not orphan a tool result after it.
        if at is not None and Conversation(messages, shape).can_cut(at):
            mark = read_summary(messages[at], self.summary_key)
            assert mark is not None
            head = [message for message in messages[:at] if is_system_message(message)]
            return _Base(
                head, messages[at], mark.text, mark.last_turn, mark.cycle, messages[at + 1 :]
            )
        whole = _Base([], None, None, 0, 0, messages)
        last = self.event_log.last_summary()
        if last is None or not last.replaces:
            return whole
        conversation = Conversation(messages, shape)
        covered = [
            index
            for index in range(len(messages))
            if (turn := conversation.turn_id(index)) is not None
            and turn <= last.last_summarized_turn_id
        ]
        if not covered:
            return whole
        end = covered[-1]
        cut = end + 1
        # The log's summary applies only if this list starts with the history it
        # replaced: a clean cut after that turn, preceded by the very messages
        # the summary lists (the span of its cycle; earlier cycles' spans are
        # vouched for by the summary they were merged into).
        span = covered[-len(last.replaces) :]
        consistent = (
            conversation.can_cut(cut)
            and len(covered) == sum(1 for i in range(cut) if conversation.turn_id(i) is not None)
            and len(span) == len(last.replaces)
            and [stable_message_id(messages[i], conversation.turn_id(i) or 0) for i in span]
            == last.replaces
        )
        if not consistent:
            return whole
        cycle = last.cycle if last.cycle is not None else self.event_log.summary_count()
        summary = summary_message(
            shape,
            last.summary_text,
            last_turn=last.last_summarized_turn_id,
            cycle=cycle,
            key=self.summary_key,
        )
        head = [message for message in messages[:cut] if is_system_message(message)]
        return _Base(
            head, summary, last.summary_text, last.last_summarized_turn_id, cycle, messages[cut:]
        )

    def _trigger_reason(self, conversation: Conversation, context: PolicyContext) -> str | None:
        for trigger in self._triggers:
            reason = trigger.reason(conversation, context)
            if reason is not None:
                return reason
        return None

    def _summarize(
        self,
        base: _Base,
        conversation: Conversation,
        editor: MessageEditor,
        cut: int,
        shape: Shape,
        now: datetime,
        report: CompactionReport,
    ) -> list[Message]:
        assert self.summarizer is not None
        dropped = [i for i in range(cut) if conversation.turn_id(i) is not None]
        kept_system = [editor.messages[i] for i in range(cut) if conversation.turn_id(i) is None]
        cycle = base.cycle + 1
        try:
            text = self.summarizer.summarize([base.body[i] for i in dropped], base.previous, cycle)
        except StateError:
            # The state folder failed (no space, read-only), not the summarizer: said as it is,
            # never counted towards the back-off.
            raise
        except Exception as exc:  # any summarizer failure counts towards the back-off
            raise _SummarizerError(f"{type(exc).__name__}: {exc}") from exc
        if not isinstance(text, str) or not text.strip():
            raise _SummarizerError("the summarizer returned an empty summary")

        turns = [conversation.turn_id(i) or 0 for i in dropped]
        last_turn = max(turns)
        event = SummaryEvent(
            uuid=self._new_id(),
            timestamp=now,
            replaces=[
                stable_message_id(base.body[i], turn)
                for i, turn in zip(dropped, turns, strict=True)
            ],
            summary_text=text,
            last_summarized_turn_id=last_turn,
            cycle=cycle,
        )
        self._append(event, report)
        report.summary = event
        message = summary_message(
            shape, text, last_turn=last_turn, cycle=cycle, key=self.summary_key
        )
        return [*base.head, *kept_system, message, *editor.messages[cut:]]

    def _record_compact(
        self, outcome: PolicyOutcome, now: datetime, report: CompactionReport
    ) -> None:
        previous = self.event_log.last_compact(outcome.policy)
        # A client that resends its original history gets the same truncation
        # every request; the log records it once.
        if (
            previous is not None
            and previous.start_turn_id == outcome.start_turn
            and previous.end_turn_id == outcome.end_turn
        ):
            return
        self._append(
            CompactEvent(
                uuid=self._new_id(),
                timestamp=now,
                start_turn_id=outcome.start_turn,
                end_turn_id=outcome.end_turn,
                policy=outcome.policy,
                released=outcome.released,
            ),
            report,
        )

    def _append(self, event: LogEvent, report: CompactionReport) -> None:
        self.event_log.append(event)
        report.events.append(event)
