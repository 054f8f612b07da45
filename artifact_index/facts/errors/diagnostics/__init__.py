"""Errors in tool output: the exact text, and the file, line and symbol they name.

:func:`extract_errors` reads the output of one tool call and returns one
:class:`Diagnostic` per error it recognizes, in the order they appear.  Each
*family* of output (Python tracebacks, pytest, unittest, compilers, type
checkers, linters, test runners, npm) has its own small parser, in one module
per language (:mod:`.python`, :mod:`.javascript`, :mod:`.go`, :mod:`.rust`,
:mod:`.elixir`), one for the ``file:line:col`` compilers (:mod:`.compilers`)
and one for the wrappers and the generic fallback (:mod:`.fallbacks`); the
generic fallback (``Error: ...``, ``fatal: ...``) runs only when no specific
family matched, so a failing ``pytest`` run reports its failing tests, not the
``npm ERR!`` wrapper around it.

Speed and safety on large logs (:mod:`.reading`): a parser never runs a regex
over the whole output.  It asks for the lines holding a short marker (``"rror"``, ``"FAIL"``,
``"-->"``), found with ``str.find``, and matches only those lines with
regexes bounded by the line (no nested quantifiers, so no catastrophic
backtracking).  An output holding none of the markers is passed over at once,
and each parser stops after a few hundred candidates, so a megabyte of
repetitive log costs tens of milliseconds.  A parser that fails is reported
with a ``RuntimeWarning`` and the others still run: :func:`extract_errors`
never raises on odd input.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator

from artifact_index.facts.errors.diagnostics.compilers import arrow_diagnostics, compiler_lines
from artifact_index.facts.errors.diagnostics.diagnostic import (
    MAX_DIAGNOSTICS,
    Diagnostic,
    DiagnosticKind,
)
from artifact_index.facts.errors.diagnostics.elixir import (
    credo_issues,
    dialyzer_warnings,
    exunit_failures,
)
from artifact_index.facts.errors.diagnostics.fallbacks import (
    SHELL_NEEDLES,
    generic_errors,
    wrapper_errors,
)
from artifact_index.facts.errors.diagnostics.go import go_build_errors, go_test_failures
from artifact_index.facts.errors.diagnostics.javascript import (
    eslint_errors,
    javascript_errors,
    jest_failures,
    mocha_failures,
    typescript_errors,
    vitest_failures,
)
from artifact_index.facts.errors.diagnostics.python import (
    pytest_failures,
    python_linters,
    python_syntax_errors,
    python_tracebacks,
    unittest_failures,
)
from artifact_index.facts.errors.diagnostics.rust import rust_panics
from artifact_index.facts.errors.diagnostics.tool_output import Context, clean_output

__all__ = [
    "MAX_DIAGNOSTICS",
    "Diagnostic",
    "DiagnosticKind",
    "extract_errors",
]

_MAX_CANDIDATES = 4 * MAX_DIAGNOSTICS  # errors one family may propose, duplicates included

# Every family needs one of these in the output before it can report anything; most
# outputs (file listings, reads, git status) have none and are passed over at once.
_TRIGGERS = (
    "rror", "ERROR", "FAIL", "Traceback", "panic", "--> ", "└─ ", ".py", ".go:", "● ",
    ") test ", ") doctest ", "npm ERR!", "npm error", "ERR_PNPM_", "** (", "\ne: ", " failing",
    "Exception", "fatal", "FATAL", " failed", "┃ [", ".ex:", ".exs:", *SHELL_NEEDLES,
)  # fmt: skip
# Markers that only refine what a trigger found.
_SECONDARY = ("PASS", "Test", "⎯⎯⎯", "\n===", "___ ")

# Most specific first: when two families report the same error at the same place
# (a unittest block holds a traceback), the first one is kept.
_FAMILIES: tuple[Callable[[Context], Iterator[Diagnostic]], ...] = (
    unittest_failures,
    pytest_failures,
    python_tracebacks,
    python_syntax_errors,
    arrow_diagnostics,
    typescript_errors,
    compiler_lines,
    python_linters,
    go_build_errors,
    eslint_errors,
    jest_failures,
    vitest_failures,
    mocha_failures,
    go_test_failures,
    rust_panics,
    exunit_failures,
    credo_issues,
    dialyzer_warnings,
    javascript_errors,
)


def extract_errors(output: str, command: str | None = None) -> list[Diagnostic]:
    """The errors ``output`` reports, in order, deduplicated, at most :data:`MAX_DIAGNOSTICS`.

    ``command`` (the shell command that produced the output, when known)
    only refines attribution, e.g. ``clang`` rather than ``gcc``.
    """
    if not output or not isinstance(output, str):
        return []
    text = clean_output(output)
    if not any(trigger in text for trigger in _TRIGGERS):
        return []
    ctx = Context(text=text, command=command or "")
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
        _run(wrapper_errors, ctx, add)
    if not found:
        _run(generic_errors, ctx, add)
    return found[:MAX_DIAGNOSTICS]


def _run(
    family: Callable[[Context], Iterator[Diagnostic]],
    ctx: Context,
    add: Callable[[Iterator[Diagnostic]], None],
) -> None:
    """Run one parser; a bug in it costs its own findings, never the caller's session."""
    try:
        add(family(ctx))
    except Exception as exc:  # reported, not hidden: the tests run with warnings as errors
        warnings.warn(
            f"error extraction ({family.__name__}) failed: {exc!r}", RuntimeWarning, stacklevel=3
        )
