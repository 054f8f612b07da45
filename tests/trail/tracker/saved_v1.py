"""A hand-written session that touches every part of a tracker's state, saved by the first state version.

``tests/fixtures/state/v1.json`` is this session as the first version of the
saved state held it (written by the tracker of that version, then never
again): the loader of every later version must upgrade it to the index that
feeding these events gives.  Run this module to see the events' index.
"""

from __future__ import annotations

from artifact_index.ingestion.events import (
    AssistantMessage,
    CompactionBoundary,
    Event,
    FileOperation,
    SessionInfo,
    Submission,
    ToolCall,
    ToolResult,
    UserMessage,
)

__all__ = ["EVENTS"]


def _call(
    turn: int,
    call_id: str,
    tool: str,
    operations: tuple[FileOperation, ...],
    output: str,
    *,
    status: str = "success",
    arguments: dict[str, object] | None = None,
) -> list[Event]:
    return [
        ToolCall(
            turn=turn,
            call_id=call_id,
            tool=tool,
            arguments=arguments or {},
            operations=operations,
        ),
        ToolResult(turn=turn, call_id=call_id, status=status, output=output),  # type: ignore[arg-type]
    ]


def _shell(
    turn: int, call_id: str, command: str, output: str, status: str = "success"
) -> list[Event]:
    return _call(
        turn,
        call_id,
        "Bash",
        (FileOperation(action="shell", command=command, source="shell"),),
        output,
        status=status,
        arguments={"command": command},
    )


APP = "def total(items):\n    return sum(items)\n"
APP_FIXED = "def total(items):\n    return sum(i.price for i in items)\n"
NOTES = "# Notes\n\nfirst line\n"

EVENTS: list[Event] = [
    SessionInfo(turn=0, cwd="/repo", session_id="s-1", model="m-1", agent="claude-code"),
    UserMessage(turn=1, text="Fix the totals and commit."),
    AssistantMessage(
        turn=1, text="I'll use a generator in app.py instead of a list, because it is lazy."
    ),
    *_call(
        1,
        "todo1",
        "TodoWrite",
        (),
        "ok",
        arguments={
            "todos": [
                {"content": "Fix totals", "status": "in_progress"},
                {"content": "Commit", "status": "pending"},
            ]
        },
    ),
    *_call(
        2,
        "read1",
        "Read",
        (FileOperation(action="read", path="/repo/app.py"),),
        "     1\tdef total(items):\n     2\t    return sum(items)\n",
    ),
    *_call(
        2,
        "read2",
        "Read",
        (FileOperation(action="read", path="/repo/lib.py", start_line=10, end_line=11),),
        "    10\tdef helper():\n    11\t    return 1\n",
    ),
    *_shell(
        3,
        "test1",
        "pytest -q",
        "F\nFAILED tests/test_app.py::test_total - AttributeError: 'int' object has no attribute 'price'\n"
        "1 failed in 0.1s\n",
        status="failure",
    ),
    *_call(
        4,
        "edit1",
        "Edit",
        (
            FileOperation(
                action="edit",
                path="/repo/app.py",
                old="sum(items)",
                new="sum(i.price for i in items)",
            ),
        ),
        "The file /repo/app.py has been updated.",
    ),
    *_call(
        4,
        "write1",
        "Write",
        (FileOperation(action="write", path="/repo/NOTES.md", content=NOTES),),
        "File created successfully at: /repo/NOTES.md",
    ),
    *_shell(5, "mkdir1", "mkdir -p build/out && cp NOTES.md build/out/NOTES.md", ""),
    *_shell(5, "test2", "pytest -q", "1 passed in 0.1s\n"),
    *_shell(
        6,
        "commit1",
        "git add -A && git commit -m 'Round totals'",
        "[main 4f2a9c1] Round totals\n 2 files changed, 4 insertions(+), 1 deletion(-)\n",
    ),
    *_shell(6, "status1", "git status", "On branch main\nnothing to commit, working tree clean\n"),
    CompactionBoundary(turn=7, trigger="auto", pre_tokens=150000),
    *_call(
        8,
        "edit2",
        "Edit",
        (FileOperation(action="edit", path="/repo/lib.py", old="return 1", new="return 2"),),
        "The file /repo/lib.py has been updated.",
    ),
    *_shell(
        8, "stash1", "git stash", "Saved working directory and index state WIP on main: 4f2a9c1\n"
    ),
    *_shell(9, "bd1", "bd update app-1 --status in_progress", "✓ Updated issue: app-1\n"),
    *_call(
        10,
        "todo2",
        "TodoWrite",
        (),
        "ok",
        arguments={
            "todos": [
                {"content": "Fix totals", "status": "completed"},
                {"content": "Commit", "status": "in_progress"},
            ]
        },
    ),
    Submission(turn=11, command="git diff HEAD", exit_status="Submitted"),
    ToolCall(
        turn=11,
        call_id="late1",
        tool="Write",
        operations=(FileOperation(action="write", path="/repo/late.py", content="x = 1\n"),),
    ),
]


if __name__ == "__main__":
    import json

    from artifact_index.presentation.render import show_json
    from artifact_index.trail.tracker import Tracker

    print(json.dumps(show_json(Tracker(format="claude-code").feed_all(EVENTS)), indent=1))
