"""How the offline narrative quotes: a text on one line, a tracker item by id and title."""

from __future__ import annotations

from artifact_index.facts.work_items import WorkItem

__all__ = ["first_line", "item_name"]


def first_line(text: str, limit: int = 300) -> str:
    """``text`` on one line, cut to ``limit`` characters."""
    line = " ".join(text.strip().split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def item_name(item: WorkItem, limit: int = 100) -> str:
    return f"`{item.id}`" + (f" ({first_line(item.title, limit)})" if item.title else "")
