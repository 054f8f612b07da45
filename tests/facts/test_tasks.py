"""Task lists from every agent's todo and plan tools."""

from __future__ import annotations

import json
from pathlib import Path

from artifact_index.facts.tasks import Task, apply_task_call, open_tasks
from artifact_index.trail.build import build_index


def test_todowrite_replaces_the_list() -> None:
    tasks = apply_task_call(
        [],
        "TodoWrite",
        {
            "todos": [
                {"content": "Fix the parser", "status": "completed", "activeForm": "Fixing"},
                {"content": "Add tests", "status": "in_progress"},
                {"content": "Update docs", "status": "pending"},
            ]
        },
        turn=3,
    )
    assert tasks is not None
    assert [(t.content, t.status) for t in open_tasks(tasks)] == [
        ("Add tests", "in_progress"),
        ("Update docs", "pending"),
    ]


def test_task_create_then_update() -> None:
    tasks = apply_task_call(
        [], "TaskCreate", {"subject": "Write migration"}, turn=1, result="Task #7 created"
    )
    assert tasks == [Task(id="7", content="Write migration", status="pending", turn=1)]
    tasks = apply_task_call(tasks, "TaskUpdate", {"taskId": "7", "status": "completed"}, turn=5)
    assert tasks is not None and tasks[0].status == "completed" and tasks[0].turn == 5


def test_codex_update_plan_and_opencode_todowrite() -> None:
    plan = apply_task_call(
        [],
        "update_plan",
        {
            "plan": [
                {"step": "Read code", "status": "completed"},
                {"step": "Patch", "status": "in_progress"},
            ]
        },
        turn=2,
    )
    assert plan is not None and [t.status for t in plan] == ["completed", "in_progress"]
    todos = apply_task_call(
        [], "todowrite", {"todos": [{"id": "a", "content": "Ship", "status": "cancelled"}]}, turn=2
    )
    assert todos == [Task(id="a", content="Ship", status="cancelled", turn=2)]


def test_cline_task_progress_checklist() -> None:
    tasks = apply_task_call(
        [],
        "write_to_file",
        {"path": "x", "task_progress": "- [x] Analyze\n- [ ] Implement\n"},
        turn=4,
    )
    assert tasks is not None and [(t.content, t.status) for t in tasks] == [
        ("Analyze", "completed"),
        ("Implement", "pending"),
    ]


def test_other_tools_are_not_about_tasks() -> None:
    assert apply_task_call([], "Read", {"file_path": "a"}, turn=1) is None
    assert (
        apply_task_call([], "TaskUpdate", {"taskId": "missing", "status": "completed"}, turn=1)
        is None
    )


def test_a_todo_list_written_as_text() -> None:
    # Factory Droid's TodoWrite passes the list as numbered lines.
    tasks = apply_task_call(
        [],
        "TodoWrite",
        {"todos": "1. [completed] Read the code\n2. [in_progress] Patch it"},
        turn=5,
    )
    assert tasks == [
        Task(id="1", content="Read the code", status="completed", turn=5),
        Task(id="2", content="Patch it", status="in_progress", turn=5),
    ]


def test_cline_ui_task_progress_messages_become_the_task_list(tmp_path: Path) -> None:
    messages = [
        {"ts": 1, "type": "say", "say": "task", "text": "Add an Open button"},
        {"ts": 2, "type": "say", "say": "text", "text": "Looking at the header."},
        {
            "ts": 3,
            "type": "say",
            "say": "task_progress",
            "text": "- [ ] Find the header\n- [ ] Add the button",
        },
        {
            "ts": 4,
            "type": "say",
            "say": "task_progress",
            "text": "- [x] Find the header\n- [ ] Add the button",
        },
    ]
    path = tmp_path / "ui_messages.json"
    path.write_text(json.dumps(messages))
    index, _ = build_index(path)
    assert [(t.content, t.status) for t in index.tasks()] == [
        ("Find the header", "completed"),
        ("Add the button", "pending"),
    ]


def test_task_list_prints_the_whole_shared_list() -> None:
    """TaskList shows tasks another agent created: what it prints is the list from then on."""
    printed = (
        "#1 [completed] Prepare the handoff (pm-agent)\n"
        "#2 [in_progress] Implement the fix\n"
        "#3 [pending] Review the fix [blocked by #2]"
    )
    tasks = apply_task_call([], "TaskList", {}, turn=4, result=printed)
    assert tasks is not None
    assert [(t.id, t.status) for t in tasks] == [
        ("1", "completed"),
        ("2", "in_progress"),
        ("3", "pending"),
    ]
    assert tasks[2].content == "Review the fix [blocked by #2]"
    assert apply_task_call([], "TaskList", {}, turn=4, result="No tasks found") is None


def _claude_record(kind: str, uuid: str, blocks: list[dict[str, object]], agent: str = "") -> str:
    role = "assistant" if kind == "assistant" else "user"
    message: dict[str, object] = {"id": f"m{uuid}", "role": role, "content": blocks}
    record: dict[str, object] = {
        "type": kind,
        "uuid": uuid,
        "sessionId": "s",
        "cwd": "/w",
        "isSidechain": bool(agent),
        "message": message,
    }
    if agent:
        record["agentId"] = agent
    return json.dumps(record)


def test_a_sub_agents_task_update_changes_the_shared_list(tmp_path: Path) -> None:
    """Claude Code's task tools share one list: a sub-agent marking a task done finishes it."""
    create = {"subject": "Write the schema"}
    update = {"taskId": "1", "status": "completed"}
    lines = [
        _claude_record("user", "u0", [{"type": "text", "text": "build it"}]),
        _claude_record(
            "assistant",
            "a1",
            [{"type": "tool_use", "id": "c1", "name": "TaskCreate", "input": create}],
        ),
        _claude_record(
            "user",
            "u1",
            [{"type": "tool_result", "tool_use_id": "c1", "content": "Task #1 created"}],
        ),
        _claude_record(
            "assistant",
            "a2",
            [{"type": "tool_use", "id": "c2", "name": "TaskUpdate", "input": update}],
            agent="helper",
        ),
        _claude_record(
            "user",
            "u2",
            [{"type": "tool_result", "tool_use_id": "c2", "content": "Updated task #1 status"}],
            agent="helper",
        ),
    ]
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(lines) + "\n")
    index, _ = build_index(path)
    assert [(t.id, t.status) for t in index.tasks()] == [("1", "completed")]


def test_a_task_the_shared_list_no_longer_holds_leaves_the_list(tmp_path: Path) -> None:
    """A "Task not found" answer says the list dropped the task (Claude Code empties a list whose
    tasks are all done): counting it as completed would report work that is not on the list."""
    lines = [_claude_record("user", "u0", [{"type": "text", "text": "do both"}])]
    calls = [
        ("TaskCreate", {"subject": "Old step"}, "Task #1 created successfully: Old step"),
        ("TaskUpdate", {"taskId": "1", "status": "completed"}, "Updated task #1 status"),
        ("TaskUpdate", {"taskId": "1", "status": "deleted"}, "Task not found"),
        ("TaskCreate", {"subject": "New step"}, "Task #2 created successfully: New step"),
        ("TaskUpdate", {"taskId": "9", "status": "completed"}, "Task not found"),
    ]
    for n, (tool, arguments, output) in enumerate(calls, start=1):
        lines.append(
            _claude_record(
                "assistant",
                f"a{n}",
                [{"type": "tool_use", "id": f"c{n}", "name": tool, "input": arguments}],
            )
        )
        lines.append(
            _claude_record(
                "user",
                f"u{n}",
                [{"type": "tool_result", "tool_use_id": f"c{n}", "content": output}],
            )
        )
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(lines) + "\n")
    index, _ = build_index(path)
    assert [(t.id, t.content, t.status) for t in index.tasks()] == [("2", "New step", "pending")]


def test_codex_code_mode_script_sets_the_plan() -> None:
    """Codex's code mode calls update_plan from a script, with a JavaScript object for arguments."""
    script = (
        'const r = await tools.update_plan({plan:[{step:"Fix the \\"parser\\"",'
        '"status":"completed"},{step:"Rebase [stack] and push",status:"in_progress"}]}); text(r)\n'
    )
    tasks = apply_task_call([], "exec", {"input": script}, turn=9)
    assert tasks is not None
    assert [(t.content, t.status) for t in tasks] == [
        ('Fix the "parser"', "completed"),
        ("Rebase [stack] and push", "in_progress"),
    ]
    assert (
        apply_task_call([], "exec", {"input": "await tools.exec_command({cmd:'ls'})"}, turn=9)
        is None
    )
