"""A progress bar on standard error, drawn only when it is a terminal."""

from __future__ import annotations

import shutil
import sys
import time
from typing import TextIO

__all__ = ["Progress"]

_REDRAW_SECONDS = 0.1


class Progress:
    """``[#####.....] 45/197 transcripts  12.3/s``, redrawn in place as items finish."""

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
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self._started = time.monotonic()
        self._drawn = 0.0
        self._shown = False

    def advance(self) -> None:
        self.done += 1
        now = time.monotonic()
        if self.enabled and (now - self._drawn >= _REDRAW_SECONDS or self.done == self.total):
            self._drawn = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        rate = self.done / max(now - self._started, 1e-9)
        text = f" {self.done}/{self.total} {self.noun}  {rate:.1f}/s"
        width = max(10, min(40, shutil.get_terminal_size((80, 24)).columns - len(text) - 3))
        filled = width * self.done // max(self.total, 1)
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}]{text}")
        self.stream.flush()
        self._shown = True

    def clear(self) -> None:
        """Erase the bar, so a message can be printed on a clean line (it comes back on the next advance)."""
        if self._shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self._shown = False
