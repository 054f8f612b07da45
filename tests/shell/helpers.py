"""A fake tracker context and small helpers for the shell tests."""

from __future__ import annotations

from dataclasses import dataclass, field

from artifact_index.ingestion.events import FileOperation
from artifact_index.shell import ShellAnalysis, analyze_command

ROOT = "/w"


@dataclass
class FakeContext:
    """What a tracker would know: file contents by absolute path, and directories."""

    files: dict[str, str | None] = field(default_factory=dict)
    directories: set[str] = field(default_factory=set)

    def content_of(self, path: str) -> str | None:
        return self.files.get(path)

    def files_under(self, directory: str) -> list[str]:
        prefix = directory.rstrip("/") + "/"
        return sorted(p for p in self.files if p.startswith(prefix))

    def is_directory(self, path: str) -> bool | None:
        if path in self.directories or self.files_under(path):
            return True
        if path in self.files:
            return False
        return None


def analyze(
    command: str,
    *,
    cwd: str | None = ROOT,
    files: dict[str, str | None] | None = None,
    succeeded: bool | None = True,
    directories: set[str] | None = None,
    output: str | None = None,
) -> ShellAnalysis:
    context = FakeContext(dict(files or {}), set(directories or ()))
    return analyze_command(command, cwd, succeeded=succeeded, context=context, output=output)


def short(path: str | None) -> str | None:
    if path is not None and path.startswith(ROOT + "/"):
        return path[len(ROOT) + 1 :]
    return path


def effects(
    analysis: ShellAnalysis, *, reads: bool = False
) -> list[tuple[str, str | None] | tuple[str, str | None, str | None]]:
    """(action, path[, dest]) of each operation, paths relative to /w; reads left out unless asked."""
    out: list[tuple[str, str | None] | tuple[str, str | None, str | None]] = []
    for op in analysis.operations:
        if op.action == "read" and not reads:
            continue
        if op.dest is not None:
            out.append((op.action, short(op.path), short(op.dest)))
        else:
            out.append((op.action, short(op.path)))
    return out


def only(analysis: ShellAnalysis, action: str) -> FileOperation:
    """The single operation with ``action``."""
    found = [op for op in analysis.operations if op.action == action]
    assert len(found) == 1, analysis.operations
    return found[0]
