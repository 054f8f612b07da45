"""A command line as the checks read it: its simple commands as words, behind their wrappers.

Both come from the shell layer, which the effect inference reads the same
command with: :func:`~artifact_index.shell.simple_commands.simple_commands`
(the parse, flattened) and :mod:`~artifact_index.shell.wrappers` (one table
of ``sudo``, ``timeout 60``, ``uv run`` ...).
"""

from __future__ import annotations

from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.simple_commands import simple_commands
from artifact_index.shell.wrappers import executable, unwrap_words

__all__ = [
    "PYTHON_INTERPRETER",
    "executable",
    "segments",
    "unwrap",
    "word_set",
]


def segments(command: str) -> list[tuple[bool, list[str]]]:
    """The simple commands of ``command`` as ``(piped, words)``, redirections removed.

    ``piped`` is True when the command reads the previous one's output
    (``... | tail -20``).
    """
    return [(piped, list(words)) for piped, words in simple_commands(command)]


def word_set(text: str) -> frozenset[str]:
    """A set of names written as one space-separated string, for long tables."""
    return frozenset(text.split())


PYTHON_INTERPRETER = lazy_pattern(r"^(?:python|pypy)(?:\d+(?:\.\d+)*)?$|^py$")


def unwrap(words: list[str]) -> list[str]:
    """Strip env assignments and wrapper commands (``timeout 60``, ``uv run``, ``npx``)."""
    return unwrap_words(words)
