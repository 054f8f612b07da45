"""Path normalization: one key per file, whatever the transcript wrote.

Agents spell one file many ways: absolute, relative to a cwd that changed,
with ``./`` or ``..``, with Windows backslashes and drive letters.  The
tracker keys every file by :func:`file_key`: relative to the workspace root
when the file lies under it (POSIX separators), else absolute.
"""

from __future__ import annotations

import functools
import posixpath

from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["case_insensitive", "file_key", "is_absolute", "join", "key_under", "to_posix"]

_DRIVE = lazy_pattern(r"^[A-Za-z]:([\\/]|$)")
# A drive as Git Bash / MSYS spells it: /c/Users/... is C:/Users/...
_MSYS_DRIVE = lazy_pattern(r"^/([A-Za-z])(/|$)")


def case_insensitive(root: str | None) -> bool:
    """Whether the file system of a session with workspace ``root`` folds case by default.

    Windows (a drive letter, or Git Bash's ``/c/``) and macOS (a home
    under ``/Users/``) do; Linux does not, and without a root nothing is assumed.
    """
    if not root:
        return False
    root = to_posix(root)
    return bool(_DRIVE.match(root)) or root.startswith("/Users/")


def to_posix(path: str) -> str:
    """Backslashes to slashes, and a lower-case drive letter (Windows is case-insensitive there)."""
    path = path.replace("\\", "/")
    if _DRIVE.match(path):
        path = path[0].lower() + path[1:]
    return path


def is_absolute(path: str) -> bool:
    return path.startswith("/") or bool(_DRIVE.match(path)) or path.startswith("~")


def _normpath(path: str) -> str:
    drive = ""
    if _DRIVE.match(path):
        drive, path = path[:2], path[2:] or "/"
    normal = posixpath.normpath(path) if path else path
    if normal.startswith("//"):  # posixpath keeps a leading double slash; paths here never mean UNC
        normal = "/" + normal.lstrip("/")
    return drive + normal


def join(cwd: str | None, path: str) -> str:
    """``path`` resolved against ``cwd`` (when relative and cwd is known), normalized."""
    path = to_posix(path.strip())
    if cwd and not is_absolute(path):
        path = to_posix(cwd).rstrip("/") + "/" + path
    return _normpath(path) if path else path


# A session names the same few files, from the same few directories, again and again.
@functools.lru_cache(maxsize=8192)
def file_key(path: str, cwd: str | None, root: str | None) -> str:
    """The tracker's key for ``path`` seen while the shell was in ``cwd``."""
    full = join(cwd, path)
    if root:
        base = _normpath(to_posix(root)).rstrip("/")
        windows = bool(_DRIVE.match(base))
        if windows and (msys := _MSYS_DRIVE.match(full)):
            # Git Bash names the drive as a folder: one file, two spellings.
            full = f"{msys.group(1).lower()}:/{full[msys.end() :]}"
        candidate, prefix = (full.lower(), base.lower() + "/") if windows else (full, base + "/")
        if candidate.startswith(prefix):
            return full[len(prefix) :]
        if candidate == prefix[:-1]:
            return "."
    while full.startswith("./"):
        full = full[2:]
    return full


def key_under(key: str, directory_key: str) -> bool:
    """Whether the file keyed ``key`` lies in the directory keyed ``directory_key`` (``.``: the root)."""
    if directory_key == ".":
        return not is_absolute(key)
    return key.startswith(directory_key.rstrip("/") + "/")
