"""What Claude Code itself recorded in a transcript, read without the project's adapters or tracker.

Used by the corpus tests and the ``benchmarks/`` scripts that compare our
summaries with Claude Code's own: the compaction boundaries (``system``
records with subtype ``compact_boundary``, and ``isCompactSummary`` user
records, which carry Claude Code's own summary); the files the harness
recorded as changed before a given line, the way ``shared/eval/truth.py``
reads them (``toolUseResult`` of type create/update or with a
``structuredPatch`` for Edit / Write / MultiEdit / NotebookEdit, and new
versions in ``file-history-snapshot`` records); what the person typed, by
every path it takes (a prompt, feedback in a refused call's result, text
beside a tool result, a queued message handed over, a slash command); and
the main agent's shell commands with their results.
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

__all__ = [
    "Boundary",
    "ShellRun",
    "Transcript",
    "TypedMessage",
    "harness_changed",
    "names_path",
    "read_transcript",
    "shell_runs",
    "typed_messages",
]

EDIT_TOOLS = frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit"})
_SUCCESS = re.compile(
    r"^(File created successfully at|The file .* has been (updated|overwritten)|"
    r"Applied \d+ edits? to|Updated cell)"
)
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
        return "\n".join(
            b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"
        )
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
        return path[len(cwd.rstrip("/")) + 1 :]
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
            versions = {
                k: (m or {}).get("version") for k, m in backups.items() if isinstance(m, dict)
            }
            if baseline is None:
                # The first snapshot may list backups taken before this transcript began.
                baseline = versions
                continue
            for key, meta in backups.items():
                if not isinstance(meta, dict) or baseline.get(key, object()) == meta.get("version"):
                    continue
                path = _relative(
                    key if os.path.isabs(key) or not cwd else os.path.join(cwd, key), cwd
                )
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
                text = (
                    _text(block.get("content"))
                    if isinstance(block.get("content"), list)
                    else str(block.get("content") or "")
                )
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
        extends = (
            after.isalnum()
            or after in "_-/"
            or (after == "." and end + 1 < len(text) and text[end + 1].isalnum())
        )
        if not (before.isalnum() or before in "_.-") and not extends:
            return True
        start = text.find(path, start + 1)
    return False


@dataclass(frozen=True)
class TypedMessage:
    line: int  # the record that brought it to the agent
    kind: str  # prompt, feedback, interjection, queued, command
    text: str


# What Claude Code writes on the user's side itself.
_HARNESS = (
    "<local-command",
    "<system-reminder>",
    "[Request interrupted",
    "<task-notification>",
    "<teammate-message",
    "Another Claude session sent a message:",
    "This session is being continued",
    "Your task is to create a detailed summary of the conversation so far",
    "CRITICAL: Respond with TEXT ONLY",
    "Caveat:",
    "<bash-",
    "<user-prompt-submit-hook>",
    "<command-message>",
    "<command-stdout>",
    "Base directory for this skill",
    "Stop hook feedback",
)
_COMMAND = re.compile(r"<command-name>\s*(/?[^<\s]+)\s*</command-name>")
_ARGS = re.compile(r"<command-args>(.*?)</command-args>", re.S)
_SAID = re.compile(r"the user said:[ \t]*\n(.*\S)\s*$", re.S | re.I)


def _typed(text: str) -> tuple[str, str] | None:
    command = _COMMAND.search(text)
    if command and text.lstrip().startswith(("<command-name>", "<command-message>")):
        args = _ARGS.search(text)
        name = command.group(1) if command.group(1).startswith("/") else "/" + command.group(1)
        return "command", f"{name} {args.group(1).strip() if args else ''}".strip()
    if not text.strip() or text.lstrip().startswith(_HARNESS):
        return None
    # Claude Code ends an approved plan's prompt with its own pointer to the transcript before plan mode.
    pointer = text.rfind("If you need specific details from before exiting plan mode")
    if pointer > 0 and "\n" not in text[pointer:].strip():
        text = text[:pointer].rstrip()
    return "prompt", text


def typed_messages(transcript: Transcript, before_line: int) -> list[TypedMessage]:
    """Everything the person said to the main agent before ``before_line``, in order."""
    found: list[TypedMessage] = []
    queued: list[str] = []  # what the person typed while the agent worked, oldest first
    for number, record in transcript.records:
        if number >= before_line:
            break
        kind = record.get("type")
        if kind == "queue-operation":
            operation, content = record.get("operation"), record.get("content")
            text = content if isinstance(content, str) else ""
            if operation == "enqueue" and text.strip() and not text.lstrip().startswith(_HARNESS):
                queued.append(text)
            elif operation == "remove" and queued:  # handed to the agent mid-turn
                found.append(TypedMessage(number, "queued", queued.pop(0)))
            elif operation == "popAll":
                queued.clear()
            continue  # a dequeued message comes back as a prompt record of its own
        if kind != "user":
            continue
        content = (record.get("message") or {}).get("content")
        if content in queued:  # a queued message delivered as a prompt without a dequeue
            queued.remove(content)
        if record.get("isSidechain") or record.get("isMeta") or record.get("isCompactSummary"):
            continue
        if isinstance(content, str):
            typed = _typed(content)
            if typed:
                found.append(TypedMessage(number, *typed))
            continue
        blocks = [b for b in content or [] if isinstance(b, dict)]
        results = [b for b in blocks if b.get("type") == "tool_result"]
        for block in results:
            said = _SAID.search(
                _text(block.get("content"))
                if isinstance(block.get("content"), list)
                else str(block.get("content") or "")
            )
            if said:
                found.append(TypedMessage(number, "feedback", said.group(1).strip()))
        for block in blocks:
            if block.get("type") == "text" and (typed := _typed(block.get("text") or "")):
                found.append(
                    TypedMessage(number, "interjection" if results else typed[0], typed[1])
                )
    return found


@dataclass(frozen=True)
class ShellRun:
    line: int
    call_id: str
    command: str
    failed: bool
    output: str


def shell_runs(transcript: Transcript, before_line: int) -> list[ShellRun]:
    """The main agent's Bash commands that got a result before ``before_line``, in order."""
    commands: dict[str, str] = {}
    runs: list[ShellRun] = []
    for number, record in transcript.records:
        if number >= before_line:
            break
        if record.get("isSidechain"):
            continue
        content = (record.get("message") or {}).get("content")
        for block in content if isinstance(content, list) else []:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use" and block.get("name") == "Bash":
                commands[block.get("id", "")] = str((block.get("input") or {}).get("command", ""))
            elif block.get("type") == "tool_result" and block.get("tool_use_id") in commands:
                output = block.get("content")
                text = _text(output) if isinstance(output, list) else str(output or "")
                runs.append(
                    ShellRun(
                        number,
                        block["tool_use_id"],
                        commands[block["tool_use_id"]],
                        bool(block.get("is_error")),
                        text,
                    )
                )
    return runs


@dataclass(frozen=True)
class FileEdit:
    line: int  # the record of its successful result
    path: str  # relative to the session's directory when under it


def main_agent_edits(transcript: Transcript, before_line: int) -> list[FileEdit]:
    """The main agent's successful Edit/Write calls that got a result before ``before_line``, in order."""
    calls: dict[str, str] = {}
    edits: list[FileEdit] = []
    for number, record in transcript.records:
        if number >= before_line:
            break
        if record.get("isSidechain"):
            continue
        content = (record.get("message") or {}).get("content")
        for block in content if isinstance(content, list) else []:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use" and block.get("name") in EDIT_TOOLS:
                target = (block.get("input") or {}).get("file_path") or (
                    block.get("input") or {}
                ).get("notebook_path")
                if target:
                    calls[block.get("id", "")] = str(target)
            elif (
                block.get("type") == "tool_result"
                and block.get("tool_use_id") in calls
                and not block.get("is_error")
            ):
                edits.append(
                    FileEdit(number, _relative(calls[block["tool_use_id"]], transcript.cwd))
                )
    return edits
