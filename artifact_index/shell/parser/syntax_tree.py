"""The typed model of a shell command: words and their parts, simple commands, redirections, lists, loops."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "Command",
    "Conditional",
    "ForLoop",
    "Group",
    "Lit",
    "Node",
    "Opaque",
    "Part",
    "Pipeline",
    "Redirect",
    "Script",
    "Sequence",
    "Sub",
    "Subshell",
    "Var",
    "Word",
]


@dataclass(frozen=True)
class Lit:
    """Literal text; ``quoted`` text is not subject to globbing or brace expansion."""

    text: str
    quoted: bool = False


@dataclass(frozen=True)
class Var:
    """``$name`` or ``${name}``."""

    name: str


@dataclass(frozen=True)
class Sub:
    """``$(...)``, a backquoted command, or a ``<(...)`` process substitution."""

    script: Node
    raw: str
    process: bool = False


@dataclass(frozen=True)
class Opaque:
    """An expansion whose value is only known at run time (``$((..))``, ``${x:-y}``, ``$1``)."""

    raw: str


Part = Lit | Var | Sub | Opaque


@dataclass(frozen=True)
class Word:
    parts: tuple[Part, ...]
    raw: str

    @property
    def literal(self) -> str | None:
        """The word's value when it has no expansion at all."""
        if all(isinstance(p, Lit) for p in self.parts):
            return "".join(p.text for p in self.parts if isinstance(p, Lit))
        return None


@dataclass(frozen=True)
class Redirect:
    """One redirection.

    ``op`` is one of ``>``, ``>>``, ``>|``, ``&>``, ``&>>``, ``>&``, ``<``,
    ``<&``, ``<>``, ``<<`` (a heredoc; ``body`` holds its text) or ``<<<``
    (a here-string; ``body`` holds the word).  ``body`` is None for a heredoc
    whose text the parser could not find.
    """

    op: str
    fd: int | None = None
    target: Word | None = None
    body: Word | None = None


@dataclass(frozen=True)
class Command:
    """A simple command: ``A=1 prog arg ... > out``."""

    argv: tuple[Word, ...]
    assignments: tuple[tuple[str, Word], ...] = ()
    redirects: tuple[Redirect, ...] = ()
    text: str = ""


@dataclass(frozen=True)
class Pipeline:
    commands: tuple[Node, ...]
    negated: bool = False


@dataclass(frozen=True)
class Sequence:
    """Items joined by operators: ``operators[i]`` joins ``items[i]`` and ``items[i + 1]``.

    Operators are ``&&``, ``||``, ``;`` (also a newline) and ``&``.
    """

    items: tuple[Node, ...]
    operators: tuple[str, ...] = ()


@dataclass(frozen=True)
class Subshell:
    """``( ... )``: runs in a child process, so ``cd`` inside does not leak."""

    body: Node
    redirects: tuple[Redirect, ...] = ()


@dataclass(frozen=True)
class Group:
    """``{ ...; }``: runs in the current shell."""

    body: Node
    redirects: tuple[Redirect, ...] = ()


@dataclass(frozen=True)
class Conditional:
    """``if``/``while``/``until``/``case``/C-style ``for``: parts of the body may not run."""

    kind: str
    body: Node
    redirects: tuple[Redirect, ...] = ()


@dataclass(frozen=True)
class ForLoop:
    """``for NAME in WORDS; do BODY; done`` (``values`` None for ``for NAME; do``, i.e. ``"$@"``)."""

    variable: str
    values: tuple[Word, ...] | None
    body: Node
    redirects: tuple[Redirect, ...] = ()


Node = Command | Pipeline | Sequence | Subshell | Group | Conditional | ForLoop


@dataclass(frozen=True)
class Script:
    body: Sequence
    text: str
    has_errors: bool = False
    heredocs: int = 0  # how many heredocs the command holds
