"""Regular expressions compiled on their first use, not when their module is imported.

The engine and the summarizer hold several hundred module-level patterns;
compiling them all is about a third of a command's start-up, while one
command on one transcript uses a few dozen.  :func:`lazy_pattern` stands in
for :func:`re.compile` at module level: the pattern is compiled when one of
its attributes is first read, and the compiled pattern's methods then replace
the stand-in's, so later calls cost what calls on a compiled pattern cost.
A pattern that does not compile raises :class:`re.error` at its first use.
A match's ``.re`` is the compiled pattern, not the stand-in: tell which
pattern matched by which one was called, never by ``match.re is PATTERN``.
"""

from __future__ import annotations

import re
from typing import Any, AnyStr, cast

__all__ = ["lazy_pattern"]

# What is read from a pattern; the first read of any of them compiles it and binds them all.
_ATTRIBUTES = (
    "search",
    "match",
    "fullmatch",
    "sub",
    "subn",
    "split",
    "findall",
    "finditer",
    "scanner",
    "flags",
    "groups",
    "groupindex",
    "pattern",
)


class _LazyPattern:
    def __init__(self, source: Any, flags: int) -> None:
        self._source = source
        self._flags = flags
        # The source is known without compiling: a pattern made from another's reads it at import.
        self.pattern = source

    def __getattr__(self, name: str) -> Any:
        # Reached only for names not yet bound on the instance, so at most once per name.
        if name.startswith("__") or name in ("_source", "_flags"):
            raise AttributeError(name)
        compiled = re.compile(self._source, self._flags)
        for attribute in _ATTRIBUTES:
            self.__dict__[attribute] = getattr(compiled, attribute)
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy_pattern({self._source!r}, {self._flags!r})"


def lazy_pattern(source: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """``re.compile(source, flags)``, compiled when the pattern is first used."""
    return cast("re.Pattern[AnyStr]", _LazyPattern(source, flags))
