"""The ``droid`` adapter. Factory Droid JSONL, ``session_start`` (with ``cwd``)
then ``message`` records holding Anthropic-style
``tool_use``/``tool_result``.

The shape was read from one real session file captured by git-ai's test fixtures.
"""

from __future__ import annotations

from collections.abc import Iterator

from artifact_index.ingestion.adapters import register
from artifact_index.ingestion.adapters.anthropic_messages import MessageReader
from artifact_index.ingestion.adapters.base import (
    Adapter,
    json_object_records,
    parse_json_object,
    tool_result,
)
from artifact_index.ingestion.adapters.failures import classify_failure
from artifact_index.ingestion.adapters.narrowing import string_or_none
from artifact_index.ingestion.events import (
    Event,
    SessionInfo,
    ToolResult,
)
from artifact_index.ingestion.source import Source

__all__ = ["DroidAdapter"]


@register
class DroidAdapter(Adapter):
    name = "droid"
    description = "Factory Droid session JSONL"

    def sniff(self, source: Source) -> bool:
        if source.document is not None:
            return False
        head = [r for _, r in source.records[:5] if isinstance(r, dict)]
        # The first records' shape first: telling JSON lines from text parses every line.
        return (
            bool(head)
            and head[0].get("type") == "session_start"
            and any(
                isinstance(r, dict)
                and r.get("type") == "message"
                and isinstance(r.get("message"), dict)
                for _, r in source.records[:30]
            )
            and source.looks_like_jsonl()
        )

    def events(self, source: Source) -> Iterator[Event]:
        reader = _DroidReader(source)
        for line, record in json_object_records(source):
            kind = record.get("type")
            stamp = string_or_none(record.get("timestamp"))
            if kind == "session_start":
                workdir = record.get("cwd")
                reader.cwd = workdir if isinstance(workdir, str) else None
                yield SessionInfo(
                    turn=0,
                    line=line,
                    agent="droid",
                    cwd=reader.cwd,
                    session_id=str(record.get("id")) if record.get("id") else None,
                )
                continue
            if kind != "message":
                continue  # todo_state and other bookkeeping records
            message = record.get("message")
            if not isinstance(message, dict) or message.get("role") not in ("user", "assistant"):
                source.skip(line, "message record without a role")
                continue
            yield from reader.message(line, message, stamp)
        yield from reader.finish(None)


class _DroidReader(MessageReader):
    """Droid's ApplyPatch answers with a JSON object whose ``success`` may be false."""

    def result(self, turn: int, line: int, call_id: str, text: str, is_error: bool) -> ToolResult:
        result = super().result(turn, line, call_id, text, is_error)
        if result.status == "success" and text.lstrip().startswith("{"):
            payload = parse_json_object(text)
            if payload.get("success") is False:
                error = str(payload.get("error") or text)
                return tool_result(turn, line, call_id, "failure", text, classify_failure(error))
        return result
