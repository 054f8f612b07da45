"""The Anthropic Messages API: the only module that imports ``anthropic``.

:class:`AnthropicClient` asks for a structured reply with one forced tool call
(``tool_choice: {"type": "tool"}``) whose input schema is the pydantic model
of the reply, and validates the input: a malformed reply is answered with the
validation error as an ``is_error`` tool result and retried, and after the
last retry :class:`~summarizer.exceptions.LLMError` is raised.
:class:`AnthropicPromptCounter` counts a request's input tokens exactly
through ``messages.count_tokens``.  Every request, token counts included, is
redacted (:mod:`artifact_index.redaction`) before it leaves.  The SDK reads
``ANTHROPIC_API_KEY`` and ``ANTHROPIC_BASE_URL``; tests point it at a local
server.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

import anthropic
from anthropic.types import MessageParam, ToolParam
from pydantic import ValidationError

from artifact_index.ingestion.events import JSONObject
from artifact_index.redaction import redact_json
from summarizer.exceptions import LLMError
from summarizer.providers.structured import (
    WAY_OUT,
    M,
    Provider,
    StructuredAsk,
    first_error,
    validate_input,
)

__all__ = ["AnthropicClient", "AnthropicPromptCounter"]


def _tool(ask: StructuredAsk[Any]) -> ToolParam:
    return cast(
        "ToolParam",
        {"name": ask.tool_name, "description": ask.tool_description, "input_schema": ask.schema()},
    )


class AnthropicClient:
    """A :class:`~summarizer.providers.structured.StructuredClient` on the Anthropic Messages API."""

    provider: Provider = "anthropic"

    def __init__(
        self,
        model: str,
        *,
        client: anthropic.Anthropic | None = None,
        base_url: str | None = None,
        api_key: str | None = None,
        retries: int = 2,
    ) -> None:
        self.model = model
        self.client = (
            client
            if client is not None
            else anthropic.Anthropic(base_url=base_url, api_key=api_key, max_retries=1)
        )
        self.retries = retries
        self.prompts: list[str] = []  # the user prompt of every request sent, for measurement

    def ask(self, ask: StructuredAsk[M]) -> M:
        self.prompts.append(ask.prompt)
        messages: list[JSONObject] = [{"role": "user", "content": ask.prompt}]
        problem = "no reply"
        for _ in range(1 + self.retries):
            response = self._create(messages, ask)
            calls = [b for b in response.content if b.type == "tool_use"]
            call = next((b for b in calls if b.name == ask.tool_name), None)
            echoed = [_block_param(b) for b in response.content]
            if call is None:
                problem = (
                    f"the reply did not call {ask.tool_name} (stop reason {response.stop_reason})"
                )
                # Every tool_use must be answered by a tool_result, or the API rejects the retry.
                answer: list[JSONObject] = [
                    {
                        "type": "tool_result",
                        "tool_use_id": b.id,
                        "is_error": True,
                        "content": f"Unknown tool {b.name}; call {ask.tool_name}.",
                    }
                    for b in calls
                ]
                answer.append({"type": "text", "text": f"Call the {ask.tool_name} tool."})
                messages += [
                    {"role": "assistant", "content": echoed or "(no content)"},
                    {"role": "user", "content": answer},
                ]
                continue
            parsed = validate_input(ask.reply, call.input)
            if not isinstance(parsed, ValidationError):
                return parsed
            problem = f"the tool input did not match the schema: {first_error(parsed)}"
            messages += [
                {"role": "assistant", "content": echoed},
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": b.id,
                            "is_error": True,
                            "content": (
                                f"Invalid input: {parsed}. Call {ask.tool_name} again with input "
                                "matching its schema."
                                if b.id == call.id
                                else f"Unknown tool {b.name}."
                            ),
                        }
                        for b in calls
                    ],
                },
            ]
        raise LLMError(
            f"the {ask.what} of {self.model} was malformed after {1 + self.retries} "
            f"attempt(s): {problem}"
        )

    def _create(
        self, messages: Sequence[JSONObject], ask: StructuredAsk[Any]
    ) -> anthropic.types.Message:
        try:
            return self.client.messages.create(
                model=self.model,
                max_tokens=ask.max_tokens,
                system=ask.system,
                messages=cast("list[MessageParam]", redact_json(list(messages))),
                tools=[cast("ToolParam", redact_json(_tool(ask)))],
                tool_choice={"type": "tool", "name": ask.tool_name},
            )
        except anthropic.APIError as exc:
            raise LLMError(
                f"the {ask.what} request to {self.model} failed: {exc} ({WAY_OUT})"
            ) from exc

    def count_tokens(self, ask: StructuredAsk[Any]) -> int:
        """Exact input tokens of ``ask``, from the API's token counting endpoint."""
        try:
            counted = self.client.messages.count_tokens(
                model=self.model,
                system=ask.system,
                messages=[
                    cast("MessageParam", redact_json({"role": "user", "content": ask.prompt}))
                ],
                tools=[cast("ToolParam", redact_json(_tool(ask)))],
            )
        except anthropic.APIError as exc:
            raise LLMError(f"token counting failed: {exc}") from exc
        return int(counted.input_tokens)


class AnthropicPromptCounter:
    """Exact input tokens of a whole Anthropic request, from ``messages.count_tokens``.

    A :class:`~summarizer.tokens.PromptCounter` for the compactor, used when a
    key is configured and exact counts are asked for (``--exact-tokens``).
    """

    def __init__(self, model: str, *, client: anthropic.Anthropic | None = None) -> None:
        self.model = model
        self.client = client if client is not None else anthropic.Anthropic(max_retries=1)

    def __call__(self, messages: Sequence[Mapping[str, Any]], system: Any, tools: Any) -> int:
        # The SDK's keyword arguments, each typed by the SDK; what is passed is checked by the API.
        arguments: dict[str, Any] = {"model": self.model, "messages": redact_json(list(messages))}
        if system:
            arguments["system"] = redact_json(system)
        if tools:
            arguments["tools"] = redact_json(tools)
        try:
            return int(self.client.messages.count_tokens(**arguments).input_tokens)
        except anthropic.APIError as exc:
            raise LLMError(f"token counting with {self.model} failed: {exc}") from exc


def _block_param(block: Any) -> JSONObject:
    """A response content block as a request parameter (only the fields a request accepts)."""
    if block.type == "tool_use":
        return {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}
    if block.type == "text":
        return {"type": "text", "text": block.text}
    if block.type == "thinking":
        return {"type": "thinking", "thinking": block.thinking, "signature": block.signature}
    dumped: JSONObject = block.model_dump(exclude_none=True)
    return dumped
