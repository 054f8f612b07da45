"""Windows shells: ``cmd.exe`` and PowerShell commands, parsed into the same model as bash.

Agents on Windows (Cline, Copilot CLI's ``powershell`` tool, Codex) write
``cd c:\\app && del /f /q build\\out.log 2>nul`` or ``Remove-Item -Recurse
-Force dist; Set-Content -Path .env -Value "X=1"``.  Read as bash, the
backslashes vanish (``c:app``) and ``2>nul`` creates a file named ``nul``.

:func:`shell_dialect` says which shell a command is written for: the one
the harness declares, else PowerShell when the command uses cmdlets or
PowerShell variables, else ``cmd.exe`` when the command can only be
``cmd.exe`` (``del``, ``rd``, ``xcopy`` at the start of a command, ``> nul``)
or runs on a Windows drive and uses backslashes, ``%VARIABLES%`` or
``cmd.exe``'s programs (``type``, ``copy``, ``dir``), else bash.

:func:`parse_windows` tokenizes the command by that shell's rules (quotes,
``^`` and backtick escapes, ``%VAR%`` / ``$var`` known only at run time,
``&&`` ``||`` ``&`` ``|`` ``;`` and redirections) into the
:mod:`.parser` model, with each command translated to the POSIX command of
the same effect by :mod:`.windows_commands` (``del`` is ``rm``, ``Set-Content
-Value v f`` is ``echo v > f``), so one analysis serves every shell.  Paths
get forward slashes; ``nul`` and ``$null`` are ``/dev/null``.
"""

from __future__ import annotations

import re
from typing import Literal

from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.parser import (
    Command,
    Lit,
    Opaque,
    Pipeline,
    Redirect,
    Script,
    Sequence,
    Var,
    Word,
)
from artifact_index.shell.windows_commands import POWERSHELL_VARIABLE, translate

__all__ = ["Dialect", "parse_windows", "shell_dialect"]

Dialect = Literal["bash", "cmd", "powershell"]

# A cmdlet where a command starts (not one quoted in a commit message).
_CMDLET = lazy_pattern(
    r"(?:^|[;|&({]|\n)\s*(?:Get|Set|New|Remove|Copy|Move|Rename|Add|Out|Clear|Test|Write|Select|Where|ForEach|"
    r"Invoke|Start|Stop|Expand|Compress|Import|Export|Measure|Sort|Split|Join|Resolve|Push|Pop|Tee)-[A-Z][A-Za-z]+\b"
)
_POWERSHELL_MARKS = lazy_pattern(
    r"\$(?:env:\w+|null\b|PSScriptRoot\b|LASTEXITCODE\b)|\s-ErrorAction\s"
)
_CMD_PROGRAMS = frozenset(
    {
        "del",
        "erase",
        "copy",
        "xcopy",
        "robocopy",
        "move",
        "ren",
        "rename",
        "rd",
        "rmdir",
        "md",
        "mkdir",
        "type",
        "dir",
        "cls",
        "findstr",
        "taskkill",
        "tasklist",
        "timeout",
        "start",
        "where",
        "ver",
        "attrib",
        "icacls",
        "call",
        "set",
    }
)
# What only cmd.exe means, wherever the command runs: output to the NUL device, or
# a program Unix does not have at the start of a command.
_NUL_OUTPUT = lazy_pattern(r"\d?>>?\s*nul\b", re.IGNORECASE)
_CMD_PROGRAM = lazy_pattern(
    r"(?:^|&&?|\|\|?)\s*(?:del|erase|ren|rd|md|xcopy|robocopy)\s", re.IGNORECASE
)
# A cmdlet name holds a dash before a capital: without one, _CMDLET need not be tried at every character.
_DASH_CAPITAL = lazy_pattern(r"-[A-Z]")
_DRIVE = lazy_pattern(r"^[A-Za-z]:[\\/]")
# cmd.exe's own variables (`%USERPROFILE%`, `%~dp0`, `%%i`): a bare `%` is as likely a format
# string of a bash command (`git log --format='%H%n%an <%ae>'`, `printf '%s'`) run by Git Bash.
# Git's placeholders are one or two letters (`%an`, `%ad%n`); cmd's variables are longer or capitals.
_CMD_VARIABLE = lazy_pattern(r"%(?:[A-Za-z_][A-Za-z0-9_]{2,}|[A-Z][A-Z0-9_]+)%|%~|%%[A-Za-z]\b")


def shell_dialect(command: str, cwd: str | None, declared: str | None = None) -> Dialect:
    """The shell ``command`` is written for (see the module docstring)."""
    if declared in ("bash", "cmd", "powershell"):
        return declared  # type: ignore[return-value]
    # Each pattern is tried only when the command holds what it cannot match without.
    if (_DASH_CAPITAL.search(command) and _CMDLET.search(command)) or (
        ("$" in command or "-ErrorAction" in command) and _POWERSHELL_MARKS.search(command)
    ):
        return "powershell"
    if (">" in command and _NUL_OUTPUT.search(command)) or _cmd_program_starts(command):
        return "cmd"
    # On a Windows drive, `;` between commands says PowerShell (cmd.exe passes it
    # on as text); backslashes, %VARIABLES% and cmd's own programs say cmd.exe.
    on_windows = bool(cwd and _DRIVE.match(cwd))
    if on_windows and re.search(r";\s*[A-Za-z.&]", command) and "\\" in command:
        return "powershell"
    if on_windows and (
        "\\" in command
        or ("%" in command and _CMD_VARIABLE.search(command))
        or _first_programs(command) & _CMD_PROGRAMS
    ):
        return "cmd"
    return "bash"


def _cmd_program_starts(command: str) -> bool:
    """Whether a command of ``command`` runs a program only cmd.exe has (``del``, ``rd``, ``xcopy``)."""
    if "&" not in command and "|" not in command:
        return _CMD_PROGRAM.match(command) is not None  # only the first command can
    return _CMD_PROGRAM.search(command) is not None


def _first_programs(command: str) -> set[str]:
    return {
        m.group(1).lower()
        for m in re.finditer(r"(?:^|&&|\|\||[&|;])\s*@?([A-Za-z][\w.-]*)", command)
    }


# ---------------------------------------------------------------------------
# Tokens

# A PowerShell here-string: its opening `@'` or `@"` ends its line, its closing starts one.
_HERE_STRING = lazy_pattern(r"@(?P<quote>['\"])[ \t]*\r?\n(?P<body>.*?)\r?\n(?P=quote)@", re.DOTALL)
_REDIRECT = lazy_pattern(r"(\*|\d)?(>>|>)(&\d)?|<")
# Characters that, inside a word, never start anything but more of the word, in either shell
# (a digit or `*` starts a redirection only where no word has begun).
_PLAIN_RUN = lazy_pattern(r"[^ \t\r\n^`\"'{($%<>&|;,]*")


class _Token:
    """A word (its parts) or an operator."""

    def __init__(
        self,
        parts: list[Lit | Opaque | Var] | None = None,
        raw: str = "",
        operator: str | None = None,
    ) -> None:
        self.parts = parts or []
        self.raw = raw
        self.operator = operator

    def word(self) -> Word:
        return Word(tuple(self.parts), self.raw)


def _tokens(text: str, dialect: Dialect) -> list[_Token]:
    powershell = dialect == "powershell"
    escape = "`" if powershell else "^"
    # cmd.exe passes `;` to the program; PowerShell separates statements with it.
    operators = ("&&", "||", "|", ";", "&") if powershell else ("&&", "||", "&", "|")
    out: list[_Token] = []
    current: _Token | None = None
    i = 0

    def add(part: Lit | Opaque | Var, raw: str) -> None:
        nonlocal current
        if current is None:
            current = _Token()
        current.parts.append(part)
        current.raw += raw

    def end_word() -> None:
        nonlocal current
        if current is not None:
            out.append(current)
            current = None

    while i < len(text):
        ch = text[i]
        if ch in " \t\r":
            end_word()
            i += 1
        elif ch == "\n":
            end_word()
            out.append(_Token(operator=";"))
            i += 1
        elif ch == escape and i + 1 < len(text):
            add(Lit(text[i + 1], quoted=True), text[i : i + 2])
            i += 2
        elif powershell and (here := _HERE_STRING.match(text, i)) is not None:
            # `@'` / `@"` to a line starting `'@` / `"@`: one string, whatever quotes or `>` it holds.
            body = here.group("body")
            if here.group("quote") == "'":
                add(Lit(body, quoted=True), here.group(0))
            else:
                for piece in _expandable(body, powershell):
                    add(piece, "")
                if current is not None:
                    current.raw += here.group(0)
                else:
                    add(Lit("", quoted=True), here.group(0))
            i = here.end()
        elif ch == '"':
            end = text.find('"', i + 1)
            end = len(text) if end < 0 else end
            body = text[i + 1 : end]
            for piece in _expandable(body, powershell):
                add(piece, "")
            if current is not None:
                current.raw += text[i : end + 1]
            else:
                add(Lit("", quoted=True), text[i : end + 1])
            i = end + 1
        elif ch == "'" and powershell:
            end = i + 1
            body = ""
            while end < len(text):
                if text[end] == "'" and text[end + 1 : end + 2] == "'":
                    body += "'"
                    end += 2
                elif text[end] == "'":
                    break
                else:
                    body += text[end]
                    end += 1
            add(Lit(body, quoted=True), text[i : end + 1])
            i = end + 1
        elif powershell and (ch in "{(" or (ch == "$" and text[i + 1 : i + 2] in ("(", "{"))):
            end = _matching(text, i + (1 if ch == "$" else 0))
            add(Opaque(text[i:end]), text[i:end])
            i = end
        elif (
            ch == "$"
            and powershell
            and i + 1 < len(text)
            and (text[i + 1].isalnum() or text[i + 1] in "_:")
        ):
            match = re.match(r"\$[\w:]+", text[i:])
            assert match is not None
            name = match.group(0)
            if name.lower() == "$null":
                add(Lit("/dev/null"), name)
            else:
                add(_variable(name), name)
            i += len(name)
        elif ch == "%" and not powershell and re.match(r"%[\w~:]+%", text[i:]):
            match = re.match(r"%[\w~:]+%", text[i:])
            assert match is not None
            add(Opaque(match.group(0)), match.group(0))
            i += len(match.group(0))
        elif (redirect := _REDIRECT.match(text, i)) is not None and (
            current is None or redirect.group(1) is None
        ):
            end_word()
            out.append(_Token(operator=redirect.group(0), raw=redirect.group(0)))
            i = redirect.end()
        elif (op := next((o for o in operators if text.startswith(o, i)), None)) is not None:
            end_word()
            if op == "&" and powershell and not (out and out[-1].operator is None):
                # The call operator: `& "C:\\tools\\fmt.exe" src` runs what follows.  It stays a
                # word so the command knows a quoted string is a program, not text to print.
                add(Lit("&"), "&")
                end_word()
            else:
                out.append(_Token(operator=op))
            i += len(op)
        elif ch == "," and powershell:
            end_word()  # an array: `Remove-Item a.txt, b.txt`
            i += 1
        else:
            # The plain characters after this one go the same way, one at a time: take them together.
            run = _PLAIN_RUN.match(text, i + 1)
            assert run is not None  # it matches the empty string too
            end = run.end()
            add(Lit(text[i:end]), text[i:end])
            i = end
    end_word()
    return [_merge(t) for t in out]


def _variable(name: str) -> Var | Opaque:
    """A PowerShell ``$name``: a variable the command may assign (case-insensitive).

    ``$env:X`` and other drive- or scope-qualified names stay unknown.
    """
    bare = name[1:]
    if ":" in bare or not bare.isidentifier():
        return Opaque(name)
    return Var(POWERSHELL_VARIABLE + bare.lower())


def _matching(text: str, start: int) -> int:
    """The index after the bracket that closes the one at ``start``."""
    opening = text[start]
    closing = {"(": ")", "{": "}"}[opening]
    depth = 0
    for i in range(start, len(text)):
        if text[i] == opening:
            depth += 1
        elif text[i] == closing:
            depth -= 1
            if depth == 0:
                return i + 1
    return len(text)


def _expandable(body: str, powershell: bool) -> list[Lit | Opaque | Var]:
    """The parts of a double-quoted string: variables are known only at run time."""
    pattern = r"\$\([^)]*\)|\$\{[^}]*\}|\$[\w:]+" if powershell else r"%[\w~:]+%"
    parts: list[Lit | Opaque | Var] = []
    position = 0
    for match in re.finditer(pattern, body):
        if match.start() > position:
            parts.append(Lit(body[position : match.start()], quoted=True))
        parts.append(_variable(match.group(0)) if powershell else Opaque(match.group(0)))
        position = match.end()
    if position < len(body) or not parts:
        parts.append(Lit(body[position:], quoted=True))
    return parts


def _merge(token: _Token) -> _Token:
    """Adjacent literal parts as one."""
    merged: list[Lit | Opaque | Var] = []
    for part in token.parts:
        if merged and isinstance(part, Lit) and isinstance(merged[-1], Lit):
            merged[-1] = Lit(merged[-1].text + part.text, quoted=merged[-1].quoted or part.quoted)
        else:
            merged.append(part)
    token.parts = merged
    return token


# ---------------------------------------------------------------------------
# The model


def parse_windows(text: str, dialect: Dialect) -> Script:
    """``text`` as a cmd.exe or PowerShell command, in the :mod:`.parser` model."""
    items: list[Pipeline | Command] = []
    operators: list[str] = []
    pipeline: list[Command] = []
    words: list[_Token] = []
    redirects: list[Redirect] = []
    shown: list[str] = []  # the command as typed, redirections included

    def finish_command() -> None:
        nonlocal words, redirects, shown
        if words or redirects:
            pipeline.append(
                translate([t.word() for t in words], tuple(redirects), " ".join(shown), dialect)
            )
        words, redirects, shown = [], [], []

    def finish_pipeline() -> None:
        nonlocal pipeline
        finish_command()
        if pipeline:
            items.append(pipeline[0] if len(pipeline) == 1 else Pipeline(tuple(pipeline)))
        pipeline = []

    tokens = _tokens(text, dialect)
    k = 0
    while k < len(tokens):
        token = tokens[k]
        op = token.operator
        if op is None:
            words.append(token)
            shown.append(token.raw)
        elif op == "|":
            finish_command()
        elif op in ("&&", "||", "&", ";"):
            finish_pipeline()
            if items and len(operators) < len(items):
                operators.append(op)
        else:
            target = (
                tokens[k + 1] if k + 1 < len(tokens) and tokens[k + 1].operator is None else None
            )
            redirect = _redirect(op, target)
            shown.append(op + (target.raw if target is not None and redirect is not None else ""))
            if redirect is not None:
                redirects.append(redirect)
                k += 1
        k += 1
    finish_pipeline()
    return Script(Sequence(tuple(items), tuple(operators[: max(0, len(items) - 1)])), text)


def _redirect(op: str, target: _Token | None) -> Redirect | None:
    if op == "<":
        return Redirect("<", target=target.word()) if target is not None else None
    match = re.match(r"(\*|\d)?(>>|>)(&\d)?$", op)
    if match is None or match.group(3):
        return None  # 2>&1: a descriptor, not a file
    fd_text, arrow = match.group(1), match.group(2)
    if target is None:
        return None
    word = target.word()
    if word.literal is not None and word.literal.lower() in ("nul", "nul:", "/dev/null"):
        word = Word((Lit("/dev/null"),), target.raw)
    if fd_text == "*":
        return Redirect("&>>" if arrow == ">>" else "&>", target=word)
    return Redirect(arrow, fd=int(fd_text) if fd_text else None, target=word)
