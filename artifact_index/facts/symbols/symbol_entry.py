"""A definition as the trail reports it: what the session did to it, net, and when."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

__all__ = ["NetChange", "SymbolEntry"]

NetChange = Literal["added", "modified", "removed", "read"]


class SymbolEntry(BaseModel):
    """A definition the session changed or saw, with its net change."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    name: str
    kind: str
    container: str | None
    change: NetChange
    turns: list[int]
