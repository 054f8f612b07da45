"""What one simple command does: the file operations it performs and, when known, what it prints."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from artifact_index.ingestion.events import FileOperation
from artifact_index.shell.invocation import Invocation, Runtime

__all__ = ["Effect", "Handler"]


@dataclass
class Effect:
    operations: list[FileOperation] = field(default_factory=list)
    stdout: str | None = None  # what the command prints, when known


# How one program's effects are computed.
Handler = Callable[[Invocation, Runtime], Effect]
