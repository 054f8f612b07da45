"""Which step of a failed ``a && b && c`` chain failed, and which pipeline's head failed unseen.

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

A pipeline's exit status is its last command's: ``git stash -u 2>&1 | head``
succeeds when git refused to stash, so the call looks successful.  When the
pipeline's head is a git command that either changes nothing or everything
(stash, checkout, restore, reset, switch, clean, rm, mv, apply), every
later command only filters text, and the output holds git's own
``error:`` or ``fatal:`` line, the head failed and changed nothing.  Git
commands that can stop half-way with files written (merge, rebase, pull,
cherry-pick, am) are left as they are.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence

from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.git import skip_global_options
from artifact_index.shell.parser import Command, Node

__all__ = ["echoed_status", "failed_pipeline_head", "failed_step", "shell_refused_to_parse"]

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


# Git commands that refuse as a whole: an `error:`/`fatal:` from them means nothing changed.
_ALL_OR_NOTHING_GIT = frozenset(
    {"stash", "checkout", "restore", "reset", "switch", "clean", "rm", "mv", "apply"}
)
# Programs that only read their input and print: they cannot hide or cause a change.
_TEXT_FILTERS = frozenset(
    {
        "head",
        "tail",
        "grep",
        "egrep",
        "fgrep",
        "rg",
        "cat",
        "less",
        "more",
        "sort",
        "uniq",
        "wc",
        "cut",
        "tr",
        "column",
        "nl",
        "fold",
    }
)
_GIT_REFUSAL = lazy_pattern(r"^(?:error|fatal): ", re.MULTILINE)


def _git_subcommand(node: Node) -> str | None:
    """``stash`` of ``git -C dir stash -u``; None when not git or not literal."""
    if not isinstance(node, Command) or _program(node) != "git":
        return None
    words = [w.literal for w in node.argv[1:]]
    start, _ = skip_global_options(words, None)
    return words[start] if start < len(words) else None


def failed_pipeline_head(commands: Sequence[Node], output: str | None) -> bool:
    """Whether a pipeline's first command is a git command the output shows refused."""
    if not output or len(commands) < 2:
        return False
    if _git_subcommand(commands[0]) not in _ALL_OR_NOTHING_GIT:
        return False
    if any(_program(item) not in _TEXT_FILTERS for item in commands[1:]):
        return False
    return _GIT_REFUSAL.search(output) is not None


# The harness's shell refusing the command text, as the first line of the call's output.
_SHELL_SYNTAX_ERROR = lazy_pattern(
    r"\A(?:Exit code \d+\n)?"
    r"(?:(?:\(eval\)|zsh):\d*:? ?(?:unmatched |parse error|bad substitution)"
    r"|(?:/\S*/)?(?:ba)?sh: (?:-c|eval): line 1: (?:syntax error|unexpected EOF)"
    # PowerShell parses the whole script before it runs a line of it: 7 says "ParserError:",
    # Windows PowerShell 5 prints the place, then "CategoryInfo : ParserError".
    r"|ParserError:|At line:\d+ char:\d+\r?\n(?:[^\n]*\n){0,12}?\s*\+ CategoryInfo\s*: ParserError)"
)


def shell_refused_to_parse(output: str | None) -> bool:
    """Whether a failed call's output says its shell could not parse the command."""
    return output is not None and _SHELL_SYNTAX_ERROR.match(output.lstrip("\n")) is not None


def echoed_status(after: Node, output: str | None) -> int | None:
    """The exit status a step printed right after the one before it (``…; echo "exit=$?"``).

    Agents print it to see how a step ended when the whole command must
    succeed.  Found only when the echo's words are literal text around one
    ``$?`` and the output holds that line with one status (a loop printing
    several different ones says nothing about any single run).
    """
    if output is None or _program(after) != "echo" or not isinstance(after, Command):
        return None
    words = after.text.split(None, 1)
    if len(words) != 2:
        return None
    text = words[1].replace('"', "").replace("'", "")
    before, found, rest = text.partition("$?")
    if not found or "$" in before + rest or "\\" in text or text.startswith("-"):
        return None
    line = re.compile(rf"^{re.escape(before)}(\d+){re.escape(rest)}$", re.MULTILINE)
    statuses = {int(m.group(1)) for m in line.finditer(output)}
    return statuses.pop() if len(statuses) == 1 else None
