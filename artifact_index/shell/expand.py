"""Words -> argument strings, as far as they are known before the command runs.

Expansion follows bash's order where it matters for file paths: brace
expansion (``cp f.py{,.bak}``), then variables the command itself assigned
(``f=a.py; rm $f``), ``$PWD`` / ``$(pwd)``, ``$TMPDIR`` / ``$(mktemp)``
(placed in a temporary directory so their files count as scratch), then
pathname expansion against the files the tracker knows.  Anything else
(``$1``, ``${x:-y}``, ``$(git ls-files)``) leaves the argument unresolved:
its value is None and effects that need it become ``unknown`` operations.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.parser import Lit, Opaque, Sub, Var, Word
from artifact_index.shell.state import Files, join

__all__ = ["Arg", "Scope", "expand_word", "word_text"]

_MAX_WORDS = 256


@dataclass(frozen=True)
class Arg:
    """One argument: its value (None when only known at run time) and how it was written."""

    value: str | None
    raw: str
    glob: bool = False  # an unmatched pattern: bash passes it on literally


@dataclass
class Scope:
    """The shell state words are expanded in."""

    cwd: (
        str | None
    )  # absolute; "" = unknown starting directory; None = lost after an unresolvable cd
    variables: dict[str, str | None] = field(default_factory=dict)
    directory_stack: list[str | None] = field(default_factory=list)
    home: str | None = None  # the home directory, when the workspace shows it (`~`, `$HOME`)

    def child(self) -> Scope:
        """A copy for a subshell: changes made there do not come back."""
        return Scope(self.cwd, dict(self.variables), list(self.directory_stack), self.home)


Substitute = Callable[[Sub], str | None]


def _variable(name: str, scope: Scope) -> str | None:
    if name in scope.variables:
        return scope.variables[name]
    if name == "PWD":
        return scope.cwd or None
    if name in ("TMPDIR", "TMP", "TEMP"):
        return "/tmp"
    if name == "HOME":
        return scope.home
    return None


def _tilde(part: Lit, first: bool, scope: Scope) -> str:
    """An unquoted ``~`` or ``~/...`` starting a word, with the home directory put in when known."""
    text = part.text
    if (
        first
        and not part.quoted
        and scope.home
        and text.startswith("~")
        and (len(text) == 1 or text[1] == "/")
    ):
        return scope.home + text[1:]
    return text


def _escaped_pieces(word: Word, scope: Scope, substitute: Substitute) -> str | None:
    """The word as a pattern string: quoted special characters backslash-escaped."""
    out: list[str] = []
    for k, part in enumerate(word.parts):
        if isinstance(part, Lit):
            out.append(_escape(part.text) if part.quoted else _tilde(part, k == 0, scope))
        elif isinstance(part, Var):
            value = _variable(part.name, scope)
            if value is None:
                return None
            out.append(_escape(value))
        elif isinstance(part, Sub):
            value = substitute(part)
            if value is None:
                return None
            out.append(_escape(value))
        elif isinstance(part, Opaque):
            return None
    return "".join(out)


def word_text(word: Word, scope: Scope, substitute: Substitute) -> str | None:
    """The value of a word without brace or pathname expansion (heredoc bodies, assignments)."""
    out: list[str] = []
    for k, part in enumerate(word.parts):
        if isinstance(part, Lit):
            out.append(_tilde(part, k == 0, scope))
        elif isinstance(part, Var):
            value = _variable(part.name, scope)
            if value is None:
                return None
            out.append(value)
        elif isinstance(part, Sub):
            value = substitute(part)
            if value is None:
                return None
            out.append(value)
        else:
            return None
    return "".join(out)


_SPECIAL = set("\\*?[]{},~")
_ACTIVE = frozenset("*?[{")


_ESCAPE_TABLE = str.maketrans({ch: "\\" + ch for ch in _SPECIAL})


def _escape(text: str) -> str:
    return text.translate(_ESCAPE_TABLE)


def _unescape(text: str) -> str:
    if "\\" not in text:
        return text
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            out.append(text[i + 1])
            i += 2
            continue
        out.append(text[i])
        i += 1
    return "".join(out)


def _find_unescaped(text: str, chars: str, start: int = 0) -> int:
    if "\\" not in text:
        found = [n for n in (text.find(ch, start) for ch in chars) if n >= 0]
        return min(found) if found else -1
    i = start
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] in chars:
            return i
        i += 1
    return -1


def _brace_expand(text: str, budget: int = _MAX_WORDS) -> list[str]:
    """Bash brace expansion (``a{b,c}d``, ``{1..3}``) on an escaped pattern string."""
    i = 0
    while True:
        i = _find_unescaped(text, "{", i)
        if i < 0:
            return [text]
        depth = 0
        j = i
        commas: list[int] = []
        close = -1
        while j < len(text):
            ch = text[j]
            if ch == "\\":
                j += 2
                continue
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    close = j
                    break
            elif ch == "," and depth == 1:
                commas.append(j)
            j += 1
        if close < 0:
            return [text]
        prefix, suffix = text[:i], text[close + 1 :]
        inner = text[i + 1 : close]
        choices: list[str] | None
        if commas:
            bounds = [i, *commas, close]
            choices = [text[bounds[k] + 1 : bounds[k + 1]] for k in range(len(bounds) - 1)]
        else:
            choices = _sequence(inner, budget)
        if choices is None:
            i += 1
            continue
        out: list[str] = []
        for choice in choices:
            for expanded in _brace_expand(prefix + choice + suffix, budget):
                out.append(expanded)
                if len(out) >= budget:
                    return out
        return out


def _sequence(inner: str, budget: int) -> list[str] | None:
    """``1..5`` or ``a..e`` of a brace expression; None for anything else."""
    bounds = inner.split("..")
    if len(bounds) != 2:
        return None
    a, b = bounds
    if a.lstrip("-").isdigit() and b.lstrip("-").isdigit():
        lo, hi = int(a), int(b)
        step = 1 if hi >= lo else -1
        return [str(n) for n in range(lo, hi + step, step)][:budget]
    if len(a) == len(b) == 1 and a.isalpha() and b.isalpha():
        step = 1 if ord(b) >= ord(a) else -1
        return [chr(c) for c in range(ord(a), ord(b) + step, step)]
    return None


def _is_glob(pattern: str) -> bool:
    return _find_unescaped(pattern, "*?[") >= 0


def _glob(pattern: str, scope: Scope, files: Files | None) -> list[str] | None:
    """Known files matching ``pattern`` (in the form it was written); None when it cannot be expanded."""
    if files is None:
        return None
    slash = pattern.rfind("/")
    directory, name = (pattern[:slash], pattern[slash + 1 :]) if slash >= 0 else ("", pattern)
    if _is_glob(directory) and not _reads_literally(directory, scope, files):
        return _glob_folders(pattern, scope, files)
    written = _unescape(directory) if slash > 0 else ("/" if slash == 0 else ".")
    base = join(scope.cwd, written)
    if base is None:
        return None
    try:
        regex = re.compile(_translate(name))
    except re.error:
        return None  # a bracket expression Python's re reads differently; leave it unexpanded
    prefix = base.rstrip("/") + "/"
    matches: list[str] = []
    for path in dict.fromkeys([*files.files_under(base), *files.listed_in(base)]):
        if not path.startswith(prefix):
            continue
        rest = path[len(prefix) :]
        if "/" in rest or not regex.fullmatch(rest):
            continue
        if rest.startswith(".") and not name.startswith("."):
            continue  # bash globs skip dot files unless the pattern names the dot
        matches.append(rest if slash < 0 else posixpath.join(written, rest))
    return sorted(matches)


def _glob_folders(pattern: str, scope: Scope, files: Files) -> list[str] | None:
    """Known paths matching a pattern with wildcards in its folders (``tests/*/steps/``), or None.

    A path matches when each of its segments below the pattern's fixed folder
    matches the pattern's segment at the same depth: a known file, or a folder
    a known file is in.
    """
    trailing = pattern.endswith("/")
    segments = pattern.rstrip("/").split("/")
    fixed = next(i for i, segment in enumerate(segments) if _is_glob(segment))
    written = "/".join(segments[:fixed]) if fixed else ("/" if pattern.startswith("/") else ".")
    written = _unescape(written) if fixed else written
    base = join(scope.cwd, written)
    if base is None:
        return None
    try:
        regexes = [re.compile(_translate(segment)) for segment in segments[fixed:]]
    except re.error:
        return None
    prefix = base.rstrip("/") + "/"
    found: set[str] = set()
    for path in dict.fromkeys([*files.files_under(base), *files.listed_in(base)]):
        if not path.startswith(prefix):
            continue
        parts = path[len(prefix) :].split("/")
        if len(parts) < len(regexes) or (trailing and len(parts) == len(regexes)):
            continue  # too shallow, or a file where the pattern names a folder
        wanted = parts[: len(regexes)]
        if any(part.startswith(".") for part in wanted):
            continue  # bash globs skip dot files
        if all(r.fullmatch(part) for r, part in zip(regexes, wanted, strict=True)):
            found.add("/".join(wanted))
    if not found:
        return None
    joined = "" if written == "." else written.rstrip("/") + "/"
    return sorted(joined + rest + ("/" if trailing else "") for rest in found)


def _bracket_bodies(pattern: str) -> list[str] | None:
    """The bodies of a pattern's bracket expressions; None when it also has ``*`` or ``?``."""
    if _find_unescaped(pattern, "*?") >= 0:
        return None
    bodies: list[str] = []
    i = _find_unescaped(pattern, "[")
    while i >= 0:
        first = i + 1
        if first < len(pattern) and pattern[first] in "!^":
            first += 1
        close = pattern.find("]", first + 1)
        if close < 0:
            break
        bodies.append(pattern[i + 1 : close])
        i = _find_unescaped(pattern, "[", close + 1)
    return bodies


# A range (``0-9``), a negation (``!x``), or a class (``[:alpha:]``): written as a pattern.
_PATTERN_BODY = lazy_pattern(r"^[!^]|.-.|\[:")


def _names_a_placeholder(body: str) -> bool:
    """Whether a bracket body reads as a name in brackets rather than a set of characters.

    Route folders (``[id]``, ``[...slug]``) and the placeholders a published
    log puts for what it hid (``[USER]``, ``[REDACTED_IP]``) are names: no one
    lists a set of characters with a letter twice, or spells a set as a word of
    three or more letters.
    """
    if _PATTERN_BODY.search(body) or "\\" in body:
        return False
    return len(set(body)) < len(body) or len(body) >= 3


def _reads_literally(pattern: str, scope: Scope, files: Files | None) -> bool:
    """Whether a pattern no known file matched names the path it spells.

    Bash passes an unmatched pattern on literally.  A pattern of bracket
    expressions alone names the path it spells when those brackets are names
    (``app/[id]``, ``/home/[USER]``), or when that very path is known to exist;
    ``*`` and ``?`` patterns stay unknown: they match files the tracker has not seen.
    """
    bodies = _bracket_bodies(pattern)
    if not bodies:
        return False
    if all(_names_a_placeholder(body) for body in bodies):
        return True
    if files is None:
        return False
    path = join(scope.cwd, _unescape(pattern))
    return path is not None and (files.exists(path) is True or files.is_directory(path) is True)


# POSIX character classes inside a bracket expression, as Python's re spells their members.
_CLASS_NAME = lazy_pattern(r"\\\[:([a-z]+):\]")
_CLASS_SETS = {
    "alnum": "a-zA-Z0-9",
    "alpha": "a-zA-Z",
    "digit": "0-9",
    "lower": "a-z",
    "upper": "A-Z",
    "space": " \\t\\n\\r\\f\\v",
    "xdigit": "0-9A-Fa-f",
    "punct": "!-/:-@\\x5b-`{-~",
}


def _class_set(found: re.Match[str]) -> str:
    members = _CLASS_SETS.get(found.group(1))
    if members is None:
        raise re.error(f"an unknown character class {found.group(0)}")
    return members


def _translate(pattern: str) -> str:
    """A shell glob (with backslash escapes) as a regular expression over one path segment."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            out.append(re.escape(pattern[i + 1]))
            i += 2
        elif ch == "*":
            out.append("[^/]*")
            i += 1
        elif ch == "?":
            out.append("[^/]")
            i += 1
        elif ch == "[":
            # A "]" right after "[" or "[!" is a member of the set, not its end.
            first = i + 1
            if first < len(pattern) and pattern[first] in "!^":
                first += 1
            close = pattern.find("]", first + 1)
            if close < 0:
                out.append(re.escape(ch))
                i += 1
                continue
            if pattern.find("[:", i + 1, close) >= 0:
                close = pattern.find(":]]", i + 1)
                if close < 0:
                    raise re.error("an unclosed character class")
                close += 2
            body = pattern[i + 1 : close]
            negation = "^" if body.startswith("!") else ""
            body = body[len(negation) :].replace("\\", "\\\\")
            body = _CLASS_NAME.sub(_class_set, body.replace("[", "\\["))
            out.append("[" + negation + body + "]")
            i = close + 1
        else:
            out.append(re.escape(ch))
            i += 1
    return "".join(out)


def _is_plain(word: Word) -> bool:
    """Whether ``word`` has no unquoted brace or glob character (a loop: most words are asked, and most are plain)."""
    for part in word.parts:
        if isinstance(part, Lit) and not part.quoted and not _ACTIVE.isdisjoint(part.text):
            return False
    return True


def expand_word(word: Word, scope: Scope, files: Files | None, substitute: Substitute) -> list[Arg]:
    """The arguments one word becomes."""
    if _is_plain(word):
        # No unquoted brace or glob character: the word is exactly its text.
        return [Arg(word_text(word, scope, substitute), word.raw)]
    pattern = _escaped_pieces(word, scope, substitute)
    if pattern is None:
        return [Arg(None, word.raw)]
    out: list[Arg] = []
    for piece in _brace_expand(pattern):
        if _is_glob(piece):
            matches = _glob(piece, scope, files)
            if matches:
                out.extend(Arg(m, word.raw) for m in matches)
            elif _reads_literally(piece, scope, files):
                out.append(Arg(_unescape(piece), word.raw))
            else:
                out.append(Arg(_unescape(piece), word.raw, glob=True))
        else:
            out.append(Arg(_unescape(piece), word.raw))
    return out
