"""Which step of a failed ``a && b && c`` chain failed, when its output says so.

A chain of ``&&`` stops at its first failure: the steps after it never run,
not even their redirections.  Knowing only that the whole command failed,
the analysis assumes the last step failed and every earlier one ran.  Most
of the time the output says otherwise: a program that fails names itself at
the start of its complaint (``awk: line 1: syntax error``, ``mv: cannot
stat 'x'``, ``bash: line 1: foo: command not found``, ``zsh:1: command not
found: foo``).  Such a line names the step that stopped the chain.

Decisions, precision first:

* Only a step that is one simple command with a literal program name is
  recognized, and only when no other step of the chain runs a program of
  the same name (``sed ... && sed ...`` cannot say which one complained).
* When a later step's program complains too, the later step ran: the
  output cannot name the failed step, and the default stands.
* A ``warning`` (or tar's notice that it removes a leading ``/``) names a
  program that went on: it is no failure.
* From the failed step to the end, the steps must be joined by ``&&``
  alone; after an ``||`` or ``;`` a later step may have run anyway.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence

from artifact_index.shell.parser import Command, Node

__all__ = ["failed_step"]

# A shell's own prefix before a program's complaint: `bash: line 1: `, `/bin/sh: 1: `.
_SHELL_PREFIX = r"(?:(?:/\S*/)?(?:ba|da|k|z)?sh:(?: line)? ?\d*:? )?"


def _program(node: Node) -> str | None:
    if not isinstance(node, Command) or not node.argv:
        return None
    word = node.argv[0].literal
    if not word or word.startswith("-"):
        return None
    return posixpath.basename(word)


def _complains(program: str, output: str) -> bool:
    """Whether ``output`` holds a failure ``program`` reported about itself."""
    name = re.escape(program)
    pattern = re.compile(
        rf"^(?:{_SHELL_PREFIX}{name}: (?!warning|Removing leading)"
        rf"|{_SHELL_PREFIX}(?:command not found|not found): {name}\s*$)",
        re.MULTILINE | re.IGNORECASE,
    )
    return pattern.search(output) is not None


def failed_step(items: Sequence[Node], operators: Sequence[str], output: str | None) -> int | None:
    """The index of the step that stopped a failed chain, when the output names one before the last."""
    if not output or len(items) < 2:
        return None
    programs = [_program(item) for item in items]
    for k in range(len(items) - 1):
        program = programs[k]
        if program is None or programs.count(program) > 1 or not _complains(program, output):
            continue
        if any(op != "&&" for op in operators[k : len(items) - 1]):
            return None
        later = (p for p in programs[k + 1 :] if p is not None)
        if any(_complains(p, output) for p in later):
            return None
        return k
    return None
