"""Files that hold a session's state: private, written whole or not at all, one writer at a time.

Saved tracker states and compaction logs quote the session (redacted, see
:mod:`artifact_index.redaction`, but still nobody else's business), and
several processes may work on one state directory at once (an agent's hook
and a compaction, or a client compacting in parallel).  So:

* :func:`private_directory` creates the directory, and every parent it has
  to create, ``0700`` whatever the umask (a directory that already exists
  is the user's choice and left as it is);
* :func:`write_atomically` writes a ``0600`` temporary file next to the
  target, flushes it to disk and renames it over the target, so a reader
  sees the old content or the new, never half of one (a crash mid-write
  leaves the old file);
* :func:`append_private` appends to a ``0600`` file;
* :func:`private_file` makes a file ``0600`` (created if missing, a looser
  mode tightened);
* :func:`state_lock` serializes the read-modify-write of a directory
  across processes with a lock file (``filelock``: ``flock`` on POSIX,
  ``LockFileEx`` on Windows), and gives up with one sentence after a timeout.

Every failure of the file system (no space left, a read-only directory, a
permission) is a :class:`~artifact_index.exceptions.StateError` that names
the file and the system's reason, never a bare ``OSError``.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

from artifact_index.exceptions import StateError

__all__ = [
    "LOCK_NAME",
    "append_private",
    "private_directory",
    "private_file",
    "private_key",
    "state_lock",
    "user_state_directory",
    "write_atomically",
]

LOCK_NAME = ".lock"
_PRIVATE_FILE = 0o600
_PRIVATE_DIRECTORY = 0o700


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


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
    """``path`` as a directory, created (with its missing parents) readable by its owner only."""
    folder = Path(path)
    missing: list[Path] = []
    probe = folder
    while not probe.exists() and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    try:
        # mkdir's mode is masked by the umask, and ``parents=True`` ignores it for the parents:
        # each directory made here is made, then set to 0700.
        for directory in reversed(missing):
            with contextlib.suppress(FileExistsError):  # another process made it meanwhile
                directory.mkdir(mode=_PRIVATE_DIRECTORY)
                os.chmod(directory, _PRIVATE_DIRECTORY)
    except OSError as exc:
        raise StateError(f"state directory {folder} cannot be created ({_reason(exc)})") from exc
    if not folder.is_dir():
        raise StateError(f"state directory {folder} is not a directory")
    return folder


def private_file(path: str | os.PathLike[str]) -> Path:
    """``path`` created if missing, and ``0600`` whatever the umask or the mode it had."""
    target = Path(path)
    try:
        # Non-blocking: opening a FIFO put in its place must not wait for a writer.
        descriptor = os.open(
            target, os.O_CREAT | os.O_RDONLY | getattr(os, "O_NONBLOCK", 0), _PRIVATE_FILE
        )
        try:
            if stat.S_IMODE(os.fstat(descriptor).st_mode) != _PRIVATE_FILE:
                # Through the descriptor, so a file swapped in meanwhile is not the one changed.
                if hasattr(os, "fchmod"):
                    os.fchmod(descriptor, _PRIVATE_FILE)
                else:  # Windows: only the read-only bit exists
                    os.chmod(target, _PRIVATE_FILE)
        finally:
            os.close(descriptor)
    except OSError as exc:
        raise StateError(f"{target} cannot be made private ({_reason(exc)})") from exc
    return target


def write_atomically(path: str | os.PathLike[str], text: str) -> None:
    """Replace ``path`` with ``text`` in one step; the file is ``0600``."""
    target = Path(path)
    folder = private_directory(target.parent)
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise StateError(f"state file {target} cannot be written ({_reason(exc)})") from exc
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
        raise StateError(f"state file {target} cannot be written ({_reason(exc)})") from exc


def append_private(path: str | os.PathLike[str], data: bytes) -> None:
    """Append ``data`` to ``path``, creating it ``0600``; one ``write`` call, so lines never interleave."""
    target = Path(path)
    private_directory(target.parent)
    try:
        descriptor = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT, _PRIVATE_FILE)
        try:
            written = 0
            while written < len(data):
                written += os.write(descriptor, data[written:])
        finally:
            os.close(descriptor)
    except OSError as exc:
        raise StateError(f"state file {target} cannot be written ({_reason(exc)})") from exc


@contextlib.contextmanager
def state_lock(directory: str | os.PathLike[str], timeout: float = 120.0) -> Iterator[None]:
    """Hold the state directory's lock inside the block (other processes wait up to ``timeout`` seconds)."""
    # Imported here: filelock's import chain costs a hook, which never locks, a tenth of its start-up.
    from filelock import FileLock, Timeout

    folder = private_directory(directory)
    lock = FileLock(str(folder / LOCK_NAME), timeout=timeout, mode=_PRIVATE_FILE)
    try:
        lock.acquire()
    except Timeout as exc:
        raise StateError(
            f"state directory {folder} stayed locked by another process for {timeout:g} s; "
            "try again when it has finished"
        ) from exc
    except OSError as exc:  # a read-only directory, no space for the lock file
        raise StateError(
            f"state directory {folder} cannot be locked ({_reason(exc)}): it must be writable"
        ) from exc
    try:
        yield
    finally:
        lock.release()
