"""Entire's compact transcript (``transcript.jsonl`` next to the raw session).

Entire (entireio/cli) condenses an agent session into one line per message::

    {"v":1,"agent":"claude-code","cli_version":"0.8.42","type":"user","ts":…,
     "content":[{"id":…,"text":"…"}]}
    {"v":1,"agent":"claude-code","type":"assistant","ts":…,"id":"msg_…",
     "content":[{"type":"text","text":…},
                {"type":"tool_use","id":"toolu_…","name":"Write","input":{…},
                 "result":{"output":"File created successfully at: …","status":"success",
                           "file":{"filePath":…}}}]}

The tool result is inlined into its ``tool_use`` block, so a call and its
result come from the same line.  A block without ``result`` was cut off
(interrupted, or the session slice ended).  The compact form keeps no
working directory.  See ``docs/formats.md`` §10.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from artifact_index.ingestion.adapters import register
from artifact_index.ingestion.adapters.base import Adapter, as_text, report_bad_lines
from artifact_index.ingestion.adapters.claude_code import ChainTurns
from artifact_index.ingestion.adapters.claude_results import (
    EDIT_TOOLS,
    classify_failure,
    is_failure_text,
    is_shell_tool,
    reported_from_text,
)
from artifact_index.ingestion.adapters.narrowing import as_dict, as_list, as_str
from artifact_index.ingestion.events import (
    AssistantMessage,
    Event,
    JSONObject,
    ReportedChange,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
)
from artifact_index.ingestion.harness_text import is_harness_text
from artifact_index.ingestion.source import Source
from artifact_index.ingestion.vocabulary import operations_for, path_argument
from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["EntireCompactAdapter"]

_SNIFF_RECORDS = 10


def _is_compact_record(record: Any) -> bool:
    return (
        isinstance(record, dict)
        and record.get("v") == 1
        and isinstance(record.get("agent"), str)
        and record.get("type") in ("user", "assistant")
        and isinstance(record.get("content"), list)
    )


# Claude Code names per-project folders after the working directory with
# every character other than a letter or digit turned into "-"
# (D:\oh-my-posh -> D--oh-my-posh); paths into those folders reveal the cwd
# the compact transcript does not record.
_PROJECT_FOLDER = lazy_pattern(
    r"[\\/]\.claude[\\/]projects[\\/]([^\\/]+)[\\/]"
    r"|[\\/]claude[\\/]([^\\/]+)[\\/][0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}[\\/]"
)


def _encoded(directory: str) -> str:
    return re.sub(r"[^A-Za-z0-9]", "-", directory)


def _infer_cwd(records: Sequence[tuple[int, Any]]) -> str | None:
    """The session's working directory, recovered from Claude Code's project folder names."""
    paths: list[str] = []
    for _, record in records:
        if not _is_compact_record(record):
            continue
        for block in record["content"]:
            arguments = as_dict(block).get("input")
            if isinstance(arguments, dict):
                path = path_argument(arguments)
                if path:
                    paths.append(path)
    names = {m.group(1) or m.group(2) for p in paths for m in _PROJECT_FOLDER.finditer(p)}
    if not names:
        return None
    for path in paths:
        parts = re.split(r"([\\/])", path)
        # Ancestors from the longest down, so the deepest match wins.
        for end in range(len(parts) - 2, 0, -2):
            directory = "".join(parts[:end])
            if directory and _encoded(directory) in names:
                return directory
    return None


class _Reader:
    def __init__(self, source: Source) -> None:
        self.source = source
        self.turns = ChainTurns()

    def events(self) -> Iterator[Event]:
        reported = len(self.source.skipped)
        started = False
        cwd = _infer_cwd(self.source.records)
        for line, record in self.source.records:
            if not _is_compact_record(record):
                self.source.skip(line, "not an Entire compact transcript record")
                continue
            if not started:
                started = True
                yield SessionInfo(
                    turn=0,
                    line=line,
                    timestamp=as_str(record.get("ts")),
                    agent=as_str(record.get("agent")),
                    version=as_str(record.get("cli_version")),
                    cwd=cwd,
                )
            try:
                if record["type"] == "user":
                    yield from self._user(line, record)
                else:
                    yield from self._assistant(line, record)
            except (AttributeError, KeyError, TypeError, ValueError) as exc:
                self.source.skip(line, f"unexpected {record.get('type')!r} record ({exc})")
        report_bad_lines(self.source, reported)

    def _user(self, line: int, record: JSONObject) -> Iterator[Event]:
        text = "\n".join(
            piece
            for block in as_list(record["content"])
            if isinstance(block, dict) and isinstance(piece := block.get("text"), str)
        )
        if not text.strip():
            return
        yield UserMessage(
            turn=self.turns.user(None),
            line=line,
            timestamp=as_str(record.get("ts")),
            text=text,
            synthetic=is_harness_text(text),
        )

    def _assistant(self, line: int, record: JSONObject) -> Iterator[Event]:
        timestamp = as_str(record.get("ts"))
        response_id = as_str(record.get("id"))
        for block in as_list(record["content"]):
            if not isinstance(block, dict):
                continue
            kind = block.get("type")
            if kind == "text" and isinstance(block.get("text"), str) and block["text"].strip():
                yield AssistantMessage(
                    turn=self.turns.assistant(None, response_id),
                    line=line,
                    timestamp=timestamp,
                    text=block["text"],
                )
            elif kind == "tool_use":
                yield from self._tool(
                    line, timestamp, self.turns.assistant(None, response_id), block
                )

    def _tool(
        self, line: int, timestamp: str | None, turn: int, block: JSONObject
    ) -> Iterator[Event]:
        call_id = as_str(block.get("id")) or f"line-{line}"
        tool = as_str(block.get("name")) or "unknown"
        raw = block.get("input")
        arguments: JSONObject = as_dict(raw)
        yield ToolCall(
            turn=turn,
            line=line,
            timestamp=timestamp,
            call_id=call_id,
            tool=tool,
            arguments=arguments,
            operations=tuple(operations_for(tool, arguments)),
        )
        result = block.get("result")
        if not isinstance(result, dict):
            return  # cut off before it finished: the call has no known outcome
        output = as_text(result.get("output"))
        common: JSONObject = {
            "turn": turn,
            "line": line,
            "timestamp": timestamp,
            "call_id": call_id,
            "output": output,
        }
        if result.get("status") == "error" or is_failure_text(output):
            reason, code = classify_failure(tool, output)
            yield ToolResult(status="failure", failure=reason, exit_code=code, **common)
            return
        yield ToolResult(
            status="success",
            exit_code=0 if is_shell_tool(tool) else None,
            reported=_reported(tool, arguments, result, output),
            **common,
        )


def _reported(
    tool: str, arguments: JSONObject, result: JSONObject, output: str
) -> tuple[ReportedChange, ...] | None:
    file = result.get("file")
    path = as_str(file.get("filePath")) if isinstance(file, dict) else None
    path = path or as_str(arguments.get("file_path")) or as_str(arguments.get("notebook_path"))
    change = reported_from_text(tool, path, output, arguments)
    if change is None and tool in EDIT_TOOLS and path and isinstance(file, dict):
        # A successful Edit whose result names its file changed that file,
        # whatever the wording of the (possibly shortened) output.
        change = ReportedChange(path=path, change="modified")
    return (change,) if change else None


@register
class EntireCompactAdapter(Adapter):
    name = "entire-compact"
    description = 'Entire\'s compact transcript.jsonl ({"v":1,"agent":…} lines, results inlined)'
    priority = 12

    def sniff(self, source: Source) -> bool:
        # The first records' shape first: telling JSON lines from text parses every line.
        return (
            source.document is None
            and any(_is_compact_record(record) for _, record in source.records[:_SNIFF_RECORDS])
            and source.looks_like_jsonl()
        )

    def events(self, source: Source) -> Iterator[Event]:
        return _Reader(source).events()
