"""Errors in tool output: the exact text, and the file, line and symbol they name.

:func:`extract_errors` reads the output of one tool call and returns one
:class:`Diagnostic` per error it recognises, in the order they appear.  Each
*family* of output (Python tracebacks, pytest, unittest, compilers, type
checkers, linters, test runners, npm) has its own small parser below; the
generic fallback (``Error: ...``, ``fatal: ...``) runs only when no specific
family matched, so a failing ``pytest`` run reports its failing tests, not the
``npm ERR!`` wrapper around it.

Speed and safety on large logs: a parser never runs a regex over the whole
output.  It asks for the lines holding a short marker (``"rror"``, ``"FAIL"``,
``"-->"``), found with ``str.find``, and matches only those lines with
regexes bounded by the line (no nested quantifiers, so no catastrophic
backtracking).  An output holding none of the markers is passed over at once,
and each parser stops after a few hundred candidates, so a megabyte of
repetitive log costs tens of milliseconds.  A parser that fails is reported
with a ``RuntimeWarning`` and the others still run: :func:`extract_errors`
never raises on odd input.
"""

from __future__ import annotations

import bisect
import re
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict

__all__ = [
    "MAX_DIAGNOSTICS",
    "Diagnostic",
    "DiagnosticKind",
    "extract_errors",
]

DiagnosticKind = Literal[
    "python-traceback",
    "pytest",
    "unittest",
    "compiler",
    "type-checker",
    "linter",
    "test-runner",
    "npm",
    "generic",
]

MAX_DIAGNOSTICS = 50  # per output: beyond this a build log is just repeating itself
_MAX_MESSAGE = 500
_MAX_SCAN = 4_000_000  # characters; longer outputs keep their head and their tail
_MAX_HITS = 5_000  # occurrences of one marker examined per output
_MAX_CANDIDATES = 4 * MAX_DIAGNOSTICS  # errors one family may propose, duplicates included


class Diagnostic(BaseModel):
    """One error found in a tool's output."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    message: str  # the error text as printed, e.g. "KeyError: 'exp'"
    kind: DiagnosticKind
    file: str | None = None  # as the output spells it
    line: int | None = None
    column: int | None = None
    symbol: str | None = None  # innermost function of a traceback, or the failing test function
    code: str | None = None  # E0308, TS2345, F401, no-unused-vars, the npm error code...
    tool: str | None = None  # gcc, rustc, go, tsc, javac, mypy, ruff, eslint, jest, pytest...
    test: str | None = None  # the failing test's id when the error is a test failure
    # The lines that explain it, as printed under it: the assertion with its
    # expected and actual values, the code a checker quoted.  None when the
    # message says it all.
    detail: str | None = None


# --- shared helpers ------------------------------------------------------------------------

_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\n]*\x07")
# A task runner's line prefix, e.g. "[lint:go] " (mise) or "[test] " (Taskfile).
_PREFIX = r"(?:\[[\w:./@ -]{1,40}\] )?"


def _clean(output: str) -> str:
    """The text to read: no colour codes, ``\n`` line ends, and a leading ``\n``.

    The leading newline lets a marker such as ``"\ne: "`` find a line that
    starts with ``e: `` even on the first line.
    """
    if len(output) > _MAX_SCAN:
        output = output[: _MAX_SCAN // 4] + "\n" + output[-(_MAX_SCAN * 3 // 4) :]
    if "\x1b" in output:
        output = _ANSI.sub("", output)
    if "\r" in output:
        output = output.replace("\r\n", "\n").replace("\r", "\n")
    return "\n" + output


def _message(text: str) -> str:
    text = text.strip()
    if len(text) > _MAX_MESSAGE:
        return text[: _MAX_MESSAGE - 1] + "…"
    return text


_MAX_DETAIL_LINES = 12
_MAX_DETAIL = 800


def _detail(lines: list[str], message: str) -> str | None:
    """The explaining lines under an error, dedented and bounded; None when they add nothing."""
    kept = [line.rstrip() for line in lines]
    while kept and not kept[0].strip():
        kept.pop(0)
    while kept and not kept[-1].strip():
        kept.pop()
    if not kept:
        return None
    indent = min(len(line) - len(line.lstrip()) for line in kept if line.strip())
    kept = [line[indent:] for line in kept]
    if len(kept) > _MAX_DETAIL_LINES:
        kept = [*kept[:_MAX_DETAIL_LINES], f"[… {len(kept) - _MAX_DETAIL_LINES} more lines]"]
    text = "\n".join(kept)
    if len(text) > _MAX_DETAIL:
        text = text[: _MAX_DETAIL - 1] + "…"
    return None if text.strip() == message.strip() else text


def _int(value: str | None) -> int | None:
    return int(value) if value else None


def _lines_after(text: str, position: int, limit: int) -> list[str]:
    """Up to ``limit`` lines starting at the line after ``position``."""
    start = text.find("\n", position)
    if start < 0:
        return []
    lines = []
    for _ in range(limit):
        end = text.find("\n", start + 1)
        if end < 0:
            lines.append(text[start + 1 :])
            break
        lines.append(text[start + 1 : end])
        start = end
    return lines


def _lines_before(text: str, position: int, limit: int) -> list[str]:
    """Up to ``limit`` lines before the line holding ``position``, nearest last."""
    end = text.rfind("\n", 0, position)  # the newline that ends the previous line
    lines: list[str] = []
    while end > 0 and len(lines) < limit:
        start = text.rfind("\n", 0, end) + 1
        lines.append(text[start:end])
        end = start - 1
    lines.reverse()
    return lines


def _lines_with(text: str, *needles: str) -> list[tuple[int, str]]:
    """Each line containing one of ``needles``, once, in order, as ``(offset, line)``.

    Finding a literal with ``str.find`` and then matching only that line is
    far cheaper than running a ``^``-anchored multi-line regex over the whole
    output, which the regex engine has to try at every character.
    """
    starts: set[int] = set()
    for needle in needles:
        at_line_start = needle.startswith("\n")  # "\ne: " finds lines starting with "e: "
        position = text.find(needle)
        hits = 0
        while position >= 0 and hits < _MAX_HITS:
            start = position + 1 if at_line_start else text.rfind("\n", 0, position) + 1
            starts.add(start)
            line_end = text.find("\n", start)
            if line_end < 0:
                break
            position = text.find(needle, line_end)
            hits += 1
    lines = []
    for start in sorted(starts):
        end = text.find("\n", start)
        lines.append((start, text[start : end if end >= 0 else len(text)]))
    return lines


def _line_end(text: str, offset: int) -> int:
    end = text.find("\n", offset)
    return end if end >= 0 else len(text)


class _Context:
    """One output being read, with the lines holding each marker found so far.

    Families share a few short markers ("rror" for error/Error/SyntaxError,
    "FAIL" for FAIL/FAILED/--- FAIL) so each marker costs one scan of the
    output however many families look for it; a family then filters those
    few lines with its own regex.
    """

    def __init__(self, text: str, command: str) -> None:
        self.text = text
        self.command = command
        self._lines: dict[str, list[tuple[int, str]]] = {}

    def mentions(self, *words: str) -> bool:
        return any(word in self.command for word in words)

    def lines(self, *markers: str) -> list[tuple[int, str]]:
        for marker in markers:
            if marker not in self._lines:
                self._lines[marker] = _lines_with(self.text, marker)
        if len(markers) == 1:
            return self._lines[markers[0]]
        merged = {offset: line for marker in markers for offset, line in self._lines[marker]}
        return sorted(merged.items())


# --- Python tracebacks -------------------------------------------------------------------

_TRACEBACK = "Traceback (most recent call last):"
_FRAME = re.compile(r'^\s*File "(?P<file>[^"\n]+)", line (?P<line>\d+)(?:, in (?P<func>\S[^\n]*))?')
_EXCEPTION_LINE = re.compile(r"^(?P<type>[A-Za-z_][\w.]*)(?:(?P<colon>:)[ \t]*(?P<msg>.*))?$")
_EXCEPTION_NAME = re.compile(
    r"(?:Error|Exception|Warning|Exit|Interrupt|Iteration|Failure|Fault|Timeout)$"
)
_CHAINED = (
    "During handling of the above exception, another exception occurred:",
    "The above exception was the direct cause of the following exception:",
)
_LIBRARY_FRAME = re.compile(r"site-packages|dist-packages|[/\\]lib[/\\]python\d[\d.]*[/\\]")
_BARE_SYNTAX_ERROR = re.compile(r"^(?:SyntaxError|IndentationError|TabError): \S")


@dataclass
class _Traceback:
    message: str
    frames: list[tuple[str, int, str | None]]
    end: int  # offset just after the exception line


def _looks_like_exception(name: str, has_message: bool) -> bool:
    short = name.rsplit(".", 1)[-1]
    if _EXCEPTION_NAME.search(short):
        return True
    return has_message and short[:1].isupper() and "." in name


def _parse_traceback(text: str, header: int) -> _Traceback | None:
    """The traceback whose header starts at offset ``header``."""
    line_start = text.rfind("\n", 0, header) + 1
    # What precedes the header on its line ("E   " in pytest output, indentation in
    # logs) usually precedes every line of the traceback too.
    prefix = text[line_start:header]
    frames: list[tuple[str, int, str | None]] = []
    stray = 0  # unrelated lines: stdout interleaved with the traceback by "2>&1"
    position = text.find("\n", header)
    for _ in range(3000):
        if position < 0:
            return None
        end = text.find("\n", position + 1)
        raw = text[position + 1 : end if end >= 0 else len(text)]
        position = end
        line = raw[len(prefix) :] if prefix and raw.startswith(prefix) else raw
        frame = _FRAME.match(line)
        if frame:
            frames.append((frame["file"], int(frame["line"]), frame["func"]))
            continue
        if not line.strip() or line[:1] in (" ", "\t", "|", "+", "^", "~"):
            continue  # source lines, carets, exception-group borders
        match = _EXCEPTION_LINE.match(line.strip())
        if match and frames and _looks_like_exception(match["type"], bool(match["colon"])):
            return _Traceback(
                message=_message(line), frames=frames, end=end if end >= 0 else len(text)
            )
        stray += 1
        if not frames or stray > 30:
            return None  # not a traceback, or one whose end was cut off
    return None


def _innermost(
    frames: list[tuple[str, int, str | None]],
) -> tuple[str | None, int | None, str | None]:
    """The innermost frame in the project's own code, else the innermost real file.

    Frames in site-packages or the standard library rarely name what the agent
    is working on; ``<string>`` and ``<frozen ...>`` name no file at all.
    """
    real = [frame for frame in frames if not frame[0].startswith("<")]
    own = [frame for frame in real if not _LIBRARY_FRAME.search(frame[0])]
    chosen = own[-1] if own else real[-1] if real else None
    if chosen is None:
        return None, None, None
    file, line, func = chosen
    symbol = func.strip() if func and not func.startswith("<") else None
    return file, line, symbol


def _python_tracebacks(ctx: _Context) -> Iterator[Diagnostic]:
    text = ctx.text
    headers = [
        offset + line.find(_TRACEBACK)
        for offset, line in ctx.lines("Traceback")
        if _TRACEBACK in line
    ]
    for index, header in enumerate(headers[: MAX_DIAGNOSTICS * 4]):
        parsed = _parse_traceback(text, header)
        if parsed is None:
            continue
        following = headers[index + 1] if index + 1 < len(headers) else None
        # In a chain only the last exception is the error the run ended with.
        if following is not None and following - parsed.end < 3000:
            between = text[parsed.end : following]
            if any(sentence in between for sentence in _CHAINED):
                continue
        file, line, symbol = _innermost(parsed.frames)
        yield Diagnostic(
            message=parsed.message,
            kind="python-traceback",
            file=file,
            line=line,
            symbol=symbol,
            tool="python",
        )


def _python_syntax_errors(ctx: _Context) -> Iterator[Diagnostic]:
    """A syntax error in the main script prints a frame and no ``Traceback`` header."""
    text = ctx.text
    for offset, line in ctx.lines("rror"):
        if not _BARE_SYNTAX_ERROR.match(line):
            continue
        for earlier in reversed(_lines_before(text, offset, 5)):
            frame = _FRAME.match(earlier)
            if frame:
                pseudo = frame["file"].startswith("<")
                yield Diagnostic(
                    message=_message(line),
                    kind="python-traceback",
                    file=None if pseudo else frame["file"],
                    line=None if pseudo else int(frame["line"]),
                    tool="python",
                )
                break


# --- pytest --------------------------------------------------------------------------------

_PYTEST_SECTION = re.compile(r"^_{3,} (?P<title>\S.*?) _{3,}$")
_PYTEST_E_LINE = re.compile(r"^E {1,}(?P<msg>\S[^\n]*)$", re.MULTILINE)
_PYTEST_LOCATION = re.compile(
    r"^(?P<file>[^\s:][^:\n]*?):(?P<line>\d+): (?:in (?P<func>[\w<>.]+)|(?P<exc>[A-Za-z_][\w.]*))?[ \t]*$",
    re.MULTILINE,
)
_PYTHON_DEF = re.compile(r"^[ \t]*(?:async[ \t]+)?def (?P<name>\w+)\(", re.MULTILINE)
_PYTEST_ID = r"(?P<id>[^\s\[]+(?:\[[^\]]*\])?)"
_PYTEST_SUMMARY_ITEM = re.compile(rf"^(?P<status>FAILED|ERROR) {_PYTEST_ID}(?: - (?P<msg>.*))?$")
_PYTEST_VERBOSE_ITEM = re.compile(rf"^{_PYTEST_ID} (?P<status>FAILED|ERROR)\b")
_PYTEST_TOTALS = re.compile(
    r"^=*[ \t]*(?P<totals>(?:\d+ (?:failed|passed|errors?|skipped|xfailed|xpassed|deselected"
    r"|warnings?|rerun)(?:, )?)+)(?: in [\d.]+s.*?)?[ \t]*=*$"
)
_EXCEPTION_PREFIX = re.compile(r"^[A-Za-z_][\w.]*(?:Error|Exception|Warning|Exit)\b")


@dataclass
class _PytestSection:
    title: str
    message: str | None
    detail: str | None
    file: str | None
    line: int | None
    symbol: str | None


def _last(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    match = None
    for match in pattern.finditer(text):  # noqa: B007 - the last one is wanted
        pass
    return match


def _pytest_section(title: str, body: str) -> _PytestSection:
    e_line = _PYTEST_E_LINE.search(body)
    location = _last(_PYTEST_LOCATION, body)  # the innermost entry comes last
    definition = _last(_PYTHON_DEF, body)
    message = e_line["msg"].strip() if e_line else None
    exception = location["exc"] if location else None
    if message and exception and not _EXCEPTION_PREFIX.match(message):
        message = f"{exception}: {message}"  # "assert 3 == 4" -> "AssertionError: assert 3 == 4"
    symbol = None
    if location and location["func"]:
        symbol = location["func"]
    elif definition:
        symbol = definition["name"]
    e_lines = [m["msg"] for m in _PYTEST_E_LINE.finditer(body)]
    return _PytestSection(
        title=title,
        message=_message(message) if message else None,
        detail=_detail(e_lines, message) if message and len(e_lines) > 1 else None,
        file=location["file"] if location else None,
        line=int(location["line"]) if location else None,
        symbol=symbol,
    )


def _test_function(test_id: str) -> str | None:
    name = test_id.split("::")[-1] if "::" in test_id else None
    return name.split("[", 1)[0] if name else None


def _section_for(test_id: str, sections: list[_PytestSection]) -> _PytestSection | None:
    parts = test_id.split("::")
    dotted = ".".join(parts[1:])
    for section in sections:
        title = section.title
        if len(parts) > 1 and (title in (dotted, parts[-1]) or title.endswith("." + dotted)):
            return section
        if title.startswith("ERROR ") and (
            title.endswith(" " + parts[-1]) or title.endswith(" " + test_id)
        ):
            return section
    return None


def _pytest(ctx: _Context) -> Iterator[Diagnostic]:
    text = ctx.text
    if not ("::" in text or "short test summary" in text or "test session starts" in text):
        return
    sections: list[_PytestSection] = []
    headers = [
        (offset, match["title"])
        for offset, line in ctx.lines("___ ")
        if (match := _PYTEST_SECTION.match(line))
    ]
    rules = [offset for offset, line in ctx.lines("\n===")]
    boundaries = sorted([offset for offset, _ in headers] + rules)
    for offset, title in headers[: MAX_DIAGNOSTICS * 2]:
        if title.startswith(("Captured", "summary", "warnings summary")):
            continue
        body_start = _line_end(text, offset)
        after = bisect.bisect_right(boundaries, offset)
        body_end = boundaries[after] if after < len(boundaries) else len(text)
        sections.append(_pytest_section(title, text[body_start:body_end]))
    items: dict[str, tuple[str, str | None]] = {}
    for _, line in ctx.lines("FAIL", "ERROR"):
        summary = _PYTEST_SUMMARY_ITEM.match(line)
        if summary and ("::" in summary["id"] or summary["id"].endswith(".py")):
            items.setdefault(summary["id"], (summary["status"], summary["msg"]))
            continue
        verbose = _PYTEST_VERBOSE_ITEM.match(line)
        if verbose and "::" in verbose["id"]:
            items.setdefault(verbose["id"], (verbose["status"], None))
    for test_id, (status, summary_message) in items.items():
        section = _section_for(test_id, sections)
        message = (section.message if section else None) or (
            summary_message.strip() if summary_message else None
        )
        yield Diagnostic(
            message=_message(message or f"{status} {test_id}"),
            detail=section.detail if section and message == section.message else None,
            kind="pytest",
            tool="pytest",
            test=test_id,
            file=(section.file if section else None) or test_id.split("::")[0],
            line=section.line if section else None,
            symbol=(section.symbol if section else None) or _test_function(test_id),
        )
    if items:
        return
    for section in sections:  # "-rN" and older runs print sections without a summary
        if section.message and _is_test_title(section.title):
            yield Diagnostic(
                message=section.message,
                detail=section.detail,
                kind="pytest",
                tool="pytest",
                test=section.title,
                file=section.file,
                line=section.line,
                symbol=section.symbol,
            )
    if not sections:
        for _, line in ctx.lines(" failed", "rror"):
            totals = _PYTEST_TOTALS.match(line)
            if totals:
                yield Diagnostic(message=_message(totals["totals"]), kind="pytest", tool="pytest")
                break


def _is_test_title(title: str) -> bool:
    return title.startswith(("test", "Test", "ERROR collecting", "ERROR at")) or ".test" in title


# --- unittest ------------------------------------------------------------------------------

_UNITTEST_HEADER = re.compile(r"^(?P<status>FAIL|ERROR): (?P<name>\S+) \((?P<where>[\w.]+)\)")


def _unittest(ctx: _Context) -> Iterator[Diagnostic]:
    text = ctx.text
    for offset, line in ctx.lines("FAIL", "ERROR"):
        match = _UNITTEST_HEADER.match(line)
        if not match or not "".join(_lines_before(text, offset, 1)).startswith("=" * 20):
            continue  # unittest puts a rule of "=" right above each failure
        name, where = match["name"], match["where"]
        test_id = where if where.endswith("." + name) else f"{where}.{name}"
        header = text.find(_TRACEBACK, offset, offset + len(line) + 400)
        parsed = _parse_traceback(text, header) if header >= 0 else None
        if parsed is None:
            yield Diagnostic(
                message=_message(line),
                kind="unittest",
                tool="unittest",
                test=test_id,
                symbol=name,
            )
            continue
        file, line_number, symbol = _innermost(parsed.frames)
        yield Diagnostic(
            message=parsed.message,
            kind="unittest",
            tool="unittest",
            test=test_id,
            file=file,
            line=line_number,
            symbol=symbol or name,
        )


# --- compilers, type checkers and linters with "file:line:col: ..." lines ------------------

_FILE = r"(?P<file>(?:[A-Za-z]:)?[^\s:(][^:(]*?)"
_COMPILER_LINE = re.compile(
    rf"^{_PREFIX}{_FILE}:(?P<line>\d+):(?:(?P<col>\d+):)? (?:fatal error|error): (?P<msg>.+)$"
)
_MYPY_CODE = re.compile(r"\s{2}\[(?P<code>[\w-]+)\]$")
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
_MAVEN_LINE = re.compile(
    r"^\[ERROR\] (?:COMPILATION ERROR : )?(?P<file>\S+\.(?:java|kt|scala)):\[(?P<line>\d+),(?P<col>\d+)\] (?P<msg>.+)$"
)
_KOTLIN_LINE = re.compile(
    r"^e: (?:file://)?(?P<file>\S+\.kts?):(?P<line>\d+):(?P<col>\d+) (?P<msg>.+)$"
)
_CSHARP_LINE = re.compile(
    r"^[ \t]*(?P<file>[^\s(][^(]*?\.cs)\((?P<line>\d+),(?P<col>\d+)\): error (?P<code>CS\d+): "
    r"(?P<msg>.+?)(?: \[[^\]]+\])?$"
)


def _extension(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return "." + name.rsplit(".", 1)[-1].lower() if "." in name else ""


def _compiler_lines(ctx: _Context) -> Iterator[Diagnostic]:
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
            message=_message(message),
            kind=kind,
            file=file,
            line=int(match["line"]),
            column=_int(match["col"]),
            code=code,
            tool=tool,
        )
    for _, line in ctx.lines("ERROR"):
        match = _MAVEN_LINE.match(line)
        if match:
            yield Diagnostic(
                message=_message(match["msg"]),
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
                message=_message(match["msg"]),
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
                message=_message(match["msg"]),
                kind="compiler",
                file=match["file"],
                line=int(match["line"]),
                column=int(match["col"]),
                code=match["code"],
                tool="dotnet",
            )


_TSC_PAREN = re.compile(
    rf"^{_PREFIX}(?P<file>[^\s(][^(]*?)\((?P<line>\d+),(?P<col>\d+)\): error (?P<code>TS\d+): (?P<msg>.+)$"
)
_TSC_DASH = re.compile(
    rf"^[ \t]*{_PREFIX}{_FILE}:(?P<line>\d+):(?P<col>\d+) - error(?: (?P<code>TS\d+))?: (?P<msg>.+)$"
)
_TSC_GLOBAL = re.compile(r"^error (?P<code>TS\d+): (?P<msg>.+)$")
_PYRIGHT_RULE = re.compile(r"\s*\((?P<code>report\w+)\)$")


def _typescript(ctx: _Context) -> Iterator[Diagnostic]:
    for _, line in ctx.lines("rror"):
        if "error TS" not in line:
            continue
        match = _TSC_PAREN.match(line)
        if match:
            yield Diagnostic(
                message=_message(match["msg"]),
                kind="type-checker",
                file=match["file"],
                line=int(match["line"]),
                column=int(match["col"]),
                code=match["code"],
                tool="tsc",
            )
        elif match := _TSC_GLOBAL.match(line):
            yield Diagnostic(
                message=_message(match["msg"]),
                kind="type-checker",
                code=match["code"],
                tool="tsc",
            )
    for _, line in ctx.lines("rror"):
        match = _TSC_DASH.match(line) if " - error" in line else None
        if not match:
            continue
        message, code, tool = match["msg"], match["code"], "tsc"
        if code is None:  # pyright prints the same shape without a TS code
            tool = "pyright"
            rule = _PYRIGHT_RULE.search(message)
            if rule:
                code, message = rule["code"], message[: rule.start()]
        yield Diagnostic(
            message=_message(message),
            kind="type-checker",
            file=match["file"],
            line=int(match["line"]),
            column=int(match["col"]),
            code=code,
            tool=tool,
        )


# "-->" / "└─" location lines under a headline: rustc, ruff's full format, Elixir >= 1.15.
_ARROW = re.compile(
    r"^[ \t]*(?P<arrow>-->|└─) (?P<file>[^\s:][^:]*?):(?P<line>\d+)(?::(?P<col>\d+))?(?:: (?P<where>.+))?[ \t]*$"
)
_RUST_HEAD = re.compile(r"^error(?:\[(?P<code>E\d{4})\])?: (?P<msg>.+)$")
_RUFF_HEAD = re.compile(r"^(?P<code>[A-Z]{1,4}\d{1,4}) (?:\[\*\] )?(?P<msg>.+)$")
_ELIXIR_HEAD = re.compile(r"^[ \t]*error: (?P<msg>.+)$")
_ELIXIR_FRAME = re.compile(r"^[ \t]*(?:\d+[ \t]*)?[│|]")
_ELIXIR_FUNCTION = re.compile(r"\.(?:\"(?P<quoted>[^\"]+)\"|(?P<name>[\w?!]+))/\d+$")


def _arrow_diagnostics(ctx: _Context) -> Iterator[Diagnostic]:
    text = ctx.text
    for offset, arrow_line in ctx.lines("--> ", "└─ "):
        arrow = _ARROW.match(arrow_line)
        if not arrow:
            continue
        file, line, column = arrow["file"], int(arrow["line"]), _int(arrow["col"])
        if arrow["arrow"] == "-->":
            # rustc and ruff print the headline right above the location.
            head = next((b for b in reversed(_lines_before(text, offset, 3)) if b.strip()), "")
            if rust := _RUST_HEAD.match(head):
                yield Diagnostic(
                    message=_message(rust["msg"]),
                    kind="compiler",
                    file=file,
                    line=line,
                    column=column,
                    code=rust["code"],
                    tool="clippy" if ctx.mentions("clippy") else "rustc",
                )
            elif ruff := _RUFF_HEAD.match(head):
                yield Diagnostic(
                    message=_message(ruff["msg"]),
                    kind="linter",
                    file=file,
                    line=line,
                    column=column,
                    code=ruff["code"],
                    tool="ruff",
                )
            continue
        # Elixir puts a code frame ("│", " 104 │ ...") between headline and location.
        for head in reversed(_lines_before(text, offset, 12)):
            if not head.strip() or _ELIXIR_FRAME.match(head):
                continue
            if elixir := _ELIXIR_HEAD.match(head):
                function = _ELIXIR_FUNCTION.search(arrow["where"] or "")
                yield Diagnostic(
                    message=_message(elixir["msg"]),
                    kind="compiler",
                    file=file,
                    line=line,
                    column=column,
                    tool="elixir",
                    symbol=(function["quoted"] or function["name"]) if function else None,
                )
            break  # a warning's location, or unrelated output


_LINT_CODE_LINE = re.compile(
    rf"^{_PREFIX}(?P<file>[^\s:][^:]*?\.(?:py|pyi|ipynb)):(?P<line>\d+):(?P<col>\d+): "
    r"(?P<code>[A-Z]{1,4}\d{1,4}):? (?:\[\*\] )?(?P<msg>.+)$"
)


def _python_linters(ctx: _Context) -> Iterator[Diagnostic]:
    tool = "ruff"
    for name in ("flake8", "pylint", "pycodestyle", "pyflakes"):
        if ctx.mentions(name):
            tool = name
    for _, line in ctx.lines(".py"):
        match = _LINT_CODE_LINE.match(line)
        if match:
            yield Diagnostic(
                message=_message(match["msg"]),
                kind="linter",
                file=match["file"],
                line=int(match["line"]),
                column=int(match["col"]),
                code=match["code"],
                tool=tool,
            )


_GO_LINE = re.compile(
    rf"^{_PREFIX}(?P<vet>vet: )?(?P<file>[^\s:][^:]*?\.go):(?P<line>\d+):(?P<col>\d+): "
    r"(?!(?:error|warning|note): )(?P<msg>.+)$"
)
_GO_LINTER = re.compile(r" \((?P<linter>[a-z][a-z0-9-]*)\)$")


def _go_build(ctx: _Context) -> Iterator[Diagnostic]:
    for _, line in ctx.lines(".go:"):
        match = _GO_LINE.match(line)
        if not match or match["msg"] == "too many errors":  # the compiler giving up, not an error
            continue
        message = match["msg"]
        if linter := _GO_LINTER.search(message):
            yield Diagnostic(
                message=_message(message[: linter.start()]),
                kind="linter",
                file=match["file"],
                line=int(match["line"]),
                column=int(match["col"]),
                code=linter["linter"],
                tool="golangci-lint",
            )
            continue
        vet = bool(match["vet"]) or ctx.mentions("go vet")
        yield Diagnostic(
            message=_message(message),
            kind="compiler",
            file=match["file"],
            line=int(match["line"]),
            column=int(match["col"]),
            tool="go vet" if vet else "go",
        )


_ESLINT_ROW = re.compile(r"^[ \t]+(?P<line>\d+):(?P<col>\d+)[ \t]+error[ \t]{2,}(?P<rest>.+)$")
_ESLINT_RULE = re.compile(r"\s{2,}(?P<rule>@?[\w-]+(?:/[\w-]+)*)$")
_PATHLIKE = re.compile(r"^\S*(?:[/\\]\S*|\.\w+)$")


def _eslint(ctx: _Context) -> Iterator[Diagnostic]:
    text = ctx.text
    for offset, line in ctx.lines("rror"):
        match = _ESLINT_ROW.match(line) if "error  " in line else None
        if not match:
            continue
        header = None  # stylish output names the file once, unindented, above its rows
        for earlier in reversed(_lines_before(text, offset, 200)):
            if earlier.strip() and not earlier[:1].isspace():
                header = earlier.strip() if _PATHLIKE.match(earlier.strip()) else None
                break
        rest = match["rest"].strip()
        rule = _ESLINT_RULE.search(rest)
        yield Diagnostic(
            message=_message(rest[: rule.start()] if rule else rest),
            kind="linter",
            file=header,
            line=int(match["line"]),
            column=int(match["col"]),
            code=rule["rule"] if rule else None,
            tool="biome" if ctx.mentions("biome") else "eslint",
        )


# --- test runners ---------------------------------------------------------------------------

_JEST_SUITE = re.compile(r"^[ \t]*(?P<status>FAIL|PASS)[ \t]+(?P<file>[^\s>]+)")
_JEST_BULLET = re.compile(r"^ {0,4}● (?P<title>.+)$")
_STACK_LOCATION = re.compile(r"(?:\(|at |❯ )(?P<file>[^\s()]+?):(?P<line>\d+):(?P<col>\d+)\)?")
_CODE_FRAME = re.compile(r"^[ \t]*> ?(?P<line>\d+) \|", re.MULTILINE)
_VITEST_FAIL = re.compile(r"^[ \t]*FAIL[ \t]+(?P<file>\S+?) > (?P<name>.+?)[ \t]*$")
_VITEST_END = re.compile(r"^(?:[ \t]*FAIL[ \t]+\S|⎯{3,}|[ \t]*Test Files[ \t])")


def _location_in(block: str) -> tuple[str | None, int | None, int | None]:
    for match in _STACK_LOCATION.finditer(block):
        file = match["file"]
        if file.rsplit("/", 1)[-1].startswith(("[", "<")):
            continue  # "[eval]", "<anonymous>": code given on the command line
        if "node_modules" not in file and not file.startswith(("node:", "internal/")):
            return file.removeprefix("file://"), int(match["line"]), int(match["col"])
    return None, None, None


def _first_text_line(block: str) -> str | None:
    for line in block.split("\n"):
        stripped = line.strip()
        if (
            stripped
            and not stripped.startswith(("at ", "❯ ", ">", "|"))
            and not re.match(r"^\d+ \|", stripped)
            and not _TRUNCATION.match(stripped)
        ):
            return stripped
    return None


def _explaining_lines(block: str) -> list[str]:
    """A JavaScript test failure's text up to its code frame or stack: expected, received, diff."""
    lines = []
    for line in block.split("\n"):
        stripped = line.strip()
        if stripped.startswith(("at ", "❯ ")) or re.match(r"^>? ?\d+ \|", stripped):
            break
        lines.append(line)
    return lines


def _jest(ctx: _Context) -> Iterator[Diagnostic]:
    text = ctx.text
    bullets = [
        (offset, match["title"].strip())
        for offset, line in ctx.lines("● ")
        if (match := _JEST_BULLET.match(line))
    ]
    if not bullets:
        return
    suites = [
        (offset, match)
        for offset, line in ctx.lines("FAIL", "PASS")
        if (match := _JEST_SUITE.match(line))
    ]
    summaries = [
        offset for offset, line in ctx.lines("Test") if line.startswith(("Tests:", "Test Suites:"))
    ]
    if not suites and not summaries:
        return
    ends = sorted([o for o, _ in suites] + [o for o, _ in bullets] + summaries)
    failing_suites = [(o, m["file"]) for o, m in suites if m["status"] == "FAIL"]
    tool = "vitest" if ctx.mentions("vitest") else "jest"
    for offset, title in bullets:
        if title.startswith("Console"):
            continue  # console.log output, not a failure
        suite = None
        for position, file in failing_suites:
            if position < offset:
                suite = file
        if suite is None and " › " not in title:
            continue  # a bullet in some other program's output
        after = bisect.bisect_right(ends, offset)
        block = text[_line_end(text, offset) : ends[after] if after < len(ends) else len(text)]
        file, line, column = _location_in(block)
        if file is None and suite is not None:
            frame = _CODE_FRAME.search(block)
            file, line = suite, int(frame["line"]) if frame else None
        suite_error = title == "Test suite failed to run"
        message = _message(_first_text_line(block) or title)
        yield Diagnostic(
            message=message,
            detail=_detail(_explaining_lines(block), message),
            kind="test-runner",
            tool=tool,
            file=file,
            line=line,
            column=column,
            test=None if suite_error else title,
            symbol=None if suite_error else title.split(" › ")[-1],
        )


def _vitest(ctx: _Context) -> Iterator[Diagnostic]:
    text = ctx.text
    failures = [
        (offset, match)
        for offset, line in ctx.lines("FAIL")
        if " > " in line and (match := _VITEST_FAIL.match(line))
    ]
    if not failures:
        return
    ends = [offset for offset, line in ctx.lines("FAIL", "⎯⎯⎯", "Test") if _VITEST_END.match(line)]
    for offset, match in failures:
        after = bisect.bisect_right(ends, offset)
        block = text[_line_end(text, offset) : ends[after] if after < len(ends) else len(text)]
        file, line, column = _location_in(block)
        name = match["name"]
        message = _message(_first_text_line(block) or f"FAIL {match['file']} > {name}")
        yield Diagnostic(
            message=message,
            detail=_detail(_explaining_lines(block), message),
            kind="test-runner",
            tool="vitest",
            file=file or match["file"],
            line=line,
            column=column,
            test=f"{match['file']} > {name}",
            symbol=name.split(" > ")[-1],
        )


_GO_FAIL = re.compile(r"^(?P<indent>[ \t]*)--- FAIL: (?P<name>\S+)")
_GO_LOG = re.compile(r"^\s+(?P<file>[\w./-]+\.go):(?P<line>\d+): (?P<msg>.+)$")
_GO_PANIC = re.compile(r"^panic: (?P<msg>.+)$")
_GO_STACK_FILE = re.compile(r"^\t(?P<file>.+?\.go):(?P<line>\d+)(?: \+0x[0-9a-f]+)?$")
_GO_STACK_FUNC = re.compile(
    r"^(?:[\w./-]+/)?[\w-]+\.(?:\(\*?\w+\)\.)?(?P<func>\w+)(?:\.func\d+)*\("
)
_GO_RUNTIME = re.compile(r"/src/(?:runtime|testing|reflect)/|/usr/local/go/|/libexec/src/")


def _go_block(text: str, offset: int, indent: str) -> list[str]:
    """The lines a failing test logged under its ``--- FAIL`` line (indented deeper than it)."""
    block = []
    for following in _lines_after(text, offset, 40):
        if following.strip() and len(following) - len(following.lstrip()) <= len(indent):
            break
        block.append(following)
    return block


def _go_log_after(block: list[str]) -> re.Match[str] | None:
    return next((log for following in block if (log := _GO_LOG.match(following))), None)


def _go_test(ctx: _Context) -> Iterator[Diagnostic]:
    text = ctx.text
    failures = [
        (offset, match["name"], match["indent"])
        for offset, line in ctx.lines("FAIL")
        if (match := _GO_FAIL.match(line))
    ]
    names = {name for _, name, _ in failures}
    for offset, name, indent in failures:
        if any(other.startswith(name + "/") for other in names):
            continue  # a parent reports its failing subtests
        block = _go_block(text, offset, indent)
        log = _go_log_after(block)
        if log is None:  # "go test -v" prints the test's log before its verdict
            run = text.rfind(f"=== RUN   {name}\n", max(0, offset - 20_000), offset)
            if run >= 0:
                block = [
                    earlier
                    for earlier in text[run:offset].split("\n")[1:]
                    if not earlier.lstrip().startswith(("=== ", "--- "))
                ]
                log = _go_log_after(block)
        message = _message(log["msg"] if log else f"--- FAIL: {name}")
        yield Diagnostic(
            message=message,
            detail=_detail(block, message) if log else None,
            kind="test-runner",
            tool="go test",
            file=log["file"] if log else None,
            line=int(log["line"]) if log else None,
            test=name,
            symbol=name.split("/")[0],
        )
    panics = [(offset, m) for offset, line in ctx.lines("panic") if (m := _GO_PANIC.match(line))]
    if not panics or "goroutine " not in text:
        return
    in_tests = bool(failures) or ctx.mentions("go test")
    for offset, panic in panics:
        file = number = symbol = None
        previous = ""
        for following in _lines_after(text, offset, 200):
            location = _GO_STACK_FILE.match(following)
            if location and not _GO_RUNTIME.search(location["file"]):
                function = _GO_STACK_FUNC.match(previous)
                file, number = location["file"], int(location["line"])
                symbol = function["func"] if function else None
                break
            previous = following
        message = panic["msg"].removesuffix(" [recovered]").strip()
        yield Diagnostic(
            message=_message(f"panic: {message}"),
            kind="test-runner" if in_tests else "generic",
            tool="go test" if in_tests else "go",
            file=file,
            line=number,
            symbol=symbol,
        )


_CARGO_FAILED = re.compile(r"^test (?P<name>\S+) \.\.\. FAILED$")
_RUST_PANIC = re.compile(
    r"^thread '(?P<thread>[^']*)' (?:\(\d+\) )?panicked at (?:"
    r"(?P<file>[^\s:'][^:]*):(?P<line>\d+):(?P<col>\d+):$"
    r"|'(?P<msg>.*?)'?, (?P<ofile>[^\s:][^:]*):(?P<oline>\d+):(?P<ocol>\d+)$"
    r"|'(?P<open>.*)$)"
)
_RUST_OLD_LOCATION = re.compile(r"', (?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+)$")
_Location = tuple[str | None, int | None, int | None]


def _rust_panics(ctx: _Context) -> Iterator[Diagnostic]:
    text = ctx.text
    panics: dict[str, tuple[str, _Location]] = {}
    for offset, line in ctx.lines("panic"):
        match = _RUST_PANIC.match(line)
        if not match or match["thread"] in panics:
            continue
        location: _Location = (None, None, None)
        if match["file"]:  # Rust >= 1.73: the message follows on its own lines
            after = [f for f in _lines_after(text, offset, 4) if f.strip()]
            message = after[0] if after else "panicked"
            location = (match["file"], int(match["line"]), int(match["col"]))
        elif match["ofile"]:
            message = match["msg"]
            location = (match["ofile"], int(match["oline"]), int(match["ocol"]))
        else:  # an older multi-line message: the location ends it
            message = match["open"]
            for following in _lines_after(text, offset, 20):
                if old := _RUST_OLD_LOCATION.search(following):
                    location = (old["file"], int(old["line"]), int(old["col"]))
                    break
        panics.setdefault(match["thread"], (message, location))
    failed = [m["name"] for _, line in ctx.lines("FAIL") if (m := _CARGO_FAILED.match(line))]
    in_tests = bool(failed) or "test result:" in text or ctx.mentions("cargo test", "nextest")
    for name in failed:
        message, (file, line_number, column) = panics.get(
            name, (f"test {name} ... FAILED", (None, None, None))
        )
        yield Diagnostic(
            message=_message(message),
            kind="test-runner",
            tool="cargo test",
            file=file,
            line=line_number,
            column=column,
            test=name,
            symbol=name.rsplit("::", 1)[-1],
        )
    for thread, (message, (file, line_number, column)) in panics.items():
        if thread not in failed:
            yield Diagnostic(
                message=_message(message),
                kind="test-runner" if in_tests else "generic",
                tool="cargo test" if in_tests else "rust",
                file=file,
                line=line_number,
                column=column,
            )


_EXUNIT_FAILURE = re.compile(
    r"^[ \t]+\d+\) (?P<title>(?:test|doctest) .+?) \((?P<module>[\w.]+)\)[ \t]*$"
)
_EXUNIT_LOCATION = re.compile(r"^[ \t]+(?P<file>\S+\.exs?):(?P<line>\d+)[ \t]*$")
_EXUNIT_LABEL = ("code:", "left:", "right:", "arguments:", "doctest:", "value:")
# Harnesses cut long outputs with a marker; it is never an error message.
_TRUNCATION = re.compile(
    r"^\.{3} ?\[\d+ (?:characters|chars|lines|bytes) truncated\] ?\.{3}$|^\[\.\.\."
)


def _exunit(ctx: _Context) -> Iterator[Diagnostic]:
    text = ctx.text
    for offset, line in ctx.lines(") test ", ") doctest "):
        match = _EXUNIT_FAILURE.match(line)
        following = _lines_after(text, offset, 30)
        location = _EXUNIT_LOCATION.match(following[0]) if following else None
        if not match or not location:
            continue
        message = None
        code = None
        block: list[str] = []
        for candidate in following[1:]:
            stripped = candidate.strip()
            if stripped.startswith("stacktrace:") or re.match(
                r"^\d+\) (?:test|doctest) ", stripped
            ):
                break
            if not _TRUNCATION.match(stripped):
                block.append(candidate)
            if stripped.startswith("code:") and code is None:
                code = stripped[5:].strip()
            elif (
                message is None
                and stripped
                and not stripped.startswith(_EXUNIT_LABEL)
                and not _TRUNCATION.match(stripped)
            ):
                message = stripped
        # "Assertion with == failed" says little without the assertion it quotes.
        if (
            message
            and code
            and message.startswith(("Assertion with", "Expected truthy", "Expected false"))
        ):
            message = f"{message}: {code}"
        test = f"{match['title']} ({match['module']})"
        headline = _message(message or test)
        yield Diagnostic(
            message=headline,
            detail=_detail(block, headline),
            kind="test-runner",
            tool="mix test",
            file=location["file"],
            line=int(location["line"]),
            test=test,
            symbol=match["title"],
        )


_CREDO_ISSUE = re.compile(r"^┃ \[(?P<category>[A-Z])\] \S[ \t]+(?P<msg>\S.*?)[ \t]*$")
_CREDO_LOCATION = re.compile(
    r"^┃[ \t]+(?P<file>[^\s:]+\.exs?):(?P<line>\d+)(?::(?P<col>\d+))?(?: #\((?P<where>[^)]*)\))?[ \t]*$"
)


def _credo(ctx: _Context) -> Iterator[Diagnostic]:
    """``mix credo``: ``┃ [R] ↘ message`` then ``┃       lib/x.ex:92:5 #(Module.function)``."""
    for offset, line in ctx.lines("┃ ["):
        issue = _CREDO_ISSUE.match(line)
        following = _lines_after(ctx.text, offset, 1)
        location = _CREDO_LOCATION.match(following[0]) if issue and following else None
        if not issue or not location:
            continue
        where = location["where"]
        yield Diagnostic(
            message=_message(issue["msg"]),
            kind="linter",
            tool="mix credo",
            file=location["file"],
            line=int(location["line"]),
            column=_int(location["col"]),
            symbol=where.rsplit(".", 1)[-1] if where else None,
        )


_DIALYZER_HEAD = re.compile(
    r"^(?P<file>[^\s:]+\.exs?):(?P<line>\d+)(?::(?P<col>\d+))?:(?P<code>[a-z][a-z_]+)[ \t]*$"
)
_RULE_LINE = re.compile(r"^_{20,}$")


def _dialyzer(ctx: _Context) -> Iterator[Diagnostic]:
    """Dialyxir's warnings: ``lib/x.ex:58:13:pattern_match``, the sentence, then the types it quotes."""
    for offset, line in ctx.lines(".ex:", ".exs:"):
        head = _DIALYZER_HEAD.match(line)
        if not head:
            continue
        block: list[str] = []
        for following in _lines_after(ctx.text, offset, 30):
            if _RULE_LINE.match(following.strip()) or _DIALYZER_HEAD.match(following):
                break
            block.append(following)
        first = next((i for i, b in enumerate(block) if b.strip()), None)
        sentence = block[first].strip() if first is not None else head["code"]
        rest = block[first + 1 :] if first is not None else []
        yield Diagnostic(
            message=_message(sentence),
            detail=_detail(rest, sentence),
            kind="type-checker",
            tool="mix dialyzer",
            code=head["code"],
            file=head["file"],
            line=int(head["line"]),
            column=_int(head["col"]),
        )


# An uncaught JavaScript error: "TypeError: x is not a function" then "    at f (file:12:5)".
_JS_ERROR = re.compile(r"^(?:Uncaught )?(?P<msg>(?:[A-Z]\w*)?Error(?: \[[\w-]+\])?: \S.*)$")
_JS_FRAME = re.compile(r"^[ \t]+at [^\n]*[:(]")


def _javascript_errors(ctx: _Context) -> Iterator[Diagnostic]:
    text = ctx.text
    for offset, line in ctx.lines("rror"):
        match = _JS_ERROR.match(line)
        if not match:
            continue
        following = _lines_after(text, offset, 30)
        frames = [f for f in following[:30] if _JS_FRAME.match(f)]
        if not frames or not any(_JS_FRAME.match(f) for f in following[:6]):
            continue  # no stack right under it: not a JavaScript error report
        file, number, column = _location_in("\n".join(frames))
        yield Diagnostic(
            message=_message(match["msg"]),
            kind="generic",
            tool="node",
            file=file,
            line=number,
            column=column,
        )


# --- wrappers: reported only when nothing more specific was found -------------------------

_NPM_LINE = re.compile(r"^npm (?:ERR!|error) ?(?P<msg>.*)$")
_NPM_NOISE = re.compile(
    r"^(?:code |errno |syscall |path |dest |A complete log|Log files|\s*$|command (?:failed|sh -c)"
    r"|signal |Lifecycle script|This is probably not a problem|Failed at the|workspace |location "
    r"|in workspace|at location)"
)
_PNPM_LINE = re.compile(r"^[ \t]*(?P<code>ERR_PNPM_\w+)[ \t]+(?P<msg>.+)$")
_GO_PACKAGE_FAIL = re.compile(
    r"^FAIL\t(?P<package>\S+)(?:[ \t]+\[(?P<why>[^\]]+)\]|\t[\d.]+s)?[ \t]*$"
)
_ELIXIR_RAISE = re.compile(r"^\*\* \((?P<type>[\w.]+)\) (?P<msg>.+)$")
_ELIXIR_RAISE_FILE = re.compile(r"(?P<file>\S+\.exs?)(?::(?P<line>\d+))?: ")


def _wrappers(ctx: _Context) -> Iterator[Diagnostic]:
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
            message=_message(message or f"npm error {code}"), kind="npm", code=code, tool="npm"
        )
    for _, line in ctx.lines("ERR_PNPM_"):
        if match := _PNPM_LINE.match(line):
            yield Diagnostic(
                message=_message(match["msg"]), kind="npm", code=match["code"], tool="pnpm"
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
                message=_message(line),
                tool="elixir",
                kind="compiler" if match["type"] == "CompileError" else "generic",
                file=location["file"] if location else None,
                line=_int(location["line"]) if location else None,
            )
            break


# --- generic fallback ----------------------------------------------------------------------

_GENERIC_ERROR = re.compile(
    r"^[ \t]*(?:\[ERROR\][ \t]*)?(?P<msg>(?:[A-Z]\w*(?:Error|Exception)|Error|ERROR|error|fatal|FATAL"
    r"|Fatal error|panic)(?:\[[^\]]{1,40}\])?:[ \t]*\S.*)$"
    r"|^(?:✘ )?\[ERROR\] (?P<bracketed>\S.*)$"  # esbuild, Maven
)
_GENERIC_MARKERS = ("rror", "ERROR", "Exception", "fatal", "FATAL", "panic")
_SHELL_NEEDLES = (
    "command not found",
    "No such file or directory",
    "Permission denied",
    "is not recognized as an internal or external command",
)
_NOT_AN_ERROR = re.compile(
    r"^(?:Error|error): (?:Exit code \d+|0 errors?|none|\(none\))\s*$", re.IGNORECASE
)


def _generic(ctx: _Context) -> Iterator[Diagnostic]:
    for offset, line in ctx.lines(*_GENERIC_MARKERS):
        match = _GENERIC_ERROR.match(line)
        if not match:
            continue
        message = (match["msg"] or match["bracketed"]).strip()
        if _NOT_AN_ERROR.match(message):
            continue
        if message.endswith(":"):  # "Error: Build failed with 1 error:" introduces the error
            detail = next((f.strip() for f in _lines_after(ctx.text, offset, 3) if f.strip()), "")
            message = f"{message} {detail}".strip()
        yield Diagnostic(message=_message(message), kind="generic")
        return
    for _, line in ctx.lines(*_SHELL_NEEDLES)[:1]:
        yield Diagnostic(message=_message(line), kind="generic")


# Every family needs one of these in the output before it can report anything; most
# outputs (file listings, reads, git status) have none and are passed over at once.
_TRIGGERS = (
    "rror", "ERROR", "FAIL", "Traceback", "panic", "--> ", "└─ ", ".py", ".go:", "● ",
    ") test ", ") doctest ", "npm ERR!", "npm error", "ERR_PNPM_", "** (", "\ne: ",
    "Exception", "fatal", "FATAL", " failed", "┃ [", ".ex:", ".exs:", *_SHELL_NEEDLES,
)  # fmt: skip
# Markers that only refine what a trigger found.
_SECONDARY = ("PASS", "Test", "⎯⎯⎯", "\n===", "___ ")

# Most specific first: when two families report the same error at the same place
# (a unittest block holds a traceback), the first one is kept.
_FAMILIES: tuple[Callable[[_Context], Iterator[Diagnostic]], ...] = (
    _unittest,
    _pytest,
    _python_tracebacks,
    _python_syntax_errors,
    _arrow_diagnostics,
    _typescript,
    _compiler_lines,
    _python_linters,
    _go_build,
    _eslint,
    _jest,
    _vitest,
    _go_test,
    _rust_panics,
    _exunit,
    _credo,
    _dialyzer,
    _javascript_errors,
)


def extract_errors(output: str, command: str | None = None) -> list[Diagnostic]:
    """The errors ``output`` reports, in order, deduplicated, at most :data:`MAX_DIAGNOSTICS`.

    ``command`` (the shell command that produced the output, when known)
    only refines attribution, e.g. ``clang`` rather than ``gcc``.
    """
    if not output or not isinstance(output, str):
        return []
    text = _clean(output)
    if not any(trigger in text for trigger in _TRIGGERS):
        return []
    ctx = _Context(text=text, command=command or "")
    found: list[Diagnostic] = []
    places: set[tuple[object, ...]] = set()

    def add(diagnostics: Iterator[Diagnostic]) -> None:
        # Families are lazy: stopping here also stops their work on a huge, repetitive log.
        for consumed, diagnostic in enumerate(diagnostics):
            if consumed >= _MAX_CANDIDATES:
                return
            place = (diagnostic.message, diagnostic.file, diagnostic.line)
            # The same error reached twice, or by a later, less specific family.
            if place in places and (diagnostic.test is None or diagnostic in found):
                continue
            places.add(place)
            found.append(diagnostic)
            if len(found) >= MAX_DIAGNOSTICS:
                return

    for family in _FAMILIES:
        _run(family, ctx, add)
        if len(found) >= MAX_DIAGNOSTICS:
            break
    if not found:
        _run(_wrappers, ctx, add)
    if not found:
        _run(_generic, ctx, add)
    return found[:MAX_DIAGNOSTICS]


def _run(
    family: Callable[[_Context], Iterator[Diagnostic]],
    ctx: _Context,
    add: Callable[[Iterator[Diagnostic]], None],
) -> None:
    """Run one parser; a bug in it costs its own findings, never the caller's session."""
    try:
        add(family(ctx))
    except Exception as exc:  # reported, not hidden: the tests run with warnings as errors
        warnings.warn(
            f"error extraction ({family.__name__}) failed: {exc!r}", RuntimeWarning, stacklevel=3
        )
