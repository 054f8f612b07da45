"""A simple command -> its file effects.

:func:`command_effects` looks at the program (after wrappers such as
``sudo``, ``env X=1``, ``timeout 10``, ``uv run``) and returns the file
operations it performs and, for the few programs whose output is known
(``echo``, ``printf``, ``cat`` of a heredoc or of known files, ``tee``), its
standard output, which the caller writes to redirection targets or feeds to
the next command of a pipeline.

Decisions:

* Reads are ``cat``, ``head``, ``tail``, ``nl``, ``less``, ``more``, ``bat``,
  ``tac``, ``sed`` without ``-i`` and ``awk`` on named files.  ``grep``/``rg``
  are searches, not reads (Claude Code's read-state makes the same call).
* ``touch`` creates an empty file only when the file is not known to exist;
  on a known file it changes nothing the trail cares about.
* ``mkdir`` has no file effect; the directory is remembered so a later
  ``mv x DIR`` moves into it.
* Programs that are not file editors (``pytest``, ``make``, ``npm test``)
  have no effect and are not reported as unknown.  Package managers,
  formatters, generators and project scripts change files they often do not
  name: :mod:`.packages`, :mod:`.formatters` and :mod:`.generators` record
  what can be known and flag the rest as ``unknown``.  A script run by an interpreter
  is different: its effects are inferred from its text
  (:mod:`.scripts`), and when the text is not known the command gets an
  ``unknown`` operation saying so.
* ``xargs CMD`` and ``find -exec CMD {}`` run ``CMD`` with arguments known
  only at run time: editing commands among them become ``unknown``.
* A failed command changes nothing (an ``rm`` that failed deleted nothing),
  with two exceptions: a failed ``rm`` of several paths removed those known
  to exist (rm carries on past a missing operand), and a failed ``bash -c``
  script is analysed with the list rule of :mod:`.analysis`.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from dataclasses import dataclass, field

from artifact_index.ingestion.events import FileAction, FileOperation
from artifact_index.trail.shell.expand import Arg
from artifact_index.trail.shell.formatters import FORMATTER_PROGRAMS, format_effects
from artifact_index.trail.shell.generators import GENERATOR_PROGRAMS, generator_effects
from artifact_index.trail.shell.git import git_effects
from artifact_index.trail.shell.invocation import (
    Invocation,
    Parsed,
    Runtime,
    parse_options,
    patch_operations,
    program_name,
)
from artifact_index.trail.shell.packages import PACKAGE_MANAGERS, package_effects
from artifact_index.trail.shell.scripts import javascript_effects, python_effects
from artifact_index.trail.shell.sed import apply_sed, minimal_edit
from artifact_index.trail.shell.state import Files

__all__ = ["Effect", "command_effects"]


@dataclass
class Effect:
    operations: list[FileOperation] = field(default_factory=list)
    stdout: str | None = None  # what the command prints, when known


_Handler = Callable[[Invocation, Runtime], Effect]

_SHELLS = {"bash", "sh", "zsh", "dash", "ksh", "ash"}
_READERS = {"cat", "head", "tail", "nl", "less", "more", "bat", "batcat", "tac", "view"}


def command_effects(inv: Invocation, runtime: Runtime) -> Effect:
    """The effects of one simple command (``inv.args[0]`` is the program)."""
    inv = _unwrap(inv)
    name = inv.program
    if name is None:
        # `"$EDITOR" file`, `$CMD a b`: the program is only known at run time.
        if len(inv.args) > 1 and not inv.failed:
            return Effect([inv.unknown(f"runs a command known only at run time ({inv.args[0].raw})")])
        return Effect()
    handler = _HANDLERS.get(name) or _family_handler(name)
    if handler is None:
        if _is_script_path(inv.args[0].value) and not inv.failed:
            return _run_file(inv, runtime, inv.args[0])
        return Effect()
    if inv.failed and handler not in _RUN_WHEN_FAILED:
        return Effect()
    return handler(inv, runtime)


def _is_script_path(value: str | None) -> bool:
    """``./fix.sh`` or ``scripts/run.py`` is a script; ``.venv/bin/pytest`` is an installed program."""
    if value is None or "/" not in value:
        return False
    parent = posixpath.basename(posixpath.dirname(value))
    return parent not in ("bin", ".bin", "sbin")


def _family_handler(name: str) -> _Handler | None:
    if name.startswith(("python", "pypy")) and _version_suffix(name.removeprefix("python").removeprefix("pypy")):
        return _python
    return None


def _version_suffix(rest: str) -> bool:
    return all(ch.isdigit() or ch == "." for ch in rest)


# ---------------------------------------------------------------------------
# Wrappers: commands that run another command


def _unwrap(inv: Invocation) -> Invocation:
    for _ in range(8):
        name = inv.program
        if name == "sudo":
            rest = parse_options(inv.args[1:], short_values="ugCDhprTUt", long_values=("--user", "--group"), stop_at_operand=True)
            inv = inv.with_args(rest.operands)
        elif name == "env":
            rest = parse_options(inv.args[1:], short_values="uCS", long_values=("--unset", "--chdir"), stop_at_operand=True)
            operands = list(rest.operands)
            while operands and operands[0].value is not None and "=" in operands[0].value and not operands[0].value.startswith("="):
                operands.pop(0)
            inv = inv.with_args(operands)
        elif name in ("time", "nohup", "builtin", "chronic", "unbuffer", "caffeinate"):
            rest = parse_options(inv.args[1:], stop_at_operand=True)
            inv = inv.with_args(rest.operands)
        elif name == "command":
            rest = parse_options(inv.args[1:], stop_at_operand=True)
            if rest.has("-v", "-V"):
                return inv.with_args(())
            inv = inv.with_args(rest.operands)
        elif name == "exec":
            rest = parse_options(inv.args[1:], short_values="a", stop_at_operand=True)
            inv = inv.with_args(rest.operands)
        elif name == "nice":
            rest = parse_options(inv.args[1:], short_values="n", long_values=("--adjustment",), stop_at_operand=True)
            inv = inv.with_args(rest.operands)
        elif name == "ionice":
            rest = parse_options(inv.args[1:], short_values="cnp", stop_at_operand=True)
            inv = inv.with_args(rest.operands)
        elif name == "stdbuf":
            rest = parse_options(inv.args[1:], short_values="ioe", stop_at_operand=True)
            inv = inv.with_args(rest.operands)
        elif name in ("timeout", "gtimeout"):
            rest = parse_options(inv.args[1:], short_values="sk", long_values=("--signal", "--kill-after"), stop_at_operand=True)
            inv = inv.with_args(rest.operands[1:])  # the first operand is the duration
        elif name in ("uv", "poetry", "pipenv", "pdm", "hatch", "rye") and len(inv.args) > 1 and inv.args[1].value == "run":
            rest = parse_options(
                inv.args[2:],
                long_values=("--with", "--python", "--project", "--directory", "--env-file", "--extra", "--group", "--package", "--from", "--index"),
                short_values="pe",
                stop_at_operand=True,
            )
            inv = inv.with_args(rest.operands)
        elif name in ("conda", "mamba", "micromamba") and len(inv.args) > 1 and inv.args[1].value == "run":
            rest = parse_options(inv.args[2:], short_values="np", long_values=("--name", "--prefix", "--cwd"), stop_at_operand=True)
            inv = inv.with_args(rest.operands)
        elif name in ("npx", "bunx") or (
            name in ("pnpm", "yarn", "npm", "bun") and len(inv.args) > 1 and inv.args[1].value in ("exec", "dlx", "x")
        ):
            # npx prettier --write src: the package's program runs.
            skip = 1 if name in ("npx", "bunx") else 2
            rest = parse_options(inv.args[skip:], short_values="pc", long_values=("--package", "--call"), stop_at_operand=True)
            inv = inv.with_args([a for a in rest.operands if a.value != "--"])
        else:
            return inv
    return inv


# ---------------------------------------------------------------------------
# Output producers


def _echo(inv: Invocation, runtime: Runtime) -> Effect:
    args = list(inv.args[1:])
    newline, escapes = True, False
    while args and args[0].value and args[0].value.startswith("-") and len(args[0].value) > 1 and set(args[0].value[1:]) <= set("neE"):
        flags = args.pop(0).value or ""
        newline = newline and "n" not in flags
        escapes = ("e" in flags) or (escapes and "E" not in flags)
    if any(a.value is None for a in args):
        return Effect()
    text = " ".join(a.value or "" for a in args)
    if escapes:
        text, stop = _backslash_escapes(text)
        if stop:
            return Effect(stdout=text)
    return Effect(stdout=text + ("\n" if newline else ""))


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v", "\\": "\\", "e": "\x1b", "E": "\x1b"}


def _backslash_escapes(text: str) -> tuple[str, bool]:
    """echo -e / printf %b escapes; the flag says output stopped at ``\\c``."""
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch != "\\" or i + 1 >= len(text):
            out.append(ch)
            i += 1
            continue
        nxt = text[i + 1]
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        elif nxt == "c":
            return "".join(out), True
        elif nxt == "0" or nxt in "1234567":
            j = i + 2 if nxt == "0" else i + 1
            digits = ""
            while j < len(text) and len(digits) < 3 and text[j] in "01234567":
                digits += text[j]
                j += 1
            out.append(chr(int(digits or "0", 8)))
            i = j
        elif nxt == "x":
            j = i + 2
            digits = ""
            while j < len(text) and len(digits) < 2 and text[j] in "0123456789abcdefABCDEF":
                digits += text[j]
                j += 1
            out.append(chr(int(digits, 16)) if digits else "\\x")
            i = j
        else:
            out.append("\\" + nxt)
            i += 2
    return "".join(out), False


def _printf(inv: Invocation, runtime: Runtime) -> Effect:
    args = list(inv.args[1:])
    if args and args[0].value == "--":
        args.pop(0)
    if not args or any(a.value is None for a in args) or (args[0].value or "").startswith("-v"):
        return Effect()
    fmt = args[0].value or ""
    values = [a.value or "" for a in args[1:]]
    out: list[str] = []
    while True:
        text, used, ok = _format_once(fmt, values)
        if not ok:
            return Effect()
        out.append(text)
        values = values[used:]
        if not values or used == 0:
            break
    return Effect(stdout="".join(out))


def _format_once(fmt: str, values: list[str]) -> tuple[str, int, bool]:
    out: list[str] = []
    used = 0
    i = 0
    literal: list[str] = []
    while i < len(fmt):
        ch = fmt[i]
        if ch != "%":
            literal.append(ch)
            i += 1
            continue
        out.append(_backslash_escapes("".join(literal))[0])
        literal = []
        spec = fmt[i + 1:i + 2]
        value = values[used] if used < len(values) else ""
        if spec == "%":
            out.append("%")
        elif spec == "s":
            out.append(value)
            used += 1
        elif spec == "b":
            out.append(_backslash_escapes(value)[0])
            used += 1
        elif spec in ("d", "i"):
            try:
                out.append(str(int(value or "0")))
            except ValueError:
                return "", used, False
            used += 1
        elif spec == "c":
            out.append(value[:1])
            used += 1
        else:
            return "", used, False  # widths, precision, floats: not worth guessing
        i += 2
    out.append(_backslash_escapes("".join(literal))[0])
    return "".join(out), used, True


def _cat(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(inv.args[1:])
    ops: list[FileOperation] = []
    pieces: list[str | None] = []
    for arg in parsed.operands or [Arg("-", "-")]:
        if arg.value == "-":
            pieces.append(inv.stdin)
            continue
        path = inv.place(arg)
        if path is None:
            pieces.append(None)
            continue
        ops.append(inv.op("read", path))
        pieces.append(runtime.files.content_of(path))
    plain = all(name == "-u" for name, _ in parsed.options)
    stdout = "".join(p for p in pieces if p is not None) if plain and all(p is not None for p in pieces) else None
    return Effect(ops, stdout)


def _reader(inv: Invocation, runtime: Runtime) -> Effect:
    name = inv.program
    short = {"head": "nc", "tail": "ncs", "nl": "bdfhilnpsvw", "less": "bhjkoOpPtTxyz", "bat": "lrHm"}.get(name or "", "")
    parsed = parse_options(inv.args[1:], short_values=short, long_values=("--lines", "--bytes", "--line-range", "--language"))
    start: int | None = None
    end: int | None = None
    lines = parsed.value("-n", "--lines")
    if name == "head" and lines and lines.isdigit():
        start, end = 1, int(lines)
    elif name == "tail" and lines and lines.startswith("+") and lines[1:].isdigit():
        start = int(lines[1:])
    ops: list[FileOperation] = []
    for arg in parsed.operands:
        path = inv.place(arg)
        if path is not None and arg.value != "-":
            ops.append(inv.op("read", path, start_line=start, end_line=end))
    return Effect(ops)


# ---------------------------------------------------------------------------
# In-place editors


def _sed(inv: Invocation, runtime: Runtime) -> Effect:
    args = list(inv.args[1:])
    in_place = False
    extended = False
    suffix = ""
    scripts: list[str | None] = []
    quiet = False
    rest: list[Arg] = []
    i = 0
    while i < len(args):
        arg = args[i]
        value = arg.value
        i += 1
        if value is None or not value.startswith("-") or value == "-" or arg.glob:
            rest.append(arg)
            continue
        if value == "--":
            rest.extend(args[i:])
            break
        if value.startswith("--"):
            name, _, attached = value.partition("=")
            if name == "--in-place":
                in_place, suffix = True, attached
            elif name == "--expression":
                if attached or "=" in value:
                    scripts.append(attached)
                elif i < len(args):
                    scripts.append(args[i].value)
                    i += 1
            elif name == "--file":
                scripts.append(None)
                if not attached and i < len(args):
                    i += 1
            elif name in ("--quiet", "--silent"):
                quiet = True
            elif name == "--regexp-extended":
                extended = True
            elif name == "--line-length" and not attached:
                i += 1
            continue
        cluster = value[1:]
        for j, ch in enumerate(cluster):
            if ch == "i":
                in_place = True
                suffix = cluster[j + 1:]
                # BSD sed: `-i ''` / `-i .bak` give the suffix as the next argument.
                if not suffix and i < len(args) and args[i].value is not None and (args[i].value == "" or args[i].value.startswith(".")):  # type: ignore[union-attr]
                    suffix = args[i].value or ""
                    i += 1
                break
            if ch in "ef":
                attached = cluster[j + 1:]
                if attached:
                    scripts.append(attached if ch == "e" else None)
                elif i < len(args):
                    scripts.append(args[i].value if ch == "e" else None)
                    i += 1
                break
            if ch == "l":
                if not cluster[j + 1:]:
                    i += 1
                break
            if ch == "n":
                quiet = True
            if ch in "Er":
                extended = True
    if not scripts and rest:
        scripts.append(rest.pop(0).value)
    script = "; ".join(s or "?" for s in scripts)
    ops: list[FileOperation] = []
    if in_place:
        for arg in rest:
            path = inv.place(arg)
            if path is None:
                ops.append(inv.unplaced("sed -i edits", arg))
                continue
            if suffix:
                backup = suffix.replace("*", posixpath.basename(path)) if "*" in suffix else path + suffix
                if "*" in suffix:
                    backup = posixpath.join(posixpath.dirname(path), backup)
                ops.append(inv.op("copy", path, dest=backup))
            edit = _sed_edit(inv, runtime, path, scripts, extended)
            if edit is not None:
                ops.append(edit)
        return Effect(ops)
    start, end = _sed_window(script) if quiet else (None, None)
    for arg in rest:
        path = inv.place(arg)
        if path is not None and arg.value != "-":
            ops.append(inv.op("read", path, start_line=start, end_line=end))
    return Effect(ops)


_REGEX_SPECIAL = set(".[]*^$\\+?(){}|")


def _sed_edit(inv: Invocation, runtime: Runtime, path: str, scripts: list[str | None], extended: bool) -> FileOperation | None:
    """The edit ``sed -i`` makes: exact when the file's text is known, or the script is a plain ``s///g``.

    None when the text is known and the script changes nothing in it (a
    pattern that matches nothing is a common agent mistake).
    """
    before = runtime.files.content_of(path)
    known = [s for s in scripts if s is not None]
    if before is not None and known and len(known) == len(scripts):
        after = apply_sed(before, known, extended=extended)
        if after is not None:
            if after == before:
                return None
            old, new = minimal_edit(before, after)
            return inv.op("edit", path, old=old, new=new)
    literal = _literal_substitution(scripts[0]) if len(scripts) == 1 and scripts[0] else None
    if literal is not None:
        return inv.op("edit", path, old=literal[0], new=literal[1], replace_all=True)
    return inv.op("edit", path)


def _literal_substitution(script: str) -> tuple[str, str] | None:
    """``s/old/new/g`` with plain text on both sides -> (old, new): the edit is then exact."""
    script = script.strip()
    if len(script) < 4 or script[0] != "s" or script[1].isalnum() or script[1] in "\\\n ":
        return None
    pieces = script[2:].split(script[1])
    if len(pieces) != 3:
        return None
    old, new, flags = pieces
    if flags != "g" or not old or _REGEX_SPECIAL.intersection(old) or "&" in new or "\\" in new or "\n" in old + new:
        return None
    return old, new


def _sed_window(script: str) -> tuple[int | None, int | None]:
    """``sed -n '10,20p'`` -> (10, 20); anything fancier -> no window."""
    body = script.strip()
    if not body.endswith("p"):
        return None, None
    first, _, second = body[:-1].partition(",")
    if first.isdigit() and (second.isdigit() or not second):
        return int(first), int(second or first)
    return None, None


def _perl(inv: Invocation, runtime: Runtime) -> Effect:
    args = list(inv.args[1:])
    in_place = False
    loops = False
    has_code = False
    rest: list[Arg] = []
    i = 0
    while i < len(args):
        arg = args[i]
        value = arg.value
        i += 1
        if value is None or not value.startswith("-") or value == "-" or arg.glob:
            rest.append(arg)
            rest.extend(args[i:])
            break
        if value == "--":
            rest.extend(args[i:])
            break
        cluster = value[1:]
        j = 0
        while j < len(cluster):
            ch = cluster[j]
            if ch == "i":
                in_place = True
                break
            if ch in "eE":
                has_code = True
                if not cluster[j + 1:]:
                    i += 1  # the code is the next argument
                break
            if ch in "MmIFCdDx":
                break
            if ch in "0l":
                j += 1
                while j < len(cluster) and cluster[j] in "0123456789abcdefxABCDEF":
                    j += 1
                continue
            if ch in "pn":
                loops = True
            j += 1
    if not has_code and rest:
        rest.pop(0)  # the program file
    ops: list[FileOperation] = []
    for arg in rest:
        path = inv.place(arg)
        if in_place:
            ops.append(inv.op("edit", path) if path else inv.unplaced("perl -i edits", arg))
        elif loops and path:
            ops.append(inv.op("read", path))
    return Effect(ops)


def _awk(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(inv.args[1:], short_values="FvfiE", long_values=("--include", "--file", "--assign", "--field-separator"))
    in_place = "inplace" in [v for v in parsed.values("-i", "--include") if v]
    operands = list(parsed.operands)
    if not parsed.has("-f", "--file") and operands:
        operands.pop(0)  # the program text
    ops: list[FileOperation] = []
    for arg in operands:
        if arg.value is not None and "=" in arg.value and not arg.value.startswith("/"):
            continue  # awk treats var=value operands as assignments
        path = inv.place(arg)
        if in_place:
            ops.append(inv.op("edit", path) if path else inv.unplaced("awk -i inplace edits", arg))
        elif path and arg.value != "-":
            ops.append(inv.op("read", path))
    return Effect(ops)


def _ed(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(inv.args[1:], short_values="p")
    ops = []
    for arg in parsed.operands[:1]:
        path = inv.place(arg)
        ops.append(inv.op("edit", path) if path else inv.unplaced(f"{inv.program} edits", arg))
    return Effect(ops)


def _toolchain(inv: Invocation, runtime: Runtime) -> Effect:
    """Package managers, generators, formatters and project scripts (see their modules)."""
    for effects in (package_effects, generator_effects, format_effects):
        ops = effects(inv, runtime)
        if ops is not None:
            return Effect(ops)
    return Effect()


# ---------------------------------------------------------------------------
# File management


def _rm(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(inv.args[1:])
    recursive = parsed.has("-r", "-R", "--recursive")
    files = runtime.files
    ops: list[FileOperation] = []
    for arg in parsed.operands:
        path = inv.place(arg)
        if path is None or arg.glob:
            ops.append(inv.unplaced("rm removes", arg))
            continue
        under = files.files_under(path)
        if under and not recursive:
            continue  # rm refuses a directory without -r
        if under:
            ops.extend(inv.op("delete", p) for p in sorted(under))
            if files.known_file(path):
                ops.append(inv.op("delete", path))
            continue
        if not recursive:
            ops.append(inv.op("delete", path))
            continue
        is_dir = True if (arg.value or "").endswith("/") else files.is_directory(path)
        if is_dir is False or files.known_file(path):
            ops.append(inv.op("delete", path))
        elif is_dir is None and not hasattr(files.context, "is_directory"):
            ops.append(inv.op("delete", path))  # nobody can tell: a named path is most often a file
        elif is_dir is None:
            ops.append(inv.unknown(f"rm -r removes {arg.value}; no file under it is known, and it may be a directory"))
    if inv.failed:
        # rm goes on past an operand it cannot remove (usually one that does
        # not exist), so a failed rm of several paths still removed those
        # known to exist.  A failed rm of one path removed nothing.
        if len(parsed.operands) < 2:
            return Effect()
        ops = [op for op in ops if op.action == "delete" and op.path and _exists(files, op.path)]
    elif recursive:
        # Whatever is found under a directory after rm -r emptied it was made after.
        for arg in parsed.operands:
            path = inv.place(arg)
            if path is not None and not arg.glob and files.is_directory(path) is not False:
                files.cleared_directory(path.rstrip("/") or "/")
    return Effect(ops)


def _exists(files: Files, path: str) -> bool:
    return files.known_file(path) or files.is_directory(path) is False


def _destination(inv: Invocation, runtime: Runtime, parsed: Parsed) -> tuple[list[Arg], Arg | None, bool]:
    """(sources, destination, destination is a directory) for mv / cp / ln style argument lists."""
    target_dir = parsed.value("-t", "--target-directory")
    operands = list(parsed.operands)
    if target_dir is not None:
        return operands, Arg(target_dir, target_dir), True
    if len(operands) < 2:
        return operands, None, False
    dest = operands.pop()
    if parsed.has("-T", "--no-target-directory"):
        return operands, dest, False
    if len(operands) > 1:
        return operands, dest, True
    place = inv.place(dest)
    is_dir = (dest.value or "").endswith("/") or (place is not None and runtime.files.is_directory(place) is True)
    return operands, dest, is_dir


def _transfer(inv: Invocation, runtime: Runtime, verb: str) -> Effect:
    """mv and cp: each source file (or each file under a source directory) to its destination."""
    short = "tS"
    parsed = parse_options(inv.args[1:], short_values=short, long_values=("--target-directory", "--suffix", "--backup", "--reflink", "--sparse", "--preserve"))
    sources, dest, into_dir = _destination(inv, runtime, parsed)
    action: FileAction = "move" if verb == "mv" else "copy"
    recursive = verb == "mv" or parsed.has("-r", "-R", "-a", "--recursive", "--archive")
    files = runtime.files
    if dest is None:
        return Effect()
    dest_path = inv.place(dest)
    ops: list[FileOperation] = []
    for src in sources:
        src_path = inv.place(src)
        if src_path is None or src.glob:
            ops.append(inv.unplaced(f"{verb} moves" if verb == "mv" else f"{verb} copies", src))
            continue
        if dest_path is None:
            ops.append(inv.unplaced(f"{verb} writes", dest))
            continue
        target = posixpath.join(dest_path, posixpath.basename(src_path.rstrip("/"))) if into_dir else dest_path
        under = files.files_under(src_path)
        if under and not files.known_file(src_path):
            if not recursive:
                continue  # cp without -r skips directories
            if verb == "cp" and not into_dir and files.is_directory(dest_path) is True:
                target = posixpath.join(dest_path, posixpath.basename(src_path.rstrip("/")))
            for path in sorted(under):
                rel = path[len(src_path.rstrip("/")) + 1:]
                ops.append(inv.op(action, path, dest=posixpath.join(target, rel)))
            continue
        if target == src_path:
            continue
        ops.append(inv.op(action, src_path, dest=target))
    return Effect(ops)


def _mv(inv: Invocation, runtime: Runtime) -> Effect:
    return _transfer(inv, runtime, "mv")


def _cp(inv: Invocation, runtime: Runtime) -> Effect:
    return _transfer(inv, runtime, "cp")


def _ln(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(inv.args[1:], short_values="tS", long_values=("--target-directory", "--suffix"))
    operands = list(parsed.operands)
    if len(operands) == 1 and parsed.value("-t", "--target-directory") is None:
        operands.append(Arg(".", "."))
        parsed.operands = operands
    sources, dest, into_dir = _destination(inv, runtime, parsed)
    dest_path = inv.place(dest) if dest is not None else None
    ops: list[FileOperation] = []
    force = parsed.has("-f", "--force")
    for src in sources:
        if dest is None or dest_path is None or src.value is None:
            ops.append(inv.unplaced("ln creates", dest or src))
            continue
        link = posixpath.join(dest_path, posixpath.basename(src.value.rstrip("/"))) if into_dir else dest_path
        kind = "symbolic link" if parsed.has("-s", "--symbolic") else "hard link"
        ops.append(inv.op("write" if force else "create", link, detail=f"{kind} to {src.value}"))
    return Effect(ops)


def _touch(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(inv.args[1:], short_values="dtr", long_values=("--date", "--reference", "--time"))
    if parsed.has("-c", "--no-create"):
        return Effect()
    ops: list[FileOperation] = []
    for arg in parsed.operands:
        path = inv.place(arg)
        if path is None:
            ops.append(inv.unplaced("touch creates", arg))
        elif not runtime.files.known_file(path) and runtime.files.is_directory(path) is None:
            # Nothing says the file exists: touch creates it, empty.
            ops.append(inv.op("create", path, content=""))
    return Effect(ops)


def _mkdir(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(inv.args[1:], short_values="m", long_values=("--mode",))
    for arg in parsed.operands:
        path = inv.place(arg)
        if path is not None:
            runtime.files.made_directory(path.rstrip("/") or "/")
    return Effect()


def _tee(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(inv.args[1:], long_values=("--output-error",))
    append = parsed.has("-a", "--append")
    ops: list[FileOperation] = []
    for arg in parsed.operands:
        path = inv.place(arg)
        if path is None:
            ops.append(inv.unplaced("tee writes", arg))
        elif append:
            ops.append(inv.op("edit", path, new=inv.stdin, detail="append"))
        else:
            ops.append(inv.op("write", path, content=inv.stdin))
    return Effect(ops, inv.stdin)


def _sponge(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(inv.args[1:])
    ops = []
    for arg in parsed.operands[:1]:
        path = inv.place(arg)
        if path is None:
            ops.append(inv.unplaced("sponge writes", arg))
        elif parsed.has("-a"):
            ops.append(inv.op("edit", path, new=inv.stdin, detail="append"))
        else:
            ops.append(inv.op("write", path, content=inv.stdin))
    return Effect(ops)


def _truncate(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(inv.args[1:], short_values="sr", long_values=("--size", "--reference"))
    size = parsed.value("-s", "--size")
    ops: list[FileOperation] = []
    for arg in parsed.operands:
        path = inv.place(arg)
        if path is None:
            ops.append(inv.unplaced("truncate changes", arg))
        elif size == "0":
            ops.append(inv.op("write", path, content=""))
        else:
            ops.append(inv.op("edit", path, detail=f"truncated to size {size}"))
    return Effect(ops)


def _dd(inv: Invocation, runtime: Runtime) -> Effect:
    ops: list[FileOperation] = []
    settings = {a.value.split("=", 1)[0]: a.value.split("=", 1)[1] for a in inv.args[1:] if a.value and "=" in a.value}
    if "if" in settings:
        path = inv.place(settings["if"])
        if path:
            ops.append(inv.op("read", path))
    if "of" in settings:
        path = inv.place(settings["of"])
        notrunc = "notrunc" in settings.get("conv", "")
        if path:
            ops.append(inv.op("edit" if notrunc else "write", path))
    return Effect(ops)


def _download(inv: Invocation, runtime: Runtime) -> Effect:
    name = inv.program
    if name == "curl":
        parsed = parse_options(
            inv.args[1:],
            short_values="oHdXuAeEmrTwxzbcKFCDQYy",
            long_values=("--output", "--header", "--data", "--request", "--user", "--url", "--max-time", "--connect-timeout", "--data-raw", "--data-binary", "--form", "--cookie", "--user-agent"),
        )
        outputs = [v for v in parsed.values("-o", "--output") if v != "-"]
        if parsed.has("-O", "--remote-name"):
            urls = [a.value for a in parsed.operands if a.value]
            outputs.extend(posixpath.basename(u.split("?", 1)[0]) for u in urls[:1])
    else:
        parsed = parse_options(inv.args[1:], short_values="OPoaetTUw", long_values=("--output-document", "--directory-prefix", "--header", "--user-agent", "--tries", "--timeout"))
        document = parsed.value("-O", "--output-document")
        if document == "-":
            return Effect()
        if document is None:
            urls = [a.value for a in parsed.operands if a.value]
            prefix = parsed.value("-P", "--directory-prefix") or ""
            outputs = [posixpath.join(prefix, posixpath.basename(u.split("?", 1)[0]) or "index.html") for u in urls[:1]]
        else:
            outputs = [document]
    ops = []
    for out in outputs:
        path = inv.place(out) if out is not None else None
        ops.append(inv.op("write", path) if path else inv.unknown(f"{name} downloads to a path known only at run time"))
    return Effect(ops)


# ---------------------------------------------------------------------------
# Commands that run other commands


def _xargs(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(
        inv.args[1:],
        short_values="aEdILnPs",
        long_values=("--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-lines", "--replace", "--eof", "--max-chars"),
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
                value_i = args[i].value
                inner.append(Arg(None, "{}") if value_i is not None and "{}" in value_i else args[i])
                i += 1
            i += 1
            if inner:
                ops.extend(command_effects(inv.with_args(inner), runtime).operations)
    return Effect([op for op in ops if op.action != "read"])


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
            return Effect([] if inv.failed else [inv.unknown("runs a shell script known only at run time")])
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
    return Effect([inv.unknown(f"{inv.program} reads its script from standard input, which is not known")])


def _python(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(inv.args[1:], short_values="cmWXQ", long_values=("--check-hash-based-pycs",), stop_at_operand=True)
    flags = {name for name, _ in parsed.options}
    module = parsed.value("-m")
    if module in _PYTHON_MODULES:  # `python -m black src` is `black src`: what follows is the module's
        rest = list(inv.args[1:])
        start = next(i for i, a in enumerate(rest) if a.value is not None and (a.value == module or a.value == "-m" + module))
        return command_effects(inv.with_args([Arg(_PYTHON_MODULES[module], module), *rest[start + 1:]]), runtime)
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
        return Effect([inv.unknown("python reads its program from standard input, which is not known")])
    return Effect()  # an interactive interpreter with nothing to run


def _node(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(inv.args[1:], short_values="eprC", long_values=("--eval", "--print", "--require", "--import", "--loader", "--conditions"), stop_at_operand=True)
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


def _run_file(inv: Invocation, runtime: Runtime, script: Arg, interpreter: str | None = None) -> Effect:
    """Run a script file: its effects come from its text, when the text is known."""
    path = inv.place(script)
    shown = script.value or script.raw
    if path is None:
        return Effect([inv.unknown(f"runs {shown}, which cannot be located")])
    text = runtime.files.content_of(path)
    if text is None:
        return Effect([inv.unknown(f"runs {shown}, whose text is not known")])
    kind = interpreter or _interpreter_of(path, text)
    if kind == "python":
        return Effect(python_effects(text, script=path, inv=inv, runtime=runtime))
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
        name = program_name(words[-1] if words and words[0].endswith("/env") else (words[0] if words else "")) or ""
        if name.startswith("python"):
            return "python"
        if name in _SHELLS:
            return "bash"
        if name in ("node", "deno", "bun"):
            return "node"
        return None
    ext = posixpath.splitext(path)[1]
    return {".py": "python", ".sh": "bash", ".bash": "bash", ".js": "node", ".mjs": "node", ".cjs": "node"}.get(ext)


def _patch(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(
        inv.args[1:],
        short_values="pidoDBrFVYzgx",
        long_values=("--strip", "--input", "--directory", "--output", "--reject-file", "--backup", "--suffix", "--fuzz"),
    )
    if parsed.has("--dry-run", "-C", "--check"):
        return Effect()
    strip_value = parsed.value("-p", "--strip")
    strip = int(strip_value) if strip_value and strip_value.isdigit() else 1
    directory_arg = parsed.value("-d", "--directory")
    directory = inv.place(directory_arg) if directory_arg else None
    patch_file = parsed.value("-i", "--input")
    operands = list(parsed.operands)
    if patch_file is None and len(operands) >= 2:
        patch_file = operands[1].value
    text, source = _patch_text(inv, runtime, patch_file)
    if text is None:
        return Effect([inv.unknown(f"patch applies {source}, whose text is not known")])
    ops = patch_operations(inv, text, strip=strip, reverse=parsed.has("-R", "--reverse"), directory=directory)
    if operands and operands[0].value and len(ops) == 1 and ops[0].action == "edit":
        # `patch FILE PATCHFILE`: the file named on the command line is the one patched.
        target = inv.place(operands[0])
        if target:
            ops = [ops[0].model_copy(update={"path": target})]
    return Effect(ops)


def _patch_text(inv: Invocation, runtime: Runtime, patch_file: str | None) -> tuple[str | None, str]:
    if patch_file is not None and patch_file != "-":
        path = inv.place(patch_file)
        return (runtime.files.content_of(path) if path else None), patch_file
    if inv.stdin is not None:
        return inv.stdin, "a patch"
    return None, inv.stdin_path or "a patch read from standard input"


def _apply_patch(inv: Invocation, runtime: Runtime) -> Effect:
    """Codex's ``apply_patch`` run as a shell command: the patch is the argument or stdin."""
    text = inv.args[1].value if len(inv.args) > 1 else inv.stdin
    if text is None:
        return Effect([inv.unknown("apply_patch applies a patch whose text is not known")])
    return Effect(patch_operations(inv, text))


def _git(inv: Invocation, runtime: Runtime) -> Effect:
    return Effect(git_effects(inv, runtime, lambda i, r: _mv(i, r).operations))


_HANDLERS: dict[str, _Handler] = {
    "echo": _echo,
    "printf": _printf,
    "cat": _cat,
    **{name: _reader for name in _READERS - {"cat"}},
    "sed": _sed,
    "gsed": _sed,
    "perl": _perl,
    "ruby": _perl,
    "awk": _awk,
    "gawk": _awk,
    "ed": _ed,
    "ex": _ed,
    "rm": _rm,
    "unlink": _rm,
    "mv": _mv,
    "cp": _cp,
    "ln": _ln,
    "touch": _touch,
    "mkdir": _mkdir,
    "tee": _tee,
    "sponge": _sponge,
    "truncate": _truncate,
    "dd": _dd,
    "curl": _download,
    "wget": _download,
    "xargs": _xargs,
    "find": _find,
    **{name: _shell for name in _SHELLS},
    "python": _python,
    "node": _node,
    "patch": _patch,
    "apply_patch": _apply_patch,
    "git": _git,
    **{name: _toolchain for name in PACKAGE_MANAGERS | GENERATOR_PROGRAMS | FORMATTER_PROGRAMS},
}

# `python -m MODULE` runs these programs.
_PYTHON_MODULES = {
    "black": "black", "isort": "isort", "autopep8": "autopep8", "ruff": "ruff", "pip": "pip", "sphinx": "sphinx-build",
    "piptools": "pip-compile", "pyupgrade": "pyupgrade", "yapf": "yapf", "alembic": "alembic",
}

# Handlers that look inside a failed command: a failed script still ran its first steps.
_RUN_WHEN_FAILED: set[_Handler] = {_shell, _xargs, _rm, _toolchain}
