"""A progress bar on standard error, drawn only when it is a terminal."""

from __future__ import annotations

import shutil
import sys
import time
from typing import TextIO

__all__ = ["Progress"]

_REDRAW_SECONDS = 0.1


def _duration(seconds: float) -> str:
    minutes, seconds = divmod(int(seconds + 0.5), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


class Progress:
    """``[#####.....] 45/197 transcripts  12.3/s  ETA 0:13``, redrawn in place as items finish.

    When the items are the files of folders, whether each is a transcript is
    known only once it is read: the bar then counts the files and says how
    many of those read so far were transcripts
    (``[###.......] 120/313 files, 75 transcripts  ETA 0:42``).
    """

    def __init__(
        self,
        total: int,
        noun: str = "transcripts",
        stream: TextIO | None = None,
        enabled: bool | None = None,
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.total = total
        self.noun = noun
        self.done = 0
        self.transcripts = 0
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self._started = time.monotonic()
        self._drawn = 0.0
        self._shown = False

    def advance(self) -> None:
        """One item finished (in whatever order they finish)."""
        self.done += 1
        self._redraw()

    def found_transcript(self) -> None:
        """An item finished was a transcript (told as results come in order, so a little later)."""
        self.transcripts += 1
        self._redraw()

    def _redraw(self) -> None:
        now = time.monotonic()
        if self.enabled and (now - self._drawn >= _REDRAW_SECONDS or self.done == self.total):
            self._drawn = now
            self._draw(now)

    def text(self, now: float) -> str:
        """What the bar says after its ``[####....]``."""
        elapsed = max(now - self._started, 1e-9)
        rate = self.done / elapsed
        found = f", {self.transcripts} transcripts" if self.noun != "transcripts" else ""
        left = self.total - self.done
        eta = f"  ETA {_duration(left / rate)}" if left and self.done else ""
        return f" {self.done}/{self.total} {self.noun}{found}  {rate:.1f}/s{eta}"

    def _draw(self, now: float) -> None:
        text = self.text(now)
        width = max(10, min(40, shutil.get_terminal_size((80, 24)).columns - len(text) - 3))
        filled = width * self.done // max(self.total, 1)
        self.stream.write(f"\r\033[K[{'#' * filled}{'.' * (width - filled)}]{text}")
        self.stream.flush()
        self._shown = True

    def clear(self) -> None:
        """Erase the bar, so a message can be printed on a clean line (it comes back on the next advance)."""
        if self._shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self._shown = False
