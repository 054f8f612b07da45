"""A shell command in the trail: its analyzed file effects, then what it tells the git, work-state and directory models.

The tracker applies the effects between :func:`analyze_shell` and
:func:`follow_shell`, like any tool's operations.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from artifact_index.facts.work_items import observe_tracker_command
from artifact_index.ingestion.events import FileOperation, ToolResult
from artifact_index.shell import analyze_command
from artifact_index.shell.state import ShellContext
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.paths import is_absolute, join
from artifact_index.trail.submission import GitModel
from artifact_index.trail.work_state import WorkState

__all__ = ["PERSISTENT_SHELL_FORMATS", "ShellRun", "analyze_shell", "follow_shell"]

# Formats whose shell tool keeps one shell process, so a `cd` in one command
# moves every later command (and relative paths of later tool calls).
PERSISTENT_SHELL_FORMATS = frozenset(
    {"claude-code", "entire-compact", "swe-agent", "openhands", "copilot-cli", "cline"}
)

# Claude Code's note when a `cd` left the project: the next command starts in the project again.
_CWD_RESET = re.compile(r"^Shell cwd was reset to (/\S.*?)\s*$", re.M)


@dataclass
class ShellRun:
    """One analyzed shell command."""

    cwd: str | None  # where it ran
    succeeded: bool | None
    effects: list[FileOperation]
    lone_read: bool  # the output shows one file: reading it is the whole command
    cwd_after: str | None
    opaque: tuple[str, ...] = ()  # commands that may change files they do not name
    cleared: tuple[str, ...] = ()  # directories it removed with everything in them


def analyze_shell(
    index: ArtifactIndex,
    context: ShellContext,
    op: FileOperation,
    cwd: str | None,
    result: ToolResult,
) -> ShellRun:
    """The file effects of ``op``'s command; the directories it made or emptied are noted at once."""
    session = index.session
    succeeded = {"success": True, "failure": False}.get(result.status)
    shell_cwd = op.cwd or cwd
    if shell_cwd and not is_absolute(shell_cwd):
        shell_cwd = join(cwd, shell_cwd)
    analysis = analyze_command(
        op.command or "",
        shell_cwd,
        succeeded=succeeded,
        context=context,
        workspace=session.root,
        output=result.output or None,
        dialect=op.dialect,
    )
    if analysis.directories:
        session.directories = sorted({*session.directories, *analysis.directories})
    if analysis.cleared:
        session.cleared_directories = sorted({*session.cleared_directories, *analysis.cleared})
    if analysis.scratch_files:
        # What temporary files hold (a /tmp script the agent writes, then
        # runs): a later command may run them.
        session.scratch = {**session.scratch, **analysis.scratch_files}
    # The output shows one file only when reading it is the whole command
    # (not `cat -n a b`, not `cat -n a | head`, not `cat -n a && make`).
    effects = analysis.operations
    lone_read = (
        len(effects) == 1
        and effects[0].action == "read"
        and " ".join((effects[0].command or "").split()) == " ".join((op.command or "").split())
    )
    # With no known start, the analysis already placed a path under its
    # relative `cd`: joining that again would double it.
    placed = [
        effect.model_copy(update={"cwd": None})
        if effect.cwd and not is_absolute(effect.cwd)
        else effect
        for effect in effects
    ]
    return ShellRun(
        shell_cwd,
        succeeded,
        placed,
        lone_read,
        analysis.cwd_after,
        analysis.opaque,
        analysis.cleared,
    )


def follow_shell(
    index: ArtifactIndex, op: FileOperation, run: ShellRun, output: str, turn: int
) -> None:
    """What the command means beyond its file effects: staging, work state, tracker items, the shell's directory."""
    session = index.session
    if op.command:
        # Staging and `git diff > patch.txt` decide what a later submission holds.  Followed
        # even when the command failed: in `git diff > p.txt && pytest` only pytest failed.
        GitModel(index).observe(op.command, run.cwd)
        WorkState(index).observe(op.command, run.cwd, output, turn, run.succeeded)
        observe_tracker_command(session.work_items, op.command, output, turn, run.succeeded)
    if run.cwd_after and session.format in PERSISTENT_SHELL_FORMATS:
        session.cwd = run.cwd_after
    # The pattern is tried at every character; most outputs do not hold its words at all.
    reset = _CWD_RESET.search(output) if output and "Shell cwd was reset to" in output else None
    if reset is not None:
        session.cwd = join(None, reset.group(1))  # Claude Code took the shell back to the project
