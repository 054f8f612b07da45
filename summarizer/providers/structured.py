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
import types
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, Literal, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic.fields import FieldInfo

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
    "keyed_reply",
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


class _ClosedReply(BaseModel):
    model_config = ConfigDict(extra="forbid")


def keyed_reply(name: str, fields: Mapping[str, tuple[type[Any], FieldInfo]]) -> type[BaseModel]:
    """A reply model with exactly ``fields`` (key -> type and description), extra keys refused.

    For replies whose keys are known only at run time (one per question id).
    The class is declared as a ``class`` statement would declare it, so each
    field keeps its type (``create_model`` takes fields and its own options
    as one set of keyword arguments, which only an untyped mapping can fill).
    """

    def declare(namespace: dict[str, object]) -> None:
        namespace["__annotations__"] = {key: kind for key, (kind, _) in fields.items()}
        namespace.update({key: info for key, (_, info) in fields.items()})

    model = types.new_class(name, (_ClosedReply,), exec_body=declare)
    if not issubclass(model, BaseModel):  # pragma: no cover - new_class keeps the base
        raise TypeError(name)
    return model


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
