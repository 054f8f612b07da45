"""Claude Code's ``PostToolUse`` hooks that may rewrite the file an edit just changed.

A project can run a command after every ``Edit`` or ``Write`` (``nix run
.#fmt``, ``ruff format "$f"``, ``biome check --write``): the file on disk is
then what the formatter made of the edit, not the edit's text, and a diff
worked out from the edits (its lines, its first lines) would misstate it.
The transcript records that the hook ran (a ``hook_progress`` record, or a
``hook_success`` attachment with its exit code) but not what it did, so the
file is taken as perhaps reformatted: an edit that may have left it as it
was, which makes its content unknown from there on.

Which hooks: those whose command says it formats or fixes (the words of
formatters and fixers), not the many that log, notify or count.
"""

from __future__ import annotations

from artifact_index.ingestion.events import (
    MAY_BE_UNCHANGED,
    Event,
    FileOperation,
    ToolCall,
    ToolResult,
)
from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["FileToolChanges", "may_rewrite"]

# The words of a command that formats or fixes what it is given.
_REWRITING_WORDS = frozenset(
    {
        "fmt",
        "format",
        "formatter",
        "formatting",
        "fix",
        "autofix",
        "prettier",
        "black",
        "isort",
        "autopep8",
        "autoflake",
        "yapf",
        "pyupgrade",
        "gofmt",
        "goimports",
        "rustfmt",
        "shfmt",
        "nixfmt",
        "alejandra",
        "treefmt",
        "stylua",
        "oxfmt",
        "dprint",
        "rubocop",
        "ktlint",
        "swiftformat",
    }
)
_WORD = lazy_pattern(r"[a-z0-9]+")
_REWRITING_FLAG = lazy_pattern(r"(?<![\w-])--(?:write|fix|in-place)\b")

# Remembered file-tool calls, the latest ones: a hook's record follows its call's result closely.
_KEPT = 64


def may_rewrite(command: str) -> bool:
    """Whether a hook's command formats or fixes files, by its words."""
    lowered = command.lower()
    return bool(_REWRITING_WORDS.intersection(_WORD.findall(lowered))) or bool(
        _REWRITING_FLAG.search(lowered)
    )


class FileToolChanges:
    """The files the latest successful file-tool calls changed, for the hooks that run after them."""

    def __init__(self) -> None:
        self._changed: dict[str, tuple[int, tuple[str, ...]]] = {}
        self._told: set[tuple[str, str]] = set()

    def saw_result(self, call_id: str, turn: int, operations: tuple[FileOperation, ...]) -> None:
        paths = tuple(
            op.path
            for op in operations
            if op.action in ("edit", "write", "create") and op.path and op.source == "tool"
        )
        if not paths:
            return
        self._changed[call_id] = (turn, paths)
        if len(self._changed) > _KEPT:
            del self._changed[next(iter(self._changed))]

    def hook_ran(
        self,
        call_id: str | None,
        command: str | None,
        line: int,
        timestamp: str | None,
        sidechain: str | None,
    ) -> list[Event]:
        """The events of a ``PostToolUse`` hook that ran ``command`` after ``call_id``: none unless it may rewrite."""
        if call_id is None or not command or call_id not in self._changed:
            return []
        if (call_id, command) in self._told or not may_rewrite(command):
            return []
        self._told.add((call_id, command))
        turn, paths = self._changed[call_id]
        shown = " ".join(command.split())
        hook_id = f"{call_id}:post-tool-use:{len(self._told)}"
        detail = f"reformatted by the hook `{shown[:80]}` {MAY_BE_UNCHANGED}"
        return [
            ToolCall(
                turn=turn,
                line=line,
                timestamp=timestamp,
                sidechain=sidechain,
                call_id=hook_id,
                tool="PostToolUse hook",
                arguments={"command": command},
                operations=tuple(
                    FileOperation(
                        action="edit", path=path, command=command, source="shell", detail=detail
                    )
                    for path in paths
                ),
            ),
            ToolResult(
                turn=turn,
                line=line,
                timestamp=timestamp,
                sidechain=sidechain,
                call_id=hook_id,
                status="success",
            ),
        ]
