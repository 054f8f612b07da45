"""The ``continue-cli`` adapter. Continue CLI session JSON, ``history[]`` of
messages with OpenAI-style ``toolCalls`` and ``toolCallStates`` holding
status and output.

The shape was read from one real session file captured by git-ai's test fixtures.
"""

from __future__ import annotations

from collections.abc import Iterator

from artifact_index.ingestion.adapters import register
from artifact_index.ingestion.adapters.anthropic_messages import result_from_text
from artifact_index.ingestion.adapters.base import (
    Adapter,
    TurnCounter,
    as_text,
    parse_json_object,
    tool_result,
)
from artifact_index.ingestion.adapters.failures import classify_failure
from artifact_index.ingestion.adapters.narrowing import as_dict, as_list
from artifact_index.ingestion.events import (
    AssistantMessage,
    Event,
    FailureReason,
    JSONObject,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
)
from artifact_index.ingestion.source import Source
from artifact_index.ingestion.vocabulary import operations_for

__all__ = ["ContinueCliAdapter"]


_CONTINUE_FAILED = {"errored": "other", "canceled": "rejected", "cancelled": "rejected"}


@register
class ContinueCliAdapter(Adapter):
    name = "continue-cli"
    description = "Continue CLI session JSON (history with toolCallStates)"

    def sniff(self, source: Source) -> bool:
        document = source.document
        return (
            isinstance(document, dict)
            and isinstance(document.get("history"), list)
            and ("sessionId" in document or "workspaceDirectory" in document)
        )

    def events(self, source: Source) -> Iterator[Event]:
        document = source.document
        if not isinstance(document, dict) or not isinstance(document.get("history"), list):
            source.skip(None, "not a Continue session object")
            return
        cwd = document.get("workspaceDirectory")
        cwd = cwd if isinstance(cwd, str) else None
        yield SessionInfo(
            turn=0,
            line=None,
            agent="continue-cli",
            cwd=cwd,
            session_id=str(document["sessionId"]) if document.get("sessionId") else None,
        )
        turns = TurnCounter()
        for index, item in enumerate(document["history"], start=1):
            message = as_dict(item).get("message")
            if not isinstance(message, dict) or message.get("role") not in ("user", "assistant"):
                source.skip(index, "history item without a user or assistant message")
                continue
            text = as_text(message.get("content"))
            if message["role"] == "user":
                yield UserMessage(turn=turns.user(), line=index, text=text)
                continue
            turn = turns.assistant()
            if text.strip():
                yield AssistantMessage(turn=turn, line=index, text=text)
            states = {
                str(s.get("toolCallId")): s
                for s in as_list(item.get("toolCallStates"))
                if isinstance(s, dict)
            }
            for call in as_list(message.get("toolCalls")):
                function = as_dict(call).get("function")
                if not isinstance(function, dict) or not isinstance(function.get("name"), str):
                    source.skip(index, "tool call without a function name")
                    continue
                call_id = str(call.get("id") or f"continue-{index}")
                state = states.get(call_id, {})
                arguments = state.get("parsedArgs")
                if not isinstance(arguments, dict):
                    arguments = parse_json_object(function.get("arguments"))
                name = function["name"]
                yield ToolCall(
                    turn=turn,
                    line=index,
                    call_id=call_id,
                    tool=name,
                    arguments=arguments,
                    operations=tuple(operations_for(name, arguments, cwd)),
                )
                yield self.result(turn, index, call_id, state)

    @staticmethod
    def result(turn: int, line: int, call_id: str, state: JSONObject) -> ToolResult:
        output = "\n".join(
            str(o.get("content", "")) for o in as_list(state.get("output")) if isinstance(o, dict)
        )
        status = state.get("status")
        if isinstance(status, str) and status in _CONTINUE_FAILED:
            reason: FailureReason = "rejected" if status != "errored" else classify_failure(output)
            return tool_result(turn, line, call_id, "failure", output, reason)
        if status == "done":
            return result_from_text(turn, line, call_id, output, False)
        return tool_result(turn, line, call_id, "unknown", output)
