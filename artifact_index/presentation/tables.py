"""Tables for a terminal: columns as wide as their content, shortened to fit the width when there is one.

A column that may give way says how: a path loses its middle (the folder it
starts in and the file name stay), free text loses its end.  The others keep
their width.  Without a width (output into a pipe, or ``--wide``) nothing is
shortened.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = ["Column", "render_table", "shorten_end", "shorten_middle"]

ELLIPSIS = "…"
# Narrower than this, a shortened path says too little to be worth a column.
MIN_FLEXIBLE = 12


@dataclass(frozen=True)
class Column:
    header: str
    min_width: int = 0
    shrink: Literal["keep", "middle", "end"] = "keep"


def shorten_middle(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters, its middle replaced by an ellipsis (the end weighs more)."""
    if len(text) <= width:
        return text
    if width <= 1:
        return ELLIPSIS[:width]
    tail = (width - 1) * 3 // 5
    head = width - 1 - tail
    return text[:head] + ELLIPSIS + text[len(text) - tail :]


def shorten_end(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters, cut at the end."""
    if len(text) <= width:
        return text
    return text[: max(width - 1, 0)] + ELLIPSIS if width > 0 else ""


def _widths(
    columns: Sequence[Column], rows: Sequence[Sequence[str]], width: int | None, gap: int
) -> list[int]:
    natural = [
        max([len(column.header), column.min_width, *(len(row[i]) for row in rows)])
        for i, column in enumerate(columns)
    ]
    if width is None:
        return natural
    gaps = len(columns) - 1
    flexible = [i for i, column in enumerate(columns) if column.shrink != "keep"]
    fixed = sum(w for i, w in enumerate(natural) if i not in flexible)
    room = width - fixed - gaps * gap
    if sum(natural[i] for i in flexible) <= room:
        return natural
    widths = list(natural)
    # Free text gives way before paths: it keeps a little, the paths share the rest fairly (a
    # column needing less than its share leaves the difference to the others), and free text
    # gets what is left over.
    texts = [i for i in flexible if columns[i].shrink == "end"]
    paths = [i for i in flexible if columns[i].shrink == "middle"]
    room -= sum(min(natural[i], MIN_FLEXIBLE) for i in texts)
    pending = sorted(paths, key=lambda i: natural[i])
    while pending:
        i = pending.pop(0)
        share = max(room // (len(pending) + 1), MIN_FLEXIBLE)
        widths[i] = max(min(natural[i], share), min(MIN_FLEXIBLE, natural[i]))
        room -= widths[i]
    for i in texts:
        widths[i] = max(
            min(natural[i], room + min(natural[i], MIN_FLEXIBLE)), min(natural[i], MIN_FLEXIBLE)
        )
        room -= widths[i] - min(natural[i], MIN_FLEXIBLE)
    return widths


def render_table(
    columns: Sequence[Column],
    rows: Sequence[Sequence[str]],
    width: int | None = None,
    *,
    separator: str = "  ",
) -> list[str]:
    """The header and the rows as lines at most ``width`` wide where the flexible columns allow it."""
    widths = _widths(columns, rows, width, len(separator))
    lines = []
    for row in [[c.header for c in columns], *rows]:
        cells = []
        for i, (column, cell) in enumerate(zip(columns, row, strict=True)):
            if column.shrink == "middle":
                cell = shorten_middle(cell, widths[i])
            elif column.shrink == "end":
                cell = shorten_end(cell, widths[i])
            cells.append(cell if i == len(columns) - 1 else f"{cell:{widths[i]}}")
        lines.append(separator.join(cells).rstrip())
    return lines
