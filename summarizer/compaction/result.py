"""The outcome of one compaction, in the context service's ``CompressResult`` shape."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

from artifact_index.ingestion.events import JSONObject

__all__ = ["CompressResult"]


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

    def to_json_dict(self) -> JSONObject:
        """The camelCase JSON object the context service's compact route answers."""
        return self.model_dump(by_alias=True)
