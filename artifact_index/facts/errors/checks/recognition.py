"""Which check one simple command runs: the tables of runners, linters, type checkers and build tools, and their options."""

from __future__ import annotations

import re
from collections.abc import Iterable, Set

from artifact_index.facts.errors.checks.check import TASK_RUNNERS, Check, CheckCategory
from artifact_index.facts.errors.checks.command_line import (
    PYTHON_INTERPRETER,
    executable,
    unwrap,
    word_set,
)
from artifact_index.lazy_pattern import lazy_pattern

__all__ = [
    "segment_check",
]

_TEST_SCRIPT = lazy_pattern(
    r"(?:^|/)(?:test_[^/]*|[^/]*_tests?|tests|runtests|run_tests|run-tests)\.py$"
)
_SCRIPT_TEST = lazy_pattern(
    r"^(?:test|tests|unit|e2e|integration)(?:[:_-][\w:.-]*)?$|[:_-]test(?:s)?$"
)
_SCRIPT_LINT = lazy_pattern(
    r"^(?:lint|eslint|biome|format:check|fmt:check|check:lint|stylelint)(?:[:_-][\w:.-]*)?$"
)
_SCRIPT_TYPES = lazy_pattern(
    r"^(?:typecheck|type-check|types|tsc|check-types|check:types|typecheck:[\w:.-]+)$"
)
_SCRIPT_BUILD = lazy_pattern(r"^(?:build|compile)(?:[:_-][\w:.-]*)?$")
# A script that builds the tests ("compile-tests", "build:test") runs none of them.
_SCRIPT_BUILDS_TESTS = lazy_pattern(r"^(?:build|compile)[:_-]tests?$")

# Options whose value is the next word, per runner; words after other options are targets.
_VALUE_OPTIONS: dict[str, frozenset[str]] = {
    "pytest": word_set(
        "-k -m -p -c -o -W -n --tb --rootdir --maxfail --junitxml --junit-xml --cov "
        "--cov-report --deselect --ignore --ignore-glob --timeout --durations --color --log-level "
        "--basetemp --confcutdir --import-mode --capture -r --count --reruns --dist "
        "--override-ini"
    ),
    "go test": word_set(
        "-run -skip -count -timeout -tags -p -parallel -coverprofile -bench -cpu "
        "-covermode -coverpkg -benchtime -o -exec -json.out"
    ),
    "cargo": word_set(
        "-p --package --features -F --target --manifest-path --bin --example --bench -j "
        "--jobs --profile --exclude --target-dir --color -Z"
    ),
    "jest": word_set(
        "-t --testNamePattern -c --config --testPathPattern --reporters --maxWorkers -w "
        "--shard --testTimeout --project --selectProjects --environment "
        "--coverageDirectory"
    ),
    "mix test": word_set("--only --exclude --include --seed --max-failures --formatter"),
    "unittest": word_set("-k -p -s -t --pattern --start-directory --top-level-directory"),
}
_FILTER_OPTIONS: dict[str, set[str]] = {
    # A run that leaves files or tests out (`--ignore`, `--deselect`) is not the whole project: it
    # cannot vouch for what it left out.
    "pytest": {"-k", "-m", "--ignore", "--ignore-glob", "--deselect"},
    "go test": {"-run", "-skip"},
    "jest": {"-t", "--testNamePattern", "--testPathPattern"},
    "mix test": {"--only", "--exclude", "--include"},
    "unittest": {"-k"},
}

_LINTERS = word_set(
    "ruff flake8 pylint pycodestyle pyflakes eslint biome oxlint golangci-lint "
    "staticcheck rubocop stylelint shellcheck hadolint markdownlint prettier black "
    "isort ktlint swiftlint revive"
)
_TYPECHECKERS = word_set("tsc vue-tsc mypy dmypy pyright basedpyright pyre pytype flow")
_COMPILERS = word_set(
    "gcc g++ clang clang++ cc c++ javac rustc kotlinc swiftc scalac nvcc zig cmake"
)
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
    base = executable(script)
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
    if _SCRIPT_BUILDS_TESTS.match(script):
        return "build"
    if _SCRIPT_TEST.search(script):
        return "test"
    if _SCRIPT_TYPES.match(script):
        return "typecheck"
    if _SCRIPT_LINT.match(script):
        return "lint"
    if _SCRIPT_BUILD.match(script):
        return "build"
    return None


# A script's fixing variant runs the same checker on the same files: ``lint:fix`` is ``lint``.
_FIXING_VARIANT = lazy_pattern(r"^(.+?)[:_-](?:fix|write|fix-all|autofix)$")


def checker_name(script: str) -> str:
    """The checker a project script names: ``lint:fix`` and ``format-write`` run ``lint`` and ``format``."""
    match = _FIXING_VARIANT.match(script)
    return match.group(1) if match else script


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
    return _check(f"script:{checker_name(script)}", category, [*scope, *targets])


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
        if "=" not in word and not (runner in ("mise", "nx", "turbo") and word == "run"):
            targets.append(word)
        i += 1
    for target in targets:
        if runner in ("nx", "turbo"):
            # A monorepo's task of one project: `nx run api:type-check[:production]`, `turbo web#lint`. The
            # project is not kept: a session works in one project of a monorepo at a time, mostly.
            parts = re.split(r"[:#]", target)
            target = parts[1] if runner == "nx" and len(parts) > 1 else parts[-1]
        # A task named for the whole gate (`make check`, `mise run ci`) runs the tests among its steps.
        category = _script_category(target) or ("test" if target in ("check", "ci") else None)
        if category is not None:
            return _check(
                f"{runner} {checker_name(target)}",
                category,
                filters=[" ".join(passed_on)] if passed_on else [],
            )
    if runner in ("make", "gmake") and not targets:
        return _check("make", "build")
    return None


# Options with which a checker only says something about itself or lists what it would run.
_NO_RUN_OPTIONS = frozenset(
    {"--version", "--help", "--collect-only", "--co", "--fixtures", "--markers", "--list", "-list"}
)


def segment_check(words: list[str]) -> Check | None:
    words = unwrap(words)
    if not words:
        return None
    args = words[1:]
    if any(word in _NO_RUN_OPTIONS for word in args):
        return None  # `pytest --version`, `tsc --help`: the tool answers and checks nothing
    check = _segment_check(words)
    if check is not None and check.category == "test" and "--no-run" in args:
        # `cargo test --no-run` compiles the tests and runs none of them.
        # (A runner of its own: its passing build settles no test failure.)
        return check.model_copy(update={"category": "build", "runner": f"{check.runner} --no-run"})
    return check


def _segment_check(words: list[str]) -> Check | None:
    name = executable(words[0])
    args = words[1:]
    if PYTHON_INTERPRETER.match(name):
        return _python_check(args)
    if name in _TEST_RUNNERS:
        runner = _TEST_RUNNERS[name]
        if name == "nextest" or name == "gotestsum":
            return _check(runner, "test")
        return _runner_check(runner, "test", args)
    if name == "php" and args[:1] and executable(args[0]) in ("phpunit", "pest", "artisan"):
        if executable(args[0]) == "artisan" and args[1:2] != ["test"]:
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
    if name == "xcodebuild":
        # Its actions stand among its options (`xcodebuild -scheme App -destination ... build`); with none
        # it builds. `-list`, `-showsdks` and the like only ask.
        actions = {a for a in args if not a.startswith("-")}
        if "test" in actions or "test-without-building" in actions:
            return _check("xcodebuild test", "test")
        if "build" in actions or "build-for-testing" in actions or not args:
            return _check("xcodebuild build", "build")
        return None
    if name in TASK_RUNNERS and (name, args[0] if args else "") not in _SUBCOMMANDS:
        return _task_check(name, args)
    subcommand = next((a for a in args if not a.startswith("-")), "")
    if (name, subcommand) in _SUBCOMMANDS:
        runner, category = _SUBCOMMANDS[(name, subcommand)]
        rest = args[args.index(subcommand) + 1 :]
        if runner == "cargo test":
            names, _ = _split_args(rest, _VALUE_OPTIONS["cargo"], set())
            packages = _option_values(rest, ("-p", "--package"))
            if "--exact" in rest[rest.index("--") :] if "--" in rest else ():
                names = [f"--exact={name}" for name in names]  # each name picks that test alone
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
