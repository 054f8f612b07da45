"""What the compaction hooks keep of a session between their runs, so that a run reads only what was appended.

Each hook run is a fresh process, and a session is compacted again and
again (``PreCompact``, then the ``SessionStart`` that follows it, then the
next compaction).  Reading the whole transcript each time costs what the
session has grown to; so each run keeps the session's followed transcript
(:class:`~artifact_index.live.live_transcript.LiveTranscript`: the tracker
with its index, the records held for a later line, the offset read up to)
and the next run of any hook on that transcript starts from it, reading the
bytes appended since; with it go the files' reports the run made
(:class:`~artifact_index.trail.file_reports.ReportCache`), so the next run
reports again only the files that changed.  A transcript rewritten, truncated or replaced by
another file (another inode, a shorter file, other bytes at its start or
before the offset) is read whole again, and so is one whose later lines
contradict what was read (see :mod:`artifact_index.ingestion.following`).

The transcript itself is the journal of what happened since a state was
kept: a state says how far it read (with the identity, head hash and guard
bytes that tell the same file grown from another one), so a run that
finds only a little appended since (at most :data:`UNSAVED_SHARE` of what
the state covers) reads it from there and leaves the state as it is,
rather than pay for writing the whole state again; once more than that
was appended, the run keeps its own.

A state is a pickle of that object, one file per transcript, named by a
hash of the transcript's real path, under ``hooks/`` in the user's state
directory.  The followed transcript is its own pickle at the end of the
file, after a short one of the code's version and the files' reports (with
its length before it), so a run unpickles it straight from the bytes read
rather than from a copy another pickle made of them (a tenth of a second at
100 MB, where the transcript's pickle is most of the file).  A state is:

* private: the directory is ``0700`` and the files ``0600``; a file not
  owned by the user or writable by others is never loaded (loading a
  pickle runs what it says), and one written by another version of this
  package is not used;
* bounded: at most :data:`KEPT_STATES` states, none unused for more than
  :data:`KEPT_FOR` seconds; each save removes the oldest beyond that;
* checked: the file starts with a checksum (CRC-32) of the rest, so a torn or
  damaged state (a crash mid-write, a disk error) is found before it is
  loaded, and the transcript is read whole instead;
* not redacted: it holds what the transcript next to it holds, as the
  tracker holds it (redacting it would cost more than reading the whole
  transcript and would change what later lines are read as), and it is
  never an output.

A state that cannot be read is a cache miss: the transcript is read whole.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import struct
import tempfile
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

import artifact_index
from artifact_index.live.live_transcript import LiveTranscript
from artifact_index.state_files import private_directory
from artifact_index.trail.collection import collector_paused
from artifact_index.trail.file_reports import ReportCache

__all__ = ["KEPT_FOR", "KEPT_STATES", "UNSAVED_SHARE", "HookStates", "worth_keeping"]

KEPT_STATES = 32
KEPT_FOR = 14 * 24 * 3600
# A run stopped at its deadline (or killed) while saving leaves its temporary file behind; one
# this old cannot belong to a run still writing it, since a run ends long before.
ABANDONED_AFTER = 15 * 60
_SUFFIX = ".pickle"
# What starts a state file: the format's name, then a digest of everything after it.
_MAGIC = b"artifact-index hook state 5\n"
_DIGEST_SIZE = 4
# After the digest: the length of the pickle of a _Saved, which the followed transcript's follows.
_LENGTH = struct.Struct(">Q")
# Bytes appended since the state was kept, as a share of the bytes it covers, that a run may read
# again from the transcript rather than keep a new state: writing a state costs about what reading
# that share of the transcript costs.
UNSAVED_SHARE = 1 / 64


def _digest(payload: bytes | memoryview) -> bytes:
    # A check against damage (a torn write, a disk error), not against a forger: a state anyone
    # else could have written is never loaded.  CRC-32 finds both, at a fifth of blake2b's cost
    # (which was a tenth of loading a 100 MB session's state).
    return zlib.crc32(payload).to_bytes(_DIGEST_SIZE, "big")


def worth_keeping(kept_at: int, read_up_to: int) -> bool:
    """Whether a run that found a state covering ``kept_at`` bytes and read up to ``read_up_to`` keeps its own.

    No state (``kept_at`` 0), or more appended since it than the next run
    should read again: keep it.  A transcript read again from its start
    (rewritten, truncated) is a new state too: the caller says so.
    """
    return kept_at <= 0 or read_up_to - kept_at > read_up_to * UNSAVED_SHARE


def _code_version() -> str:
    """This package's version and the size and time of each of its modules: a state outlives no change of the code."""
    modules: list[str] = []
    for root in (
        os.path.dirname(artifact_index.__file__),
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
    ):
        _list_modules(root, "", modules)
    digest = hashlib.blake2b(artifact_index.__version__.encode(), digest_size=16)
    for module in sorted(modules):
        digest.update(module.encode())
    return digest.hexdigest()


def _list_modules(folder: str, prefix: str, into: list[str]) -> None:
    """Each module under ``folder`` as ``relative/path.py:size:mtime``.

    Every hook run asks, so the walk is :func:`os.scandir`'s: a :class:`~pathlib.Path` walk
    costs about four times as much (4 ms), a share of a hook's start-up.
    """
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                _list_modules(entry.path, f"{prefix}{entry.name}/", into)
            elif entry.name.endswith(".py"):
                info = entry.stat()
                into.append(f"{prefix}{entry.name}:{info.st_size}:{info.st_mtime_ns}")


@dataclass
class _Saved:
    code: str
    reports: ReportCache | None = None  # its files' reports, as the last run made them


class HookStates:
    """The followed transcripts the hooks keep in ``directory`` (a private folder)."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        self._code: str | None = None

    @property
    def code(self) -> str:
        if self._code is None:
            self._code = _code_version()
        return self._code

    def path_of(self, transcript: str | os.PathLike[str]) -> Path:
        real = os.path.realpath(transcript)
        return self.directory / (hashlib.sha256(real.encode()).hexdigest()[:24] + _SUFFIX)

    def load(self, transcript: str | os.PathLike[str]) -> LiveTranscript:
        """The transcript as a previous run left it, or a new one when none was kept (or it is unusable)."""
        return self.load_kept(transcript)[0]

    def load_kept(self, transcript: str | os.PathLike[str]) -> tuple[LiveTranscript, ReportCache]:
        """:meth:`load`, with the files' reports the previous run kept (none for a new one)."""
        real = Path(os.path.realpath(transcript))
        saved = self._read(self.path_of(real))
        if saved is not None:
            live, reports = saved
            if live.path == real:
                return live, reports
        return LiveTranscript(real), ReportCache()

    def _read(self, target: Path) -> tuple[LiveTranscript, ReportCache] | None:
        try:
            with target.open("rb") as handle:
                info = os.fstat(handle.fileno())
                if info.st_uid != os.getuid() or info.st_mode & 0o022:
                    return None  # someone else could have written it
                data = handle.read()
            head = len(_MAGIC) + _DIGEST_SIZE
            payload = memoryview(data)[head:]
            if not data.startswith(_MAGIC) or data[len(_MAGIC) : head] != _digest(payload):
                raise ValueError("a torn or damaged state")
            (length,) = _LENGTH.unpack_from(payload)
            if length > len(payload) - _LENGTH.size:
                raise ValueError("a state shorter than its parts")
            with collector_paused(lasting=True):  # the run goes on from what is loaded
                saved = pickle.loads(payload[_LENGTH.size : _LENGTH.size + length])
                if not isinstance(saved, _Saved) or saved.code != self.code:
                    return None
                live = pickle.loads(payload[_LENGTH.size + length :])
        except FileNotFoundError:
            return None
        except Exception:  # a damaged or foreign state is a cache miss, never an error
            with contextlib.suppress(OSError):
                target.unlink()
            return None
        if not isinstance(live, LiveTranscript):
            return None
        reports = saved.reports if isinstance(saved.reports, ReportCache) else ReportCache()
        return live, reports

    @staticmethod
    def pickled(live: LiveTranscript) -> bytes:
        """``live`` as :meth:`save` keeps it: taken before the end of the file is read into it."""
        with collector_paused():
            return pickle.dumps(live, protocol=pickle.HIGHEST_PROTOCOL)

    def save(
        self,
        live: LiveTranscript,
        reports: ReportCache | None = None,
        *,
        pickled: bytes | None = None,
    ) -> None:
        """Keep ``live`` (as ``pickled``, when taken earlier) and its files' ``reports`` for the next run.

        The oldest states beyond the bounds go.
        """
        if pickled is None:
            pickled = self.pickled(live)
        folder = private_directory(self.directory)
        target = self.path_of(live.path)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
        try:
            with collector_paused():
                saved = pickle.dumps(_Saved(self.code, reports), protocol=pickle.HIGHEST_PROTOCOL)
            length = _LENGTH.pack(len(saved))
            digest = zlib.crc32(pickled, zlib.crc32(saved, zlib.crc32(length)))
            with os.fdopen(handle, "wb") as out:
                out.write(_MAGIC + digest.to_bytes(_DIGEST_SIZE, "big"))
                out.write(length)
                out.write(saved)
                out.write(pickled)
            os.chmod(temporary, 0o600)
            os.replace(temporary, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
        self._clean(keep=target)

    def used(self, live: LiveTranscript) -> None:
        """Mark the state kept of ``live`` as used now, when a run used it without keeping its own.

        The bounds count a state's age from its last use.
        """
        with contextlib.suppress(OSError):
            os.utime(self.path_of(live.path))

    def _clean(self, keep: Path) -> None:
        now = time.time()
        found: list[tuple[float, Path]] = []
        for path in self.directory.glob(f"*{_SUFFIX}"):
            with contextlib.suppress(OSError):
                found.append((path.stat().st_mtime, path))
        found.sort(reverse=True)
        for rank, (used, path) in enumerate(found):
            if path != keep and (rank >= KEPT_STATES or now - used > KEPT_FOR):
                with contextlib.suppress(OSError):
                    path.unlink()
        for temporary in self.directory.glob(f".*{_SUFFIX}.*.tmp"):
            with contextlib.suppress(OSError):
                if now - temporary.stat().st_mtime > ABANDONED_AFTER:
                    temporary.unlink()
