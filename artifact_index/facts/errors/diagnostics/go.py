"""Go: build and vet errors, golangci-lint findings, failing tests, and panics with the frame that raised them."""

from __future__ import annotations

import re
from collections.abc import Iterator

from artifact_index.facts.errors.diagnostics.diagnostic import Diagnostic
from artifact_index.facts.errors.diagnostics.tool_output import (
    TASK_PREFIX,
    Context,
    explaining_detail,
    lines_after,
    trimmed,
)
from artifact_index.lazy_pattern import lazy_pattern

__all__ = [
    "go_build_errors",
    "go_test_failures",
]

_GO_LINE = lazy_pattern(
    rf"^{TASK_PREFIX}(?P<vet>vet: )?(?P<file>[^\s:][^:]*?\.go):(?P<line>\d+):(?P<col>\d+): "
    r"(?!(?:error|warning|note): )(?P<msg>.+)$"
)
_GO_LINTER = lazy_pattern(r" \((?P<linter>[a-z][a-z0-9-]*)\)$")


def go_build_errors(ctx: Context) -> Iterator[Diagnostic]:
    for _, line in ctx.lines(".go:"):
        match = _GO_LINE.match(line)
        if not match or match["msg"] == "too many errors":  # the compiler giving up, not an error
            continue
        message = match["msg"]
        if linter := _GO_LINTER.search(message):
            yield Diagnostic(
                message=trimmed(message[: linter.start()]),
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
            message=trimmed(message),
            kind="compiler",
            file=match["file"],
            line=int(match["line"]),
            column=int(match["col"]),
            tool="go vet" if vet else "go",
        )


_GO_FAIL = lazy_pattern(r"^(?P<indent>[ \t]*)--- FAIL: (?P<name>\S+)")
_GO_LOG = lazy_pattern(r"^\s+(?P<file>[\w./-]+\.go):(?P<line>\d+): (?P<msg>.+)$")
_GO_PANIC = lazy_pattern(r"^panic: (?P<msg>.+)$")
_GO_STACK_FILE = lazy_pattern(r"^\t(?P<file>.+?\.go):(?P<line>\d+)(?: \+0x[0-9a-f]+)?$")
_GO_STACK_FUNC = lazy_pattern(
    r"^(?:[\w./-]+/)?[\w-]+\.(?:\(\*?\w+\)\.)?(?P<func>\w+)(?:\.func\d+)*\("
)
_GO_RUNTIME = lazy_pattern(r"/src/(?:runtime|testing|reflect)/|/usr/local/go/|/libexec/src/")


def _go_block(text: str, offset: int, indent: str) -> list[str]:
    """The lines a failing test logged under its ``--- FAIL`` line (indented deeper than it)."""
    block = []
    for following in lines_after(text, offset, 40):
        if following.strip() and len(following) - len(following.lstrip()) <= len(indent):
            break
        block.append(following)
    return block


def _go_log_after(block: list[str]) -> re.Match[str] | None:
    return next((log for following in block if (log := _GO_LOG.match(following))), None)


def go_test_failures(ctx: Context) -> Iterator[Diagnostic]:
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
        message = trimmed(log["msg"] if log else f"--- FAIL: {name}")
        yield Diagnostic(
            message=message,
            detail=explaining_detail(block, message) if log else None,
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
        for following in lines_after(text, offset, 200):
            location = _GO_STACK_FILE.match(following)
            if location and not _GO_RUNTIME.search(location["file"]):
                function = _GO_STACK_FUNC.match(previous)
                file, number = location["file"], int(location["line"])
                symbol = function["func"] if function else None
                break
            previous = following
        message = panic["msg"].removesuffix(" [recovered]").strip()
        yield Diagnostic(
            message=trimmed(f"panic: {message}"),
            kind="test-runner" if in_tests else "generic",
            tool="go test" if in_tests else "go",
            file=file,
            line=number,
            symbol=symbol,
        )
