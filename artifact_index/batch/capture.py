"""Running a command function with what it prints kept apart, per call.

Commands print to ``sys.stdout`` and ``sys.stderr``.  To run one per
transcript and collect each transcript's output, the standard streams are
replaced, while any thread captures, by proxies that write to the calling
thread's buffers while it is capturing and to the real stream otherwise.  Unlike
:func:`contextlib.redirect_stdout`, that stays right when a Dask worker runs
several tasks in threads at once.
"""

from __future__ import annotations

import io
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

__all__ = ["Captured", "capturing"]

_local = threading.local()
_lock = threading.Lock()


class _ThreadStream(io.TextIOBase):
    """A text stream that writes to the current thread's capture buffer, or to ``fallback``."""

    def __init__(self, fallback: TextIO, slot: str) -> None:
        self.fallback = fallback
        self._slot = slot

    def _target(self) -> TextIO:
        buffer: TextIO | None = getattr(_local, self._slot, None)
        return buffer if buffer is not None else self.fallback

    def write(self, text: str) -> int:
        return self._target().write(text)

    def flush(self) -> None:
        self._target().flush()

    def isatty(self) -> bool:
        return self._target().isatty()

    def writable(self) -> bool:
        return True


_capturing = 0  # threads inside a capturing block; the proxies are in place while it is not 0


def _enter() -> None:
    global _capturing
    with _lock:
        if _capturing == 0:
            sys.stdout = _ThreadStream(sys.stdout, "stdout")
            sys.stderr = _ThreadStream(sys.stderr, "stderr")
        _capturing += 1


def _leave() -> None:
    global _capturing
    with _lock:
        _capturing -= 1
        if _capturing == 0:
            for name in ("stdout", "stderr"):
                stream = getattr(sys, name)
                # Put back what was there, unless someone replaced the proxy meanwhile.
                if isinstance(stream, _ThreadStream):
                    setattr(sys, name, stream.fallback)


class Captured:
    """What one call printed: filled when its :func:`capturing` block ends."""

    stdout: str = ""
    stderr: str = ""


@contextmanager
def capturing() -> Iterator[Captured]:
    """Inside the block, this thread's prints go to the yielded :class:`Captured`."""
    captured = Captured()
    out, err = io.StringIO(), io.StringIO()
    _enter()
    _local.stdout, _local.stderr = out, err
    try:
        yield captured
    finally:
        _local.stdout = _local.stderr = None
        _leave()
        captured.stdout, captured.stderr = out.getvalue(), err.getvalue()
