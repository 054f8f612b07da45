"""Applying simple ``sed`` scripts to text whose content is known.

Agents write a script with a heredoc, adjust it with ``sed -i``, then run
it; knowing the adjusted text lets the script's own effects be inferred.
This covers the commands agents use in place: ``s`` (with ``g``, ``I`` or
an occurrence number), ``d``, ``i\\``, ``a\\`` and ``c\\``, each with no
address, a line number, ``$``, a range ``N,M`` or a ``/regex/`` address, in
GNU basic or extended (``-E``) regular expressions.  Anything else
(hold space, branches, ``\\U`` case conversion, ``w``) returns None: the
edit is then reported without its new content, never with a guessed one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["apply_sed", "minimal_edit"]

_CLASSES = {
    "[:space:]": r"\s",
    "[:digit:]": r"\d",
    "[:alpha:]": "a-zA-Z",
    "[:alnum:]": "a-zA-Z0-9",
    "[:upper:]": "A-Z",
    "[:lower:]": "a-z",
    "[:blank:]": r" \t",
    "[:punct:]": r"!-/:-@\[-`{-~",
    "[:xdigit:]": "0-9A-Fa-f",
    "[:word:]": r"\w",
}


class _Unsupported(Exception):
    """The script uses something this module does not model."""


@dataclass
class _Address:
    kind: str  # "all", "line", "last", "range", "regex"
    first: int = 0
    last: int = 0
    regex: re.Pattern[str] | None = None


@dataclass
class _Command:
    address: _Address
    name: str  # "s", "d", "i", "a", "c"
    pattern: re.Pattern[str] | None = None
    replacement: str = ""
    count: int = 1  # 0: every occurrence
    occurrence: int = 1
    text: str = ""


def _bracket(pattern: str, i: int) -> tuple[str, int]:
    """A bracket expression starting at ``pattern[i] == "["`` as Python regex text."""
    j = i + 1
    out = "["
    if j < len(pattern) and pattern[j] == "^":
        out += "^"
        j += 1
    if j < len(pattern) and pattern[j] == "]":
        out += r"\]"
        j += 1
    while j < len(pattern) and pattern[j] != "]":
        if pattern.startswith("[:", j):
            end = pattern.find(":]", j)
            if end < 0:
                raise _Unsupported
            name = pattern[j : end + 2]
            if name not in _CLASSES:
                raise _Unsupported
            out += _CLASSES[name]
            j = end + 2
            continue
        ch = pattern[j]
        out += "\\\\" if ch == "\\" else ch
        j += 1
    if j >= len(pattern):
        raise _Unsupported
    return out + "]", j + 1


def _regex(pattern: str, extended: bool, flags: int) -> re.Pattern[str]:
    """A GNU sed regular expression (basic or extended) as a Python pattern."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            i += 2
            if not extended and nxt in "(){}|+?":
                out.append(nxt)  # \( \) \{ \} \| \+ \? are operators in a basic regex
            elif nxt in "ntwWsSbB" or nxt.isdigit():
                out.append("\\" + nxt)  # the same escape in Python
            elif nxt in "<>`'":
                raise _Unsupported
            else:
                out.append(re.escape(nxt))
            continue
        if ch == "[":
            text, i = _bracket(pattern, i)
            out.append(text)
            continue
        if ch in "(){}|+?" and not extended:
            out.append(re.escape(ch))
        elif ch == "*" and (not out or out[-1] in ("^", "(")) and not extended:
            out.append(r"\*")  # a leading * is literal in a basic regex
        else:
            out.append(ch)
        i += 1
    translated = "".join(out)
    if any(group in translated for group in (")*", ")+", ")?", "){")):
        # A quantified group is where backtracking can explode; agents'
        # sed scripts almost never need one, so it is not modelled.
        raise _Unsupported
    try:
        return re.compile(translated, flags)
    except re.error as exc:
        raise _Unsupported from exc


def _replacement(text: str) -> str:
    """A sed replacement as a Python ``re.sub`` template."""
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "&":
            out.append(r"\g<0>")
        elif ch == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            i += 1
            if nxt.isdigit():
                out.append(rf"\g<{nxt}>")
            elif nxt == "n":
                out.append("\n")
            elif nxt == "t":
                out.append("\t")
            elif nxt in "ULulE":
                raise _Unsupported  # case conversion
            elif nxt == "\\":
                out.append(r"\\")
            else:
                out.append(nxt)
        elif ch == "\\":
            out.append(r"\\")
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def _split(text: str, i: int, delimiter: str) -> tuple[str, int]:
    """Text up to the next unescaped ``delimiter`` (escaped delimiters unescaped)."""
    out: list[str] = []
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            if text[i + 1] == delimiter:
                out.append(delimiter)
            else:
                out.append(text[i : i + 2])
            i += 2
            continue
        if ch == delimiter:
            return "".join(out), i + 1
        if ch == "\n":
            raise _Unsupported
        out.append(ch)
        i += 1
    raise _Unsupported


def _number(text: str, i: int) -> tuple[int | None, int]:
    j = i
    while j < len(text) and text[j].isdigit():
        j += 1
    return (int(text[i:j]), j) if j > i else (None, i)


def _address(script: str, i: int, extended: bool) -> tuple[_Address, int]:
    first, i = _number(script, i)
    if first is None:
        if i < len(script) and script[i] == "$":
            return _Address("last"), i + 1
        if i < len(script) and script[i] == "/":
            body, i = _split(script, i + 1, "/")
            return _Address("regex", regex=_regex(body, extended, 0)), i
        return _Address("all"), i
    if i < len(script) and script[i] == ",":
        if script[i + 1 : i + 2] == "$":
            return _Address("range", first, -1), i + 2
        last, j = _number(script, i + 1)
        if last is None:
            raise _Unsupported
        return _Address("range", first, last), j
    return _Address("line", first, first), i


def _parse(script: str, extended: bool) -> list[_Command]:
    commands: list[_Command] = []
    i = 0
    while i < len(script):
        while i < len(script) and script[i] in " \t\n;":
            i += 1
        if i >= len(script):
            break
        address, i = _address(script, i, extended)
        while i < len(script) and script[i] in " \t":
            i += 1
        if i >= len(script):
            raise _Unsupported
        name = script[i]
        i += 1
        if name == "s":
            if i >= len(script):
                raise _Unsupported
            delimiter = script[i]
            pattern, i = _split(script, i + 1, delimiter)
            replacement, i = _split(script, i, delimiter)
            flags, count, occurrence = 0, 1, 1
            while i < len(script) and script[i] not in ";\n}":
                flag = script[i]
                if flag == "g":
                    count = 0
                elif flag in "Ii":
                    flags |= re.IGNORECASE
                elif flag.isdigit():
                    occurrence, i = _number(script, i)  # type: ignore[assignment]
                    continue
                elif flag in " \t":
                    pass
                else:
                    raise _Unsupported
                i += 1
            if not pattern:
                raise _Unsupported  # an empty regex reuses the last one
            commands.append(
                _Command(
                    address,
                    "s",
                    _regex(pattern, extended, flags),
                    _replacement(replacement),
                    count,
                    occurrence,
                )
            )
        elif name == "d":
            commands.append(_Command(address, "d"))
        elif name in "iac":
            # GNU one-liner forms: `3i\text`, `3i text`, `$a\` + newline + text.
            if script[i : i + 1] == "\\":
                i += 1
                if script[i : i + 1] == "\n":
                    i += 1
            else:
                while i < len(script) and script[i] in " \t":
                    i += 1
            end = script.find("\n", i)
            text = script[i:] if end < 0 else script[i:end]
            i = len(script) if end < 0 else end
            if name == "c" and address.kind == "range":
                raise _Unsupported  # c on a range prints its text once, at the end
            commands.append(
                _Command(address, name, text=text.replace("\\n", "\n").replace("\\t", "\t"))
            )
        else:
            raise _Unsupported
    return commands


def _matches(address: _Address, number: int, total: int, line: str) -> bool:
    if address.kind == "all":
        return True
    if address.kind == "line":
        return number == address.first
    if address.kind == "last":
        return number == total
    if address.kind == "range":
        last = total if address.last == -1 else address.last
        return address.first <= number <= max(last, address.first)
    assert address.regex is not None
    return address.regex.search(line) is not None


def apply_sed(text: str, scripts: list[str], *, extended: bool = False) -> str | None:
    """``text`` after ``sed -e SCRIPT ...``; None when a script does more than this module models."""
    try:
        commands = [c for script in scripts for c in _parse(script, extended)]
    except _Unsupported:
        return None
    if not commands:
        return None
    lines = text.split("\n")
    trailing_newline = text.endswith("\n")
    if trailing_newline:
        lines.pop()
    total = len(lines)
    out: list[str] = []
    for number, original in enumerate(lines, start=1):
        line: str | None = original
        before: list[str] = []
        after: list[str] = []
        for command in commands:
            if line is None or not _matches(command.address, number, total, line):
                continue
            if command.name == "s":
                assert command.pattern is not None
                if command.occurrence != 1:
                    return None
                line = command.pattern.sub(command.replacement, line, count=command.count)
            elif command.name == "d":
                line = None
            elif command.name == "i":
                before.append(command.text)
            elif command.name == "a":
                after.append(command.text)
            elif command.name == "c":
                line = None
                after.append(command.text)
        out.extend(before)
        if line is not None:
            out.append(line)
        out.extend(after)
    result = "\n".join(out)
    return result + "\n" if trailing_newline and out else result


def minimal_edit(before: str, after: str) -> tuple[str, str]:
    """(old, new) covering the changed lines, with context until ``old`` occurs once in ``before``.

    The pair reads like an editor's replacement, so later stages see which
    lines (and symbols) changed rather than the whole file.
    """
    old_lines = before.splitlines(keepends=True)
    new_lines = after.splitlines(keepends=True)
    prefix = 0
    while prefix < min(len(old_lines), len(new_lines)) and old_lines[prefix] == new_lines[prefix]:
        prefix += 1
    suffix = 0
    while (
        suffix < min(len(old_lines), len(new_lines)) - prefix
        and old_lines[len(old_lines) - 1 - suffix] == new_lines[len(new_lines) - 1 - suffix]
    ):
        suffix += 1
    start, old_end, new_end = prefix, len(old_lines) - suffix, len(new_lines) - suffix
    while True:
        old = "".join(old_lines[start:old_end])
        if old and before.count(old) == 1:
            return old, "".join(new_lines[start:new_end])
        if start == 0 and old_end == len(old_lines):
            return before, after
        if start > 0:
            start -= 1
        if old_end < len(old_lines):
            old_end += 1
            new_end += 1
