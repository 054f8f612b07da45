"""What a call's output says (its text, exit code, running session), and what the harness reported a patch changed."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from artifact_index.ingestion.adapters.base import as_text, parse_json_object
from artifact_index.ingestion.adapters.narrowing import as_dict
from artifact_index.ingestion.events import (
    FileOperation,
    JSONObject,
    ReportedChange,
)
from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["Output", "operations_of_changes", "parse_output", "reported_changes"]

# The header Codex puts before a command's output; only the header is read
# so that output which itself prints "Exit code: 1" is not mistaken for it.
_EXITED = lazy_pattern(r"^Process exited with code (-?\d+)\s*$")
_EXIT_CODE = lazy_pattern(r"^Exit code: (-?\d+)\s*$")
_RUNNING = lazy_pattern(r"^Process running with session ID (\d+)\s*$")
# A code-mode cell still running when its time was up: a later `wait` on the cell gets the rest.
_CELL_RUNNING = lazy_pattern(r"^Script running with cell ID (\S+)\s*$")


@dataclass
class Output:
    """A call's output as Codex wrote it."""

    text: str
    exit_code: int | None = None
    running_session: str | None = None
    running_cell: str | None = None


_HEADER_LINES = 8


def _head(text: str, count: int) -> list[str]:
    """``text.splitlines()[:count]``, without splitting the whole of a long output."""
    size = 1024
    while size < len(text):
        lines = text[:size].splitlines()
        if len(lines) > count:
            # A break follows the count-th line inside the prefix: those lines are whole.
            return lines[:count]
        size *= 4
    return text.splitlines()[:count]


def _header_match(lines: list[str], pattern: re.Pattern[str]) -> re.Match[str] | None:
    for line in lines:
        if line.strip() == "Output:":
            break
        found = pattern.match(line)
        if found:
            return found
    return None


_CELL_BODY = "\nOutput:\n"


def _cell_results_unwrapped(text: str) -> tuple[str, int | None, str | None]:
    """A code cell's output whose body is ``JSON.stringify`` of ``tools.exec_command`` results, as plain text.

    Cells often end with ``text(JSON.stringify(r))``: the commands' output then
    comes as one JSON line (``{"exit_code": 0, "output": "ok  pkg\\t1.2s\\n"}``, a list
    of them for ``Promise.all``, or one a line), where no test summary or error line can be
    read.  The body becomes the commands' outputs, one after another, and the exit
    code the first failing one's (0 when every result has one and none failed).
    A lone result with a ``session_id`` and no exit code is a command still
    running: its session is given, for the polls that print the rest.
    Anything else, or JSON cut short, is left as it is.
    """
    at = text.find(_CELL_BODY, 0, 512)
    if at < 0:
        return text, None, None
    body = text[at + len(_CELL_BODY) :].strip()
    if not body.startswith(("{", "[")) or '"output"' not in body:
        return text, None, None
    results: list[Any] = []
    decoder, at_value = json.JSONDecoder(), 0
    try:
        # One value, or one a line when the cell called text() once per result.
        while at_value < len(body):
            decoded, at_value = decoder.raw_decode(body, at_value)
            results.extend(decoded if isinstance(decoded, list) else [decoded])
            while at_value < len(body) and body[at_value].isspace():
                at_value += 1
    except ValueError:
        return text, None, None
    if not results or not all(
        isinstance(r, dict) and isinstance(r.get("output"), str) for r in results
    ):
        return text, None, None
    codes = [r.get("exit_code") for r in results]
    exit_code: int | None = None
    if all(isinstance(c, int) and not isinstance(c, bool) for c in codes):
        exit_code = next((c for c in codes if c != 0), 0)
    running = None
    if len(results) == 1 and codes[0] is None:
        session = results[0].get("session_id")
        if isinstance(session, int) and not isinstance(session, bool):
            running = str(session)
    outputs = "\n".join(r["output"].rstrip("\n") for r in results)
    return text[: at + len(_CELL_BODY)] + outputs + "\n", exit_code, running


def parse_output(raw: Any) -> Output:
    """Text, exit code and unified-exec session of a ``*_output`` payload."""
    exit_code: int | None = None
    if isinstance(raw, dict):
        text = as_text(raw.get("content", raw.get("output", "")))
    elif isinstance(raw, list):
        text = as_text(raw)
    else:
        text = "" if raw is None else str(raw)
    stripped = text.lstrip()
    if stripped.startswith("{") and '"metadata"' in stripped:
        # The 2025 shell tool: {"output": "...", "metadata": {"exit_code": 0, ...}}.
        envelope = parse_json_object(stripped)
        metadata = envelope.get("metadata")
        output = envelope.get("output")
        if isinstance(output, str) and isinstance(metadata, dict):
            text = output
            code = metadata.get("exit_code")
            if isinstance(code, int) and not isinstance(code, bool):
                exit_code = code
    running_in_cell = None
    if exit_code is None:
        text, exit_code, running_in_cell = _cell_results_unwrapped(text)
    # Only the header is read, the first lines before "Output:".
    head = _head(text, _HEADER_LINES)
    if exit_code is None:
        found = _header_match(head, _EXITED) or _header_match(head, _EXIT_CODE)
        if found:
            exit_code = int(found.group(1))
    running = _header_match(head, _RUNNING)
    cell = _header_match(head, _CELL_RUNNING)
    return Output(
        text,
        exit_code,
        running.group(1) if running else running_in_cell,
        cell.group(1) if cell else None,
    )


def reported_changes(changes: Any) -> tuple[ReportedChange, ...]:
    """``patch_apply_end.changes`` as reported changes (both serializations)."""
    if not isinstance(changes, dict):
        return ()
    out: list[ReportedChange] = []
    for path, change in changes.items():
        if not isinstance(change, dict):
            continue
        kind = change.get("type")
        body: JSONObject = change
        if kind is None and len(change) == 1:
            # Older releases wrote the enum externally tagged: {"update": {...}}.
            kind, inner = next(iter(change.items()))
            body = as_dict(inner)
        kind = str(kind).lower()
        content = body.get("content") if isinstance(body.get("content"), str) else None
        diff = body.get("unified_diff") if isinstance(body.get("unified_diff"), str) else None
        move = body.get("move_path")
        if kind == "add":
            out.append(ReportedChange(path=str(path), change="created", content=content))
        elif kind == "delete":
            out.append(ReportedChange(path=str(path), change="deleted"))
        elif kind == "update":
            out.append(
                ReportedChange(
                    path=str(path),
                    change="modified",
                    move_to=str(move) if isinstance(move, str) and move else None,
                    diff=diff,
                )
            )
    return tuple(out)


def operations_of_changes(changes: tuple[ReportedChange, ...]) -> tuple[FileOperation, ...]:
    """The operations a patch must have asked for, given what it changed."""
    out: list[FileOperation] = []
    for change in changes:
        if change.change == "created":
            out.append(
                FileOperation(
                    action="create", path=change.path, content=change.content, source="patch"
                )
            )
        elif change.change == "deleted":
            out.append(FileOperation(action="delete", path=change.path, source="patch"))
        elif change.move_to:
            out.append(
                FileOperation(action="move", path=change.path, dest=change.move_to, source="patch")
            )
            if change.diff:
                out.append(
                    FileOperation(
                        action="edit", path=change.move_to, diff=change.diff, source="patch"
                    )
                )
        else:
            out.append(
                FileOperation(action="edit", path=change.path, diff=change.diff, source="patch")
            )
    return tuple(out)
