"""Whether an edit undoes the one before it, when the file's content is not known.

An agent that edits ``A`` to ``B`` and later ``B`` back to ``A`` has put the
file back, but the trail cannot see it by comparing contents when no read
ever showed the whole file.  It can see it from the edits themselves, where
an edit says exactly where it applies:

* a string replacement by a tool that refuses an ambiguous match (the old text
  must occur once): ``A`` was at one place, ``B`` is there now and only there,
  so ``B`` → ``A`` puts back what ``A`` → ``B`` changed;
* a diff whose hunks carry their line numbers: the inverse hunks at the same
  lines with the sides swapped.

A replacement by a tool that takes the first match (Aider's and Cline's
SEARCH/REPLACE blocks) could put ``A`` back at an earlier ``B``, and a diff
without line numbers is placed by its context: neither has a shape, and the
trail keeps the file changed.
"""

from __future__ import annotations

import hashlib

from artifact_index.ingestion.events import FileOperation
from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["EditShape", "edit_shape", "undoes"]

# What an edit changed, where: digests of the text it replaced and of the text it
# wrote, each led by where it applies (the hunks' line numbers), so that the
# inverse edit is the same pair swapped.  Digests, not the texts: the saved state
# keeps a file's trail, and a long run of edits would keep every text twice.
EditShape = tuple[str, str]

# Tools whose string replacement takes the first match of the old text, not the only one.
_FIRST_MATCH_TOOLS = frozenset({"apply_edit", "replace_in_file"})

_HUNK = lazy_pattern(r"^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@")


def edit_shape(op: FileOperation, tool: str) -> EditShape | None:
    """The shape of an edit whose place in the file is exact, or None."""
    if op.action != "edit" or op.detail is not None:
        return None
    if op.old is not None and op.new is not None:
        if not op.old or op.replace_all or tool in _FIRST_MATCH_TOOLS:
            return None
        return (_digest(f"text\n{op.old}"), _digest(f"text\n{op.new}"))
    if op.diff:
        return _diff_shape(op.diff)
    return None


def undoes(shape: EditShape, earlier: EditShape) -> bool:
    """Whether an edit of ``shape`` puts back exactly what the edit of ``earlier`` changed."""
    return shape == (earlier[1], earlier[0])


def _diff_shape(diff: str) -> EditShape | None:
    before: list[str] = []
    after: list[str] = []
    numbered = False
    last: list[list[str]] = []  # the sides the line before was on
    for line in diff.splitlines():
        header = _HUNK.match(line)
        if header:
            numbered = True
            before.append(f"@{header.group(1)}")
            after.append(f"@{header.group(2)}")
        elif line.startswith("@@"):
            return None  # a hunk placed by its context alone
        elif line.startswith(("---", "+++")) and not numbered:
            continue  # the file names before the first hunk
        elif line.startswith("-"):
            before.append(line[1:])
            last = [before]
        elif line.startswith("+"):
            after.append(line[1:])
            last = [after]
        elif line.startswith("\\"):
            for side in last:  # "\ No newline at end of file", of the line before's side
                side.append(line)
        else:
            context = line[1:] if line.startswith(" ") else line
            before.append(context)
            after.append(context)
            last = [before, after]
    if not numbered:
        return None
    return (_digest("diff\n" + "\n".join(before)), _digest("diff\n" + "\n".join(after)))


def _digest(text: str) -> str:
    # Stable across processes (a saved state is resumed by another one), unlike hash().
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
