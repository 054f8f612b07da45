"""What one simple command does: the file operations it performs and, when known, what it prints."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from artifact_index.ingestion.events import UNNAMED_READ, FileOperation
from artifact_index.shell.invocation import Invocation, Runtime

__all__ = ["UNNAMED_READ", "Effect", "Handler"]


@dataclass
class Effect:
    operations: list[FileOperation] = field(default_factory=list)
    stdout: str | None = None  # what the command prints, when known
    # The program may change files it does not name and whose effects are not
    # modelled (an unknown CLI, a project script): nothing is claimed, but a
    # change seen in the working tree while it ran may be its doing.
    opaque: bool = False


# How one program's effects are computed.
Handler = Callable[[Invocation, Runtime], Effect]
