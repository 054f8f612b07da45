"""The error ledger: every error a session hit, where it points, and whether it was fixed.

The tracker feeds each tool result to :meth:`ErrorLedger.observe`.  Errors are
taken from failed results, and from successful ones whose exit status says
nothing: a test run that reports failures, or a check piped into ``tail``.
Each distinct error is one :class:`LedgerEntry`, identified by a *signature*
(kind, exception type or code, file name and message with numbers, addresses
and paths masked), so the same ``KeyError`` seen in five runs is one entry
with ``first_turn``, ``last_turn`` and ``occurrences``.

An entry is **resolved** when

* the same check later succeeds: the same command, or a broader run of the
  same checker (a bare ``pytest`` covers ``pytest tests/test_auth.py::t``),
  exits successfully and reports no failures; or
* the error stops appearing in a later successful run of a command that
  raised it (the run may still fail other tests: those are their own entries).

It reopens if it appears again.  The first real error of the session (not a
``git`` or ``ls`` complaint, not a harness message) is kept as ``original``.
The last :class:`~artifact_index.facts.errors.test_results.TestRun` of each test command is
kept in ``tests``.

The ledger is a pydantic model: ``model_dump_json`` / ``model_validate_json``
round-trip it exactly, so a live session can save it and resume.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from artifact_index.facts.errors.checks import (
    checks_in,
    command_key,
    covers,
    masks_exit_status,
    segments,
)
from artifact_index.facts.errors.diagnostics import Diagnostic, DiagnosticKind, extract_errors
from artifact_index.facts.errors.test_results import TestRun, is_test_command, parse_test_run

__all__ = ["MAX_ENTRIES", "MAX_TESTS", "ErrorLedger", "LedgerEntry", "TestStatus", "signature"]

MAX_ENTRIES = 2000  # beyond this a session is replaying the same build log
MAX_TESTS = 50  # failing tests listed per error


class LedgerEntry(BaseModel):
    """One distinct error, as first seen, with its history."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    signature: str
    message: str
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
    keys: tuple[str, ...] = ()  # the normalised commands (or "tool:NAME") that raised it
    first_turn: int
    last_turn: int
    occurrences: int = 1  # results it appeared in
    first_call_id: str | None = None
    last_call_id: str | None = None
    resolved: bool = False
    resolved_turn: int | None = None
    resolved_by: str | None = None  # the command whose run resolved it


class TestStatus(TestRun):
    """The last run of one test command."""

    key: str  # the normalised command: runs with the same key are the same test command
    turn: int
    call_id: str | None = None


# --- signatures ------------------------------------------------------------------------------

_HEX = re.compile(r"\b0x[0-9a-fA-F]+\b")
_HASH = re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b")
_UUID = re.compile(
    r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b"
)
_PATH = re.compile(r"(?:[A-Za-z]:)?(?:[\w.~@+-]*[/\\])+[\w.@+-]+")
_NUMBER = re.compile(r"\d+")
_SPACE = re.compile(r"\s+")
_EXCEPTION = re.compile(
    r"^(?:[\w.]+\.)?(?P<type>[A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt))\b"
)


def _masked(message: str) -> str:
    """The message with what varies between runs of the same error masked."""
    text = _UUID.sub("<id>", message)
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
            _masked(diagnostic.message),
        )
    )


# --- what counts as a real error ----------------------------------------------------------------


def _words(text: str) -> frozenset[str]:
    """A set of names written as one space-separated string, for long tables."""
    return frozenset(text.split())


# Commands whose own complaints ("rm: cannot remove", "ls: cannot access") are never
# the errors a session is about: they are not recorded at all.
_IGNORED = _words(
    "ls cd cat head tail grep egrep rg find fd which whereis echo printf mkdir rm "
    "rmdir touch pwd tree wc file stat du df ps kill pkill sleep test [ true false "
    "readlink realpath basename dirname type command lsof less more sort uniq cut nl "
    "tr xargs pushd popd export source . set clear history"
)
# Commands whose failures are real but never the session's original error.
_TRIVIAL = _IGNORED | _words("git cp mv sed awk diff gh bd open xdg-open env jq")


def _programs(command: str | None) -> set[str]:
    """The programs a command line runs (``cd x && rm y`` runs ``cd`` and ``rm``)."""
    programs = set()
    for _, words in segments(command or ""):
        for word in words:
            if "=" in word and not word.startswith("-"):
                continue  # an environment assignment
            programs.add(word.rsplit("/", 1)[-1])
            break
    return programs


def _is_real(diagnostic: Diagnostic, command: str | None) -> bool:
    if diagnostic.kind != "generic":
        return True
    return command is not None and not _programs(command) <= _TRIVIAL


def _is_noise(diagnostic: Diagnostic, command: str | None) -> bool:
    return diagnostic.kind == "generic" and command is not None and _programs(command) <= _IGNORED


def _specific(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Without a failing exit status, only errors a checker reported in its own format count."""
    return [d for d in diagnostics if d.kind not in ("generic", "npm")]


def _with_test(entry: LedgerEntry, test: str | None) -> LedgerEntry:
    if test is None or test in entry.tests or len(entry.tests) >= MAX_TESTS:
        return entry
    return entry.model_copy(update={"tests": (*entry.tests, test), "test": entry.test or test})


# --- the ledger ----------------------------------------------------------------------------------


class ErrorLedger(BaseModel):
    """Errors and test results of one session, updated one tool result at a time."""

    model_config = ConfigDict(extra="forbid", validate_assignment=False)

    errors: list[LedgerEntry] = Field(default_factory=list)
    tests: list[TestStatus] = Field(default_factory=list)
    original_signature: str | None = None

    _by_signature: dict[str, int] = PrivateAttr(default_factory=dict)
    _by_test_key: dict[str, int] = PrivateAttr(default_factory=dict)

    def model_post_init(self, context: Any, /) -> None:
        self._by_signature = {entry.signature: i for i, entry in enumerate(self.errors)}
        self._by_test_key = {status.key: i for i, status in enumerate(self.tests)}

    @property
    def original(self) -> LedgerEntry | None:
        """The first real error of the session, with its current status."""
        if self.original_signature is None:
            return None
        index = self._by_signature.get(self.original_signature)
        return self.errors[index] if index is not None else None

    @property
    def open_errors(self) -> list[LedgerEntry]:
        return [entry for entry in self.errors if not entry.resolved]

    def observe(
        self,
        turn: int,
        command: str | None,
        tool: str,
        output: str,
        succeeded: bool | None,
        call_id: str,
    ) -> list[LedgerEntry]:
        """Take in one tool result; returns the entries it raised or saw again.

        ``command`` is the shell command of a shell call, ``None`` for other
        tools; ``succeeded`` is ``None`` when the transcript does not say.
        """
        key = (command_key(command) if command else None) or f"tool:{tool}"
        test_run = parse_test_run(output, command) if is_test_command(command) else None
        if test_run is not None:
            self._record_test(
                TestStatus(**test_run.model_dump(), key=key, turn=turn, call_id=call_id)
            )

        diagnostics: list[Diagnostic] = []
        if succeeded is False:
            diagnostics = extract_errors(output, command)
            if command is None:
                # A file tool's own complaint ("String to replace not found") is about
                # the harness, not the program; only compiler-style output counts.
                diagnostics = [d for d in diagnostics if d.kind != "generic"]
            diagnostics = [d for d in diagnostics if not _is_noise(d, command)]
            failed_now = True
        elif test_run is not None:
            # The runner's own summary decides, whatever the (piped) exit status says.
            failed_now = test_run.outcome == "failed"
            if failed_now:
                diagnostics = _specific(extract_errors(output, command))
        elif self._worth_reading(key, command):
            # Exit status 0 but output that may say otherwise: "tsc | head", or a
            # rerun of a command that failed before, whose errors may be gone.
            diagnostics = _specific(extract_errors(output, command))
            failed_now = bool(diagnostics) and (
                masks_exit_status(command) or bool(checks_in(command))
            )
        else:
            failed_now = False
        if not failed_now and succeeded is not True:
            diagnostics = []  # unknown status and nothing that says "failed": record nothing

        touched = self._record(diagnostics, turn, command, key, call_id)
        if succeeded is True:
            self._resolve(turn, command, key, diagnostics, failed_now)
        return touched

    # --- internals --------------------------------------------------------------------------

    def _worth_reading(self, key: str, command: str | None) -> bool:
        if command is None:
            return False
        if checks_in(command):
            return True
        # "python repro.py | head" may hide a crash; "cat build.log | grep error" only shows one.
        if masks_exit_status(command) and not _programs(command) <= _TRIVIAL:
            return True
        return any(key in entry.keys for entry in self.errors if not entry.resolved)

    def _record_test(self, status: TestStatus) -> None:
        index = self._by_test_key.get(status.key)
        if index is None:
            self._by_test_key[status.key] = len(self.tests)
            self.tests.append(status)
        else:
            self.tests[index] = status

    def _record(
        self,
        diagnostics: list[Diagnostic],
        turn: int,
        command: str | None,
        key: str,
        call_id: str,
    ) -> list[LedgerEntry]:
        touched: dict[str, LedgerEntry] = {}
        for diagnostic in diagnostics:
            sig = signature(diagnostic)
            if sig in touched:  # one result, one occurrence, however many lines repeat it
                updated = _with_test(touched[sig], diagnostic.test)
                self.errors[self._by_signature[sig]] = touched[sig] = updated
                continue
            index = self._by_signature.get(sig)
            if index is None:
                if len(self.errors) >= MAX_ENTRIES:
                    continue
                entry = LedgerEntry(
                    signature=sig,
                    message=diagnostic.message,
                    kind=diagnostic.kind,
                    code=diagnostic.code,
                    tool=diagnostic.tool,
                    file=diagnostic.file,
                    line=diagnostic.line,
                    column=diagnostic.column,
                    symbol=diagnostic.symbol,
                    test=diagnostic.test,
                    tests=(diagnostic.test,) if diagnostic.test else (),
                    command=command,
                    commands=(command,) if command else (),
                    keys=(key,),
                    first_turn=turn,
                    last_turn=turn,
                    first_call_id=call_id,
                    last_call_id=call_id,
                )
                self._by_signature[sig] = len(self.errors)
                self.errors.append(entry)
                if self.original_signature is None and _is_real(diagnostic, command):
                    self.original_signature = sig
            else:
                previous = self.errors[index]
                new_check = key not in previous.keys
                entry = previous.model_copy(
                    update={
                        "last_turn": max(previous.last_turn, turn),
                        "occurrences": previous.occurrences + 1,
                        "last_call_id": call_id,
                        "keys": (*previous.keys, key) if new_check else previous.keys,
                        "commands": (*previous.commands, command)
                        if new_check and command
                        else previous.commands,
                        "resolved": False,
                        "resolved_turn": None,
                        "resolved_by": None,
                    }
                )
                entry = _with_test(entry, diagnostic.test)
                self.errors[index] = entry
            touched[sig] = entry
        return list(touched.values())

    def _resolve(
        self,
        turn: int,
        command: str | None,
        key: str,
        diagnostics: list[Diagnostic],
        failed_now: bool,
    ) -> None:
        present = {signature(d) for d in diagnostics}
        kinds = {(d.kind, d.tool) for d in diagnostics}
        for index, entry in enumerate(self.errors):
            if entry.resolved or entry.signature in present or entry.last_turn > turn:
                continue
            ran_same = key in entry.keys
            if ran_same and (not failed_now or (entry.kind, entry.tool) in kinds):
                resolved = True  # it stopped appearing in a later successful run of its command
            else:
                resolved = (
                    not failed_now
                    and command is not None
                    and any(covers(command, raised) for raised in entry.commands)
                )
            if resolved:
                self.errors[index] = entry.model_copy(
                    update={"resolved": True, "resolved_turn": turn, "resolved_by": command}
                )
