"""An index that remembers its symbols' net changes between asks answers as one built whole, and works out only what grew."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from artifact_index.live.live_transcript import LiveTranscript
from artifact_index.trail import index as index_module
from artifact_index.trail.build import build_index
from tests.support.paths import ROOT

EXAMPLES = [
    ROOT / "examples" / "claude-code-session.jsonl",
    ROOT / "examples" / "codex-rollout.jsonl",
]
FIXTURES = [
    *sorted((ROOT / "tests" / "fixtures" / "claude_code").glob("*.jsonl")),
    *sorted((ROOT / "tests" / "fixtures" / "codex").glob("*.jsonl")),
]


def _followed_as_hooks_follow(session: Path, tmp_path: Path, cuts: list[int]) -> None:
    """Grow ``session`` to each cut and ask a followed index as the hooks do: remembered symbols
    found and the index kept before the end of the file is read, the answers asked after it."""
    lines = session.read_bytes().splitlines(keepends=True)
    transcript = tmp_path / session.name
    transcript.write_bytes(b"")
    live, written = LiveTranscript(transcript), 0
    for cut in cuts:
        with transcript.open("ab") as out:
            out.write(b"".join(lines[written:cut]))
        written = cut
        live.refresh()
        if live.format is None:
            continue
        live.index.remember_symbols()
        live.index.symbols()
        before_end = pickle.dumps(live)
        remembered = live.finish().symbols()
        whole = tmp_path / f"whole-{cut}{session.suffix}"
        whole.write_bytes(b"".join(lines[:cut]))
        assert remembered == build_index(whole)[0].symbols(), f"after line {cut}"
        live = pickle.loads(before_end)


@pytest.mark.parametrize("session", EXAMPLES, ids=lambda p: p.name)
def test_remembered_symbols_at_every_line_are_those_of_the_index_built_whole(
    session: Path, tmp_path: Path
) -> None:
    # Every line: some cuts leave a call waiting for its result, which the end of the file closes.
    count = len(session.read_bytes().splitlines())
    _followed_as_hooks_follow(session, tmp_path, list(range(1, count + 1)))


@pytest.mark.parametrize("session", FIXTURES, ids=lambda p: p.name)
def test_remembered_symbols_as_a_session_grows_are_those_of_the_index_built_whole(
    session: Path, tmp_path: Path
) -> None:
    count = len(session.read_bytes().splitlines())
    _followed_as_hooks_follow(
        session, tmp_path, sorted({max(1, count * n // 4) for n in range(1, 5)})
    )


def test_a_symbol_nothing_was_added_to_is_not_worked_out_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes(EXAMPLES[0].read_bytes())
    index = build_index(transcript)[0]
    index.remember_symbols()
    first = index.symbols()
    assert first
    worked_out: list[list[str]] = []
    original = index_module._net_change

    def counted(changes: list[str]) -> object:
        worked_out.append(changes)
        return original(changes)

    monkeypatch.setattr(index_module, "_net_change", counted)
    assert index.symbols() == first
    assert worked_out == []
    # A symbol an edge is added to is worked out again, and only it.
    node, _ = next(iter(index.graph.nodes_of_kind("symbol")))
    op = next(
        source
        for source, keyed in index.graph.keyed_edges_into[node].items()
        if any(edge.get("kind") == "changed" for edge in keyed.values())
    )
    index.graph.add_edge(op, node, kind="changed", change="removed")
    again = index.symbols()
    assert len(worked_out) == 1
    unremembered = build_index(transcript)[0]
    unremembered.graph.add_edge(op, node, kind="changed", change="removed")
    assert again == unremembered.symbols()
