"""Elixir: ExUnit failures, Credo issues and Dialyzer warnings (compiler errors are read with the other ``-->`` formats)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from artifact_index.facts.errors.diagnostics.diagnostic import Diagnostic
from artifact_index.facts.errors.diagnostics.tool_output import (
    TRUNCATION_MARKER,
    Context,
    explaining_detail,
    lines_after,
    optional_int,
    trimmed,
)
from artifact_index.lazy_pattern import lazy_pattern

__all__ = [
    "credo_issues",
    "dialyzer_warnings",
    "exunit_failures",
]

_EXUNIT_FAILURE = lazy_pattern(
    r"^[ \t]+\d+\) (?P<title>(?:test|doctest) .+?) \((?P<module>[\w.]+)\)[ \t]*$"
)
_EXUNIT_LOCATION = lazy_pattern(r"^[ \t]+(?P<file>\S+\.exs?):(?P<line>\d+)[ \t]*$")
_EXUNIT_LABEL = ("code:", "left:", "right:", "arguments:", "doctest:", "value:")


def exunit_failures(ctx: Context) -> Iterator[Diagnostic]:
    text = ctx.text
    for offset, line in ctx.lines(") test ", ") doctest "):
        match = _EXUNIT_FAILURE.match(line)
        following = lines_after(text, offset, 30)
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
            if not TRUNCATION_MARKER.match(stripped):
                block.append(candidate)
            if stripped.startswith("code:") and code is None:
                code = stripped[5:].strip()
            elif (
                message is None
                and stripped
                and not stripped.startswith(_EXUNIT_LABEL)
                and not TRUNCATION_MARKER.match(stripped)
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
        headline = trimmed(message or test)
        yield Diagnostic(
            message=headline,
            detail=explaining_detail(block, headline),
            kind="test-runner",
            tool="mix test",
            file=location["file"],
            line=int(location["line"]),
            test=test,
            symbol=match["title"],
        )


_CREDO_ISSUE = lazy_pattern(r"^┃ \[(?P<category>[A-Z])\] \S[ \t]+(?P<msg>\S.*?)[ \t]*$")
_CREDO_LOCATION = lazy_pattern(
    r"^┃[ \t]+(?P<file>[^\s:]+\.exs?):(?P<line>\d+)(?::(?P<col>\d+))?(?: #\((?P<where>[^)]*)\))?[ \t]*$"
)


def credo_issues(ctx: Context) -> Iterator[Diagnostic]:
    """``mix credo``: ``┃ [R] ↘ message`` then ``┃       lib/x.ex:92:5 #(Module.function)``."""
    for offset, line in ctx.lines("┃ ["):
        issue = _CREDO_ISSUE.match(line)
        following = lines_after(ctx.text, offset, 1)
        location = _CREDO_LOCATION.match(following[0]) if issue and following else None
        if not issue or not location:
            continue
        where = location["where"]
        yield Diagnostic(
            message=trimmed(issue["msg"]),
            kind="linter",
            tool="mix credo",
            file=location["file"],
            line=int(location["line"]),
            column=optional_int(location["col"]),
            symbol=where.rsplit(".", 1)[-1] if where else None,
        )


_DIALYZER_HEAD = lazy_pattern(
    r"^(?P<file>[^\s:]+\.exs?):(?P<line>\d+)(?::(?P<col>\d+))?:(?P<code>[a-z][a-z_]+)[ \t]*$"
)
_RULE_LINE = lazy_pattern(r"^_{20,}$")


def dialyzer_warnings(ctx: Context) -> Iterator[Diagnostic]:
    """Dialyxir's warnings: ``lib/x.ex:58:13:pattern_match``, the sentence, then the types it quotes."""
    for offset, line in ctx.lines(".ex:", ".exs:"):
        head = _DIALYZER_HEAD.match(line)
        if not head:
            continue
        block: list[str] = []
        for following in lines_after(ctx.text, offset, 30):
            if _RULE_LINE.match(following.strip()) or _DIALYZER_HEAD.match(following):
                break
            block.append(following)
        first = next((i for i, b in enumerate(block) if b.strip()), None)
        sentence = block[first].strip() if first is not None else head["code"]
        rest = block[first + 1 :] if first is not None else []
        yield Diagnostic(
            message=trimmed(sentence),
            detail=explaining_detail(rest, sentence),
            kind="type-checker",
            tool="mix dialyzer",
            code=head["code"],
            file=head["file"],
            line=int(head["line"]),
            column=optional_int(head["col"]),
        )
