"""Which checks ran when, and which changes came after them.

"5 passed (turn 92)" is only the state of the work when nothing changed
after turn 92.  An agent that continues after a compaction must know that
the test file it wrote at turn 94 was never run: the tests are owed.  This
module keeps the session's runs of recognized checks (tests, linters, type
checkers, builds: :func:`~artifact_index.facts.errors.checks.checks_in`) with
the operation count at that moment, and :func:`unverified_changes` lists, for
each kind of check the session ran, the changed files whose last change
came after its last run.

Only what a check is for counts as owed: files of prose (``.md``, ``.txt``),
data, logs, images, backups and git's own files (``.gitignore``) need no
build or test run, and files outside the workspace are not the project's.
"""

from __future__ import annotations

import posixpath
import re

from artifact_index.facts.errors.checks import checks_in, command_key
from artifact_index.facts.errors.checks.check import TASK_RUNNERS
from artifact_index.facts.errors.checks.command_line import segments, unwrap
from artifact_index.facts.errors.checks.stages import (
    echoed_stages,
    finished_cargo_steps,
    finished_type_checks,
    hook_results,
)
from artifact_index.facts.errors.ledger import started_in_background
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.wrappers import executable
from artifact_index.trail.answers import ChangedSince, CheckRunReport, UncheckedReport
from artifact_index.trail.index import CHANGED_STATUSES, ArtifactIndex
from artifact_index.trail.paths import is_absolute
from artifact_index.trail.session_state import CheckRun, ScriptRun, SessionState

__all__ = ["check_runs", "record_check_runs", "run_passed", "unverified_changes"]

_MAX_RUNS = 500
_PROSE = (".md", ".markdown", ".rst", ".txt", ".adoc", ".org")
# Files no build, type check, linter or test run reads: data, logs, images, backups, and git's
# and the shell's own files. A change to one owes no check.
_UNCHECKED_SUFFIXES = (
    *_PROSE,
    ".db",
    ".sqlite",
    ".sqlite3",
    # A database's own side files (write-ahead log, shared memory, rollback journal).
    "-wal",
    "-shm",
    "-journal",
    ".log",
    ".bak",
    ".orig",
    ".swp",
    ".png",
    ".jpg",
    ".jpeg",
    ".gif",
    ".ico",
    ".icns",
    ".webp",
    ".pdf",
)
_UNCHECKED_NAMES = frozenset({".gitignore", ".gitattributes", ".ds_store", ".env"})
# What a CI service or a release tool reads, never the project's own build, linter or tests: a
# change to a workflow is checked by its run on the service (or `goreleaser check`), not locally.
_CI_CONFIG_NAMES = frozenset(
    {
        ".goreleaser.yml",
        ".goreleaser.yaml",
        ".gitlab-ci.yml",
        ".travis.yml",
        "azure-pipelines.yml",
        "bitbucket-pipelines.yml",
        "jenkinsfile",
        "codecov.yml",
        ".codecov.yml",
        "dependabot.yml",
    }
)
_CI_CONFIG_FOLDERS = (".github/", ".circleci/", ".buildkite/", ".gitlab/")
_BACKUP = lazy_pattern(r"\.(?:bak|orig|old)(?:[-.~].*)?$|~$")
# Commands that compile the project on their way (or CI that built it), beyond the recognized checks.
_BUILDERS = frozenset(
    {
        ("go", "run"),
        ("go", "install"),
        ("go", "vet"),
        ("cargo", "run"),
        ("cargo", "clippy"),
        ("cargo", "install"),
        ("docker", "build"),
        ("docker", "compose"),
        ("next", "build"),
        ("vite", "build"),
        ("flutter", "build"),
        ("flutter", "run"),
        ("dotnet", "run"),
        ("swift", "run"),
        ("wrangler", "deploy"),
        ("wrangler", "build"),
    }
)
_BUILDER_RUNNERS = frozenset(
    {f"{a} {b}" for a, b in _BUILDERS} | {"gh run watch", "gh pr checks", "gh run list"}
)
# A CI run a listing shows finished and passed (`completed  success`, "Status: completed - success"): its first line.
_CI_PASSED = lazy_pattern(r"\bcompleted\b.*\bsuccess\b", re.IGNORECASE)
_COMPILING_LINTERS = frozenset({"go vet", "cargo clippy"})

# The files a checker of one language reads: a Swift change is not owed a run of `tsc`, which never
# reads it.  A runner not listed (a project script, make, a test runner) may read any file.
_PY = (".py", ".pyi")
_JS = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".vue", ".svelte")
_READS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(
        ("mypy", "dmypy", "pyright", "basedpyright", "pyre", "pytype", "ruff", "flake8", "pylint"),
        _PY,
    ),
    **dict.fromkeys(("pycodestyle", "pyflakes", "black", "isort"), _PY),
    **dict.fromkeys(("tsc", "vue-tsc", "flow", "eslint", "biome", "oxlint"), _JS),
    **dict.fromkeys(("go vet", "go build", "golangci-lint", "staticcheck", "revive"), (".go",)),
    **dict.fromkeys(("cargo clippy", "cargo build", "cargo check"), (".rs",)),
    **dict.fromkeys(("swiftlint", "swift build", "xcodebuild build"), (".swift", ".m", ".h")),
    "rubocop": (".rb",),
    "ktlint": (".kt", ".kts"),
    "shellcheck": (".sh", ".bash"),
}


def _reads(runner: str, path: str) -> bool:
    """Whether a run of ``runner`` would read ``path`` (any file, for a runner of no known language)."""
    suffixes = _READS.get(runner)
    return suffixes is None or path.lower().endswith(suffixes)


_PREFIXES = frozenset({"sudo", "time", "npx", "bunx", "env", "nice", "timeout"})
_COMMAND_PARTS = lazy_pattern(r"&&|\|\||;|\n")
# The order a reader expects them in ("not yet built, linted or tested").
CATEGORY_ORDER = ("build", "typecheck", "lint", "test")


def record_check_runs(
    session: SessionState,
    command: str,
    turn: int,
    passed: bool | None,
    errors: list[str] | None = None,
    output: str = "",
) -> None:
    """Note the checks ``command`` ran (:attr:`SessionState.check_runs`), at the current operation count.

    ``errors``: the signatures of the ledger entries its output showed; a run that showed only findings
    that were there before the session did not fail (see :func:`run_passed`).
    """
    if started_in_background(output):
        passed = None  # started, and how it ended is not seen here
    _record_script_runs(session, command, turn, passed)
    found: list[tuple[str, str, str, bool | None]] = [
        (check.category, check.runner, command, passed) for check in checks_in(command)
    ]
    if not found and (builder := _builds_too(command, output)) is not None:
        found = [("build", builder, command, passed)]
    # The checkers a task or a git hook echoed (`make check` printing `uvx ruff check src`): runs of
    # their own kind, passed when the task went on past them.
    stages = (
        echoed_stages(command, output, passed is True)
        + ([] if passed is not False else finished_cargo_steps(command, output))
        + finished_type_checks(command, output)
        + hook_results(command, output)
    )
    found += [
        (check.category, check.runner, command, stage.passed is True)
        for stage in stages
        for check in stage.checks
    ]
    if not stages and any(check.is_task for check in checks_in(command)):
        # Its output does not show its stages (`make check | tail`): it runs what an earlier run of
        # the same task was seen to run.
        found += [
            (category, runner, command, passed)
            for category, runner in _stages_seen(session.check_runs, command)
        ]
    if not found:
        return
    runs = session.check_runs
    for category, runner, ran, ok in found:
        runs.append(
            CheckRun(
                turn=turn,
                seq=session.op_count,
                category=category,
                runner=runner,
                command=ran,
                passed=ok,
                errors=list(errors or [])[:50] if not ok else [],
            )
        )
    del runs[:-_MAX_RUNS]


# Programs that run the script file they are given: `python3 -u make_table.py`, `bash deploy.sh`.
_INTERPRETERS = frozenset(
    {
        "python",
        "python3",
        "node",
        "bash",
        "sh",
        "zsh",
        "ruby",
        "perl",
        "php",
        "tsx",
        "ts-node",
        "bun",
    }
)
_SCRIPT_SUFFIXES = (
    ".py",
    ".js",
    ".mjs",
    ".cjs",
    ".ts",
    ".mts",
    ".sh",
    ".bash",
    ".rb",
    ".pl",
    ".php",
)


def _record_script_runs(
    session: SessionState, command: str, turn: int, passed: bool | None
) -> None:
    """Note each script file the command ran itself: running it exercised its latest change."""
    for _, words in segments(command):
        path = _script_of(unwrap(words))
        if path is not None:
            session.script_runs.append(
                ScriptRun(turn=turn, seq=session.op_count, path=path, passed=passed)
            )
    del session.script_runs[:-_MAX_RUNS]


def _script_of(words: list[str]) -> str | None:
    """The script file ``words`` run (``python x.py``, ``./x.sh``), or None."""
    if not words:
        return None
    program = executable(words[0])
    if program not in _INTERPRETERS:
        first = words[0]
        return first if first.startswith("./") and first.endswith(_SCRIPT_SUFFIXES) else None
    operand = next((w for w in words[1:] if not w.startswith("-")), None)
    return operand if operand is not None and operand.endswith(_SCRIPT_SUFFIXES) else None


def _script_runs(runs: list[ScriptRun]) -> dict[str, list[ScriptRun]]:
    """The runs of scripts, their paths normalized, by the script's file name."""
    by_name: dict[str, list[ScriptRun]] = {}
    for run in runs:
        path = posixpath.normpath(run.path)
        by_name.setdefault(posixpath.basename(path), []).append(
            run.model_copy(update={"path": path})
        )
    return by_name


def _runs_of(by_name: dict[str, list[ScriptRun]], key: str) -> list[ScriptRun]:
    """The runs of the script ``key`` itself (a relative path matches by its end)."""
    return [
        run
        for run in by_name.get(posixpath.basename(key), ())
        if key == run.path or (not run.path.startswith("/") and key.endswith("/" + run.path))
    ]


def _last_run_itself(by_name: dict[str, list[ScriptRun]], key: str, after: int) -> int | None:
    """The turn the script ``key`` itself last ran, whatever its end, when after turn ``after``."""
    return max((run.turn for run in _runs_of(by_name, key) if run.turn > after), default=None)


def _ran_after(by_name: dict[str, list[ScriptRun]], key: str, seq: int) -> bool:
    """Whether a run of the script ``key`` itself passed after operation ``seq``."""
    return any(run.passed is True and run.seq >= seq for run in _runs_of(by_name, key))


def _stages_seen(runs: list[CheckRun], command: str) -> list[tuple[str, str]]:
    """The checkers earlier runs of the task ``command`` runs were seen to run (their echoed stages)."""
    key = command_key(command)
    seen: list[tuple[str, str]] = []
    for run in runs:
        if command_key(run.command) != key or (run.category, run.runner) in seen:
            continue
        if run.runner not in {check.runner for check in checks_in(run.command)}:
            seen.append((run.category, run.runner))
    return seen


def _builds_too(command: str, output: str = "") -> str | None:
    """The program of a command that builds the project though it is no check (``go run``, CI), or None.

    Only for "built since its last change": a build owed after ``go run .`` or a passing CI run
    watched with ``gh run watch`` is not owed.  They are not checks (their failures are not the
    ledger's to resolve), so they are recognized here alone.
    """
    for words in (part.split() for part in _COMMAND_PARTS.split(command)):
        while words and ("=" in words[0] or words[0] in _PREFIXES or words[0][:1].isdigit()):
            words = words[1:]
        if len(words) >= 2 and (words[0], words[1]) in _BUILDERS:
            return f"{words[0]} {words[1]}"
        if len(words) >= 3 and (words[0], words[1]) == ("gh", "run") and words[2] == "watch":
            return "gh run watch"
        if len(words) >= 3 and (words[0], words[1]) == ("gh", "pr") and words[2] == "checks":
            return "gh pr checks"
        if (
            len(words) >= 3
            and (words[0], words[1]) == ("gh", "run")
            and words[2] in ("list", "view")
        ):
            # Only a listing whose latest run finished and passed shows a build done.
            first = next((line for line in output.splitlines() if line.strip()), "")
            if _CI_PASSED.search(first):
                return "gh run list"
    return None


def run_passed(index: ArtifactIndex, run: CheckRun) -> bool | None:
    """Whether a check run passed: it succeeded, or all it reported was there before the session.

    None when the transcript does not record how it ended.
    """
    if run.passed is not False:
        return run.passed
    entries = [index.ledger.entry(signature) for signature in run.errors]
    return bool(entries) and all(e is not None and e.pre_existing is not None for e in entries)


def check_runs(index: ArtifactIndex) -> list[CheckRunReport]:
    """Every run of a recognized check, in the order they ran, with whether it passed (see :func:`run_passed`)."""
    return [
        CheckRunReport(
            turn=run.turn,
            category=run.category,
            runner=run.runner,
            command=run.command,
            passed=run_passed(index, run),
        )
        for run in index.session.check_runs
    ]


def unverified_changes(index: ArtifactIndex) -> list[UncheckedReport]:
    """Per kind of check the session ran: its last run and the changed files that came after it.

    A test run counts as a build too (it builds what it runs).  One entry per
    set of changed files, with the kinds of check whose last run they came
    after: ``runs`` (``category``, ``turn``, ``runner``, ``command``, ``passed``, in the
    order build, type check, lint, test) and ``files`` (``path`` and the
    ``turns`` it changed after the run).  Kinds with nothing after their
    last run are left out.
    """
    runs = index.session.check_runs
    if not runs:
        return []
    last: dict[str, CheckRun] = {}
    for run in runs:
        if run.runner in _BUILDER_RUNNERS:
            # `go run`, a watched CI run: they show a build done, never that one is owed.
            if run.passed and "build" in last:
                last["build"] = run
            continue
        last[run.category] = run
        if "build" in last and (run.category == "test" or run.runner in _COMPILING_LINTERS):
            last["build"] = (
                run  # running the tests (or go vet) builds the code: a build owed before is done
            )
    changed: list[tuple[str, int, list[int]]] = []
    ran: set[str] = set()
    scripts = _script_runs(index.session.script_runs)
    for file in index.file_states():
        key = file.path
        if file.status not in CHANGED_STATUSES or is_absolute(key) or not _checked(key):
            continue
        if _built_by(index.last_change_command(key)):
            continue  # what a build wrote (`go build -o ./app`) is its output, not a source to check
        seq, turns = index.change_turns(key)
        if _ran_after(scripts, key, seq):
            # The script itself ran, and passed, after its last change: that run tested it (it
            # built, linted or type-checked nothing).
            ran.add(file.shown)
        if turns:  # not when a merge alone changed it: no check is owed for the merged commits
            changed.append((file.shown, seq, turns))
    groups: dict[tuple[str, ...], tuple[list[CheckRunReport], list[ChangedSince]]] = {}
    for category in CATEGORY_ORDER:
        latest = last.get(category)
        if latest is None:
            continue
        after = sorted(
            (path, [t for t in turns if t >= latest.turn] or turns[-1:])
            for path, seq, turns in changed
            if seq > latest.seq
            and _reads(latest.runner, path)
            and not (category == "test" and path in ran)
        )
        if not after:
            continue
        # Kinds with the same changes after their last run read as one line.
        owed, _ = groups.setdefault(
            tuple(path for path, _ in after),
            (
                [],
                [
                    ChangedSince(
                        path=path,
                        turns=turns,
                        ran_itself_turn=_last_run_itself(scripts, path, latest.turn),
                    )
                    for path, turns in after
                ],
            ),
        )
        owed.append(
            CheckRunReport(
                turn=latest.turn,
                category=category,
                runner=latest.runner,
                command=latest.command,
                passed=run_passed(index, latest),
            )
        )
    seqs = {path: seq for path, seq, _ in changed}
    return [
        UncheckedReport(
            runs=owed,
            files=files,
            tasks_after=_tasks_after(index, runs, max(seqs[f.path] for f in files), owed),
        )
        for owed, files in groups.values()
    ]


def _checked(path: str) -> bool:
    """Whether a change to ``path`` is one a check could be owed for (not prose, data or a backup)."""
    name = path.rsplit("/", 1)[-1].lower()
    if name in _UNCHECKED_NAMES or name.startswith(".env.") or name.endswith(_UNCHECKED_SUFFIXES):
        return False
    if name in _CI_CONFIG_NAMES or any(
        path.startswith(folder) or f"/{folder}" in path for folder in _CI_CONFIG_FOLDERS
    ):
        return False
    return _BACKUP.search(name) is None


def _built_by(command: str | None) -> bool:
    """Whether ``command``, which changed a file last, is a build: the file is what it produced."""
    return command is not None and (
        any(check.category == "build" for check in checks_in(command))
        or _builds_too(command) is not None
    )


def _is_task(runner: str) -> bool:
    return runner.startswith("script:") or runner.split(" ", 1)[0] in TASK_RUNNERS


def _tasks_after(
    index: ArtifactIndex, runs: list[CheckRun], seq: int, owed: list[CheckRunReport]
) -> list[CheckRunReport]:
    """The last run of each project task after operation ``seq`` that is not itself of the owed kinds."""
    kinds = {run.category for run in owed}
    last: dict[str, CheckRun] = {}
    for run in runs:
        if run.seq >= seq and _is_task(run.runner) and run.category not in kinds:
            last[run.runner] = run
    return [
        CheckRunReport(
            turn=run.turn,
            category=run.category,
            runner=run.runner,
            command=run.command,
            passed=run_passed(index, run),
        )
        for run in sorted(last.values(), key=lambda r: r.seq)
    ]
