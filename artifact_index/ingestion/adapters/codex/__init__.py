"""OpenAI Codex CLI rollout files (``~/.codex/sessions/**/rollout-*.jsonl``).

Every line is ``{"timestamp", "type", "payload"}`` with ``type`` one of:

* ``session_meta``: session id (``id``; 0.142 also writes ``session_id``),
  ``cwd``, ``cli_version``.  A resumed session repeats it.
* ``turn_context``: the cwd and model of the turn that follows.
* ``response_item``: what the model saw or said: ``message`` (user,
  assistant, developer), ``reasoning``, ``function_call`` /
  ``function_call_output`` (``exec_command``, ``write_stdin``, the older
  ``shell`` with an argv list, ``update_plan``, MCP tools),
  ``custom_tool_call`` / ``custom_tool_call_output`` (``apply_patch`` with
  the patch as free text), ``local_shell_call``.
* ``event_msg``: UI events.  Most repeat response items (``user_message``,
  ``agent_message``); ``patch_apply_end`` is the harness's own record of
  what an ``apply_patch`` changed, and ``exec_command_end`` carries the exit
  code of a command (and the only record of a command the *user* ran with
  ``!cmd``).
* ``compacted``: the summary that replaced the history.

Older rollouts (2025) have no envelope: a first line ``{"id", "timestamp",
"instructions"}`` followed by bare response items; the JSON variant holds
``{"session": {...}, "items": [...]}``.  Both are read too.

``patch_apply_end`` may be written before or after the call's output record,
so what such records say is learned before the pass (:mod:`.facts`, from the
few lines that hold them) and each result carries the changes the harness
reported, whatever the order.

``codex exec --json`` prints the same session as an event stream instead
(``thread.started``, ``item.started`` / ``item.completed`` with typed
items), often with the capturing script's own lines around it: it is a
layout of this format too, read by :mod:`.exec_stream` into the same events.

The package: the adapter here, :mod:`.records` (the layouts), :mod:`.facts`
(what later records say), :mod:`.reader` (records to events) and
:mod:`.outputs` (outputs and reported patches).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from artifact_index.ingestion.adapters import register
from artifact_index.ingestion.adapters.base import Adapter, report_bad_lines
from artifact_index.ingestion.adapters.codex.exec_stream import (
    CodexRecordStream,
    ExecReader,
    is_exec_event,
    layout_is_exec_stream,
)
from artifact_index.ingestion.adapters.codex.lookahead import LinesAhead, RolloutIndex
from artifact_index.ingestion.adapters.codex.records import (
    ENVELOPE_TYPES,
    ITEM_TYPES,
    Record,
    Rollout,
    kind_of,
)
from artifact_index.ingestion.adapters.codex.rollout_reader import Reader
from artifact_index.ingestion.events import Event
from artifact_index.ingestion.source import Source

__all__ = ["CodexAdapter"]


def _peeked(source: Source) -> Iterator[tuple[int, Any]]:
    """The records from the first, only looked at: the reader that follows parses none of them again."""
    records = source.records
    index = 0
    while True:
        try:
            yield records.peek(index)
        except IndexError:
            return
        index += 1


@register
class CodexAdapter(Adapter):
    """OpenAI Codex CLI rollout JSONL."""

    name = "codex"
    description = (
        "OpenAI Codex CLI session rollout (rollout-*.jsonl: session_meta / response_item / "
        "event_msg), or the `codex exec --json` event stream (thread.started / item.completed)"
    )
    priority = 10

    def sniff(self, source: Source) -> bool:
        document = source.document
        if isinstance(document, dict):
            return isinstance(document.get("session"), dict) and isinstance(
                document.get("items"), list
            )
        records = source.records[:40]
        for _, obj in records:
            if is_exec_event(obj):
                return True
            if (
                isinstance(obj, dict)
                and kind_of(obj) in ENVELOPE_TYPES
                and isinstance(obj.get("payload"), dict)
            ):
                return True
        # The 2025 layout: a meta line with instructions, then bare Responses items.
        if records and isinstance(records[0][1], dict):
            first = records[0][1]
            if "instructions" in first and "id" in first and "type" not in first:
                return any(isinstance(o, dict) and kind_of(o) in ITEM_TYPES for _, o in records[1:])
        return False

    def events(self, source: Source) -> Iterator[Event]:
        document = source.document
        if isinstance(document, dict) and isinstance(document.get("items"), list):
            session = document.get("session")
            first = (
                [Record(1, "session_meta", session, session.get("timestamp"))]
                if isinstance(session, dict)
                else []
            )
            raw = [(n + 2, item) for n, item in enumerate(document["items"])]
            records = [*first, *Rollout(source, raw)]
            return Reader(source.skip, RolloutIndex.of(records)).read(records)
        if layout_is_exec_stream(_peeked(source)):
            return self._exec_stream(source)
        return self._lines(source)

    @staticmethod
    def _exec_stream(source: Source) -> Iterator[Event]:
        """The events of a ``codex exec --json`` stream; a capturing script's lines are skipped."""
        reported = len(source.skipped)
        reader = ExecReader()
        reader.skipped = source.skipped
        yield from reader.read(source.records)
        report_bad_lines(source, reported)

    @staticmethod
    def _lines(source: Source) -> Iterator[Event]:
        """The events of a JSON-lines rollout, read in one pass over its lines."""
        reported = len(source.skipped)
        index = LinesAhead(source.records)
        yield from Reader(source.skip, index).read(Rollout(source, source.records))
        report_bad_lines(source, reported)

    def stream(self) -> CodexRecordStream:
        return CodexRecordStream()
