"""Each kind of node and edge holds exactly what its type in ``trail/nodes.py`` says it holds."""

from __future__ import annotations

from typing import Any

from artifact_index.trail.build import build_index
from artifact_index.trail.nodes import (
    DecisionNode,
    EdgeAttributes,
    ErrorNode,
    FileNode,
    OperationNode,
    SymbolNode,
    TurnNode,
)
from tests.support.paths import FIXTURES

# A session with changed files, symbols, an error and decisions: every kind of node.
SESSION = FIXTURES / "cli" / "index_session.jsonl"

TYPES = {
    "file": FileNode,
    "operation": OperationNode,
    "turn": TurnNode,
    "symbol": SymbolNode,
    "error": ErrorNode,
    "decision": DecisionNode,
}


def _keys(typed: Any) -> frozenset[str]:
    return frozenset(typed.__required_keys__ | typed.__optional_keys__)


def test_every_node_holds_the_keys_of_its_kind_and_every_edge_only_known_keys() -> None:
    index, _ = build_index(SESSION)
    graph = index.graph
    seen: dict[str, set[frozenset[str]]] = {}
    for _, data in graph.nodes(data=True):
        seen.setdefault(data["kind"], set()).add(frozenset(data))
    assert set(seen) == set(TYPES)
    for kind, shapes in seen.items():
        typed = TYPES[kind]
        # Every key it must hold, and none it does not declare (a NotRequired key only where it applies).
        assert all(typed.__required_keys__ <= shape <= _keys(typed) for shape in shapes), kind
    edge_keys = _keys(EdgeAttributes)
    edges = graph.edges(data=True)
    assert edges
    for _, _, data in edges:
        assert set(data) <= edge_keys, data


def test_the_index_answers_nodes_of_a_kind_with_values_of_their_types() -> None:
    index, _ = build_index(SESSION)
    operations = list(index.nodes_of_kind("operation"))
    assert operations
    for node, data in operations:
        assert node == f"op:{data['seq']}"
        assert isinstance(data["seq"], int) and isinstance(data["turn"], int)
    assert all(isinstance(data["turn"], int) for _, data in index.nodes_of_kind("turn"))
    changed = next(path for _, data in index.nodes_of_kind("file") if (path := data["path"]))
    assert all(op["role"] in (None, "dest") for op in index.operations_on(changed))
