"""The JSON documents the query commands print, as types: what a program reading ``--json`` may rely on.

The keys this module names are the contract's own (design.md, "files
--json").  A part that is an engine model as it stands (an error, a test, a
decision, a stored session...) is that model's ``model_dump()``: the model
class is the schema of that part, so here it is only a JSON object that is
printed and never read back (:data:`ModelJSON`).
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from artifact_index.trail.file_state import FileStatus

__all__ = [
    "DecisionsJSON",
    "ErrorsJSON",
    "FileJSON",
    "FilesJSON",
    "HistoryJSON",
    "ModelJSON",
    "OperationJSON",
    "SessionsJSON",
    "ShowJSON",
    "SymbolsJSON",
    "SymbolsOfFileJSON",
    "TasksJSON",
    "WhereJSON",
]

# An engine model as its model_dump() shows it: printed as it is, read by no one here.
ModelJSON = dict[str, object]


class OperationJSON(TypedDict):
    """One operation in a file's ``ops``: its empty fields are left out."""

    turn: int
    action: str
    tool: str
    source: str
    result: NotRequired[str]  # only when not "success"
    failure: NotRequired[str]
    command: NotRequired[str]
    detail: NotRequired[str]
    dest: NotRequired[str]
    sidechain: NotRequired[str]


class FileWhereJSON(TypedDict, total=False):
    """Where a file came from and lies, shown only when it says something."""

    renamed_from: str
    outside_workspace: bool


class FileJSON(FileWhereJSON):
    """One file of ``files`` (and of ``unsubmitted`` and ``failed``)."""

    path: str
    status: FileStatus | None
    sources: list[str]
    ops: list[OperationJSON]


class FilesJSON(TypedDict):
    """``files --json``."""

    format: str | None
    root: str | None
    files: list[FileJSON]
    unsubmitted: list[FileJSON]
    submission: ModelJSON | None
    failed: list[FileJSON]
    unknown_effects: list[ModelJSON]
    seen_not_made: list[ModelJSON]
    skipped_lines: int


class HistoryJSON(TypedDict):
    """``history --json``."""

    path: str
    ops: list[OperationJSON]
    net_diff: str | None


class SymbolsOfFileJSON(TypedDict):
    path: str
    symbols: list[ModelJSON]


class SymbolsJSON(TypedDict):
    """``symbols --json``: ``grammars`` says which grammar package read each language."""

    files: list[SymbolsOfFileJSON]
    grammars: dict[str, str]


class ErrorsJSON(TypedDict):
    """``errors --json``."""

    original: ModelJSON | None
    errors: list[ModelJSON]
    tests: list[ModelJSON]
    failed_runs: list[ModelJSON]


class DecisionsJSON(TypedDict):
    """``decisions --json``."""

    decisions: list[ModelJSON]


class TasksJSON(TypedDict):
    """``tasks --json``."""

    tasks: list[ModelJSON]
    user_messages: list[ModelJSON]


class SessionsJSON(TypedDict):
    """``sessions --json`` without its options: each session is its stored row, with its parent."""

    store: str
    sessions: list[ModelJSON]


class WhereJSON(TypedDict):
    """``where --json``: each session that touched ``path``, with the stored file under ``file``."""

    path: str
    sessions: list[ModelJSON]


class ShowJSON(FilesJSON):
    """``show --json``: everything at once (the per file symbols under ``symbols``)."""

    symbols: list[SymbolsOfFileJSON]
    errors: list[ModelJSON]
    original: ModelJSON | None
    tests: list[ModelJSON]
    decisions: list[ModelJSON]
    tasks: list[ModelJSON]
    user_messages: list[ModelJSON]
    work: ModelJSON
