"""``artifact-index watch``: keep the session store current while agents write their transcripts.

First every transcript under the watched paths that changed since it was
stored is indexed (in parallel, like ``artifact-index store``).  Then each
change the file system reports (through :mod:`watchfiles`) is read by the
file's :class:`~artifact_index.live.live_transcript.LiveTranscript`, which reads only
the new bytes, and the store's record of that session is updated: only
the rows of the files, errors and test runs that changed are made again
(:class:`~artifact_index.live.record.KeptRows`) and written.  A new
file in a watched folder is followed from its first line; it joins the
store once its format is recognized.  A deleted transcript stays in the
store: sessions are history.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from artifact_index.batch.discovery import Candidate, expand
from artifact_index.batch.runner import run_in_order
from artifact_index.exceptions import ArtifactIndexError, UnreadableInput
from artifact_index.live.followed_transcripts import Followed
from artifact_index.live.indexing import index_to_follow
from artifact_index.live.live_transcript import LiveTranscript
from artifact_index.live.record import KeptRows, SessionRecord, session_record
from artifact_index.live.store import SessionStore

__all__ = ["Update", "Watcher"]

# Transcripts followed at once (see Followed).
_FOLLOWED = 64
_SKIPPED_FOLDERS = ("node_modules", "__pycache__")


@dataclass(frozen=True)
class Update:
    """What happened to one transcript."""

    transcript: str
    kind: Literal["stored", "unchanged", "failed"]
    record: SessionRecord | None = None
    new_events: int = 0
    rebuilt: bool = False
    message: str | None = None


class Watcher:
    """Follows the transcripts under ``paths`` (files or folders) into ``store``."""

    def __init__(
        self,
        paths: Sequence[str],
        store: SessionStore,
        *,
        format: str | None = None,
        followed: int = _FOLLOWED,
    ) -> None:
        if not paths:
            raise ArtifactIndexError("watch needs a transcript or a folder")
        for path in paths:
            if not os.path.exists(path):
                raise UnreadableInput(f"{path}: no such file or folder")
        self.store = store
        self.format = format
        self._files = {os.path.realpath(p) for p in paths if not os.path.isdir(p)}
        self._folders = [os.path.realpath(p) for p in paths if os.path.isdir(p)]
        self._arguments = list(paths)
        self._followed = Followed(followed)
        # Per followed transcript, the rows of its last record (with the LiveTranscript they were
        # made from: a transcript read anew starts over), at most as many as are followed.
        self._rows: OrderedDict[str, tuple[LiveTranscript, KeptRows]] = OrderedDict()

    # -- the first pass ---------------------------------------------------------------
    def stale(self, *, force: bool = False) -> tuple[list[Candidate], int]:
        """The transcripts that changed since they were stored (all with ``force``), and how many did not."""
        candidates = expand(self._arguments)
        stale = [c for c in candidates if force or self._stale(c.path)]
        return stale, len(candidates) - len(stale)

    def catch_up(
        self,
        candidates: Sequence[Candidate],
        executor: Executor,
        workers: int,
        on_done: Callable[[], None] | None = None,
        *,
        follow: bool = True,
    ) -> Iterator[Update]:
        """Index ``candidates`` (see :meth:`stale`) into the store.

        With ``follow`` (a watch), the most recently written ones are followed
        from here on: their index is kept, so their next change reads only what
        it appended.  Without it (a one-off ``store``), each is read whole, and
        its record says everything in it, the records that would wait for a
        later line included.
        """
        for candidate, indexed in run_in_order(
            index_to_follow,
            candidates,
            executor,
            extra=(self.format, self._most_recent(candidates) if follow else frozenset()),
            workers=workers,
            on_done=on_done,
        ):
            if indexed.live is not None:
                self._followed.adopt(indexed.live, self.format)
                if indexed.rows is not None:
                    self._keep_rows(indexed.live, indexed.rows)
            if indexed.record is not None:
                self.store.save(indexed.record)
                yield Update(candidate.path, "stored", indexed.record, indexed.record.events)
            elif indexed.kind == "failed":
                yield Update(candidate.path, "failed", message=indexed.message)

    def _most_recent(self, candidates: Sequence[Candidate]) -> frozenset[str]:
        """The paths of the candidates written last, as many as are followed at once."""

        def written(candidate: Candidate) -> float:
            try:
                return os.stat(candidate.path).st_mtime
            except OSError:
                return 0.0

        recent = sorted(candidates, key=written, reverse=True)[: self._followed.limit]
        return frozenset(c.path for c in recent)

    def _stale(self, path: str) -> bool:
        try:
            stat = os.stat(path)
        except OSError:
            return True  # indexing will say why
        return self.store.stamp(path) != (stat.st_size, stat.st_mtime_ns)

    # -- following --------------------------------------------------------------------
    def watched(self, path: str) -> bool:
        """Whether a changed ``path`` is one of the watched transcripts (named, or in a watched folder)."""
        real = os.path.realpath(path)
        if real in self._files:
            return True
        for folder in self._folders:
            if real.startswith(folder.rstrip(os.sep) + os.sep):
                parts = Path(real).relative_to(folder).parts
                return not any(part.startswith(".") or part in _SKIPPED_FOLDERS for part in parts)
        return False

    def changed(self, path: str) -> Update | None:
        """Read what was appended to ``path``; its new record, or None while its format is unknown."""
        real = os.path.realpath(path)
        if not os.path.isfile(real):
            return None  # gone meanwhile: the deletion is its own change
        try:
            with self._followed.lock:
                live, refresh = self._followed.refresh(real, self.format)
                stat = os.stat(real)
                if live.format is None:
                    return None
                if not refresh.new_events and not refresh.rebuilt:
                    return Update(path, "unchanged")
                rows = self._rows_of(live, rebuilt=refresh.rebuilt)
                record = session_record(real, live.index, live.tally, len(live.skipped), stat, rows)
        except (ArtifactIndexError, OSError) as exc:
            return Update(path, "failed", message=str(exc))
        self.store.save(record)
        return Update(path, "stored", record, refresh.new_events, refresh.rebuilt)

    def _rows_of(self, live: LiveTranscript, *, rebuilt: bool) -> KeptRows:
        """The rows of the last record made of ``live`` (none after a rebuild, or of another reading)."""
        key = os.path.realpath(live.path)
        kept = self._rows.pop(key, None)
        rows = kept[1] if kept is not None and kept[0] is live and not rebuilt else KeptRows()
        self._keep_rows(live, rows)
        return rows

    def _keep_rows(self, live: LiveTranscript, rows: KeptRows) -> None:
        key = os.path.realpath(live.path)
        self._rows.pop(key, None)
        self._rows[key] = (live, rows)
        while len(self._rows) > self._followed.limit:
            self._rows.popitem(last=False)

    def gone(self, path: str) -> None:
        self._followed.drop(path)
        self._rows.pop(os.path.realpath(path), None)

    def follow(self, stop: Any = None, *, debounce_ms: int = 200) -> Iterator[Update]:
        """Updates as the watched transcripts change, until ``stop`` (a ``threading.Event``) is set or Ctrl-C."""
        import watchfiles

        roots = sorted({*self._folders, *(os.path.dirname(f) for f in self._files)})
        for changes in watchfiles.watch(
            *roots,
            watch_filter=lambda _change, path: self.watched(path),
            debounce=debounce_ms,
            step=50,
            stop_event=stop,
            raise_interrupt=False,
        ):
            # Several changes of one file arrive together (added, then modified): what counts is its state now.
            for path in sorted({path for _change, path in changes}):
                if not os.path.isfile(path):
                    self.gone(path)
                    continue
                update = self.changed(path)
                if update is not None and update.kind != "unchanged":
                    yield update
