"""Compilers and type checkers that print ``file:line:col: error: ...`` (gcc, clang, javac, Maven, kotlinc, dotnet, mypy, pyright), and the ``-->`` location lines of rustc, ruff and Elixir."""

from __future__ import annotations

from collections.abc import Iterator

from artifact_index.facts.errors.diagnostics.diagnostic import Diagnostic, DiagnosticKind
from artifact_index.facts.errors.diagnostics.tool_output import (
    FILE_GROUP,
    TASK_PREFIX,
    Context,
    lines_before,
    optional_int,
    trimmed,
)
from artifact_index.lazy_pattern import lazy_pattern

__all__ = [
    "arrow_diagnostics",
    "compiler_lines",
]

_COMPILER_LINE = lazy_pattern(
    rf"^{TASK_PREFIX}{FILE_GROUP}:(?P<line>\d+):(?:(?P<col>\d+):)? (?:fatal error|error): (?P<msg>.+)$"
)
_MYPY_CODE = lazy_pattern(r"\s{2}\[(?P<code>[\w-]+)\]$")
_C_FAMILY = {".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".m", ".mm", ".cu", ".ino"}
_BY_EXTENSION: dict[str, tuple[DiagnosticKind, str]] = {
    ".py": ("type-checker", "mypy"),
    ".pyi": ("type-checker", "mypy"),
    ".java": ("compiler", "javac"),
    ".go": ("compiler", "go"),
    ".kt": ("compiler", "kotlinc"),
    ".swift": ("compiler", "swiftc"),
    ".rs": ("compiler", "rustc"),
    ".zig": ("compiler", "zig"),
    ".scala": ("compiler", "scalac"),
    ".ex": ("compiler", "elixir"),
    ".exs": ("compiler", "elixir"),
}
_MAVEN_LINE = lazy_pattern(
    r"^\[ERROR\] (?:COMPILATION ERROR : )?(?P<file>\S+\.(?:java|kt|scala)):\[(?P<line>\d+),(?P<col>\d+)\] (?P<msg>.+)$"
)
_KOTLIN_LINE = lazy_pattern(
    r"^e: (?:file://)?(?P<file>\S+\.kts?):(?P<line>\d+):(?P<col>\d+) (?P<msg>.+)$"
)
_CSHARP_LINE = lazy_pattern(
    r"^[ \t]*(?P<file>[^\s(][^(]*?\.cs)\((?P<line>\d+),(?P<col>\d+)\): error (?P<code>CS\d+): "
    r"(?P<msg>.+?)(?: \[[^\]]+\])?$"
)


def _extension(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return "." + name.rsplit(".", 1)[-1].lower() if "." in name else ""


def compiler_lines(ctx: Context) -> Iterator[Diagnostic]:
    for _, line in ctx.lines("rror"):
        match = _COMPILER_LINE.match(line) if "error: " in line else None
        if not match:
            continue
        file, message, code = match["file"], match["msg"], None
        extension = _extension(file)
        kind: DiagnosticKind = "compiler"
        tool: str | None = None
        if extension in _C_FAMILY:
            tool = "clang" if ctx.mentions("clang") else "gcc"
        elif extension in _BY_EXTENSION:
            kind, tool = _BY_EXTENSION[extension]
        if kind == "type-checker":
            code_match = _MYPY_CODE.search(message)
            if code_match:
                code, message = code_match["code"], message[: code_match.start()]
            if ctx.mentions("pyright"):
                tool = "pyright"
        yield Diagnostic(
            message=trimmed(message),
            kind=kind,
            file=file,
            line=int(match["line"]),
            column=optional_int(match["col"]),
            code=code,
            tool=tool,
        )
    for _, line in ctx.lines("ERROR"):
        match = _MAVEN_LINE.match(line)
        if match:
            yield Diagnostic(
                message=trimmed(match["msg"]),
                kind="compiler",
                file=match["file"],
                line=int(match["line"]),
                column=int(match["col"]),
                tool="javac" if match["file"].endswith(".java") else "maven",
            )
    for _, line in ctx.lines("\ne: "):
        match = _KOTLIN_LINE.match(line)
        if match:
            yield Diagnostic(
                message=trimmed(match["msg"]),
                kind="compiler",
                file=match["file"],
                line=int(match["line"]),
                column=int(match["col"]),
                tool="kotlinc",
            )
    for _, line in ctx.lines("rror"):
        match = _CSHARP_LINE.match(line)
        if match:
            yield Diagnostic(
                message=trimmed(match["msg"]),
                kind="compiler",
                file=match["file"],
                line=int(match["line"]),
                column=int(match["col"]),
                code=match["code"],
                tool="dotnet",
            )


# "-->" / "└─" location lines under a headline: rustc, ruff's full format, Elixir >= 1.15.
_ARROW = lazy_pattern(
    r"^[ \t]*(?P<arrow>-->|└─) (?P<file>[^\s:][^:]*?):(?P<line>\d+)(?::(?P<col>\d+))?(?:: (?P<where>.+))?[ \t]*$"
)
_RUST_HEAD = lazy_pattern(r"^error(?:\[(?P<code>E\d{4})\])?: (?P<msg>.+)$")
_RUFF_HEAD = lazy_pattern(r"^(?P<code>[A-Z]{1,4}\d{1,4}) (?:\[\*\] )?(?P<msg>.+)$")
_ELIXIR_HEAD = lazy_pattern(r"^[ \t]*error: (?P<msg>.+)$")
_ELIXIR_FRAME = lazy_pattern(r"^[ \t]*(?:\d+[ \t]*)?[│|]")
_ELIXIR_FUNCTION = lazy_pattern(r"\.(?:\"(?P<quoted>[^\"]+)\"|(?P<name>[\w?!]+))/\d+$")


def arrow_diagnostics(ctx: Context) -> Iterator[Diagnostic]:
    text = ctx.text
    for offset, arrow_line in ctx.lines("--> ", "└─ "):
        arrow = _ARROW.match(arrow_line)
        if not arrow:
            continue
        file, line, column = arrow["file"], int(arrow["line"]), optional_int(arrow["col"])
        if arrow["arrow"] == "-->":
            # rustc and ruff print the headline right above the location.
            head = next((b for b in reversed(lines_before(text, offset, 3)) if b.strip()), "")
            if rust := _RUST_HEAD.match(head):
                yield Diagnostic(
                    message=trimmed(rust["msg"]),
                    kind="compiler",
                    file=file,
                    line=line,
                    column=column,
                    code=rust["code"],
                    tool="clippy" if ctx.mentions("clippy") else "rustc",
                )
            elif ruff := _RUFF_HEAD.match(head):
                yield Diagnostic(
                    message=trimmed(ruff["msg"]),
                    kind="linter",
                    file=file,
                    line=line,
                    column=column,
                    code=ruff["code"],
                    tool="ruff",
                )
            continue
        # Elixir puts a code frame ("│", " 104 │ ...") between headline and location.
        for head in reversed(lines_before(text, offset, 12)):
            if not head.strip() or _ELIXIR_FRAME.match(head):
                continue
            if elixir := _ELIXIR_HEAD.match(head):
                function = _ELIXIR_FUNCTION.search(arrow["where"] or "")
                yield Diagnostic(
                    message=trimmed(elixir["msg"]),
                    kind="compiler",
                    file=file,
                    line=line,
                    column=column,
                    tool="elixir",
                    symbol=(function["quoted"] or function["name"]) if function else None,
                )
            break  # a warning's location, or unrelated output
