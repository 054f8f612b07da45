"""The ``amp`` adapter. Amp thread JSON, ``messages[]`` with ``tool_use``
blocks and ``tool_result`` blocks whose ``run`` holds ``status`` and
``result``.

The shape was read from one real session file captured by git-ai's test fixtures.
"""

from __future__ import annotations

from collections.abc import Iterator

from artifact_index.ingestion.adapters import register
from artifact_index.ingestion.adapters.base import (
    Adapter,
    TurnCounter,
    as_text,
    tool_result,
    uri_to_path,
)
from artifact_index.ingestion.adapters.failures import classify_failure
from artifact_index.ingestion.adapters.narrowing import as_dict, as_list
from artifact_index.ingestion.events import (
    AssistantMessage,
    Event,
    JSONObject,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
)
from artifact_index.ingestion.source import Source
from artifact_index.ingestion.vocabulary import operations_for

__all__ = ["AmpAdapter"]


@register
class AmpAdapter(Adapter):
    name = "amp"
    description = "Amp thread JSON"

    def sniff(self, source: Source) -> bool:
        document = source.document
        if not isinstance(document, dict) or not isinstance(document.get("messages"), list):
            return False
        return str(document.get("id", "")).startswith("T-") or any(
            isinstance(m, dict) and "messageId" in m for m in document["messages"][:5]
        )

    def events(self, source: Source) -> Iterator[Event]:
        document = source.document
        if not isinstance(document, dict) or not isinstance(document.get("messages"), list):
            source.skip(None, "not an Amp thread object")
            return
        yield SessionInfo(
            turn=0,
            line=None,
            agent="amp",
            cwd=_amp_root(document),
            session_id=str(document["id"]) if document.get("id") else None,
        )
        messages = document["messages"]
        # Results are read ahead so a Read of a directory can be told from a file read.
        results: dict[str, JSONObject] = {}
        for message in messages:
            content = as_dict(message).get("content")
            for block in as_list(content):
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    run = block.get("run")
                    results[str(block.get("toolUseID"))] = as_dict(run)
        turns = TurnCounter()
        calls: dict[str, int] = {}
        for index, message in enumerate(messages, start=1):
            if not isinstance(message, dict) or message.get("role") not in ("user", "assistant"):
                source.skip(index, "not a user or assistant message")
                continue
            blocks = message.get("content")
            blocks = blocks if isinstance(blocks, list) else [{"type": "text", "text": blocks}]
            texts = [b for b in blocks if isinstance(b, dict) and b.get("type") == "text"]
            if message["role"] == "user":
                tool_results = [
                    b for b in blocks if isinstance(b, dict) and b.get("type") == "tool_result"
                ]
                if texts or not tool_results:
                    yield UserMessage(turn=turns.user(), line=index, text=as_text(texts))
                for block in tool_results:
                    call_id = str(block.get("toolUseID"))
                    yield self.result(
                        calls.get(call_id, turns.current), index, call_id, results.get(call_id, {})
                    )
                continue
            turn = turns.assistant()
            usage = message.get("usage")
            model = as_dict(usage).get("model")
            model = model if isinstance(model, str) else None
            text = as_text(texts)
            if text.strip():
                yield AssistantMessage(turn=turn, line=index, text=text, model=model)
            for block in blocks:
                if not isinstance(block, dict) or block.get("type") != "tool_use":
                    continue
                name, arguments = block.get("name"), block.get("input")
                if not isinstance(name, str) or not isinstance(arguments, dict):
                    source.skip(index, "tool_use block without a name or input")
                    continue
                call_id = str(block.get("id"))
                calls[call_id] = turn
                ops = operations_for(name, arguments)
                run_result = results.get(call_id, {}).get("result")
                if isinstance(run_result, dict) and run_result.get("isDirectory"):
                    ops = [op for op in ops if op.action != "read"]
                yield ToolCall(
                    turn=turn,
                    line=index,
                    call_id=call_id,
                    tool=name,
                    arguments=arguments,
                    operations=tuple(ops),
                )

    @staticmethod
    def result(turn: int, line: int, call_id: str, run: JSONObject) -> ToolResult:
        result = run.get("result")
        if isinstance(result, dict):
            output = str(result.get("output") or result.get("content") or result.get("diff") or "")
        else:
            output = as_text(result)
        status = run.get("status")
        error = run.get("error")
        if status == "done":
            exit_code = as_dict(result).get("exitCode")
            if isinstance(exit_code, int) and not isinstance(exit_code, bool) and exit_code != 0:
                return tool_result(turn, line, call_id, "failure", output, "exit_status", exit_code)
            return tool_result(
                turn,
                line,
                call_id,
                "success",
                output,
                exit_code=exit_code if isinstance(exit_code, int) else None,
            )
        if status == "rejected-by-user":
            return tool_result(turn, line, call_id, "failure", output, "rejected")
        if status in ("cancelled", "canceled"):
            return tool_result(turn, line, call_id, "failure", output, "interrupted")
        if status == "error":
            message = error.get("message") if isinstance(error, dict) else error
            text = str(message or output)
            return tool_result(turn, line, call_id, "failure", text, classify_failure(text))
        return tool_result(turn, line, call_id, "unknown", output)


def _amp_root(document: JSONObject) -> str | None:
    env = document.get("env")
    initial = as_dict(env).get("initial")
    trees = as_dict(initial).get("trees")
    if isinstance(trees, list) and trees and isinstance(trees[0], dict):
        uri = trees[0].get("uri")
        if isinstance(uri, str):
            return uri_to_path(uri)
    return None
