"""The compaction modules export what they document, and nothing else by accident."""

from __future__ import annotations

import importlib

import pytest

MODULES = [
    "summarizer.compact_request",
    "summarizer.compactor",
    "summarizer.compress_result",
    "summarizer.errors",
    "summarizer.event_log",
    "summarizer.messages",
    "summarizer.narrative_protocol",
    "summarizer.policies",
    "summarizer.policies.backoff",
    "summarizer.policies.base",
    "summarizer.policies.keep_recent",
    "summarizer.policies.micro_compaction",
    "summarizer.policies.overflow",
    "summarizer.policies.pruning",
    "summarizer.policies.registry",
    "summarizer.policies.triggers",
    "summarizer.summary_message",
    "summarizer.tokens",
    "summarizer.tool_names",
    "summarizer.usage",
]


@pytest.mark.parametrize("name", MODULES)
def test_every_export_exists(name: str) -> None:
    module = importlib.import_module(name)
    exported = module.__all__
    assert len(set(exported)) == len(exported)
    assert [item for item in exported if not hasattr(module, item)] == []


def test_the_package_exports_the_compaction_api() -> None:
    package = importlib.import_module("summarizer")
    if getattr(package, "__file__", None) is None:
        pytest.skip(
            "summarizer is imported as a namespace package: the editable install predates "
            "summarizer/__init__.py (re-run `pip install -e .`)"
        )
    for name in ("Compactor", "CompactorConfig", "CompressResult", "EventLog", "run_compact"):
        assert name in package.__all__ and hasattr(package, name)


def test_every_error_is_a_summarizer_error() -> None:
    errors = importlib.import_module("summarizer.errors")
    for name in errors.__all__:
        assert issubclass(getattr(errors, name), errors.SummarizerError)
