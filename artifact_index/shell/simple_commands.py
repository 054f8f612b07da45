"""The simple commands of a command line as words: what the error checks and work items read.

The effect inference walks the parsed command itself; readers that only ask
which programs a command line runs (``cd /testbed && timeout 60 pytest -x
2>&1 | tail``: ``cd`` and ``pytest``, then ``tail`` on the pipe) get its
simple commands from the same parse, flattened: each as its words with
quoting removed, its assignments and redirections (heredoc bodies with
them) left out.  A word whose value is known only at run time keeps its
expansions as written (``$TESTS``, ``$(cat list)``), unless it is just a
variable an earlier assignment on its own set (``PY=/env/bin/python``,
then ``$PY -m pytest``).

The commands a command substitution runs (``out=$(pytest -q)``) come before
the command they are part of, as bash runs them; those in a loop's or a
conditional's body are listed once, in order.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from artifact_index.shell.parser import (
    Command,
    Conditional,
    ForLoop,
    Group,
    Lit,
    Node,
    Pipeline,
    Sequence,
    Sub,
    Subshell,
    Var,
    Word,
    parse_command,
)

__all__ = ["process_substitutions", "simple_commands", "statements", "word_text"]


def word_text(word: Word, variables: Mapping[str, str] | None = None) -> str:
    """The word's value, with any expansion as written (``$name`` for a variable).

    A word that is just a variable ``variables`` holds is that variable's value.
    """
    if variables and len(word.parts) == 1 and isinstance(word.parts[0], Var):
        value = variables.get(word.parts[0].name)
        if value is not None:
            return value
    literal = word.literal
    if literal is not None:
        return literal
    return "".join(
        part.text
        if isinstance(part, Lit)
        else f"${part.name}"
        if isinstance(part, Var)
        else part.raw
        for part in word.parts
    )


# The ledger, the test results, the work items and the failure reader all ask
# for the simple commands of the command a result belongs to.
@functools.lru_cache(maxsize=4096)
def simple_commands(command: str) -> tuple[tuple[bool, tuple[str, ...]], ...]:
    """Each simple command of ``command`` as ``(piped, words)``, in the order they run.

    ``piped`` is True when the command reads the previous one's output
    (``... | tail -20``).
    """
    found: list[tuple[bool, tuple[str, ...]]] = []
    _collect(parse_command(command).body, False, found, {})
    return tuple(found)


def _collect(
    node: Node,
    piped: bool,
    found: list[tuple[bool, tuple[str, ...]]],
    variables: dict[str, str],
) -> None:
    # An explicit stack: a command line of thousands of `&&` steps is a flat Sequence, but
    # nested groups and loops recurse.
    stack: list[tuple[Node, bool]] = [(node, piped)]
    while stack:
        current, piped = stack.pop()
        if isinstance(current, Command):
            for sub in _substitutions(current):
                _collect(sub.script, False, found, variables)
            if current.argv:
                found.append((piped, tuple(word_text(word, variables) for word in current.argv)))
            else:
                # `PY=/env/bin/python` on its own, then `$PY -m pytest`: the later word is that value.
                for name, value in current.assignments:
                    if value.literal is not None:
                        variables[name] = value.literal
        elif isinstance(current, Pipeline):
            stack.extend(
                (item, piped or i > 0) for i, item in reversed(list(enumerate(current.commands)))
            )
        elif isinstance(current, Sequence):
            stack.extend((item, piped) for item in reversed(current.items))
        elif isinstance(current, (Subshell, Group, Conditional, ForLoop)):
            stack.append((current.body, piped))


@functools.lru_cache(maxsize=1024)
def statements(command: str) -> tuple[tuple[str, str], ...] | None:
    """The pipelines of a command line, each as written with the operator after it (``&&``, ``;``, ``""`` last).

    ``go build ./... | head; go test ./x``: ``("go build ./... | head", ";")``, ``("go test ./x", "")``.
    None when a part is more than a pipeline of simple commands (a loop, a group, a subshell).
    """
    script = parse_command(command)
    body = script.body
    items, operators = (body.items, body.operators) if isinstance(body, Sequence) else ((body,), ())
    found: list[tuple[str, str]] = []
    for i, item in enumerate(items):
        parts = item.commands if isinstance(item, Pipeline) else (item,)
        if script.has_errors or not all(isinstance(p, Command) and p.text for p in parts):
            return None
        text = " | ".join(p.text for p in parts if isinstance(p, Command))
        found.append((text, operators[i] if i < len(operators) else ""))
    return tuple(found)


@functools.lru_cache(maxsize=4096)
def process_substitutions(command: str) -> tuple[str, ...]:
    """The ``<(...)`` and ``>(...)`` of ``command``, as written (those inside a ``$(...)`` too).

    Their programs only produce a file another program reads: ``diff <(gh api …) local.yaml``
    exits with diff's status.
    """
    found: list[str] = []
    stack: list[Node] = [parse_command(command).body]
    while stack:
        current = stack.pop()
        if isinstance(current, Command):
            for sub in _substitutions(current):
                if sub.process:
                    found.append(sub.raw)
                else:
                    stack.append(sub.script)
        elif isinstance(current, Pipeline):
            stack.extend(current.commands)
        elif isinstance(current, Sequence):
            stack.extend(current.items)
        elif isinstance(current, (Subshell, Group, Conditional, ForLoop)):
            stack.append(current.body)
    return tuple(found)


def _substitutions(command: Command) -> list[Sub]:
    """The ``$(...)`` and ``<(...)`` of a command's words and assignments, in order."""
    words = [*(value for _, value in command.assignments), *command.argv]
    return [part for word in words for part in word.parts if isinstance(part, Sub)]
