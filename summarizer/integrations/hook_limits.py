"""The bounds a hook keeps: a deadline, a memory bound, and a bound on what it reads.

The host waits for the hook before it goes on (Claude Code and Codex kill it
after 60 s; the agent's user waits all that time), so a hook must answer in
time whatever the transcript: hundreds of megabytes, a FIFO that never
ends, a gzip bomb.  The work runs in a thread of its own
(:func:`answer_within`); when the deadline passes, the hook answers with
the best it has offered so far (the changed paths alone, say) and says so,
or with nothing and a one-line note, and the process ends without waiting
for the work.  Before that, reading stops early enough
(:attr:`Deadline.reading_over`) that the index of what was read can still
be rendered: the answer then covers the transcript up to that point, and
says so.

The limits come from the environment (:meth:`HookLimits.from_environment`),
so an installed hook's command line need not change to tune them::

    ARTIFACT_INDEX_HOOK_SECONDS   answer within this many seconds (default 20)
    ARTIFACT_INDEX_HOOK_MAX_MB    read at most this much of a transcript (default 256)
    ARTIFACT_INDEX_HOOK_MEMORY_MB how much heap the work may take, where the system enforces it (default 1024)
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import stat
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

from summarizer.exceptions import SummarizerError

__all__ = [
    "MEMORY_MB_VARIABLE",
    "Deadline",
    "HookLimits",
    "Offers",
    "answer_within",
    "check_regular_file",
    "limit_memory",
    "process_age",
    "read_bounded",
]

SECONDS_VARIABLE = "ARTIFACT_INDEX_HOOK_SECONDS"
MAX_MB_VARIABLE = "ARTIFACT_INDEX_HOOK_MAX_MB"
MEMORY_MB_VARIABLE = "ARTIFACT_INDEX_HOOK_MEMORY_MB"
# The share of the deadline spent reading: the rest renders what was read (the symbols of a
# large index cost more than reading it).
_READING_SHARE = 0.4
_MB = 2**20
# Seconds between two looks at the deadline while the work runs.
_LOOK_EVERY = 0.05
# The share of a process's deadline kept for what follows the answer: writing it, and the exit
# (a process that holds a large index takes a while to give its memory back); at most a second.
_ANSWER_SHARE = 0.05
_ANSWER_ROOM = 1.0


@dataclass(frozen=True)
class HookLimits:
    """How long a hook may take and how much it may read and hold."""

    seconds: float = 20.0
    transcript_bytes: int = 256 * _MB
    memory_bytes: int | None = 1024 * _MB  # how much more the process may take for the work
    input_bytes: int = 8 * _MB  # the hook input on standard input (a PostCompact summary is in it)

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> HookLimits:
        """The limits the environment sets; a value that is not a positive number keeps the default."""
        env = os.environ if environ is None else environ
        default = cls()

        def number(name: str) -> float | None:
            try:
                value = float(env.get(name, ""))
            except ValueError:
                return None
            return value if value > 0 and value != float("inf") else None

        seconds = number(SECONDS_VARIABLE)
        transcript = number(MAX_MB_VARIABLE)
        memory = number(MEMORY_MB_VARIABLE)
        return cls(
            seconds=seconds or default.seconds,
            transcript_bytes=int(transcript * _MB) if transcript else default.transcript_bytes,
            memory_bytes=int(memory * _MB) if memory else default.memory_bytes,
        )


class Deadline:
    """When the answer is due, ``seconds`` after the start; reading stops a while before (:attr:`reading_over`).

    The start is now, less ``spent``: the seconds of the budget already gone
    before the deadline was made.  The answer is due ``reserve`` seconds
    before the end, so that what comes after it still fits in.
    """

    def __init__(
        self,
        seconds: float,
        clock: Callable[[], float] = time.monotonic,
        *,
        spent: float = 0.0,
        reserve: float = 0.0,
    ) -> None:
        self.seconds = seconds
        self._clock = clock
        self._start = clock() - spent
        self._due = seconds - reserve

    @classmethod
    def of_process(
        cls,
        seconds: float,
        clock: Callable[[], float] = time.monotonic,
        age: Callable[[], float] | None = None,
    ) -> Deadline:
        """The deadline of a hook that is a process of its own: ``seconds`` from the process's start.

        The host's clock starts when it starts the process, so Python's
        start-up and the imports (a second or more on a loaded machine)
        count; and the answer is due a little before the end, so that
        writing it and exiting fit in too.  ``age`` says how long the
        process has run (by default :func:`process_age`).
        """
        spent = (age or process_age)()
        return cls(seconds, clock, spent=spent, reserve=min(_ANSWER_ROOM, seconds * _ANSWER_SHARE))

    def remaining(self) -> float:
        return max(0.0, self._start + self._due - self._clock())

    def passed(self) -> bool:
        return self.remaining() <= 0

    def reading_over(self) -> bool:
        """Whether reading must stop now, so that what was read can still be rendered in time."""
        return self._clock() - self._start >= self._due * _READING_SHARE


def process_age() -> float:
    """Seconds since this process started: from ``/proc`` where there is one (Linux).

    Elsewhere, the CPU time the process has used so far, which its start-up
    spent almost all on one thread: a lower bound of its age.
    """
    try:
        with open("/proc/self/stat", encoding="ascii") as file:
            stat_line = file.read()
        now = time.clock_gettime(time.CLOCK_BOOTTIME)
        return _age_from_stat(stat_line, now, os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, AttributeError, IndexError):
        return time.process_time()


def _age_from_stat(stat_line: str, since_boot: float, ticks_per_second: int) -> float:
    """A process's age from its ``/proc/<pid>/stat`` line, at ``since_boot`` seconds after boot."""
    # The command's name, in parentheses, may hold spaces: the fields are counted after it.
    fields = stat_line[stat_line.rindex(")") + 2 :].split()
    started = int(fields[19]) / ticks_per_second  # field 22, the start time, in clock ticks
    return max(0.0, since_boot - started)


T = TypeVar("T")


class Offers(Generic[T]):
    """The best answer the work has so far, for the deadline to fall back on (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._best: T | None = None

    def offer(self, answer: T) -> None:
        with self._lock:
            self._best = answer

    def best(self) -> T | None:
        with self._lock:
            return self._best


@dataclass(frozen=True)
class Within(Generic[T]):
    """What :func:`answer_within` got: the work's answer, else its best offer (``late``)."""

    answer: T | None
    late: bool  # the deadline passed first: ``answer`` is the best offer, the work still runs


def answer_within(work: Callable[[Offers[T]], T], deadline: Deadline) -> Within[T]:
    """``work``'s answer if it comes before ``deadline``, else the best it offered by then.

    The work runs in a daemon thread, so a read that blocks or a computation
    that runs long cannot hold the answer back; an exception in it is
    raised here.  Late, the thread is left running: the caller ends the
    process once the answer is out.
    """
    offers: Offers[T] = Offers()
    outcome: list[T] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            outcome.append(work(offers))
        except BaseException as exc:  # handed to the caller's thread
            failure.append(exc)

    # The caller's context goes along (``--no-redact`` is a context variable a new thread lacks).
    context = contextvars.copy_context()
    thread = threading.Thread(
        target=context.run, args=(run,), name="artifact-index-hook", daemon=True
    )
    thread.start()
    # In short steps, so the deadline's own clock decides (a test's clock need not be the wall's).
    while thread.is_alive() and not deadline.passed():
        thread.join(min(deadline.remaining(), _LOOK_EVERY))
    if thread.is_alive():
        return Within(offers.best(), late=True)
    if failure:
        raise failure[0]
    return Within(outcome[0], late=False)


def _data_in_use() -> int | None:
    """The process's data segment now (Linux's VmData), or None where the system does not say."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmData:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        return None
    return None


def limit_memory(extra: int | None) -> Callable[[], None]:
    """Let the process's data (heap) grow by ``extra`` bytes at most, where the system enforces it.

    Past it an allocation fails with ``MemoryError``, which the hook turns
    into a note, instead of the machine swapping for a transcript that
    decompresses to gigabytes.  Best effort: Linux only (the limit counts
    from what the process holds now).  Returns what restores the old limit.
    """
    nothing: Callable[[], None] = lambda: None  # noqa: E731
    if extra is None:
        return nothing
    try:
        import resource
    except ImportError:  # Windows
        return nothing
    in_use = _data_in_use()
    if in_use is None:
        return nothing
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
        limit = in_use + extra
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        if soft != resource.RLIM_INFINITY and soft <= limit:
            return nothing
        resource.setrlimit(resource.RLIMIT_DATA, (limit, hard))
    except (ValueError, OSError):
        return nothing

    def restore() -> None:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_DATA, (soft, hard))

    return restore


_KINDS = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a directory"),
)


def check_regular_file(path: Path) -> os.stat_result:
    """``path``'s status; anything but a regular file (a FIFO would block the read forever) is refused."""
    try:
        status = os.stat(path)
    except FileNotFoundError as exc:
        raise SummarizerError(f"{path}: no such file") from exc
    except OSError as exc:
        raise SummarizerError(f"{path} cannot be read ({exc.strerror or exc})") from exc
    if not stat.S_ISREG(status.st_mode):
        kind = next((name for test, name in _KINDS if test(status.st_mode)), "not a regular file")
        raise SummarizerError(f"{path} is {kind}, not a transcript file: not read")
    return status


def read_bounded(path: Path, limit: int) -> bytes:
    """The first ``limit`` bytes of the regular file ``path``, cut after its last whole line.

    Opened without blocking and checked again once open, so a FIFO put in
    the file's place meanwhile is refused too.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError as exc:
        raise SummarizerError(f"{path} cannot be read ({exc.strerror or exc})") from exc
    with os.fdopen(descriptor, "rb") as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            raise SummarizerError(f"{path} is not a regular file: not read")
        data = file.read(limit)
    end = data.rfind(b"\n")
    return data[: end + 1] if end >= 0 else data
