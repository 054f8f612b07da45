"""What one error found in a tool's output says: its text, kind, place and tool."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

__all__ = ["MAX_DIAGNOSTICS", "Diagnostic", "DiagnosticKind"]

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


class Diagnostic(BaseModel):
    """One error found in a tool's output."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

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
