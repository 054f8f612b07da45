"""A tracker's state on disk that grows by each save's events instead of being rewritten whole.

A live session saved after every turn must not pay for the whole state each
time: at 100 MB of transcript the state is tens of megabytes, and redacting
and writing it costs seconds.  So a state is two files in a private
directory:

* ``<name>.json``, the *snapshot*: a whole tracker state
  (:meth:`~artifact_index.trail.index.ArtifactIndex.to_state`) with a
  *generation* number and the caller's extra fields, replaced atomically;
  the caller names the model of those fields (``SavedState(..., extra=Model)``,
  every field with a default), and gets them back validated as that model;
* ``<name>.journal.jsonl``, the *journal*: one line per save since the
  snapshot, ``{"generation", "events", "identities", "extra"}``, appended
  in one write
  (absent right after a snapshot).

:meth:`SavedState.save` appends the events fed since the last save;
:meth:`SavedState.load` resumes the snapshot and feeds the journal's events
again (the tracker is deterministic, so the state is the one that was
saved), each under the identity it had when first fed, so that feeding
stays idempotent although the journal holds the events redacted.  When the journal outgrows a bound (a 32nd of the snapshot, at
least 256 KiB: replaying it then costs about what rewriting the snapshot
saves), the save writes a new snapshot of the next generation and removes
the journal; journal lines of an older generation, left by a crash between
the two steps, are already in the snapshot and are skipped.

Both files are ``0600`` and redacted like every output
(:mod:`artifact_index.redaction`).  Nothing here locks: a caller shared
between processes holds :func:`~artifact_index.state_files.state_lock` on
the directory around load, feed and save.  A journal line that cannot be
read (a crash mid-write, an edited file) loses that save and the ones
after it: :meth:`SavedState.load` reports it in one sentence, keeps what
came before, writes a fresh snapshot of it and moves the damaged journal
aside.  A damaged snapshot raises :class:`~artifact_index.exceptions.StateError`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar, cast, overload

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from artifact_index.exceptions import StateError
from artifact_index.ingestion.events import Event
from artifact_index.redaction import redact_json
from artifact_index.state_files import append_private, write_atomically
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.tracker import Tracker, event_identity

__all__ = ["NoExtra", "Restored", "SavedState"]

_MIN_JOURNAL_BOUND = 256 * 1024
_SNAPSHOT_SHARE = 32  # the journal is rewritten into the snapshot past 1/32 of its size
_RESERVED = frozenset({"generation", "tracker"})
_EVENTS: TypeAdapter[list[Event]] = TypeAdapter(list[Event])


class NoExtra(BaseModel):
    """The extra fields of a caller that keeps none beside the tracker (any found are left as they are)."""

    model_config = ConfigDict(extra="ignore", frozen=True)


ExtraT = TypeVar("ExtraT", bound=BaseModel)


@dataclass
class Restored(Generic[ExtraT]):
    """What :meth:`SavedState.load` found: the tracker, the caller's extra fields, and any damage worked around."""

    tracker: Tracker
    extra: ExtraT
    problem: str | None = None  # one sentence, when part of the journal was lost


class SavedState(Generic[ExtraT]):
    """The snapshot and journal of one tracker in ``directory``, with the caller's ``extra`` fields."""

    @overload
    def __init__(
        self: SavedState[NoExtra], directory: str | os.PathLike[str], name: str = "tracker"
    ) -> None: ...
    @overload
    def __init__(
        self, directory: str | os.PathLike[str], name: str = "tracker", *, extra: type[ExtraT]
    ) -> None: ...
    def __init__(
        self,
        directory: str | os.PathLike[str],
        name: str = "tracker",
        *,
        extra: type[BaseModel] = NoExtra,
    ) -> None:
        # The overloads tie ``extra`` to ``ExtraT`` (``NoExtra`` when none is given).
        self._extra_model = cast("type[ExtraT]", extra)
        self.directory = Path(directory)
        self.snapshot = self.directory / f"{name}.json"
        self.journal = self.directory / f"{name}.journal.jsonl"
        self._generation = 0
        self._snapshot_bytes = 0
        self._journal_bytes = 0
        # The extra fields as saved, those the model does not name included: a save keeps them.
        self._extra: dict[str, object] = {}
        self._loaded = False

    def exists(self) -> bool:
        return self.snapshot.exists()

    # -- loading -------------------------------------------------------------------
    def load(self, *, format: str | None = None) -> Restored[ExtraT]:
        """The saved tracker (a new one with ``format`` when nothing is saved yet)."""
        self._loaded = True
        if not self.snapshot.exists():
            self._generation, self._snapshot_bytes, self._journal_bytes, self._extra = 0, 0, 0, {}
            return Restored(Tracker(format=format), self._extra_fields())
        tracker = self._load_snapshot()
        problem = self._replay_journal(tracker)
        if problem is not None:
            self._set_journal_aside()
            self.compact(tracker)
        return Restored(tracker, self._extra_fields(), problem)

    def _extra_fields(self) -> ExtraT:
        try:
            return self._extra_model.model_validate(self._extra)
        except ValidationError as exc:
            raise StateError(
                f"saved state {self.snapshot} holds extra fields that are not valid ({_reason(exc)})"
            ) from exc

    def _load_snapshot(self) -> Tracker:
        try:
            text = self.snapshot.read_text(encoding="utf-8")
            payload = json.loads(text)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise StateError(
                f"saved state {self.snapshot} cannot be read ({_reason(exc)})"
            ) from exc
        if not isinstance(payload, dict) or "tracker" not in payload:
            raise StateError(f"saved state {self.snapshot} is not a tracker snapshot")
        state = payload["tracker"]
        # Snapshots written before the journal existed hold the state as a JSON string.
        index = (
            ArtifactIndex.from_json(state)
            if isinstance(state, str)
            else ArtifactIndex.from_state(state)
        )
        generation = payload.get("generation", 0)
        self._generation = generation if isinstance(generation, int) else 0
        self._snapshot_bytes = len(text)
        self._journal_bytes = 0
        self._extra = {key: value for key, value in payload.items() if key not in _RESERVED}
        return Tracker(index)

    def _replay_journal(self, tracker: Tracker) -> str | None:
        """Feed the journal's events to ``tracker``; the sentence saying what was lost, if anything was."""
        try:
            data = self.journal.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            return self._lost(1, f"it cannot be read ({_reason(exc)})")
        self._journal_bytes = len(data)
        for number, line in enumerate(data.splitlines(), 1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                if not isinstance(entry, dict):
                    raise ValueError("not a JSON object")
                if entry.get("generation") != self._generation:
                    continue  # already in the snapshot: a compaction stopped before emptying the journal
                events = _EVENTS.validate_python(entry.get("events", []))
                identities = entry.get("identities", [])
                if (
                    not isinstance(identities, list)
                    or len(identities) != len(events)
                    or not all(isinstance(identity, str) for identity in identities)
                ):
                    raise ValueError("its event identities do not match its events")
                extra = entry.get("extra", {})
                if not isinstance(extra, dict):
                    raise ValueError("its extra fields are not a JSON object")
            except (UnicodeDecodeError, ValueError, ValidationError) as exc:
                return self._lost(number, _reason(exc))
            for event, identity in zip(events, identities, strict=True):
                tracker.feed(event, identity=identity)
            self._extra.update(extra)
        return None

    def _lost(self, line: int, reason: str) -> str:
        return (
            f"the journal of the saved state {self.journal} is damaged at line {line} ({reason}); "
            "the saves before it were kept and the state was rebuilt from them, the later ones are lost "
            f"(the damaged journal was moved to {self.journal.name}.damaged)"
        )

    def _set_journal_aside(self) -> None:
        try:
            os.replace(self.journal, self.journal.with_name(f"{self.journal.name}.damaged"))
        except OSError as exc:
            raise StateError(
                f"the damaged journal {self.journal} cannot be moved aside ({_reason(exc)})"
            ) from exc

    # -- saving ---------------------------------------------------------------------
    def save(self, tracker: Tracker, events: Sequence[Event], extra: ExtraT | None = None) -> None:
        """Record that ``tracker`` was fed ``events`` since the last save or load, with ``extra`` fields.

        Appends one journal line, or writes a new snapshot when there is none
        yet or the journal has outgrown its bound.
        """
        if not self._loaded and self.snapshot.exists():
            # The journal extends the snapshot the tracker was loaded from.
            raise StateError(f"saved state {self.snapshot} exists: load it before saving over it")
        fields = extra.model_dump(mode="json") if extra is not None else {}
        if _RESERVED & fields.keys():
            raise ValueError(f"extra fields may not be named {sorted(_RESERVED & fields.keys())}")
        self._extra.update(fields)
        if not self.snapshot.exists() or self._journal_bytes > self._journal_bound():
            self.compact(tracker)
            return
        # The identities are those of the events as fed: a redacted event is another event to the tracker,
        # and one sent again after a resume must still be known.
        entry = {
            "generation": self._generation,
            "events": [event.model_dump(mode="json") for event in events],
            "extra": fields,
        }
        line_data = {
            **redact_json(entry),
            "identities": [event_identity(event) for event in events],
        }
        line = (json.dumps(line_data, ensure_ascii=False) + "\n").encode("utf-8")
        append_private(self.journal, line)
        self._journal_bytes += len(line)

    def compact(self, tracker: Tracker) -> None:
        """Write ``tracker`` as the snapshot of a new generation and remove the journal."""
        generation = self._generation + 1
        text = json.dumps(
            {**self._extra, "generation": generation, "tracker": tracker.index.to_state()},
            sort_keys=True,
        )
        write_atomically(self.snapshot, text)
        self._loaded = True
        self._generation, self._snapshot_bytes = generation, len(text)
        # Lines left behind by a crash here belong to the older generation and are skipped.
        try:
            self.journal.unlink(missing_ok=True)
        except OSError as exc:
            raise StateError(
                f"the journal {self.journal} cannot be removed ({_reason(exc)})"
            ) from exc
        self._journal_bytes = 0

    def _journal_bound(self) -> int:
        return max(_MIN_JOURNAL_BOUND, self._snapshot_bytes // _SNAPSHOT_SHARE)


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        return str(exc.strerror or exc)
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        return f"{where}: {first['msg']}" if where else str(first["msg"])
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__
