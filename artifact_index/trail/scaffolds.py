"""Folders a starter was scaffolded into, and which of their files the starter wrote.

A scaffolder (``npx create-next-app .``, ``npm create vite app``) writes a
project it does not name file by file.  The folder is kept with the command
that scaffolded it (see
:attr:`~artifact_index.trail.session_state.SessionState.scaffolded_trees`): a
file there that the session first touched after that command ran, and that a
``git status`` shows new to git, is one the starter wrote, so the session
created it.  A file touched before the scaffolder ran was there already.
"""

from __future__ import annotations

from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.paths import file_key, key_under
from artifact_index.trail.session_state import PossibleChange

__all__ = ["scaffold_before"]


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
