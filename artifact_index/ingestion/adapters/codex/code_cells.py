"""The shell commands of a Codex code-mode cell.

In code mode the model does not call ``exec_command`` itself: it writes a
JavaScript cell (a ``custom_tool_call`` named ``exec``) that calls the
tools, most often one command a cell::

    const r = await tools.exec_command({cmd: "rm -f build/out.txt", workdir: "/repo"});
    text(r.output);

and sometimes several at once (``Promise.all([...])``).  Each
``tools.exec_command({...})`` whose ``cmd`` is a string literal is a
command run in its ``workdir``; one whose command is built at run time (a
variable, a template with ``${...}``) cannot be read, and says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["CellCommand", "cell_commands", "cell_polls", "stringified_command"]

_CALL = lazy_pattern(r"\btools\.exec_command\s*\(\s*\{")
# `const b = await tools.exec_command(`: the variable that holds a command's result.
_ASSIGNED = lazy_pattern(r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:await\s+)?$")
_STRINGIFIED = lazy_pattern(r"\bJSON\.stringify\s*\(\s*([A-Za-z_$][\w$]*)\s*[,)]")
_STDIN = lazy_pattern(r"\btools\.write_stdin\s*\(\s*\{")
_NUMBER = lazy_pattern(r"\d+")
_KEY = lazy_pattern(
    r"\s*(?:(?P<name>[A-Za-z_$][\w$]*)|(?P<quote>[\"'])(?P<quoted>[^\"'\\]*)(?P=quote))\s*:"
)
_SIMPLE_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "b": "\b",
    "f": "\f",
    "v": "\v",
    "0": "\0",
}


@dataclass(frozen=True)
class CellCommand:
    """One ``tools.exec_command`` call: its command (None when built at run time) and directory."""

    command: str | None
    workdir: str | None
    variable: str | None = None  # the variable its result is assigned to, if any


def cell_commands(cell: str) -> list[CellCommand]:
    """The ``tools.exec_command`` calls of a cell, in the order they are written."""
    found: list[CellCommand] = []
    for call in _CALL.finditer(cell):
        fields = _object_fields(cell, call.end())
        command = fields.get("cmd", fields.get("command"))
        workdir = fields.get("workdir")
        line_start = cell.rfind("\n", 0, call.start()) + 1
        assigned = _ASSIGNED.search(cell, line_start, call.start())
        found.append(CellCommand(command, workdir, assigned.group(1) if assigned else None))
    return found


def stringified_command(cell: str, commands: list[CellCommand]) -> int | None:
    """Which of ``commands`` a cell prints as JSON (``text(JSON.stringify(b))``), when it prints one.

    That result is the one whose fields (an exit code, or a session still
    running) the cell's output shows; the others print their text alone.
    """
    printed = {m.group(1) for m in _STRINGIFIED.finditer(cell)}
    if len(printed) != 1:
        return None
    name = printed.pop()
    held = [i for i, found in enumerate(commands) if found.variable == name]
    return held[0] if len(held) == 1 else None


def cell_polls(cell: str) -> list[str]:
    """The sessions a cell polls: each ``tools.write_stdin({session_id: N, chars: ""})`` that types nothing.

    A command still running when its cell returned is given back as a session;
    such a poll prints what it printed next, and how it exited.
    """
    polls: list[str] = []
    for call in _STDIN.finditer(cell):
        fields = _object_fields(cell, call.end())
        session, chars = fields.get("session_id"), fields.get("chars", "")
        if session is not None and _NUMBER.fullmatch(session) and chars == "":
            polls.append(session)
    return polls


def _object_fields(text: str, start: int) -> dict[str, str | None]:
    """The fields of the object literal whose ``{`` ends just before ``start``: string values, else None."""
    fields: dict[str, str | None] = {}
    i = start
    while i < len(text):
        while i < len(text) and text[i] in " \t\r\n,":
            i += 1
        if i >= len(text) or text[i] == "}":
            break
        key = _KEY.match(text, i)
        if key is None:
            break  # a spread or a shorthand property: what follows cannot be read
        name = key["name"] if key["name"] is not None else key["quoted"]
        i = key.end()
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        value, i = _value(text, i)
        fields[name] = value
    return fields


def _value(text: str, i: int) -> tuple[str | None, int]:
    """A string or whole-number literal's text (None for any other expression) and where the value ends."""
    number = _NUMBER.match(text, i)
    if number is not None:
        rest = number.end()
        while rest < len(text) and text[rest] in " \t\r\n":
            rest += 1
        if rest < len(text) and text[rest] in ",}":
            return number.group(), rest
    if i < len(text) and text[i] in "\"'`":
        literal, end = _string(text, i)
        rest = end
        while rest < len(text) and text[rest] in " \t\r\n":
            rest += 1
        if rest < len(text) and text[rest] in ",}":
            return literal, rest
        i = end  # a literal inside a longer expression ("a" + b): built at run time
    return None, _skip_expression(text, i)


def _string(text: str, start: int) -> tuple[str | None, int]:
    """A JavaScript string literal at ``start``: its value (None for a template with ``${}``) and its end."""
    quote = text[start]
    out: list[str] = []
    dynamic = False
    i = start + 1
    while i < len(text):
        ch = text[i]
        if ch == quote:
            return (None if dynamic else "".join(out)), i + 1
        if ch == "\\" and i + 1 < len(text):
            escaped, i = _escape(text, i + 1)
            out.append(escaped)
            continue
        if quote == "`" and text.startswith("${", i):
            dynamic = True
        out.append(ch)
        i += 1
    return None, len(text)


def _escape(text: str, i: int) -> tuple[str, int]:
    """The character an escape sequence after a backslash stands for, and where it ends."""
    ch = text[i]
    if ch in _SIMPLE_ESCAPES:
        return _SIMPLE_ESCAPES[ch], i + 1
    if ch == "\n":
        return "", i + 1  # a line continuation
    if ch == "x" and re.fullmatch(r"[0-9A-Fa-f]{2}", text[i + 1 : i + 3]):
        return chr(int(text[i + 1 : i + 3], 16)), i + 3
    if ch == "u":
        braced = re.match(r"\{([0-9A-Fa-f]{1,6})\}", text[i + 1 :])
        if braced and int(braced.group(1), 16) <= 0x10FFFF:
            return chr(int(braced.group(1), 16)), i + 1 + braced.end()
        if re.fullmatch(r"[0-9A-Fa-f]{4}", text[i + 1 : i + 5]):
            return chr(int(text[i + 1 : i + 5], 16)), i + 5
    return ch, i + 1


def _skip_expression(text: str, i: int) -> int:
    """Past one expression of an object literal: to the ``,`` or ``}`` that ends it."""
    depth = 0
    while i < len(text):
        ch = text[i]
        if ch in "\"'`":
            _, i = _string(text, i)
            continue
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                return i
            depth -= 1
        elif ch == "," and depth == 0:
            return i
        i += 1
    return i
