"""What reading a rollout must know about records it has not reached yet, learned without a pass of its own.

Some records answer questions asked earlier in the file: ``patch_apply_end``
(what a patch changed) may come before or after its call's output, the
session's cwd and model are needed at its first line, a ``user_message``
event tells a typed message from an injected one.  Reading every line
twice (once to gather these, once to make events) doubled the cost of a
long rollout; here the answers come from the few lines that can hold them:

- records of the rare kinds (``patch_apply_end``, ``exec_command_end``,
  ``user_message``, ``compacted``) are found by their type's name in the
  bytes (a type name is never escaped in JSON) and parsed once, before the
  pass, which is then handed them instead of parsing them again;
- whether a call was answered or made anywhere, and whether any response
  item speaks for a role, is asked only when an event needs it, of what
  the pass has read so far and then of the lines ahead that can answer it.

:class:`RolloutIndex` answers the same questions for a rollout already in
memory (the JSON-document layout), from its records; a followed rollout's
index (:class:`~artifact_index.ingestion.adapters.codex.growing_rollout.FollowedIndex`)
knows only the records read so far.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from artifact_index.ingestion.adapters.base import as_text
from artifact_index.ingestion.adapters.codex.records import Record, kind_of, record_of
from artifact_index.ingestion.events import JSONObject
from artifact_index.ingestion.source import Records
from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["CALL_TYPES", "ENV_CWD", "OUTPUT_TYPES", "LinesAhead", "RolloutIndex"]

CALL_TYPES = {"function_call", "custom_tool_call", "local_shell_call"}
OUTPUT_TYPES = {"function_call_output", "custom_tool_call_output", "local_shell_call_output"}

ENV_CWD = lazy_pattern(r"<cwd>([^<]+)</cwd>")
# Lines that may hold a record of a rare kind, or the session's first cwd or model.
_RARE_KINDS = lazy_pattern(rb'"(?:patch_apply_end|exec_command_end|user_message|compacted)"')
_CWD_OR_MODEL = lazy_pattern(rb'cwd|"model"')


@dataclass
class RolloutIndex:
    """What the whole rollout says about its calls, messages and setting.

    The reader asks it questions through its methods.  Built from records
    already in memory (:meth:`of`), every answer is known at once.
    """

    patch_ends: dict[str, JSONObject] = field(default_factory=dict)
    exec_ends: dict[str, JSONObject] = field(default_factory=dict)
    answered: set[str] = field(default_factory=set)
    typed_user: set[str] = field(default_factory=set)
    has_user_items: bool = False
    has_assistant_items: bool = False
    has_compacted: bool = False
    first_cwd: str | None = None
    first_model: str | None = None
    called: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, records: Iterable[Record]) -> RolloutIndex:
        """The index of the whole rollout ``records``."""
        index = cls()
        for record in records:
            index.add(record)
        return index

    def add(self, record: Record) -> None:
        """Take one record into account."""
        p = record.payload
        kind = kind_of(p)
        if record.kind in ("session_meta", "turn_context"):
            cwd, model = p.get("cwd"), p.get("model")
            if self.first_cwd is None and isinstance(cwd, str) and cwd:
                self.first_cwd = cwd
            if self.first_model is None and isinstance(model, str):
                self.first_model = model
        elif record.kind == "compacted":
            self.has_compacted = True
        elif record.kind == "event_msg":
            call_id = p.get("call_id")
            if kind == "patch_apply_end" and isinstance(call_id, str):
                self.patch_ends[call_id] = p
            elif kind == "exec_command_end" and isinstance(call_id, str):
                self.exec_ends[call_id] = p
            elif kind == "user_message" and isinstance(message := p.get("message"), str):
                self.typed_user.add(message.strip())
        elif record.kind == "response_item":
            if kind == "message":
                role = p.get("role")
                self.has_user_items |= role == "user"
                self.has_assistant_items |= role == "assistant"
                if self.first_cwd is None and role == "user":
                    found = ENV_CWD.search(as_text(p.get("content")))
                    if found:
                        self.first_cwd = found.group(1).strip()
            elif kind in OUTPUT_TYPES and isinstance(answered := p.get("call_id"), str):
                self.answered.add(answered)
            elif kind in CALL_TYPES:
                call_id = p.get("call_id") or p.get("id")
                if isinstance(call_id, str):
                    self.called.add(call_id)

    def saw_item(self, kind: str | None, payload: JSONObject) -> None:
        """A response item the reading pass met (an index that knows every record has it already)."""

    # -- the reader's questions ---------------------------------------------------

    def cwd_and_model(self) -> tuple[str | None, str | None]:
        return self.first_cwd, self.first_model

    def patch_end(self, call_id: str) -> JSONObject | None:
        return self.patch_ends.get(call_id)

    def exec_end(self, call_id: str) -> JSONObject | None:
        return self.exec_ends.get(call_id)

    def is_answered(self, call_id: str) -> bool:
        """Whether some output answers ``call_id``."""
        return call_id in self.answered

    def is_called(self, call_id: str) -> bool:
        """Whether some call of the rollout has ``call_id``."""
        return call_id in self.called

    def is_typed(self, text: str) -> bool:
        return text.strip() in self.typed_user

    def user_items(self) -> bool:
        """Whether some response item is a user message (then ``user_message`` events are echoes)."""
        return self.has_user_items

    def assistant_items(self) -> bool:
        return self.has_assistant_items

    def compacted(self) -> bool:
        return self.has_compacted


class LinesAhead(RolloutIndex):
    """:class:`RolloutIndex` of a JSON-lines rollout, learned from the lines that can tell, each parsed once.

    Made before the reading pass starts: the records detection already
    parsed (the file's head) are looked at, then the lines ahead holding a
    rare kind, then (until the first cwd and model are known) the lines
    that can name them.
    """

    def __init__(self, records: Records) -> None:
        super().__init__()
        self._records = records
        self._searched_roles: set[str] = set()
        self._searched_calls: set[tuple[str, bool]] = set()
        for index in range(records.indexed):
            self._note_values([records.peek(index)[1]])
        for _, values in records.lines_matching(_RARE_KINDS):
            self._note_values(values)
        if self.first_cwd is None or self.first_model is None:
            for _, values in records.lines_matching(_CWD_OR_MODEL):
                self._note_values(values)
                if self.first_cwd is not None and self.first_model is not None:
                    break

    def _note_values(self, values: list[Any]) -> None:
        for value in values:
            record, _ = record_of(0, value)
            if record is not None:
                self.add(record)

    def saw_item(self, kind: str | None, payload: JSONObject) -> None:
        # What the pass met need not be searched for in the lines ahead.
        if kind in OUTPUT_TYPES:
            call_id = payload.get("call_id")
            if isinstance(call_id, str):
                self.answered.add(call_id)
        elif kind in CALL_TYPES:
            call_id = payload.get("call_id") or payload.get("id")
            if isinstance(call_id, str):
                self.called.add(call_id)
        elif kind == "message":
            role = payload.get("role")
            self.has_user_items |= role == "user"
            self.has_assistant_items |= role == "assistant"

    def user_items(self) -> bool:
        if not self.has_user_items:
            self._search_role("user")
        return self.has_user_items

    def assistant_items(self) -> bool:
        if not self.has_assistant_items:
            self._search_role("assistant")
        return self.has_assistant_items

    def _search_role(self, role: str) -> None:
        """Read the lines ahead that may hold a message of ``role`` until one does (once per role)."""
        if role in self._searched_roles:
            return
        self._searched_roles.add(role)
        needle = re.compile(rb'"role"\s*:\s*' + re.escape(_json_string(role)))
        for _, values in self._records.lines_matching(needle):
            self._note_values(values)
            if self.has_user_items if role == "user" else self.has_assistant_items:
                return

    def is_answered(self, call_id: str) -> bool:
        if call_id not in self.answered:
            self._search(call_id, self.answered)
        return call_id in self.answered

    def is_called(self, call_id: str) -> bool:
        if call_id not in self.called:
            self._search(call_id, self.called)
        return call_id in self.called

    def _search(self, call_id: str, found_in: set[str]) -> None:
        """Read the lines ahead that name ``call_id`` until ``found_in`` holds it (once per question)."""
        question = (call_id, found_in is self.answered)
        if question in self._searched_calls:
            return
        self._searched_calls.add(question)
        for _, values in self._records.lines_matching(_json_string(call_id)):
            self._note_values(values)
            if call_id in found_in:
                return


def _json_string(text: str) -> bytes:
    """``text`` as a JSON string literal, as a writer that escapes no more than it must writes it."""
    return json.dumps(text, ensure_ascii=False).encode("utf-8", "surrogatepass")
