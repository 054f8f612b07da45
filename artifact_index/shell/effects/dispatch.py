"""Which handler computes a command's effects: the program found behind its wrappers, then looked up.

The programs that run other commands (``xargs``, ``find -exec``, ``bash -c``,
``python``, ``node``, a script run by path) recurse into
:func:`command_effects`, so they live here beside it; the leaf handlers are in
:mod:`.output`, :mod:`.editors` and :mod:`.files`.
"""

from __future__ import annotations

import posixpath

from artifact_index.ingestion.events import FileOperation
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.effects.converters import CONVERTERS
from artifact_index.shell.effects.editors import apply_patch, awk, ed, patch, perl, sed
from artifact_index.shell.effects.effect import UNNAMED_READ, Effect, Handler
from artifact_index.shell.effects.files import (
    cp,
    dd,
    download,
    gh,
    git,
    install,
    ln,
    mkdir,
    mv,
    rm,
    sponge,
    tee,
    touch,
    truncate,
)
from artifact_index.shell.effects.output_commands import cat, echo, printf, reader
from artifact_index.shell.effects.output_options import output_option_writes
from artifact_index.shell.effects.reported_saves import reported_saves
from artifact_index.shell.expand import Arg
from artifact_index.shell.find_search import found_files, search_roots
from artifact_index.shell.formatters import FORMATTER_PROGRAMS, format_effects, project_script
from artifact_index.shell.generators import GENERATOR_PROGRAMS, generator_effects, is_generator
from artifact_index.shell.invocation import Invocation, Runtime, parse_options, program_name
from artifact_index.shell.neutral import NEUTRAL_PROGRAMS
from artifact_index.shell.packages import PACKAGE_MANAGERS, expo_install_effects, package_effects
from artifact_index.shell.scripts import javascript_effects, python_effects
from artifact_index.shell.snapshots import snapshot_update
from artifact_index.shell.wrappers import unwrap_args

__all__ = ["command_effects"]

_SHELLS = {"bash", "sh", "zsh", "dash", "ksh", "ash"}
_READERS = {"cat", "head", "tail", "nl", "less", "more", "bat", "batcat", "tac", "view"}


def command_effects(inv: Invocation, runtime: Runtime) -> Effect:
    """The effects of one simple command (``inv.args[0]`` is the program)."""
    inv = _unwrap(inv)
    effect = _program_effects(inv, runtime)
    rewritten = snapshot_update(inv)
    if rewritten is not None:
        # Whether it passed or failed, the run may have written the expectations of the tests it ran.
        effect.operations.append(rewritten)
    return effect


def _program_effects(inv: Invocation, runtime: Runtime) -> Effect:
    name = inv.program
    if name is None:
        # `"$EDITOR" file`, `$CMD a b`: the program is only known at run time.
        if len(inv.args) > 1 and not inv.failed:
            return Effect(
                [
                    inv.unknown(f"runs a command known only at run time ({inv.args[0].raw})"),
                    *reported_saves(inv, runtime),
                ]
            )
        return Effect()
    handler = _HANDLERS.get(name) or _family_handler(name)
    if handler is None:
        if _is_script_path(inv.args[0].value) and not inv.failed:
            return _run_file(inv, runtime, inv.args[0])
        neutral = name in NEUTRAL_PROGRAMS
        saved = reported_saves(inv, runtime) if not neutral else []
        named = [op for op in output_option_writes(inv) if op.path not in {s.path for s in saved}]
        return Effect([*saved, *named], opaque=not inv.failed and not neutral)
    if inv.failed and handler not in _RUN_WHEN_FAILED:
        return Effect()
    effect = handler(inv, runtime)
    if handler in _READING_HANDLERS:
        unnamed = _unnamed_read(inv, effect)
        if unnamed is not None:
            effect.operations.append(unnamed)
    return effect


# The handlers of programs that read the files they are given: a file among them that cannot be
# named (a loop's variable over a glob, `xargs cat`, `find -exec cat {}`) is still read.
_READING_HANDLERS: frozenset[Handler] = frozenset({cat, reader, sed, awk})


# The options of sed and awk that give the script (or a variable) instead of the first operand.
_SCRIPT_OPTIONS = frozenset({"-e", "-f", "--expression", "--file", "-v"})
# A command substitution or backquoted command inside a word: its spaces are no part of a path.
_SUBSTITUTION = lazy_pattern(r"\$\((?:[^()]|\([^()]*\))*\)|`[^`]*`")


def _may_be_a_path(raw: str) -> bool:
    """Whether a word whose value is known only at run time may name files: not text with spaces.

    ``<arguments read by xargs>`` is no shell word (an unquoted `<` is a redirection) but
    what xargs gives its command: files, for a reader.
    """
    if raw.startswith("<") and raw.endswith(">"):
        return True
    return not any(ch.isspace() for ch in _SUBSTITUTION.sub("", raw))


def _unnamed_read(inv: Invocation, effect: Effect) -> FileOperation | None:
    """A read of files known only at run time, when ``inv`` reads some; None when it names them all.

    It has no path: the trail cannot list its files, but a count of the files read must not
    pass for all of them.
    """
    if any(op.action == "unknown" for op in effect.operations):
        return None  # an in-place edit of such files already says so
    args = list(inv.args[1:])
    if inv.program in ("sed", "awk", "gawk") and not any(
        (arg.value or "").split("=")[0] in _SCRIPT_OPTIONS for arg in args
    ):
        # Their first operand is the script (`sed -n "$(grep -n … f)p" f`), not a file.
        first = next((k for k, a in enumerate(args) if not (a.value or "x").startswith("-")), None)
        if first is not None:
            del args[first]
    unplaced = [
        arg
        for k, arg in enumerate(args)
        if (arg.value is None or arg.glob)
        and not (k and (args[k - 1].value or "") in _SCRIPT_OPTIONS)
        and _may_be_a_path(arg.raw)
    ]
    if not unplaced:
        return None
    named = ", ".join(arg.raw for arg in unplaced[:3])
    return inv.op("read", None, detail=f"{UNNAMED_READ} ({named})")


def _is_script_path(value: str | None) -> bool:
    """``./fix.sh`` or ``scripts/run.py`` is a script; ``.venv/bin/pytest`` is an installed program.

    A Windows virtual environment keeps its programs in ``Scripts``
    (``venv/Scripts/python.exe``), and one ending in ``.exe`` is never a script's text.
    """
    if value is None or "/" not in value or value.lower().endswith(".exe"):
        return False
    parent = posixpath.basename(posixpath.dirname(value))
    return parent not in ("bin", ".bin", "sbin", "Scripts")


def _family_handler(name: str) -> Handler | None:
    if is_generator(name):
        return _toolchain  # a starter or component generator a package runner fetched
    if name.startswith(("python", "pypy")) and _version_suffix(
        name.removeprefix("python").removeprefix("pypy")
    ):
        return _python
    return None


def _version_suffix(rest: str) -> bool:
    return all(ch.isdigit() or ch == "." for ch in rest)


def _unwrap(inv: Invocation) -> Invocation:
    """The command behind the wrappers (``sudo``, ``timeout 60``, ``uv run``): the one with effects."""
    for _ in range(8):
        inner = unwrap_args(inv.args)
        if inner is None:
            return inv
        inv = inv.with_args(inner)
    return inv


def _expo(inv: Invocation, runtime: Runtime) -> Effect:
    """``expo install X`` adds a package with the project's package manager; its other commands
    (``prebuild``, ``export``) write files they do not name."""
    ops = expo_install_effects(inv, runtime)
    return Effect(ops) if ops is not None else Effect(opaque=True)


def _toolchain(inv: Invocation, runtime: Runtime) -> Effect:
    """Package managers, generators, formatters and project scripts (see their modules).

    ``bun FILE`` / ``bun run FILE`` / ``deno run FILE`` run a program whose effects come
    from its text; a project script none of the modules knows may change anything.
    """
    script = _script_file(inv)
    if script is not None:
        return Effect() if inv.failed else _run_file(inv, runtime, script, interpreter="node")
    for effects in (package_effects, generator_effects, format_effects):
        ops = effects(inv, runtime)
        if ops is not None:
            return Effect(ops)
    return Effect(opaque=not inv.failed and project_script(inv) is not None)


_SCRIPT_EXTENSIONS = (".ts", ".tsx", ".mts", ".cts", ".js", ".mjs", ".cjs", ".jsx")


def _script_file(inv: Invocation) -> Arg | None:
    """The program file ``bun`` or ``deno`` runs, if that is what the command does."""
    if inv.program not in ("bun", "deno"):
        return None
    operands = [a for a in inv.args[1:] if not (a.value or "").startswith("-")]
    if operands and operands[0].value == "run":
        operands = operands[1:]
    elif inv.program == "deno":
        return None
    first = operands[0] if operands else None
    if first is None or first.value is None or not first.value.endswith(_SCRIPT_EXTENSIONS):
        return None
    return first


# Commands that run other commands: they recurse into :func:`command_effects`, so they live beside it.


def _xargs(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(
        inv.args[1:],
        short_values="aEdILnPs",
        long_values=(
            "--arg-file",
            "--delimiter",
            "--max-args",
            "--max-procs",
            "--max-lines",
            "--replace",
            "--eof",
            "--max-chars",
        ),
        stop_at_operand=True,
    )
    inner = list(parsed.operands) or [Arg("echo", "echo")]
    unknown = Arg(None, "<arguments read by xargs>")
    replace = parsed.value("-I", "--replace", "-i")
    if replace:
        inner = [unknown if a.value is not None and replace in a.value else a for a in inner]
    else:
        inner.append(unknown)
    return command_effects(inv.with_args(inner), runtime)


def _find(inv: Invocation, runtime: Runtime) -> Effect:
    args = list(inv.args[1:])
    found = found_files(inv, runtime)
    ops: list[FileOperation] = []
    i = 0
    while i < len(args):
        value = args[i].value
        i += 1
        if value == "-delete":
            ops.append(inv.unknown("find -delete removes files that are only known at run time"))
        elif value in ("-exec", "-execdir", "-ok", "-okdir"):
            inner: list[Arg] = []
            while i < len(args) and args[i].value not in (";", "+"):
                inner.append(args[i])
                i += 1
            i += 1
            if not inner:
                continue
            # Run once for each known file the search matches, as a glob over them would;
            # with none known, `{}` is a path known only at run time.
            for path in found:
                each = [_found_in(arg, path) for arg in inner]
                ops.extend(command_effects(inv.with_args(each), runtime).operations)
            unseen = command_effects(
                inv.with_args([_found_in(arg, None) for arg in inner]), runtime
            ).operations
            if not found:
                ops.extend(op for op in unseen if op.action != "unknown")
            if any(op.action != "read" for op in unseen):
                # It may also change matching files the trail does not know, maybe read later
                # (see trail.script_reach: the command's quoted pattern says which).
                roots = search_roots(inv)
                where = f" under {', '.join(roots)}" if roots else ""
                program = " ".join(a.raw for a in inner[:2])
                ops.append(inv.unknown(_FIND_WRITES.format(where=where, program=program)))
    # What it reads is not listed (the search's files are not the session's reads), but that it
    # read files the trail cannot name is kept.
    return Effect([op for op in ops if op.action != "read" or op.path is None])


_FIND_WRITES = (
    "find code writes the files its search{where} matches (`{program}`), at paths computed at"
    " run time"
)


def _found_in(arg: Arg, path: str | None) -> Arg:
    """``arg`` of a ``find -exec`` command with ``{}`` standing for ``path`` (None: not known)."""
    if arg.value is None or "{}" not in arg.value:
        return arg
    if path is None:
        return Arg(None, "{}")
    value = arg.value.replace("{}", path)
    return Arg(value, value)


def _shell(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(inv.args[1:], short_values="oO", long_values=("--rcfile", "--init-file"))
    flags = {name for name, _ in parsed.options}
    if "-n" in flags:
        return Effect()  # syntax check only
    if "-c" in flags:
        if not parsed.operands:
            return Effect()
        code = parsed.operands[0].value
        if code is None:
            return Effect(
                [] if inv.failed else [inv.unknown("runs a shell script known only at run time")]
            )
        runtime.run_shell(code, inv.cwd, failed=inv.failed)
        return Effect()
    if parsed.operands and "-s" not in flags:
        if inv.failed:
            return Effect()
        return _run_file(inv, runtime, parsed.operands[0], interpreter="bash")
    if inv.stdin is not None:
        runtime.run_shell(inv.stdin, inv.cwd, failed=inv.failed)
        return Effect()
    if inv.failed:
        return Effect()
    return Effect(
        [inv.unknown(f"{inv.program} reads its script from standard input, which is not known")]
    )


# PowerShell's command-line parameters that take a value (any unambiguous prefix is accepted).
_POWERSHELL_VALUES = (
    "-executionpolicy",
    "-ep",
    "-windowstyle",
    "-configurationname",
    "-outputformat",
    "-inputformat",
    "-workingdirectory",
    "-wd",
    "-settingsfile",
)


def _powershell(inv: Invocation, runtime: Runtime) -> Effect:
    """``pwsh -NoProfile -Command "Remove-Item x"`` from another shell: the PowerShell code runs.

    Everything after ``-Command`` is the code; ``-File script.ps1 ARGS`` runs a
    script, known only by its output parameters when its text is not known.
    """
    args = list(inv.args[1:])
    k = 0
    while k < len(args):
        word = (args[k].value or "").lower()
        if len(word) > 1 and "-command".startswith(word):
            code = [a.value for a in args[k + 1 :]]
            if not code or any(c is None for c in code):
                return Effect(
                    []
                    if inv.failed
                    else [inv.unknown("runs PowerShell code known only at run time")]
                )
            runtime.run_shell(
                " ".join(c for c in code if c is not None),
                inv.cwd,
                failed=inv.failed,
                dialect="powershell",
            )
            return Effect()
        if len(word) > 1 and "-file".startswith(word) and k + 1 < len(args):
            if inv.failed:
                return Effect()
            script = inv.with_args(args[k + 1 :])
            ran = _run_file(script, runtime, args[k + 1])
            written = {op.path for op in ran.operations if op.action == "write"}
            named = [op for op in output_option_writes(script) if op.path not in written]
            return Effect([*ran.operations, *named])
        k += (
            2
            if any(name.startswith(word) for name in _POWERSHELL_VALUES)
            and word.startswith("-")
            and len(word) > 2
            else 1
        )
    return Effect()


def _python(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(
        inv.args[1:],
        short_values="cmWXQ",
        long_values=("--check-hash-based-pycs",),
        stop_at_operand=True,
    )
    flags = {name for name, _ in parsed.options}
    module = parsed.value("-m")
    if (
        module in _PYTHON_MODULES
    ):  # `python -m black src` is `black src`: what follows is the module's
        rest = list(inv.args[1:])
        start = next(
            i
            for i, a in enumerate(rest)
            if a.value is not None and (a.value == module or a.value == "-m" + module)
        )
        return command_effects(
            inv.with_args([Arg(_PYTHON_MODULES[module], module), *rest[start + 1 :]]), runtime
        )
    if flags & {"-m", "-V", "--version", "-h", "--help"}:
        return Effect()  # a module is a program like any other
    if "-c" in flags:
        code = parsed.value("-c")
        if code is None:
            return Effect([inv.unknown("python -c runs code known only at run time")])
        return Effect(python_effects(code, script=None, inv=inv, runtime=runtime))
    if parsed.operands and parsed.operands[0].value != "-":
        return _run_file(inv, runtime, parsed.operands[0], interpreter="python")
    if inv.stdin is not None:
        return Effect(python_effects(inv.stdin, script=None, inv=inv, runtime=runtime))
    if parsed.operands or inv.stdin_path is not None:
        return Effect(
            [inv.unknown("python reads its program from standard input, which is not known")]
        )
    return Effect()  # an interactive interpreter with nothing to run


def _node(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(
        inv.args[1:],
        short_values="eprC",
        long_values=("--eval", "--print", "--require", "--import", "--loader", "--conditions"),
        stop_at_operand=True,
    )
    flags = {name for name, _ in parsed.options}
    if flags & {"-c", "--check", "-v", "--version", "-h", "--help"}:
        return Effect()
    code = parsed.value("-e", "--eval", "-p", "--print")
    if flags & {"-e", "--eval", "-p", "--print"}:
        if code is None:
            return Effect([inv.unknown("node -e runs code known only at run time")])
        return Effect(javascript_effects(code, script=None, inv=inv, runtime=runtime))
    if parsed.operands and parsed.operands[0].value != "-":
        return _run_file(inv, runtime, parsed.operands[0], interpreter="node")
    if inv.stdin is not None:
        return Effect(javascript_effects(inv.stdin, script=None, inv=inv, runtime=runtime))
    return Effect()


def _run_file(
    inv: Invocation, runtime: Runtime, script: Arg, interpreter: str | None = None
) -> Effect:
    """Run a script file: its effects come from its text, when the text is known.

    Where that text does not say which file it writes (not known, or a path computed at run
    time), what the program printed that it saved, or the file an output option names, does.
    """
    ran = _script_effects(inv, runtime, script, interpreter)
    if any(op.action == "unknown" and op.path is None for op in ran.operations):
        saved = reported_saves(inv, runtime)
        known = {op.path for op in saved}
        named = [op for op in output_option_writes(inv) if op.path not in known]
        ran.operations.extend([*saved, *named])
    return ran


def _script_effects(
    inv: Invocation, runtime: Runtime, script: Arg, interpreter: str | None
) -> Effect:
    path = inv.place(script)
    shown = script.value or script.raw
    if path is None:
        return Effect([inv.unknown(f"runs {shown}, which cannot be located")])
    text = runtime.files.content_of(path)
    if text is None:
        return Effect([inv.unknown(f"runs {shown}, whose text is not known")])
    kind = interpreter or _interpreter_of(path, text)
    if kind == "python":
        position = next((k for k, a in enumerate(inv.args) if a is script), None)
        argv = (
            tuple(a.value if not a.glob else None for a in inv.args[position:])
            if position is not None
            else None
        )
        return Effect(python_effects(text, script=path, inv=inv, runtime=runtime, argv=argv))
    if kind == "node":
        return Effect(javascript_effects(text, script=path, inv=inv, runtime=runtime))
    if kind == "bash":
        runtime.run_shell(text, inv.cwd, failed=inv.failed)
        return Effect()
    return Effect([inv.unknown(f"runs {shown}; effects of this kind of program are not inferred")])


def _interpreter_of(path: str, text: str) -> str | None:
    first = text.split("\n", 1)[0]
    if first.startswith("#!"):
        words = first[2:].split()
        name = (
            program_name(
                words[-1] if words and words[0].endswith("/env") else (words[0] if words else "")
            )
            or ""
        )
        if name.startswith("python"):
            return "python"
        if name in _SHELLS:
            return "bash"
        if name in ("node", "deno", "bun"):
            return "node"
        return None
    ext = posixpath.splitext(path)[1]
    return {
        ".py": "python",
        ".sh": "bash",
        ".bash": "bash",
        ".js": "node",
        ".mjs": "node",
        ".cjs": "node",
    }.get(ext)


_HANDLERS: dict[str, Handler] = {
    "echo": echo,
    "printf": printf,
    "cat": cat,
    **{name: reader for name in _READERS - {"cat"}},
    "sed": sed,
    "gsed": sed,
    "perl": perl,
    "ruby": perl,
    "awk": awk,
    "gawk": awk,
    "ed": ed,
    "ex": ed,
    "rm": rm,
    "unlink": rm,
    "mv": mv,
    "cp": cp,
    "install": install,
    "ln": ln,
    "touch": touch,
    "mkdir": mkdir,
    "tee": tee,
    "sponge": sponge,
    "truncate": truncate,
    "dd": dd,
    "curl": download,
    "wget": download,
    "xargs": _xargs,
    "find": _find,
    **{name: _shell for name in _SHELLS},
    "pwsh": _powershell,
    "powershell": _powershell,
    "python": _python,
    "node": _node,
    "patch": patch,
    "apply_patch": apply_patch,
    "git": git,
    "gh": gh,
    "expo": _expo,
    **CONVERTERS,
    **{name: _toolchain for name in PACKAGE_MANAGERS | GENERATOR_PROGRAMS | FORMATTER_PROGRAMS},
}

# `python -m MODULE` runs these programs.
_PYTHON_MODULES = {
    "black": "black",
    "isort": "isort",
    "autopep8": "autopep8",
    "ruff": "ruff",
    "pip": "pip",
    "sphinx": "sphinx-build",
    "piptools": "pip-compile",
    "pyupgrade": "pyupgrade",
    "yapf": "yapf",
    "alembic": "alembic",
}

# Handlers that look inside a failed command: a failed script still ran its first steps.
_RUN_WHEN_FAILED: set[Handler] = {_shell, _xargs, rm, _toolchain, git}
