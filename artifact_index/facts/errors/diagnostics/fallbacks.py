"""What is reported only when no specific family found anything: package-manager and runner wrappers, then a generic ``Error: ...`` line."""

from __future__ import annotations

import re
from collections.abc import Iterator

from artifact_index.facts.errors.diagnostics.diagnostic import Diagnostic
from artifact_index.facts.errors.diagnostics.tool_output import (
    Context,
    lines_after,
    optional_int,
    trimmed,
)
from artifact_index.lazy_pattern import lazy_pattern

__all__ = [
    "GENERIC_MARKERS",
    "SHELL_NEEDLES",
    "generic_errors",
    "wrapper_errors",
]

_NPM_LINE = lazy_pattern(r"^npm (?:ERR!|error) ?(?P<msg>.*)$")
_NPM_NOISE = lazy_pattern(
    r"^(?:code |errno |syscall |path |dest |A complete log|Log files|\s*$|command (?:failed|sh -c)"
    r"|signal |Lifecycle script|This is probably not a problem|Failed at the|workspace |location "
    r"|in workspace|at location)"
)
_PNPM_LINE = lazy_pattern(r"^[ \t]*(?P<code>ERR_PNPM_\w+)[ \t]+(?P<msg>.+)$")
_GO_PACKAGE_FAIL = lazy_pattern(
    r"^FAIL\t(?P<package>\S+)(?:[ \t]+\[(?P<why>[^\]]+)\]|\t[\d.]+s)?[ \t]*$"
)
_ELIXIR_RAISE = lazy_pattern(r"^\*\* \((?P<type>[\w.]+)\) (?P<msg>.+)$")
_ELIXIR_RAISE_FILE = lazy_pattern(r"(?P<file>\S+\.exs?)(?::(?P<line>\d+))?: ")


def wrapper_errors(ctx: Context) -> Iterator[Diagnostic]:
    code = message = None
    for _, line in ctx.lines("npm ERR!", "npm error"):
        if not (match := _NPM_LINE.match(line)):
            continue
        content = match["msg"]
        if content.startswith("code ") and code is None:
            code = content[5:].strip() or None
        elif message is None and not _NPM_NOISE.match(content):
            message = content
    if message or code:
        yield Diagnostic(
            message=trimmed(message or f"npm error {code}"), kind="npm", code=code, tool="npm"
        )
    for _, line in ctx.lines("ERR_PNPM_"):
        if match := _PNPM_LINE.match(line):
            yield Diagnostic(
                message=trimmed(match["msg"]), kind="npm", code=match["code"], tool="pnpm"
            )
            break
    for _, line in ctx.lines("FAIL"):
        if match := _GO_PACKAGE_FAIL.match(line):
            reason = f" [{match['why']}]" if match["why"] else ""
            yield Diagnostic(
                message=f"FAIL {match['package']}{reason}", kind="test-runner", tool="go test"
            )
    for _, line in ctx.lines("** ("):
        if match := _ELIXIR_RAISE.match(line):
            location = _ELIXIR_RAISE_FILE.match(match["msg"])
            yield Diagnostic(
                message=trimmed(line),
                tool="elixir",
                kind="compiler" if match["type"] == "CompileError" else "generic",
                file=location["file"] if location else None,
                line=optional_int(location["line"]) if location else None,
            )
            break


_GENERIC_ERROR = lazy_pattern(
    r"^[ \t]*(?:\[ERROR\][ \t]*)?(?P<msg>(?:[A-Z]\w*(?:Error|Exception)|Error|ERROR|error|fatal|FATAL"
    r"|Fatal error|panic)(?:\[[^\]]{1,40}\])?:[ \t]*\S.*)$"
    r"|^(?:✘ )?\[ERROR\] (?P<bracketed>\S.*)$"  # esbuild, Maven
)
GENERIC_MARKERS = ("rror", "ERROR", "Exception", "fatal", "FATAL", "panic")
SHELL_NEEDLES = (
    "command not found",
    "No such file or directory",
    "Permission denied",
    "is not recognized as an internal or external command",
    # The shell refusing the command line itself: bash, zsh and PowerShell (whose `&&` older
    # versions reject), said in no words the markers above catch.
    "bad substitution",
    "syntax error near unexpected token",
    "unexpected EOF while looking for matching",
    "parse error near",
    "unbound variable",
    "is not a valid statement separator",
    "is not recognized as the name of a cmdlet",
    # git, npm and others refusing a subcommand: "git: 'recommit' is not a git command."
    "is not a git command",
    "Unknown command:",
)
_NOT_AN_ERROR = lazy_pattern(
    r"^(?:Error|error): (?:Exit code \d+|0 errors?|none|\(none\))\s*$"
    # A field of an object a program dumped (`  error: undefined,` in a logged JavaScript error):
    # an empty value, not the failure.
    r"|^error: (?:undefined|null|nil|none|false|\[\]|\{\}|\[Object\]|\[Array\]|\d+|[\[{])\s*,?\s*$",
    re.IGNORECASE,
)


def generic_errors(ctx: Context) -> Iterator[Diagnostic]:
    for offset, line in ctx.lines(*GENERIC_MARKERS):
        match = _GENERIC_ERROR.match(line)
        if not match:
            continue
        message = (match["msg"] or match["bracketed"]).strip()
        if _NOT_AN_ERROR.match(message):
            continue
        if message.endswith(":"):  # "Error: Build failed with 1 error:" introduces the error
            detail = next((f.strip() for f in lines_after(ctx.text, offset, 3) if f.strip()), "")
            message = f"{message} {detail}".strip()
        yield Diagnostic(message=trimmed(message), kind="generic")
        return
    for _, line in ctx.lines(*SHELL_NEEDLES)[:1]:
        yield Diagnostic(message=trimmed(line), kind="generic")
