"""Exceptions of the ``artifact_index`` package.

::

    ArtifactIndexError          base of everything this package raises on purpose
    ├── UsageError              the command line asks for what cannot be done as asked (exit 2)
    ├── TranscriptError         the input cannot be read as a transcript at all
    │   ├── UnreadableInput     missing file, permission, bad gzip, not text
    │   │   └── BinaryInput     the file is binary, so no transcript
    │   └── UnknownFormat       no adapter recognizes the content / bad --format
    ├── AmbiguousPath           the end of a path names several files of a session
    ├── StateError              a saved tracker state cannot be loaded, or a state file written
    └── GrammarUnavailable      a tree-sitter grammar is not installed (never a silent drop)

Lower-layer exceptions (``OSError``, ``json.JSONDecodeError``, ``gzip``
errors, pydantic ``ValidationError``) are mapped to these with
``raise ... from exc`` so the CLI can print one sentence for each;
:func:`one_line` is that sentence, the same on every surface (command line,
MCP, HTTP).
"""

from __future__ import annotations

__all__ = [
    "AmbiguousPath",
    "ArtifactIndexError",
    "BinaryInput",
    "GrammarUnavailable",
    "StateError",
    "TranscriptError",
    "UnknownFormat",
    "UnreadableInput",
    "UsageError",
    "one_line",
]


class ArtifactIndexError(Exception):
    """Base class of the errors this package raises on purpose."""


class UsageError(ArtifactIndexError):
    """Options that cannot go together, or a value out of range: the command line must change, not the input."""


class TranscriptError(ArtifactIndexError):
    """The input cannot be used as a transcript."""


class UnreadableInput(TranscriptError):
    """The file could not be opened, decompressed or decoded."""


class BinaryInput(UnreadableInput):
    """The file holds binary data: it is no transcript (a folder may hold such files beside them)."""


class UnknownFormat(TranscriptError):
    """No adapter recognizes the content, or ``--format`` names no adapter."""


class AmbiguousPath(ArtifactIndexError):
    """A bare file name or the end of a path matches several files: more of the path is needed."""


class StateError(ArtifactIndexError):
    """A saved tracker state is malformed or from an incompatible version."""


class GrammarUnavailable(ArtifactIndexError):
    """A tree-sitter grammar the analysis needs is not installed.

    Without it shell-made changes and symbols would silently vanish, so it is
    an error that names the package to install.
    """


def one_line(exc: BaseException, *, limit: int = 1000) -> str:
    """The message of ``exc`` as one line, for a person or a model to read.

    A pydantic validation error names the model and its first problem by
    where it is, without the link to pydantic's documentation.
    """
    from pydantic import ValidationError

    if isinstance(exc, ValidationError):
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(part) for part in first["loc"])
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        return f"invalid {exc.title}: {where + ': ' if where else ''}{first['msg']}{more}"
    return " ".join(str(exc).split())[:limit]
