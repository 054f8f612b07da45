"""The ``cursor`` adapter. Cursor agent JSONL, ``{"role", "message":
{"content": [blocks]}}``. Tool calls have no ids and no results are written,
so every result is ``unknown``.

The shape was read from one real session file captured by git-ai's test fixtures.
"""

from __future__ import annotations

from collections.abc import Iterator

from artifact_index.ingestion.adapters import register
from artifact_index.ingestion.adapters.base import (
    Adapter,
    TurnCounter,
    as_text,
    json_object_records,
    tool_result,
)
from artifact_index.ingestion.events import (
    AssistantMessage,
    Event,
    SessionInfo,
    ToolCall,
    UserMessage,
)
from artifact_index.ingestion.source import Source
from artifact_index.ingestion.vocabulary import operations_for

__all__ = ["CursorAdapter"]


@register
class CursorAdapter(Adapter):
    name = "cursor"
    description = "Cursor agent transcript JSONL (role/message records, no tool results)"

    def sniff(self, source: Source) -> bool:
        if source.document is not None:
            return False
        head = [r for _, r in source.records[:10] if isinstance(r, dict)]
        # The first records' shape first: telling JSON lines from text parses every line.
        return (
            bool(head)
            and all(
                "role" in r and isinstance(r.get("message"), dict) and "type" not in r for r in head
            )
            and source.looks_like_jsonl()
        )

    def events(self, source: Source) -> Iterator[Event]:
        turns = TurnCounter()
        yield SessionInfo(turn=0, line=1, agent="cursor")
        for line, record in json_object_records(source):
            role = record.get("role")
            message = record.get("message")
            if role not in ("user", "assistant") or not isinstance(message, dict):
                source.skip(line, "not a user or assistant record")
                continue
            content = message.get("content")
            if role == "user":
                yield UserMessage(turn=turns.user(), line=line, text=as_text(content))
                continue
            turn = turns.assistant()
            text = as_text(
                [b for b in content if isinstance(b, dict) and b.get("type") == "text"]
                if isinstance(content, list)
                else content
            )
            if text.strip():
                yield AssistantMessage(turn=turn, line=line, text=text)
            blocks = content if isinstance(content, list) else []
            for index, block in enumerate(blocks):
                if not isinstance(block, dict) or block.get("type") != "tool_use":
                    continue
                name, arguments = block.get("name"), block.get("input")
                if not isinstance(name, str) or not isinstance(arguments, dict):
                    source.skip(line, "tool_use block without a name or input")
                    continue
                call_id = str(block.get("id") or f"cursor-{line}-{index}")
                yield ToolCall(
                    turn=turn,
                    line=line,
                    call_id=call_id,
                    tool=name,
                    arguments=arguments,
                    operations=tuple(operations_for(name, arguments)),
                )
                # Cursor writes no tool results.
                yield tool_result(turn, line, call_id, "unknown")
