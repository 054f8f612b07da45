"""The error ledger: every error a session hit, where it points, and whether it still matters.

The tracker feeds each tool result to :meth:`ErrorLedger.observe`.  Errors are
taken from failed results, and from successful ones whose exit status says
nothing: a test run that reports failures, or a check piped into ``tail``.
Each distinct error is one :class:`LedgerEntry`, identified by a *signature*
(kind, exception type or code, file name and message with numbers, addresses
and paths masked), so the same ``KeyError`` seen in five runs is one entry
with ``first_turn``, ``last_turn`` and ``occurrences``.  It keeps the lines
that explain it (``detail``: the assertion, expected and actual values).

Every failed shell command ends either as errors or as one
:class:`FailedRun` classed as noise with its reason (the user refused the
call, a look-up answered its question, set-up already in place: see
:mod:`~artifact_index.facts.errors.failed_commands`); a failure no checker
explained becomes an error in its own words.

An entry is **resolved**, with ``resolution`` saying how, when

* the same check later succeeds (the same command, for a command that is not a
  known check), or the error stops appearing in a rerun of it;
* a broader run of the same checker passes (a bare ``pytest`` covers
  ``pytest tests/test_auth.py::t``), or a whole-project run of the checker
  that reported it, or of a project task wrapping it (``mise run test:ci``);
* a narrower run passes the failing tests by name (``go test -run TestX``),
  or the same checker passes on the file the error is in;
* a corrected retry succeeds: the same actions with other arguments (``git
  add`` with other paths, ``git commit`` after its pre-commit hook failed),
  or a command that failed before running what it meant to, run without the
  leading word that refused it (``rtk bun run test``) or with its mistyped
  word corrected (``bun run tset``);
* the step that failed runs again and succeeds: a step whose program was not
  found, run with the same arguments by another program (``python -c`` then
  ``python3 -c``), or the failed last step of an ``&&`` chain (``git checkout
  main && git pull`` refused, then ``git stash && git pull``);
* the project's build passes after tsc, run on files named on its command
  line (so without the project's tsconfig.json), complained of its set-up (a
  path alias, the JSX mode).

A project script's fixing variant is the same check (``lint:fix`` is
``lint``).

It reopens if it appears again.  An entry that predates the session (a
lint finding on a file the session had not changed, or output the agent
itself called pre-existing: see
:mod:`~artifact_index.facts.errors.pre_existing`) carries the reason in
``pre_existing`` and is not open: it is not the session's to fix.  Open entries are indexed by the command,
checker, reporting tool and action that raised them, so a result looks only
at the entries it could resolve, never at all of them.  The first real error
of the session (not a ``git`` or ``ls`` complaint, not a harness message) is
kept as ``original``.  The last :class:`~artifact_index.facts.errors.test_results.TestRun`
of each test command is kept in ``tests``.

The ledger is a pydantic model: ``model_dump_json`` / ``model_validate_json``
round-trip it exactly, so a live session can save it and resume.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from artifact_index.facts.errors.checks import (
    Check,
    checks_in,
    command_key,
    covers,
    masks_exit_status,
)
from artifact_index.facts.errors.checks.stages import (
    Stage,
    echoed_stages,
    finished_cargo_steps,
    finished_type_checks,
    stages_reached,
)
from artifact_index.facts.errors.diagnostics import Diagnostic, DiagnosticKind, extract_errors
from artifact_index.facts.errors.failed_commands import (
    LOOKUPS,
    REFUSALS,
    SHELL_CHORES,
    errorish_lines,
    noise_reason,
    opening_errorish_lines,
    programs,
    reads_as_failure,
    unexplained_failure,
)
from artifact_index.facts.errors.ledger_entries import FailedRun, LedgerEntry, TestStatus, signature
from artifact_index.facts.errors.pre_existing import acknowledged, classes, linted_before_changed
from artifact_index.facts.errors.resolution import (
    CATEGORY,
    got_past,
    lookups,
    probes,
    resolution,
    tools_in_order,
)
from artifact_index.facts.errors.test_results import TestRun, may_run_tests, parse_test_run
from artifact_index.lazy_pattern import lazy_pattern

__all__ = [
    "MAX_ENTRIES",
    "MAX_TESTS",
    "ErrorLedger",
    "FailedRun",
    "LedgerEntry",
    "TestStatus",
    "signature",
    "started_in_background",
]

MAX_ENTRIES = 2000  # beyond this a session is replaying the same build log
MAX_TESTS = 50  # failing tests listed per error
MAX_SEEN = 20  # turns of an error's occurrences kept (the latest)
MAX_PASSING_LINES = 20  # error-like lines kept per command from its passing runs
MAX_PASSING_KEYS = 100  # commands whose passing runs' error-like lines are kept (the latest)
_MAX_PASSING_OUTPUT = 200_000  # a longer output is not read for them (the cost)


# --- what counts as a real error ----------------------------------------------------------------

# Commands whose failures are real but never the session's original error.
_TRIVIAL = (
    LOOKUPS
    | SHELL_CHORES
    | {"git", "cp", "mv", "sed", "awk", "gh", "bd", "open", "xdg-open", "env", "jq"}
)


# What a runner prints when its run failed, whatever a filter after it made the exit status: bun's
# "(fail) name" and "4 tests failed:", a package script's "exited with code 1", a FAIL line (behind a
# monorepo runner's "pkg:task: " prefix).
_RUN_FAILED = lazy_pattern(
    r"\b[1-9]\d* (?:tests?|specs?|examples?) failed\b|\(fail\) \S|exited with code [1-9]"
    r"|^(?:\S+: )?(?:FAIL|FAILED)\b|\bnpm ERR!"
    # A program still missing: `which docker || echo "not found"` exits 0 all the same.
    r"|\bcommand not found\b|^[\w.-]+ not found$|\bnot found (?:on|in) (?:the )?PATH\b"
    # An interpreter that could not open the script it was given.
    r"|^\S*python[\d.]*: can't open file ",
    re.M,
)


def _masked_failure(command: str | None, output: str, run: TestRun | None) -> bool:
    """Whether a run whose exit status a filter masked (``bun verify | grep fail | head``) printed a failure.

    Its exit status is the filter's: it says nothing of the run, and what the run printed
    says it failed, so it settles nothing (see :meth:`ErrorLedger.observe`).
    """
    return (
        run is None
        and command is not None
        and masks_exit_status(command)
        and _RUN_FAILED.search(output) is not None
    )


# A shell loop exits with its last body command's status, whatever the loop waited for; an HTTP
# client exits 0 on the server's "503".
_LOOP = lazy_pattern(r"(?:^|[;&|(]\s*)(?:for|while|until)\s")
_HTTP_FAILURE = lazy_pattern(r"\bHTTP(?:/[\d.]+)?[: ]\s*[45]\d\d\b")


# Claude Code's answer to a command started in the background, Codex's to a code cell still running
# when its time was up: it started, and how it ends is not seen here.
_STARTED_IN_BACKGROUND = lazy_pattern(
    r"^(?:Command running in background with ID: |Script running with cell ID )\S"
)


def started_in_background(output: str) -> bool:
    """Whether the harness only said the command started in the background: how it ended is not seen."""
    return _STARTED_IN_BACKGROUND.match(output) is not None


def _later_statement_hid_a_failure(command: str, output: str) -> bool:
    """Whether statements run one after another (`git merge …; echo "exit: $?"`) printed a failure.

    Their exit status is the last statement's: an earlier one's "Automatic merge failed" is not
    a success of the command.
    """
    return (";" in command or "\n" in command.strip()) and reads_as_failure(output)


def _did_not_do_its_job(command: str, output: str) -> bool:
    """Whether a run that exited 0 still shows no sign it did its job (a wait loop, an HTTP error)."""
    return _LOOP.search(command) is not None or _HTTP_FAILURE.search(output) is not None


def _is_real(diagnostic: Diagnostic, command: str | None) -> bool:
    if diagnostic.kind != "generic":
        return True
    return command is not None and not programs(command) <= _TRIVIAL


def _is_real_entry(entry: LedgerEntry) -> bool:
    return entry.kind != "generic" or (
        entry.command is not None and not programs(entry.command) <= _TRIVIAL
    )


def _specific(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Without a failing exit status, only errors a checker reported in its own format count."""
    return [d for d in diagnostics if d.kind not in ("generic", "npm")]


def _with_test(entry: LedgerEntry, test: str | None) -> LedgerEntry:
    if test is None or test in entry.tests or len(entry.tests) >= MAX_TESTS:
        return entry
    return entry.model_copy(update={"tests": (*entry.tests, test), "test": entry.test or test})


def _got_further(before: tuple[str, ...], now: tuple[str, ...]) -> bool:
    """Whether a task's rerun echoed every stage its last failing run did, and more: it got past that one's failure."""
    return bool(before) and len(now) > len(before) and now[: len(before)] == before


# Static checks run before the tests in a project's task (`check: lint typecheck test`).
_STATIC_KINDS = frozenset({"linter", "type-checker"})


# A test run that stopped before any test ran: its packages did not build or set up.
_BEFORE_TESTS = lazy_pattern(r"\[(?:setup|build) failed\]")


def _stopped_before_tests(entry: LedgerEntry) -> bool:
    """Whether ``entry`` is a failure that stopped a test run before its tests (``FAIL ./x [setup failed]``)."""
    return (
        entry.kind == "test-runner"
        and entry.test is None
        and bool(_BEFORE_TESTS.search(entry.message))
    )


def _tests_ran_after_static(entry: LedgerEntry, command: str | None, run: TestRun | None) -> bool:
    """Whether a failing rerun of the task that showed a static finding ran its tests: it got past the finding."""
    return (
        entry.kind in _STATIC_KINDS
        and run is not None
        and run.passed + run.failed > 0
        and any(check.is_task for check in checks_in(command))
    )


# --- the ledger ----------------------------------------------------------------------------------


class ErrorLedger(BaseModel):
    """Errors and test results of one session, updated one tool result at a time."""

    model_config = ConfigDict(extra="forbid", validate_assignment=False, defer_build=True)

    errors: list[LedgerEntry] = Field(default_factory=list)
    tests: list[TestStatus] = Field(default_factory=list)
    failed_runs: list[FailedRun] = Field(default_factory=list)
    # Per command key, the tools that reported errors in its last failing run, in the order
    # their errors appear: a pre-commit hook runs its checkers one after the other.
    tool_order: dict[str, list[str]] = Field(default_factory=dict)
    # Per command key of a project task, the stages its last failing run echoed, in order: a rerun
    # that echoes more of them got past the stage that failed before.
    stages_reached: dict[str, list[str]] = Field(default_factory=dict)
    original_signature: str | None = None
    # The entries raised or seen again since the agent last said something: what its next words are about.
    unspoken: list[str] = Field(default_factory=list)
    # The open entries no shell command has succeeded after yet (see LedgerEntry.went_on).
    awaiting_next: list[str] = Field(default_factory=list)
    # Per command key of a project's run (tests, a task), the error-like lines its passing runs
    # printed: a test host's log line every run prints is never quoted as a failing run's error.
    passing_lines: dict[str, list[str]] = Field(default_factory=dict)
    # Error-like lines that open the output of successful commands, each with the (up to two)
    # command keys seen printing it: one that two different commands printed while succeeding is
    # the shell's own start-up talking (a broken profile's `command not found: _encode` on every
    # call), never why a command failed.
    opening_lines: dict[str, list[str]] = Field(default_factory=dict)

    # Reading a private attribute of a pydantic model costs 2 us (its __getattr__ path):
    # methods that use one several times read it once into a local name.
    _by_signature: dict[str, int] = PrivateAttr(default_factory=dict)
    _by_test_key: dict[str, int] = PrivateAttr(default_factory=dict)
    # Open entries by what could resolve them ("key:...", "runner:...", "tool:...",
    # "category:...", "action:..."); see _lookups and _probes.
    _open: dict[str, set[int]] = PrivateAttr(default_factory=dict)

    def model_post_init(self, context: Any, /) -> None:
        self._by_signature = {entry.signature: i for i, entry in enumerate(self.errors)}
        self._by_test_key = {status.key: i for i, status in enumerate(self.tests)}
        self._open = {}
        for index, entry in enumerate(self.errors):
            if not entry.resolved:
                self._index_open(index, entry)

    @property
    def original(self) -> LedgerEntry | None:
        """The first real error of the session, with its current status."""
        if self.original_signature is None:
            return None
        index = self._by_signature.get(self.original_signature)
        return self.errors[index] if index is not None else None

    @property
    def open_errors(self) -> list[LedgerEntry]:
        """The errors still to resolve: neither resolved nor there before the session."""
        return [entry for entry in self.errors if not entry.resolved and entry.pre_existing is None]

    def entry(self, signature: str) -> LedgerEntry | None:
        index = self._by_signature.get(signature)
        return self.errors[index] if index is not None else None

    def class_new_findings(
        self, touched: list[LedgerEntry], call_id: str, changed: Callable[[str], bool]
    ) -> None:
        """Class as pre-existing the lint findings first reported by ``call_id`` on files the session had not changed.

        ``changed``: whether the session has changed the file a finding names (as the output spells it).
        """
        for entry in touched:
            if (
                entry.first_call_id == call_id
                and entry.occurrences == 1
                and entry.pre_existing is None
                and (
                    linted_before_changed(
                        entry.kind, entry.code, entry.message, entry.file, changed
                    )
                )
            ):
                self._mark_pre_existing(
                    entry.signature,
                    f"first reported (turn {entry.first_turn}) on a file the "
                    "session had not changed",
                )

    def agent_said(self, text: str, turn: int, changed: Callable[[str], bool]) -> None:
        """Take in what the agent said: findings it calls pre-existing, of the output it has seen since it last spoke."""
        recent = [
            e
            for e in (self.entry(sig) for sig in self.unspoken)
            if e is not None and e.kind != "generic"
        ]
        self.unspoken = []
        for sentence in acknowledged(text):
            candidates = [e for e in recent if e.pre_existing is None and not e.resolved]
            for entry, covered in zip(
                candidates, classes(sentence, [e.file for e in candidates], changed), strict=True
            ):
                if covered:
                    quoted = sentence if len(sentence) <= 160 else sentence[:159].rstrip() + "…"
                    self._mark_pre_existing(
                        entry.signature, f'the agent said so (turn {turn}): "{quoted}"'
                    )

    def _mark_pre_existing(self, signature: str, reason: str) -> None:
        index = self._by_signature[signature]
        # Still followed: a later run may show it fixed.
        self.errors[index] = self.errors[index].model_copy(update={"pre_existing": reason})
        if signature == self.original_signature:
            # The session's original error is the first one that was its own.
            self.original_signature = next(
                (e.signature for e in self.errors if e.pre_existing is None and _is_real_entry(e)),
                None,
            )

    def observe(
        self,
        turn: int,
        command: str | None,
        tool: str,
        output: str,
        succeeded: bool | None,
        call_id: str,
        failure: str | None = None,
        printed_before: str = "",
    ) -> list[LedgerEntry]:
        """Take in one tool result; returns the entries it raised or saw again.

        ``command`` is the shell command of a shell call, ``None`` for other
        tools; ``succeeded`` is ``None`` when the transcript does not say;
        ``failure`` is the harness's reason for a failed call (``rejected``,
        ``interrupted``, ``exit_status``...). ``printed_before``: what the command
        printed before this output, when this output is a poll of it still running (a
        test run's counts are over all it printed).
        """
        if succeeded is True and command is not None and started_in_background(output):
            succeeded = None  # started, not finished: neither a success nor a failure was seen
        key = (command_key(command) if command else None) or f"tool:{tool}"
        test_run = (
            parse_test_run(f"{printed_before}\n{output}" if printed_before else output, command)
            if may_run_tests(command)
            else None
        )
        if test_run is not None:
            self._record_test(
                TestStatus(**test_run.model_dump(), key=key, turn=turn, call_id=call_id)
            )

        diagnostics: list[Diagnostic] = []
        noise: str | None = None
        if succeeded is False:
            if command is None:
                # A file tool's own complaint ("String to replace not found") is about
                # the harness, not the program; only compiler-style output counts.
                diagnostics = _specific(extract_errors(output, command))
            else:
                # A refused or interrupted call printed the harness's words, not the program's.
                diagnostics = [] if failure in REFUSALS else extract_errors(output, command)
                passing = frozenset(self.passing_lines.get(key, ())) | self._ambient_lines()
                if passing:  # what its passing runs print too is not why this one failed
                    diagnostics = [
                        d for d in diagnostics if d.kind != "generic" or d.message not in passing
                    ]
                noise = noise_reason(
                    command,
                    output,
                    failure,
                    explained=any(d.kind != "generic" for d in diagnostics),
                )
                if noise is not None:
                    diagnostics = []
                elif not diagnostics:
                    diagnostics = [
                        unexplained_failure(command, output, printed_when_passing=passing)
                    ]
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

        if (
            succeeded is True
            and command is not None
            and self.awaiting_next
            and not masks_exit_status(command)
            and not _did_not_do_its_job(command, output)
            and not _later_statement_hid_a_failure(command, output)
        ):
            # A filter's exit status (`bun test | tail`) is not the command's: no success seen.
            self._went_on(turn, command)
        touched = self._record(diagnostics, turn, command, key, call_id)
        if succeeded is False and command is not None:
            self.failed_runs.append(
                FailedRun(
                    turn=turn,
                    call_id=call_id,
                    command=command,
                    outcome="noise" if noise else "error",
                    reason=noise,
                    errors=tuple(entry.signature for entry in touched),
                )
            )
        if succeeded is True and not failed_now and _masked_failure(command, output, test_run):
            return touched  # its exit status is a filter's and its output says it failed
        if succeeded is True and not failed_now and command is not None:
            self._note_passing_lines(key, command, output)
            self._note_opening_lines(key, output)
        if (
            succeeded is True
            and command is not None
            and test_run is None
            and masks_exit_status(command)
            and not checks_in(command)
            and reads_as_failure(output)
        ):
            # `argocd app get … | head -5` printing 'configmap "argocd-cm" not found': the exit status
            # is the filter's, and what got through reads as a failure. No success was seen.
            return touched
        if succeeded is True or (failed_now and noise is None and command is not None):
            self._resolve(
                turn,
                command,
                key,
                diagnostics,
                failed_now,
                test_run,
                tools_in_order(diagnostics, output),
                stages_reached(command, output) if command else (),
            )
            if command is not None:
                self._resolve_by_stages(
                    turn,
                    command,
                    echoed_stages(command, output, not failed_now)
                    + (finished_cargo_steps(command, output) if failed_now else [])
                    + finished_type_checks(command, output),
                    {signature(d) for d in diagnostics},
                )
        return touched

    # --- internals --------------------------------------------------------------------------

    def _went_on(self, turn: int, command: str) -> None:
        """Note ``command``, which succeeded, as what came next after each open entry waiting for it."""
        waiting = []
        for sig in self.awaiting_next:
            index = self._by_signature.get(sig)
            entry = self.errors[index] if index is not None else None
            if entry is None or entry.resolved:
                continue
            if entry.last_turn >= turn:
                waiting.append(sig)  # the same turn: its calls ran before its output was seen
                continue
            self.errors[index] = entry.model_copy(  # type: ignore[index]
                update={"went_on": " ".join(command.split())[:200], "went_on_turn": turn}
            )
        self.awaiting_next = waiting

    def _note_passing_lines(self, key: str, command: str, output: str) -> None:
        """Keep the error-like lines a passing run of a project's command printed (see ``passing_lines``)."""
        if not may_run_tests(command) or len(output) > _MAX_PASSING_OUTPUT:
            return
        found = errorish_lines(output)
        if not found:
            return
        kept = self.passing_lines.pop(key, [])  # re-inserted last: the latest keys are kept
        kept += [line for line in dict.fromkeys(found) if line not in kept]
        self.passing_lines[key] = kept[-MAX_PASSING_LINES:]
        while len(self.passing_lines) > MAX_PASSING_KEYS:
            del self.passing_lines[next(iter(self.passing_lines))]

    def _note_opening_lines(self, key: str, output: str) -> None:
        """Note the error-like lines opening a successful command's output (see ``opening_lines``)."""
        for line in opening_errorish_lines(output):
            keys = self.opening_lines.setdefault(line, [])
            if key not in keys and len(keys) < 2:
                keys.append(key)
        while len(self.opening_lines) > MAX_PASSING_KEYS:
            del self.opening_lines[next(iter(self.opening_lines))]

    def _ambient_lines(self) -> frozenset[str]:
        """Error-like lines two different commands printed first while succeeding: the environment's."""
        return frozenset(line for line, keys in self.opening_lines.items() if len(keys) >= 2)

    def _worth_reading(self, key: str, command: str | None) -> bool:
        if command is None:
            return False
        if checks_in(command):
            return True
        # "python repro.py | head" may hide a crash; "cat build.log | grep error" only shows one.
        if masks_exit_status(command) and not programs(command) <= _TRIVIAL:
            return True
        return bool(self._open.get(f"key:{key}"))

    def _index_open(self, index: int, entry: LedgerEntry) -> None:
        open_entries = self._open
        for lookup in lookups(entry):
            open_entries.setdefault(lookup, set()).add(index)

    def _unindex(self, index: int, entry: LedgerEntry) -> None:
        open_entries = self._open
        for lookup in lookups(entry):
            held = open_entries.get(lookup)
            if held is not None:
                held.discard(index)
                if not held:
                    del open_entries[lookup]

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
        if not diagnostics:
            return []
        touched: dict[str, LedgerEntry] = {}
        by_signature = self._by_signature
        for diagnostic in diagnostics:
            sig = signature(diagnostic)
            if sig in touched:  # one result, one occurrence, however many lines repeat it
                updated = _with_test(touched[sig], diagnostic.test)
                self.errors[by_signature[sig]] = touched[sig] = updated
                continue
            index = by_signature.get(sig)
            if index is None:
                if len(self.errors) >= MAX_ENTRIES:
                    continue
                entry = LedgerEntry(
                    signature=sig,
                    message=diagnostic.message,
                    detail=diagnostic.detail,
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
                    seen_turns=(turn,),
                )
                index = len(self.errors)
                by_signature[sig] = index
                self.errors.append(entry)
                if self.original_signature is None and _is_real(diagnostic, command):
                    self.original_signature = sig
            else:
                previous = self.errors[index]
                if not previous.resolved:
                    self._unindex(index, previous)
                new_check = key not in previous.keys
                entry = previous.model_copy(
                    update={
                        "last_turn": max(previous.last_turn, turn),
                        "occurrences": previous.occurrences + 1,
                        "last_call_id": call_id,
                        "detail": diagnostic.detail or previous.detail,
                        "keys": (*previous.keys, key) if new_check else previous.keys,
                        "commands": (*previous.commands, command)
                        if new_check and command
                        else previous.commands,
                        "resolved": False,
                        "resolved_turn": None,
                        "resolved_by": None,
                        "resolution": None,
                        "seen_turns": (*previous.seen_turns, turn)[-MAX_SEEN:]
                        if turn not in previous.seen_turns
                        else previous.seen_turns,
                    }
                )
                entry = _with_test(entry, diagnostic.test)
                if entry.went_on is not None:
                    entry = entry.model_copy(update={"went_on": None, "went_on_turn": None})
                self.errors[index] = entry
            self._index_open(index, entry)
            if sig not in self.awaiting_next:
                self.awaiting_next.append(sig)
            touched[sig] = entry
            if sig not in self.unspoken:
                self.unspoken.append(sig)
        return list(touched.values())

    def _resolve(
        self,
        turn: int,
        command: str | None,
        key: str,
        diagnostics: list[Diagnostic],
        failed_now: bool,
        test_run: TestRun | None,
        tools: list[str],
        reached: tuple[str, ...] = (),
    ) -> None:
        earlier_tools = self.tool_order.get(key, [])
        if failed_now and tools:
            self.tool_order[key] = tools
        earlier_stages = tuple(self.stages_reached.get(key, ()))
        if failed_now and reached:
            self.stages_reached[key] = list(reached)
        further = _got_further(earlier_stages, reached)
        present = {signature(d) for d in diagnostics}
        kinds = {(d.kind, d.tool) for d in diagnostics}
        checks = checks_in(command) if command else ()
        lookups = probes(command, key, checks) if not failed_now else {f"key:{key}"}
        ran_tests = test_run is not None and test_run.passed + test_run.failed > 0
        if failed_now and ran_tests:
            # A run that failed yet ran its tests got past what stopped a run of them before.
            tests = [c.runner for c in checks if c.category == "test"]
            lookups = {*lookups, *(f"runner:{r}" for r in tests), *(f"tool:{r}" for r in tests)}
        candidates: set[int] = set()
        open_entries = self._open
        for lookup in lookups:
            candidates |= open_entries.get(lookup, set())
        for index in sorted(candidates):
            entry = self.errors[index]
            if entry.resolved or entry.signature in present or entry.last_turn > turn:
                continue
            how = self._how_resolved(entry, command, key, checks, failed_now, kinds, test_run)
            if (
                how is None
                and failed_now
                and key in entry.keys
                and got_past(entry.tool, earlier_tools, tools)
            ):
                how = "a rerun of the same command got past it"
            if (
                how is None
                and failed_now
                and ran_tests
                and key not in entry.keys
                and _stopped_before_tests(entry)
                and any(covers(command, earlier, "test") for earlier in entry.commands)
            ):
                how = "a run covering the same tests got as far as running them"
            if how is None and failed_now and key in entry.keys:
                if further:
                    how = "a rerun of the same task got further, past the stage that showed it"
                elif _tests_ran_after_static(entry, command, test_run):
                    how = "a rerun of the same task got as far as its tests without showing it"
            if how is not None:
                self._mark_resolved(index, turn, command, how)
        if failed_now and checks and kinds:
            self._resolve_gone_from_another_form(turn, command, key, checks, present, kinds)

    def _mark_resolved(self, index: int, turn: int, command: str | None, how: str) -> None:
        """The open entry at ``index`` resolved at ``turn`` by ``command``, ``how`` said."""
        entry = self.errors[index]
        self._unindex(index, entry)
        self.errors[index] = entry.model_copy(
            update={
                "resolved": True,
                "resolved_turn": turn,
                "resolved_by": command,
                "resolution": how,
            }
        )

    def _resolve_gone_from_another_form(
        self,
        turn: int,
        command: str | None,
        key: str,
        checks: tuple[Check, ...],
        present: set[str],
        kinds: set[tuple[DiagnosticKind, str | None]],
    ) -> None:
        """Settle what a whole-project run of the same checker, in another form, no longer shows.

        ``npx eslint .`` showed an error; a later ``npm run lint`` (the project's lint task)
        failed too, printing eslint's findings, but not that one: the same checker over the same
        project no longer finds it.  Only a run over the whole project counts (no paths, no
        filters), and only when the same tool printed findings of the same kind.
        """
        categories = {c.category for c in checks if not c.targets and not c.filters}
        if not categories:
            return
        candidates: set[int] = set()
        for _, tool in kinds:
            if tool:
                candidates |= self._open.get(f"tool:{tool}", set())
        for index in sorted(candidates):
            entry = self.errors[index]
            if (
                entry.resolved
                or entry.signature in present
                or entry.last_turn > turn
                or key in entry.keys
                or (entry.kind, entry.tool) not in kinds
                or CATEGORY.get(entry.kind) not in categories
            ):
                continue
            self._mark_resolved(
                index,
                turn,
                command,
                "gone from a later whole-project run of the same checker, "
                "which failed on other findings",
            )

    def _resolve_by_stages(
        self, turn: int, command: str, stages: list[Stage], present: set[str]
    ) -> None:
        """Resolve what a checker a task ran passed: ``make check`` echoed ``ruff check src`` and went on."""
        for stage in stages:
            if stage.passed is not True:
                continue
            key = command_key(stage.command) or stage.command
            candidates: set[int] = set()
            for lookup in probes(stage.command, key, stage.checks):
                candidates |= self._open.get(lookup, set())
            for index in sorted(candidates):
                entry = self.errors[index]
                if entry.resolved or entry.signature in present or entry.last_turn > turn:
                    continue
                how = (
                    "the same check passed"
                    if key in entry.keys
                    else resolution(entry, stage.command, stage.checks)
                )
                if how is None:
                    continue
                self._mark_resolved(
                    index, turn, command, f"{how} (`{stage.command}`, which it ran)"
                )

    @staticmethod
    def _how_resolved(
        entry: LedgerEntry,
        command: str | None,
        key: str,
        checks: tuple[Check, ...],
        failed_now: bool,
        kinds: set[tuple[DiagnosticKind, str | None]],
        test_run: TestRun | None,
    ) -> str | None:
        if key in entry.keys:
            if not failed_now:
                return "the same check passed" if checks else "the same command succeeded"
            # It failed again, with other errors of the same kind: this one is gone. A test
            # failure is gone only if tests ran at all (a collection error runs none).
            ran_tests = test_run is not None and test_run.passed + test_run.failed > 0
            if entry.kind == "generic" and any(kind == "generic" for kind, _ in kinds):
                # A failure no checker explained is the command failing, in whatever words its
                # output starts with: failing again unexplained, it is not gone.
                return None
            if (entry.kind, entry.tool) in kinds and (entry.test is None or ran_tests):
                return "gone from a rerun of the same check"
            if entry.tool == "rustc" and ran_tests:
                # cargo runs no test until every target compiles: tests ran, so the compiler's
                # error is gone, whatever failed this time.
                return "gone from a rerun of the same check, whose tests ran"
            return None
        if failed_now:
            return None
        return resolution(entry, command, checks)
