"""Many transcripts followed at once, each read only for what was appended since its last use.

The watcher, the MCP server and the HTTP API ask for the current index of
a transcript again and again; :class:`Followed` keeps a
:class:`~artifact_index.live.live_transcript.LiveTranscript` per file, so each
question costs only the new bytes.  Beyond ``limit`` files the least
recently used is dropped (and read whole again if asked for later).  One
lock guards it all: a server may ask from several threads.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from pathlib import Path

from artifact_index.live.live_transcript import LiveTranscript, Refresh

__all__ = ["Followed"]


class Followed:
    """Up to ``limit`` followed transcripts, by real path."""

    def __init__(self, limit: int = 64) -> None:
        self.limit = limit
        self._limit = limit
        self._live: OrderedDict[tuple[str, str | None], LiveTranscript] = OrderedDict()
        self.lock = threading.RLock()

    def refresh(
        self, path: str | Path, format: str | None = None
    ) -> tuple[LiveTranscript, Refresh]:
        """The transcript at ``path``, brought up to date, and what that took.

        Raises what :class:`LiveTranscript` raises (a missing file, an unknown
        ``format``); the caller should hold :attr:`lock` while it reads the index.
        """
        key = (os.path.realpath(path), format)
        with self.lock:
            live = self._live.pop(key, None) or LiveTranscript(key[0], format)
            refresh = live.refresh()
            self._live[key] = live
            while len(self._live) > self._limit:
                self._live.popitem(last=False)
            return live, refresh

    def adopt(self, live: LiveTranscript, format: str | None = None) -> None:
        """Follow ``live`` from where it was read to (a transcript indexed elsewhere, the catch-up's)."""
        key = (os.path.realpath(live.path), format)
        with self.lock:
            self._live.pop(key, None)
            self._live[key] = live
            while len(self._live) > self._limit:
                self._live.popitem(last=False)

    def drop(self, path: str | Path) -> None:
        """Forget ``path`` (its file was deleted)."""
        real = os.path.realpath(path)
        with self.lock:
            for key in [key for key in self._live if key[0] == real]:
                del self._live[key]
