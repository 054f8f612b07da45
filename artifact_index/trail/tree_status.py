"""What ``git status`` and ``git diff --stat`` printed about the working tree: the files changed and not committed.

The trail knows what the session did to each file; it cannot see a branch
switched under it with the work left behind, a ``git stash`` of changes it
did not follow, or a reset by someone else.  A ``git status`` printed after
a file's last change in the trail is the truth about that file: listed, it
is changed and not committed; not listed, it is not (committed, reverted,
or left on another branch).  :func:`observed_status` reads one such output
into a :class:`TreeStatus`:

* ``git status`` in its long form (``modified:   a.go``, ``new file:``,
  ``deleted:``, ``renamed: a -> b``, the untracked files), ``-s``/``--short``
  and ``--porcelain`` (v1);
* ``git diff --stat`` / ``--name-only`` / ``--name-status`` / ``--numstat``
  against the index or ``HEAD``.  A diff never shows untracked files, and
  against the index not the staged ones: ``untracked_shown`` is False, and
  the caller takes it only when nothing is staged.

Only an output that can be told apart is read: a step piped into ``head``
or ``grep``, written to a file, given a pathspec this module does not place,
or printing beside other programs whose lines could pass for its own, gives
``None``, and the caller keeps what the trail says.  Paths are given as
written, placed against the directory git ran in (``--porcelain`` against
the repository's top, taken to be the workspace); ``scope`` holds the
pathspecs the output was limited to.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from artifact_index.ingestion.git_quoting import unquote_git_path
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.listing import SimpleCommand

__all__ = ["ComparedRevision", "ListedFile", "TreeStatus", "compared_revision", "observed_status"]


@dataclass(frozen=True)
class ListedFile:
    path: str  # as git printed it
    state: str  # modified, added, deleted, renamed, untracked, conflicted, changed
    staged: bool = False  # a status listed its change as staged ("Changes to be committed")


@dataclass
class TreeStatus:
    """The files one ``git status`` or ``git diff`` listed as changed, and what it could have shown."""

    command: str  # "git status", "git diff --stat"
    files: list[ListedFile] = field(default_factory=list)
    relative_to_top: bool = (
        False  # --porcelain prints paths from the repository's top, not the directory
    )
    untracked_shown: bool = True  # False: a new, untracked file would not be listed
    staged_shown: bool = True  # False: a diff against the index does not show what is staged
    scope: list[str] = field(
        default_factory=list
    )  # the pathspecs it was limited to; empty: the whole tree


_LONG_STATES = {
    "modified": "modified",
    "new file": "added",
    "deleted": "deleted",
    "renamed": "renamed",
    "copied": "added",
    "typechange": "modified",
    "both modified": "conflicted",
    "both added": "conflicted",
    "deleted by us": "conflicted",
    "deleted by them": "conflicted",
    "added by us": "conflicted",
    "added by them": "conflicted",
    "both deleted": "conflicted",
}
# Git indents with a tab; some harnesses print it as spaces.
_LONG_LINE = lazy_pattern(r"^(?:\t|[ ]{2,})(?P<state>[a-z ]+):\s+(?P<path>\S.*?)\s*$")
_SECTIONS = (
    "Changes to be committed:",
    "Changes not staged for commit:",
    "Untracked files:",
    "Unmerged paths:",
)
_LONG_MARKERS = (
    "On branch ",
    "HEAD detached",
    "nothing to commit",
    "Changes to be committed:",
    "Changes not staged for commit:",
    "Untracked files:",
    "Not currently on any branch",
)
_SECTION_END = lazy_pattern(r"^\S")
_SHORT_LINE = lazy_pattern(r"^(?P<xy>[ MADRCUT?!]{2}) (?P<path>\S.*?)\s*$")
_STAT_LINE = lazy_pattern(r"^ (?P<path>\S.*?)\s+\|\s+(?:\d+|Bin\b)")
_STAT_TOTAL = lazy_pattern(r"^ \d+ files? changed")
_NAME_STATUS = lazy_pattern(r"^(?P<code>[MADRCTU])\d*\t(?P<path>[^\t]+)(?:\t(?P<dest>[^\t]+))?$")
_NUMSTAT = lazy_pattern(r"^(?:\d+|-)\t(?:\d+|-)\t(?P<path>.+)$")
_DIFF_SHAPES = ("--stat", "--name-only", "--name-status", "--numstat", "--shortstat")
_SHORT_STATES = {
    "M": "modified",
    "T": "modified",
    "A": "added",
    "D": "deleted",
    "R": "renamed",
    "C": "added",
    "U": "conflicted",
    "?": "untracked",
}
# Steps that may run beside a status in one command without printing lines that read as its own.
_QUIET = frozenset({"cd", "pushd", "popd", "true"})
_HEAD_NAMES = frozenset({"HEAD", "@", ""})
# What a switch from HEAD to the other revision does to a file a diff listed, by the diff's
# direction: read from the other revision to HEAD, a file added on HEAD goes away.
_TOWARD_OTHER = {"added": "created", "deleted": "deleted", "modified": "modified"}
_FROM_OTHER = {"added": "deleted", "deleted": "created", "modified": "modified"}
_GIT_BESIDE = frozenset(
    {"status", "diff", "add", "log", "branch", "rev-parse", "fetch", "stash", "checkout", "switch"}
)


@dataclass
class ComparedRevision:
    """The files a ``git diff`` listed as differing between HEAD and another revision.

    ``files``: (path from the repository's top, what switching from HEAD to
    ``other`` does to it: created, modified or deleted).  ``complete`` is
    False when the listing may leave files out: ``other...HEAD`` shows only
    HEAD's side since the merge base, and ``--stat`` shortens long paths.
    """

    other: str
    files: list[tuple[str, str]] = field(default_factory=list)
    complete: bool = True


def compared_revision(
    step: SimpleCommand, sub: str | None, args: list[str | None], beside: list[str], output: str
) -> ComparedRevision | None:
    """What a successful ``git diff --stat|--name-only|--name-status|--numstat A B`` listed, when one side is HEAD.

    ``A...B``, ``A..B`` and ``A B`` are read; a pathspec, a filter, the
    working tree (one revision) or output shared with other printing steps
    gives None.
    """
    if sub != "diff" or step.piped or step.stdout is not None or any(a is None for a in args):
        return None
    if any(b.split(" ", 1)[0] not in _QUIET for b in beside):
        return None  # another step's lines could read as the listing's
    words = [a for a in args if a is not None]
    shape = next((a for a in words if a in _DIFF_SHAPES), None)
    options = [a for a in words if _is_option(a)]
    if shape is None or shape == "--shortstat" or "--" in words:
        return None
    if any(a not in _DIFF_SHAPES and a not in ("--no-color", "--color=never") for a in options):
        return None  # -R, --diff-filter, --relative, -M...: not the plain listing of both trees
    revisions = [a for a in words if not _is_option(a)]
    if len(revisions) == 1 and ("..." in revisions[0] or ".." in revisions[0]):
        symmetric = "..." in revisions[0]
        left, _, right = revisions[0].partition("..." if symmetric else "..")
    elif len(revisions) == 2:
        symmetric = False
        left, right = revisions
    else:
        return None
    if right in _HEAD_NAMES and left not in _HEAD_NAMES:
        other, effects = left, _FROM_OTHER
    elif left in _HEAD_NAMES and right not in _HEAD_NAMES:
        other, effects = right, _TOWARD_OTHER
    else:
        return None
    compared = ComparedRevision(other, complete=not symmetric)
    renamed: set[str] = set()
    if shape in ("--stat", "--numstat"):
        line_shape = _STAT_LINE if shape == "--stat" else _NUMSTAT
        lines = _indent_restored(output, _STAT_LOST) if shape == "--stat" else output.splitlines()
        for line in lines:
            found = line_shape.match(line)
            if found and " => " in found["path"]:
                renamed.update(_renamed(found["path"]))
    for listed in _diff_listing(output, shape):
        effect = effects.get(listed.state) if listed.state != "changed" else "modified"
        if effect is None or listed.path in renamed or listed.path.startswith(".../"):
            compared.complete = False  # a rename, or a path git shortened: not named here
            continue
        compared.files.append((listed.path, effect))
    return compared


def _renamed(path: str) -> list[str]:
    """``a -> b`` / ``{old => new}/x`` as the paths on both sides."""
    if " -> " in path:
        return [unquote_git_path(p.strip()) for p in path.split(" -> ", 1)]
    path = unquote_git_path(path.strip())
    braces = re.match(r"^(?P<head>.*)\{(?P<old>[^{}]*) => (?P<new>[^{}]*)\}(?P<tail>.*)$", path)
    if braces:
        return [
            re.sub(r"/+", "/", f"{braces['head']}{side}{braces['tail']}").strip("/")
            for side in (braces["old"], braces["new"])
        ]
    if " => " in path:
        return [p.strip() for p in path.split(" => ", 1)]
    return [path]


def _long_form(output: str) -> list[ListedFile] | None:
    """The files of a long ``git status``; None when a section it opened shows no file this reader could read."""
    if not any(marker in output for marker in _LONG_MARKERS):
        return None
    files: list[ListedFile] = []
    section: str | None = None
    counts: dict[str, int] = {}
    for line in output.splitlines():
        if line.strip() in _SECTIONS:
            section = line.strip()
            counts.setdefault(section, 0)
            continue
        if section is None:
            continue
        if line.strip() and _SECTION_END.match(line):
            section = None
            continue
        stripped = line.strip()
        if not stripped or stripped.startswith("("):
            continue  # the hints git prints under each heading
        found = _LONG_LINE.match(line) if section != "Untracked files:" else None
        if found and found["state"] in _LONG_STATES:
            state = _LONG_STATES[found["state"]]
            staged = section == "Changes to be committed:"
            files += [ListedFile(p, state, staged) for p in _renamed(found["path"])]
            counts[section] += 1
        elif section == "Untracked files:" and line[:1] in ("\t", " "):
            files.append(ListedFile(unquote_git_path(stripped), "untracked"))
            counts[section] += 1
    if any(n == 0 for n in counts.values()):
        return None  # a heading with nothing under it that reads as a file: a shape this reader does not know
    return files


def _indent_restored(output: str, lost: re.Pattern[str]) -> list[str]:
    """The output's lines, the first given back the space a harness stripped from the start of the output
    (" M a.py" shown as "M a.py", " a.py | 3 +" as "a.py | 3 +"): git wrote it like the rest."""
    lines = output.splitlines()
    if lines and lost.match(lines[0]):
        lines[0] = " " + lines[0]
    return lines


# A first line that lost its leading space: a short status's " M a.py", a diffstat's " a.py | 3 +".
_SHORT_LOST = lazy_pattern(r"^[MADRCUT] \S")
_STAT_LOST = lazy_pattern(r"^[^\s|][^|]*?\s+\|\s+(?:\d+|Bin\b)")


def _short_form(output: str) -> list[ListedFile]:
    files: list[ListedFile] = []
    for line in _indent_restored(output, _SHORT_LOST):
        found = _SHORT_LINE.match(line)
        if found is None or found["xy"] == "!!":
            continue
        code = next((c for c in found["xy"] if c != " "), "M")
        staged = found["xy"][0] not in " ?"  # the first column is the index's
        files += [
            ListedFile(p, _SHORT_STATES.get(code, "changed"), staged)
            for p in _renamed(found["path"])
        ]
    return files


def _diff_listing(output: str, shape: str) -> list[ListedFile]:
    files: list[ListedFile] = []
    for line in _indent_restored(output, _STAT_LOST) if shape == "--stat" else output.splitlines():
        if shape == "--stat":
            found = _STAT_LINE.match(line)
            if found and not _STAT_TOTAL.match(line):
                files += [ListedFile(p, "changed") for p in _renamed(found["path"])]
        elif shape == "--name-status":
            status = _NAME_STATUS.match(line)
            if status:
                files += [
                    ListedFile(unquote_git_path(p), _SHORT_STATES.get(status["code"], "changed"))
                    for p in (status["path"], status["dest"])
                    if p
                ]
        elif shape == "--numstat":
            counted = _NUMSTAT.match(line)
            if counted:
                files += [ListedFile(p, "changed") for p in _renamed(counted["path"])]
        elif line.strip():
            files.append(ListedFile(unquote_git_path(line.strip()), "changed"))
    return files


def _is_option(arg: str | None) -> bool:
    return arg is not None and arg.startswith("-")


def observed_status(
    step: SimpleCommand, sub: str | None, args: list[str | None], beside: list[str], output: str
) -> TreeStatus | None:
    """What a successful ``git status`` / ``git diff`` step printed about the working tree, when it can be read.

    ``beside``: the other steps of the command that print (``git log``, ``echo``), by program and git
    sub-command; their lines share the output.
    """
    if (
        sub not in ("status", "diff")
        or step.piped
        or step.stdout is not None
        or any(a is None for a in args)
    ):
        return None
    printing = [b for b in beside if b.split(" ", 1)[0] not in _QUIET]
    if any(not b.startswith("git ") or b[4:] not in _GIT_BESIDE for b in printing):
        return None
    words = [a for a in args if a is not None]
    pathspecs = [a for a in words if not _is_option(a) and a != "--"]
    if sub == "status":
        short = any(
            a in ("-s", "--short")
            or (a.startswith("-") and not a.startswith("--") and "s" in a[1:])
            for a in words
        )
        porcelain = any(a == "--porcelain" or a == "--porcelain=v1" for a in words)
        if any(a.startswith("--porcelain=v2") or a in ("-z", "--null") for a in words):
            return None
        untracked = not any(a in ("-uno", "--untracked-files=no") for a in words)
        if short or porcelain:
            # Another command's lines could read as "XY path"; `git add` prints none that could
            # (nothing, or "warning: …" lines), so `git add x && git status -s` is read.
            if any(b != "git add" for b in printing):
                return None
            return TreeStatus(
                "git status",
                _short_form(output),
                relative_to_top=porcelain,
                untracked_shown=untracked,
                scope=pathspecs,
            )
        long = _long_form(output)
        return (
            TreeStatus("git status", long, untracked_shown=untracked, scope=pathspecs)
            if long is not None
            else None
        )
    shape = next((a for a in words if a in _DIFF_SHAPES), None)
    if shape is None or shape == "--shortstat" or "--cached" in words or "--staged" in words:
        return None
    revisions = [a for a in pathspecs if a in ("HEAD", "@")]
    if len(pathspecs) != len(revisions) or any(
        a.startswith("--") and "=" in a and not a.startswith("--stat") for a in words
    ):
        return None  # a pathspec or another revision: not the whole tree against HEAD or the index
    if shape != "--stat" and printing:
        return None  # bare paths are told apart from other output only when nothing else prints
    return TreeStatus(
        f"git diff {shape}",
        _diff_listing(output, shape),
        untracked_shown=False,
        staged_shown=bool(revisions),
    )
