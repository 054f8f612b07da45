"""Overflow (the session-compaction design): input + cache-read + output > context limit - reserved output."""

from __future__ import annotations

import pytest

from summarizer.compaction.compactor import Compactor, CompactorConfig
from summarizer.compaction.policies import OverflowConfig, is_overflow
from summarizer.compaction.usage import Usage
from tests.support.compaction_chat import Chat, StaticSummarizer


@pytest.mark.parametrize(("used", "overflow"), [(168_000, False), (168_001, True)])
def test_formula_with_the_default_32k_reserve(used: int, overflow: bool) -> None:
    usage = Usage(input_tokens=used - 1_000 - 500, cache_read_tokens=1_000, output_tokens=500)
    assert is_overflow(usage, 200_000, OverflowConfig()) is overflow


def test_cache_writes_are_not_counted() -> None:
    usage = Usage(input_tokens=100_000, cache_write_tokens=90_000)
    assert not is_overflow(usage, 200_000, OverflowConfig())


def test_reserve_is_capped_by_the_models_output_limit() -> None:
    usage = Usage(input_tokens=190_000)
    assert is_overflow(usage, 200_000, OverflowConfig())
    assert not is_overflow(usage, 200_000, OverflowConfig(max_output_tokens=8_000))
    assert not is_overflow(Usage(input_tokens=1_000), 200_000, OverflowConfig(reserved_output=0))
    assert not is_overflow(None, 200_000, OverflowConfig())


def test_usage_is_read_from_either_api() -> None:
    anthropic = Usage.from_api(
        {
            "input_tokens": 10,
            "cache_read_input_tokens": 20,
            "cache_creation_input_tokens": 30,
            "output_tokens": 40,
        }
    )
    assert anthropic == Usage(
        input_tokens=10, cache_read_tokens=20, cache_write_tokens=30, output_tokens=40
    )
    openai = Usage.from_api(
        {
            "prompt_tokens": 1_000,
            "completion_tokens": 50,
            "prompt_tokens_details": {"cached_tokens": 200},
        }
    )
    assert openai == Usage(input_tokens=800, cache_read_tokens=200, output_tokens=50)


def test_an_overflowing_usage_triggers_llm_compaction_on_a_small_estimate() -> None:
    chat = Chat("anthropic")
    chat.user("one")
    chat.assistant("two")
    chat.user("three")
    summarizer = StaticSummarizer()
    compactor = Compactor(CompactorConfig(), summarizer)
    _, quiet = compactor.compact(chat.messages, {"input_tokens": 1_000, "output_tokens": 10})
    assert not quiet.did_compress and summarizer.calls == []
    _, result = compactor.compact(chat.messages, {"input_tokens": 170_000, "output_tokens": 10})
    assert result.did_compress and len(summarizer.calls) == 1
    assert compactor.last_report.trigger is not None
    assert compactor.last_report.trigger.startswith("overflow")
