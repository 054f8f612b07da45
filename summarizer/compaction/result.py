"""The outcome of one compaction, in the context service's ``CompressResult`` shape."""

from __future__ import annotations

from typing import TypedDict

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

__all__ = ["CompressResult", "CompressResultJSON"]


class CompressResultJSON(TypedDict):
    """A :class:`CompressResult` as the context service's compact route answers it (camelCase)."""

    didCompress: bool
    released: int
    promptEstimate: int


class CompressResult(BaseModel):
    """What a compaction did; serialized as ``{didCompress, released, promptEstimate}``.

    ``released`` is the prompt estimate before minus after, in tokens (negative
    only if a summary came out longer than what it replaced).
    ``prompt_estimate`` is the estimate of the request after compaction,
    system prompt and tool definitions included.
    """

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="forbid",
        frozen=True,
        defer_build=True,
    )

    did_compress: bool
    released: int
    prompt_estimate: int

    def to_json_dict(self) -> CompressResultJSON:
        """The camelCase JSON object the context service's compact route answers."""
        return CompressResultJSON(
            didCompress=self.did_compress,
            released=self.released,
            promptEstimate=self.prompt_estimate,
        )
