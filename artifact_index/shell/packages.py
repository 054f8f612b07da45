"""Package managers: the manifest and lock files their commands change.

Adding or removing a dependency rewrites the project's manifest and its lock
file, whichever tool does it, and agents do it through the shell far more
often than by editing either file.  What is recorded:

* A subcommand that adds or removes packages (``npm install zod``, ``pnpm
  add``, ``yarn remove``, ``bun add``, ``cargo add``, ``go get``, ``poetry
  add``, ``uv add``, ``pipenv install requests``, ``bundle add``,
  ``composer require``) edits the manifest and the lock file.
* A subcommand that re-resolves the lock (``cargo update``, ``uv lock``,
  ``poetry lock``, ``yarn upgrade``) edits the lock file.
* An install with no package (``npm install``, ``pnpm install``, ``uv
  sync``, ``poetry install``) writes the lock file when it is missing or out
  of date; whether it did is not known, so it is an ``unknown`` effect that
  names the lock file.  So is ``go mod tidy``.  In a project whose manifest
  this session created and whose lock file is not known to exist, the
  lock is missing: a successful install writes it (unless an option such
  as ``--frozen`` or ``--no-package-lock`` keeps the lock alone).
* ``npm init`` writes ``package.json`` and ``go mod init`` creates ``go.mod``;
  ``pip-compile`` and ``uv pip compile -o`` write their output file;
  ``pipreqs`` writes ``requirements.txt``.  ``pip install`` changes no
  project file.
* A global install (``-g``), ``--no-save`` and ``npm ci`` change nothing in
  the project.

The project is the directory the tool's own option names (``npm --prefix``,
``pnpm -C``, ``yarn --cwd``, ``cargo --manifest-path``, ``uv --directory``,
``poetry -C``, ``go -C``), else the nearest directory from the working
directory up whose manifest the trail knows, else the working directory.
The lock file is the one the trail knows to exist (``bun.lockb`` or
``bun.lock``, ``npm-shrinkwrap.json`` or ``package-lock.json``), searched
up to the workspace root as workspaces keep one lock at the top.  It is
``written`` (so called created when nothing else is known) when the
manifest itself is new in this session, and ``edited`` otherwise: a project
that has a manifest almost always has its lock file.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from artifact_index.ingestion.events import FileOperation
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.expand import Arg
from artifact_index.shell.invocation import Invocation, Parsed, Runtime, parse_options

__all__ = ["PACKAGE_MANAGERS", "expo_install_effects", "package_effects"]


@dataclass(frozen=True)
class _Tool:
    manifest: str
    locks: tuple[str, ...]  # lock file names; the first is used when none is known
    changes: frozenset[str]  # subcommands that add or remove the packages they name
    lock_only: frozenset[str] = frozenset()  # subcommands that re-resolve the lock
    resolves: frozenset[str] = frozenset()  # installs that, given no package, resolve the manifest
    directory_options: tuple[str, ...] = ()
    value_options: tuple[str, ...] = ()  # long options that take a value
    short_values: str = ""  # short options that take a value
    no_save: tuple[str, ...] = ("-g", "--global")
    builds: frozenset[str] = (
        frozenset()
    )  # builds that first bring the lock in line with the manifest


_JS_VALUES = (
    "--registry",
    "--tag",
    "--cache",
    "--userconfig",
    "--omit",
    "--include",
    "--save-prefix",
)
_TOOLS: dict[str, _Tool] = {
    "npm": _Tool(
        "package.json",
        ("package-lock.json", "npm-shrinkwrap.json"),
        changes=frozenset(
            {
                "install",
                "i",
                "in",
                "isntall",
                "add",
                "uninstall",
                "remove",
                "rm",
                "r",
                "un",
                "unlink",
            }
        ),
        lock_only=frozenset({"update", "up", "upgrade", "dedupe", "prune"}),
        resolves=frozenset({"install", "i", "in", "isntall", "add"}),
        directory_options=("--prefix",),
        value_options=(*_JS_VALUES, "--workspace"),
        short_values="w",
        no_save=("-g", "--global", "--no-save", "--dry-run"),
    ),
    "pnpm": _Tool(
        "package.json",
        ("pnpm-lock.yaml",),
        changes=frozenset({"add", "install", "i", "remove", "rm", "uninstall", "un"}),
        lock_only=frozenset({"update", "up", "upgrade", "dedupe"}),
        resolves=frozenset({"install", "i"}),
        directory_options=("-C", "--dir"),
        value_options=(*_JS_VALUES, "--filter", "--dir"),
        short_values="CF",
        no_save=("-g", "--global", "--dry-run"),
    ),
    "yarn": _Tool(
        "package.json",
        ("yarn.lock",),
        changes=frozenset({"add", "remove"}),
        lock_only=frozenset({"upgrade", "up"}),
        resolves=frozenset({"install", ""}),
        directory_options=("--cwd",),
        value_options=(*_JS_VALUES, "--cwd"),
    ),
    "bun": _Tool(
        "package.json",
        ("bun.lock", "bun.lockb"),
        changes=frozenset({"add", "a", "remove", "rm", "install", "i"}),
        lock_only=frozenset({"update"}),
        resolves=frozenset({"install", "i"}),
        directory_options=("--cwd",),
        value_options=(*_JS_VALUES, "--cwd"),
        no_save=("-g", "--global", "--no-save"),
    ),
    "cargo": _Tool(
        "Cargo.toml",
        ("Cargo.lock",),
        changes=frozenset({"add", "remove", "rm"}),
        lock_only=frozenset({"update", "generate-lockfile"}),
        builds=frozenset(
            {"build", "b", "check", "c", "test", "t", "run", "r", "clippy", "bench", "doc", "fix"}
        ),
        value_options=(
            "--manifest-path",
            "--package",
            "--features",
            "--rename",
            "--registry",
            "--target",
        ),
        short_values="pF",
    ),
    "swift": _Tool(
        "Package.swift",
        ("Package.resolved",),
        changes=frozenset(),
        builds=frozenset({"build", "test", "run"}),
        directory_options=("--package-path",),
        value_options=("--package-path", "--product", "--target", "--configuration", "-c"),
        short_values="c",
        no_save=("--disable-automatic-resolution", "--only-use-versions-from-resolved-file"),
    ),
    "poetry": _Tool(
        "pyproject.toml",
        ("poetry.lock",),
        changes=frozenset({"add", "remove"}),
        lock_only=frozenset({"lock", "update"}),
        resolves=frozenset({"install"}),
        directory_options=("-C", "--directory", "-P", "--project"),
        value_options=("--directory", "--project", "--group", "--source", "--extras", "--python"),
        short_values="CPGE",
        no_save=("--dry-run",),
    ),
    "uv": _Tool(
        "pyproject.toml",
        ("uv.lock",),
        changes=frozenset({"add", "remove"}),
        lock_only=frozenset({"lock"}),
        resolves=frozenset({"sync"}),
        directory_options=("--directory", "--project"),
        value_options=(
            "--directory",
            "--project",
            "--group",
            "--optional",
            "--index",
            "--python",
            "--script",
            "--package",
            "--extra",
            "--requirements",
            "--constraints",
        ),
        short_values="prc",
        no_save=("--dry-run",),
    ),
    "pdm": _Tool(
        "pyproject.toml",
        ("pdm.lock",),
        changes=frozenset({"add", "remove"}),
        lock_only=frozenset({"lock", "update"}),
        resolves=frozenset({"install", "sync"}),
        directory_options=("-p", "--project"),
        value_options=("--project", "--group"),
        short_values="pG",
        no_save=("-g", "--global", "--dry-run"),
    ),
    "pipenv": _Tool(
        "Pipfile",
        ("Pipfile.lock",),
        changes=frozenset({"install", "uninstall"}),
        lock_only=frozenset({"lock", "update", "upgrade"}),
        resolves=frozenset({"install"}),
        value_options=("--python", "--categories"),
    ),
    "bundle": _Tool(
        "Gemfile",
        ("Gemfile.lock",),
        changes=frozenset({"add", "remove"}),
        lock_only=frozenset({"update", "lock"}),
        resolves=frozenset({"install"}),
        value_options=("--version", "--group", "--source", "--gemfile"),
    ),
    "composer": _Tool(
        "composer.json",
        ("composer.lock",),
        changes=frozenset({"require", "remove"}),
        lock_only=frozenset({"update", "upgrade"}),
        resolves=frozenset({"install"}),
        directory_options=("-d", "--working-dir"),
        value_options=("--working-dir",),
        short_values="d",
        no_save=("-g", "--global", "--dry-run"),
    ),
}

PACKAGE_MANAGERS = frozenset({*_TOOLS, "go", "pip-compile", "pipreqs", "pip", "pip3"})
"""Programs :func:`package_effects` knows."""


def package_effects(inv: Invocation, runtime: Runtime) -> list[FileOperation] | None:
    """The project files a package-manager command changes; None when ``inv`` is no such command."""
    ops = _effects(inv, runtime)
    if ops is not None and inv.failed and not _saved_lock(runtime.output):
        return []  # a failed install changed nothing, unless it says it saved the lock
    return ops


# `expo install` chooses the project's package manager by these options, else by the lock file it finds.
_EXPO_MANAGERS = {"--npm": "npm", "--yarn": "yarn", "--pnpm": "pnpm", "--bun": "bun"}


def expo_install_effects(inv: Invocation, runtime: Runtime) -> list[FileOperation] | None:
    """``npx expo install X``: the project's package manager adds X (its manifest and lock); None for another ``expo`` command.

    ``expo install --check`` only reports; ``expo install --fix`` (or with no
    package) brings the versions in line, as an install of the manifest does.
    """
    parsed = parse_options(list(inv.args[1:]))
    operands = [a for a in parsed.operands]
    if not operands or operands[0].value not in ("install", "add"):
        return None
    if parsed.has("--check"):
        return []
    packages = operands[1:]
    chosen = next((_EXPO_MANAGERS[o] for o, _ in parsed.options if o in _EXPO_MANAGERS), None)
    manager = chosen or _manager_by_lock(inv, runtime)
    if parsed.has("--fix") and not packages:
        manifest = inv.place("package.json")
        return (
            [inv.op("edit", manifest, detail="expo install --fix: dependency versions changed")]
            if manifest
            else []
        )
    verb = "install" if manager == "npm" else "add" if packages else "install"
    return _effects(inv.with_args([Arg(manager, manager), Arg(verb, verb), *packages]), runtime)


def _manager_by_lock(inv: Invocation, runtime: Runtime) -> str:
    """The package manager whose lock file the project (the working directory) has; npm when none is known."""
    for manager in ("bun", "pnpm", "yarn", "npm"):
        for lock in _TOOLS[manager].locks:
            path = inv.place(lock)
            if path is not None and _exists(runtime, path):
                return manager
    return "npm"


# bun and yarn say when they wrote the lock file (`Saved lockfile`, `success Saved lockfile.`).
_SAVED_LOCK = lazy_pattern(r"^\s*(?:success )?Saved lockfile\b", re.MULTILINE)


# Options under which an install leaves the lock file alone (or only checks it).
_KEEPS_LOCK = frozenset(
    {
        "--frozen",
        "--locked",
        "--no-lock",
        "--frozen-lockfile",
        "--no-lockfile",
        "--pure-lockfile",
        "--no-package-lock",
        "--package-lock=false",
        "--dry-run",
        "--check",
        "--immutable",
    }
)


# Options under which re-resolving the lock only verifies it: it fails when the lock is out of date and writes nothing.
_LOCK_CHECKS = ("--check", "--check-exists", "--locked", "--frozen", "--dry-run")


def _saved_lock(output: str | None) -> bool:
    return output is not None and "Saved lockfile" in output and bool(_SAVED_LOCK.search(output))


def _effects(inv: Invocation, runtime: Runtime) -> list[FileOperation] | None:
    name = inv.program or ""
    if name == "go":
        return _go(inv, runtime)
    if name in ("pip-compile", "pipreqs"):
        return _requirements_writer(inv, runtime)
    if name in ("pip", "pip3"):
        return []  # installs into an environment, not into the project
    tool = _TOOLS.get(name)
    if tool is None:
        return None
    args = list(inv.args[1:])
    if name == "uv" and args and args[0].value == "pip":
        return _uv_pip(inv, runtime)
    # A directory option always takes the directory: `npm install --prefix client zod` installs zod in client/,
    # never a package named "client".
    long_values = (*tool.value_options, *(o for o in tool.directory_options if o.startswith("--")))
    parsed = parse_options(args, short_values=tool.short_values, long_values=long_values)
    operands = [a.value for a in parsed.operands]
    sub = operands[0] if operands else ""
    packages = operands[1:]
    if sub is None or parsed.has(*tool.no_save):
        return []
    if sub == "init" and name in ("npm", "pnpm", "yarn"):
        manifest = _place(inv, _project(inv, runtime, tool, parsed, walk=False), tool.manifest)
        return [inv.op("write", manifest, detail=f"{name} init writes it")] if manifest else []
    if sub in tool.builds:
        return _build(inv, runtime, tool, parsed, f"{name} {sub}")
    if sub not in tool.changes | tool.lock_only | tool.resolves:
        return None  # a script, a build, a test run: not a dependency change
    if sub in tool.lock_only and parsed.has(*_LOCK_CHECKS):
        return []  # `uv lock --check`, `cargo update --locked`: verifies the lock, writes nothing
    if name == "uv" and parsed.value("--script"):
        script = inv.place(parsed.value("--script"))
        return (
            [inv.op("edit", script, detail=f"uv {sub} changes the script's inline dependencies")]
            if script
            else []
        )
    if name == "pnpm" and parsed.value("--filter", "-F"):
        return [
            inv.unknown(
                f"pnpm {sub} --filter changes the manifest of a workspace package that is not named by path"
            )
        ]
    project = _project(inv, runtime, tool, parsed, walk=True)
    if project is None:
        return [inv.unknown(f"{name} {sub} changes a project in a directory that cannot be placed")]
    if name == "npm" and parsed.value("--workspace", "-w"):
        member = parsed.value("--workspace", "-w") or ""
        manifest = _place(inv, posixpath.join(project, member), tool.manifest)
    else:
        manifest = _place(inv, project, tool.manifest)
    lock = _lock(inv, runtime, tool, project)
    if manifest is None or lock is None:
        return [inv.unknown(f"{name} {sub} changes a project in a directory that cannot be placed")]
    what = " ".join(p for p in packages if p) or None
    if sub in tool.changes and what:
        return [
            inv.op("edit", manifest, detail=f"{name} {sub} {what}: dependencies changed"),
            _lock_op(inv, runtime, lock, manifest, f"{name} {sub} {what}"),
        ]
    if sub in tool.lock_only or _saved_lock(runtime.output):
        return [_lock_op(inv, runtime, lock, manifest, f"{name} {sub}")]
    if (
        not inv.failed
        and runtime.files.existed_before(manifest) is False
        and not _exists(runtime, lock)
        and not any(option in _KEEPS_LOCK for option, _ in parsed.options)
    ):
        # A project this session created has no lock yet: resolving it writes one.
        return [
            _lock_op(inv, runtime, lock, manifest, f"{name} {sub or 'install'} of a new project")
        ]
    return [
        inv.unknown(
            f"{name} {sub or 'install'} writes {posixpath.basename(lock)} when it is missing or out of "
            "date; whether it changed is not known",
            lock,
        )
    ]


def _build(
    inv: Invocation, runtime: Runtime, tool: _Tool, parsed: Parsed, shown: str
) -> list[FileOperation] | None:
    """A build after the session changed the manifest re-resolves the lock first (``cargo check``
    after a dependency was dropped or the version bumped): whether the lock changed is not known.
    """
    if parsed.has("--locked", "--frozen", "--offline"):
        return None  # the lock is used as it is, or the build refuses
    project = _project(inv, runtime, tool, parsed, walk=True)
    manifest = _place(inv, project, tool.manifest)
    if project is None or manifest is None or not runtime.files.changed_here(manifest):
        return None
    lock = _lock(inv, runtime, tool, project)
    if lock is None:
        return None
    return [
        inv.unknown(
            f"{shown} brings {posixpath.basename(lock)} in line with {tool.manifest}, which this "
            "session changed; whether it changed is not known",
            lock,
        )
    ]


def _place(inv: Invocation, directory: str | None, name: str) -> str | None:
    return posixpath.join(directory, name) if directory is not None else None


def _exists(runtime: Runtime, path: str) -> bool:
    return runtime.files.exists(path) is True


def _project(
    inv: Invocation, runtime: Runtime, tool: _Tool, parsed: Parsed, *, walk: bool
) -> str | None:
    """The project directory: the tool's own option, else the nearest known manifest up from the cwd."""
    if parsed.value("--manifest-path") is not None:
        manifest = inv.place(parsed.value("--manifest-path"))
        return posixpath.dirname(manifest) if manifest else None
    for option in tool.directory_options:
        value = parsed.value(option)
        if value is not None:
            return inv.place(value)
    start = inv.place(".")
    if start is None or not walk:
        return start
    directory = start
    workspace = runtime.files.workspace
    while True:
        if _exists(runtime, posixpath.join(directory, tool.manifest)):
            return directory
        parent = posixpath.dirname(directory)
        if parent == directory or (
            workspace and not directory.startswith(workspace.rstrip("/") + "/")
        ):
            return start
        directory = parent


def _lock(inv: Invocation, runtime: Runtime, tool: _Tool, project: str) -> str | None:
    """The lock file the trail knows, from the project up to the workspace root; else the default next to the manifest."""
    directory = project
    workspace = runtime.files.workspace
    while True:
        for name in tool.locks:
            candidate = posixpath.join(directory, name)
            if _exists(runtime, candidate):
                return candidate
        parent = posixpath.dirname(directory)
        if (
            parent == directory
            or not workspace
            or not directory.startswith(workspace.rstrip("/") + "/")
        ):
            break
        directory = parent
    return posixpath.join(project, tool.locks[0])


def _lock_op(
    inv: Invocation, runtime: Runtime, lock: str, manifest: str, why: str
) -> FileOperation:
    new_project = runtime.files.existed_before(manifest) is False and not _exists(runtime, lock)
    detail = f"{why}: lock file rewritten"
    return (
        inv.op("write", lock, detail=detail) if new_project else inv.op("edit", lock, detail=detail)
    )


def _go(inv: Invocation, runtime: Runtime) -> list[FileOperation] | None:
    parsed = parse_options(inv.args[1:], short_values="C")
    operands = [a.value for a in parsed.operands]
    base = inv.place(parsed.value("-C")) if parsed.value("-C") else inv.place(".")
    if not operands or base is None:
        return None
    module = _nearest(runtime, base, "go.mod")
    go_mod, go_sum = posixpath.join(module, "go.mod"), posixpath.join(module, "go.sum")
    if operands[0] == "get" and any(o for o in operands[1:] if o and not o.startswith("-")):
        what = " ".join(o for o in operands[1:] if o)
        return [
            inv.op("edit", go_mod, detail=f"go get {what}: dependencies changed"),
            _lock_op(inv, runtime, go_sum, go_mod, f"go get {what}"),
        ]
    if operands[0] in ("build", "test"):
        return _go_binary(inv, operands[0])
    if operands[:2] == ["mod", "init"]:
        return [inv.op("create", go_mod, detail="go mod init creates it")]
    if operands[:2] == ["mod", "tidy"]:
        return [
            inv.unknown(
                "go mod tidy may rewrite go.mod and go.sum; whether they changed is not known",
                go_mod,
            )
        ]
    return None


def _go_binary(inv: Invocation, sub: str) -> list[FileOperation] | None:
    """``go build -o F`` / ``go test -c -o F``: the binary it writes (a directory ``-o dir/`` is not named)."""
    args = [a.value for a in inv.args[1:]]
    for k, value in enumerate(args):
        out = None
        if value in ("-o", "--o") and k + 1 < len(args):
            out = args[k + 1]
        elif value is not None and value.startswith(("-o=", "--o=")):
            out = value.split("=", 1)[1]
        if out is None:
            continue
        placed = inv.place(out) if out and not out.endswith("/") else None
        return (
            [inv.op("write", placed, detail=f"go {sub} -o writes the binary")] if placed else None
        )
    return None


def _nearest(runtime: Runtime, start: str, name: str) -> str:
    directory = start
    while True:
        if _exists(runtime, posixpath.join(directory, name)):
            return directory
        parent = posixpath.dirname(directory)
        if parent == directory:
            return start
        directory = parent


def _requirements_writer(inv: Invocation, runtime: Runtime) -> list[FileOperation]:
    """``pip-compile [SRC] [-o OUT]`` and ``pipreqs [DIR] [--savepath F]`` write a requirements file."""
    if inv.program == "pipreqs":
        parsed = parse_options(
            inv.args[1:],
            long_values=("--savepath", "--encoding", "--pypi-server", "--proxy", "--mode"),
        )
        if parsed.has("--print"):
            return []
        directory = parsed.operands[0].value if parsed.operands else "."
        out = parsed.value("--savepath") or posixpath.join(directory or ".", "requirements.txt")
    else:
        parsed = parse_options(
            inv.args[1:],
            short_values="oc",
            long_values=("--output-file", "--extra", "--constraint"),
        )
        if parsed.has("--dry-run"):
            return []
        source = parsed.operands[0].value if parsed.operands else None
        default = "requirements.txt"
        if source and source.endswith(".in"):
            default = source[: -len(".in")] + ".txt"
        elif source:
            default = posixpath.join(posixpath.dirname(source), "requirements.txt")
        out = parsed.value("-o", "--output-file") or default
    path = inv.place(out)
    if path is None or out == "-":
        return []
    return [inv.op("write", path, detail=f"{inv.program} writes the pinned requirements")]


def _uv_pip(inv: Invocation, runtime: Runtime) -> list[FileOperation]:
    """``uv pip compile SRC -o OUT`` writes OUT; every other ``uv pip`` command works on an environment."""
    args = list(inv.args[2:])
    if not args or args[0].value != "compile":
        return []
    parsed = parse_options(
        args[1:], short_values="oc", long_values=("--output-file", "--constraint", "--python")
    )
    out = parsed.value("-o", "--output-file")
    path = inv.place(out) if out else None
    return (
        [inv.op("write", path, detail="uv pip compile writes the pinned requirements")]
        if path
        else []
    )
