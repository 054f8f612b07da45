"""Rust: panics, and the ``cargo test`` failures they explain (rustc's own errors are read with the other ``-->`` formats)."""

from __future__ import annotations

from collections.abc import Iterator

from artifact_index.facts.errors.diagnostics.diagnostic import Diagnostic
from artifact_index.facts.errors.diagnostics.tool_output import Context, lines_after, trimmed
from artifact_index.lazy_pattern import lazy_pattern

__all__ = [
    "rust_panics",
]

_CARGO_FAILED = lazy_pattern(r"^test (?P<name>\S+) \.\.\. FAILED$")
_RUST_PANIC = lazy_pattern(
    r"^thread '(?P<thread>[^']*)' (?:\(\d+\) )?panicked at (?:"
    r"(?P<file>[^\s:'][^:]*):(?P<line>\d+):(?P<col>\d+):$"
    r"|'(?P<msg>.*?)'?, (?P<ofile>[^\s:][^:]*):(?P<oline>\d+):(?P<ocol>\d+)$"
    r"|'(?P<open>.*)$)"
)
_RUST_OLD_LOCATION = lazy_pattern(r"', (?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+)$")
_Location = tuple[str | None, int | None, int | None]


def rust_panics(ctx: Context) -> Iterator[Diagnostic]:
    text = ctx.text
    panics: dict[str, tuple[str, _Location]] = {}
    for offset, line in ctx.lines("panic"):
        match = _RUST_PANIC.match(line)
        if not match or match["thread"] in panics:
            continue
        location: _Location = (None, None, None)
        if match["file"]:  # Rust >= 1.73: the message follows on its own lines
            after = [f for f in lines_after(text, offset, 4) if f.strip()]
            message = after[0] if after else "panicked"
            location = (match["file"], int(match["line"]), int(match["col"]))
        elif match["ofile"]:
            message = match["msg"]
            location = (match["ofile"], int(match["oline"]), int(match["ocol"]))
        else:  # an older multi-line message: the location ends it
            message = match["open"]
            for following in lines_after(text, offset, 20):
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
            message=trimmed(message),
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
                message=trimmed(message),
                kind="test-runner" if in_tests else "generic",
                tool="cargo test" if in_tests else "rust",
                file=file,
                line=line_number,
                column=column,
            )
