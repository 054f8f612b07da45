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
or has switched the collector off.  Asking whether it has
(:func:`gc.get_freeze_count`) walks every frozen object: in a command's own
process, which froze what it imported and then a loaded state, that walk
grew with the session (tens of milliseconds at 100 MB, at every step that
asks), so a process that freezes through :func:`freeze_for_process` is
known to have frozen objects without asking.  Garbage cycles among objects frozen
meanwhile are collected after the indexing, not during it.

:func:`collector_paused` switches the collector off for a short step that
only builds or reads a large structure: unpickling a kept index makes
millions of objects, and the full collections they set off would walk all
of them (and everything else alive) again and again, for no garbage; what
such a step built to keep is moved past the young collections afterwards.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import contextmanager
from typing import TypeVar

__all__ = [
    "collector_paused",
    "collector_spared",
    "collector_spared_in_steps",
    "freeze_for_process",
    "thaw_process",
]

T = TypeVar("T")

# Events between freezes: often enough that a full collection never walks
# much of the index, rarely enough that freezing costs nothing measurable.
_EVERY = 2000

# Set by freeze_for_process: the process has frozen objects for good (until thaw_process).
_frozen_for_process = False


def freeze_for_process() -> None:
    """Freeze everything the collector tracks, for the rest of the process (a command's own process).

    The steps of this module then know that the process has frozen objects
    without counting them.
    """
    global _frozen_for_process
    gc.freeze()
    _frozen_for_process = True


def thaw_process() -> None:
    """Give the collector back everything frozen (what :func:`freeze_for_process` froze included)."""
    global _frozen_for_process
    gc.unfreeze()
    _frozen_for_process = False


def _has_frozen() -> bool:
    return _frozen_for_process or gc.get_freeze_count() > 0


def collector_spared(items: Iterable[T]) -> Generator[T, None, None]:
    """``items`` handed on unchanged, with what was built while they were consumed frozen.

    Use it around the events fed to a tracker, and close it when done (or
    stopped): the collector sees everything again when it is closed.
    """
    if not gc.isenabled() or _has_frozen():
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
def collector_spared_in_steps() -> Iterator[Callable[[], None]]:
    """For work done a piece at a time (a long first read, a few megabytes at a time): each call of what it yields freezes what was built so far.

    Each piece is too short for :func:`collector_spared` to freeze anything,
    so the full collections of a first read of a long session walked the
    whole index as it grew (an eighth of a 100 MB session's first hook call).
    At the end the collector gets it all back, unless the process froze
    objects for good (:func:`freeze_for_process`): a command's own process
    ends with its answer, and keeps what it built frozen with them, as
    :func:`collector_paused` does.  A process that froze objects otherwise,
    or switched the collector off, is left alone.
    """
    if not gc.isenabled() or (not _frozen_for_process and gc.get_freeze_count() > 0):
        yield _no_step
        return
    try:
        yield gc.freeze
    finally:
        if not _frozen_for_process:
            gc.unfreeze()


def _no_step() -> None:
    return None


@contextmanager
def collector_paused(*, lasting: bool = False) -> Iterator[None]:
    """The cycle collector off inside the block (as it was after it); for steps that make no garbage cycles.

    ``lasting``: what the block builds is kept for the rest of the work (a
    saved state loaded to go on from).  Left in the youngest generation, the
    millions of objects a large state is made of would be walked by the
    next young collections (0.3 s of CPU after a 100 MB Codex session's
    state was loaded, more than a third of the load itself); they are moved
    past them instead, without a walk (see :func:`_age`).
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        if lasting:
            _age()
        gc.enable()


def _age() -> None:
    """Every object the collector tracks moved out of the young generations, without walking them.

    A process that froze objects of its own (a command's own process, which
    ends with its answer) has what it built frozen with them; any other gets
    it in the oldest generation, which a full collection still looks at.
    Both moves splice lists: their cost does not grow with the objects.
    """
    if _has_frozen():
        gc.freeze()
        return
    gc.freeze()
    gc.unfreeze()
