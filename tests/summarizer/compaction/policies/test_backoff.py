"""Back-off (the context service's design): 3 consecutive failures stop LLM compaction for 24 h, then it resets."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from summarizer.compaction.compactor import Compactor, CompactorConfig
from summarizer.compaction.event_log import BackoffResetEvent, CompactionFailureEvent, EventLog
from summarizer.exceptions import CompactionFailed
from tests.support.compaction_chat import Chat, StaticSummarizer

START = datetime(2025, 5, 1, 9, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


def _messages() -> list[dict[str, Any]]:
    chat = Chat("anthropic")
    chat.user("a" * 500)
    chat.assistant("b" * 500)
    chat.user("c")
    return chat.messages


def _compactor(summarizer: StaticSummarizer, log: EventLog, clock: Clock) -> Compactor:
    # A tiny window: the 90% threshold fires on every call.
    return Compactor(CompactorConfig(context_window=100), summarizer, log, counter=len, clock=clock)


def test_three_failures_block_for_24_hours_then_reset(tmp_path: Path) -> None:
    clock = Clock()
    log = EventLog(tmp_path / "session.jsonl")
    summarizer = StaticSummarizer(*[RuntimeError("API overloaded")] * 3)
    compactor = _compactor(summarizer, log, clock)
    for attempt in (1, 2, 3):
        with pytest.raises(CompactionFailed, match="overloaded") as failure:
            compactor.compact(_messages())
        assert failure.value.consecutive_failures == attempt
        assert not failure.value.result.did_compress
        clock.now += timedelta(minutes=1)
    assert len(summarizer.calls) == 3

    # Blocked: no call, the request goes out uncompacted, the report says until when.
    clock.now = START + timedelta(minutes=2, hours=23, seconds=59)
    _, result = compactor.compact(_messages())
    assert len(summarizer.calls) == 3 and not result.did_compress
    assert compactor.last_report.blocked_until == START + timedelta(minutes=2, hours=24)

    # The state lives in the log: a new compactor (a restart) is blocked too.
    restarted = _compactor(summarizer, EventLog(tmp_path / "session.jsonl"), clock)
    restarted.compact(_messages())
    assert len(summarizer.calls) == 3

    # 24 h after the last failure: reset recorded, compaction runs again.
    clock.now = START + timedelta(minutes=2, hours=24)
    _, result = compactor.compact(_messages())
    assert len(summarizer.calls) == 4 and result.did_compress
    kinds = [type(event) for event in log.events()]
    assert kinds.count(CompactionFailureEvent) == 3
    assert kinds.index(BackoffResetEvent) == 3


def test_a_success_resets_the_count() -> None:
    clock = Clock()
    log = EventLog()
    summarizer = StaticSummarizer(RuntimeError("x"), RuntimeError("y"), "## ok", RuntimeError("z"))
    compactor = _compactor(summarizer, log, clock)
    for _ in range(2):
        with pytest.raises(CompactionFailed):
            compactor.compact(_messages())
    compactor.compact(_messages())
    # The history resumes after the summary; a new exchange gives it something to do.
    longer = [
        *_messages(),
        {"role": "assistant", "content": "d" * 500},
        {"role": "user", "content": "e"},
    ]
    with pytest.raises(CompactionFailed) as failure:
        compactor.compact(longer)
    assert failure.value.consecutive_failures == 1
    assert summarizer.calls[-1][1] == "## ok"


def test_an_empty_summary_is_a_failure_not_an_empty_section() -> None:
    log = EventLog()
    compactor = _compactor(StaticSummarizer("   \n"), log, Clock())
    with pytest.raises(CompactionFailed, match="empty summary"):
        compactor.compact(_messages())
    assert isinstance(log.events()[-1], CompactionFailureEvent)


def test_the_manual_trigger_is_not_blocked() -> None:
    clock = Clock()
    summarizer = StaticSummarizer(*[RuntimeError("down")] * 3)
    compactor = _compactor(summarizer, EventLog(), clock)
    for _ in range(3):
        with pytest.raises(CompactionFailed):
            compactor.compact(_messages())
    _, result = compactor.compact(_messages(), force=True)
    assert result.did_compress and len(summarizer.calls) == 4


def test_the_cheap_policies_outcome_survives_a_failure() -> None:
    chat = Chat("openai")
    chat.user("go")
    for _ in range(4):
        chat.tool("Read", "x" * 5_000)
    compactor = _compactor(StaticSummarizer(RuntimeError("down")), EventLog(), Clock())
    with pytest.raises(CompactionFailed) as failure:
        compactor.compact(chat.messages)
    assert failure.value.result.did_compress and failure.value.result.released > 0
    assert len(failure.value.messages) == len(chat.messages)
