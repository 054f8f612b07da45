"""Where paths point and what one analyzed command knows about files.

:class:`Files` answers "what is in this file" and "which files lie under
this directory" from the caller's :class:`ShellContext`, overlaid with what
the command itself has done so far (``cat > fix.py <<EOF ... EOF && python
fix.py`` must see the script it just wrote).  It also places paths: joined
with the effective working directory, normalized, and classified as a
workspace file, a scratch file in a temporary directory outside the
workspace (kept in the trail, which marks it as outside), an anonymous
``mktemp`` file whose random name means nothing, or a device
(``/dev/null``), which is no file at all.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from typing import Literal, Protocol

from artifact_index.ingestion.events import FileOperation
from artifact_index.lazy_pattern import lazy_pattern

__all__ = [
    "DEVICE_PREFIXES",
    "TEMP_ROOTS",
    "ComparedTree",
    "Files",
    "PathKind",
    "ShellContext",
    "home_for",
    "home_of",
    "join",
]


class ShellContext(Protocol):
    """What the caller (the tracker) knows about files before the command runs.

    Paths are passed in the form the analysis reports them: absolute when the
    working directory is known, else relative as written.  A context may also
    define ``is_directory(path) -> bool | None`` (True: a directory, False: an
    existing file, None: not known); it is used when present, e.g. to tell
    ``rm -r FILE`` from ``rm -r DIR`` and to see that ``touch`` hits a file
    whose content is unknown but which exists.  Likewise an optional
    ``existed_before(path) -> bool | None`` says whether a file predates the
    session (a lock file next to a manifest the session created is new).
    An optional ``listed_in(directory) -> list[str]`` gives the files a listing
    the session printed showed there (a glob expands over them too).
    An optional ``in_new_directory(path) -> bool`` says whether ``path`` lies
    in a directory the session made or emptied (so no file there predates it),
    and ``in_copied_tree(path) -> bool`` whether it lies in a tree the session
    copied into place, ``in_scaffolded_tree(path) -> bool`` in a folder it
    scaffolded a starter into.  An optional ``possibly_changed(path) -> str | None``
    gives the command that said it may change the file (``pnpm install`` and
    its lock), when no ``git status`` settled it since, and ``changed(path) ->
    bool`` whether the session changed the file (a build re-resolves the lock
    of a manifest it changed).  An optional ``listed_uncommitted() ->
    list[str]`` gives the files the latest ``git status`` listed as changed
    and not committed that the session did not change: a reset throws their
    changes away.
    An optional ``changed_by_sub_agent(path) -> str | None`` names the
    sub-agent run, whose own calls the transcript does not hold, that was
    asked to change the file (or said it did), when no call seen changed it.
    An optional ``home() -> str | None`` gives the home directory the session's files lie in,
    used for ``~`` and ``$HOME`` when no workspace is known.
    An optional ``put_back(path) -> bool`` says whether the session changed the file and put it
    back as it was (a later status listing it modified shows another change).
    And an optional ``compared_with(revision) -> ComparedTree | None`` gives
    the files an earlier ``git diff`` listed between HEAD and ``revision``,
    while HEAD has not moved since: what a switch to it changes.
    """

    def content_of(self, path: str) -> str | None:
        """The known content of a file, or None when it is unknown or the file does not exist."""
        ...

    def files_under(self, directory: str) -> list[str]:
        """Tracked files under ``directory`` (recursively), in the same path form."""
        ...


@dataclass(frozen=True)
class ComparedTree:
    """What switching from HEAD to another revision changes, as an earlier diff listed it.

    ``files``: (path from the repository's top, created / modified /
    deleted); ``complete``: False when the listing may leave files out.
    """

    files: tuple[tuple[str, str], ...]
    complete: bool


PathKind = Literal["workspace", "scratch", "anonymous", "device", "git"]

# Git's own bookkeeping inside a `.git` directory: its index, locks, refs and
# objects change with every git command and are no file of the project.  A
# hook or `info/exclude` the session writes there stays a file it changed.
_GIT_BOOKKEEPING = lazy_pattern(
    r"(?:^|/)\.git/(?:[^/]+\.lock$|index$|[A-Z_]*HEAD$|COMMIT_EDITMSG$|packed-refs$"
    r"|(?:refs|objects|logs|rebase-merge|rebase-apply|modules|worktrees)(?:/|$))"
)

# Temporary directories: what is written there lies outside the workspace.
TEMP_ROOTS = (
    "/tmp",
    "/var/tmp",
    "/private/tmp",
    "/private/var/tmp",
    "/var/folders",
    "/private/var/folders",
    "/dev/shm",
)
DEVICE_PREFIXES = ("/dev/", "/proc/")


_DRIVE = lazy_pattern(r"^[A-Za-z]:[\\/]")
# Windows' NUL device answers to `nul` in every directory, also from Git Bash (`2>nul`).
_WINDOWS_NUL = lazy_pattern(r"^(?:[A-Za-z]:[\\/]|/[A-Za-z]/).*[\\/]nul$", re.IGNORECASE)
_WINDOWS_TEMP = lazy_pattern(
    r"^[A-Za-z]:/(?:Users/[^/]+/AppData/Local/Temp|Windows/Temp)(?:/|$)", re.IGNORECASE
)


# A workspace under a user's home shows whose home it is: /Users/ana/..., /home/ana/..., C:/Users/ana/...
_HOME = lazy_pattern(r"^(?:/Users/(?!Shared/)[^/]+|/home/[^/]+|/root|[A-Za-z]:/Users/[^/]+)(?=/|$)")


def home_of(workspace: str | None) -> str | None:
    """The home directory a workspace lies in (``~`` and ``$HOME`` there), or None when it does not show one."""
    if not workspace:
        return None
    found = _HOME.match(workspace.replace("\\", "/"))
    return found.group(0) if found else None


def home_for(workspace: str | None, context: ShellContext | None) -> str | None:
    """The home directory of commands run for ``workspace``: the one it lies in.

    With no workspace known, the one the caller's files show (``context.home()``), if any.
    """
    if workspace:
        return home_of(workspace)
    probe = getattr(context, "home", None) if context is not None else None
    found = probe() if probe is not None else None
    return found if isinstance(found, str) else None


def join(cwd: str | None, path: str) -> str | None:
    """``path`` joined with ``cwd`` and normalized.

    ``cwd`` is an absolute directory, ``""`` when the starting directory is
    unknown (relative paths stay relative), or None when a ``cd`` went
    somewhere that cannot be resolved (relative paths cannot be placed).
    Paths under ``~`` cannot be placed either: the home directory is unknown.
    """
    if not path:
        return None
    if path.startswith("~"):
        return None
    if path.startswith("/"):
        return _normalize(path)
    if _DRIVE.match(path):  # Windows: D:/x or D:\\x (Git Bash, PowerShell)
        return path[:2] + _normalize(path[2:].replace("\\", "/") or "/")
    if cwd is None:
        return None
    if not cwd:
        return _normalize(path)
    return _normalize(posixpath.join(cwd, path))


def _normalize(path: str) -> str:
    normal = posixpath.normpath(path)
    if normal.startswith("//") and not normal.startswith("///"):
        normal = normal[1:]  # POSIX leaves a leading "//" alone; no agent means it
    return normal


def _under(path: str, root: str) -> bool:
    root = root.rstrip("/") or "/"
    return path == root or path.startswith(root + "/") or root == "/"


@dataclass
class Files:
    """The caller's context overlaid with this command's own effects."""

    context: ShellContext | None
    workspace: str | None
    written: dict[str, str | None] = field(default_factory=dict)  # path -> content (None: unknown)
    removed: set[str] = field(default_factory=set)
    directories: list[str] = field(default_factory=list)
    copied: list[str] = field(default_factory=list)  # trees a recursive copy made
    scaffolded: list[str] = field(default_factory=list)  # folders a starter was scaffolded into
    # Folders `git worktree add` checked a revision out into: their files predate the session.
    checked_out: list[str] = field(default_factory=list)
    scratch: dict[str, str] = field(default_factory=dict)
    anonymous: set[str] = field(default_factory=set)  # mktemp files and directories: random names
    cleared: list[str] = field(default_factory=list)  # directories removed with everything in them

    # -- classification -----------------------------------------------------

    def kind(self, path: str) -> PathKind:
        if _GIT_BOOKKEEPING.search(path):
            return "git"
        if path in ("/dev", "/proc") or path.startswith(DEVICE_PREFIXES):
            return "device"
        if _WINDOWS_NUL.match(path):
            return "device"
        if path in self.anonymous or any(path.startswith(a + "/") for a in self.anonymous):
            return "anonymous"
        if self.workspace and path.startswith("/") and _under(path, self.workspace):
            return "workspace"
        if path.startswith("/") and any(_under(path, root) for root in TEMP_ROOTS):
            return "scratch"
        if _WINDOWS_TEMP.match(path):
            return "scratch"
        return "workspace"

    # -- knowledge ----------------------------------------------------------

    def content_of(self, path: str) -> str | None:
        if path in self.removed:
            return None
        if path in self.written:
            return self.written[path]
        if path in self.scratch:
            return self.scratch[path]
        if self.context is None:
            return None
        return self.context.content_of(path)

    def known_file(self, path: str) -> bool:
        """True when the file is known to exist (written here, or its content is known)."""
        if path in self.removed:
            return False
        return path in self.written or self.content_of(path) is not None

    def exists(self, path: str) -> bool | None:
        """True when the file is known to exist now, False when known not to, None when nothing says."""
        if path in self.removed:
            return False
        if self.known_file(path) or self.is_directory(path) is False:
            return True
        return None

    def existed_before(self, path: str) -> bool | None:
        """Whether the file existed before the session, when the caller knows (``existed_before`` probe)."""
        answer = self._probe("existed_before", path)
        if isinstance(answer, bool):
            return answer
        return False if path in self.written else None  # this very command made it

    def compared_with(self, revision: str) -> ComparedTree | None:
        """The files an earlier diff listed between HEAD and ``revision`` (``compared_with`` probe)."""
        answer = self._probe("compared_with", revision)
        return answer if isinstance(answer, ComparedTree) else None

    def _probe(self, name: str, path: str) -> object:
        probe = getattr(self.context, name, None) if self.context is not None else None
        return probe(path) if callable(probe) else None

    def files_under(self, directory: str) -> list[str]:
        prefix = directory.rstrip("/") + "/"
        found: list[str] = []
        if self.context is not None:
            found.extend(self.context.files_under(directory.rstrip("/") or "/"))
        found.extend(p for p in self.written if p.startswith(prefix))
        seen: set[str] = set()
        out: list[str] = []
        for p in found:
            if p not in seen and p not in self.removed:
                seen.add(p)
                out.append(p)
        return out

    def is_directory(self, path: str) -> bool | None:
        """True / False when known; None when nothing says whether ``path`` is a directory."""
        if path.endswith("/"):
            return True
        path = path.rstrip("/") or "/"
        if path in self.directories or path == self.workspace:
            return True
        if self.known_file(path):
            return False
        probe = getattr(self.context, "is_directory", None) if self.context is not None else None
        if callable(probe):
            answer = probe(path)
            if isinstance(answer, bool):
                return answer
        if self.files_under(path):
            return True
        return None

    def listed_in(self, directory: str) -> list[str]:
        """Files a listing the session printed showed in ``directory`` (the context's optional ``listed_in``), less those removed since."""
        probe = getattr(self.context, "listed_in", None) if self.context is not None else None
        if not callable(probe):
            return []
        return [p for p in probe(directory) if isinstance(p, str) and p not in self.removed]

    def in_new_directory(self, path: str) -> bool:
        """Whether ``path`` lies in a directory made or emptied by this command or, as the context says, the session."""
        for made in (*self.directories, *self.cleared):
            root = made.rstrip("/")
            if path.startswith(root + "/"):
                return True
        probe = (
            getattr(self.context, "in_new_directory", None) if self.context is not None else None
        )
        return bool(probe(path)) if callable(probe) else False

    def in_copied_tree(self, path: str) -> bool:
        """Whether ``path`` lies in a tree this command or, as the context says, the session copied into place.

        Unlike a directory ``mkdir -p`` names, which may have been there
        already, a copied tree did not hold the files a listing shows now.
        """
        for tree in self.copied:
            if path.startswith(tree.rstrip("/") + "/"):
                return True
        probe = getattr(self.context, "in_copied_tree", None) if self.context is not None else None
        return bool(probe(path)) if callable(probe) else False

    def in_scaffolded_tree(self, path: str) -> bool:
        """Whether ``path`` lies in a folder this command or, as the context says, the session scaffolded a starter into.

        The folder may hold files from before (``create-next-app .``): only a
        file first seen after the scaffolder ran, which a listing shows new to
        git, is the starter's.
        """
        for tree in self.scaffolded:
            if path.startswith(tree.rstrip("/") + "/"):
                return True
        probe = (
            getattr(self.context, "in_scaffolded_tree", None) if self.context is not None else None
        )
        return bool(probe(path)) if callable(probe) else False

    def changed_here(self, path: str) -> bool:
        """Whether this command or, as the context says, the session changed the file."""
        if path in self.written or path in self.removed:
            return True
        probe = getattr(self.context, "changed", None) if self.context is not None else None
        return probe(path) is True if callable(probe) else False

    def listed_uncommitted(self) -> list[str]:
        """The files the latest ``git status`` listed as changed and uncommitted that the session did not change, as the context says."""
        probe = (
            getattr(self.context, "listed_uncommitted", None) if self.context is not None else None
        )
        answer = probe() if callable(probe) else None
        return [p for p in answer if isinstance(p, str)] if isinstance(answer, list) else []

    def changed_by_sub_agent(self, path: str) -> str | None:
        """The sub-agent run of the session, whose own calls are not seen, that may have changed ``path``, as the context says."""
        probe = (
            getattr(self.context, "changed_by_sub_agent", None)
            if self.context is not None
            else None
        )
        answer = probe(path) if callable(probe) else None
        return answer if isinstance(answer, str) else None

    def put_back(self, path: str) -> bool:
        """Whether the session changed the file and then put it back as it was, as the context says."""
        probe = getattr(self.context, "put_back", None) if self.context is not None else None
        return probe(path) is True if callable(probe) else False

    def possibly_changed(self, path: str) -> str | None:
        """The command of the session that said it may change ``path`` and was not settled since, as the context says."""
        probe = (
            getattr(self.context, "possibly_changed", None) if self.context is not None else None
        )
        answer = probe(path) if callable(probe) else None
        return answer if isinstance(answer, str) else None

    # -- this command's own effects ----------------------------------------

    def made_directory(self, path: str) -> None:
        if path not in self.directories:
            self.directories.append(path)

    def cleared_directory(self, path: str) -> None:
        if path not in self.cleared:
            self.cleared.append(path)

    def record(self, op: FileOperation) -> None:
        """Update the overlay after ``op`` (already placed, workspace or scratch)."""
        if op.path is None:
            return
        if op.action in ("write", "create"):
            self._wrote(op.path, op.content)
        elif op.action == "edit":
            self._wrote(op.path, _edited(self.content_of(op.path), op))
        elif op.action == "delete":
            self.written.pop(op.path, None)
            self.scratch.pop(op.path, None)
            self.removed.add(op.path)
        elif op.action in ("move", "copy") and op.dest:
            content = self.content_of(op.path)
            self._wrote(op.dest, content)
            if op.action == "move":
                self.written.pop(op.path, None)
                self.scratch.pop(op.path, None)
                self.removed.add(op.path)

    def _wrote(self, path: str, content: str | None) -> None:
        self.removed.discard(path)
        if self.kind(path) in ("scratch", "anonymous"):
            if content is None:
                self.scratch.pop(path, None)
            else:
                self.scratch[path] = content
            self.written[path] = content
            return
        self.written[path] = content


def _edited(before: str | None, op: FileOperation) -> str | None:
    """The text after an edit, when the edit says exactly what it did."""
    if before is None or op.new is None:
        return None
    if op.detail == "append":
        return before + op.new
    if op.old is not None and op.old in before:
        return (
            before.replace(op.old, op.new) if op.replace_all else before.replace(op.old, op.new, 1)
        )
    return None
