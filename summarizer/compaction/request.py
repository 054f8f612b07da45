"""Compaction of a whole API request body (``artifact-index compact REQUEST.json``).

Takes an Anthropic Messages or OpenAI chat completions request body and
returns ``{"messages": [...], "result": {"didCompress", "released",
"promptEstimate"}}``: the compacted message list to put back into the body,
and the context service's ``CompressResult``.  ``system`` and ``tools`` are counted
towards the prompt estimate and never changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict

from summarizer.compaction.compactor import Compactor, CompactorConfig
from summarizer.compaction.event_log import EventLog
from summarizer.compaction.message_lists import Message, detect_shape
from summarizer.compaction.protocol import NarrativeSummarizer
from summarizer.compaction.result import CompressResultJSON
from summarizer.compaction.usage import Usage
from summarizer.exceptions import MessageFormatError
from summarizer.tokens import PromptCounter, TokenCounter

__all__ = ["CompactedRequest", "run_compact"]


class CompactedRequest(TypedDict):
    """What :func:`run_compact` answers: the messages to send instead, and what the compaction did."""

    messages: list[Message]
    result: CompressResultJSON


def _check_fields(messages: list[Any]) -> None:
    """Refuse, in one sentence, a field whose type neither API allows and the compactor relies on.

    A request from a client (or the HTTP API's caller) is untrusted input: a
    role that is a list, a block ``type`` that is an object or ``tool_calls``
    that is a number is a malformed request, not an internal error.
    """
    for index, message in enumerate(messages):
        if not isinstance(message, Mapping):
            raise MessageFormatError(f"message {index} is not an object")
        if not isinstance(message.get("role"), str):
            raise MessageFormatError(f"message {index} has no role (a string)")
        calls = message.get("tool_calls")
        if calls is not None and not (
            isinstance(calls, list) and all(isinstance(c, Mapping) for c in calls)
        ):
            raise MessageFormatError(f'message {index}: "tool_calls" must be a list of objects')
        content = message.get("content")
        blocks = content if isinstance(content, list) else [content]
        for block in blocks:
            if isinstance(block, Mapping) and not isinstance(block.get("type", ""), str):
                raise MessageFormatError(
                    f'message {index}: a content block\'s "type" must be a string'
                )


def run_compact(
    request_body: Mapping[str, Any],
    context_window: int | None,
    summarizer: NarrativeSummarizer | None,
    *,
    config: CompactorConfig | None = None,
    event_log: EventLog | None = None,
    usage: Usage | Mapping[str, Any] | None = None,
    force: bool = False,
    counter: TokenCounter | None = None,
    prompt_counter: PromptCounter | None = None,
    summary_key: bytes | None = None,
) -> CompactedRequest:
    """Compact the messages of ``request_body``; see the module docstring.

    ``context_window`` overrides the config's window (200k by default).
    Without a ``summarizer`` only the cheap policies run.  ``summary_key``
    marks the summaries written and is the only key whose summaries are
    trusted (a fresh one when None).  Raises
    :class:`MessageFormatError` for a body that is not a request of either
    API, and :class:`CompactionFailed` when the summarizer fails.
    """
    if not isinstance(request_body, Mapping):
        raise MessageFormatError("the request body must be a JSON object")
    messages = request_body.get("messages")
    if not isinstance(messages, list):
        raise MessageFormatError('the request body has no "messages" list')
    _check_fields(messages)
    shape = detect_shape(messages, request_body)
    if not (usage is None or isinstance(usage, Usage | Mapping)):
        raise MessageFormatError('"usage" must be an object (the usage of the last response)')
    settings = config or CompactorConfig()
    if context_window is not None:
        # Validated, unlike ``model_copy``: a window of 0 is an error, not a division by zero.
        settings = CompactorConfig.model_validate(
            settings.model_dump() | {"context_window": context_window}
        )
    tools: Any = request_body.get("tools")
    if shape == "openai" and request_body.get("functions"):
        tools = [tools or [], request_body["functions"]]
    compactor = Compactor(
        settings,
        summarizer,
        event_log,
        counter=counter,
        prompt_counter=prompt_counter,
        summary_key=summary_key,
    )
    compacted, result = compactor.compact(
        messages,
        usage,
        force=force,
        system=request_body.get("system") if shape == "anthropic" else None,
        tools=tools,
    )
    return {"messages": compacted, "result": result.to_json_dict()}
