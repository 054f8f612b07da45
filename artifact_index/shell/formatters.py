"""Formatters, fixers, and the project scripts that run them.

``black src/app.py``, ``prettier --write src``, ``gofmt -w .``, ``eslint
--fix``, ``ruff check --fix``, ``mix format``, ``cargo fmt``, ``terraform
fmt``, ``npm run lint:fix``: each rewrites files, often ones it does not
name.  What is recorded, most certain first:

* files the tool's own report names as changed (``reformatted src/a.py``,
  prettier's ``src/a.ts 41ms`` without ``(unchanged)``, the file list of
  ``gofmt -l`` / ``go fmt`` / ``terraform fmt``, rubocop's ``[Corrected]``,
  isort's ``Fixing``) are edits;
* a file named on the command line is an edit that may leave it unchanged,
  unless the report says it was left unchanged;
* a directory, a glob or the whole project, with no report naming the files,
  is an ``unknown`` effect that says what ran and how many files it reported
  fixing (``Fixed 3 files``); a report of zero changed files records
  nothing.

A fixer that exits non-zero (``eslint --fix`` with problems left) still
fixed what it could, so its effects stand, as unknown unless named; a
formatter that fails changed nothing.

A project script (``npm run lint:fix``, ``pnpm format``, ``yarn lint --fix``)
is analyzed from its text in ``package.json`` when the trail knows that
file; otherwise a script whose name says it fixes, formats or generates, or
that is passed ``--fix`` / ``--write``, is an ``unknown`` effect.
"""

from __future__ import annotations

import json
import posixpath
import re
from dataclasses import dataclass, replace

from artifact_index.ingestion.events import MAY_BE_UNCHANGED, FileOperation
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.expand import Arg
from artifact_index.shell.invocation import Invocation, Runtime, parse_options
from artifact_index.shell.neutral import is_neutral_script

__all__ = ["FORMATTER_PROGRAMS", "MAY_BE_UNCHANGED", "format_effects", "project_script"]


@dataclass(frozen=True)
class _Formatter:
    writes: frozenset[str] = (
        frozenset()
    )  # options that mean "write in place" (empty: always writes)
    checks: frozenset[str] = frozenset()  # options that mean "only check"
    fixer: bool = (
        False  # a linter that fixes: a non-zero exit means problems remain, not nothing done
    )
    whole_project: bool = False  # with no operand it formats the working directory
    short_values: str = ""
    long_values: tuple[str, ...] = (
        "--config",
        "--line-length",
        "--profile",
        "--style",
        "--ignore-path",
        "--ext",
        "--plugin",
        "--parser",
        "--format",
        "--rule",
        "--target-version",
        "--select",
        "--ignore",
        "--extend-select",
        "--exclude",
        "--extend-exclude",
    )
    listed: tuple[str, ...] = ()  # extensions of the changed files it lists one per line


def _f(*flags: str) -> frozenset[str]:
    return frozenset(flags)


_FORMATTERS: dict[str, _Formatter] = {
    "black": _Formatter(checks=_f("--check", "--diff"), short_values="l"),
    "isort": _Formatter(checks=_f("--check-only", "-c", "--check", "--diff")),
    "autopep8": _Formatter(writes=_f("-i", "--in-place")),
    "autoflake": _Formatter(writes=_f("-i", "--in-place")),
    "yapf": _Formatter(writes=_f("-i", "--in-place")),
    "pyupgrade": _Formatter(),
    "prettier": _Formatter(
        writes=_f("--write", "-w"), checks=_f("--check", "-c", "--list-different", "-l")
    ),
    # The Oxc tools: oxfmt writes in place unless told to check; oxlint fixes when told.
    "oxfmt": _Formatter(checks=_f("--check", "--list-different"), whole_project=True),
    "oxlint": _Formatter(
        writes=_f("--fix", "--fix-suggestions", "--fix-dangerously"), fixer=True, whole_project=True
    ),
    "gofmt": _Formatter(writes=_f("-w"), listed=(".go",)),
    "goimports": _Formatter(writes=_f("-w"), listed=(".go",)),
    "rustfmt": _Formatter(checks=_f("--check")),
    "clang-format": _Formatter(writes=_f("-i")),
    "shfmt": _Formatter(writes=_f("-w", "--write")),
    "swiftformat": _Formatter(checks=_f("--lint", "--dryrun"), whole_project=True),
    "ktlint": _Formatter(writes=_f("-F", "--format"), fixer=True, whole_project=True),
    "eslint": _Formatter(
        writes=_f("--fix"), checks=_f("--fix-dry-run"), fixer=True, whole_project=True
    ),
    "stylelint": _Formatter(writes=_f("--fix"), fixer=True),
    "standard": _Formatter(writes=_f("--fix"), fixer=True, whole_project=True),
    "rubocop": _Formatter(
        writes=_f(
            "-a", "-A", "--autocorrect", "--autocorrect-all", "--auto-correct", "--auto-correct-all"
        ),
        fixer=True,
        whole_project=True,
    ),
}

# Tools whose formatting is a subcommand: (program, subcommand) -> its formatter.
_SUBCOMMANDS: dict[tuple[str, str], _Formatter] = {
    ("ruff", "format"): _Formatter(checks=_f("--check", "--diff"), whole_project=True),
    ("ruff", "check"): _Formatter(
        writes=_f("--fix"), checks=_f("--diff"), fixer=True, whole_project=True
    ),
    ("mix", "format"): _Formatter(checks=_f("--check-formatted", "--dry-run"), whole_project=True),
    ("cargo", "fmt"): _Formatter(checks=_f("--check"), whole_project=True),
    ("cargo", "clippy"): _Formatter(writes=_f("--fix"), fixer=True, whole_project=True),
    ("terraform", "fmt"): _Formatter(
        checks=_f("-check", "-write=false"), whole_project=True, listed=(".tf", ".tfvars", ".hcl")
    ),
    ("go", "fmt"): _Formatter(whole_project=True, listed=(".go",)),
    ("biome", "format"): _Formatter(writes=_f("--write", "--apply", "--fix"), whole_project=True),
    ("biome", "check"): _Formatter(
        writes=_f("--write", "--apply", "--apply-unsafe", "--fix"), fixer=True, whole_project=True
    ),
    ("biome", "lint"): _Formatter(
        writes=_f("--write", "--apply", "--fix"), fixer=True, whole_project=True
    ),
    ("deno", "fmt"): _Formatter(checks=_f("--check"), whole_project=True),
    # Ultracite runs Biome, or oxfmt and oxlint, over the project: `fix` (`format` before v5)
    # writes; `check` and `lint` only report.
    ("ultracite", "fix"): _Formatter(fixer=True, whole_project=True),
    ("ultracite", "format"): _Formatter(fixer=True, whole_project=True),
    ("deno", "lint"): _Formatter(writes=_f("--fix"), fixer=True, whole_project=True),
    ("dotnet", "format"): _Formatter(
        checks=_f("--verify-no-changes"), fixer=True, whole_project=True
    ),
    ("php-cs-fixer", "fix"): _Formatter(checks=_f("--dry-run"), fixer=True, whole_project=True),
}

_SCRIPT_RUNNERS = frozenset({"npm", "pnpm", "yarn", "bun"})
# Subcommands of the runners that are not scripts (``pnpm lint`` runs a script, ``pnpm add`` does not).
_RUNNER_COMMANDS = frozenset(
    {
        "add",
        "install",
        "i",
        "remove",
        "rm",
        "uninstall",
        "un",
        "update",
        "up",
        "upgrade",
        "init",
        "create",
        "exec",
        "dlx",
        "x",
        "link",
        "unlink",
        "publish",
        "pack",
        "outdated",
        "list",
        "ls",
        "why",
        "info",
        "view",
        "audit",
        "config",
        "cache",
        "store",
        "import",
        "dedupe",
        "prune",
        "rebuild",
        "ci",
        "global",
        "workspace",
        "workspaces",
        "set",
        "version",
        "login",
        "logout",
        "help",
        "patch",
        "patch-commit",
        "env",
        "setup",
        "build",
        "pm",
    }
)
_FIXING_SCRIPT = lazy_pattern(
    r"(?:^|[:_\-.])(?:fix|format|fmt|prettier|prettify|codegen|generate|gen)(?:$|[:_\-.])"
)

FORMATTER_PROGRAMS = frozenset(
    {*_FORMATTERS, *(program for program, _ in _SUBCOMMANDS), *_SCRIPT_RUNNERS}
)
"""Programs :func:`format_effects` knows."""

_NAMED_CHANGES = {
    "black": lazy_pattern(r"^reformatted (.+?)\s*$", re.MULTILINE),
    "isort": lazy_pattern(r"^Fixing (.+?)\s*$", re.MULTILINE),
    "rubocop": lazy_pattern(r"^(.+?):\d+:\d+: \[Corrected\]", re.MULTILINE),
}
_PRETTIER_LINE = lazy_pattern(r"^(\S+) \d+(?:\.\d+)?m?s(?: (\(unchanged\)))?\s*$", re.MULTILINE)
_COUNTS = (
    lazy_pattern(r"\b(\d+) files? (?:re)?formatted\b", re.IGNORECASE),
    lazy_pattern(r"\bFixed (\d+) files?\b", re.IGNORECASE),
    lazy_pattern(r"\((\d+) fixed\b"),
    lazy_pattern(r"\b(\d+) offenses? (?:auto-?)?corrected\b"),
)

# "9 files left unchanged", rubocop's "3 files inspected, no offenses detected".
_UNCHANGED = lazy_pattern(
    r"\b\d+ files? (?:left )?unchanged\b|\bfiles? inspected, no offenses detected\b", re.IGNORECASE
)


@dataclass(frozen=True)
class _Report:
    """What the command's output says the tool changed."""

    changed: tuple[str, ...] | None = None  # paths as printed; None: the output names none
    unchanged: tuple[str, ...] = ()
    count: int | None = None  # how many files it says it fixed


def format_effects(inv: Invocation, runtime: Runtime) -> list[FileOperation] | None:
    """The files a formatter, fixer or project script rewrites; None when ``inv`` is none of them."""
    name = inv.program or ""
    args = list(inv.args[1:])
    if name in _SCRIPT_RUNNERS:
        return _project_script(inv, runtime, args)
    formatter = _FORMATTERS.get(name)
    label = name
    if formatter is None:
        sub = args[0].value if args else None
        formatter = _SUBCOMMANDS.get((name, sub or ""))
        if formatter is None:
            return None
        args = args[1:]
        label = f"{name} {sub}"
    parsed = parse_options(
        args, short_values=formatter.short_values, long_values=formatter.long_values
    )
    # Go-style single-dash long options (terraform fmt -check) are compared whole.
    given = {a.value for a in args} | {option for option, _ in parsed.options}
    if given & formatter.checks or (formatter.writes and not given & formatter.writes):
        return []
    if inv.failed and not formatter.fixer:
        return []
    if name in ("gofmt", "goimports") and "-l" not in given:
        formatter = replace(formatter, listed=())  # without -l it names nothing
    operands = [] if name in ("cargo", "terraform") else list(parsed.operands)
    return _format(inv, runtime, formatter, label, operands)


def _format(
    inv: Invocation, runtime: Runtime, formatter: _Formatter, label: str, operands: list[Arg]
) -> list[FileOperation]:
    report = _report(label, formatter, runtime.output)
    named = {path for path in (inv.place(p) for p in report.changed or ()) if path}
    unchanged = {path for path in (inv.place(p) for p in report.unchanged) if path}
    ops = [inv.op("edit", path, detail=f"reformatted by {label}") for path in sorted(named)]
    targets = operands if operands or not formatter.whole_project else [Arg(".", ".")]
    for arg in targets:
        path = inv.place(arg)
        if path is None:
            ops.append(inv.unplaced(f"{label} rewrites", arg))
        elif path in named or path in unchanged:
            continue
        elif _names_many(runtime, path, arg.value or ""):
            if (
                any(p.startswith(path.rstrip("/") + "/") for p in named)
                or report.changed is not None
            ):
                continue  # the report names what changed under it
            if report.count == 0:
                continue
            ops.append(
                inv.unknown(_unnamed(label, arg.value or ".", report.count, inv.failed), path)
            )
        elif report.count == 0 or report.changed is not None:
            continue  # its report names what it changed, or says it changed nothing
        elif inv.failed:
            ops.append(
                inv.unknown(
                    f"{label} exited non-zero; whether it fixed {arg.value} is not known", path
                )
            )
        else:
            ops.append(inv.op("edit", path, detail=f"reformatted by {label} {MAY_BE_UNCHANGED}"))
    return ops


def _names_many(runtime: Runtime, path: str, value: str) -> bool:
    """Whether an operand names a directory or a pattern rather than one file.

    Formatters are given source files, which have an extension: an operand
    without one that is not known to be a file (``src``, ``lib``) is taken
    for a directory.
    """
    if any(c in value for c in "*?[{") or value in (".", "./"):
        return True
    known = runtime.files.is_directory(path)
    if known is not None:
        return known
    return "." not in posixpath.basename(path.rstrip("/"))


def _unnamed(label: str, where: str, count: int | None, failed: bool) -> str:
    scope = "the project" if where in (".", "./") else where
    if count:
        return f"{label} fixed {count} file(s) under {scope} it does not name"
    if failed:
        return f"{label} exited non-zero with problems left; the files it fixed under {scope} are not known"
    return f"{label} rewrites files under {scope}; which ones changed is not known"


def _report(label: str, formatter: _Formatter, output: str | None) -> _Report:
    if not output:
        return _Report()
    program = label.split(" ", 1)[0]
    count = next((int(m.group(1)) for pattern in _COUNTS if (m := pattern.search(output))), None)
    if count is None and _UNCHANGED.search(output):
        count = 0  # "9 files left unchanged" and nothing reformatted
    pattern = _NAMED_CHANGES.get(program)
    if pattern is not None:
        found = tuple(m.group(1) for m in pattern.finditer(output))
        return _Report(
            changed=found or None, count=count if count is not None or not found else len(found)
        )
    if program == "prettier":
        lines = list(_PRETTIER_LINE.finditer(output))
        changed = tuple(m.group(1) for m in lines if not m.group(2))
        unchanged = tuple(m.group(1) for m in lines if m.group(2))
        return _Report(changed=changed if lines else None, unchanged=unchanged, count=count)
    if formatter.listed:
        listed = tuple(
            line.strip()
            for line in output.splitlines()
            if line.strip().endswith(formatter.listed) and " " not in line.strip()
        )
        return _Report(changed=listed, count=len(listed))
    return _Report(count=count)


def _project_script(
    inv: Invocation, runtime: Runtime, args: list[Arg]
) -> list[FileOperation] | None:
    """``npm run NAME``, ``pnpm NAME``, ``yarn NAME``, ``bun run NAME``: the script's own effects."""
    called = project_script(inv)
    if called is None:
        return None
    directory, script, extra, ran = called
    text = _script_text(runtime, directory, script)
    if text is not None:
        runtime.run_shell(" ".join([text, *extra]), directory, failed=inv.failed)
        return []
    if _FIXING_SCRIPT.search(script) or {"--fix", "--write"} & set(extra):
        runner = inv.program or ""
        shown = f"{runner} run {script}" if ran else f"{runner} {script}"
        return [
            inv.unknown(
                f"{shown} runs a project script that rewrites files; which ones is not known"
            )
        ]
    # A test, build or run of the project changes no file the trail follows; what
    # another script does is not known (the caller says it may change files).
    return [] if is_neutral_script(script) else None


def project_script(inv: Invocation) -> tuple[str | None, str, list[str], bool] | None:
    """When ``inv`` runs a package script: the project directory, the script's name, its extra
    arguments, and whether the runner was told ``run``."""
    runner = inv.program or ""
    if runner not in _SCRIPT_RUNNERS:
        return None
    parsed = parse_options(
        list(inv.args[1:]),
        long_values=("--prefix", "--cwd", "--dir", "--filter", "--workspace"),
        short_values="CFw",
        stop_at_operand=True,
    )
    where = parsed.value("--prefix", "--cwd", "--dir", "-C")
    directory = inv.place(where) if where else inv.place(".")
    words = [a.value for a in parsed.operands]
    if not words or words[0] is None:
        return None
    ran = words[0] in ("run", "run-script")
    if ran:
        words = words[1:]
    elif runner == "npm" and words[0] not in ("test", "t", "start", "stop", "restart"):
        return None  # npm runs other scripts only through `npm run`
    elif runner == "bun" or words[0] in _RUNNER_COMMANDS:
        return None
    if not words or words[0] is None:
        return None
    return directory, words[0], [w for w in words[1:] if w is not None and w != "--"], ran


def _script_text(runtime: Runtime, directory: str | None, script: str) -> str | None:
    """The command of ``script`` in the nearest ``package.json`` whose content the trail knows."""
    while directory:
        content = runtime.files.content_of(posixpath.join(directory, "package.json"))
        if content is not None:
            try:
                scripts = json.loads(content).get("scripts", {})
            except (ValueError, AttributeError):
                return None
            value = scripts.get(script) if isinstance(scripts, dict) else None
            return value if isinstance(value, str) else None
        parent = posixpath.dirname(directory)
        if parent == directory:
            return None
        directory = parent
    return None
