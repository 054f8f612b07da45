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

:class:`Facts` answers the same questions for a rollout already in memory
(the JSON-document layout), from its records.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from artifact_index.ingestion.adapters.base import as_text
from artifact_index.ingestion.adapters.codex.records import Record, kind_of, normalize
from artifact_index.ingestion.source import Records

__all__ = ["CALL_TYPES", "OUTPUT_TYPES", "Facts", "LinesAhead"]

CALL_TYPES = {"function_call", "custom_tool_call", "local_shell_call"}
OUTPUT_TYPES = {"function_call_output", "custom_tool_call_output", "local_shell_call_output"}

_ENV_CWD = re.compile(r"<cwd>([^<]+)</cwd>")
# Lines that may hold a record of a rare kind, or the session's first cwd or model.
_RARE_KINDS = re.compile(rb'"(?:patch_apply_end|exec_command_end|user_message|compacted)"')
_CWD_OR_MODEL = re.compile(rb'cwd|"model"')


class Facts:
    """What the whole rollout says about its calls, messages and setting.

    Built from records already in memory, every answer is known at once.
    """

    def __init__(self, records: Iterable[Record] = ()) -> None:
        self.patch_ends: dict[str, dict[str, Any]] = {}
        self.exec_ends: dict[str, dict[str, Any]] = {}
        self.typed_user: set[str] = set()
        self.has_compacted = False
        self.first_cwd: str | None = None
        self.first_model: str | None = None
        self._answered: set[str] = set()
        self._called: set[str] = set()
        self._roles: set[str] = set()  # roles some response item message speaks for
        for record in records:
            self.note(record)

    def note(self, record: Record) -> None:
        """Learn what ``record`` says about the whole rollout."""
        p = record.payload
        kind = kind_of(p)
        if record.kind in ("session_meta", "turn_context"):
            if self.first_cwd is None and isinstance(p.get("cwd"), str) and p["cwd"]:
                self.first_cwd = p["cwd"]
            if self.first_model is None and isinstance(p.get("model"), str):
                self.first_model = p["model"]
        elif record.kind == "compacted":
            self.has_compacted = True
        elif record.kind == "event_msg":
            call_id = p.get("call_id")
            if kind == "patch_apply_end" and isinstance(call_id, str):
                self.patch_ends[call_id] = p
            elif kind == "exec_command_end" and isinstance(call_id, str):
                self.exec_ends[call_id] = p
            elif kind == "user_message" and isinstance(p.get("message"), str):
                self.typed_user.add(p["message"].strip())
        elif record.kind == "response_item":
            if kind == "message":
                role = p.get("role")
                if isinstance(role, str):
                    self._roles.add(role)
                if self.first_cwd is None and role == "user":
                    found = _ENV_CWD.search(as_text(p.get("content")))
                    if found:
                        self.first_cwd = found.group(1).strip()
            else:
                self.saw_item(kind, p)

    def saw_item(self, kind: str | None, payload: dict[str, Any]) -> None:
        """A call or output the reading pass met (it tells, so lines already read are not searched)."""
        if kind in OUTPUT_TYPES:
            call_id = payload.get("call_id")
            if isinstance(call_id, str):
                self._answered.add(call_id)
        elif kind in CALL_TYPES:
            call_id = payload.get("call_id") or payload.get("id")
            if isinstance(call_id, str):
                self._called.add(call_id)
        elif kind == "message":
            role = payload.get("role")
            if isinstance(role, str):
                self._roles.add(role)

    def has_items(self, role: str) -> bool:
        """Whether some response item is a message of ``role`` (then its events are echoes)."""
        return role in self._roles

    def answered(self, call_id: str) -> bool:
        """Whether some output answers ``call_id``."""
        return call_id in self._answered

    def called(self, call_id: str) -> bool:
        """Whether some call of the rollout has ``call_id``."""
        return call_id in self._called


class LinesAhead(Facts):
    """:class:`Facts` of a JSON-lines rollout, learned from the lines that can tell, each parsed once.

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
            normalized = normalize(value)
            if normalized is not None and normalized[0] != "ignored":
                self.note(Record(0, normalized[0], normalized[1], None))

    def has_items(self, role: str) -> bool:
        if role not in self._roles and role not in self._searched_roles:
            self._searched_roles.add(role)
            needle = re.compile(rb'"role"\s*:\s*' + re.escape(_json_string(role)))
            for _, values in self._records.lines_matching(needle):
                self._note_values(values)
                if role in self._roles:
                    break
        return role in self._roles

    def answered(self, call_id: str) -> bool:
        if call_id not in self._answered:
            self._search(call_id, self._answered)
        return call_id in self._answered

    def called(self, call_id: str) -> bool:
        if call_id not in self._called:
            self._search(call_id, self._called)
        return call_id in self._called

    def _search(self, call_id: str, found_in: set[str]) -> None:
        """Read the lines ahead that name ``call_id`` until ``found_in`` holds it (once per question)."""
        question = (call_id, found_in is self._answered)
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
