"""Exceptions of the ``artifact_index`` package.

::

    ArtifactIndexError          base of everything this package raises on purpose
    ├── TranscriptError         the input cannot be read as a transcript at all
    │   ├── UnreadableInput     missing file, permission, bad gzip, not text
    │   │   └── BinaryInput     the file is binary, so no transcript
    │   └── UnknownFormat       no adapter recognizes the content / bad --format
    ├── StateError              a saved tracker state cannot be loaded, or a state file written
    └── GrammarUnavailable      a tree-sitter grammar is not installed (never a silent drop)

Lower-layer exceptions (``OSError``, ``json.JSONDecodeError``, ``gzip``
errors, pydantic ``ValidationError``) are mapped to these with
``raise ... from exc`` so the CLI can print one sentence for each.
"""

from __future__ import annotations

__all__ = [
    "ArtifactIndexError",
    "BinaryInput",
    "GrammarUnavailable",
    "StateError",
    "TranscriptError",
    "UnknownFormat",
    "UnreadableInput",
]


class ArtifactIndexError(Exception):
    """Base class of the errors this package raises on purpose."""


class TranscriptError(ArtifactIndexError):
    """The input cannot be used as a transcript."""


class UnreadableInput(TranscriptError):
    """The file could not be opened, decompressed or decoded."""


class BinaryInput(UnreadableInput):
    """The file holds binary data: it is no transcript (a folder may hold such files beside them)."""


class UnknownFormat(TranscriptError):
    """No adapter recognizes the content, or ``--format`` names no adapter."""


class StateError(ArtifactIndexError):
    """A saved tracker state is malformed or from an incompatible version."""


class GrammarUnavailable(ArtifactIndexError):
    """A tree-sitter grammar the analysis needs is not installed.

    Without it shell-made changes and symbols would silently vanish, so it is
    an error that names the package to install.
    """
