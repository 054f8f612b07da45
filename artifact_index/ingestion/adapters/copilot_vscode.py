"""The ``copilot-vscode`` adapter. VS Code Copilot chat session, a JSONL
mutation log whose first record (``kind`` 0) is the whole session; later
records set (``kind`` 1) or append to (``kind`` 2) a path in it. Tool calls
and results are in each request's
``result.metadata.toolCallRounds``/``toolCallResults``.

The shape was read from one real session file captured by git-ai's test fixtures.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from artifact_index.ingestion.adapters import register
from artifact_index.ingestion.adapters.anthropic_messages import result_from_text
from artifact_index.ingestion.adapters.base import (
    Adapter,
    TurnCounter,
    json_object_records,
    parse_json_object,
    tool_result,
)
from artifact_index.ingestion.adapters.narrowing import as_dict, as_list
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

__all__ = ["CopilotVscodeAdapter"]


def _apply_mutation(state: Any, record: JSONObject) -> tuple[Any, str | None]:
    """Apply one record of VS Code's chat-session mutation log to ``state``.

    Returns the new state and, when the record could not be applied, why.
    """
    kind = record.get("kind")
    if kind == 0:
        return record.get("v"), None
    keys = record.get("k")
    if not isinstance(keys, list) or not keys:
        return state, None
    target = state
    for key in keys[:-1]:
        target = _child(target, key)
        if target is None:
            # The log and the state disagree (edited or truncated file).
            return state, "mutation path does not exist in the session"
    last = keys[-1]
    value = record.get("v")
    if kind == 1 and _fits(target, last):
        target[last] = value
    elif kind == 2:
        container = _child(target, last)
        if not isinstance(container, list) or not isinstance(value, list):
            return state, "append mutation to something that is not a list"
        start = record.get("i")
        if isinstance(start, int):
            del container[start:]
        container.extend(value)
    elif kind == 1:
        return state, "mutation path does not exist in the session"
    return state, None


def _fits(container: Any, key: Any) -> bool:
    """True when ``key`` addresses ``container``: a string key of a dict or an index of a list."""
    if isinstance(container, dict):
        return isinstance(key, str)
    return (
        isinstance(container, list)
        and isinstance(key, int)
        and not isinstance(key, bool)
        and 0 <= key < len(container)
    )


def _child(container: Any, key: Any) -> Any:
    """``container[key]`` when the key fits the container, else None."""
    if not _fits(container, key):
        return None
    return container.get(key) if isinstance(container, dict) else container[key]


def _node_text(node: Any) -> str:
    """The text of a Copilot tool result: prompt-tsx nodes nest ``text`` leaves."""
    parts: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            text = value.get("text")
            if isinstance(text, str):
                parts.append(text)
            for key, child in value.items():
                if key != "text":
                    walk(child)
        elif isinstance(value, list):
            for child in value:
                walk(child)

    walk(node)
    return "".join(parts)


def _copilot_session(source: Source) -> tuple[JSONObject | None, dict[int, int]]:
    """The final session state and, per request index, the line that added it."""
    document = source.document
    if isinstance(document, dict) and isinstance(document.get("requests"), list):
        # A whole-session JSON document: a request's "line" is its index.
        return document, {i: i + 1 for i in range(len(document["requests"]))}
    if source.document is not None and not isinstance(document, dict):
        return None, {}
    state: Any = None
    lines: dict[int, int] = {}
    for line, record in json_object_records(source):
        state, problem = _apply_mutation(state, record)
        if state is None:
            source.skip(line, "mutation before the session snapshot")
            continue
        if problem is not None:
            source.skip(line, problem)
        requests = as_dict(state).get("requests")
        for index in range(len(requests) if isinstance(requests, list) else 0):
            lines.setdefault(index, line)
    return (state if isinstance(state, dict) else None), lines


@register
class CopilotVscodeAdapter(Adapter):
    name = "copilot-vscode"
    description = "GitHub Copilot chat session (VS Code chatSessions JSON/JSONL)"

    def sniff(self, source: Source) -> bool:
        document = source.document
        if isinstance(document, dict) and "kind" not in document:
            return isinstance(document.get("requests"), list) and (
                "requesterUsername" in document or "responderUsername" in document
            )
        # A log holding only its snapshot is one line, so it also parses as a document.
        first = source.records[0][1] if source.records else None
        return (
            isinstance(first, dict)
            and first.get("kind") == 0
            and isinstance(first.get("v"), dict)
            and "requests" in first["v"]
        )

    def events(self, source: Source) -> Iterator[Event]:
        session, lines = _copilot_session(source)
        if session is None:
            source.skip(None, "no chat session snapshot found")
            return
        requests = [r for r in as_list(session.get("requests")) if isinstance(r, dict)]
        yield SessionInfo(
            turn=0,
            line=1,
            agent="copilot-vscode",
            cwd=_copilot_root(requests),
            session_id=str(session["sessionId"]) if session.get("sessionId") else None,
        )
        turns = TurnCounter()
        for position, request in enumerate(requests):
            index = lines.get(position, 1)
            message = request.get("message")
            text = as_dict(message).get("text")
            stamp = request.get("timestamp")
            stamp_text = str(stamp) if stamp is not None else None
            yield UserMessage(
                turn=turns.user(), line=index, text=str(text or ""), timestamp=stamp_text
            )
            result = request.get("result")
            metadata = as_dict(result).get("metadata")
            if not isinstance(metadata, dict):
                continue
            rounds = as_list(metadata.get("toolCallRounds"))
            outputs = metadata.get("toolCallResults") or {}
            model = request.get("modelId") if isinstance(request.get("modelId"), str) else None
            denied = _denied_calls(request)
            count = 0
            for round_ in rounds:
                if not isinstance(round_, dict):
                    continue
                turn = turns.assistant()
                reply = round_.get("response")
                if isinstance(reply, str) and reply.strip():
                    yield AssistantMessage(turn=turn, line=index, text=reply, model=model)
                for call in as_list(round_.get("toolCalls")):
                    if not isinstance(call, dict) or not isinstance(call.get("name"), str):
                        source.skip(index, "tool call without a name")
                        continue
                    call_id = str(call.get("id") or f"copilot-{position}-{count}")
                    arguments = parse_json_object(call.get("arguments"))
                    yield ToolCall(
                        turn=turn,
                        line=index,
                        call_id=call_id,
                        tool=call["name"],
                        arguments=arguments,
                        operations=tuple(operations_for(call["name"], arguments)),
                    )
                    if count in denied:
                        yield tool_result(turn, index, call_id, "failure", "", "rejected")
                    elif isinstance(outputs, dict) and call_id in outputs:
                        output = _node_text(outputs[call_id])
                        yield result_from_text(turn, index, call_id, output, False)
                    elif request.get("isCanceled") is True:
                        yield tool_result(turn, index, call_id, "failure", "", "interrupted")
                    else:
                        yield tool_result(turn, index, call_id, "unknown")
                    count += 1


def _denied_calls(request: JSONObject) -> set[int]:
    """Positions of the calls the user denied or skipped in the confirmation UI."""
    denied: set[int] = set()
    invocations = [
        part
        for part in as_list(request.get("response"))
        if isinstance(part, dict) and part.get("kind") == "toolInvocationSerialized"
    ]
    for position, part in enumerate(invocations):
        confirmed = part.get("isConfirmed")
        # VS Code's ToolConfirmKind: 0 = denied, 5 = skipped; ``false`` in older builds.
        if confirmed is False or (isinstance(confirmed, dict) and confirmed.get("type") in (0, 5)):
            denied.add(position)
    return denied


def _copilot_root(requests: list[JSONObject]) -> str | None:
    for request in requests:
        for part in as_list(request.get("response")):
            base = as_dict(part).get("baseUri")
            if isinstance(base, dict) and isinstance(base.get("path"), str):
                return str(base["path"]).rstrip("/") or "/"
    return None
