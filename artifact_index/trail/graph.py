"""The artifact graph's node store: a multigraph that finds nodes without scanning them all.

The graph holds nodes of several kinds (files, operations, turns, symbols,
errors, decisions; see :mod:`artifact_index.trail.index`) and grows with every
event.  Questions the tracker asks on every message or shell command ("every
file", "the symbols called ``parse``", "the files under ``src/``") would cost
the size of the whole graph each time if answered by iterating over it, and
a long session asks them tens of thousands of times.  :class:`ArtifactGraph`
answers them from indices it keeps up to date as nodes are added:

- nodes by ``kind``, in the order they were given that kind;
- nodes by ``kind`` and ``name`` (symbols);
- file nodes by each directory above their ``path``.

The edges stay plain (:mod:`artifact_index.trail.multigraph`, networkx's layout): the queries that cross files, operations,
symbols, errors and decisions traverse them.  A node's ``kind``, ``name`` and
``path`` are fixed when it is added with :meth:`add_node`; the other
attributes may change freely through ``graph.nodes[node]``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, TypedDict, cast

from artifact_index.ingestion.events import JSONObject
from artifact_index.trail.multigraph import MultiDiGraph
from artifact_index.trail.nodes import EdgeAttributes

__all__ = ["ArtifactGraph", "NodeLinkData"]


class NodeLinkData(TypedDict):
    """The graph as saved: networkx's node-link data (``node_link_data(graph, edges="edges")``).

    A node is its attributes (:mod:`~artifact_index.trail.nodes`, by its
    ``kind``) with its ``id``; an edge its attributes with ``source``,
    ``target`` and ``key``.
    """

    directed: bool
    multigraph: bool
    graph: dict[str, object]
    nodes: list[JSONObject]
    edges: list[JSONObject]


class ArtifactGraph(MultiDiGraph):
    """A ``MultiDiGraph`` whose nodes are indexed by kind, by name and by directory."""

    def __init__(self, incoming_graph_data: Any = None, **attr: Any) -> None:
        self._by_kind: dict[str, list[str]] = {}
        self._by_name: dict[tuple[str, str], list[str]] = {}
        self._files_by_directory: dict[str, list[str]] = {}
        super().__init__(incoming_graph_data, **attr)
        if incoming_graph_data is not None:
            # Converting another graph sets the attributes behind add_node's back.
            self._clear_indices()
            for node, data in self._node.items():
                self._index(node, data)

    # The nodes an edge was added into since the last take_growth (None: not noted).  A class
    # default, so that a graph pickled before it had one reads as not noting.
    _grown: set[str] | None = None

    def follow_growth(self) -> None:
        """From now on, note each node an edge is added into (see :meth:`take_growth`)."""
        if self._grown is None:
            self._grown = set()

    def take_growth(self) -> set[str] | None:
        """The nodes an edge was added into since the last call (None: growth is not followed)."""
        grown = self._grown
        if grown is not None:
            self._grown = set()
        return grown

    # The file nodes an edge was added into since the last take_file_growth (None: not noted),
    # apart from _grown: the work state asks at each complete `git status`, the symbols at each
    # report, and neither may take what the other has not seen.
    _files_grown: set[str] | None = None

    def follow_file_growth(self) -> None:
        """From now on, note each file node an edge is added into (see :meth:`take_file_growth`)."""
        if self._files_grown is None:
            self._files_grown = set()

    def take_file_growth(self) -> set[str] | None:
        """The file nodes an edge was added into since the last call (None: not followed)."""
        grown = self._files_grown
        if grown is not None:
            self._files_grown = set()
        return grown

    def add_edge(self, u_for_edge: str, v_for_edge: str, key: Any = None, **attr: Any) -> Any:
        grown = self._grown
        if grown is not None:
            grown.add(v_for_edge)
        files = self._files_grown
        if files is not None and v_for_edge.startswith("file:"):
            files.add(v_for_edge)
        return super().add_edge(u_for_edge, v_for_edge, key, **attr)

    def to_node_link(self, late_kinds: frozenset[str] = frozenset()) -> NodeLinkData:
        """The graph as ``networkx.node_link_data(graph, edges="edges")`` gives it, nodes of ``late_kinds`` last.

        Nodes whose adding may be deferred (see
        :meth:`~artifact_index.trail.index.ArtifactIndex.defer`) come after
        all others, and each node's edges to them after its edges to the
        others, so the data does not depend on when deferred work was done.
        """
        nodes, successors = self._node, self._succ
        early = [node for node, data in nodes.items() if data.get("kind") not in late_kinds]
        late = [node for node, data in nodes.items() if data.get("kind") in late_kinds]
        edges: list[JSONObject] = []
        for source in early + late:
            targets = successors[source]
            for wanted_late in (False, True):
                for target, keyed in targets.items():
                    if (nodes[target].get("kind") in late_kinds) is wanted_late:
                        edges.extend(
                            {**data, "source": source, "target": target, "key": key}
                            for key, data in keyed.items()
                        )
        return {
            "directed": True,
            "multigraph": True,
            "graph": self.graph,
            "nodes": [{**nodes[node], "id": node} for node in early + late],
            "edges": edges,
        }

    @classmethod
    def from_node_link(cls, data: JSONObject) -> ArtifactGraph:
        """The graph ``networkx.node_link_data(graph, edges="edges")`` described, its nodes and edges in order.

        Built straight into networkx's adjacency dictionaries: a saved state
        of a long session has a hundred thousand edges, and adding them one
        by one is most of the cost of resuming it.  ``data`` is consumed.
        """
        if not data.get("directed") or not data.get("multigraph"):
            raise ValueError("the saved graph is not a directed multigraph")
        graph = cls()
        graph.graph.update(_object(data.get("graph", {})))
        nodes, successors, predecessors = graph._node, graph._succ, graph._pred
        for attributes in _objects(data["nodes"]):
            node = attributes.pop("id")
            if not isinstance(node, str):
                raise TypeError(f"node id {node!r} in the saved graph is not a string")
            if node in nodes:
                raise ValueError(f"node {node!r} is saved twice")
            nodes[node] = attributes
            successors[node] = {}
            predecessors[node] = {}
            graph._index(node, attributes)
        for attributes in _objects(data["edges"]):
            source, target, key = (
                attributes.pop("source"),
                attributes.pop("target"),
                attributes.pop("key"),
            )
            if not isinstance(source, str) or not isinstance(target, str):
                raise TypeError(f"edge {source!r} -> {target!r} does not join two node ids")
            if source not in nodes or target not in nodes:
                raise ValueError(f"edge {source!r} -> {target!r} joins a node that is not saved")
            # A multigraph keeps one dictionary of keyed edges per pair, shared by both directions.
            keyed = successors[source].get(target)
            if keyed is None:
                keyed = successors[source][target] = predecessors[target][source] = {}
            keyed[key] = attributes
        return graph

    @property
    def attributes(self) -> dict[str, JSONObject]:
        """Each node's attributes by node: ``nodes[node]`` without the view's cost (read, never write)."""
        return self._node

    @property
    def keyed_edges_into(self) -> dict[str, dict[str, dict[Any, EdgeAttributes]]]:
        """Per node, per source, the attributes of each keyed edge between them (read, never write).

        ``in_edges(node, data=True)`` for a loop over many nodes, without its lists: queries
        that visit every symbol ask it of each, and the lists cost more than the few edges they hold.
        """
        return cast("dict[str, dict[str, dict[Any, EdgeAttributes]]]", self._pred)

    @property
    def keyed_edges_out_of(self) -> dict[str, dict[str, dict[Any, EdgeAttributes]]]:
        """Per node, per target, the attributes of each keyed edge between them (read, never write).

        ``out_edges(node, data=True)`` for a loop over many nodes, without its lists.
        """
        return cast("dict[str, dict[str, dict[Any, EdgeAttributes]]]", self._succ)

    # -- keeping the indices ------------------------------------------------------
    def add_node(self, node_for_adding: str, **attr: Any) -> None:
        known = self._node.get(node_for_adding)
        if known is None:  # a new node: nothing to take out of the indices first
            super().add_node(node_for_adding, **attr)
            self._index(node_for_adding, self._node[node_for_adding])
            return
        before = known.get("kind")
        super().add_node(node_for_adding, **attr)
        data = self._node[node_for_adding]
        if data.get("kind") != before:
            self._unindex(node_for_adding, {**data, "kind": before})
            self._index(node_for_adding, data)

    def remove_node(self, n: str) -> None:
        self._unindex(n, self._node.get(n, {}))
        super().remove_node(n)

    def remove_nodes_from(self, nodes: Iterable[str]) -> None:
        for node in list(nodes):
            if node in self._node:
                self.remove_node(node)

    def clear(self) -> None:
        super().clear()
        self._clear_indices()

    def _clear_indices(self) -> None:
        self._by_kind.clear()
        self._by_name.clear()
        self._files_by_directory.clear()

    def _index(self, node: str, data: JSONObject) -> None:
        kind = data.get("kind")
        if not isinstance(kind, str):
            return
        self._by_kind.setdefault(kind, []).append(node)
        name = data.get("name")
        if isinstance(name, str):
            self._by_name.setdefault((kind, name), []).append(node)
        path = data.get("path")
        if kind == "file" and isinstance(path, str):
            for directory in _directories(path):
                self._files_by_directory.setdefault(directory, []).append(node)

    def _unindex(self, node: str, data: JSONObject) -> None:
        kind = data.get("kind")
        if not isinstance(kind, str):
            return
        if node in self._by_kind.get(kind, ()):
            self._by_kind[kind].remove(node)
        name = data.get("name")
        if isinstance(name, str) and node in self._by_name.get((kind, name), ()):
            self._by_name[kind, name].remove(node)
        path = data.get("path")
        if kind == "file" and isinstance(path, str):
            for directory in _directories(path):
                self._files_by_directory[directory].remove(node)

    # -- questions ---------------------------------------------------------------------
    def nodes_of_kind(self, kind: str, since: int = 0) -> Iterator[tuple[str, JSONObject]]:
        """``(node, attributes)`` of every node of ``kind`` in the order they were added.

        ``since``: skip the first ``since`` of them (those a caller has already seen).
        """
        nodes, of_kind = self._node, self._by_kind.get(kind, [])
        for position in range(since, len(of_kind)):
            node = of_kind[position]
            yield node, nodes[node]

    def count_of_kind(self, kind: str) -> int:
        return len(self._by_kind.get(kind, ()))

    def nodes_named(self, kind: str, name: str) -> list[str]:
        """Nodes of ``kind`` whose ``name`` is ``name``, in the order they were added."""
        return list(self._by_name.get((kind, name), ()))

    def files_under(self, directory: str) -> Iterator[tuple[str, JSONObject]]:
        """File nodes whose ``path`` lies under ``directory`` (no trailing slash), in the order added."""
        nodes = self._node
        for node in self._files_by_directory.get(directory, ()):
            yield node, nodes[node]

    def has_files_under(self, directory: str) -> bool:
        return bool(self._files_by_directory.get(directory))


def _directories(path: str) -> Iterator[str]:
    """Every directory ``path`` lies under, as ``path[:i]`` for each ``/`` at ``i`` ("" for the root)."""
    position = path.find("/")
    while position != -1:
        yield path[:position]
        position = path.find("/", position + 1)


def _object(value: object) -> JSONObject:
    """A part of saved node-link data that must be an object (a TypeError, which the loader reports, if not)."""
    if not isinstance(value, dict):
        raise TypeError(f"expected an object in the saved graph, found {type(value).__name__}")
    return value


def _objects(value: object) -> list[JSONObject]:
    """A part of saved node-link data that must be a list of objects (a TypeError if not)."""
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise TypeError("expected a list of objects in the saved graph")
    return value
