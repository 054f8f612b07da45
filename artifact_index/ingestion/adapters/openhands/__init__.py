"""OpenHands histories in their three shapes.

A. The legacy event stream (``output.jsonl`` records ``{instance_id,
   test_result, instruction, metadata, history}`` or a bare event list):
   actions ``{"id", "source", "action", "args", "tool_call_metadata"}`` and
   observations ``{"id", "cause", "observation", "content", "extras"}``.
   ``read`` / ``edit`` carry the ``str_replace_editor`` sub-command in
   ``args`` (or, early 2025, only inside ``translated_ipython_code``); a
   failed edit is still an ``edit`` observation whose ``content`` starts with
   ``ERROR:`` and whose ``extras.diff`` is empty; ``run`` reports
   ``extras.metadata.exit_code`` and ``working_dir``.
B. The older resolver output: flat history items without ``args``
   (``{"action": "run", "command": ...}`` then ``{"observation": "run",
   "content", "exit_code"}``), edits through IPython cells calling the
   ``agentskills`` helpers (``edit_file_by_replace``, ``create_file``, ...).
C. The software-agent SDK (V1): ``{"kind": "ActionEvent", "action": {"kind":
   "FileEditorAction" | "ExecuteBashAction", ...}, "tool_call_id"}`` answered
   by ``ObservationEvent`` with ``FileEditorObservation{error, prev_exist,
   new_content}`` or ``ExecuteBashObservation{exit_code, metadata}``.

The workspace root is the repository the task names (``<uploaded_files>``),
else ``/workspace``.  ``line`` is the event's 1-based position in
``history`` (the JSON line for JSON-lines input).

The package: the adapter here, :mod:`.session` (one history read into
events), :mod:`.fields` (the fields of each shape) and :mod:`.ipython`
(IPython cells and the ``agentskills`` helpers).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from artifact_index.ingestion.adapters import register
from artifact_index.ingestion.adapters.base import Adapter
from artifact_index.ingestion.adapters.openhands.ipython import ipython_operations
from artifact_index.ingestion.adapters.openhands.session import Session
from artifact_index.ingestion.events import Event
from artifact_index.ingestion.source import Source

__all__ = ["OpenHandsAdapter", "ipython_operations"]

_SDK_KINDS = frozenset(
    {
        "ActionEvent",
        "ObservationEvent",
        "MessageEvent",
        "SystemPromptEvent",
        "AgentErrorEvent",
        "UserRejectObservation",
        "Condensation",
        "CondensationRequest",
        "CondensationSummaryEvent",
        "ConversationStateUpdateEvent",
        "PauseEvent",
    }
)


@register
class OpenHandsAdapter(Adapter):
    name = "openhands"
    description = (
        "OpenHands histories: legacy event stream, older resolver output, software-agent SDK events"
    )
    priority = 30

    def sniff(self, source: Source) -> bool:
        doc = source.document
        if isinstance(doc, list):
            return _is_history(doc)
        if isinstance(doc, dict):
            return "trajectory" not in doc and _is_history(doc.get("history"))
        if doc is not None:
            return False
        first = next((record for _, record in source.records if isinstance(record, dict)), None)
        # The first record's shape first: telling JSON lines from text parses every line.
        return (
            first is not None
            and (_is_history(first.get("history")) or _is_history([first]))
            and source.looks_like_jsonl()
        )

    def events(self, source: Source) -> Iterator[Event]:
        doc = source.document
        if isinstance(doc, list):
            yield from Session(source, {}, doc).events()
        elif isinstance(doc, dict):
            history = doc.get("history")
            if not isinstance(history, list):
                source.skip(None, "not an OpenHands history (no 'history' list)")
                return
            yield from Session(source, doc, history).events()
        else:
            yield from self._jsonl(source)

    def _jsonl(self, source: Source) -> Iterator[Event]:
        events: list[Any] = []
        lines: list[int] = []
        for line, record in source.records:
            if not isinstance(record, dict):
                source.skip(line, "JSON line is not an object")
            elif isinstance(record.get("history"), list):
                # One evaluation record per line: each is its own session.
                yield from Session(
                    source, record, record["history"], line_of=lambda _, n=line: n
                ).events()
            elif _is_history([record]):
                events.append(record)
                lines.append(line)
            else:
                source.skip(line, "not an OpenHands event")
        if events:
            yield from Session(source, {}, events, line_of=lambda i: lines[i]).events()


def _is_history(value: Any) -> bool:
    if not isinstance(value, list) or not value:
        return False
    first = next((item for item in value if isinstance(item, dict)), None)
    if first is None:
        return False
    if isinstance(first.get("kind"), str):
        return first["kind"] in _SDK_KINDS
    return ("action" in first or "observation" in first) and not (
        "role" in first and "content" in first and "action" not in first
    )
