"""Python: tracebacks, syntax errors, pytest and unittest failures, and the compact lines of ruff, flake8 and pylint."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass

from artifact_index.facts.errors.diagnostics.diagnostic import MAX_DIAGNOSTICS, Diagnostic
from artifact_index.facts.errors.diagnostics.tool_output import (
    TASK_PREFIX,
    Context,
    explaining_detail,
    line_end,
    lines_before,
    trimmed,
)
from artifact_index.lazy_pattern import lazy_pattern

__all__ = [
    "pytest_failures",
    "python_linters",
    "python_syntax_errors",
    "python_tracebacks",
    "unittest_failures",
]

_TRACEBACK = "Traceback (most recent call last):"
_FRAME = lazy_pattern(
    r'^\s*File "(?P<file>[^"\n]+)", line (?P<line>\d+)(?:, in (?P<func>\S[^\n]*))?'
)
_EXCEPTION_LINE = lazy_pattern(r"^(?P<type>[A-Za-z_][\w.]*)(?:(?P<colon>:)[ \t]*(?P<msg>.*))?$")
_EXCEPTION_NAME = lazy_pattern(
    r"(?:Error|Exception|Warning|Exit|Interrupt|Iteration|Failure|Fault|Timeout)$"
)
_CHAINED = (
    "During handling of the above exception, another exception occurred:",
    "The above exception was the direct cause of the following exception:",
)
_LIBRARY_FRAME = lazy_pattern(r"site-packages|dist-packages|[/\\]lib[/\\]python\d[\d.]*[/\\]")
_BARE_SYNTAX_ERROR = lazy_pattern(r"^(?:SyntaxError|IndentationError|TabError): \S")


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
                message=trimmed(line), frames=frames, end=end if end >= 0 else len(text)
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


def python_tracebacks(ctx: Context) -> Iterator[Diagnostic]:
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


def python_syntax_errors(ctx: Context) -> Iterator[Diagnostic]:
    """A syntax error in the main script prints a frame and no ``Traceback`` header."""
    text = ctx.text
    for offset, line in ctx.lines("rror"):
        if not _BARE_SYNTAX_ERROR.match(line):
            continue
        for earlier in reversed(lines_before(text, offset, 5)):
            frame = _FRAME.match(earlier)
            if frame:
                pseudo = frame["file"].startswith("<")
                yield Diagnostic(
                    message=trimmed(line),
                    kind="python-traceback",
                    file=None if pseudo else frame["file"],
                    line=None if pseudo else int(frame["line"]),
                    tool="python",
                )
                break


_PYTEST_SECTION = lazy_pattern(r"^_{3,} (?P<title>\S.*?) _{3,}$")
_PYTEST_E_LINE = lazy_pattern(r"^E {1,}(?P<msg>\S[^\n]*)$", re.MULTILINE)
_PYTEST_LOCATION = lazy_pattern(
    r"^(?P<file>[^\s:][^:\n]*?):(?P<line>\d+): (?:in (?P<func>[\w<>.]+)|(?P<exc>[A-Za-z_][\w.]*))?[ \t]*$",
    re.MULTILINE,
)
_PYTHON_DEF = lazy_pattern(r"^[ \t]*(?:async[ \t]+)?def (?P<name>\w+)\(", re.MULTILINE)
_PYTEST_ID = r"(?P<id>[^\s\[]+(?:\[[^\]]*\])?)"
_PYTEST_SUMMARY_ITEM = lazy_pattern(rf"^(?P<status>FAILED|ERROR) {_PYTEST_ID}(?: - (?P<msg>.*))?$")
_PYTEST_VERBOSE_ITEM = lazy_pattern(rf"^{_PYTEST_ID} (?P<status>FAILED|ERROR)\b")
_PYTEST_TOTALS = lazy_pattern(
    r"^=*[ \t]*(?P<totals>(?:\d+ (?:failed|passed|errors?|skipped|xfailed|xpassed|deselected"
    r"|warnings?|rerun)(?:, )?)+)(?: in [\d.]+s.*?)?[ \t]*=*$"
)
_EXCEPTION_PREFIX = lazy_pattern(r"^[A-Za-z_][\w.]*(?:Error|Exception|Warning|Exit)\b")


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
        message=trimmed(message) if message else None,
        detail=explaining_detail(e_lines, message) if message and len(e_lines) > 1 else None,
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


def pytest_failures(ctx: Context) -> Iterator[Diagnostic]:
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
        body_start = line_end(text, offset)
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
            message=trimmed(message or f"{status} {test_id}"),
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
                yield Diagnostic(message=trimmed(totals["totals"]), kind="pytest", tool="pytest")
                break


def _is_test_title(title: str) -> bool:
    return title.startswith(("test", "Test", "ERROR collecting", "ERROR at")) or ".test" in title


_UNITTEST_HEADER = lazy_pattern(r"^(?P<status>FAIL|ERROR): (?P<name>\S+) \((?P<where>[\w.]+)\)")


def unittest_failures(ctx: Context) -> Iterator[Diagnostic]:
    text = ctx.text
    for offset, line in ctx.lines("FAIL", "ERROR"):
        match = _UNITTEST_HEADER.match(line)
        if not match or not "".join(lines_before(text, offset, 1)).startswith("=" * 20):
            continue  # unittest puts a rule of "=" right above each failure
        name, where = match["name"], match["where"]
        test_id = where if where.endswith("." + name) else f"{where}.{name}"
        header = text.find(_TRACEBACK, offset, offset + len(line) + 400)
        parsed = _parse_traceback(text, header) if header >= 0 else None
        if parsed is None:
            yield Diagnostic(
                message=trimmed(line),
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


_LINT_CODE_LINE = lazy_pattern(
    rf"^{TASK_PREFIX}(?P<file>[^\s:][^:]*?\.(?:py|pyi|ipynb)):(?P<line>\d+):(?P<col>\d+): "
    r"(?P<code>[A-Z]{1,4}\d{1,4}):? (?:\[\*\] )?(?P<msg>.+)$"
)


def python_linters(ctx: Context) -> Iterator[Diagnostic]:
    tool = "ruff"
    for name in ("flake8", "pylint", "pycodestyle", "pyflakes"):
        if ctx.mentions(name):
            tool = name
    for _, line in ctx.lines(".py"):
        match = _LINT_CODE_LINE.match(line)
        if match:
            yield Diagnostic(
                message=trimmed(match["msg"]),
                kind="linter",
                file=match["file"],
                line=int(match["line"]),
                column=int(match["col"]),
                code=match["code"],
                tool=tool,
            )
