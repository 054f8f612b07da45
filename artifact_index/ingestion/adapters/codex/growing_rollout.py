"""A Codex rollout read as it grows (see :mod:`artifact_index.ingestion.following`).

Reading a rollout whole, the reader first indexes what the file says about
each call (its output, ``patch_apply_end`` and ``exec_command_end``, the
messages the person typed, whether responses are written as items at all),
then makes the events.  Followed, the index holds only the records read so
far: a record whose events depend on one that has not been written yet is
held until it is (a patch call's output waits for its ``patch_apply_end``,
a shell call's for its ``exec_command_end``, a ``patch_apply_end`` for its
call's output), at most :data:`~artifact_index.ingestion.following.PATIENCE`
records.  Every answer the index gives about what is absent is remembered;
a later record that changes one raises
:class:`~artifact_index.ingestion.following.Reread`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import orjson

from artifact_index.ingestion.adapters.base import as_text
from artifact_index.ingestion.adapters.codex.lookahead import (
    CALL_TYPES,
    ENV_CWD,
    OUTPUT_TYPES,
    RolloutIndex,
)
from artifact_index.ingestion.adapters.codex.records import Record, kind_of, record_of
from artifact_index.ingestion.adapters.codex.rollout_reader import Reader
from artifact_index.ingestion.events import Event, JSONObject
from artifact_index.ingestion.following import PATIENCE, Reread, Window
from artifact_index.ingestion.source import Skipped

__all__ = ["CodexStream", "FollowedIndex"]


def _digest(payload: JSONObject | None) -> bytes | None:
    if payload is None:
        return None
    try:
        data = orjson.dumps(payload, option=orjson.OPT_SORT_KEYS)
    except (TypeError, orjson.JSONEncodeError):
        data = repr(sorted(payload.items(), key=lambda item: str(item[0]))).encode()
    return hashlib.blake2b(data, digest_size=16).digest()


class FollowedIndex(RolloutIndex):
    """The index of the records read so far, remembering each answer a later record could change."""

    def __init__(self) -> None:
        super().__init__()
        self._patch_used: dict[
            str, bytes | None
        ] = {}  # call id -> the outcome used (None: none known)
        self._exec_used: dict[str, bytes | None] = {}
        self._unanswered: set[str] = set()  # call ids said to have no output
        self._uncalled: set[str] = set()  # call ids said to have no call
        self._untyped: set[str] = set()  # texts said not to be typed by the person
        self._absent_flags: set[str] = set()  # "user", "assistant", "compacted" said to be absent
        self._start_unknown: tuple[bool, bool] | None = (
            None  # cwd, model unknown when the session began
        )
        self.writes_exec_ends = False  # this rollout records exec_command_end at all

    def add(self, record: Record) -> None:
        """Take one record into account; :class:`Reread` when it changes an answer already given."""
        p = record.payload
        kind = kind_of(p)
        if record.kind in ("session_meta", "turn_context"):
            cwd, model = p.get("cwd"), p.get("model")
            self._check_start(
                cwd if isinstance(cwd, str) and cwd else None,
                model if isinstance(model, str) else None,
            )
        elif record.kind == "compacted":
            self._check_flag("compacted")
        elif record.kind == "event_msg":
            call_id = p.get("call_id")
            if kind == "patch_apply_end" and isinstance(call_id, str):
                if call_id in self._patch_used:
                    if self._patch_used[call_id] != _digest(p):
                        raise Reread(f"patch_apply_end of {call_id} came after its output was read")
                    return
            elif kind == "exec_command_end" and isinstance(call_id, str):
                self.writes_exec_ends = True
                if call_id in self._exec_used:
                    if self._exec_used[call_id] != _digest(p):
                        raise Reread(
                            f"exec_command_end of {call_id} came after its output was read"
                        )
                    return
            elif (
                kind == "user_message"
                and isinstance(message := p.get("message"), str)
                and message.strip() in self._untyped
            ):
                raise Reread("a message was found typed after it was read as the harness's")
        elif record.kind == "response_item":
            if kind == "message":
                role = p.get("role")
                if role in ("user", "assistant"):
                    self._check_flag(str(role))
                if role == "user" and self.first_cwd is None:
                    found = ENV_CWD.search(as_text(p.get("content")))
                    if found:
                        self._check_start(found.group(1).strip(), None)
            elif kind in OUTPUT_TYPES and p.get("call_id") in self._unanswered:
                raise Reread(f"the output of {p.get('call_id')} came after it was read as missing")
            elif kind in CALL_TYPES and (p.get("call_id") or p.get("id")) in self._uncalled:
                raise Reread("a call came after its outcome was read as that of no call")
        super().add(record)

    def _check_flag(self, name: str) -> None:
        if name in self._absent_flags:
            raise Reread(f"a {name} record came after events were read as if there were none")

    def _check_start(self, cwd: str | None, model: str | None) -> None:
        unknown = self._start_unknown
        if unknown is None:
            return
        if (unknown[0] and cwd and self.first_cwd is None) or (
            unknown[1] and model is not None and self.first_model is None
        ):
            raise Reread("the session's cwd or model came after the session was read")

    # -- the reader's questions, remembered ----------------------------------------------

    def cwd_and_model(self) -> tuple[str | None, str | None]:
        self._start_unknown = (self.first_cwd is None, self.first_model is None)
        return self.first_cwd, self.first_model

    def patch_end(self, call_id: str) -> JSONObject | None:
        # Asked once per call: what it answered is all that is kept of it.
        found = self.patch_ends.pop(call_id, None)
        self._patch_used[call_id] = _digest(found)
        return found

    def exec_end(self, call_id: str) -> JSONObject | None:
        found = self.exec_ends.pop(call_id, None)
        self._exec_used[call_id] = _digest(found)
        return found

    def is_answered(self, call_id: str) -> bool:
        if call_id in self.answered:
            return True
        self._unanswered.add(call_id)
        return False

    def is_called(self, call_id: str) -> bool:
        if call_id in self.called:
            return True
        self._uncalled.add(call_id)
        return False

    def is_typed(self, text: str) -> bool:
        if text.strip() in self.typed_user:
            return True
        self._untyped.add(text.strip())
        return False

    def user_items(self) -> bool:
        return self._flag("user", self.has_user_items)

    def assistant_items(self) -> bool:
        return self._flag("assistant", self.has_assistant_items)

    def compacted(self) -> bool:
        return self._flag("compacted", self.has_compacted)

    def _flag(self, name: str, value: bool) -> bool:
        if not value:
            self._absent_flags.add(name)
        return value


class CodexStream:
    """A rollout's records in, the events no later record can change out."""

    def __init__(self) -> None:
        self.skipped: list[Skipped] = []
        self._window: Window[Record] = Window()
        self._index = FollowedIndex()
        self._reader = Reader(self._skip, self._index)
        self._next = 0

    @property
    def holding(self) -> bool:
        return self._next < len(self._window)

    def _skip(self, line: int | None, reason: str) -> None:
        self.skipped.append(Skipped(line, reason))

    def add(self, records: Sequence[tuple[int, Any]]) -> list[Event]:
        taken = []
        for line, obj in records:
            record, codex = record_of(line, obj)
            if not codex:
                self._skip(line, "not a Codex rollout record")
            elif record is not None:
                self._index.add(record)
                taken.append(record)
        self._window.extend(taken)
        return self._advance(final=False)

    def finish(self) -> list[Event]:
        events = self._advance(final=True)
        events.extend(self._reader.end())
        return events

    def _advance(self, *, final: bool) -> list[Event]:
        window, reader = self._window, self._reader
        events: list[Event] = []
        while self._next < len(window):
            record = window[self._next]
            if not final and not self._ready(record) and len(window) - self._next <= PATIENCE:
                break
            events.extend(reader.record_events(record))
            self._next += 1
        window.release(self._next)
        return events

    def _ready(self, record: Record) -> bool:
        """Whether the records written so far answer everything the events of ``record`` depend on."""
        index, reader = self._index, self._reader
        if not reader.session_emitted and (index.first_cwd is None or index.first_model is None):
            return False
        p = record.payload
        kind = kind_of(p)
        if record.kind == "event_msg":
            if kind == "user_message":
                return index.has_user_items
            if kind == "agent_message":
                return index.has_assistant_items
            if kind == "context_compacted":
                return index.has_compacted
            if kind == "patch_apply_end":
                # The call's output, when it comes, takes this outcome: wait for it.
                call_id = p.get("call_id")
                call = reader.calls.get(call_id) if isinstance(call_id, str) else None
                return call is None or call.answered or p.get("call_id") in index.answered
            return True
        if record.kind == "response_item" and kind in OUTPUT_TYPES:
            call_id = p.get("call_id")
            call = reader.calls.get(call_id) if isinstance(call_id, str) else None
            if call is None or call.answered:
                return True
            if call.patch and call.call_id not in index.patch_ends:
                return False
            # Versions that record no exec_command_end are not waited for.
            return not (
                call.shell and index.writes_exec_ends and call.call_id not in index.exec_ends
            )
        return True
