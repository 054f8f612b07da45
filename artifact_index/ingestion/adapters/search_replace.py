"""SEARCH/REPLACE edit blocks, the edit language of Aider and Cline.

Both agents ask the model for blocks of the shape::

    <<<<<<< SEARCH          (Cline: ------- SEARCH)
    old lines
    =======
    new lines
    >>>>>>> REPLACE         (Cline: +++++++ REPLACE)

An empty SEARCH section means "start a new file" (Aider) or "append"; the
adapters decide which from the surrounding evidence.  This module only cuts
the text into ``(old, new)`` pairs, keeping the line where each block starts.
"""

from __future__ import annotations

from dataclasses import dataclass

from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["DIVIDER", "HEAD", "TAIL", "Block", "parse_blocks"]

# Aider accepts 5 to 9 marker characters; old Aider releases said ORIGINAL/UPDATED.
HEAD = lazy_pattern(r"^(?:<{5,9}|-{5,9}) (?:SEARCH|ORIGINAL)>?\s*$")
DIVIDER = lazy_pattern(r"^={5,9}\s*$")
TAIL = lazy_pattern(r"^(?:>{5,9}|\+{5,9}) (?:REPLACE|UPDATED)\s*$")


@dataclass(frozen=True)
class Block:
    """One SEARCH/REPLACE block: ``index`` is the 0-based line of its SEARCH marker."""

    index: int
    old: str
    new: str


def _joined(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


def parse_blocks(lines: list[str], start: int = 0) -> list[Block]:
    """The complete blocks in ``lines`` (an unterminated block is dropped).

    ``start`` is added to each block's index so callers can pass a slice and
    still get positions in the whole file.
    """
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        if not HEAD.match(lines[i]):
            i += 1
            continue
        head = i
        old: list[str] = []
        new: list[str] = []
        section = old
        i += 1
        closed = False
        while i < len(lines):
            line = lines[i]
            if HEAD.match(line):
                break  # a new block started before this one closed
            if DIVIDER.match(line) and section is old:
                section = new
            elif TAIL.match(line):
                closed = section is new
                i += 1
                break
            else:
                section.append(line)
            i += 1
        if closed:
            blocks.append(Block(start + head, _joined(old), _joined(new)))
    return blocks
