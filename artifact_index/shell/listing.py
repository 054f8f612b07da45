"""A plain command list -> its simple commands, in order.

Some questions are about what a command *prints* rather than what it
changes: which diff did ``echo DONE && git add -A && git diff --cached``
hand to the harness?  :func:`simple_commands` flattens a list of simple
commands joined by ``&&``, ``||``, ``;`` or pipes (and ``{ ...; }``
groups) into :class:`SimpleCommand` values with their expanded arguments,
the directory each runs in (``cd`` followed) and the file their standard
output goes to.  Anything with more structure (subshells, loops,
conditionals) or a parse error gives ``None``: the caller must then say it
does not know, rather than guess from part of the command.
"""

from __future__ import annotations

from dataclasses import dataclass

from artifact_index.shell.expand import Scope, expand_word, word_text
from artifact_index.shell.invocation import program_name
from artifact_index.shell.parser import (
    Command,
    Group,
    Node,
    Pipeline,
    Sequence,
    Sub,
    parse_command,
)
from artifact_index.shell.state import join
from artifact_index.shell.windows import parse_windows
from artifact_index.shell.wrappers import unwrap_words

__all__ = ["SimpleCommand", "simple_commands"]


@dataclass(frozen=True)
class SimpleCommand:
    """One simple command of a list.

    ``argv``: the expanded arguments (``None`` for one known only at run
    time); ``program``: the program's name without its directory;
    ``cwd``: where it runs (None when unknown); ``stdout``: the file its
    output is written to (``>``), None when the output goes to the
    terminal or the next command of a pipe; ``piped``: its output feeds a
    pipe rather than the terminal.
    """

    argv: tuple[str | None, ...]
    program: str | None
    cwd: str | None
    stdout: str | None = None
    piped: bool = False


def _no_substitution(_: Sub) -> str | None:
    return None


def simple_commands(
    command: str, cwd: str | None, dialect: str | None = None
) -> tuple[SimpleCommand, ...] | None:
    """The simple commands of ``command`` in order, or None when it is not a plain list.

    ``dialect`` is the shell the harness declared it runs the command in: a PowerShell or
    cmd.exe command is read as that shell reads it (a here-string is one word).
    """
    script = (
        parse_windows(command, "powershell" if dialect == "powershell" else "cmd")
        if dialect in ("powershell", "cmd")
        else parse_command(command)
    )
    if script.has_errors:
        return None
    out: list[SimpleCommand] = []
    scope = Scope(cwd if cwd is not None else "")
    return tuple(out) if _flatten(script.body, scope, out, piped=False) else None


def _flatten(node: Node, scope: Scope, out: list[SimpleCommand], *, piped: bool) -> bool:
    if isinstance(node, Sequence):
        return all(_flatten(item, scope, out, piped=piped) for item in node.items)
    if isinstance(node, Group) and not node.redirects:
        return _flatten(node.body, scope, out, piped=piped)
    if isinstance(node, Pipeline) and not node.negated:
        last = len(node.commands) - 1
        # Pipeline elements run in subshells: a `cd` there does not last.
        return all(
            _flatten(item, scope if last == 0 else Scope(scope.cwd), out, piped=piped or k < last)
            for k, item in enumerate(node.commands)
        )
    if isinstance(node, Command):
        return _simple(node, scope, out, piped=piped)
    return False


def _simple(node: Command, scope: Scope, out: list[SimpleCommand], *, piped: bool) -> bool:
    if not node.argv:
        for name, word in node.assignments:
            scope.variables[name] = word_text(word, scope, _no_substitution)
        return not node.redirects
    argv: list[str | None] = []
    for word in node.argv:
        argv.extend(arg.value for arg in expand_word(word, scope, None, _no_substitution))
    stdout: str | None = None
    for redirect in node.redirects:
        if (
            redirect.op in (">", ">|", "&>")
            and redirect.fd in (None, 1)
            and redirect.target is not None
        ):
            targets = expand_word(redirect.target, scope, None, _no_substitution)
            value = targets[0].value if len(targets) == 1 else None
            if value is None:
                return False
            stdout = join(scope.cwd, value)
        elif redirect.op in (">>", "&>>") and redirect.fd in (None, 1):
            return False  # appended output mixes with what the file held: not one command's output
    if argv and all(value is not None for value in argv):
        # `rtk git status`, `timeout 60 git log`: the command is the one the wrapper runs.
        argv = list(unwrap_words([value for value in argv if value is not None])) or argv
    program = program_name(argv[0]) if argv else None
    here = scope.cwd or None
    if program == "cd":
        operands = [a for a in argv[1:] if a not in ("-L", "-P", "--")]
        target = operands[0] if operands else None
        scope.cwd = join(scope.cwd, target) if target else None
    out.append(SimpleCommand(tuple(argv), program, here, stdout, piped and stdout is None))
    return True
