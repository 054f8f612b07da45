"""What an ``ls`` of one directory printed: the files the session saw there.

A glob the tracker expands (``mv data_batch_* archive/``) can only name the
files it knows; a directory listing the session printed just before names
the rest.  Only an output that is the listing alone is read: one ``ls`` of
one directory (a ``cd`` before it allowed), its output going to the terminal,
no recursion, no other program printing beside it.  With ``-l`` only regular
files are taken (the type letter tells); without it, every name (a
directory among them moves like a file under a glob anyway).
"""

from __future__ import annotations

from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.listing import simple_commands
from artifact_index.shell.state import join

__all__ = ["listed_files"]

# Options that change what is listed or how names are printed beyond this reader.
_UNREAD_OPTIONS = frozenset("RdFpQbqmxCgonNI")
# A long-format line: type and permissions, links, then owner, group, size, a date
# in any locale (three words), the name.
_LONG_LINE = lazy_pattern(
    r"^(?P<type>[-dlcbps])[rwxsStTl-]{9}[.@+]?\s+\d+\s+(?:\S+\s+){6}(?P<name>.+)$"
)


def _option_letters(argv: tuple[str | None, ...]) -> tuple[set[str], list[str]] | None:
    letters: set[str] = set()
    operands: list[str] = []
    for arg in argv[1:]:
        if arg is None:
            return None
        if arg.startswith("--"):
            if arg not in ("--all", "--almost-all", "--human-readable"):
                return None
        elif arg.startswith("-") and len(arg) > 1:
            letters.update(arg[1:])
        else:
            operands.append(arg)
    return letters, operands


# What can make a word out of pieces of the command line: a variable, a command's output, braces.
_EXPANSIONS = ("$", "`", "{")
# What quoting and line continuations put between the letters of one word.
_QUOTING = str.maketrans("", "", "'\"\\\r\n")


def _may_run_ls(command: str) -> bool:
    """Whether ``command`` can run ``ls`` at all: its letters are in it, once quoting is taken out.

    Every shell command's output comes here: expanding the words of each only to find the rare
    ``ls`` is wasted on nearly all of them.
    """
    return any(sign in command for sign in _EXPANSIONS) or "ls" in command.translate(_QUOTING)


def listed_files(command: str, cwd: str | None, output: str) -> tuple[str, list[str]] | None:
    """(the directory, the names of the files in it) when ``command`` is one ``ls`` of one directory."""
    if not cwd or not _may_run_ls(command) or not output.strip():
        return None
    steps = simple_commands(command, cwd)
    if not steps:
        return None
    *before, last = steps
    if any(step.program != "cd" for step in before) or last.program != "ls":
        return None
    if last.stdout is not None or last.piped or last.cwd is None:
        return None
    parsed = _option_letters(last.argv)
    if parsed is None:
        return None
    letters, operands = parsed
    if letters & _UNREAD_OPTIONS or len(operands) > 1:
        return None
    if operands and any(c in operands[0] for c in "*?["):
        return None
    directory = join(last.cwd, operands[0]) if operands else join(last.cwd, ".")
    if directory is None:
        return None
    long_form = "l" in letters
    names: list[str] = []
    for line in output.splitlines():
        if not line.strip():
            continue
        if long_form:
            if line.startswith("total "):
                continue
            match = _LONG_LINE.match(line)
            if match is None:
                return None  # not the listing alone
            if match.group("type") == "-":
                names.append(match.group("name"))
        else:
            if "/" in line or line.startswith(("ls: ", "total ")):
                return None
            names.append(line)
    names = [n for n in names if n not in (".", "..")]
    return (directory.rstrip("/") or "/", names) if names else None
