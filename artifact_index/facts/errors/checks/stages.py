"""The checks a project task or a git hook ran, as its output shows them, and which of them passed.

``make check`` runs ruff, black, pylint and the tests one after the other, and
make echoes each recipe line before it runs it (``uvx ruff check src tests``);
``npm run lint`` prints ``> eslint .``; a git hook that runs ``bun run
typecheck`` prints ``$ tsc --noEmit``, one that runs lint-staged ``[STARTED]
biome check --write``.  The command line says only "a task":
the output says which checkers ran.  Make stops at the first recipe that
fails, so every stage echoed before the last one passed; when the task
succeeded, every stage it echoed passed.  A task run with ``-k`` or ``-j``
(keep going, in parallel) gives no such order, and is read as stages of
unknown outcome unless it succeeded.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from artifact_index.facts.errors.checks import Check, checks_in, segments
from artifact_index.facts.errors.checks.command_line import executable
from artifact_index.lazy_pattern import lazy_pattern

__all__ = [
    "Stage",
    "echoed_stages",
    "finished_cargo_steps",
    "finished_type_checks",
    "hook_results",
    "runs_hooks",
    "stages_reached",
]

# npm, pnpm, yarn and bun print "> name@version script" and then "> the script's command"; yarn
# and bun also "$ the command"; lint-staged "[STARTED] the command" (and "[COMPLETED]" after it).
_SCRIPT_ECHO = lazy_pattern(r"^\s*(?:>|\$|\[STARTED\]) (?P<command>.+?)\s*$")
_PACKAGE_HEADER = lazy_pattern(r"^\S*@\S+ \S+")
# A line a program printed is no echoed command: a finding ("src/a.py:3:1: ..."), a log line.
_NOT_A_COMMAND = lazy_pattern(r"^\S+:\d+|^\[|^\d|\s{2,}\S+\s{2,}")
_NO_ORDER = frozenset({"-k", "--keep-going", "-j", "--jobs"})
_HOOKED = frozenset({("git", "commit"), ("git", "push")})
# Cargo prints one "Finished `dev` profile [...] target(s) in 0.15s" line (older cargo: "Finished dev
# [...]") for each of its commands that compiled everything; a test or a run goes on after it.
_CARGO_FINISHED = lazy_pattern(
    r"^\s*Finished\s+`?[\w-]+`?(?: profile)?\s+\[[^\]]*\]\s+target\(s\)", re.M
)
_CARGO_COMPILES = frozenset(
    {"build", "b", "check", "c", "clippy", "test", "t", "run", "r", "bench", "doc", "install"}
)
# A list the shell goes on with whether or not a step failed: the steps' order tells nothing.
_NOT_ALL_AND = lazy_pattern(r";|\|\||\n|(?<![&>])&(?![&>])")


class Stage(NamedTuple):
    """One checker a task's output shows it ran: its echoed command, its checks, and whether it passed."""

    command: str
    checks: tuple[Check, ...]
    passed: (
        bool | None
    )  # None: the stage that failed, or one whose outcome the output does not tell


# The ledger asks these of every command it is shown, often of one command several times.
@functools.lru_cache(maxsize=4096)
def runs_hooks(command: str) -> bool:
    """Whether ``command`` may run git hooks (a commit or a push runs pre-commit / pre-push)."""
    return any(
        len(words) >= 2 and (executable(words[0]), words[1]) in _HOOKED
        for piped, words in segments(command)
        if not piped
    )


@functools.lru_cache(maxsize=4096)
def _runs_task(command: str) -> bool:
    return any(check.is_task for check in checks_in(command)) or runs_hooks(command)


@functools.lru_cache(maxsize=4096)
def _in_order(command: str) -> bool:
    return not any(word in _NO_ORDER for _, words in segments(command) for word in words)


def _echoed(line: str) -> str | None:
    """The command an output line echoes, or None."""
    scripted = _SCRIPT_ECHO.match(line)
    text = scripted["command"] if scripted else line.strip()
    if not text or _NOT_A_COMMAND.search(text) or (scripted and _PACKAGE_HEADER.match(text)):
        return None
    return text


def _stage_lines(command: str, output: str) -> list[tuple[str, tuple[Check, ...]]]:
    """The recipe lines a task's output echoes, in order, with the checks each runs."""
    if not output or not _runs_task(command):
        return []
    own = set(checks_in(command))
    lines: list[tuple[str, tuple[Check, ...]]] = []
    for line in output.splitlines():
        echoed = _echoed(line)
        if echoed is not None and (not lines or lines[-1][0] != echoed):
            lines.append((echoed, tuple(c for c in checks_in(echoed) if c not in own)))
    # A recipe line that runs no known checker ("uvx radon cc src") is a stage too when it starts
    # with the launcher of one that does: the run went on past the stage before it.
    launchers = {echoed.split()[0] for echoed, checks in lines if checks}
    return [
        (echoed, checks) for echoed, checks in lines if checks or echoed.split()[0] in launchers
    ]


def stages_reached(command: str, output: str) -> tuple[str, ...]:
    """Every stage a task's output echoes, checkers or not, in order: how far the run got."""
    if not _in_order(command):
        return ()
    return tuple(echoed for echoed, _ in _stage_lines(command, output))


def echoed_stages(command: str, output: str, succeeded: bool) -> list[Stage]:
    """The checks a task (``make check``, ``npm run ci``) or a git hook shows it ran, in order.

    Every stage passed when the command succeeded; when it failed, the stages
    before the last one passed (the run went on past them) and the last one's
    outcome is unknown.
    """
    found = _stage_lines(command, output)
    ordered = _in_order(command)
    stages = []
    for number, (echoed, checks) in enumerate(found):
        if succeeded:
            passed: bool | None = True
        else:
            passed = True if ordered and number < len(found) - 1 else None
        if checks:
            stages.append(Stage(echoed, checks, passed))
    return stages


def finished_cargo_steps(command: str, output: str) -> list[Stage]:
    """The cargo checks of a failed ``a && b && c`` chain that its output shows finished: they passed.

    ``cargo fmt && cargo check && cargo clippy -- -D warnings`` failing on clippy's lints
    printed cargo check's "Finished" line first: the check compiled everything, so the
    compiler errors it showed before are gone.  The n-th "Finished" line is the n-th
    compiling cargo step's (the chain stops at the first that fails; a filter that cut the
    first lines off leaves fewer, never other ones).  Only the build and lint checks are
    returned: a test step that compiled may still have failed its tests.
    """
    if not output or _NOT_ALL_AND.search(command):
        return []
    finished = len(_CARGO_FINISHED.findall(output))
    if not finished:
        return []
    stages: list[Stage] = []
    steps = [words for piped, words in segments(command) if not piped and words]
    for at, words in enumerate(steps):
        if executable(words[0]) != "cargo" or finished == 0:
            continue
        sub = next((w for w in words[1:] if not w.startswith(("-", "+"))), "")
        if sub not in _CARGO_COMPILES:
            continue
        finished -= 1
        if at == len(steps) - 1:
            break  # the chain failed and nothing ran after this step: the failure is its own
        step = " ".join(words)
        checks = tuple(c for c in checks_in(step) if c.category in ("build", "lint"))
        if checks:
            stages.append(Stage(step, checks, True))
    return stages


# A Next.js build type-checks the whole project on its way and says it finished: "Finished TypeScript in
# 1969ms" (Next 15.5 and later, after "Running TypeScript ..."), "✓ Linting and checking validity of
# types" (earlier releases; the tick is printed once the check is done). A type error stops it there,
# so the route table's legend it prints last ("○  (Static)  prerendered as static content", all a
# `| tail -5` may leave) says the check passed too.
_BUILD_TYPE_CHECKED = lazy_pattern(
    r"^\s*(?:Finished TypeScript\b|[✓✔] (?:Linting and checking|Checking) validity of types\b"
    r"|○ +\(Static\) +prerendered as static)",
    re.M,
)
_BUILD_TYPE_CHECK_WORDS = ("validity of types", "Finished TypeScript", "prerendered as static")


@functools.cache
def _type_check_stage() -> Stage:
    # Built on first use: a model built at import would cost every command's start-up.
    return Stage("next build", (Check(runner="tsc", category="typecheck"),), True)


def finished_type_checks(command: str, output: str) -> list[Stage]:
    """The whole-project type check a build's output shows it finished: it passed, whatever came after.

    ``npm run build`` (``next build``) runs tsc over the project before it renders pages: the
    type errors an earlier ``tsc --noEmit`` showed are gone once it says the check finished, even
    when a later step of the build fails.
    """
    if not output or not any(words in output for words in _BUILD_TYPE_CHECK_WORDS):
        return []
    return [_type_check_stage()] if _BUILD_TYPE_CHECKED.search(output) else []


# The pre-commit framework's line for each hook a commit or a push ran: its name, dots, and how
# it ended ("Biome lint.......Passed", "New UI lint....(no files to check)Skipped").
_HOOK_RESULT = lazy_pattern(
    r"^(?P<name>\w[^.\n]*?)\.{3,}(?:\([^)\n]*\))?(?P<result>Passed|Failed)\s*$", re.M
)
# What a hook's name says it checks, by its words (the first match wins): the checker itself when
# it is named, so that a language's checker is owed only by that language's files.
_HOOK_WORDS: tuple[tuple[re.Pattern[str], str, str], ...] = tuple(
    (lazy_pattern(pattern), category, runner)
    for pattern, category, runner in (
        (
            r"\b(?:unit |integration |e2e )?tests?\b|\bpytest\b|\bjest\b|\bvitest\b",
            "test",
            "hook tests",
        ),
        (r"\bmypy\b", "typecheck", "mypy"),
        (r"\bpyright\b", "typecheck", "pyright"),
        (r"\btypescript\b|\btsc\b", "typecheck", "tsc"),
        (r"\btype[- ]?check", "typecheck", "hook typecheck"),
        (r"\bbiome\b", "lint", "biome"),
        (r"\beslint\b", "lint", "eslint"),
        (r"\bruff\b", "lint", "ruff"),
        (r"\bflake8\b", "lint", "flake8"),
        (r"\bclippy\b", "lint", "cargo clippy"),
        (r"\bgolangci", "lint", "golangci-lint"),
        (r"\blint", "lint", "hook lint"),
        (r"\bbuild\b", "build", "hook build"),
    )
)


def hook_results(command: str, output: str) -> list[Stage]:
    """The checks a commit's or a push's git hooks ran, as the pre-commit framework lists them.

    A hook that only formats or checks a file's shape (trailing whitespace, YAML) is no check of
    the project; one whose name says it lints, type-checks, builds or tests is, passed or failed
    as its line says.
    """
    if not output or "..." not in output or not runs_hooks(command):
        return []
    stages: list[Stage] = []
    for match in _HOOK_RESULT.finditer(output):
        name = match["name"].strip()
        lowered = name.lower()
        for pattern, category, runner in _HOOK_WORDS:
            if pattern.search(lowered):
                check = Check(runner=runner, category=category)
                stages.append(Stage(name, (check,), match["result"] == "Passed"))
                break
    return stages
