"""Symbols are found when they are asked for: the same answers as finding them at once, and `files` never parses code."""

from __future__ import annotations

from pathlib import Path

import pytest

from artifact_index.facts.symbols import definitions
from artifact_index.ingestion.loading import load_events
from artifact_index.presentation.render import (
    decisions_json,
    errors_json,
    files_json,
    show_json,
    symbols_json,
)
from artifact_index.trail import index as index_module
from artifact_index.trail.tracker import Tracker, symbol_trail

# Sessions with many edits, reads of windows, errors placed in symbols and decisions naming them.
TRANSCRIPTS = [
    "claude_code/spotter__4d5611e5-241a-462a-8d15-5122611a9569.jsonl.gz",
    "codex/entire_agentv__da4bdc81f3ac_1.jsonl.gz",
    "swe_agent/christsakm__getmoto__moto-5843__trace_02_kimi-k2-instruct-0905.traj.gz",
    "openhands/oh_multiswebench__ponylang__ponyc-4593.json.gz",
    "cline/CoreGems_Cline-Xray__task_sample_ui_messages.json.gz",
    "mini_swe_agent/msa_history__deepseek_chat_dev__sqlfluff__sqlfluff-1733.traj.json.gz",
]


@pytest.mark.parametrize("name", TRANSCRIPTS)
def test_symbols_found_late_are_those_found_at_once(corpus_dir: Path, name: str) -> None:
    events = load_events(corpus_dir / name)
    late = Tracker(format=None).feed_all(events)
    at_once = Tracker(format=None)
    for event in events:
        at_once.feed(event)
        at_once.index.settle()  # no work left waiting: each event's symbols found as it comes

    assert symbols_json(late) == symbols_json(at_once.index)
    assert decisions_json(late) == decisions_json(at_once.index)
    assert errors_json(late) == errors_json(at_once.index)
    assert show_json(late) == show_json(at_once.index)
    # The saved state does not depend on when the work was done either.
    assert late.to_json() == at_once.index.to_json()


def test_listing_files_parses_no_source_code(
    corpus_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_parsing(*_: object, **__: object) -> list[object]:
        raise AssertionError("a source file was parsed")

    for name in ("changed_symbols", "symbols_in_edit", "symbols_in_range"):
        monkeypatch.setattr(symbol_trail, name, no_parsing)
    events = load_events(corpus_dir / TRANSCRIPTS[0])
    index = Tracker(format="claude-code").feed_all(events)

    assert files_json(index)["files"]
    with pytest.raises(AssertionError, match="a source file was parsed"):
        symbols_json(index)


def test_the_graph_asked_for_from_outside_has_every_symbol(corpus_dir: Path) -> None:
    index = Tracker(format="claude-code").feed_all(load_events(corpus_dir / TRANSCRIPTS[0]))
    assert index.fed_graph.count_of_kind("symbol") == 0
    assert index.graph.count_of_kind("symbol") > 0
    assert index.fed_graph.count_of_kind("symbol") == index.graph.count_of_kind("symbol")
    assert index_module.ArtifactIndex.from_json(index.to_json()).graph.count_of_kind("symbol") > 0
    assert definitions.changed_symbols  # the real functions are back
