"""Tree-sitter grammars, loaded through the modern ``tree-sitter`` API.

The grammars come from the shared library bundled in
``tree-sitter-languages`` (wheels for CPython 3.11 and 3.12).  Its own
``get_language`` needs an old tree-sitter, so the library is opened with
ctypes and each ``tree_sitter_<name>`` entry point is wrapped in a PyCapsule,
the form modern ``tree_sitter.Language`` accepts.  Where that package is
missing (newer Pythons, where ``pyproject.toml`` installs them instead) the
per-language packages (``tree-sitter-python``, ...) are used.  A supported
language whose grammar is in neither place is an error, never a silent
drop: without the bash grammar every shell-made change would vanish.
"""

from __future__ import annotations

import importlib
import importlib.util
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from artifact_index.exceptions import GrammarUnavailable

if TYPE_CHECKING:
    import ctypes

    from tree_sitter import Language, Parser, Tree

# tree-sitter itself is imported by the functions that load a grammar or make a parser: every
# command that reads a file's symbols or a shell command imports this module, and a hook that
# finds nothing appended does neither.

__all__ = ["GrammarUnavailable", "grammar_source", "language", "parser", "safe_parse"]

# Our name -> (symbol in languages.so, per-language package, function in it).
_GRAMMARS: dict[str, tuple[str, str, str]] = {
    "bash": ("bash", "tree_sitter_bash", "language"),
    "python": ("python", "tree_sitter_python", "language"),
    "javascript": ("javascript", "tree_sitter_javascript", "language"),
    "typescript": ("typescript", "tree_sitter_typescript", "language_typescript"),
    "tsx": ("tsx", "tree_sitter_typescript", "language_tsx"),
    "go": ("go", "tree_sitter_go", "language"),
    "rust": ("rust", "tree_sitter_rust", "language"),
    "java": ("java", "tree_sitter_java", "language"),
    "c": ("c", "tree_sitter_c", "language"),
    "cpp": ("cpp", "tree_sitter_cpp", "language"),
    "c_sharp": ("c_sharp", "tree_sitter_c_sharp", "language"),
    "ruby": ("ruby", "tree_sitter_ruby", "language"),
    "php": ("php", "tree_sitter_php", "language_php"),
    "kotlin": ("kotlin", "tree_sitter_kotlin", "language"),
    "elixir": ("elixir", "tree_sitter_elixir", "language"),
}


@cache
def _bundled_library() -> ctypes.CDLL | None:
    spec = importlib.util.find_spec("tree_sitter_languages")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        candidate = Path(folder) / "languages.so"
        if candidate.exists():
            # Imported here: only loading a grammar needs ctypes, and every command that reads a
            # shell command imports this module (a hook that analyzes none pays for nothing).
            import ctypes

            return ctypes.cdll.LoadLibrary(str(candidate))
    return None


def _bundled_language(library: ctypes.CDLL, symbol: str) -> Language:
    """The grammar ``symbol`` of the bundled library, wrapped in the capsule ``Language`` takes."""
    import ctypes

    from tree_sitter import Language

    capsule_new = ctypes.pythonapi.PyCapsule_New
    capsule_new.restype = ctypes.py_object
    capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    entry = getattr(library, f"tree_sitter_{symbol}")
    entry.restype = ctypes.c_void_p
    return Language(capsule_new(entry(), b"tree_sitter.Language", None))


@cache
def language(name: str) -> Language | None:
    """The tree-sitter :class:`Language` called ``name``; None for a language we have no grammar for.

    Raises :class:`~artifact_index.exceptions.GrammarUnavailable` when the
    grammar of a supported language is not installed.
    """
    if name not in _GRAMMARS:
        return None
    from tree_sitter import Language

    symbol, package, function = _GRAMMARS[name]
    library = _bundled_library()
    if library is not None and hasattr(library, f"tree_sitter_{symbol}"):
        return _bundled_language(library, symbol)
    try:
        module = importlib.import_module(package)
        return Language(getattr(module, function)())
    except (ImportError, AttributeError, ValueError) as exc:
        # Loud: without the grammar, shell-made changes and symbols would silently vanish.
        raise GrammarUnavailable(
            f"no tree-sitter grammar for {name}: install {package.replace('_', '-')} (or, on Python 3.11 and "
            f"3.12, tree-sitter-languages); reinstalling artifact-index installs the right one ({exc})"
        ) from exc


@cache
def grammar_source(name: str) -> str | None:
    """Which package and version the grammar of ``name`` comes from (``tree-sitter-python 0.23.6``).

    Grammars from different packages can parse the same file differently
    (which symbols are found), so the output of ``symbols`` names them: on
    Python 3.11 and 3.12 the bundled ``tree-sitter-languages``, on newer
    Pythons the per-language packages.  None for a language we have no
    grammar for.
    """
    if name not in _GRAMMARS:
        return None
    symbol, package, _ = _GRAMMARS[name]
    library = _bundled_library()
    distribution = (
        "tree-sitter-languages"
        if library is not None and hasattr(library, f"tree_sitter_{symbol}")
        else package.replace("_", "-")
    )
    # Imported here: the metadata machinery (email, zipfile, ...) is a tenth of a hook's start-up,
    # and only naming a grammar's source needs it.
    from importlib import metadata

    try:
        return f"{distribution} {metadata.version(distribution)}"
    except metadata.PackageNotFoundError:
        return distribution


def parser(name: str) -> Parser | None:
    """A fresh parser for ``name`` (parsers are cheap; languages are cached)."""
    from tree_sitter import Parser

    lang = language(name)
    return Parser(lang) if lang is not None else None


# Every byte of a multi-byte UTF-8 character becomes "_".  The grammars
# crash (segfault, not an exception) on some non-ASCII input: the bash grammar
# on "<<x\n$" followed by U+FF466, or on "{" followed by a character past the
# BMP (the bundled grammar and tree-sitter-bash 0.25 alike).  An ASCII word
# character of the same byte length tokenizes the same way and keeps every
# offset, and all text is read from the original bytes.
_ASCII = bytes(range(128)) + b"_" * 128


def safe_parse(parser: Parser, data: bytes, old_tree: Tree | None = None) -> Tree:
    """Parse ``data`` as the grammar sees it with non-ASCII bytes masked (offsets unchanged).

    ``old_tree``: the tree of the previous version, edited to match, for an incremental parse.
    """
    masked = data.translate(_ASCII)
    return parser.parse(masked) if old_tree is None else parser.parse(masked, old_tree)
