"""The tiny interpreter's values (strings, lists of them, references) and the walk both languages share."""

from __future__ import annotations

import ast
import posixpath
import shlex
import warnings
from dataclasses import dataclass, field
from functools import cache

from tree_sitter import Node as TSNode
from tree_sitter import Parser

from artifact_index.grammars import parser as grammar_parser
from artifact_index.ingestion.events import FileAction, FileOperation
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.invocation import Invocation, Runtime
from artifact_index.shell.state import join

__all__ = ["Function", "Handle", "Items", "Ref", "Text", "Value"]

_MAX_VALUES = 64  # possible values one expression may take (loops x concatenations)
_MAX_STEPS = 50_000  # evaluation steps per script: huge generated scripts stay fast
_MAX_DEPTH = 6  # nested user-function calls


@cache
def _parser(name: str) -> Parser | None:
    return grammar_parser(name)


# ---------------------------------------------------------------------------
# Values


@dataclass(frozen=True)
class Text:
    """A string (or a path object, ``path=True``) with one or more possible values."""

    values: tuple[str, ...]
    path: bool = False

    @property
    def single(self) -> str | None:
        return self.values[0] if len(self.values) == 1 else None


@dataclass(frozen=True)
class Items:
    items: tuple[Value, ...]


@dataclass(frozen=True)
class Ref:
    """A module, class or function known by its qualified name (``os.path.join``)."""

    name: str


@dataclass(frozen=True)
class Function:
    node: TSNode


@dataclass
class Handle:
    """An open file; writes through it may give the written content."""

    op_index: int | None
    chunks: list[str] | None = field(default_factory=list)


Value = Text | Items | Ref | Function | Handle | None


def _text(*values: str, path: bool = False) -> Text:
    return Text(tuple(dict.fromkeys(values))[:_MAX_VALUES], path)


def _combine(a: Value, b: Value, how: str) -> Value:
    if not isinstance(a, Text) or not isinstance(b, Text):
        return None
    out: list[str] = []
    for x in a.values:
        for y in b.values:
            out.append(x + y if how == "+" else posixpath.join(x, y))
            if len(out) >= _MAX_VALUES:
                break
    return _text(*out, path=a.path or b.path or how == "/")


def _texts(value: Value) -> list[str] | None:
    """The strings a value stands for (a list of strings counts too)."""
    if isinstance(value, Text):
        return list(value.values)
    if isinstance(value, Items):
        out: list[str] = []
        for item in value.items:
            inner = _texts(item)
            if inner is None:
                return None
            out.extend(inner)
        return out
    return None


class _Budget(Exception):
    """The script is too large to walk completely; what was found so far stands."""


# ---------------------------------------------------------------------------
# Shared: turning resolved calls into operations


class _Effects:
    def __init__(self, inv: Invocation, runtime: Runtime, script: str | None, language: str):
        self.inv = inv
        self.runtime = runtime
        self.cwd = inv.cwd
        self.script = script
        self.language = language
        self.ops: list[FileOperation] = []
        self.steps = 0

    def tick(self) -> None:
        self.steps += 1
        if self.steps > _MAX_STEPS:
            raise _Budget

    def where(self, value: str) -> str | None:
        return join(self.cwd, value)

    def emit(
        self, action: FileAction, value: Value, *, what: str, dest: Value = None, **fields: object
    ) -> int | None:
        """Operations for each possible path of ``value``; an unknown op when it has none."""
        fields.setdefault("detail", f"by {self._who()}")
        paths = _texts(value) if isinstance(value, Text) else None
        if paths is None:
            if action != "read":
                self.ops.append(
                    self.inv.unknown(
                        f"{self._who()} {what} a file whose path is computed at run time"
                    )
                )
            return None
        dests: list[str | None] = [None]
        if action in ("move", "copy"):
            resolved = _texts(dest) if isinstance(dest, Text) else None
            if resolved is None:
                self.ops.append(
                    self.inv.unknown(
                        f"{self._who()} {what} {paths[0]} to a path computed at run time"
                    )
                )
                return None
            dests = list(resolved)
        index: int | None = None
        for raw in paths:
            path = self.where(raw)
            if path is None:
                if action != "read":
                    self.ops.append(
                        self.inv.unknown(f"{self._who()} {what} {raw}, which cannot be placed")
                    )
                continue
            for dest_raw in dests:
                dest_path = self.where(dest_raw) if dest_raw is not None else None
                if (
                    dest_path is not None
                    and action in ("move", "copy")
                    and self.runtime.files.is_directory(dest_path) is True
                ):
                    dest_path = posixpath.join(dest_path, posixpath.basename(path))
                index = len(self.ops)
                self.ops.append(self.inv.op(action, path, dest=dest_path, **fields))
        return index if len(paths) == 1 and len(dests) == 1 else None

    def remove_tree(self, value: Value) -> None:
        paths = _texts(value) if isinstance(value, Text) else None
        if paths is None:
            self.ops.append(
                self.inv.unknown(
                    f"{self._who()} removes a directory whose path is computed at run time"
                )
            )
            return
        for raw in paths:
            path = self.where(raw)
            if path is None:
                continue
            for inner in sorted(self.runtime.files.files_under(path)):
                self.ops.append(self.inv.op("delete", inner, detail=f"by {self._who()}"))

    def copy_tree(self, source: Value, dest: Value) -> None:
        src, dst = _texts(source), _texts(dest)
        if not src or not dst or not isinstance(source, Text) or not isinstance(dest, Text):
            self.ops.append(
                self.inv.unknown(
                    f"{self._who()} copies a directory between paths computed at run time"
                )
            )
            return
        for s in src:
            base = self.where(s)
            for d in dst:
                target = self.where(d)
                if base is None or target is None:
                    continue
                for inner in sorted(self.runtime.files.files_under(base)):
                    copied = posixpath.join(target, inner[len(base.rstrip("/")) + 1 :])
                    self.ops.append(
                        self.inv.op("copy", inner, dest=copied, detail=f"by {self._who()}")
                    )

    def touch(self, value: Value) -> None:
        paths = _texts(value) if isinstance(value, Text) else None
        if paths is None:
            self.ops.append(
                self.inv.unknown(f"{self._who()} creates a file whose path is computed at run time")
            )
            return
        for raw in paths:
            path = self.where(raw)
            if path is not None and not self.runtime.files.known_file(path):
                self.ops.append(self.inv.op("create", path, content="", detail=f"by {self._who()}"))

    def mkdir(self, value: Value) -> None:
        for raw in _texts(value) or []:
            path = self.where(raw)
            if path is not None:
                self.runtime.files.made_directory(path)

    def shell(self, command: Value, cwd: Value = None) -> None:
        """A command the script runs: a string (shell) or an argv list."""
        where = self.cwd
        if isinstance(cwd, Text) and cwd.single is not None:
            where = self.where(cwd.single)
        elif cwd is not None:
            where = None
        if isinstance(command, Text) and command.single is not None:
            self.runtime.run_shell(command.single, where, failed=False)
            return
        if isinstance(command, Items):
            words: list[str] = []
            for n, item in enumerate(command.items):
                single = item.single if isinstance(item, Text) else None
                # An element known only at run time becomes a variable the shell cannot resolve.
                words.append(shlex.quote(single) if single is not None else f'"$__ai_unknown_{n}"')
            if words:
                self.runtime.run_shell(" ".join(words), where, failed=False)
            return
        self.ops.append(self.inv.unknown(f"{self._who()} runs a command computed at run time"))

    def _who(self) -> str:
        if self.script:
            return f"script {posixpath.basename(self.script)}"
        return f"{self.language} code"


# A string literal with no escape, quote or carriage return inside: its value is the text between the quotes.
_PLAIN_LITERAL = lazy_pattern(
    r'(?P<prefix>[rRuUbB]{0,2})(?P<quote>\'\'\'|"""|\'|")(?P<body>[^\\\'"\r\x00]*)(?P=quote)'
)
_PREFIXES = frozenset({"", "r", "u", "b", "rb", "br"})


def _literal(text: str) -> Value:
    plain = _PLAIN_LITERAL.fullmatch(text)
    if plain is not None:
        prefix, quote, body = (
            plain.group("prefix").lower(),
            plain.group("quote"),
            plain.group("body"),
        )
        # What Python itself refuses (a line break in a one-line string, ``ub``, non-ASCII bytes) goes the long way.
        if (
            prefix in _PREFIXES
            and (len(quote) == 3 or "\n" not in body)
            and ("b" not in prefix or body.isascii())
        ):
            return _text(body)
    try:
        with warnings.catch_warnings():
            # '\\d' in a script is an invalid escape Python only warns about; it still means '\\d'.
            warnings.simplefilter("ignore")
            value = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    if isinstance(value, bytes):
        return _text(value.decode("utf-8", "replace"))
    return _text(value) if isinstance(value, str) else None
