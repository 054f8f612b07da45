"""Any OpenAI-compatible Chat Completions endpoint: the only module that imports ``openai``.

OpenAI itself, OpenRouter, and local model servers (Ollama, llama.cpp's
server, vLLM) all speak ``POST /v1/chat/completions`` with function tools, so
one client covers them; the endpoint is the SDK's ``base_url`` (or its
``OPENAI_BASE_URL``), the key ``OPENAI_API_KEY`` (a local server needs none).

:class:`OpenAIClient` forces one function call (``tool_choice`` naming the
function) whose parameters are the pydantic model of the reply, and
validates its arguments exactly as the Anthropic client validates a tool
input: a malformed reply is answered with the validation error as the
function's result and retried, then :class:`~summarizer.exceptions.LLMError`.
A server that ignores the forced call and writes the arguments as a JSON
object in its text is held to the same validation.  Every request is
redacted (:mod:`artifact_index.redaction`) before it leaves.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, cast

import openai
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
    json_in_text,
    validate_input,
)

__all__ = ["OpenAIClient"]


def _function(ask: StructuredAsk[Any]) -> JSONObject:
    return {
        "type": "function",
        "function": {
            "name": ask.tool_name,
            "description": ask.tool_description,
            "parameters": ask.schema(),
        },
    }


class OpenAIClient:
    """A :class:`~summarizer.providers.structured.StructuredClient` on an OpenAI-compatible endpoint."""

    provider: Provider = "openai"

    def __init__(
        self,
        model: str,
        *,
        client: openai.OpenAI | None = None,
        base_url: str | None = None,
        api_key: str | None = None,
        retries: int = 2,
    ) -> None:
        self.model = model
        if client is None:
            try:
                client = openai.OpenAI(base_url=base_url, api_key=api_key, max_retries=1)
            except openai.OpenAIError as exc:  # no key anywhere
                raise LLMError(f"the OpenAI-compatible client cannot start: {exc}") from exc
        self.client = client
        self.retries = retries
        self.prompts: list[str] = []  # the user prompt of every request sent, for measurement

    @property
    def endpoint(self) -> str:
        return str(self.client.base_url).rstrip("/")

    def ask(self, ask: StructuredAsk[M]) -> M:
        self.prompts.append(ask.prompt)
        messages: list[JSONObject] = [
            {"role": "system", "content": ask.system},
            {"role": "user", "content": ask.prompt},
        ]
        problem = "no reply"
        for _ in range(1 + self.retries):
            choice = self._create(messages, ask)
            message = choice.message
            calls = [c for c in (message.tool_calls or []) if getattr(c, "function", None)]
            call = next((c for c in calls if c.function.name == ask.tool_name), None)
            echoed: JSONObject = {"role": "assistant", "content": message.content or ""}
            if calls:
                echoed["tool_calls"] = [
                    {
                        "id": c.id,
                        "type": "function",
                        "function": {"name": c.function.name, "arguments": c.function.arguments},
                    }
                    for c in calls
                ]
            if call is None:
                written = json_in_text(message.content)
                if written is not None:
                    parsed = validate_input(ask.reply, written)
                    if not isinstance(parsed, ValidationError):
                        return parsed
                    problem = f"the JSON it wrote did not match the schema: {first_error(parsed)}"
                else:
                    problem = (
                        f"the reply did not call {ask.tool_name} (finish reason "
                        f"{choice.finish_reason})"
                    )
                messages += [
                    echoed,
                    *(
                        {
                            "role": "tool",
                            "tool_call_id": c.id,
                            "content": f"Unknown function {c.function.name}; call {ask.tool_name}.",
                        }
                        for c in calls
                    ),
                    {"role": "user", "content": f"Call the {ask.tool_name} function."},
                ]
                continue
            try:
                arguments: Any = json.loads(call.function.arguments or "{}")
            except json.JSONDecodeError as exc:
                problem = f"the function arguments are not JSON ({exc.msg})"
                feedback = problem
            else:
                checked = validate_input(ask.reply, arguments)
                if not isinstance(checked, ValidationError):
                    return checked
                problem = f"the function arguments did not match the schema: {first_error(checked)}"
                feedback = str(checked)
            messages += [
                echoed,
                *(
                    {
                        "role": "tool",
                        "tool_call_id": c.id,
                        "content": (
                            f"Invalid arguments: {feedback}. Call {ask.tool_name} again with "
                            "arguments matching its parameters."
                            if c.id == call.id
                            else f"Unknown function {c.function.name}."
                        ),
                    }
                    for c in calls
                ),
            ]
        raise LLMError(
            f"the {ask.what} of {self.model} was malformed after {1 + self.retries} "
            f"attempt(s): {problem}"
        )

    def _create(self, messages: Sequence[JSONObject], ask: StructuredAsk[Any]) -> Any:
        try:
            completion = self.client.chat.completions.create(
                model=self.model,
                messages=cast("Any", redact_json(list(messages))),
                tools=[cast("Any", redact_json(_function(ask)))],
                tool_choice={"type": "function", "function": {"name": ask.tool_name}},
            )
        except openai.APIError as exc:
            raise LLMError(
                f"the {ask.what} request to {self.model} at {self.endpoint} failed: {exc}"
                f" ({WAY_OUT})"
            ) from exc
        if not completion.choices:
            raise LLMError(f"the {ask.what} request to {self.model} got a reply with no choices")
        return completion.choices[0]
