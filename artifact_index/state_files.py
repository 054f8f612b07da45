"""Files that hold a session's state: private, written whole or not at all, one writer at a time.

Saved tracker states and compaction logs quote the session (redacted, see
:mod:`artifact_index.redaction`, but still nobody else's business), and
several processes may work on one state directory at once (an agent's hook
and a compaction, or a client compacting in parallel).  So:

* :func:`private_directory` creates the directory ``0700``;
* :func:`write_atomically` writes a ``0600`` temporary file next to the
  target, flushes it to disk and renames it over the target, so a reader
  sees the old content or the new, never half of one (a crash mid-write
  leaves the old file);
* :func:`append_private` appends to a ``0600`` file;
* :func:`state_lock` serializes the read-modify-write of a directory
  across processes with a lock file (``filelock``: ``flock`` on POSIX,
  ``LockFileEx`` on Windows), and gives up with one sentence after a timeout.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from filelock import FileLock, Timeout

from artifact_index.exceptions import StateError

__all__ = [
    "LOCK_NAME",
    "append_private",
    "private_directory",
    "private_key",
    "state_lock",
    "user_state_directory",
    "write_atomically",
]

LOCK_NAME = ".lock"
_PRIVATE_FILE = 0o600
_PRIVATE_DIRECTORY = 0o700


def user_state_directory() -> Path:
    """Where state lives when no ``--state-dir`` is given.

    ``$ARTIFACT_INDEX_STATE_HOME``, else ``$XDG_STATE_HOME/artifact-index``,
    else ``~/.local/state/artifact-index``.
    """
    explicit = os.environ.get("ARTIFACT_INDEX_STATE_HOME")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "artifact-index"


def private_key(path: str | os.PathLike[str], size: int = 32) -> bytes:
    """The random key in ``path`` (hex), created ``0600`` on first use; raises ``OSError`` or ``ValueError``.

    Creation is atomic and first-writer-wins (a complete temporary file is
    hard-linked into place), so concurrent processes agree on one key.
    """
    target = Path(path)
    folder = private_directory(target.parent)
    if not target.exists():
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="ascii") as out:
                out.write(os.urandom(size).hex() + "\n")
            with contextlib.suppress(FileExistsError):
                os.link(temporary, target)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
    key = bytes.fromhex(target.read_text(encoding="ascii").strip())
    if len(key) < 16:
        raise ValueError(f"the key in {target} is too short")
    return key


def private_directory(path: str | os.PathLike[str]) -> Path:
    """``path`` as a directory, created (with its parents) readable by its owner only."""
    folder = Path(path)
    try:
        folder.mkdir(mode=_PRIVATE_DIRECTORY, parents=True, exist_ok=True)
    except OSError as exc:
        raise StateError(
            f"state directory {folder} cannot be created ({exc.strerror or exc})"
        ) from exc
    if not folder.is_dir():
        raise StateError(f"state directory {folder} is not a directory")
    return folder


def write_atomically(path: str | os.PathLike[str], text: str) -> None:
    """Replace ``path`` with ``text`` in one step; the file is ``0600``."""
    target = Path(path)
    folder = private_directory(target.parent)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, _PRIVATE_FILE)
        os.replace(temporary, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise StateError(f"state file {target} cannot be written ({exc.strerror or exc})") from exc


def append_private(path: str | os.PathLike[str], data: bytes) -> None:
    """Append ``data`` to ``path``, creating it ``0600``; one ``write`` call, so lines never interleave."""
    target = Path(path)
    private_directory(target.parent)
    descriptor = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT, _PRIVATE_FILE)
    try:
        written = 0
        while written < len(data):
            written += os.write(descriptor, data[written:])
    finally:
        os.close(descriptor)


@contextlib.contextmanager
def state_lock(directory: str | os.PathLike[str], timeout: float = 120.0) -> Iterator[None]:
    """Hold the state directory's lock inside the block (other processes wait up to ``timeout`` seconds)."""
    folder = private_directory(directory)
    lock = FileLock(str(folder / LOCK_NAME), timeout=timeout, mode=_PRIVATE_FILE)
    try:
        lock.acquire()
    except Timeout as exc:
        raise StateError(
            f"state directory {folder} stayed locked by another process for {timeout:g} s; "
            "try again when it has finished"
        ) from exc
    try:
        yield
    finally:
        lock.release()
