"""Commands whose output is known: ``echo``, ``printf``, ``cat``, and the readers (``head``, ``tail``, ``less``...)."""

from __future__ import annotations

from artifact_index.ingestion.events import FileOperation
from artifact_index.shell.effects.effect import Effect
from artifact_index.shell.expand import Arg
from artifact_index.shell.invocation import (
    Invocation,
    Runtime,
    parse_options,
)

__all__ = [
    "cat",
    "echo",
    "printf",
    "reader",
]


def echo(inv: Invocation, runtime: Runtime) -> Effect:
    args = list(inv.args[1:])
    newline, escapes = True, False
    while (
        args
        and args[0].value
        and args[0].value.startswith("-")
        and len(args[0].value) > 1
        and set(args[0].value[1:]) <= set("neE")
    ):
        flags = args.pop(0).value or ""
        newline = newline and "n" not in flags
        escapes = ("e" in flags) or (escapes and "E" not in flags)
    if any(a.value is None for a in args):
        return Effect()
    text = " ".join(a.value or "" for a in args)
    if escapes:
        text, stop = _backslash_escapes(text)
        if stop:
            return Effect(stdout=text)
    return Effect(stdout=text + ("\n" if newline else ""))


_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "v": "\v",
    "\\": "\\",
    "e": "\x1b",
    "E": "\x1b",
}


def _backslash_escapes(text: str) -> tuple[str, bool]:
    """echo -e / printf %b escapes; the flag says output stopped at ``\\c``."""
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch != "\\" or i + 1 >= len(text):
            out.append(ch)
            i += 1
            continue
        nxt = text[i + 1]
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        elif nxt == "c":
            return "".join(out), True
        elif nxt == "0" or nxt in "1234567":
            j = i + 2 if nxt == "0" else i + 1
            digits = ""
            while j < len(text) and len(digits) < 3 and text[j] in "01234567":
                digits += text[j]
                j += 1
            out.append(chr(int(digits or "0", 8)))
            i = j
        elif nxt == "x":
            j = i + 2
            digits = ""
            while j < len(text) and len(digits) < 2 and text[j] in "0123456789abcdefABCDEF":
                digits += text[j]
                j += 1
            out.append(chr(int(digits, 16)) if digits else "\\x")
            i = j
        else:
            out.append("\\" + nxt)
            i += 2
    return "".join(out), False


def printf(inv: Invocation, runtime: Runtime) -> Effect:
    args = list(inv.args[1:])
    if args and args[0].value == "--":
        args.pop(0)
    if not args or any(a.value is None for a in args) or (args[0].value or "").startswith("-v"):
        return Effect()
    fmt = args[0].value or ""
    values = [a.value or "" for a in args[1:]]
    out: list[str] = []
    while True:
        text, used, ok = _format_once(fmt, values)
        if not ok:
            return Effect()
        out.append(text)
        values = values[used:]
        if not values or used == 0:
            break
    return Effect(stdout="".join(out))


def _format_once(fmt: str, values: list[str]) -> tuple[str, int, bool]:
    out: list[str] = []
    used = 0
    i = 0
    literal: list[str] = []
    while i < len(fmt):
        ch = fmt[i]
        if ch != "%":
            literal.append(ch)
            i += 1
            continue
        out.append(_backslash_escapes("".join(literal))[0])
        literal = []
        spec = fmt[i + 1 : i + 2]
        value = values[used] if used < len(values) else ""
        if spec == "%":
            out.append("%")
        elif spec == "s":
            out.append(value)
            used += 1
        elif spec == "b":
            out.append(_backslash_escapes(value)[0])
            used += 1
        elif spec in ("d", "i"):
            try:
                out.append(str(int(value or "0")))
            except ValueError:
                return "", used, False
            used += 1
        elif spec == "c":
            out.append(value[:1])
            used += 1
        else:
            return "", used, False  # widths, precision, floats: not worth guessing
        i += 2
    out.append(_backslash_escapes("".join(literal))[0])
    return "".join(out), used, True


def cat(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(inv.args[1:])
    ops: list[FileOperation] = []
    pieces: list[str | None] = []
    for arg in parsed.operands or [Arg("-", "-")]:
        if arg.value == "-":
            pieces.append(inv.stdin)
            continue
        path = inv.place(arg)
        if path is None:
            pieces.append(None)
            continue
        ops.append(inv.op("read", path))
        pieces.append(runtime.files.content_of(path))
    plain = all(name == "-u" for name, _ in parsed.options)
    stdout = (
        "".join(p for p in pieces if p is not None)
        if plain and all(p is not None for p in pieces)
        else None
    )
    return Effect(ops, stdout)


def reader(inv: Invocation, runtime: Runtime) -> Effect:
    name = inv.program
    short = {
        "head": "nc",
        "tail": "ncs",
        "nl": "bdfhilnpsvw",
        "less": "bhjkoOpPtTxyz",
        "bat": "lrHm",
    }.get(name or "", "")
    parsed = parse_options(
        inv.args[1:],
        short_values=short,
        long_values=("--lines", "--bytes", "--line-range", "--language"),
    )
    start: int | None = None
    end: int | None = None
    lines = parsed.value("-n", "--lines")
    if name == "head" and lines and lines.isdigit():
        start, end = 1, int(lines)
    elif name == "tail" and lines and lines.startswith("+") and lines[1:].isdigit():
        start = int(lines[1:])
    ops: list[FileOperation] = []
    for arg in parsed.operands:
        path = inv.place(arg)
        if path is not None and arg.value != "-":
            ops.append(inv.op("read", path, start_line=start, end_line=end))
    return Effect(ops)
