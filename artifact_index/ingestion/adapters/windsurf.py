"""The ``windsurf`` adapter. Windsurf trajectory JSONL, ``{"type": T, T: {...},
"status"}``; each step is a call and its result at once (``view_file``,
``code_action`` with ``original_content``/``new_content``, ``run_command``
with ``exit_code``/``user_rejected``). Paths are ``file://`` URIs.

The shape was read from one real session file captured by git-ai's test fixtures.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from artifact_index.ingestion.adapters import register
from artifact_index.ingestion.adapters.base import (
    Adapter,
    TurnCounter,
    json_object_records,
    tool_result,
    uri_to_path,
)
from artifact_index.ingestion.adapters.failures import classify_failure
from artifact_index.ingestion.events import (
    AssistantMessage,
    Event,
    FileOperation,
    JSONObject,
    ReportedChange,
    ResultStatus,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
)
from artifact_index.ingestion.source import Source

__all__ = ["WindsurfAdapter"]


_WINDSURF_TYPES = {"user_input", "planner_response", "view_file", "code_action", "run_command"}


def _windsurf_operations(kind: str, data: JSONObject, cwd: str | None) -> list[FileOperation]:
    raw = data.get("path") or data.get("file_path") or data.get("uri")
    path = uri_to_path(raw) if isinstance(raw, str) and raw else None
    if kind == "view_file" and path:
        return [FileOperation(action="read", path=path)]
    if kind == "code_action" and path:
        original = data.get("original_content")
        new = data.get("new_content")
        content = new if isinstance(new, str) else None
        action = "create" if original is None and "original_content" not in data else "write"
        return [FileOperation(action=action, path=path, content=content)]
    if kind == "run_command":
        command = data.get("command")
        workdir = data.get("cwd")
        if isinstance(command, str) and command.strip():
            return [
                FileOperation(
                    action="shell",
                    command=command,
                    source="shell",
                    cwd=uri_to_path(workdir) if isinstance(workdir, str) else cwd,
                )
            ]
    return []


@register
class WindsurfAdapter(Adapter):
    name = "windsurf"
    description = "Windsurf (Cascade) trajectory JSONL"

    def sniff(self, source: Source) -> bool:
        if source.document is not None:
            return False
        kinds = {
            r.get("type")
            for _, r in source.records[:30]
            if isinstance(r, dict)
            and isinstance(r.get("type"), str)
            and isinstance(r.get(r["type"]), dict)
        }
        # The first records' shape first: telling JSON lines from text parses every line.
        return bool(kinds & _WINDSURF_TYPES) and source.looks_like_jsonl()

    def events(self, source: Source) -> Iterator[Event]:
        turns = TurnCounter()
        turn = 0
        cwd: str | None = None
        session_sent = False
        for line, record in json_object_records(source):
            kind = record.get("type")
            data = record.get(kind) if isinstance(kind, str) else None
            if not isinstance(kind, str) or not isinstance(data, dict):
                source.skip(line, "record without a type and its payload")
                continue
            stamp = record.get("timestamp") if isinstance(record.get("timestamp"), str) else None
            if not session_sent:
                session_sent = True
                workdir = data.get("cwd")
                cwd = workdir if isinstance(workdir, str) else None
                yield SessionInfo(turn=0, line=line, agent="windsurf", cwd=cwd)
            if kind == "user_input":
                turn = turns.user()
                yield UserMessage(
                    turn=turn, line=line, text=str(data.get("user_response", "")), timestamp=stamp
                )
                continue
            if kind == "planner_response":
                turn = turns.assistant()
                yield AssistantMessage(
                    turn=turn, line=line, text=str(data.get("response", "")), timestamp=stamp
                )
                continue
            call_id = f"windsurf-{line}"
            yield ToolCall(
                turn=turn,
                line=line,
                call_id=call_id,
                tool=kind,
                arguments=data,
                timestamp=stamp,
                operations=tuple(_windsurf_operations(kind, data, cwd)),
            )
            yield self.result(turn, line, call_id, kind, record.get("status"), data)

    @staticmethod
    def result(
        turn: int, line: int, call_id: str, kind: str, status: Any, data: JSONObject
    ) -> ToolResult:
        raw_output = data.get("content") if kind == "view_file" else data.get("output")
        output = raw_output if isinstance(raw_output, str) else ""
        if data.get("user_rejected") is True or "REJECT" in str(
            data.get("acknowledgement_type", "")
        ):
            return tool_result(turn, line, call_id, "failure", output, "rejected")
        if status == "error":
            return tool_result(turn, line, call_id, "failure", output, classify_failure(output))
        exit_code = data.get("exit_code")
        if isinstance(exit_code, int) and not isinstance(exit_code, bool):
            status_text: ResultStatus = "success" if exit_code == 0 else "failure"
            return tool_result(turn, line, call_id, status_text, output, "exit_status", exit_code)
        if status not in ("done", None):
            return tool_result(turn, line, call_id, "unknown", output)
        reported = None
        path = data.get("path")
        if (
            kind == "code_action"
            and isinstance(path, str)
            and isinstance(data.get("new_content"), str)
        ):
            change = "created" if data.get("original_content") is None else "modified"
            reported = (
                ReportedChange(path=uri_to_path(path), change=change, content=data["new_content"]),
            )
        return tool_result(turn, line, call_id, "success", output, reported=reported)
