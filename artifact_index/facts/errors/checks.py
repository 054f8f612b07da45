"""Which check a shell command runs, and whether one check covers another.

The error ledger must know that ``cd /testbed && python -m pytest
tests/test_auth.py -x 2>&1 | tail -20`` and ``pytest tests/test_auth.py -q``
run the same check, and that a later bare ``pytest`` is a broader run of it:
when the broader run passes, the narrower run's errors are resolved.  This
module reduces a command line to that identity.

A :class:`Check` is a recognised test runner, linter, type checker or build
tool with its *targets* (paths, packages, test ids: what it runs on) and
*filters* (``-k``, ``-run``, a cargo test name: which of those it selects).
Output-shaping flags (``-q``, ``-v``, ``--tb=short``, redirections, pipes into
``tail``) are dropped, because they do not change what is checked.  Commands
that are not a known check still get a stable :func:`command_key` (the command
without ``cd``, redirections, env assignments and trailing output filters), so
``python reproduce.py`` can be matched with a later run of itself.
"""

from __future__ import annotations

import functools
import re
import shlex
from collections.abc import Iterable, Set
from typing import Literal

from pydantic import BaseModel, ConfigDict

__all__ = [
    "Check",
    "CheckCategory",
    "checks_in",
    "command_key",
    "covers",
    "masks_exit_status",
    "segments",
    "subcommands",
]

CheckCategory = Literal["test", "lint", "typecheck", "build"]


class Check(BaseModel):
    """One recognised check inside a command line."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    runner: str  # "pytest", "go test", "cargo test", "script:test", "tsc", "ruff", ...
    category: CheckCategory
    targets: tuple[str, ...] = ()  # empty: the whole project
    filters: tuple[str, ...] = ()  # empty: no selection inside the targets

    @property
    def key(self) -> str:
        parts = [self.runner]
        parts += [f"[{f}]" for f in sorted(self.filters)]
        parts += sorted(self.targets)
        return " ".join(parts)

    def covers(self, other: Check) -> bool:
        """True when running ``self`` runs at least everything ``other`` runs."""
        if self.runner != other.runner:
            return False
        if not set(self.filters) <= set(other.filters):
            return False
        if not self.targets:
            return True
        if not other.targets:
            return False
        return all(any(_path_covers(t, o) for t in self.targets) for o in other.targets)

    @property
    def is_task(self) -> bool:
        """A project task (``make test``, ``npm test``, ``mise run test:ci``): it runs what the project set up."""
        return self.runner.startswith("script:") or self.runner.split(" ", 1)[0] in _TASK_RUNNERS

    def selects(self, test: str | None, file: str | None) -> bool:
        """True when this check runs the test ``test`` (of ``file``) by name or by path.

        ``go test -run 'TestA|TestB' ./pkg`` selects ``TestA/case``, ``pytest
        tests/t.py::test_x`` selects ``tests/t.py::test_x``, ``mix test
        test/a_test.exs`` selects every test of that file.  A selection this
        module cannot read (``-k 'a and not b'``) selects nothing.
        """
        if self.filters:
            return test is not None and all(_filter_selects(f, test) for f in self.filters)
        places = [p for p in (test, file) if p]
        return bool(self.targets) and any(
            _path_covers(_LINE_SUFFIX.sub("", target), place)
            for target in self.targets
            for place in places
        )


_LINE_SUFFIX = re.compile(r"(?<!:):\d+$")  # "test/a_test.exs:42": the file, narrowed to a line
_PLAIN_NAMES = re.compile(r"^\s*[\w.\[\]-]+(?:\s+or\s+[\w.\[\]-]+)*\s*$")


def _filter_selects(selection: str, test: str) -> bool:
    """Whether one ``-run=...`` / ``-k=...`` / ``-t=...`` selection picks ``test``."""
    option, _, value = selection.partition("=")
    if option == "-k":
        if not _PLAIN_NAMES.match(value):
            return False
        return any(name in test for name in re.split(r"\s+or\s+", value.strip()))
    if option in ("-run", "-t", "--testNamePattern"):
        try:
            pattern = re.compile(value)
        except re.error:
            return False
        # Go matches each level of "TestA/sub" against its part of the pattern: the top
        # level is what a -run naming the failing test matches.
        return bool(pattern.search(test) or pattern.search(test.split("/")[0]))
    if option in ("-skip", "--exclude"):
        return False
    return value in test


def _path_covers(general: str, specific: str) -> bool:
    """``tests`` covers ``tests/test_a.py::test_x``; ``/repo/tests`` covers ``tests``."""
    if general.startswith("/") != specific.startswith("/"):
        # One absolute, one relative spelling (``cd /testbed && pytest tests``):
        # align the absolute one on the relative one's first component.
        if general.startswith("/"):
            general = _align(general, specific)
        else:
            specific = _align(specific, general)
    if general.endswith("/..."):  # a Go package pattern: everything below
        general = general[:-4]
        if general in ("", "."):
            return True
    if specific.endswith("/..."):
        specific = specific[:-4]
    if general == specific:
        return True
    return specific.startswith(general) and specific[len(general) : len(general) + 1] in ("/", ":")


def _align(absolute: str, relative: str) -> str:
    first = re.split(r"/|::", relative, maxsplit=1)[0]
    match = re.search("/" + re.escape(first) + r"(?=/|::|$)", absolute)
    return absolute[match.start() + 1 :] if match else absolute


# --- tokenising ---------------------------------------------------------------------------

_SEPARATORS = {";", "&&", "||", "|", "&", "|&", "(", ")", ";;"}
_PIPE = {"|", "|&"}
_HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_][\w-]*)\1")
_ENV_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_MAX_COMMAND = 4000


def _strip_heredocs(command: str) -> str:
    """Drop heredoc bodies: their lines are data, not commands."""
    if "<<" not in command:
        return command
    lines = command.split("\n")
    out: list[str] = []
    delimiter: str | None = None
    for line in lines:
        if delimiter is not None:
            if line.strip() == delimiter:
                delimiter = None
            continue
        out.append(line)
        openers = _HEREDOC.findall(line)
        if openers:
            delimiter = openers[-1][1]
    return "\n".join(out)


def _tokens(command: str) -> list[str]:
    text = _strip_heredocs(command[:_MAX_COMMAND]).replace("\\\n", " ").replace("\n", " ; ")
    lexer = shlex.shlex(text, posix=True, punctuation_chars=";&|<>()")
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        return list(lexer)
    except ValueError:  # unbalanced quotes: a plain split is still useful
        return text.split()


def segments(command: str) -> list[tuple[bool, list[str]]]:
    """The simple commands of ``command`` as ``(piped, words)``, redirections removed.

    ``piped`` is True when the command reads the previous one's output
    (``... | tail -20``).
    """
    result: list[tuple[bool, list[str]]] = []
    current: list[str] = []
    piped = False
    tokens = _tokens(command)
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token in _SEPARATORS:
            if current:
                result.append((piped, current))
            current = []
            piped = token in _PIPE
        elif token and set(token) <= set("<>&") and ("<" in token or ">" in token):
            if current and current[-1] in ("0", "1", "2"):
                current.pop()  # the file descriptor of "2>&1"
            i += 1  # the redirection target
        else:
            current.append(token)
        i += 1
    if current:
        result.append((piped, current))
    return result


# --- recognising checks ------------------------------------------------------------------


def _words(text: str) -> frozenset[str]:
    """A set of names written as one space-separated string, for long tables."""
    return frozenset(text.split())


# Wrappers that run the real command given after them (with the number of option
# values they take when known).
_WRAPPERS = _words(
    "sudo time nice nohup command exec builtin stdbuf env xvfb-run caffeinate "
    "unbuffer npx bunx uvx pipx"
)
_TWO_WORD_WRAPPERS = {
    ("uv", "run"),
    ("poetry", "run"),
    ("pipenv", "run"),
    ("pdm", "run"),
    ("hatch", "run"),
    ("rye", "run"),
    ("pnpm", "exec"),
    ("pnpm", "dlx"),
    ("yarn", "dlx"),
    ("yarn", "exec"),
    ("bun", "x"),
    ("bundle", "exec"),
    ("npm", "exec"),
    ("conda", "run"),
}
_WRAPPER_VALUE_OPTIONS = _words(
    "--with --python -p --extra --group --package --env-file --directory --project -n "
    "--name -u --unset --prefix -C"
)

_PYTHON = re.compile(r"^(?:python|pypy)(?:\d+(?:\.\d+)*)?$|^py$")
_TEST_SCRIPT = re.compile(
    r"(?:^|/)(?:test_[^/]*|[^/]*_tests?|tests|runtests|run_tests|run-tests)\.py$"
)
_SCRIPT_TEST = re.compile(
    r"^(?:test|tests|unit|e2e|integration)(?:[:_-][\w:.-]*)?$|[:_-]test(?:s)?$"
)
_SCRIPT_LINT = re.compile(
    r"^(?:lint|eslint|biome|format:check|fmt:check|check:lint|stylelint)(?:[:_-][\w:.-]*)?$"
)
_SCRIPT_TYPES = re.compile(
    r"^(?:typecheck|type-check|types|tsc|check-types|check:types|typecheck:[\w:.-]+)$"
)
_SCRIPT_BUILD = re.compile(r"^(?:build|compile)(?:[:_-][\w:.-]*)?$")

# Options whose value is the next word, per runner; words after other options are targets.
_VALUE_OPTIONS: dict[str, frozenset[str]] = {
    "pytest": _words(
        "-k -m -p -c -o -W -n --tb --rootdir --maxfail --junitxml --junit-xml --cov "
        "--cov-report --deselect --ignore --timeout --durations --color --log-level "
        "--basetemp --confcutdir --import-mode --capture -r --count --reruns --dist "
        "--override-ini"
    ),
    "go test": _words(
        "-run -skip -count -timeout -tags -p -parallel -coverprofile -bench -cpu "
        "-covermode -coverpkg -benchtime -o -exec -json.out"
    ),
    "cargo": _words(
        "-p --package --features -F --target --manifest-path --bin --example --bench -j "
        "--jobs --profile --exclude --target-dir --color -Z"
    ),
    "jest": _words(
        "-t --testNamePattern -c --config --testPathPattern --reporters --maxWorkers -w "
        "--shard --testTimeout --project --selectProjects --environment "
        "--coverageDirectory"
    ),
    "mix test": _words("--only --exclude --include --seed --max-failures --formatter"),
    "unittest": _words("-k -p -s -t --pattern --start-directory --top-level-directory"),
}
_FILTER_OPTIONS: dict[str, set[str]] = {
    "pytest": {"-k", "-m"},
    "go test": {"-run", "-skip"},
    "jest": {"-t", "--testNamePattern", "--testPathPattern"},
    "mix test": {"--only", "--exclude", "--include"},
    "unittest": {"-k"},
}

_LINTERS = _words(
    "ruff flake8 pylint pycodestyle pyflakes eslint biome oxlint golangci-lint "
    "staticcheck rubocop stylelint shellcheck hadolint markdownlint prettier black "
    "isort ktlint swiftlint revive"
)
_TYPECHECKERS = _words("tsc vue-tsc mypy dmypy pyright basedpyright pyre pytype flow")
_COMPILERS = _words("gcc g++ clang clang++ cc c++ javac rustc kotlinc swiftc scalac nvcc zig cmake")
_TEST_RUNNERS = {
    "pytest": "pytest",
    "py.test": "pytest",
    "tox": "tox",
    "nox": "nox",
    "jest": "jest",
    "vitest": "vitest",
    "mocha": "mocha",
    "ava": "ava",
    "jasmine": "jasmine",
    "karma": "karma",
    "rspec": "rspec",
    "phpunit": "phpunit",
    "pest": "pest",
    "ctest": "ctest",
    "gotestsum": "go test",
    "nextest": "cargo test",
    "bats": "bats",
    "tap": "tap",
}
# "<tool> <subcommand>" pairs that are checks.
_SUBCOMMANDS: dict[tuple[str, str], tuple[str, CheckCategory]] = {
    ("go", "test"): ("go test", "test"),
    ("go", "vet"): ("go vet", "lint"),
    ("go", "build"): ("go build", "build"),
    ("cargo", "test"): ("cargo test", "test"),
    ("cargo", "t"): ("cargo test", "test"),
    ("cargo", "nextest"): ("cargo test", "test"),
    ("cargo", "build"): ("cargo build", "build"),
    ("cargo", "b"): ("cargo build", "build"),
    ("cargo", "check"): ("cargo check", "build"),
    ("cargo", "c"): ("cargo check", "build"),
    ("cargo", "clippy"): ("cargo clippy", "lint"),
    ("mix", "test"): ("mix test", "test"),
    ("mix", "compile"): ("mix compile", "build"),
    ("mix", "credo"): ("mix credo", "lint"),
    ("mix", "dialyzer"): ("mix dialyzer", "typecheck"),
    ("mix", "format"): ("mix format", "lint"),
    ("mix", "precommit"): ("mix precommit", "test"),
    ("bun", "test"): ("bun test", "test"),
    ("deno", "test"): ("deno test", "test"),
    ("deno", "check"): ("deno check", "typecheck"),
    ("deno", "lint"): ("deno lint", "lint"),
    ("dotnet", "test"): ("dotnet test", "test"),
    ("dotnet", "build"): ("dotnet build", "build"),
    ("swift", "test"): ("swift test", "test"),
    ("swift", "build"): ("swift build", "build"),
    ("flutter", "test"): ("flutter test", "test"),
    ("dart", "test"): ("dart test", "test"),
    ("sbt", "test"): ("sbt test", "test"),
    ("lein", "test"): ("lein test", "test"),
    ("stack", "test"): ("stack test", "test"),
    ("cabal", "test"): ("cabal test", "test"),
    ("bazel", "test"): ("bazel test", "test"),
    ("bazel", "build"): ("bazel build", "build"),
    ("rake", "test"): ("rake test", "test"),
    ("rake", "spec"): ("rspec", "test"),
    ("rails", "test"): ("rails test", "test"),
    ("artisan", "test"): ("phpunit", "test"),
    ("playwright", "test"): ("playwright test", "test"),
    ("cypress", "run"): ("cypress run", "test"),
    ("zig", "build"): ("zig build", "build"),
    ("pyre", "check"): ("pyre", "typecheck"),
    ("dmypy", "run"): ("mypy", "typecheck"),
}
_MAVEN_GOALS: dict[str, tuple[str, CheckCategory]] = {
    "test": ("test", "test"),
    "verify": ("test", "test"),
    "compile": ("compile", "build"),
    "test-compile": ("compile", "build"),
    "check": ("test", "test"),
    "build": ("build", "build"),
    "package": ("build", "build"),
    "install": ("build", "build"),
}
_TASK_RUNNERS = {"make", "gmake", "just", "task", "mage", "invoke", "mise", "rake"}


def _executable(word: str) -> str:
    name = word.rsplit("/", 1)[-1].rsplit("\\", 1)[-1]
    for suffix in (".exe", ".cmd", ".bat"):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return name


def _unwrap(words: list[str]) -> list[str]:
    """Strip env assignments and wrapper commands (``timeout 60``, ``uv run``, ``npx``)."""
    i = 0
    while i < len(words):
        word = words[i]
        name = _executable(word)
        if _ENV_ASSIGNMENT.match(word):
            i += 1
        elif name == "timeout" or name == "gtimeout":
            i += 1
            while i < len(words) and words[i].startswith("-"):
                i += 2 if words[i] in ("-s", "--signal", "-k", "--kill-after") else 1
            i += 1  # the duration
        elif name in _WRAPPERS:
            i += 1
            while i < len(words) and words[i].startswith("-"):
                i += 2 if words[i] in _WRAPPER_VALUE_OPTIONS else 1
        elif i + 1 < len(words) and (name, words[i + 1]) in _TWO_WORD_WRAPPERS:
            i += 2
            while i < len(words) and words[i].startswith("-"):
                i += 2 if words[i] in _WRAPPER_VALUE_OPTIONS else 1
        else:
            break
    return words[i:]


def _clean_target(word: str) -> str | None:
    """A positional word as a target; ``None`` for "everything here"."""
    word = word.strip()
    while word.startswith("./"):
        word = word[2:]
    if word in ("", ".", "...", "./..."):
        return None
    if len(word) > 1:
        word = word.rstrip("/")
    return word


def _split_args(
    args: Iterable[str], value_options: Set[str], filter_options: Set[str]
) -> tuple[list[str], list[str]]:
    """Positional targets and selecting filters of an argument list."""
    targets: list[str] = []
    filters: list[str] = []
    items = list(args)
    i = 0
    while i < len(items):
        word = items[i]
        if word == "--":
            break  # what follows goes to the program under test
        if word.startswith("-") and len(word) > 1:
            option, has_value, value = word.partition("=")
            if option in filter_options:
                if has_value:
                    filters.append(f"{option}={value}")
                elif i + 1 < len(items):
                    filters.append(f"{option}={items[i + 1]}")
                    i += 1
            elif not has_value and (
                option in value_options or (i + 1 < len(items) and items[i + 1].isdigit())
            ):
                i += 1  # the option's value (a bare number is never a target)
        else:
            target = _clean_target(word)
            if target is not None:
                targets.append(target)
        i += 1
    return targets, filters


def _check(
    runner: str, category: CheckCategory, targets: Iterable[str] = (), filters: Iterable[str] = ()
) -> Check:
    return Check(
        runner=runner,
        category=category,
        targets=tuple(sorted(set(targets))),
        filters=tuple(sorted(set(filters))),
    )


def _python_check(args: list[str]) -> Check | None:
    i = 0
    while i < len(args) and args[i].startswith("-"):
        if args[i] == "-m" and i + 1 < len(args):
            module, rest = args[i + 1], args[i + 2 :]
            if module in ("pytest", "py.test"):
                return _runner_check("pytest", "test", rest)
            if module == "unittest":
                return _runner_check("unittest", "test", rest)
            if module in _TEST_RUNNERS:
                return _runner_check(_TEST_RUNNERS[module], "test", rest)
            if module == "django" and rest[:1] == ["test"]:
                return _runner_check("django test", "test", rest[1:])
            if module in _LINTERS:
                return _runner_check(module, "lint", rest)
            if module in _TYPECHECKERS:
                return _runner_check(module, "typecheck", rest)
            return None
        if args[i] in ("-c",):
            return None  # inline code is not a check we can name
        i += 2 if args[i] in ("-X", "-W", "-Q") else 1
    if i >= len(args):
        return None
    script, rest = args[i], args[i + 1 :]
    base = _executable(script)
    if base == "manage.py" and rest[:1] == ["test"]:
        return _runner_check("django test", "test", rest[1:])
    if base == "setup.py" and rest[:1] == ["test"]:
        return _check("setup.py test", "test")
    if _TEST_SCRIPT.search(script):
        targets, filters = _split_args(rest, set(), set())
        return _check(f"python {_clean_target(script) or script}", "test", targets, filters)
    return None


def _runner_check(runner: str, category: CheckCategory, args: list[str]) -> Check:
    family = runner if runner in _VALUE_OPTIONS else ("jest" if runner == "vitest" else runner)
    targets, filters = _split_args(
        args, _VALUE_OPTIONS.get(family, set()), _FILTER_OPTIONS.get(family, set())
    )
    if runner == "vitest" and targets[:1] in (["run"], ["watch"], ["related"]):
        targets = targets[1:]
    return _check(runner, category, targets, filters)


def _script_category(script: str) -> CheckCategory | None:
    if _SCRIPT_TEST.search(script):
        return "test"
    if _SCRIPT_TYPES.match(script):
        return "typecheck"
    if _SCRIPT_LINT.match(script):
        return "lint"
    if _SCRIPT_BUILD.match(script):
        return "build"
    return None


def _package_script_check(manager: str, args: list[str]) -> Check | None:
    """``npm test``, ``npm run lint``, ``yarn test``, ``pnpm -r --filter web test``..."""
    value_options = {"--filter", "-F", "-C", "--dir", "--prefix", "-w", "--workspace", "--cwd"}
    words: list[str] = []
    scope: list[str] = []  # the workspace packages the script runs in
    i = 0
    while i < len(args):
        word = args[i]
        if word == "--":
            words.extend(args[i:])
            break
        if word.startswith("-"):
            option, has_value, value = word.partition("=")
            if option in value_options:
                if has_value:
                    scope.append(value)
                elif i + 1 < len(args):
                    scope.append(args[i + 1])
                    i += 1
            i += 1
            continue
        words.append(word)
        i += 1
    if manager == "yarn" and words[:1] == ["workspace"] and len(words) >= 3:
        scope.append(words[1])
        words = words[2:]
    if not words:
        return None
    if words[0] in ("run", "run-script", "rum", "urn"):
        words = words[1:]
    elif words[0] in ("t", "tst"):
        words = ["test", *words[1:]]
    elif manager == "npm" and words[0] not in ("test", "start"):
        return None  # other npm subcommands (install, ci, publish) are not scripts
    if not words:
        return None
    script = words[0]
    category = _script_category(script)
    if category is None:
        return None
    targets, _ = _split_args(words[1:], set(), set())
    return _check(f"script:{script}", category, [*scope, *targets])


def _task_check(runner: str, args: list[str]) -> Check | None:
    """``make test``, ``just lint``, ``mise run test``: judge the target's name."""
    value_options = {"-C", "-f", "--file", "-j", "--jobs", "-I", "--directory", "--justfile"}
    targets: list[str] = []
    passed_on: list[str] = []  # "mise run test -- -run TestX": arguments for the task
    i = 0
    while i < len(args):
        word = args[i]
        if word == "--":
            passed_on = args[i + 1 :]
            break
        if word.startswith("-"):
            i += 2 if word in value_options else 1
            continue
        if "=" not in word and not (runner == "mise" and word == "run"):
            targets.append(word)
        i += 1
    for target in targets:
        category = _script_category(target) or ("test" if target == "check" else None)
        if category is not None:
            return _check(
                f"{runner} {target}", category, filters=[" ".join(passed_on)] if passed_on else []
            )
    if runner in ("make", "gmake") and not targets:
        return _check("make", "build")
    return None


def _segment_check(words: list[str]) -> Check | None:
    words = _unwrap(words)
    if not words:
        return None
    name = _executable(words[0])
    args = words[1:]
    if _PYTHON.match(name):
        return _python_check(args)
    if name in _TEST_RUNNERS:
        runner = _TEST_RUNNERS[name]
        if name == "nextest" or name == "gotestsum":
            return _check(runner, "test")
        return _runner_check(runner, "test", args)
    if name == "php" and args[:1] and _executable(args[0]) in ("phpunit", "pest", "artisan"):
        if _executable(args[0]) == "artisan" and args[1:2] != ["test"]:
            return None
        return _runner_check("phpunit", "test", args[2:] if args[1:2] == ["test"] else args[1:])
    if name in ("npm", "yarn", "pnpm") or (name == "bun" and args[:1] == ["run"]):
        return _package_script_check(name, args)
    if name in ("mvn", "mvnw", "gradle", "gradlew"):
        family = "maven" if name.startswith("mvn") else "gradle"
        for word in args:
            goal = word.rsplit(":", 1)[-1]
            if not word.startswith("-") and goal in _MAVEN_GOALS:
                kind, category = _MAVEN_GOALS[goal]
                return _check(f"{family} {kind}", category)
        return None
    if name in _TASK_RUNNERS and (name, args[0] if args else "") not in _SUBCOMMANDS:
        return _task_check(name, args)
    subcommand = next((a for a in args if not a.startswith("-")), "")
    if (name, subcommand) in _SUBCOMMANDS:
        runner, category = _SUBCOMMANDS[(name, subcommand)]
        rest = args[args.index(subcommand) + 1 :]
        if runner == "cargo test":
            names, _ = _split_args(rest, _VALUE_OPTIONS["cargo"], set())
            packages = _option_values(rest, ("-p", "--package"))
            return _check(runner, category, packages, names)  # a name selects tests: a filter
        if runner == "go test":
            return _runner_check("go test", category, rest)
        if runner in ("go vet", "go build"):
            targets, _ = _split_args(rest, _VALUE_OPTIONS["go test"], set())
            return _check(runner, category, targets)
        if runner.startswith("cargo "):
            return _check(runner, category, _option_values(rest, ("-p", "--package")))
        if runner == "mix test":
            return _runner_check("mix test", category, rest)
        targets, _ = _split_args(rest, set(), set())
        return _check(runner, category, targets)
    if name in _LINTERS or name in _TYPECHECKERS:
        category = "lint" if name in _LINTERS else "typecheck"
        if name in ("ruff", "biome", "golangci-lint") and args[:1] and not args[0].startswith("-"):
            if args[0] in ("format", "fmt") and "--check" not in args:
                return None
            args = args[1:]  # "ruff check", "biome lint", "golangci-lint run"
        if name in ("black", "prettier", "isort") and not any(
            a in ("--check", "-c", "--diff", "--list-different", "-l") for a in args
        ):
            return None  # a formatter that rewrites files is not a check
        if name in ("tsc", "vue-tsc"):
            return _check("tsc", "typecheck")  # its targets come from tsconfig
        targets, _ = _split_args(
            args,
            {
                "--config",
                "-c",
                "--select",
                "--ignore",
                "-p",
                "--project",
                "--rcfile",
                "--format",
                "-f",
                "--ext",
            },
            set(),
        )
        return _check(name, category, targets)
    if name in _COMPILERS:
        return _check(name, "build")
    return None


def _option_values(args: list[str], options: tuple[str, ...]) -> list[str]:
    values = []
    for i, word in enumerate(args):
        option, has_value, value = word.partition("=")
        if option in options:
            if has_value:
                values.append(value)
            elif i + 1 < len(args):
                values.append(args[i + 1])
    return values


@functools.lru_cache(maxsize=4096)
def checks_in(command: str | None) -> tuple[Check, ...]:
    """The checks ``command`` runs, in order (``ruff check . && pytest`` has two)."""
    if not command:
        return ()
    found: list[Check] = []
    for piped, words in segments(command):
        if piped:
            continue  # "| tail", "| grep FAIL": a filter of the check, not a check
        check = _segment_check(words)
        if check is not None and check not in found:
            found.append(check)
    return tuple(found)


# Commands that only shape or inspect another command's output.
_OUTPUT_FILTERS = _words(
    "head tail grep egrep fgrep rg tee less more cat sort uniq cut wc sed awk tr "
    "column jq nl fold strings xargs"
)
_NOISE = {"cd", "pushd", "popd", "echo", "printf", "true", "clear", "set", "source", ".", "export"}


def masks_exit_status(command: str | None) -> bool:
    """True when the command's exit status is not its check's: ``pytest | tail``, ``make; echo``."""
    parts = segments(command or "")
    if len(parts) < 2:
        return False
    words = _unwrap(parts[-1][1])
    return bool(words) and _executable(words[0]) in _OUTPUT_FILTERS | {
        "echo",
        "true",
        ":",
        "printf",
    }


@functools.lru_cache(maxsize=4096)
def command_key(command: str | None) -> str | None:
    """A stable identity for ``command``: its checks, else its normalised words."""
    if not command:
        return None
    checks = checks_in(command)
    if checks:
        return " && ".join(check.key for check in checks)
    parts: list[str] = []
    for piped, words in segments(command):
        words = _unwrap(words)
        if not words:
            continue
        name = _executable(words[0])
        if name in _NOISE or (piped and name in _OUTPUT_FILTERS):
            continue
        parts.append(" ".join(words))
    return "$ " + " && ".join(parts) if parts else None


_INTERPRETERS = _words("python python3 python2 pypy pypy3 node deno ruby perl php bash sh zsh elixir")
_GIT_VALUE_OPTIONS = _words("-C -c --git-dir --work-tree --namespace")


@functools.lru_cache(maxsize=4096)
def subcommands(command: str | None) -> frozenset[str]:
    """What a command line runs, each as program and sub-command: ``{"git add", "git commit"}``.

    The identity of a command apart from its arguments, so that a corrected
    retry (``git add`` with other paths, ``python -c`` with other code) is
    known as the same action.  Interpreters are named with the script they
    run, or with ``-c`` / ``-e`` for inline code.
    """
    found: set[str] = set()
    for piped, words in segments(command or ""):
        words = _unwrap(words)
        if piped or not words:
            continue
        name = _executable(words[0])
        if name in _NOISE:
            continue
        args = words[1:]
        if name == "git":
            while args and args[0].startswith("-"):
                args = args[2:] if args[0] in _GIT_VALUE_OPTIONS else args[1:]
        if _PYTHON.match(name) or name in _INTERPRETERS:
            inline = next((a for a in args if a in ("-c", "-e", "--eval")), None)
            script = next((a for a in args if not a.startswith("-")), "")
            found.add(f"{name} {inline or _executable(script)}".strip())
            continue
        sub = next((a for a in args if not a.startswith("-")), "")
        found.add(f"{name} {sub}".strip())
    return frozenset(found)


def covers(later: str | None, earlier: str | None) -> bool:
    """True when ``later`` runs at least every check ``earlier`` ran.

    For commands that are not known checks, the same normalised command counts,
    and so does the same program and sub-command with words added.
    """
    if not later or not earlier:
        return False
    if command_key(later) == command_key(earlier):
        return True
    later_checks, earlier_checks = checks_in(later), checks_in(earlier)
    if not later_checks and not earlier_checks:
        # Not checks: the same program and sub-command with only words added
        # (`git push` then `git push --set-upstream origin topic`) is a rerun.
        old, new = (command_key(earlier) or "").split(), (command_key(later) or "").split()
        return len(old) >= 2 and new[:2] == old[:2] and set(old) <= set(new)
    if not later_checks or not earlier_checks:
        return False
    return all(any(new.covers(old) for new in later_checks) for old in earlier_checks)
