"""Tree-sitter grammars, loaded through the modern ``tree-sitter`` API.

The grammars come from the shared library bundled in
``tree-sitter-languages`` (wheels for CPython 3.11 and 3.12).  Its own
``get_language`` needs an old tree-sitter, so the library is opened with
ctypes and each ``tree_sitter_<name>`` entry point is wrapped in a PyCapsule,
the form modern ``tree_sitter.Language`` accepts.  Where that package is
missing (newer Pythons) the per-language packages (``tree-sitter-python``,
...) are used when installed; otherwise :func:`language` returns None and
callers work without a parse, after one warning.
"""

from __future__ import annotations

import ctypes
import importlib
import importlib.util
import warnings
from functools import cache
from pathlib import Path

from tree_sitter import Language, Parser

__all__ = ["GrammarUnavailable", "language", "parser"]

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


class GrammarUnavailable(Warning):
    """No grammar could be loaded for a language; features that need it are skipped."""


_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


@cache
def _bundled_library() -> ctypes.CDLL | None:
    spec = importlib.util.find_spec("tree_sitter_languages")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        candidate = Path(folder) / "languages.so"
        if candidate.exists():
            return ctypes.cdll.LoadLibrary(str(candidate))
    return None


@cache
def language(name: str) -> Language | None:
    """The tree-sitter :class:`Language` called ``name``, or None when unavailable."""
    if name not in _GRAMMARS:
        return None
    symbol, package, function = _GRAMMARS[name]
    library = _bundled_library()
    if library is not None and hasattr(library, f"tree_sitter_{symbol}"):
        entry = getattr(library, f"tree_sitter_{symbol}")
        entry.restype = ctypes.c_void_p
        return Language(_capsule_new(entry(), b"tree_sitter.Language", None))
    try:
        module = importlib.import_module(package)
        return Language(getattr(module, function)())
    except (ImportError, AttributeError):
        warnings.warn(
            f"no tree-sitter grammar for {name}: install tree-sitter-languages "
            f"(Python 3.11/3.12) or {package.replace('_', '-')}; continuing without it",
            GrammarUnavailable,
            stacklevel=2,
        )
        return None


def parser(name: str) -> Parser | None:
    """A fresh parser for ``name`` (parsers are cheap; languages are cached)."""
    lang = language(name)
    return Parser(lang) if lang is not None else None
