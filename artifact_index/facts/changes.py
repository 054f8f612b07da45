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
  a Markdown change added, else its first changed lines;
* for definitions a change modified, the most telling lines of the net diff
  inside them (:func:`changed_code`): a comment the change wrote there
  first, then new conditions and calls, a replaced line beside the one it
  replaced; log lines, braces and imports left out.

Nothing is paraphrased: every note is text the session wrote.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

from artifact_index.facts.symbols.definitions import definitions, language_for_path
from artifact_index.facts.symbols.symbol_entry import SymbolEntry
from artifact_index.lazy_pattern import lazy_pattern

__all__ = [
    "added_tests",
    "changed_code",
    "changed_lines",
    "changed_outline",
    "definition_notes",
    "is_test_path",
    "symbol_key",
]

_TEST_PATH = lazy_pattern(
    r"(^|/)(tests?|spec|__tests__)/|(_test|_spec|\.test|\.spec)\.\w+$|(^|/)test_[^/]+$"
)
# A test declared by a call: ExUnit / RSpec / Jest / Mocha / ScalaTest style.
_TEST_CALL = lazy_pattern(
    r"""^\+\s*(?:test|it|scenario|property|specify)\s*\(?\s*(["'`])(?P<name>.+?)\1"""
)
_TEST_HOLDERS = frozenset({"class", "struct", "module", "interface", "namespace", "impl"})
_TEST_FUNCTION = lazy_pattern(r"^(?:test_?|Test|Benchmark|Example)[\w]*", re.I)
# Kinds whose first line says nothing a name does not: `defmodule X do`, `module X`.
_NO_SIGNATURE = frozenset({"module"})
_BODY_OPENS = lazy_pattern(r"(?:\{|:|\bdo|->|=>|=|;)\s*$")
_BODY_OPENING = lazy_pattern(r"\s*(?:\{|\bdo|:)\s*$")
_COMMENT = lazy_pattern(r"^\s*(?:///?|#+(?!\[)|--|\*+(?!/)|/\*\*?|;+)\s?")
_ATTRIBUTE = lazy_pattern(r"^\s*(?:@(?!doc\b)\w|#\[|\[\w)")
_SENTENCE_END = lazy_pattern(r"(?<=[.!?])\s")
_LOCKFILES = frozenset(
    {
        "package-lock.json",
        "yarn.lock",
        "pnpm-lock.yaml",
        "cargo.lock",
        "mix.lock",
        "go.sum",
        "poetry.lock",
        "uv.lock",
        "gemfile.lock",
        "composer.lock",
        "bun.lockb",
    }
)
_MARKDOWN = (".md", ".mdx", ".markdown", ".rst")
# Lines that open many a file and say nothing of this one: imports, shebangs, a patch's own headers.
_BOILERPLATE = lazy_pattern(
    r"^(?:import\s|from\s+\S+\s+import\s|#!|require[\s(]|use\s|package\s|using\s|#include|"
    r"@@|---|\+\+\+|[\"']use strict)"
)
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
    """Whether ``line`` names ``name`` as a whole word (``(?<![\\w$])name(?![\\w$])``).

    Found without a pattern: a session adds thousands of definitions, and
    compiling a pattern for each name cost more than reporting the file.
    """
    if not name:
        return re.search(r"(?<![\w$])(?![\w$])", line) is not None
    start = line.find(name)
    while start != -1:
        end = start + len(name)
        if not (start and _word_char(line[start - 1])) and not (
            end < len(line) and _word_char(line[end])
        ):
            return True
        start = line.find(name, start + 1)
    return False


def _word_char(char: str) -> bool:
    """What ``[\\w$]`` matches in a ``str`` pattern: a letter, digit or ``_`` of any script, or ``$``."""
    return char.isalnum() or char in "_$"


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
            return _first_sentence(" ".join(lines[n + 1 : end]))
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


def definition_notes(
    content: str | None, path: str, added: Sequence[SymbolEntry]
) -> dict[str, tuple[str, str | None]]:
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
        head = next(
            (
                n
                for n in range(found.start_line - 1, min(found.end_line, len(lines)))
                if _names(lines[n], found.name)
            ),
            None,
        )
        if head is None:
            continue
        signature, end = _signature(lines, head, found.end_line - 1)
        doc = _comment_above(lines, found.start_line - 1) or (
            _docstring_below(lines, end) if language == "python" else None
        )
        notes[symbol_key(symbol)] = (signature, doc)
    return notes


def added_tests(diff: str | None, path: str, symbols: Sequence[SymbolEntry]) -> list[str]:
    """The tests a test file gained: test functions added, and tests declared by a call on an added line."""
    if not is_test_path(path):
        return []
    # A class of tests (`class TestParser`) holds tests; it is not one.
    names = [
        symbol_key(s)
        for s in symbols
        if s.change == "added" and _TEST_FUNCTION.match(s.name) and s.kind not in _TEST_HOLDERS
    ]
    for line in (diff or "").splitlines():
        found = _TEST_CALL.match(line)
        if found and not line.startswith("+++"):
            names.append(found["name"])
    return list(dict.fromkeys(names))


_FENCE = lazy_pattern(r"^\s{0,3}(`{3,}|~{3,})(.*)$")


def _fenced_lines(content: str) -> list[bool]:
    """For each line of a whole Markdown document: whether it is a fence or lies inside one."""
    fenced: list[bool] = []
    fence: str | None = None
    for line in content.splitlines():
        opening = _FENCE.match(line)
        if opening is not None:
            marker = opening.group(1)
            if fence is None:
                fence = marker
            elif (
                marker[0] == fence[0] and len(marker) >= len(fence) and not opening.group(2).strip()
            ):
                fence = None
            fenced.append(True)
            continue
        fenced.append(fence is not None)
    return fenced


def _prose_lines(diff: str, content: str | None = None) -> list[str]:
    """The added lines of a Markdown diff outside fenced code: a ``#`` inside a fence is a comment, not a heading.

    With the whole new text (``content``), each added line is placed by its hunk's line
    numbers: a hunk's few lines of context cannot show whether it starts inside a fence (its
    first line may close one opened above it).  Without it, the fences are followed through the
    new text the diff shows (added and context lines).
    """
    if content is not None:
        fenced = _fenced_lines(content)
        placed: list[str] = []
        number = 0
        for line in diff.splitlines():
            hunk = _HUNK.match(line)
            if hunk is not None:
                number = int(hunk["new"])
                continue
            if line.startswith(("+++", "---", "\\")) or not number:
                continue
            if line.startswith("-"):
                continue
            if line.startswith("+") and not (number - 1 < len(fenced) and fenced[number - 1]):
                placed.append(line[1:].strip())
            number += 1
        return placed
    found: list[str] = []
    fence: str | None = None
    for line in diff.splitlines():
        if line.startswith(("+++", "---", "-", "@@", "\\")):
            continue
        text = line[1:] if line[:1] in ("+", " ") else line
        opening = _FENCE.match(text)
        if opening is not None:
            marker = opening.group(1)
            if fence is None:
                fence = marker
                continue
            # Only a bare run of the same character, at least as long, closes a fence: a ```` block
            # holds ``` blocks (a prompt quoting code), and ```python inside it opens nothing.
            if marker[0] == fence[0] and len(marker) >= len(fence) and not opening.group(2).strip():
                fence = None
            continue
        if fence is None and line.startswith("+"):
            found.append(text.strip())
    return found


def changed_lines(diff: str | None, path: str) -> list[str]:
    """What a change to a file without definitions wrote: the Markdown headings it added, else its first lines."""
    return changed_outline(diff, path)[0]


def _headings_in(content: str) -> set[str]:
    """The Markdown heading lines of a whole document, fenced code left out."""
    return {
        line.strip()
        for line, fenced in zip(content.splitlines(), _fenced_lines(content), strict=True)
        if not fenced and re.match(r"^#{1,6}\s", line.strip())
    }


def changed_outline(
    diff: str | None, path: str, content: str | None = None
) -> tuple[list[str], bool]:
    """:func:`changed_lines`, and whether they are Markdown headings (else they are first lines).

    ``content``: the whole new text, when known.  A hunk may start inside a fenced block whose
    opening fence it does not show: only the headings the whole document has outside its fences
    count then.
    """
    name = path.rsplit("/", 1)[-1].lower()
    if not diff or name in _LOCKFILES:
        return [], False
    added = [
        line[1:].strip()
        for line in diff.splitlines()
        if line.startswith("+")
        and not line.startswith("+++")
        and len(line[1:].strip()) > 2
        and not _BOILERPLATE.match(line[1:].strip())
    ]
    if name.endswith(_MARKDOWN):
        prose = _prose_lines(diff, content)
        outside = _headings_in(content) if content is not None else None
        headings = [
            (len(line) - len(line.lstrip("#")), line.lstrip("#").strip())
            for line in prose
            if re.match(r"^#{1,6}\s", line) and (outside is None or line in outside)
        ]
        added = [line for line in prose if len(line) > 2] or added
        if headings:
            # The outline: the two shallowest levels first, the ones a reader of the document
            # navigates by, then the deeper ones, so that a list cut short ("and 3 more") counts
            # every heading the change added.
            top = min(level for level, _ in headings)
            shallow = [_cut(text, _MAX_LINE) for level, text in headings if level <= top + 1]
            deeper = [_cut(text, _MAX_LINE) for level, text in headings if level > top + 1]
            return shallow + deeper, True
    return [_cut(line, _MAX_LINE) for line in added[:3]], False


# The comment markers of each language with definitions (``--`` opens a shell option, not a comment).
_HASH_COMMENT = lazy_pattern(r"^\s*#+(?![\[!{])\s?")
_SLASH_COMMENT = lazy_pattern(r"^\s*(?:///?|/\*\*?|\*+(?!/))\s?")
_COMMENTS_OF = {
    "python": _HASH_COMMENT,
    "ruby": _HASH_COMMENT,
    "bash": _HASH_COMMENT,
    "elixir": _HASH_COMMENT,
}
_HUNK = lazy_pattern(r"^@@ -(?P<old>\d+)(?:,\d+)? \+(?P<new>\d+)(?:,\d+)? @@")
_CONTROL = lazy_pattern(
    r"^(?:\}?\s*else\b|if\b|elif\b|unless\b|case\b|when\b|switch\b|for\b|while\b|return\b|"
    r"raise\b|throw\b|guard\b|match\b|cond\b|with\b|rescue\b|catch\b|except\b|defer\b)"
)
_CALL = lazy_pattern(r"[\w.]\(")
_LOGGING = lazy_pattern(
    r"\b(?:log(?:ger|ging)?|console|fmt\.Print\w*|print(?:ln|f)?|IO\.(?:puts|inspect)|Logger|"
    r"slog|debug|tracing|puts|println!|eprintln!)\b\s*[.(!]",
    re.I,
)
_NOISE = lazy_pattern(r"^[\W_]*$|^(?:end|do|\)\s*\{?|\},?)$")  # punctuation alone: `>`, `});`, `]`
# An assignment in code (spaces around the operator): not an HTML attribute (`id="x"`).
_LEFT = lazy_pattern(r"^\s*(?P<left>[\w.\[\]]+(?:\s*,\s*[\w.\[\]]+)*)\s+(?::=|=|<-)\s")
_MAX_CODE = 110


def _code(line: str) -> str:
    return _cut(line.strip(), _MAX_CODE)


def _replaced(before: str, after: str) -> str:
    """``old → new``, what the two lines share at their ends left out past a few characters of context.

    ``result, err := store.Read(ctx, id)`` → ``summary, err := store.Read(ctx, id)`` reads
    ``result, err := store…`` → ``summary, err := store…``: the cut never hides the change, and the rest is
    said once.
    """
    start = 0
    while start < min(len(before), len(after)) and before[start] == after[start]:
        start += 1
    start = max(0, before.rfind(" ", 0, start - 12) + 1) if start > 24 else 0
    end = 0
    while end < min(len(before), len(after)) - start and before[-1 - end] == after[-1 - end]:
        end += 1
    end = end - 12 if end > 20 else 0
    old = ("…" if start else "") + before[start : len(before) - end] + ("…" if end else "")
    new = ("…" if start else "") + after[start : len(after) - end] + ("…" if end else "")
    return f"`{_code(old)}` → `{_code(new)}`"


# Markup in a template (`class="row"`, `<div`): how it looks, not what the change does.
_MARKUP = lazy_pattern(r"^\s*(?:<[%/!]?[\w.:-]*|[\w:@.-]+=[\"'{])")
_DATA = lazy_pattern(r"[=:,({\[]")  # a field, an entry, an argument: not a word of template text
# A line that only opens a block: `return {`, `bind() {`, `} else {`.
_OPENER_ONLY = lazy_pattern(
    r"^(?:\}\s*)?[\w.]*(?:\(\))?\s*[{(\[]\s*$|^(?:return|else|try|do|begin|then)\b\W*$"
)


def _places(
    content: str, language: str, modified: Sequence[SymbolEntry]
) -> list[tuple[int, int, str]]:
    """(first line, last line, symbol key) of every definition of ``content``; keys as ``modified`` spells them."""
    wanted = {(s.name, s.container): symbol_key(s) for s in modified}
    return [
        (
            d.start_line,
            d.end_line,
            wanted.get((d.name, d.container), f"{d.container}.{d.name}" if d.container else d.name),
        )
        for d in definitions(content, language)
    ]


def _holder(places: list[tuple[int, int, str]], line: int) -> str | None:
    """The innermost definition of ``places`` holding ``line``."""
    held = [(end - start, key) for start, end, key in places if start <= line <= end]
    return min(held)[1] if held else None


def _moved_lines(lines: list[str]) -> list[set[str]]:
    """For each hunk of a diff, the lines (stripped) it both removes and adds."""
    found: list[set[str]] = []
    gone: set[str] = set()
    came: set[str] = set()
    in_hunk = False
    for line in lines:
        if _HUNK.match(line):
            if in_hunk:
                found.append(gone & came)
            gone, came, in_hunk = set(), set(), True
        elif line.startswith(("+++", "---")):
            continue
        elif line.startswith("-") and line[1:].strip():
            gone.add(line[1:].strip())
        elif line.startswith("+") and line[1:].strip():
            came.add(line[1:].strip())
    found.append(gone & came)
    return found


def _added_by_kind(lines: list[str]) -> dict[str, list[tuple[int, int, str]]]:
    """``"<hunk number>:<pairing key>"`` -> (index in ``lines``, new line number, stripped text) of each added line.

    Hunks are numbered from 1 in order: only lines of the same hunk compete for a removed line.
    """
    found: dict[str, list[tuple[int, int, str]]] = {}
    hunk = 0
    new_line = 0
    for n, line in enumerate(lines):
        header = _HUNK.match(line)
        if header:
            hunk, new_line = hunk + 1, int(header["new"])
        elif line.startswith(("+++", "---", "-")) or not hunk:
            continue
        else:
            key = _pairing_key(line[1:]) if line.startswith("+") else None
            if key:
                found.setdefault(f"{hunk}:{key}", []).append((n, new_line, line[1:].strip()))
            new_line += 1
    return found


# How alike a new line and a removed one must be for the likeness to choose between lines of a kind.
_ALIKE = 0.6


def _likeliest(
    lines: list[tuple[str, str | None]] | None, text: str, later: Sequence[str] = ()
) -> tuple[str | None, str | None]:
    """The removed line ``text`` most likely replaced, with where it stood; ``lines`` is then spent.

    Lines sharing a pairing key (two ``assert`` lines, two ``return`` lines) are told apart by how
    much of them the new line keeps: ``assert "Message" in body`` replaced ``assert "error" in
    body``, not ``assert name in body["error"]``.  When none is much like it, the latest removed
    is the one it took the place of.  ``later``: the lines of the kind the change adds after
    ``text``; when one of them is more like that removed line, it is the replacement, and ``text``
    (a condition added before the one it rewrote) replaced nothing: (None, None), nothing spent.
    """
    if not lines:
        return None, None
    likeness = [SequenceMatcher(None, line, text, autojunk=False).ratio() for line, _ in lines]
    best = max(range(len(lines)), key=lambda n: (likeness[n], n))
    taken = lines[best] if likeness[best] >= _ALIKE else lines[-1]
    mine = SequenceMatcher(None, taken[0], text, autojunk=False).ratio()
    if any(
        SequenceMatcher(None, taken[0], other, autojunk=False).ratio() > mine for other in later
    ):
        return None, None
    # One line of a kind is paired per block: the others, left alone, read as removed, not as
    # replaced by whatever line of the kind comes next.
    lines.clear()
    return taken


# A declaration (`let signing_key: [u8; 32] =`, `const isMapped =`, `var size int64`): its name.
_DECLARATION = lazy_pattern(
    r"^\s*(?:export\s+)?(?:let|const|var|val|auto|final)\s+(?:mut\s+)?(?P<name>[\w$]+)"
)


def _pairing_key(code: str) -> str | None:
    """What a new line shares with the line it replaced: the name it assigns or declares, else its first word or call.

    Declarations go by their name, not by ``let``: a line declaring another name did not take
    the place of this one, whatever their likeness.
    """
    left = _LEFT.match(code)
    if left:
        return left["left"]
    declared = _DECLARATION.match(code)
    if declared:
        return declared["name"]
    first = re.match(r"^\s*([\w.]+\(?)", code)
    return first.group(1) if first else None


def changed_code(
    diff: str | None,
    content: str | None,
    path: str,
    modified: Sequence[SymbolEntry],
    limit: int = 3,
    original: str | None = None,
) -> dict[str, list[str]]:
    """The most telling lines a change wrote inside each definition it modified (by :func:`symbol_key`), in order.

    A comment it added reads as its own account (its first sentence, ``// ...``); a line that replaced
    another (``x := a(...)`` where ``x := b(...)`` was, ``return x`` where ``return y`` was) reads
    ``old → new``; then new conditions and calls.  Without the file's content the definitions' places are
    unknown and every line counts, under the key ``""``.  With the content before (``original``), a
    removed line is paired only with a line of the definition it stood in.
    """
    language = language_for_path(path)
    if not diff or not modified or language is None:
        return {}
    places: list[
        tuple[int, int, str]
    ] = []  # (first line, last line, symbol key) of each modified definition
    starts: set[int] = (
        set()
    )  # a comment right above a definition is its doc, not an account of the change
    if content is not None:
        wanted = {(s.name, s.container): symbol_key(s) for s in modified}
        found = definitions(content, language)
        places = [
            (d.start_line, d.end_line, wanted[(d.name, d.container)])
            for d in found
            if (d.name, d.container) in wanted
        ]
        starts = {d.start_line for d in found}
    comment_mark = _COMMENTS_OF.get(language, _SLASH_COMMENT)
    candidates: list[tuple[int, int, str, str]] = []  # (score, new line number, symbol key, text)
    # pairing key -> the lines it had before in the current hunk, each with the definition it stood
    # in by the content before (None: unknown)
    removed: dict[str, list[tuple[str, str | None]]] = {}
    unpaired: list[
        str
    ] = []  # the assignments from a call the current block of changed lines removed
    comment: list[str] = []  # the comment lines being added, the first with its marker
    comment_at = 0
    comment_in = ""
    new_line = 0

    def owner(line: int) -> str | None:
        if content is None:
            return ""
        # The innermost definition holding the line: a method before its class.
        held = [(end - start, key) for start, end, key in places if start <= line <= end]
        return min(held)[1] if held else None

    def close_comment(next_line: int) -> None:
        # Comment lines read as sentences: a line that ends without a stop, followed by a capital, ended one.
        parts = [comment_mark.sub("", comment[0]), *comment[1:]]
        joined = " ".join(
            part
            + (
                "."
                if n + 1 < len(parts)
                and part
                and part[-1] not in ".!?:;,"
                and parts[n + 1][:1].isupper()
                else ""
            )
            for n, part in enumerate(parts)
        )
        sentence = _first_sentence(joined)
        if sentence and next_line not in starts:
            marker = comment_mark.match(comment[0])
            # Quoted as written: the first line, cut where its sentence ends; a sentence that goes
            # on to the next line is cut with "…" (lines joined would read as text never written).
            first = parts[0].strip()
            ends = _SENTENCE_END.search(first)
            if ends is not None:
                first = first[: ends.start()]
            elif len(parts) > 1 and first[-1:] not in ".!?" and not parts[1][:1].isupper():
                first += "…"
            quoted = _cut(first, _MAX_DOC).replace("`", "'")
            candidates.append(
                (
                    6,
                    comment_at,
                    comment_in,
                    f"`{(marker.group(0).strip() + ' ') if marker else ''}{quoted}`",
                )
            )
        comment.clear()

    lines = diff.splitlines()
    # A line a hunk both removes and adds (moved, or re-indented under a new block) is no change:
    # paired, it would read as replaced by an unrelated line.
    moved_of_hunk = _moved_lines(lines)
    moved: set[str] = set()
    old_places = _places(original, language, modified) if original is not None else None
    old_line = 0
    added_later = _added_by_kind(lines)
    hunk_number = 0
    for at, line in enumerate(lines):
        hunk = _HUNK.match(line)
        if hunk:
            hunk_number += 1
            new_line, old_line, removed = int(hunk["new"]), int(hunk["old"]), {}
            moved = moved_of_hunk.pop(0) if moved_of_hunk else set()
            continue
        if line.startswith(("+++", "---")) or not new_line:
            continue
        body = line[1:]
        if line[:1] in ("+", "-") and body.strip() in moved:
            new_line += line.startswith("+")
            old_line += line.startswith("-")
            continue
        key = owner(new_line)
        is_comment = bool(comment_mark.match(body)) and not body.strip().startswith("*/")
        if comment and not (line.startswith("+") and is_comment):
            close_comment(new_line)
        if not line.startswith(("+", "-")):
            unpaired.clear()  # a context line ends the block of lines a new one may have replaced
        if line.startswith("-"):
            pairing = _pairing_key(body)
            if pairing and key is not None and not is_comment:
                removed.setdefault(pairing, []).append(
                    (
                        body.strip(),
                        _holder(old_places, old_line) if old_places is not None else None,
                    )
                )
                if _LEFT.match(body) and _CALL.search(body):
                    unpaired.append(pairing)
            old_line += 1
            continue
        if line.startswith("+") and key is not None:
            text = body.strip()
            if is_comment:
                if not comment:
                    comment_at, comment_in = new_line, key
                comment.append(body.strip() if not comment else comment_mark.sub("", body).strip())
            elif text and not (
                _NOISE.match(text)
                or _OPENER_ONLY.match(text)
                or _BOILERPLATE.match(text)
                or _MARKUP.match(text)
                or _LOGGING.search(text)
            ):
                pairing = _pairing_key(body)
                if (
                    not removed.get(pairing or "")
                    and _LEFT.match(body)
                    and _CALL.search(body)
                    and unpaired
                ):
                    pairing = unpaired[
                        0
                    ]  # `cwd, err := os.Getwd()` became `root, err := paths.RepoRoot()`
                # The lines of the kind this definition gains after this one (another's cannot
                # have replaced a line of this one).
                later = [
                    t
                    for n, number, t in added_later.get(f"{hunk_number}:{pairing}", ())
                    if n > at and owner(number) == key
                ]
                before, was_in = _likeliest(removed.get(pairing or ""), text, later)
                if before is not None and was_in is not None and was_in != key:
                    # A line removed from another definition (a `return` of a function the change
                    # deleted) is not the one this line replaced, whatever words they share.
                    before = None
                if pairing in unpaired:
                    unpaired.remove(pairing)
                if before is not None and before.split() == text.split():
                    pass  # only its spacing changed (a realigned field): no change to quote
                elif before is not None:
                    candidates.append((6, new_line, key, _replaced(before, text)))
                else:
                    # A condition or an assignment from a call says more than a bare call, which says more than a
                    # line of data (a field, an entry): that one speaks only when nothing else does.
                    score = 4 * bool(
                        _CONTROL.match(text) or (_LEFT.match(body) and _CALL.search(text))
                    ) + 2 * bool(_CALL.search(text)) or (1 if _DATA.search(text) else 0)
                    if score:
                        candidates.append((score, new_line, key, f"`{_code(text)}`"))
        new_line += 1
        old_line += not line.startswith("+")
    if comment:
        close_comment(new_line)
    by_symbol: dict[str, list[tuple[int, int, str]]] = {}
    for score, at, key, text in candidates:
        by_symbol.setdefault(key, []).append((score, at, text))
    best: dict[str, list[str]] = {}
    for key, found_lines in by_symbol.items():
        best_score = max(score for score, _, _ in found_lines)
        # Data lines only where they are all there is.
        kept = [c for c in found_lines if c[0] > 1 or best_score == 1]
        top = sorted(kept, key=lambda c: (-c[0], c[1]))[:limit]
        best[key] = [text for _, _, text in sorted(top, key=lambda c: c[1])]
    return best
