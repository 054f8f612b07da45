"""Symbol, decision and error nodes: what the graph knows beyond file state.

Node ids and kinds added here:

- ``symbol:<file key>::<container.>name`` (``kind="symbol"``), with
  ``file -> symbol`` (``defines``) and ``op -> symbol`` (``changed``, with
  ``change`` = added / modified / removed / read) edges;
- ``decision:<n>`` (``kind="decision"``) with ``decision -> file`` and
  ``decision -> symbol`` (``names``) edges;
- ``error:<signature>`` (``kind="error"``) with ``error -> file`` / ``error -> symbol``
  (``located_in``) edges.

The functions only add nodes and edges; which changes happened is decided
by the tracker and by :mod:`artifact_index.facts.symbols.definitions`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypedDict

from artifact_index.facts.decisions import Decision
from artifact_index.facts.symbols.definitions import Definition, SymbolChange
from artifact_index.trail.graph import ArtifactGraph

__all__ = [
    "ErrorAttributes",
    "add_decision_node",
    "add_error_node",
    "add_symbol_changes",
    "add_symbols_read",
    "link_decision_symbols",
    "link_error_symbol",
    "symbol_node",
]


def symbol_node(key: str, name: str, container: str | None) -> str:
    return f"symbol:{key}::{container + '.' if container else ''}{name}"


def _ensure_symbol(
    graph: ArtifactGraph, key: str, name: str, kind: str, container: str | None
) -> str:
    node = symbol_node(key, name, container)
    if node not in graph:
        graph.add_node(
            node, kind="symbol", path=key, name=name, symbol_kind=kind, container=container
        )
        graph.add_edge(f"file:{key}", node, kind="defines")
    return node


def add_symbol_changes(
    graph: ArtifactGraph, op_node: str, key: str, changes: Iterable[SymbolChange]
) -> None:
    for change in changes:
        node = _ensure_symbol(graph, key, change.name, change.kind, change.container)
        graph.add_edge(op_node, node, kind="changed", change=change.change)


def add_symbols_read(
    graph: ArtifactGraph, op_node: str, key: str, seen: Iterable[Definition]
) -> None:
    for definition in seen:
        node = _ensure_symbol(graph, key, definition.name, definition.kind, definition.container)
        graph.add_edge(
            op_node,
            node,
            kind="changed",
            change="read",
            lines=[definition.start_line, definition.end_line],
        )


def _symbols_named(graph: ArtifactGraph, name: str, keys: Iterable[str] = ()) -> list[str]:
    """Symbol nodes called ``name`` (``Class.method`` accepted), preferring the given files."""
    bare = name.rsplit(".", 1)[-1].rsplit(":", 1)[-1]
    matches = graph.nodes_named("symbol", bare)
    wanted = set(keys)
    preferred = [node for node in matches if graph.nodes[node]["path"] in wanted]
    return preferred or matches


def add_decision_node(graph: ArtifactGraph, number: int, decision: Decision) -> str:
    """A decision node linked to the files it names (the files known now)."""
    node = f"decision:{number}"
    fields = decision.model_dump()
    graph.add_node(node, kind="decision", decision_kind=fields.pop("kind"), **fields)
    for key in decision.files:
        if f"file:{key}" in graph:
            graph.add_edge(node, f"file:{key}", kind="names")
    return node


def link_decision_symbols(graph: ArtifactGraph, node: str, decision: Decision) -> None:
    """Link a decision node to the symbols it names (the symbols known now)."""
    for name in decision.symbols:
        for symbol in _symbols_named(graph, name, decision.files):
            graph.add_edge(node, symbol, kind="names")


class ErrorAttributes(TypedDict):
    """What an error node holds of its ledger entry (``kind`` is stored as ``error_kind``)."""

    message: str
    kind: str
    line: int | None
    symbol: str | None


def add_error_node(
    graph: ArtifactGraph, signature: str, entry: ErrorAttributes, key: str | None
) -> str:
    """An error node for a ledger entry, linked to its file when known."""
    node = f"error:{signature}"
    graph.add_node(
        node,
        kind="error",
        **{k: v for k, v in entry.items() if k != "kind"},
        error_kind=entry.get("kind"),
    )
    if key is not None and f"file:{key}" in graph:
        graph.add_edge(node, f"file:{key}", kind="located_in")
    return node


def link_error_symbol(graph: ArtifactGraph, node: str, entry: ErrorAttributes, key: str) -> None:
    """Link an error node placed in file ``key`` to its symbol (among the symbols known now)."""
    symbol = entry.get("symbol")
    if isinstance(symbol, str) and symbol:
        for target in _symbols_named(graph, symbol, [key])[:1]:
            graph.add_edge(node, target, kind="located_in")
