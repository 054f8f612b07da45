"""Token usage reported by the API for the last response."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Usage"]


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


class Usage(BaseModel):
    """The usage block of a response, in neutral names.

    ``input_tokens`` excludes cached tokens, as in Anthropic's usage; OpenAI's
    ``prompt_tokens`` includes them, so :meth:`from_api` subtracts
    ``prompt_tokens_details.cached_tokens``.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    input_tokens: int = Field(0, ge=0)
    cache_read_tokens: int = Field(0, ge=0)
    cache_write_tokens: int = Field(0, ge=0)
    output_tokens: int = Field(0, ge=0)

    @classmethod
    def from_api(cls, usage: Mapping[str, Any]) -> Usage:
        """Read an Anthropic ``usage`` or an OpenAI chat ``usage`` object."""
        if "prompt_tokens" in usage or "completion_tokens" in usage:
            details = usage.get("prompt_tokens_details")
            cached = _int(details.get("cached_tokens")) if isinstance(details, Mapping) else 0
            prompt = _int(usage.get("prompt_tokens"))
            return cls(
                input_tokens=max(prompt - cached, 0),
                cache_read_tokens=cached,
                output_tokens=_int(usage.get("completion_tokens")),
            )
        return cls(
            input_tokens=_int(usage.get("input_tokens")),
            cache_read_tokens=_int(usage.get("cache_read_input_tokens")),
            cache_write_tokens=_int(usage.get("cache_creation_input_tokens")),
            output_tokens=_int(usage.get("output_tokens")),
        )

    @classmethod
    def coerce(cls, usage: Usage | Mapping[str, Any] | None) -> Usage | None:
        if usage is None or isinstance(usage, Usage):
            return usage
        return cls.from_api(usage)
