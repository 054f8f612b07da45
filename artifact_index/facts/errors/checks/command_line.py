"""The simple commands of a command line: heredocs dropped, tokenized, split at ``;``, ``&&`` and ``|``, wrappers removed."""

from __future__ import annotations

import functools
import re

from artifact_index.lazy_pattern import lazy_pattern

__all__ = [
    "PYTHON_INTERPRETER",
    "executable",
    "segments",
    "unwrap",
    "word_set",
]

_SEPARATORS = {";", "&&", "||", "|", "&", "|&", "(", ")", ";;"}
_PIPE = {"|", "|&"}
_HEREDOC = lazy_pattern(r"<<-?\s*(['\"]?)([A-Za-z_][\w-]*)\1")
_ENV_ASSIGNMENT = lazy_pattern(r"^[A-Za-z_][A-Za-z0-9_]*=")
_MAX_COMMAND = 4000
_VARIABLE = lazy_pattern(r"^\$(?:(?P<bare>[A-Za-z_]\w*)|\{(?P<braced>[A-Za-z_]\w*)\})$")
_PUNCTUATION = ";&|<>()"
# A run of punctuation, or of anything but punctuation and shlex's whitespace (" \t\r\n").
_PLAIN_TOKEN = lazy_pattern(rf"[{re.escape(_PUNCTUATION)}]+|[^ \t\r\n{re.escape(_PUNCTUATION)}]+")


def _strip_heredocs(command: str) -> str:
    """Drop heredoc bodies: their lines are data, not commands."""
    if "<<" not in command:
        return command
    lines = command.split("\n")
    out: list[str] = []
    delimiter: str | None = None
    for line in lines:
        if delimiter is not None:
            if line.strip() == delimiter:
                delimiter = None
            continue
        out.append(line)
        openers = _HEREDOC.findall(line)
        if openers:
            delimiter = openers[-1][1]
    return "\n".join(out)


def _tokens(command: str) -> list[str]:
    text = _strip_heredocs(command[:_MAX_COMMAND]).replace("\\\n", " ").replace("\n", " ; ")
    if "'" not in text and '"' not in text and "\\" not in text:
        # Without quotes or escapes shlex only splits at its whitespace and at
        # runs of punctuation: the same tokens, found in C (shlex reads a
        # character at a time, and three of four commands have nothing to unquote).
        return _PLAIN_TOKEN.findall(text)
    return _quoted_tokens(text)


# The tokens of ``shlex.shlex(text, posix=True, punctuation_chars=_PUNCTUATION)`` with
# ``whitespace_split`` and no commenters, found by one regular expression: a run of
# punctuation, or a word made of plain runs, single- and double-quoted strings and
# escaped characters.  Anything else where a token starts is an unclosed quote or a
# final backslash, where shlex raises ValueError.
_WHITESPACE = " \t\r\n"
_QUOTED_TOKEN = lazy_pattern(
    rf"[{_WHITESPACE}]+"
    rf"|(?P<punctuation>[{re.escape(_PUNCTUATION)}]+)"
    rf"|(?P<word>(?:[^{_WHITESPACE}{re.escape(_PUNCTUATION)}'\"\\]+|'[^']*'|\"(?:[^\"\\]|\\.)*\"|\\.)+)"
    r"|(?P<unclosed>.)",
    re.DOTALL,
)
_WORD_PART = lazy_pattern(r"'([^']*)'|\"((?:[^\"\\]|\\.)*)\"|\\(.)|([^'\"\\]+)", re.DOTALL)
# Inside double quotes a backslash escapes only a double quote or a backslash (it stays before anything else).
_DOUBLE_QUOTED_ESCAPE = lazy_pattern(r'\\(["\\])', re.DOTALL)


def _quoted_tokens(text: str) -> list[str]:
    tokens: list[str] = []
    for match in _QUOTED_TOKEN.finditer(text):
        kind = match.lastgroup
        if kind == "punctuation":
            tokens.append(match.group())
        elif kind == "word":
            word = match.group()
            if "'" in word or '"' in word or "\\" in word:
                word = "".join(_unquoted(part) for part in _WORD_PART.finditer(word))
            tokens.append(word)
        elif kind == "unclosed":
            return text.split()  # unbalanced quotes: a plain split is still useful
    return tokens


def _unquoted(part: re.Match[str]) -> str:
    single, double, escaped, plain = part.groups()
    if single is not None:
        return single
    if double is not None:
        return _DOUBLE_QUOTED_ESCAPE.sub(r"\1", double) if "\\" in double else double
    return escaped if escaped is not None else plain


def segments(command: str) -> list[tuple[bool, list[str]]]:
    """The simple commands of ``command`` as ``(piped, words)``, redirections removed.

    ``piped`` is True when the command reads the previous one's output
    (``... | tail -20``).
    """
    return [(piped, list(words)) for piped, words in _segments(command)]


# The ledger, the test results, the work items and the failure reader all ask
# for the segments of the command a result belongs to: tokenizing it once (shlex
# is slow) serves them all.
@functools.lru_cache(maxsize=256)
def _segments(command: str) -> tuple[tuple[bool, tuple[str, ...]], ...]:
    result: list[tuple[bool, list[str]]] = []
    current: list[str] = []
    piped = False
    tokens = _tokens(command)
    # `PY=/env/bin/python` on its own, then `$PY -m pytest`: the later word is that value.
    variables: dict[str, str] = {}
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token in _SEPARATORS:
            if current and all(_ENV_ASSIGNMENT.match(w) for w in current):
                for word in current:
                    name, _, value = word.partition("=")
                    variables[name] = value
            if current:
                result.append((piped, current))
            current = []
            piped = token in _PIPE
        elif token and set(token) <= set("<>&") and ("<" in token or ">" in token):
            if current and current[-1] in ("0", "1", "2"):
                current.pop()  # the file descriptor of "2>&1"
            i += 1  # the redirection target
        else:
            reference = _VARIABLE.match(token)
            referenced = reference["bare"] or reference["braced"] if reference else None
            if referenced in variables:
                token = variables[referenced]
            current.append(token)
        i += 1
    if current:
        result.append((piped, current))
    return tuple((piped, tuple(words)) for piped, words in result)


def word_set(text: str) -> frozenset[str]:
    """A set of names written as one space-separated string, for long tables."""
    return frozenset(text.split())


# Wrappers that run the real command given after them (with the number of option
# values they take when known).
_WRAPPERS = word_set(
    "sudo time nice nohup command exec builtin stdbuf env xvfb-run caffeinate "
    "unbuffer npx bunx uvx pipx rtk"
)
_TWO_WORD_WRAPPERS = {
    ("uv", "run"),
    ("poetry", "run"),
    ("pipenv", "run"),
    ("pdm", "run"),
    ("hatch", "run"),
    ("rye", "run"),
    ("pnpm", "exec"),
    ("pnpm", "dlx"),
    ("yarn", "dlx"),
    ("yarn", "exec"),
    ("bun", "x"),
    ("bundle", "exec"),
    ("npm", "exec"),
    ("conda", "run"),
}
_WRAPPER_VALUE_OPTIONS = word_set(
    "--with --python -p --extra --group --package --env-file --directory --project -n "
    "--name -u --unset --prefix -C"
)

PYTHON_INTERPRETER = lazy_pattern(r"^(?:python|pypy)(?:\d+(?:\.\d+)*)?$|^py$")


def executable(word: str) -> str:
    """The program a word runs: ``/usr/bin/python3`` and ``pytest.exe`` name ``python3`` and ``pytest``."""
    name = word.rsplit("/", 1)[-1].rsplit("\\", 1)[-1]
    for suffix in (".exe", ".cmd", ".bat"):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return name


def unwrap(words: list[str]) -> list[str]:
    """Strip env assignments and wrapper commands (``timeout 60``, ``uv run``, ``npx``)."""
    i = 0
    while i < len(words):
        word = words[i]
        name = executable(word)
        if _ENV_ASSIGNMENT.match(word):
            i += 1
        elif name == "timeout" or name == "gtimeout":
            i += 1
            while i < len(words) and words[i].startswith("-"):
                i += 2 if words[i] in ("-s", "--signal", "-k", "--kill-after") else 1
            i += 1  # the duration
        elif name in _WRAPPERS:
            i += 1
            while i < len(words) and words[i].startswith("-"):
                i += 2 if words[i] in _WRAPPER_VALUE_OPTIONS else 1
        elif i + 1 < len(words) and (name, words[i + 1]) in _TWO_WORD_WRAPPERS:
            i += 2
            while i < len(words) and words[i].startswith("-"):
                i += 2 if words[i] in _WRAPPER_VALUE_OPTIONS else 1
        else:
            break
    return words[i:]
