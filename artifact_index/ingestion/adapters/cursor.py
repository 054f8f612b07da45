"""The ``cursor`` adapter. Cursor agent JSONL, ``{"role", "message":
{"content": [blocks]}}``. Tool calls have no ids and no results are written,
so every result is ``unknown``.  A freeform tool (ApplyPatch) takes its text whole as
its input: it is read as the tool's ``input`` argument.

Newer versions end each turn with a record of their own, ``{"type":
"turn_ended", "status": "success"}``, or ``"status": "error"`` with the
reason (``"User aborted request"``, a usage limit): it carries no call or
message, so it is read for nothing but a stop the person made, which the
summary shows as their intervention.

The shape was read from one real session file captured by git-ai's test
fixtures, and the turn records from Entire checkpoints of Cursor sessions.
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
from artifact_index.ingestion.adapters.narrowing import as_list
from artifact_index.ingestion.events import (
    AssistantMessage,
    Event,
    JSONObject,
    SessionInfo,
    ToolCall,
    UserMessage,
)
from artifact_index.ingestion.source import Source
from artifact_index.ingestion.vocabulary import operations_for

__all__ = ["CursorAdapter"]

# The record that ends a turn (newer versions); the only records with a ``type``.
_TURN_ENDED = "turn_ended"


def _cursor_record(record: dict[str, object]) -> bool:
    """A message record (``role`` + ``message``, no ``type``), or a turn's end."""
    if "type" in record:
        return record.get("type") == _TURN_ENDED and "role" not in record
    return "role" in record and isinstance(record.get("message"), dict)


def _aborted(record: dict[str, object]) -> bool:
    """Whether a turn ended because the person stopped it (not a usage limit or an API error)."""
    error = record.get("error")
    return record.get("status") == "error" and isinstance(error, str) and "abort" in error.lower()


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
            any("role" in r for r in head)
            and all(_cursor_record(r) for r in head)
            and source.looks_like_jsonl()
        )

    def events(self, source: Source) -> Iterator[Event]:
        turns = TurnCounter()
        yield SessionInfo(turn=0, line=1, agent="cursor")
        for line, record in json_object_records(source):
            if record.get("type") == _TURN_ENDED and "role" not in record:
                if _aborted(record):
                    # Worded as Copilot CLI's abort, which the summary shows as the person's stop.
                    yield UserMessage(
                        turn=turns.current,
                        line=line,
                        text="[abort: user_initiated]",
                        synthetic=True,
                    )
                continue
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
            blocks = as_list(content)
            for index, block in enumerate(blocks):
                if not isinstance(block, dict) or block.get("type") != "tool_use":
                    continue
                name, arguments = block.get("name"), _arguments(block.get("input"))
                if not isinstance(name, str) or arguments is None:
                    source.skip(line, "tool_use block without a name or input")
                    continue
                call_id = str(block.get("id") or f"cursor-{line}-{index}")
                name, arguments = _dynamic_call(name, arguments)
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


def _arguments(given: object) -> JSONObject | None:
    """A call's arguments: its input object, or the text a freeform tool takes whole, as ``input``.

    Cursor's ApplyPatch takes the patch itself as its input (``"*** Begin Patch\n..."``), as
    Codex's freeform ``apply_patch`` does: read under the name the patch tools share.
    """
    if isinstance(given, dict):
        return given
    if isinstance(given, str) and given.strip():
        return {"input": given}
    return None


def _dynamic_call(name: str, arguments: JSONObject) -> tuple[str, JSONObject]:
    """The tool a ``CallDynamicTool`` call runs, with its own arguments; any other call as it is.

    Cursor reaches some tools (its TodoWrite, web search) through a wrapper naming the tool and
    carrying its arguments: read under the wrapper's name, a task list written that way was lost.
    """
    inner, inner_arguments = arguments.get("toolName"), arguments.get("arguments")
    if (
        name == "CallDynamicTool"
        and isinstance(inner, str)
        and inner
        and isinstance(inner_arguments, dict)
    ):
        return inner, inner_arguments
    return name, arguments
