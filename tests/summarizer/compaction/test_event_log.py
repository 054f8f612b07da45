"""The JSONL event log, and resuming compaction from ``lastSummarizedTurnId``."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from summarizer.compaction.compactor import Compactor, CompactorConfig
from summarizer.compaction.event_log import CompactEvent, EventLog, SummaryEvent
from summarizer.compaction.summary_message import read_summary
from summarizer.exceptions import EventLogError
from tests.support.compaction_chat import SHAPES, Chat, Shape, StaticSummarizer

NOW = datetime(2025, 5, 1, 12, 0, tzinfo=UTC)


def _summary(
    turn: int, text: str = "## Summary", replaces: list[str] | None = None
) -> SummaryEvent:
    return SummaryEvent(
        uuid=f"s{turn}",
        timestamp=NOW,
        replaces=replaces or ["m1"],
        summary_text=text,
        last_summarized_turn_id=turn,
    )


def test_events_are_appended_as_camel_case_jsonl(tmp_path: Path) -> None:
    path = tmp_path / "logs" / "session.jsonl"
    log = EventLog(path)
    log.append(CompactEvent(uuid="c1", timestamp=NOW, start_turn_id=2, end_turn_id=5))
    log.append(_summary(7))
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0] == {
        "type": "compact",
        "uuid": "c1",
        "startTurnId": 2,
        "endTurnId": 5,
        "timestamp": "2025-05-01T12:00:00Z",
    }
    assert lines[1]["type"] == "summary"
    assert {"replaces", "summaryText", "lastSummarizedTurnId"} <= lines[1].keys()
    # Another reader sees the same events.
    reread = EventLog(path)
    assert reread.events() == log.events()
    assert reread.last_summary() == _summary(7)


def test_host_events_are_passed_over_and_bad_lines_reported(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    path.write_text(
        '{"type": "user", "message": "hello"}\n'
        "not json\n"
        '{"type": "summary", "uuid": "x"}\n'
        + _summary(3).to_json()
        + "\n"
        + '{"type": "compact", "uuid": "torn", "startTu'
    )
    log = EventLog(path)
    assert log.events() == (_summary(3),)
    assert [line for line, _ in log.skipped] == [2, 3]
    # The torn last line does not swallow the next event.
    log.append(_summary(9))
    assert log.last_summary() == _summary(9)
    assert [line for line, _ in log.skipped] == [2, 3, 5]


def test_an_unwritable_log_is_an_event_log_error(tmp_path: Path) -> None:
    (tmp_path / "dir.jsonl").mkdir()
    with pytest.raises(EventLogError, match="cannot"):
        EventLog(tmp_path / "dir.jsonl").append(_summary(1))


def _history(shape: Shape, exchanges: int) -> list[dict[str, object]]:
    chat = Chat(shape, system="rules")
    for n in range(exchanges):
        chat.user(f"request {n}")
        chat.tool("Read", f"contents {n}")
        chat.assistant(f"answer {n}")
    return chat.messages


def _forced(log: EventLog, summarizer: StaticSummarizer) -> Compactor:
    config = CompactorConfig(micro_compaction=None, pruning=None)
    return Compactor(config, summarizer, log, counter=len, clock=lambda: NOW)


@pytest.mark.parametrize("shape", SHAPES)
def test_a_resent_full_history_resumes_after_the_last_summary(shape: Shape, tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    summarizer = StaticSummarizer("## first", "## second")
    _forced(EventLog(path), summarizer).compact(_history(shape, 3), force=True)
    [(dropped, previous, cycle)] = summarizer.calls
    assert previous is None and cycle == 1
    covered = EventLog(path).last_summary()
    assert covered is not None and covered.last_summarized_turn_id == 8
    assert len(covered.replaces) == len(dropped)

    # The client ignored the compacted list and resends its whole history, longer.
    compactor = _forced(EventLog(path), summarizer)
    longer = _history(shape, 5)
    untriggered, _ = compactor.compact(longer)
    assert len(summarizer.calls) == 1  # nothing re-summarized ...
    mark = read_summary(untriggered[1 if shape == "openai" else 0], compactor.summary_key)
    assert mark is not None and (mark.last_turn, mark.text) == (8, "## first")
    assert compactor.last_report.resumed_after_turn == 8

    compacted, _ = compactor.compact(longer, force=True)
    dropped, previous, cycle = summarizer.calls[1]
    # ... and only the span after turn 8 is sent, with the previous summary as anchor.
    assert previous == "## first" and cycle == 2
    assert dropped[0] == longer[len(longer) - len(dropped) - 1]
    assert "request 3" in json.dumps(dropped) and "request 2" not in json.dumps(dropped)
    mark = read_summary(compacted[1 if shape == "openai" else 0], compactor.summary_key)
    assert mark is not None and mark.cycle == 2 and mark.text == "## second"


@pytest.mark.parametrize("shape", SHAPES)
def test_a_compacted_list_resumes_from_its_summary_message(shape: Shape) -> None:
    summarizer = StaticSummarizer("## first", "## second")
    compactor = _forced(EventLog(), summarizer)
    compacted, _ = compactor.compact(_history(shape, 3), force=True)
    compacted += _history(shape, 5)[-8:]  # two more exchanges
    again, _ = compactor.compact(compacted, force=True)
    dropped, previous, cycle = summarizer.calls[1]
    assert previous == "## first" and cycle == 2
    assert "request 3" in json.dumps(dropped) and "## first" not in json.dumps(dropped)
    mark = read_summary(again[1 if shape == "openai" else 0], compactor.summary_key)
    assert mark is not None and mark.last_turn == 14


def test_a_log_from_another_history_is_not_applied(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    summarizer = StaticSummarizer("## first", "## other")
    _forced(EventLog(path), summarizer).compact(_history("anthropic", 3), force=True)
    different = _history("anthropic", 3)
    different[0] = {"role": "user", "content": "a different first request"}
    compactor = _forced(EventLog(path), summarizer)
    unchanged, result = compactor.compact(different)
    assert unchanged == different and not result.did_compress
    compactor.compact(different, force=True)
    assert summarizer.calls[1][1] is None  # no anchor from the unrelated summary
