"""Whether a command line searches file contents: ``grep -rn``, ``rg``, ``git grep``.

The summarizer keeps what a search looked for and where it matched.  Which
commands of a line are searches is read from the line's parse, as the
effect inference reads it: a search program run as a command of its own, or
behind a wrapper (``timeout 30 rg``), anywhere in a sequence, loop or
substitution.  A search that reads a pipe (``pytest | grep FAILED``) filters
another command's output and finds no places in files; words that only look
like a search (``echo "then grep it"``, a heredoc's body) run none.
"""

from __future__ import annotations

from artifact_index.shell.simple_commands import simple_commands
from artifact_index.shell.wrappers import executable, unwrap_words

__all__ = ["runs_search"]

# Programs that search the contents of files they are given or find.
_SEARCH_PROGRAMS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack"})


def runs_search(command: str) -> bool:
    """True when a command of ``command`` that reads no pipe searches file contents."""
    for piped, words in simple_commands(command):
        if piped:
            continue
        program = unwrap_words(words)
        if not program:
            continue
        name = executable(program[0])
        if name in _SEARCH_PROGRAMS or (name == "git" and program[1:2] == ["grep"]):
            return True
    return False
