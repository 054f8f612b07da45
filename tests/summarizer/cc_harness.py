"""What Claude Code itself recorded in a transcript, read without the project's adapters or tracker.

Used by the corpus recall test and ``benchmarks/summary_recall.py``: the
compaction boundaries (``system`` records with subtype ``compact_boundary``,
and ``isCompactSummary`` user records, which carry Claude Code's own summary)
and the files the harness recorded as changed before a given line, the way
``shared/eval/truth.py`` reads them: ``toolUseResult`` of type create/update
or with a ``structuredPatch`` for Edit / Write / MultiEdit / NotebookEdit,
and new versions in ``file-history-snapshot`` records.
"""

from __future__ import annotations

import gzip
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Boundary", "Transcript", "harness_changed", "names_path", "read_transcript"]

EDIT_TOOLS = frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit"})
_SUCCESS = re.compile(r"^(File created successfully at|The file .* has been (updated|overwritten)|"
                      r"Applied \d+ edits? to|Updated cell)")
# How far after a compact_boundary record Claude Code writes the summary message.
_SUMMARY_LOOKAHEAD = 8


@dataclass(frozen=True)
class Boundary:
    line: int  # 1-based line of the boundary record
    summary: str  # Claude Code's own summary text ("" when none was recorded)


@dataclass(frozen=True)
class Transcript:
    path: Path
    records: list[tuple[int, dict[str, Any]]]  # (1-based line, record)
    cwd: str | None
    boundaries: list[Boundary]


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text")
    return ""


def read_transcript(path: Path) -> Transcript:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as handle:
        lines = handle.read().splitlines()
    records: list[tuple[int, dict[str, Any]]] = []
    for number, line in enumerate(lines, start=1):
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict):
            records.append((number, record))
    cwd = next((r["cwd"] for _, r in records if isinstance(r.get("cwd"), str)), None)
    boundaries: list[Boundary] = []
    used: set[int] = set()
    for position, (number, record) in enumerate(records):
        if record.get("type") == "system" and record.get("subtype") == "compact_boundary":
            summary = ""
            for ahead in range(position + 1, min(position + 1 + _SUMMARY_LOOKAHEAD, len(records))):
                if records[ahead][1].get("isCompactSummary"):
                    summary = _text((records[ahead][1].get("message") or {}).get("content"))
                    used.add(ahead)
                    break
            boundaries.append(Boundary(number, summary))
        elif record.get("isCompactSummary") and position not in used:
            # Older versions wrote the summary without a boundary record.
            boundaries.append(Boundary(number, _text((record.get("message") or {}).get("content"))))
    return Transcript(path, records, cwd, boundaries)


def _messages(records: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for record in records:
        yield record
        if record.get("type") == "progress":
            nested = (record.get("data") or {}).get("message")
            if isinstance(nested, dict):  # a sub-agent's message
                yield nested


def _relative(path: str, cwd: str | None) -> str:
    if cwd and path.startswith(cwd.rstrip("/") + "/"):
        return path[len(cwd.rstrip("/")) + 1:]
    return path


def harness_changed(transcript: Transcript, before_line: int) -> dict[str, str]:
    """``{path: "created" | "modified"}`` for what the harness recorded as changed before ``before_line``."""
    records = [r for number, r in transcript.records if number < before_line]
    cwd = transcript.cwd
    changed: dict[str, str] = {}
    calls: dict[str, str] = {}
    baseline: dict[str, Any] | None = None
    for record in _messages(records):
        if record.get("type") == "file-history-snapshot":
            backups = (record.get("snapshot") or {}).get("trackedFileBackups") or {}
            versions = {k: (m or {}).get("version") for k, m in backups.items() if isinstance(m, dict)}
            if baseline is None:
                # The first snapshot may list backups taken before this transcript began.
                baseline = versions
                continue
            for key, meta in backups.items():
                if not isinstance(meta, dict) or baseline.get(key, object()) == meta.get("version"):
                    continue
                path = _relative(key if os.path.isabs(key) or not cwd else os.path.join(cwd, key), cwd)
                created = meta.get("backupFileName") is None and meta.get("version") == 1
                changed.setdefault(path, "created" if created else "modified")
        content = (record.get("message") or {}).get("content")
        if not isinstance(content, list):
            continue
        for block in content:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use" and block.get("name") in EDIT_TOOLS:
                arguments = block.get("input") or {}
                target = arguments.get("file_path") or arguments.get("notebook_path")
                if target:
                    calls[block.get("id", "")] = target
            elif block.get("type") == "tool_result" and block.get("tool_use_id") in calls:
                report = record.get("toolUseResult")
                text = _text(block.get("content")) if isinstance(block.get("content"), list) else str(
                    block.get("content") or "")
                if isinstance(report, dict):
                    created = report.get("type") == "create"
                elif report is None and not block.get("is_error") and _SUCCESS.match(text):
                    created = text.startswith("File created successfully")
                else:
                    continue
                path = _relative(calls[block["tool_use_id"]], cwd)
                if created:
                    changed[path] = "created"
                else:
                    changed.setdefault(path, "modified")
    return changed


def names_path(text: str, path: str) -> bool:
    """Whether ``text`` names ``path`` as a whole path (alone, or at the end of a longer absolute one)."""
    start = text.find(path)
    while start != -1:
        before = text[start - 1] if start else " "
        end = start + len(path)
        after = text[end] if end < len(text) else " "
        extends = after.isalnum() or after in "_-/" or (after == "." and end + 1 < len(text)
                                                        and text[end + 1].isalnum())
        if not (before.isalnum() or before in "_.-") and not extends:
            return True
        start = text.find(path, start + 1)
    return False
