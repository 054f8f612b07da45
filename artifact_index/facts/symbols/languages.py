"""Which grammar a file is written in, and each grammar's tags query.

Each language has one tree-sitter tags query, kept as package data in
``artifact_index/facts/symbols/queries/<language>-tags.scm`` and loaded with
:mod:`importlib.resources` (the conventions of the queries are described in
:mod:`artifact_index.facts.symbols.definitions`).  A query file may start
with ``; inherits: <language>`` to include another language's query
(TypeScript extends JavaScript, C++ extends C).
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from artifact_index.lazy_pattern import lazy_pattern

if TYPE_CHECKING:
    from tree_sitter import Query

__all__ = ["language_for_path", "tags_query"]

_EXTENSIONS: dict[str, str] = {
    ".py": "python",
    ".pyi": "python",
    ".pyw": "python",
    ".js": "javascript",
    ".jsx": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".c++": "cpp",
    ".hh": "cpp",
    ".hpp": "cpp",
    ".hxx": "cpp",
    ".h++": "cpp",
    ".ipp": "cpp",
    ".inl": "cpp",
    ".cs": "c_sharp",
    ".rb": "ruby",
    ".rake": "ruby",
    ".gemspec": "ruby",
    ".php": "php",
    ".phtml": "php",
    ".kt": "kotlin",
    ".kts": "kotlin",
    ".sh": "bash",
    ".bash": "bash",
    ".zsh": "bash",
    ".ksh": "bash",
    ".ex": "elixir",
    ".exs": "elixir",
}

_FILENAMES: dict[str, str] = {
    "rakefile": "ruby",
    "gemfile": "ruby",
    "guardfile": "ruby",
    "vagrantfile": "ruby",
    ".bashrc": "bash",
    ".bash_profile": "bash",
    ".bash_aliases": "bash",
    ".profile": "bash",
    ".zshrc": "bash",
    ".zprofile": "bash",
}

_INHERITS = lazy_pattern(r"\A\s*;\s*inherits:\s*([\w,\s]+?)\s*$", re.MULTILINE)


def language_for_path(path: str) -> str | None:
    """The grammar name for ``path`` (by extension or well-known file name), or None."""
    name = re.split(r"[\\/]", path)[-1].lower()
    if name in _FILENAMES:
        return _FILENAMES[name]
    dot = name.rfind(".")
    return _EXTENSIONS.get(name[dot:]) if dot > 0 else None


@cache
def _query_text(language: str, seen: frozenset[str] = frozenset()) -> str:
    if language in seen:
        raise ValueError(f"query inheritance cycle through {language}")
    text = resources.files("artifact_index.facts.symbols").joinpath(
        "queries", f"{language}-tags.scm"
    )
    source = text.read_text(encoding="utf-8")
    parts: list[str] = []
    match = _INHERITS.search(source.split("\n", 1)[0])
    if match:
        for parent in match.group(1).split(","):
            parts.append(_query_text(parent.strip(), seen | {language}))
    parts.append(source)
    return "\n".join(parts)


@cache
def tags_query(language: str) -> Query | None:
    """The compiled tags query for ``language``; None without a grammar or query file."""
    # The grammars and tree-sitter are loaded with the first query: naming a file's language
    # (language_for_path) is all a hook that reads nothing new asks of this module.
    from artifact_index import grammars
    from artifact_index.facts.symbols.query_compat import compile_tags_query

    lang = grammars.language(language)
    if lang is None:
        return None
    try:
        text = _query_text(language)
    except FileNotFoundError:
        return None
    return compile_tags_query(lang, language, text)
