"""Keeping Python's cycle collector from walking the whole index again and again while it grows.

Python's cycle collector walks every container object it tracks each time it
runs a full collection.  While a long transcript is indexed the graph and the
tracker's state grow to millions of such objects, none of them garbage, and
the later in the session the more each full collection costs: at 100 MB it
was most of why an event near the end cost a third more than one near the
start.  :func:`collector_spared` moves what has been built so far out of the
collector's sight every few thousand events (``gc.freeze``) and gives it back
at the end (``gc.unfreeze``), so a collection only looks at what is new.

It leaves the collector alone when the process has frozen objects of its own
or has switched the collector off.  Garbage cycles among objects frozen
meanwhile are collected after the indexing, not during it.

:func:`collector_paused` switches the collector off for a short step that
only builds or reads a large structure: unpickling a kept index makes
millions of objects, and the full collections they set off would walk all
of them (and everything else alive) again and again, for no garbage.
"""

from __future__ import annotations

import gc
from collections.abc import Generator, Iterable, Iterator
from contextlib import contextmanager
from typing import TypeVar

__all__ = ["collector_paused", "collector_spared"]

T = TypeVar("T")

# Events between freezes: often enough that a full collection never walks
# much of the index, rarely enough that freezing costs nothing measurable.
_EVERY = 2000


def collector_spared(items: Iterable[T]) -> Generator[T, None, None]:
    """``items`` handed on unchanged, with what was built while they were consumed frozen.

    Use it around the events fed to a tracker, and close it when done (or
    stopped): the collector sees everything again when it is closed.
    """
    if gc.get_freeze_count() or not gc.isenabled():
        yield from items
        return
    try:
        for count, item in enumerate(items, start=1):
            yield item
            if count % _EVERY == 0:
                gc.freeze()
    finally:
        gc.unfreeze()


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cycle collector off inside the block (as it was after it); for steps that make no garbage cycles."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
