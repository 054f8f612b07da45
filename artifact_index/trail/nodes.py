"""What each kind of node and edge of the artifact graph holds, by kind.

The graph keeps each node's and edge's attributes as a plain dictionary
(networkx's layout, saved as JSON with the state), so the dictionaries
themselves stay untyped.  These types say what the tracker and the
annotations put in each kind, for the queries that read them back: a
node of kind ``"operation"`` is read as an :class:`OperationNode`.  They
add no check at run time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, TypedDict

if TYPE_CHECKING:  # names for the checker only: a hook reading a graph imports no parser for them
    from artifact_index.facts.decisions import DecisionKind
    from artifact_index.facts.symbols.extraction import SymbolKind
    from artifact_index.ingestion.events import FailureReason, FileAction, OperationSource

__all__ = [
    "DecisionNode",
    "EdgeAttributes",
    "ErrorNode",
    "FileNode",
    "NodeKind",
    "OperationNode",
    "OperationOnFile",
    "SymbolNode",
    "TurnNode",
]

NodeKind = Literal["file", "operation", "turn", "symbol", "error", "decision"]


class FileNode(TypedDict):
    """``file:<key>``: the file's state is a :class:`~artifact_index.trail.file_state.FileState`."""

    kind: Literal["file"]
    path: str


class TurnNode(TypedDict):
    """``turn:<n>``: one turn of the conversation."""

    kind: Literal["turn"]
    turn: int


class _CreditedOperation(TypedDict, total=False):
    # A change a later `git status` credited to an earlier command: that command's operation,
    # where the change happened (the node's turn and command are that command's).
    cause_seq: int


class OperationNode(_CreditedOperation):
    """``op:<seq>``: one operation of one tool call on one file (or an effect whose file is unknown)."""

    kind: Literal["operation"]
    seq: int
    turn: int
    call_id: str
    tool: str
    action: FileAction
    source: OperationSource
    result: str  # the call's result status as applied: "success", "failure" or "unknown"
    failure: FailureReason | None
    command: str | None  # the shell command, for operations that did not come from a file tool
    detail: str | None
    dest: str | None
    sidechain: str | None


class OperationOnFile(OperationNode):
    """An operation as one file saw it: ``role`` is ``"dest"`` where the file was a move's or copy's destination."""

    role: str | None


class SymbolNode(TypedDict):
    """``symbol:<key>::<container.>name``: a definition in a file."""

    kind: Literal["symbol"]
    path: str
    name: str
    symbol_kind: SymbolKind
    container: str | None


class DecisionNode(TypedDict):
    """``decision:<n>``: a candidate decision (``kind`` of the decision stored as ``decision_kind``)."""

    kind: Literal["decision"]
    decision_kind: DecisionKind
    text: str
    turn: int
    files: list[str]
    symbols: list[str]


class ErrorNode(TypedDict):
    """``error:<signature>``: an error of the ledger (its ``kind`` stored as ``error_kind``)."""

    kind: Literal["error"]
    message: str
    error_kind: str
    line: int | None
    symbol: str | None


class EdgeAttributes(TypedDict, total=False):
    """An edge: ``performed`` (turn to operation), ``touched`` (operation to file, with ``action`` and
    ``role="dest"`` for a destination), ``renamed_from`` (file to file), ``defines`` (file to symbol),
    ``changed`` (operation to symbol, with ``change`` and, for a read, ``lines``), ``names``
    (decision to file or symbol), ``located_in`` (error to file or symbol)."""

    kind: str
    action: str
    role: str
    change: str
    lines: list[int]
