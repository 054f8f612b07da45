"""One error of the ledger, one failed command, one test command's last run; and the signature that identifies an error.

A :class:`LedgerEntry` is one distinct error as first seen, with its history;
its :func:`signature` (kind, exception type or code, file name and message
with numbers, addresses and paths masked) is what makes the same error in
five runs one entry.
"""

from __future__ import annotations

import functools
import re
from typing import Literal

from pydantic import BaseModel, ConfigDict

from artifact_index.facts.errors.diagnostics import Diagnostic, DiagnosticKind
from artifact_index.facts.errors.test_results import TestRun, without_task_prefixes
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.redaction import redact_text, redaction_enabled

__all__ = ["FailedRun", "LedgerEntry", "TestStatus", "signature"]


class LedgerEntry(BaseModel):
    """One distinct error, as first seen, with its history."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    signature: str
    message: str
    detail: str | None = None  # the lines that explain it, from its latest occurrence
    kind: DiagnosticKind
    code: str | None = None
    tool: str | None = None  # the program that reported it: pytest, tsc, rustc...
    file: str | None = None
    line: int | None = None
    column: int | None = None
    symbol: str | None = None
    test: str | None = None  # the first failing test that showed it
    tests: tuple[str, ...] = ()  # every failing test that showed it (the first MAX_TESTS)
    command: str | None = None  # the command that first raised it
    commands: tuple[str, ...] = ()  # one shell command per distinct check that raised it
    keys: tuple[str, ...] = ()  # the normalized commands (or "tool:NAME") that raised it
    first_turn: int
    last_turn: int
    occurrences: int = 1  # results it appeared in
    first_call_id: str | None = None
    last_call_id: str | None = None
    resolved: bool = False
    resolved_turn: int | None = None
    resolved_by: str | None = None  # the command whose run resolved it
    resolution: str | None = None  # how that run resolved it, in words
    # Why it is not the session's to fix: it was there before (see pre_existing); None when it is.
    pre_existing: str | None = None
    seen_turns: tuple[int, ...] = ()  # the turns it appeared in (the latest MAX_SEEN)
    # The first shell command that succeeded after it last appeared, and its turn: the session went
    # on past it (another way of doing the same thing, or other work); None when none has yet.
    went_on: str | None = None
    went_on_turn: int | None = None


class FailedRun(BaseModel):
    """One failed shell command and what the ledger made of it."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    turn: int
    call_id: str
    command: str
    outcome: Literal["error", "noise"]
    reason: str | None = None  # why it is noise
    errors: tuple[str, ...] = ()  # signatures of the entries it raised or saw again


class TestStatus(TestRun):
    """The last run of one test command."""

    key: str  # the normalized command: runs with the same key are the same test command
    turn: int
    call_id: str | None = None


# --- signatures ------------------------------------------------------------------------------

_HEX = lazy_pattern(r"\b0x[0-9a-fA-F]+\b")
_HASH = lazy_pattern(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b")
_UUID = lazy_pattern(
    r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b"
)
_PATH = lazy_pattern(r"(?:[A-Za-z]:)?(?:[\w.~@+-]*[/\\])+[\w.@+-]+")
_NUMBER = lazy_pattern(r"\d+")
_SPACE = lazy_pattern(r"\s+")
_EXCEPTION = lazy_pattern(
    r"^(?:[\w.]+\.)?(?P<type>[A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt))\b"
)


# The same error is masked again at each run that shows it, and again to see whether a run still does.
@functools.lru_cache(maxsize=4096)
def _masked(message: str) -> str:
    """The message with what varies between runs of the same error masked."""
    text = _UUID.sub("<id>", without_task_prefixes(message))
    text = _HEX.sub("0x?", text)
    text = _PATH.sub("<path>", text)
    text = _HASH.sub("<hash>", text)
    text = _NUMBER.sub("N", text)
    return _SPACE.sub(" ", text).strip()


def signature(diagnostic: Diagnostic) -> str:
    """A stable identity of an error across runs: the line may move, the error does not.

    The failing test is not part of it: eight tests failing on the same
    ``NameError`` in the same file are one error to fix.
    """
    exception = _EXCEPTION.match(diagnostic.message)
    file = re.split(r"[/\\]", diagnostic.file)[-1] if diagnostic.file else ""
    return "|".join(
        (
            diagnostic.kind,
            diagnostic.code or (exception["type"] if exception else ""),
            file,
            _redacted_masked(diagnostic.message, redaction_enabled()),
        )
    )


# Each error's signature is taken again at every run that shows it and every lookup of it: the
# search for secrets is the costly part.  Whether redaction is on is part of the key.
@functools.lru_cache(maxsize=4096)
def _redacted_masked(message: str, redacting: bool) -> str:
    # Redacted first: masking reshapes a message (a URL's path becomes <path>) past
    # where redaction at the output could still tell a password in it.
    return _masked(redact_text(message))
