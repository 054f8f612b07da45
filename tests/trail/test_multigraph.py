"""The index's multigraph lays out and walks its nodes and edges exactly as networkx's ``MultiDiGraph`` does.

Every output walks the graph in the order its dictionaries hold, so a
graph that kept another order (predecessors, keys) would change what the
commands print.  Each test does the same to both graphs and compares the
dictionaries themselves, order included.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import networkx as nx

from artifact_index.trail.graph import ArtifactGraph
from artifact_index.trail.multigraph import MultiDiGraph


def _layout(graph: Any) -> tuple[Any, ...]:
    """Everything the graph holds, as lists, so that comparing them compares the order too."""

    def ordered(adjacency: Any) -> list[Any]:
        return [
            (node, [(other, list(keyed.items())) for other, keyed in neighbours.items()])
            for node, neighbours in adjacency.items()
        ]

    return (
        list(graph.graph.items()),
        list(graph._node.items()),
        ordered(graph._succ),
        ordered(graph._pred),
    )


def _both(steps: int, seed: int) -> tuple[MultiDiGraph, Any]:
    """The same random additions and removals, done to both graphs."""
    ours, theirs = MultiDiGraph(name="g"), nx.MultiDiGraph(name="g")
    rng = random.Random(seed)
    names = [f"n{n}" for n in range(12)]
    for step in range(steps):
        action, u, v = rng.random(), rng.choice(names), rng.choice(names)
        kind, key = rng.choice("ab"), rng.choice((0, 1, "k"))
        keys = []
        for graph in (ours, theirs):
            if action < 0.2:
                graph.add_node(u, kind=kind, seq=step)
            elif action < 0.75:
                keys.append(graph.add_edge(u, v, kind="touched", seq=step))
            elif action < 0.85:
                keys.append(graph.add_edge(u, v, key=key, extra=step))
            elif action < 0.95:
                if u in graph:
                    graph.remove_node(u)
            elif v in graph.nodes:
                graph.nodes[v]["seen"] = step
        assert len(set(keys)) <= 1  # the same key for the same edge
    return ours, theirs


def test_adding_and_removing_lays_out_the_graph_as_networkx_does() -> None:
    for seed in range(20):
        ours, theirs = _both(200, seed)
        assert _layout(ours) == _layout(theirs), seed


def test_walking_yields_what_networkx_yields_in_its_order() -> None:
    ours, theirs = _both(300, 7)
    nodes = list(theirs.nodes) + ["absent"]
    for node in nodes:
        for data in (False, True):
            for keys in (False, True):
                assert ours.out_edges(node, data=data, keys=keys) == list(
                    theirs.out_edges(node, data=data, keys=keys)
                )
                assert ours.in_edges(node, data=data, keys=keys) == list(
                    theirs.in_edges(node, data=data, keys=keys)
                )
    assert ours.edges(keys=True, data=True) == list(theirs.edges(keys=True, data=True))
    assert ours.edges(nodes[:3]) == list(theirs.edges(nodes[:3]))
    assert list(ours.nodes(data=True)) == list(theirs.nodes(data=True))
    assert list(ours) == list(theirs) and len(ours) == len(theirs)
    assert ours.number_of_edges() == theirs.number_of_edges()
    for node in theirs.nodes:
        assert list(ours.successors(node)) == list(theirs.successors(node))
        assert list(ours.predecessors(node)) == list(theirs.predecessors(node))


def test_copies_and_conversions_keep_the_layout() -> None:
    ours, theirs = _both(300, 3)
    assert _layout(ours.copy()) == _layout(theirs.copy())
    # To networkx and back, every dictionary in the same order.
    assert _layout(ours.to_networkx()) == _layout(ours)
    assert _layout(MultiDiGraph(theirs)) == _layout(nx.MultiDiGraph(theirs))
    assert _layout(pickle.loads(pickle.dumps(ours))) == _layout(ours)


def test_an_artifact_graph_made_from_a_networkx_graph_indexes_its_nodes() -> None:
    theirs = nx.MultiDiGraph()
    theirs.add_node("file:src/a.py", kind="file", path="src/a.py")
    theirs.add_node("op:1", kind="operation", seq=1)
    theirs.add_edge("op:1", "file:src/a.py", kind="touched")
    graph = ArtifactGraph(theirs)
    assert [node for node, _ in graph.files_under("src")] == ["file:src/a.py"]
    assert graph.out_edges("op:1", data=True) == [("op:1", "file:src/a.py", {"kind": "touched"})]
