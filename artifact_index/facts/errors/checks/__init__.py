"""Which check a shell command runs, and whether one check covers another.

The error ledger must know that ``cd /testbed && python -m pytest
tests/test_auth.py -x 2>&1 | tail -20`` and ``pytest tests/test_auth.py -q``
run the same check, and that a later bare ``pytest`` is a broader run of it:
when the broader run passes, the narrower run's errors are resolved.  This
package reduces a command line to that identity: :mod:`.command_line` splits
it into simple commands, :mod:`.recognition` names the check each one runs,
and :mod:`.check` says when one check covers another.

A :class:`Check` is a recognized test runner, linter, type checker or build
tool with its *targets* (paths, packages, test ids: what it runs on) and
*filters* (``-k``, ``-run``, a cargo test name: which of those it selects).
Output-shaping flags (``-q``, ``-v``, ``--tb=short``, redirections, pipes into
``tail``) are dropped, because they do not change what is checked.  Commands
that are not a known check still get a stable :func:`command_key` (the command
without ``cd``, redirections, env assignments and trailing output filters), so
``python reproduce.py`` can be matched with a later run of itself.
"""

from __future__ import annotations

import functools
import hashlib
import re

from artifact_index.facts.errors.checks.check import Check, CheckCategory
from artifact_index.facts.errors.checks.command_line import (
    PYTHON_INTERPRETER,
    executable,
    segments,
    unwrap,
    word_set,
)
from artifact_index.facts.errors.checks.recognition import segment_check
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.git import skip_global_options

__all__ = [
    "Check",
    "CheckCategory",
    "checks_in",
    "command_key",
    "covers",
    "inline_program",
    "interpreters",
    "masks_exit_status",
    "reaches",
    "segments",
    "subcommands",
]


# The ledger asks about one result's command several times (its key, whether
# it is a test run, whether it is worth reading, what it resolves).
@functools.lru_cache(maxsize=4096)
def checks_in(command: str | None) -> tuple[Check, ...]:
    """The checks ``command`` runs, in order (``ruff check . && pytest`` has two)."""
    if not command:
        return ()
    found: list[Check] = []
    for piped, words in segments(command):
        if piped:
            continue  # "| tail", "| grep FAIL": a filter of the check, not a check
        check = segment_check(words)
        if check is not None and check not in found:
            found.append(check)
    return tuple(found)


# Commands that only shape or inspect another command's output.
_OUTPUT_FILTERS = word_set(
    "head tail grep egrep fgrep rg tee less more cat sort uniq cut wc sed awk tr "
    "column jq nl fold strings xargs"
)
_NOISE = {"cd", "pushd", "popd", "echo", "printf", "true", "clear", "set", "source", ".", "export"}


def _check_directory(command: str) -> str | None:
    """The directory a ``cd`` before the command's first check moved to (None: no ``cd`` seen)."""
    directory: str | None = None
    for piped, words in segments(command):
        words = unwrap(words)
        if piped or not words:
            continue
        if executable(words[0]) == "cd" and len(words) == 2:
            target = words[1].rstrip("/") or "/"
            directory = (
                target
                if target.startswith(("/", "~")) or directory is None
                else f"{directory}/{target}"
            )
        elif segment_check(words) is not None:
            break
    return directory


def _runs_under(later: str | None, earlier: str | None) -> bool:
    """Whether a run from ``later`` can reach what a run from ``earlier`` ran: the same or a parent folder.

    Only two absolute folders are compared; a relative one, or none, says nothing of where it was.
    """
    if later is None or earlier is None or not later.startswith("/") or not earlier.startswith("/"):
        return True
    return earlier == later or earlier.startswith(later.rstrip("/") + "/")


def reaches(later: str, earlier: str) -> bool:
    """Whether the checks of ``later`` ran where ``earlier``'s did, or in a folder above (as far as its ``cd`` shows)."""
    return _runs_under(_check_directory(later), _check_directory(earlier))


@functools.lru_cache(maxsize=4096)
def masks_exit_status(command: str | None) -> bool:
    """True when the command's exit status is not its check's: ``pytest | tail``, ``make; echo``."""
    parts = segments(command or "")
    if len(parts) < 2:
        return False
    words = unwrap(parts[-1][1])
    if words and executable(words[0]) == "rm":
        # A clean-up last (`python3 /tmp/x.py; rm -f /tmp/x.py`): `rm -f` exits 0 either way.
        return any(w.startswith("-") and not w.startswith("--") and "f" in w for w in words[1:])
    return bool(words) and executable(words[0]) in _OUTPUT_FILTERS | {
        "echo",
        "true",
        ":",
        "printf",
    }


@functools.lru_cache(maxsize=4096)
def command_key(command: str | None) -> str | None:
    """A stable identity for ``command``: its checks, else its normalized words."""
    if not command:
        return None
    checks = checks_in(command)
    if checks:
        return " && ".join(check.key for check in checks)
    parts: list[str] = []
    for piped, words in segments(command):
        words = unwrap(words)
        if not words:
            continue
        name = executable(words[0])
        if name in _NOISE or (piped and name in _OUTPUT_FILTERS):
            continue
        parts.append(" ".join(words))
    if not parts:
        return None
    program = _stdin_program(command)
    # A script fed on standard input is the program, as `-c` code is: another script is another check.
    suffix = f" <<{hashlib.blake2b(program.encode(), digest_size=6).hexdigest()}" if program else ""
    return "$ " + " && ".join(parts) + suffix


# A here-document: its delimiter (quoted or not) and its body, up to the delimiter's own line.
_HEREDOC = lazy_pattern(r"<<-?[ \t]*(['\"]?)(\w+)\1[^\n]*\n(.*?)\n[ \t]*\2[ \t]*(?:\n|$)", re.S)


def _reads_stdin_program(words: list[str]) -> bool:
    """Whether an interpreter's words run the program on its standard input (``python3 -``, ``node``)."""
    if not words:
        return False
    name = executable(words[0])
    if not (PYTHON_INTERPRETER.match(name) or name in _INTERPRETERS):
        return False
    args = words[1:]
    if any(a in ("-c", "-e", "--eval", "-m") for a in args):
        return False
    operands = [a for a in args if not a.startswith("-") or a == "-"]
    return not operands or operands[0] == "-"


def _stdin_program(command: str) -> str | None:
    """The here-document an interpreter of ``command`` reads as its program, or None."""
    if "<<" not in command:
        return None
    if not any(_reads_stdin_program(unwrap(words)) for _, words in segments(command)):
        return None
    bodies = [found.group(3) for found in _HEREDOC.finditer(command)]
    return "\n".join(bodies) if bodies else None


def inline_program(command: str | None) -> str | None:
    """The program an interpreter of ``command`` runs from the command line itself, or None.

    Its ``-c`` / ``-e`` code, or the here-document it reads on standard input
    (``python3 - <<'PY' ... PY``); None when it runs a script file or no
    interpreter runs.
    """
    if not command:
        return None
    for _, raw in segments(command):
        words = unwrap(raw)
        if not words:
            continue
        name = executable(words[0])
        if not (PYTHON_INTERPRETER.match(name) or name in _INTERPRETERS):
            continue
        for at, word in enumerate(words[1:-1], start=1):
            if word in ("-c", "-e", "--eval"):
                return words[at + 1]
    return _stdin_program(command)


_INTERPRETERS = word_set(
    "python python3 python2 pypy pypy3 node deno ruby perl php bash sh zsh elixir"
)
_SHELLS = word_set("bash sh zsh")


def interpreters(command: str | None) -> frozenset[str]:
    """The language interpreters (not shells) ``command`` runs: ``python3``, ``node``."""
    found = set()
    for piped, raw in segments(command or ""):
        words = unwrap(raw)
        if piped or not words:
            continue
        name = executable(words[0])
        if (PYTHON_INTERPRETER.match(name) or name in _INTERPRETERS) and name not in _SHELLS:
            found.add(name)
    return frozenset(found)


@functools.lru_cache(maxsize=4096)
def subcommands(command: str | None) -> frozenset[str]:
    """What a command line runs, each as program and sub-command: ``{"git add", "git commit"}``.

    The identity of a command apart from its arguments, so that a corrected
    retry (``git add`` with other paths, ``python -c`` with other code) is
    known as the same action.  Interpreters are named with the script they
    run, or with ``-c`` / ``-e`` for inline code.
    """
    found: set[str] = set()
    for piped, words in segments(command or ""):
        words = unwrap(words)
        if piped or not words:
            continue
        name = executable(words[0])
        if name in _NOISE:
            continue
        args = words[1:]
        if name == "cat" and all(a.startswith("-") for a in args):
            continue  # copies its input (a heredoc into a file): nothing of its own to fail
        if name == "git":  # the subcommand after git's own options, as the shell layer reads them
            args = args[skip_global_options(args, None)[0] :]
        if PYTHON_INTERPRETER.match(name) or name in _INTERPRETERS:
            inline = next((a for a in args if a in ("-c", "-e", "--eval")), None)
            script = next((a for a in args if not a.startswith("-")), "")
            found.add(f"{name} {inline or executable(script)}".strip())
            continue
        sub = next((a for a in args if not a.startswith("-")), "")
        found.add(f"{name} {sub}".strip())
    return frozenset(found)


def covers(later: str | None, earlier: str | None, category: str | None = None) -> bool:
    """True when ``later`` runs at least every check ``earlier`` ran.

    For commands that are not known checks, the same normalized command counts,
    and so does the same program and sub-command with words added.  With
    ``category`` ("test", "lint"...), only ``earlier``'s checks of that category
    need covering: a test failure of `go build ./... && go test ./pkg -run X` is
    settled by `go test ./pkg`, which runs the test again though not the build.
    """
    if not later or not earlier:
        return False
    if not _runs_under(_check_directory(later), _check_directory(earlier)):
        return False  # `cd agents/kiro && go test ./...` runs none of `cd e2e && go test .`
    if command_key(later) == command_key(earlier):
        return True
    later_checks, earlier_checks = checks_in(later), checks_in(earlier)
    if category is not None:
        later_checks = tuple(c for c in later_checks if c.category == category)
        earlier_checks = tuple(c for c in earlier_checks if c.category == category)
        if not later_checks or not earlier_checks:
            return False
    if not later_checks and not earlier_checks:
        # Not checks: the same program and sub-command with only words added
        # (`git push` then `git push --set-upstream origin topic`) is a rerun.
        old, new = (command_key(earlier) or "").split(), (command_key(later) or "").split()
        return len(old) >= 2 and new[:2] == old[:2] and set(old) <= set(new)
    if not later_checks or not earlier_checks:
        return False
    return all(any(new.covers(old) for new in later_checks) for old in earlier_checks)
