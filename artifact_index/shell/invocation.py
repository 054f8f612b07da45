"""One invoked simple command, and the tools every effect handler shares.

An :class:`Invocation` is a simple command after expansion: its arguments,
the directory it runs in, the text it reads on standard input when that is
known (a heredoc, a here-string, ``< file`` with known content, the output of
``echo`` earlier in the pipeline), and whether it failed.  Handlers parse its
options with :func:`parse_options` and build operations with
:meth:`Invocation.op`, which fills in the command text and working directory
so every effect says which command caused it.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from artifact_index.ingestion.events import FileAction, FileOperation
from artifact_index.ingestion.patches import parse_patch
from artifact_index.shell.expand import Arg
from artifact_index.shell.state import Files, join

__all__ = [
    "Invocation",
    "Parsed",
    "Runtime",
    "parse_options",
    "patch_operations",
    "program_name",
]


class Runtime(Protocol):
    """The running analysis, as effect handlers see it."""

    @property
    def files(self) -> Files: ...

    def run_shell(self, text: str, cwd: str | None, *, failed: bool, dialect: str = "bash") -> None:
        """Analyze a nested shell script (``bash -c``, ``subprocess.run(..., shell=True)``, ``pwsh -Command``)."""
        ...

    def temp_path(self) -> str:
        """A fresh path in a temporary directory (what ``mktemp`` would print)."""
        ...

    @property
    def output(self) -> str | None:
        """What the whole command printed, when the transcript recorded it.

        Tools that change files they do not name on the command line often
        name them in their report (``reformatted src/a.py``, ``* creating
        priv/repo/migrations/...``, ``Fixed 3 files``).
        """
        ...


def program_name(value: str | None) -> str | None:
    """``/usr/bin/python3`` -> ``python3``; ``.venv/Scripts/python.exe`` -> ``python``.

    Windows runs ``python.exe`` as ``python``: the suffix names no other program.
    """
    if value is None:
        return None
    name = posixpath.basename(value.rstrip("/")) or value
    stem, extension = posixpath.splitext(name)
    return stem if stem and extension.lower() == ".exe" else name


@dataclass(frozen=True)
class Invocation:
    args: tuple[Arg, ...]
    text: str
    cwd: str | None
    stdin: str | None = None
    stdin_path: str | None = None
    failed: bool = False

    @property
    def program(self) -> str | None:
        return program_name(self.args[0].value) if self.args else None

    def with_args(self, args: Iterable[Arg]) -> Invocation:
        return replace(self, args=tuple(args))

    def place(self, arg: Arg | str | None, base: str | None = None) -> str | None:
        """The path an argument names, joined with the working directory.

        None when it cannot be named: a value known only at run time, a glob
        no known file matched, a path under ``~``, or a relative path after an
        unresolvable ``cd``.
        """
        if isinstance(arg, Arg) and arg.glob:
            return None
        value = arg.value if isinstance(arg, Arg) else arg
        if value is None:
            return None
        return join(self.cwd if base is None else base, value)

    def op(self, action: FileAction, path: str | None, **fields: Any) -> FileOperation:
        return FileOperation(
            action=action,
            path=path,
            command=self.text,
            cwd=self.cwd or None,
            source=fields.pop("source", "shell"),
            **fields,
        )

    def unknown(self, detail: str, path: str | None = None) -> FileOperation:
        return self.op("unknown", path, detail=detail)

    def unplaced(self, verb: str, arg: Arg) -> FileOperation:
        """The operation for a path that cannot be named before the command runs."""
        if arg.value is None:
            why = f"{verb} a path known only at run time ({arg.raw})"
        elif arg.glob:
            why = f"{verb} files matching {arg.raw}, none of which the tracker knows"
        elif arg.value.startswith("~"):
            why = f"{verb} {arg.value} in the home directory, which is not known"
        else:
            why = f"{verb} {arg.value} after a cd to a directory that cannot be resolved"
        return self.unknown(why)


@dataclass
class Parsed:
    options: list[tuple[str, str | None]] = field(default_factory=list)
    operands: list[Arg] = field(default_factory=list)

    def has(self, *names: str) -> bool:
        return any(name in names for name, _ in self.options)

    def value(self, *names: str) -> str | None:
        found: str | None = None
        for name, value in self.options:
            if name in names:
                found = value
        return found

    def values(self, *names: str) -> list[str | None]:
        return [value for name, value in self.options if name in names]


def parse_options(
    args: Iterable[Arg],
    *,
    short_values: str = "",
    long_values: Iterable[str] = (),
    stop_at_operand: bool = False,
) -> Parsed:
    """getopt-style parsing: ``-rf`` clusters, ``-n5`` / ``-n 5``, ``--opt=v`` / ``--opt v``, ``--``.

    An argument whose value is unknown is an operand.  With
    ``stop_at_operand`` everything from the first operand on is an operand
    (``sudo``, ``timeout``: the rest is another command).
    """
    longs = set(long_values)
    parsed = Parsed()
    items = list(args)
    i = 0
    while i < len(items):
        arg = items[i]
        value = arg.value
        i += 1
        if value is None or value == "-" or not value.startswith("-") or arg.glob:
            parsed.operands.append(arg)
            if stop_at_operand:
                parsed.operands.extend(items[i:])
                break
            continue
        if value == "--":
            parsed.operands.extend(items[i:])
            break
        if value.startswith("--"):
            name, eq, attached = value.partition("=")
            if eq:
                parsed.options.append((name, attached))
            elif name in longs and i < len(items):
                parsed.options.append((name, items[i].value))
                i += 1
            else:
                parsed.options.append((name, None))
            continue
        cluster = value[1:]
        j = 0
        while j < len(cluster):
            ch = cluster[j]
            if ch in short_values:
                rest = cluster[j + 1 :]
                if rest:
                    parsed.options.append(("-" + ch, rest))
                elif i < len(items):
                    parsed.options.append(("-" + ch, items[i].value))
                    i += 1
                else:
                    parsed.options.append(("-" + ch, None))
                break
            parsed.options.append(("-" + ch, None))
            j += 1
    return parsed


def _strip_components(path: str, count: int) -> str:
    parts = path.split("/")
    return "/".join(parts[count:]) if count < len(parts) else parts[-1]


def patch_operations(
    inv: Invocation,
    text: str,
    *,
    strip: int = 1,
    reverse: bool = False,
    directory: str | None = None,
) -> list[FileOperation]:
    """The operations a patch text performs when applied in ``directory`` (default: the cwd).

    :func:`parse_patch` already drops the ``a/`` / ``b/`` prefixes (``-p1``);
    a larger ``-p`` drops further leading components.
    """
    base = inv.cwd if directory is None else directory
    out: list[FileOperation] = []
    for op in parse_patch(text):
        path = op.path
        dest = op.dest
        if strip > 1:
            path = _strip_components(path, strip - 1) if path else path
            dest = _strip_components(dest, strip - 1) if dest else dest
        placed = join(base, path) if path else None
        placed_dest = join(base, dest) if dest else None
        if placed is None:
            out.append(inv.unknown(f"patch changes {path}, which cannot be placed"))
            continue
        action: FileAction = op.action
        diff = op.diff
        content = op.content
        if reverse:
            if op.action == "create":
                action, content, diff = "delete", None, None
            elif op.action == "delete":
                action = "write"
            elif op.action == "move" and placed_dest:
                placed, placed_dest = placed_dest, placed
            elif op.action == "edit":
                diff = None
        out.append(
            inv.op(
                action,
                placed,
                dest=placed_dest,
                content=content,
                diff=diff,
                source="patch",
                detail="reversed patch" if reverse else None,
            )
        )
    return out
