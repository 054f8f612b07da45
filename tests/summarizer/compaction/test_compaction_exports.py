"""The compaction modules export what they document, and nothing else by accident."""

from __future__ import annotations

import importlib

import pytest

MODULES = [
    "summarizer.compaction.request",
    "summarizer.compaction.compactor",
    "summarizer.compaction.result",
    "summarizer.exceptions",
    "summarizer.compaction.event_log",
    "summarizer.compaction.message_lists",
    "summarizer.compaction.protocol",
    "summarizer.compaction.policies",
    "summarizer.compaction.policies.backoff",
    "summarizer.compaction.policies.context_policy",
    "summarizer.compaction.policies.keep_recent",
    "summarizer.compaction.policies.micro_compaction",
    "summarizer.compaction.policies.overflow",
    "summarizer.compaction.policies.pruning",
    "summarizer.compaction.policies.registry",
    "summarizer.compaction.policies.triggers",
    "summarizer.compaction.summary_message",
    "summarizer.tokens",
    "summarizer.compaction.tool_names",
    "summarizer.compaction.usage",
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
    errors = importlib.import_module("summarizer.exceptions")
    for name in errors.__all__:
        assert issubclass(getattr(errors, name), errors.SummarizerError)
