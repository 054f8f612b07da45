"""What every LLM provider gives the summarizer: one forced, validated, structured reply.

A caller states what it asks (:class:`StructuredAsk`: the system prompt, the
user prompt, the name of the tool the model must call and the pydantic model
of that tool's input) and gets back an instance of the model, or
:class:`~summarizer.exceptions.LLMError`.  Each provider module forces the
call in its own API's terms (Anthropic's ``tool_choice``, OpenAI's function
``tool_choice``), validates the input against the model, answers a malformed
reply with the validation error and retries.  A reply that stays malformed
is an error, never an empty answer.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Generic, Literal, Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from artifact_index.ingestion.events import JSONObject
from artifact_index.lazy_pattern import lazy_pattern

__all__ = [
    "PROVIDERS",
    "WAY_OUT",
    "Provider",
    "StructuredAsk",
    "StructuredClient",
    "first_error",
    "json_in_text",
    "validate_input",
]

# Said after a request that could not reach the model: a key that is set but cannot be used
# (wrong, or no network) would otherwise leave the user with neither a summary nor a hint.
WAY_OUT = "check the API key, model and network; --no-llm writes the narrative offline"

Provider = Literal["anthropic", "openai"]
PROVIDERS: tuple[Provider, ...] = ("anthropic", "openai")

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class StructuredAsk(Generic[M]):
    """One request for a structured reply: the model must call ``tool_name`` with input matching ``reply``."""

    system: str
    prompt: str
    tool_name: str
    tool_description: str
    reply: type[M]
    what: str = "reply"  # how errors name it: "the narrative reply of MODEL was malformed ..."
    max_tokens: int = 4096

    def schema(self) -> JSONObject:
        return self.reply.model_json_schema()


class StructuredClient(Protocol):
    """A provider's client: ``ask`` returns the validated reply or raises LLMError."""

    provider: Provider
    model: str

    def ask(self, ask: StructuredAsk[M]) -> M: ...


def first_error(exc: ValidationError) -> str:
    """The first validation error on one line: ``intent: Input should be a valid dictionary``."""
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    return f"{where}: {first['msg']}" if where else str(first["msg"])


def validate_input(reply: type[M], data: Any) -> M | ValidationError:
    """``data`` as an instance of ``reply``, or the validation error to send back to the model."""
    try:
        return reply.model_validate(data)
    except ValidationError as exc:
        return exc


_FENCE = lazy_pattern(r"^```(?:json)?\s*\n(.*)\n```\s*$", re.S)


def json_in_text(text: str | None) -> Any:
    """A JSON object a model wrote as plain text instead of calling the tool, else None.

    Some OpenAI-compatible servers (older local model servers) ignore a forced
    function call and answer with the arguments as text; the same validation
    then applies to them.
    """
    if not text:
        return None
    stripped = text.strip()
    fenced = _FENCE.match(stripped)
    if fenced:
        stripped = fenced.group(1).strip()
    if not stripped.startswith("{"):
        return None
    try:
        value = json.loads(stripped)
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None
