"""A rollout's lines as records, whichever layout wrote them (the envelope, or the 2025 bare items)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from artifact_index.ingestion.events import JSONObject
from artifact_index.ingestion.source import Source

__all__ = ["ENVELOPE_TYPES", "ITEM_TYPES", "Record", "Rollout", "kind_of", "record_of"]

ENVELOPE_TYPES = {"session_meta", "turn_context", "response_item", "event_msg", "compacted"}
# Envelope lines that carry nothing for the trail: 0.169's snapshot of the environment the model is told
# about (``world_state``; ``turn_context`` still names the cwd) and its token accounting per response.
BOOKKEEPING_TYPES = {"world_state", "token_usage_record"}
ITEM_TYPES = {
    "message",
    "reasoning",
    "function_call",
    "function_call_output",
    "custom_tool_call",
    "custom_tool_call_output",
    "local_shell_call",
    "local_shell_call_output",
    "web_search_call",
    "tool_search_call",
    "tool_search_output",
}


@dataclass(slots=True)
class Record:
    """One rollout line: its number, its kind (the envelope's ``type``) and payload."""

    line: int
    kind: str
    payload: JSONObject
    timestamp: str | None


def kind_of(obj: JSONObject) -> str | None:
    """The ``type`` of a line or item, when it is a string."""
    kind = obj.get("type")
    return kind if isinstance(kind, str) else None


def _normalize(obj: Any) -> tuple[str, JSONObject] | None:
    """``(kind, payload)`` of one rollout line in any of the known layouts.

    ``kind`` is ``"ignored"`` for lines that belong to the format but carry
    nothing (the 2025 ``record_type: state`` lines, :data:`BOOKKEEPING_TYPES`);
    None means not Codex.
    """
    if not isinstance(obj, dict):
        return None
    kind = kind_of(obj)
    payload = obj.get("payload")
    if kind in ENVELOPE_TYPES and isinstance(payload, dict):
        return str(kind), payload
    if kind in ITEM_TYPES:
        return "response_item", obj
    if "record_type" in obj or kind in BOOKKEEPING_TYPES:
        return "ignored", obj
    if kind is None and "id" in obj and "timestamp" in obj:
        return "session_meta", obj
    return None


class Rollout:
    """A rollout's records, normalized as they are read: the source keeps only its bytes.

    What cannot be a rollout record is reported as skipped on the first pass.
    """

    def __init__(self, source: Source, raw: Sequence[tuple[int, Any]]) -> None:
        self.source = source
        self.raw = raw
        self.reported = False

    def __iter__(self) -> Iterator[Record]:
        report, self.reported = not self.reported, True
        for line, obj in self.raw:
            record, codex = record_of(line, obj)
            if not codex:
                if report:
                    self.source.skip(line, "not a Codex rollout record")
                continue
            if record is not None:
                yield record


def record_of(line: int, obj: Any) -> tuple[Record | None, bool]:
    """One rollout line as a record (None when it carries nothing), and whether it is a Codex line at all."""
    normalized = _normalize(obj)
    if normalized is None:
        return None, False
    kind, payload = normalized
    if kind == "ignored":
        return None, True
    timestamp = obj.get("timestamp") if isinstance(obj.get("timestamp"), str) else None
    return Record(line, kind, payload, timestamp), True
