"""A directed multigraph with networkx's layout and the part of its interface the index uses.

The index used to subclass ``networkx.MultiDiGraph``, and importing networkx
(close to three hundred modules: every algorithm, every backend) was a
quarter of the start-up of a hook on a small transcript, for a graph that
needs nothing but adding nodes and edges and walking them.  This class keeps
networkx's dictionaries exactly (``_node``, ``_succ``, ``_pred``, one dictionary of
keyed edges per pair shared by both directions) and its ordering rules (nodes
and neighbours in the order added, a new edge's key the first unused count),
so everything that walks it sees what it saw before.
:meth:`MultiDiGraph.to_networkx` gives a real ``networkx.MultiDiGraph``, in the
same order, for the algorithms.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

__all__ = ["EdgeData", "MultiDiGraph", "NodeView"]

# networkx's attribute dictionaries: whatever keys a caller sets (the index says what each kind
# of node and edge holds in artifact_index.trail.nodes), saved as JSON with the state.
EdgeData = dict[str, object]
_KeyedEdges = dict[Any, EdgeData]


class NodeView:
    """``graph.nodes``: ``nodes[n]`` is ``n``'s attributes; ``nodes(data=True)`` pairs each node with them."""

    __slots__ = ("_nodes",)

    def __init__(self, nodes: dict[str, EdgeData]) -> None:
        self._nodes = nodes

    def __getitem__(self, node: str) -> Any:
        # Any, as networkx gives it: callers type a node's attributes by its kind.
        return self._nodes[node]

    def __contains__(self, node: object) -> bool:
        return node in self._nodes

    def __iter__(self) -> Iterator[str]:
        return iter(self._nodes)

    def __len__(self) -> int:
        return len(self._nodes)

    def __call__(self, data: bool = False) -> list[Any]:
        return list(self._nodes.items()) if data else list(self._nodes)

    def items(self) -> Iterable[tuple[str, EdgeData]]:
        return self._nodes.items()

    def data(self) -> list[tuple[str, EdgeData]]:
        return list(self._nodes.items())

    def __repr__(self) -> str:
        return f"NodeView({tuple(self._nodes)!r})"


def _edges(
    source: str, neighbours: dict[str, _KeyedEdges], data: bool, keys: bool, inward: bool
) -> Iterator[tuple[Any, ...]]:
    for other, keyed in neighbours.items():
        ends = (other, source) if inward else (source, other)
        for key, attributes in keyed.items():
            if keys:
                yield (*ends, key, attributes) if data else (*ends, key)
            else:
                yield (*ends, attributes) if data else ends


class MultiDiGraph:
    """Nodes with attributes, and any number of keyed, attributed edges from one node to another."""

    def __init__(self, incoming_graph_data: Any = None, **attr: Any) -> None:
        self.graph: EdgeData = {}
        self._node: dict[str, EdgeData] = {}
        self._succ: dict[str, dict[str, _KeyedEdges]] = {}
        self._pred: dict[str, dict[str, _KeyedEdges]] = {}
        self.nodes = NodeView(self._node)
        if incoming_graph_data is not None:
            self._take(incoming_graph_data)
        self.graph.update(attr)

    def _take(self, other: Any) -> None:
        """Copy ``other`` (this class or networkx's): its nodes, then its edges in its order."""
        nodes = other._node if isinstance(other, MultiDiGraph) else dict(other.nodes.items())
        for node in nodes:
            self._add_bare(node)
        for source, target, key, attributes in other.edges(keys=True, data=True):
            self.add_edge(source, target, key, **attributes)
        self.graph.update(other.graph)
        for node, attributes in nodes.items():
            self._node[node].update(attributes)

    def _add_bare(self, node: str) -> None:
        if node is None:
            raise ValueError("None cannot be a node")
        self._succ[node] = {}
        self._pred[node] = {}
        self._node[node] = {}

    # -- building ----------------------------------------------------------------------
    def add_node(self, node_for_adding: str, **attr: Any) -> None:
        if node_for_adding not in self._succ:
            self._add_bare(node_for_adding)
        self._node[node_for_adding].update(attr)

    def add_nodes_from(self, nodes_for_adding: Iterable[Any], **attr: Any) -> None:
        for item in nodes_for_adding:
            if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], dict):
                self.add_node(item[0], **{**attr, **item[1]})
            else:
                self.add_node(item, **attr)

    def new_edge_key(self, u: str, v: str) -> int:
        """The first count of edges from ``u`` to ``v`` not already a key (0 for the first edge)."""
        keyed = self._succ.get(u, {}).get(v)
        if keyed is None:
            return 0
        key = len(keyed)
        while key in keyed:
            key += 1
        return key

    def add_edge(self, u_for_edge: str, v_for_edge: str, key: Any = None, **attr: Any) -> Any:
        """Add an edge (its attributes updated, if ``key`` names one already there); returns its key."""
        u, v = u_for_edge, v_for_edge
        if u not in self._succ:
            self._add_bare(u)
        if v not in self._succ:
            self._add_bare(v)
        if key is None:
            key = self.new_edge_key(u, v)
        keyed = self._succ[u].get(v)
        if keyed is None:
            # One dictionary for both directions, as networkx keeps it (a self-loop too).
            keyed = self._succ[u][v] = self._pred[v][u] = {}
        keyed.setdefault(key, {}).update(attr)
        return key

    def remove_node(self, n: str) -> None:
        if n not in self._node:
            raise KeyError(f"The node {n} is not in the graph.")
        del self._node[n]
        for target in self._succ[n]:
            del self._pred[target][n]
        del self._succ[n]
        for source in self._pred[n]:
            del self._succ[source][n]
        del self._pred[n]

    def remove_nodes_from(self, nodes: Iterable[str]) -> None:
        for node in list(nodes):
            if node in self._node:
                self.remove_node(node)

    def clear(self) -> None:
        self._node.clear()
        self._succ.clear()
        self._pred.clear()
        self.graph.clear()

    def copy(self) -> MultiDiGraph:
        """A graph of its own with the same nodes and edges, their attribute dictionaries copied."""
        copied = type(self)()
        copied.graph.update(self.graph)
        copied.add_nodes_from((node, dict(data)) for node, data in self._node.items())
        for source, target, key, data in self.edges(keys=True, data=True):
            copied.add_edge(source, target, key, **data)
        return copied

    # -- walking -----------------------------------------------------------------------
    def out_edges(
        self, nbunch: str | Iterable[str] | None = None, data: bool = False, keys: bool = False
    ) -> list[tuple[Any, ...]]:
        """``(u, v)`` of every edge out of ``nbunch`` (one node, several, or all), with ``key``, ``data``."""
        return [
            edge
            for node in self._bunch(nbunch)
            for edge in _edges(node, self._succ[node], data, keys, inward=False)
        ]

    edges = out_edges

    def in_edges(
        self, nbunch: str | Iterable[str] | None = None, data: bool = False, keys: bool = False
    ) -> list[tuple[Any, ...]]:
        """``(u, v)`` of every edge into ``nbunch`` (one node, several, or all), with ``key``, ``data``."""
        return [
            edge
            for node in self._bunch(nbunch)
            for edge in _edges(node, self._pred[node], data, keys, inward=True)
        ]

    def _bunch(self, nbunch: str | Iterable[str] | None) -> Iterable[str]:
        """The nodes of ``nbunch`` that are in the graph (networkx's rule: one unknown node gives none)."""
        if nbunch is None:
            return self._node
        if isinstance(nbunch, str):
            return (nbunch,) if nbunch in self._node else ()
        return [node for node in nbunch if node in self._node]

    def successors(self, n: str) -> Iterator[str]:
        return iter(self._succ[n])

    def predecessors(self, n: str) -> Iterator[str]:
        return iter(self._pred[n])

    def has_node(self, n: str) -> bool:
        return n in self._node

    def has_edge(self, u: str, v: str, key: Any = None) -> bool:
        keyed = self._succ.get(u, {}).get(v)
        return keyed is not None and (key is None or key in keyed)

    def number_of_nodes(self) -> int:
        return len(self._node)

    def number_of_edges(self) -> int:
        return sum(len(keyed) for targets in self._succ.values() for keyed in targets.values())

    def is_directed(self) -> bool:
        return True

    def is_multigraph(self) -> bool:
        return True

    def __contains__(self, n: object) -> bool:
        return n in self._node

    def __iter__(self) -> Iterator[str]:
        return iter(self._node)

    def __len__(self) -> int:
        return len(self._node)

    def __getitem__(self, n: str) -> dict[str, _KeyedEdges]:
        return self._succ[n]

    # -- networkx ----------------------------------------------------------------------
    def to_networkx(self) -> Any:
        """This graph as a ``networkx.MultiDiGraph`` (networkx's algorithms take it), in the same order."""
        import networkx as nx  # only for those who ask: it takes longer to import than a hook runs

        converted = nx.MultiDiGraph()
        converted.graph.update(self.graph)
        for node, data in self._node.items():
            converted._node[node] = dict(data)
            converted._succ[node] = {}
            converted._pred[node] = {}
        for source, targets in self._succ.items():
            for target, keyed in targets.items():
                converted._succ[source][target] = {key: dict(data) for key, data in keyed.items()}
        # Each node's predecessors in this graph's order, sharing the keyed edges as networkx does.
        for target, sources in self._pred.items():
            for source in sources:
                converted._pred[target][source] = converted._succ[source][target]
        return converted
