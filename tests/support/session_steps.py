"""Hand-written sessions for the summary tests: each step the events a Claude Code session records for it.

A session lives in ``/home/dev/shop``; ``summary_of(...)`` summarizes its
steps offline with the default template and ``section`` reads one section
of the result.
"""

from __future__ import annotations

from itertools import count

from artifact_index.ingestion.events import Event, FileOperation, SessionInfo, ToolCall, ToolResult
from summarizer.narrative.extractive import ExtractiveWriter
from summarizer.sections.templates import load_template
from summarizer.summary import Summary, summarize

__all__ = ["ROOT", "bead", "edit", "read", "search", "section", "shell", "summary_of", "write"]

ROOT = "/home/dev/shop"
_ids = count(1)


def edit(turn: int, path: str, old: str = "a", new: str = "b") -> list[Event]:
    call_id = f"e{next(_ids)}"
    return [
        ToolCall(
            turn=turn,
            call_id=call_id,
            tool="Edit",
            arguments={"file_path": path},
            operations=(FileOperation(action="edit", path=path, old=old, new=new),),
        ),
        ToolResult(turn=turn, call_id=call_id, status="success"),
    ]


def write(turn: int, path: str, content: str) -> list[Event]:
    """A file written whole: the session knows its content."""
    call_id = f"w{next(_ids)}"
    return [
        ToolCall(
            turn=turn,
            call_id=call_id,
            tool="Write",
            arguments={"file_path": path, "content": content},
            operations=(FileOperation(action="write", path=path, content=content),),
        ),
        ToolResult(turn=turn, call_id=call_id, status="success"),
    ]


def read(turn: int, path: str, content: str) -> list[Event]:
    """A file read whole, as Claude Code prints it (numbered lines)."""
    call_id = f"r{next(_ids)}"
    shown = "".join(f"{n:>6}→{line}\n" for n, line in enumerate(content.split("\n"), start=1))
    return [
        ToolCall(
            turn=turn,
            call_id=call_id,
            tool="Read",
            arguments={"file_path": path},
            operations=(FileOperation(action="read", path=path),),
        ),
        ToolResult(turn=turn, call_id=call_id, status="success", output=shown),
    ]


def search(turn: int, path: str) -> list[Event]:
    call_id = f"g{next(_ids)}"
    return [
        ToolCall(
            turn=turn,
            call_id=call_id,
            tool="Grep",
            arguments={"pattern": "total", "path": path},
            operations=(),
        ),
        ToolResult(turn=turn, call_id=call_id, status="success", output=f"{path}:3: total\n"),
    ]


def shell(turn: int, command: str, output: str = "", ok: bool = True) -> list[Event]:
    call_id = f"b{next(_ids)}"
    return [
        ToolCall(
            turn=turn,
            call_id=call_id,
            tool="Bash",
            arguments={"command": command},
            operations=(FileOperation(action="shell", command=command, source="shell"),),
        ),
        ToolResult(
            turn=turn,
            call_id=call_id,
            status="success" if ok else "failure",
            failure=None if ok else "exit_status",
            output=output,
        ),
    ]


def bead(turn: int, item: str, title: str, description: str = "") -> list[Event]:
    """``bd show ITEM`` as bd prints it."""
    body = f"\nDESCRIPTION\n{description}\n" if description else ""
    return shell(
        turn,
        f"bd show {item}",
        f"○ {item} · {title}   [● P2 · OPEN]\nOwner: Dana · Type: task\n{body}",
    )


def summary_of(*steps: Event | list[Event]) -> Summary:
    events: list[Event] = [SessionInfo(turn=0, cwd=ROOT)]
    for step in steps:
        events += step if isinstance(step, list) else [step]
    return summarize(
        events, template=load_template("default"), writer=ExtractiveWriter(), format="claude-code"
    )


def section(summary: Summary, title: str) -> str:
    return summary.markdown.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]
