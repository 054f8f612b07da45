"""Tags queries that compile against every grammar version we install.

Python 3.11 and 3.12 get the grammars bundled in ``tree-sitter-languages``;
newer Pythons get the per-language packages, whose grammars are newer and
renamed some node types (JavaScript's ``function`` is ``function_expression``,
Go's ``method_spec`` is ``method_elem``, Kotlin's ``simple_identifier`` and
``type_identifier`` are ``identifier``).  A tree-sitter query that names a
node type its grammar lacks does not compile at all, so the query files are
written for the bundled grammars and :func:`compile_tags_query` adapts them:

* a node type this grammar lacks is renamed when :data:`RENAMED` knows its
  new name;
* a pattern that still names something this grammar lacks can never match
  here, so it is left out (the query file keeps patterns for the newer
  grammars next to the older ones, and each grammar keeps its own).

What was left out is kept in :data:`LEFT_OUT`, for tests and debugging.
"""

from __future__ import annotations

import re

from tree_sitter import Language, Query, QueryError

from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["LEFT_OUT", "RENAMED", "compile_tags_query", "top_level_patterns"]

# Older name -> newer name, per language (queries are written with the older).
RENAMED: dict[str, dict[str, str]] = {
    "javascript": {"function": "function_expression"},
    "typescript": {"function": "function_expression"},
    "tsx": {"function": "function_expression"},
    "go": {"method_spec": "method_elem"},
    "kotlin": {"simple_identifier": "identifier", "type_identifier": "identifier"},
}

LEFT_OUT: dict[str, list[str]] = {}

_NODE = lazy_pattern(r"(?<![\w@#.\"])\((?P<kind>[a-z_][a-z0-9_]*)")


def top_level_patterns(text: str) -> list[str]:
    """The patterns of a query file, each with the captures and quantifiers that follow it.

    A pattern starts at a ``(`` or ``[`` at the top level and runs to the next
    one; comments and strings are skipped while counting brackets.
    """
    patterns: list[str] = []
    depth = 0
    start: int | None = None
    position = 0
    while position < len(text):
        char = text[position]
        if char == ";":
            end = text.find("\n", position)
            position = len(text) if end < 0 else end
            continue
        if char == '"':
            position += 1
            while position < len(text) and text[position] != '"':
                position += 2 if text[position] == "\\" else 1
        elif char in "([":
            if depth == 0:
                if start is not None:
                    patterns.append(text[start:position].strip())
                start = position
            depth += 1
        elif char in ")]":
            depth -= 1
        position += 1
    if start is not None:
        patterns.append(text[start:].strip())
    return patterns


def _known(language: Language, kind: str) -> bool:
    return bool(language.id_for_node_kind(kind, True))


def _adapt(pattern: str, language: Language, renames: dict[str, str]) -> str:
    def rename(match: re.Match[str]) -> str:
        kind = match.group("kind")
        if _known(language, kind) or kind not in renames:
            return match.group()
        return "(" + renames[kind]

    return _NODE.sub(rename, pattern)


def compile_tags_query(language: Language, name: str, text: str) -> Query:
    """``text`` compiled for ``language``: renamed where known, patterns it cannot have left out."""
    try:
        return Query(language, text)
    except QueryError:
        pass
    renames = RENAMED.get(name, {})
    kept: list[str] = []
    left_out: list[str] = []
    for pattern in top_level_patterns(text):
        adapted = _adapt(pattern, language, renames)
        try:
            Query(language, adapted)
        except QueryError:
            left_out.append(pattern)
            continue
        kept.append(adapted)
    LEFT_OUT[name] = left_out
    return Query(language, "\n\n".join(kept))
