"""Folders a starter was scaffolded into, and which of their files the starter wrote.

A scaffolder (``npx create-next-app .``, ``npm create vite app``) writes a
project it does not name file by file.  The folder is kept with the command
that scaffolded it (see
:attr:`~artifact_index.trail.session_state.SessionState.scaffolded_trees`): a
file there that the session first touched after that command ran, and that a
``git status`` shows new to git, is one the starter wrote, so the session
created it.  A file touched before the scaffolder ran was there already.

The first ``git status`` or ``git commit`` after the scaffold settles it: the
starter's files are new to git then, listed or committed; a file new to git
in a later listing may be any later command's, so the folder is forgotten.
"""

from __future__ import annotations

from artifact_index.shell.listing import simple_commands
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.paths import file_key, key_under
from artifact_index.trail.session_state import PossibleChange

__all__ = ["scaffold_before", "settles_scaffolds"]

_SETTLING = frozenset({"status", "commit"})


def scaffold_before(key: str, first_seq: int | None, index: ArtifactIndex) -> PossibleChange | None:
    """The scaffold into a folder holding ``key`` that ran before the session first touched the file.

    ``first_seq``: the operation that first touched the file (None: none yet).
    """
    root = index.session.root
    for tree, scaffold in index.session.scaffolded_trees.items():
        if not key_under(key, file_key(tree, None, root)):
            continue
        if first_seq is None or (scaffold.seq is not None and first_seq > scaffold.seq):
            return scaffold
    return None


def settles_scaffolds(command: str, cwd: str | None) -> bool:
    """Whether ``command`` runs a ``git status`` or ``git commit``, after which no scaffold is followed."""
    if "git" not in command:
        return False  # most commands: no parse needed
    steps = simple_commands(command, cwd)
    if steps is None:
        return "git status" in command or "git commit" in command
    return any(step.program == "git" and _git_subcommand(step.argv) in _SETTLING for step in steps)


def _git_subcommand(argv: tuple[str | None, ...]) -> str | None:
    """``git -C dir status -s`` -> ``status``: the first word after git's own options."""
    k = 1
    while k < len(argv):
        word = argv[k]
        if word in ("-C", "-c", "--git-dir", "--work-tree"):
            k += 2
        elif word is not None and word.startswith("-"):
            k += 1
        else:
            return word
    return None
