"""What each change did, in the words the change itself wrote.

"4 added definition(s)" and "+65/-25 lines" tell the agent that continues
that something changed, not what.  From a file's content at the end of the
session and its net diff (both known to the index when the transcript
showed them) this module reads:

* the signature of each definition the session added, as written (its
  first line, or lines up to the opening of its body), and the first
  sentence of the comment or docstring written with it;
* the names of the tests a test file gained, including those a framework
  declares with a call rather than a definition (``test "closes all"`` in
  ExUnit, ``it("...")`` in Jest);
* for a file without definitions (Markdown, CSS, JSON, YAML), the headings
  a Markdown change added, else its first changed lines.

Nothing is paraphrased: every note is text the session wrote.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from artifact_index.facts.symbols.definitions import definitions, language_for_path
from artifact_index.trail.index import SymbolEntry

__all__ = ["added_tests", "changed_lines", "definition_notes", "is_test_path", "symbol_key"]

_TEST_PATH = re.compile(r"(^|/)(tests?|spec|__tests__)/|(_test|_spec|\.test|\.spec)\.\w+$|(^|/)test_[^/]+$")
# A test declared by a call: ExUnit / RSpec / Jest / Mocha / ScalaTest style.
_TEST_CALL = re.compile(r"""^\+\s*(?:test|it|scenario|property|specify)\s*\(?\s*(["'`])(?P<name>.+?)\1""")
_TEST_FUNCTION = re.compile(r"^(?:test_?|Test|Benchmark|Example)[\w]*", re.I)
# Kinds whose first line says nothing a name does not: `defmodule X do`, `module X`.
_NO_SIGNATURE = frozenset({"module"})
_BODY_OPENS = re.compile(r"(?:\{|:|\bdo|->|=>|=|;)\s*$")
_BODY_OPENING = re.compile(r"\s*(?:\{|\bdo|:)\s*$")
_COMMENT = re.compile(r"^\s*(?:///?|#+(?!\[)|--|\*+(?!/)|/\*\*?|;+)\s?")
_ATTRIBUTE = re.compile(r"^\s*(?:@(?!doc\b)\w|#\[|\[\w)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s")
_LOCKFILES = frozenset({"package-lock.json", "yarn.lock", "pnpm-lock.yaml", "cargo.lock", "mix.lock", "go.sum",
                        "poetry.lock", "uv.lock", "gemfile.lock", "composer.lock", "bun.lockb"})
_MARKDOWN = (".md", ".mdx", ".markdown", ".rst")
# Lines that open many a file and say nothing of this one: imports, shebangs, a patch's own headers.
_BOILERPLATE = re.compile(r"^(?:import\s|from\s+\S+\s+import\s|#!|require[\s(]|use\s|package\s|using\s|#include|"
                          r"@@|---|\+\+\+|[\"']use strict)")
_MAX_SIGNATURE = 160
_MAX_DOC = 140
_MAX_LINE = 90


def is_test_path(path: str) -> bool:
    return bool(_TEST_PATH.search(path))


def symbol_key(symbol: SymbolEntry) -> str:
    """How a definition is named beside its file's path: ``Model.Update``, not ``list.Model.Update``."""
    if not symbol.container:
        return symbol.name
    return f"{symbol.container.rsplit('.', 1)[-1].rsplit('::', 1)[-1]}.{symbol.name}"


def _cut(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _names(line: str, name: str) -> bool:
    return re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", line) is not None


def _signature(lines: Sequence[str], first: int, last: int) -> tuple[str, int]:
    """The definition's head from line ``first`` (0-based), up to where its body opens (at most six lines).

    Returns the head on one line and the index of its last line.
    """
    parts = []
    end = first
    for end in range(first, min(last + 1, first + 6, len(lines))):
        parts.append(lines[end].strip())
        if _BODY_OPENS.search(lines[end].rstrip()):
            break
    text = " ".join(parts)
    text = _BODY_OPENING.sub("", text)
    text = re.sub(r"([(\[{])\s+", r"\1", text)
    text = re.sub(r",?\s+([)\]}])", r"\1", text)
    return _cut(text, _MAX_SIGNATURE), end


def _first_sentence(text: str) -> str | None:
    text = " ".join(text.split())
    if not text:
        return None
    end = _SENTENCE_END.search(text)
    return _cut(text[: end.start()] if end else text, _MAX_DOC)


def _comment_above(lines: Sequence[str], at: int) -> str | None:
    """The comment block (or Elixir ``@doc``) right above line ``at``, attributes and decorators skipped."""
    n = at - 1
    while n >= 0 and _ATTRIBUTE.match(lines[n]):
        n -= 1
    if n >= 0 and lines[n].strip() in ('"""', "'''"):
        # An Elixir `@doc """ ... """` heredoc: read up to its opening.
        end = n
        n -= 1
        while n >= 0 and '"""' not in lines[n] and "'''" not in lines[n]:
            n -= 1
        if n >= 0 and lines[n].strip().startswith("@doc"):
            return _first_sentence(" ".join(lines[n + 1: end]))
        return None
    doc = re.match(r'^\s*@doc\s+"(.+)"\s*$', lines[n]) if n >= 0 else None
    if doc:
        return _first_sentence(doc.group(1))
    block: list[str] = []
    while n >= 0 and _COMMENT.match(lines[n]) and lines[n].strip() not in ("*/", ""):
        block.append(_COMMENT.sub("", lines[n]).rstrip("*/ "))
        n -= 1
    if n >= 0 and lines[n].strip() == "*/":
        return None  # a block comment read from its end needs its start; the loop above stops short of it
    return _first_sentence(" ".join(reversed(block)))


def _docstring_below(lines: Sequence[str], after: int) -> str | None:
    """A Python docstring: the string right under the signature."""
    if after + 1 >= len(lines):
        return None
    head = lines[after + 1].strip()
    quote = next((q for q in ('"""', "'''") if head.startswith(q)), None)
    if quote is None:
        return None
    body = [head[3:]]
    n = after + 2
    while quote not in body[-1] and n < len(lines) and len(body) < 6:
        body.append(lines[n].strip())
        n += 1
    return _first_sentence(" ".join(body).split(quote, 1)[0])


def definition_notes(content: str | None, path: str,
                     added: Sequence[SymbolEntry]) -> dict[str, tuple[str, str | None]]:
    """For each added definition found in ``content``: its signature as written and its doc's first sentence.

    Keyed by :func:`symbol_key`.
    """
    language = language_for_path(path)
    if content is None or language is None or not added:
        return {}
    wanted = {(s.name, s.container): s for s in added if s.kind not in _NO_SIGNATURE}
    lines = content.splitlines()
    notes: dict[str, tuple[str, str | None]] = {}
    for found in definitions(content, language):
        symbol = wanted.get((found.name, found.container))
        if symbol is None:
            continue
        head = next((n for n in range(found.start_line - 1, min(found.end_line, len(lines)))
                     if _names(lines[n], found.name)), None)
        if head is None:
            continue
        signature, end = _signature(lines, head, found.end_line - 1)
        doc = _comment_above(lines, found.start_line - 1) or (
            _docstring_below(lines, end) if language == "python" else None)
        notes[symbol_key(symbol)] = (signature, doc)
    return notes


def added_tests(diff: str | None, path: str, symbols: Sequence[SymbolEntry]) -> list[str]:
    """The tests a test file gained: test functions added, and tests declared by a call on an added line."""
    if not is_test_path(path):
        return []
    names = [symbol_key(s) for s in symbols if s.change == "added" and _TEST_FUNCTION.match(s.name)]
    for line in (diff or "").splitlines():
        found = _TEST_CALL.match(line)
        if found and not line.startswith("+++"):
            names.append(found["name"])
    return list(dict.fromkeys(names))


def changed_lines(diff: str | None, path: str) -> list[str]:
    """What a change to a file without definitions wrote: the Markdown headings it added, else its first lines."""
    name = path.rsplit("/", 1)[-1].lower()
    if not diff or name in _LOCKFILES:
        return []
    added = [line[1:].strip() for line in diff.splitlines()
             if line.startswith("+") and not line.startswith("+++") and len(line[1:].strip()) > 2
             and not _BOILERPLATE.match(line[1:].strip())]
    if name.endswith(_MARKDOWN):
        headings = [(len(line) - len(line.lstrip("#")), line.lstrip("#").strip()) for line in added
                    if re.match(r"^#{1,6}\s", line)]
        if headings:
            # The outline: the two shallowest levels, the ones a reader of the document navigates by.
            top = min(level for level, _ in headings)
            return [_cut(text, _MAX_LINE) for level, text in headings if level <= top + 1]
    return [_cut(line, _MAX_LINE) for line in added[:3]]
