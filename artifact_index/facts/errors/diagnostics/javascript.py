"""JavaScript and TypeScript: tsc (and pyright's same-shaped lines), ESLint and Biome, Jest, Vitest and Mocha failures, uncaught errors with their stack."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from artifact_index.facts.errors.diagnostics.diagnostic import Diagnostic
from artifact_index.facts.errors.diagnostics.tool_output import (
    FILE_GROUP,
    TASK_PREFIX,
    TRUNCATION_MARKER,
    Context,
    explaining_detail,
    line_end,
    lines_after,
    lines_before,
    trimmed,
)
from artifact_index.lazy_pattern import lazy_pattern

__all__ = [
    "eslint_errors",
    "javascript_errors",
    "jest_failures",
    "mocha_failures",
    "typescript_errors",
    "vitest_failures",
]

_TSC_PAREN = lazy_pattern(
    rf"^{TASK_PREFIX}(?P<file>[^\s(][^(]*?)\((?P<line>\d+),(?P<col>\d+)\): error (?P<code>TS\d+): (?P<msg>.+)$"
)
_TSC_DASH = lazy_pattern(
    rf"^[ \t]*{TASK_PREFIX}{FILE_GROUP}:(?P<line>\d+):(?P<col>\d+) - error(?: (?P<code>TS\d+))?: (?P<msg>.+)$"
)
_TSC_GLOBAL = lazy_pattern(r"^error (?P<code>TS\d+): (?P<msg>.+)$")
# Next.js's build names the place on one line and the error on the next:
# "./components/a.tsx:19:3" then "Type error: Type 'unknown' is not assignable to type 'string'."
_NEXT_TYPE_ERROR = lazy_pattern(r"^[ \t]*Type error: (?P<msg>.+)$")
_NEXT_PLACE = lazy_pattern(r"^[ \t]*(?P<file>\S+\.[cm]?[jt]sx?):(?P<line>\d+):(?P<col>\d+)[ \t]*$")
_PYRIGHT_RULE = lazy_pattern(r"\s*\((?P<code>report\w+)\)$")


def typescript_errors(ctx: Context) -> Iterator[Diagnostic]:
    for _, line in ctx.lines("rror"):
        if "error TS" not in line:
            continue
        match = _TSC_PAREN.match(line)
        if match:
            yield Diagnostic(
                message=trimmed(match["msg"]),
                kind="type-checker",
                file=match["file"],
                line=int(match["line"]),
                column=int(match["col"]),
                code=match["code"],
                tool="tsc",
            )
        elif match := _TSC_GLOBAL.match(line):
            yield Diagnostic(
                message=trimmed(match["msg"]),
                kind="type-checker",
                code=match["code"],
                tool="tsc",
            )
    for offset, line in ctx.lines("rror"):
        error = _NEXT_TYPE_ERROR.match(line) if "Type error: " in line else None
        before = lines_before(ctx.text, offset, 1)
        place = _NEXT_PLACE.match(before[0]) if error and before else None
        if error and place:
            yield Diagnostic(
                message=trimmed(error["msg"]),
                kind="type-checker",
                file=place["file"],
                line=int(place["line"]),
                column=int(place["col"]),
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
            message=trimmed(message),
            kind="type-checker",
            file=match["file"],
            line=int(match["line"]),
            column=int(match["col"]),
            code=code,
            tool=tool,
        )


_ESLINT_ROW = lazy_pattern(r"^[ \t]+(?P<line>\d+):(?P<col>\d+)[ \t]+error[ \t]{2,}(?P<rest>.+)$")
_ESLINT_RULE = lazy_pattern(r"\s{2,}(?P<rule>@?[\w-]+(?:/[\w-]+)*)$")
_PATHLIKE = lazy_pattern(r"^\S*(?:[/\\]\S*|\.\w+)$")


def eslint_errors(ctx: Context) -> Iterator[Diagnostic]:
    text = ctx.text
    for offset, line in ctx.lines("rror"):
        match = _ESLINT_ROW.match(line) if "error  " in line else None
        if not match:
            continue
        header = None  # stylish output names the file once, unindented, above its rows
        for earlier in reversed(lines_before(text, offset, 200)):
            if earlier.strip() and not earlier[:1].isspace():
                header = earlier.strip() if _PATHLIKE.match(earlier.strip()) else None
                break
        rest = match["rest"].strip()
        rule = _ESLINT_RULE.search(rest)
        yield Diagnostic(
            message=trimmed(rest[: rule.start()] if rule else rest),
            kind="linter",
            file=header,
            line=int(match["line"]),
            column=int(match["col"]),
            code=rule["rule"] if rule else None,
            tool="biome" if ctx.mentions("biome") else "eslint",
        )


_JEST_SUITE = lazy_pattern(r"^[ \t]*(?P<status>FAIL|PASS)[ \t]+(?P<file>[^\s>]+)")
_JEST_BULLET = lazy_pattern(r"^ {0,4}● (?P<title>.+)$")
_STACK_LOCATION = lazy_pattern(r"(?:\(|at |❯ )(?P<file>[^\s()]+?):(?P<line>\d+):(?P<col>\d+)\)?")
_CODE_FRAME = lazy_pattern(r"^[ \t]*> ?(?P<line>\d+) \|", re.MULTILINE)
_VITEST_FAIL = lazy_pattern(r"^[ \t]*FAIL[ \t]+(?P<file>\S+?) > (?P<name>.+?)[ \t]*$")
_VITEST_END = lazy_pattern(r"^(?:[ \t]*FAIL[ \t]+\S|⎯{3,}|[ \t]*Test Files[ \t])")


def _stack_location(block: str) -> tuple[str | None, int | None, int | None]:
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
            and not TRUNCATION_MARKER.match(stripped)
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


def jest_failures(ctx: Context) -> Iterator[Diagnostic]:
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
        block = text[line_end(text, offset) : ends[after] if after < len(ends) else len(text)]
        file, line, column = _stack_location(block)
        if file is None and suite is not None:
            frame = _CODE_FRAME.search(block)
            file, line = suite, int(frame["line"]) if frame else None
        suite_error = title == "Test suite failed to run"
        message = trimmed(_first_text_line(block) or title)
        yield Diagnostic(
            message=message,
            detail=explaining_detail(_explaining_lines(block), message),
            kind="test-runner",
            tool=tool,
            file=file,
            line=line,
            column=column,
            test=None if suite_error else title,
            symbol=None if suite_error else title.split(" › ")[-1],
        )


def vitest_failures(ctx: Context) -> Iterator[Diagnostic]:
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
        block = text[line_end(text, offset) : ends[after] if after < len(ends) else len(text)]
        file, line, column = _stack_location(block)
        name = match["name"]
        message = trimmed(_first_text_line(block) or f"FAIL {match['file']} > {name}")
        yield Diagnostic(
            message=message,
            detail=explaining_detail(_explaining_lines(block), message),
            kind="test-runner",
            tool="vitest",
            file=file or match["file"],
            line=line,
            column=column,
            test=f"{match['file']} > {name}",
            symbol=name.split(" > ")[-1],
        )


# Mocha's report under its "2 failing" count: "  1) Suite" then the test's title (indented deeper, one
# line per nested suite, the last ending with ":"), then the error and its stack.
_MOCHA_FAILING = lazy_pattern(r"^[ \t]*(?P<n>\d+) failing[ \t]*$")
_MOCHA_ITEM = lazy_pattern(r"^(?P<indent>[ \t]*)(?P<n>\d+)\) (?P<title>\S.*?)[ \t]*$")
_MOCHA_DIFF = lazy_pattern(r"^\+ (?:expected - actual|actual - expected)$")


def mocha_failures(ctx: Context) -> Iterator[Diagnostic]:
    """The failures Mocha reports under its closing "N failing" count, each with its test and its error.

    Lines printed outside the report (a test host's own log) are never taken for a failure: only
    the numbered blocks the count announces are read.
    """
    text = ctx.text
    counts = [
        (offset, int(match["n"]))
        for offset, line in ctx.lines(" failing")
        if (match := _MOCHA_FAILING.match(line))
    ]
    if not counts:
        return
    offset, expected = counts[-1]
    lines = text[line_end(text, offset) + 1 :].split("\n")
    starts: list[tuple[int, str]] = []  # (line index, title), numbered 1, 2, … as announced
    for index, line in enumerate(lines):
        match = _MOCHA_ITEM.match(line)
        if match and int(match["n"]) == len(starts) + 1 and len(starts) < expected:
            starts.append((index, match["title"]))
    for number, (start, title) in enumerate(starts):
        end = starts[number + 1][0] if number + 1 < len(starts) else len(lines)
        parts = [title.removesuffix(":")]
        body = start + 1
        while not title.endswith(":") and body < end and lines[body].strip():
            title = lines[body].strip()
            parts.append(title.removesuffix(":"))
            body += 1
        block = "\n".join(lines[body:end])
        explaining = _explaining_lines(block)
        stripped = [line.strip() for line in explaining if line.strip()]
        message = stripped[0] if stripped else "failed"
        if message.endswith(":") and len(stripped) > 1 and not _MOCHA_DIFF.match(stripped[1]):
            message = f"{message} {stripped[1]}"  # "Expected values to be strictly equal:" then the values
        message = trimmed(message)
        file, line_number, column = _stack_location(block)
        yield Diagnostic(
            message=message,
            detail=explaining_detail(explaining, message),
            kind="test-runner",
            tool="mocha",
            file=file,
            line=line_number,
            column=column,
            test=" ".join(parts),
            symbol=parts[-1],
        )


# An uncaught JavaScript error: "TypeError: x is not a function" then "    at f (file:12:5)".
_JS_ERROR = lazy_pattern(r"^(?:Uncaught )?(?P<msg>(?:[A-Z]\w*)?Error(?: \[[\w-]+\])?: \S.*)$")
_JS_FRAME = lazy_pattern(r"^[ \t]+at [^\n]*[:(]")


def javascript_errors(ctx: Context) -> Iterator[Diagnostic]:
    text = ctx.text
    for offset, line in ctx.lines("rror"):
        match = _JS_ERROR.match(line)
        if not match:
            continue
        following = lines_after(text, offset, 30)
        frames = [f for f in following[:30] if _JS_FRAME.match(f)]
        if not frames or not any(_JS_FRAME.match(f) for f in following[:6]):
            continue  # no stack right under it: not a JavaScript error report
        file, number, column = _stack_location("\n".join(frames))
        yield Diagnostic(
            message=trimmed(match["msg"]),
            kind="generic",
            tool="node",
            file=file,
            line=number,
            column=column,
        )
