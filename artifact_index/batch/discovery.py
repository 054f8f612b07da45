"""From the paths on a command line to the files that may be transcripts.

A file named on the command line is a transcript, and an error when it is
not one.  A directory is walked recursively (in name order, symbolic links
to directories not followed, hidden entries and tool caches skipped), and
each file in it is only a *candidate*: whether it is a transcript is decided
by format detection, where the file is read, and a file no format
recognizes is counted, never reported as an error.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from artifact_index.exceptions import UnreadableInput

__all__ = ["Candidate", "expand"]

# Folders that hold a tool's own files, never an agent's transcript.
_SKIPPED_FOLDERS = frozenset({"node_modules", "__pycache__"})


@dataclass(frozen=True)
class Candidate:
    """One file to index; ``named`` when the user named it rather than a folder holding it."""

    path: str
    named: bool


def _walk(folder: Path) -> Iterator[str]:
    def failed(error: OSError) -> None:
        raise UnreadableInput(
            f"{error.filename} cannot be read ({error.strerror or error})"
        ) from error

    for top, folders, files in os.walk(folder, onerror=failed):
        folders[:] = sorted(
            d for d in folders if not d.startswith(".") and d not in _SKIPPED_FOLDERS
        )
        for name in sorted(files):
            if not name.startswith("."):
                yield os.path.join(top, name)


def expand(arguments: Iterable[str]) -> list[Candidate]:
    """The candidates named by ``arguments``, each once, in command-line order."""
    seen: set[str] = set()
    found: list[Candidate] = []
    for argument in arguments:
        path = Path(argument)
        if argument != "-" and path.is_dir():
            paths, named = list(_walk(path)), False
        else:
            paths, named = [argument], True
        for item in paths:
            key = item if item == "-" else os.path.realpath(item)
            if key not in seen:
                seen.add(key)
                found.append(Candidate(item, named))
    return found
