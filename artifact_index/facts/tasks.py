"""Task lists from the agents' todo and plan tools.

Agents keep their plan in a tool call: Claude Code ``TodoWrite`` (the whole
list each time) and ``TaskCreate``/``TaskUpdate`` (one task at a time, on a list
its sub-agents share; ``TaskList`` prints it whole), Codex
``update_plan``, OpenCode ``todowrite``, Cline's ``task_progress`` Markdown
checklist carried on any tool call.  :func:`apply_task_call` folds one call
into the current list; the tracker keeps the latest state.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any, Literal

from pydantic import ConfigDict

from artifact_index.facts.claims import Claimed
from artifact_index.ingestion.events import JSONObject
from artifact_index.lazy_pattern import lazy_pattern

__all__ = [
    "SHARED_LIST_TOOLS",
    "Task",
    "TaskStatus",
    "apply_task_call",
    "open_tasks",
    "reads_task_list",
]

TaskStatus = Literal["pending", "in_progress", "completed", "cancelled"]

_STATUS: dict[str, TaskStatus] = {
    "pending": "pending",
    "todo": "pending",
    "not_started": "pending",
    "open": "pending",
    "in_progress": "in_progress",
    "in-progress": "in_progress",
    "active": "in_progress",
    "doing": "in_progress",
    "completed": "completed",
    "complete": "completed",
    "done": "completed",
    "cancelled": "cancelled",
    "canceled": "cancelled",
    "deleted": "cancelled",
    "skipped": "cancelled",
}
# What the task tool answers an update of a task id its list does not hold.
_NOT_ON_THE_LIST = lazy_pattern(r"\s*task\s+(?:#?\w+\s+)?not\s+found\b", re.IGNORECASE)
_CHECKBOX = lazy_pattern(r"^\s*[-*]\s*\[([ xX~-])\]\s*(.+?)\s*$")
_STATUS_LINE = lazy_pattern(r"^\s*(?:(\d+)[.)]|[-*])\s*\[([A-Za-z][\w -]*)\]\s*(.+?)\s*$")


class Task(Claimed):
    """One task as the agent last described it; its claim is its state."""

    model_config = ConfigDict(frozen=True)

    id: str
    content: str
    status: TaskStatus
    turn: int  # the turn of the call that last set it


def _status(value: Any) -> TaskStatus:
    return _STATUS.get(str(value or "pending").strip().lower(), "pending")


def _replace(items: Any, turn: int, text_keys: tuple[str, ...]) -> list[Task] | None:
    if isinstance(items, str):
        return _numbered_list(items, turn)
    if not isinstance(items, list):
        return None
    tasks = []
    for number, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            continue
        text = next(
            (str(item[k]) for k in text_keys if isinstance(item.get(k), str) and item[k].strip()),
            None,
        )
        if text is None:
            continue
        tasks.append(
            Task(
                id=str(item.get("id") or number),
                content=text.strip(),
                status=_status(item.get("status")),
                turn=turn,
            )
        )
    return tasks


def _numbered_list(text: str, turn: int) -> list[Task] | None:
    """A list written as text, one ``1. [in_progress] Do X`` per line (Factory Droid's TodoWrite)."""
    tasks: list[Task] = []
    for line in text.splitlines():
        match = _STATUS_LINE.match(line)
        if match:
            tasks.append(
                Task(
                    id=match.group(1) or str(len(tasks) + 1),
                    content=match.group(3),
                    status=_status(match.group(2)),
                    turn=turn,
                )
            )
    return tasks or _checklist(text, turn)


def _checklist(text: str, turn: int) -> list[Task] | None:
    tasks = [
        Task(id=str(number), content=content, status=status, turn=turn)
        for number, (content, status) in enumerate(_checklist_items(text), start=1)
    ]
    return tasks or None


# Cline carries the same checklist on call after call: each text is read once.
@functools.lru_cache(maxsize=256)
def _checklist_items(text: str) -> tuple[tuple[str, TaskStatus], ...]:
    """``(content, status)`` of each ``- [x] Do X`` line of ``text``."""
    items: list[tuple[str, TaskStatus]] = []
    for line in text.splitlines():
        match = _CHECKBOX.match(line)
        if match:
            mark = match.group(1)
            status: TaskStatus = (
                "completed" if mark in "xX" else ("in_progress" if mark == "~" else "pending")
            )
            items.append((match.group(2), status))
    return tuple(items)


_TODO_TEXT = ("content", "title", "description", "task")
_LIST_EDITORS = frozenset({"taskcreate", "taskupdate"})
# Claude Code's task tools work on one list shared by the main agent and its sub-agents.
SHARED_LIST_TOOLS = frozenset({*_LIST_EDITORS, "tasklist"})
# A TaskList result: one "#3 [in_progress] Subject (owner) [blocked by #2]" line per task.
_LISTED_TASK = lazy_pattern(
    r"^#(?P<id>\w+)\s+\[(?P<status>[A-Za-z][\w -]*)\]\s+(?P<subject>.+?)\s*$"
)


def reads_task_list(tool: str, arguments: JSONObject | None = None) -> bool:
    """Whether :func:`apply_task_call` needs the current list for a call of ``tool`` (other tools replace it)."""
    return tool.lower() in _LIST_EDITORS or _merges(arguments or {})


def _merges(arguments: JSONObject) -> bool:
    # Cursor's TodoWrite with ``merge: true`` sends only the items that changed (often just id and status).
    return arguments.get("merge") is True


def _merge(current: list[Task], items: Any, turn: int) -> list[Task] | None:
    """``current`` with ``items`` folded in by id: a known id takes the item's status and text, a new one is added."""
    if not isinstance(items, list):
        return None
    merged = list(current)
    for item in items:
        if not isinstance(item, dict) or item.get("id") is None:
            continue
        task_id = str(item["id"])
        text = next(
            (
                str(item[k]).strip()
                for k in _TODO_TEXT
                if isinstance(item.get(k), str) and item[k].strip()
            ),
            None,
        )
        index = next((i for i, task in enumerate(merged) if task.id == task_id), None)
        if index is None:
            if text is not None:
                merged.append(
                    Task(id=task_id, content=text, status=_status(item.get("status")), turn=turn)
                )
            continue
        old = merged[index]
        status = _status(item["status"]) if "status" in item else old.status
        merged[index] = Task(id=task_id, content=text or old.content, status=status, turn=turn)
    return merged


def apply_task_call(
    current: list[Task], tool: str, arguments: JSONObject, turn: int, result: str = ""
) -> list[Task] | None:
    """The task list after a call of ``tool``, or None when the call is not about tasks."""
    name = tool.lower()
    if name in ("todowrite", "todo_write", "write_todos", "update_todo", "todo"):
        if _merges(arguments):
            return _merge(current, arguments.get("todos"), turn)
        return _replace(arguments.get("todos"), turn, _TODO_TEXT)
    if name == "update_plan":
        return _replace(arguments.get("plan"), turn, ("step", "content", "title"))
    if name == "exec" and isinstance(cell := arguments.get("input"), str):
        return _code_mode_plan(cell, turn)
    if name == "taskcreate":  # this one and taskupdate edit the current list: see _LIST_EDITORS
        subject = arguments.get("subject") or arguments.get("description") or arguments.get("title")
        if not isinstance(subject, str):
            return None
        created = re.search(r"#(\w+)", result)
        task_id = created.group(1) if created else str(len(current) + 1)
        return [
            *current,
            Task(
                id=task_id,
                content=subject.strip(),
                status=_status(arguments.get("status")),
                turn=turn,
            ),
        ]
    if name == "tasklist":
        # The whole shared list as the tool printed it: what it shows replaces what was known.
        listed = [
            Task(id=m["id"], content=m["subject"], status=_status(m["status"]), turn=turn)
            for m in map(_LISTED_TASK.match, result.splitlines())
            if m
        ]
        return listed or None
    if name == "taskupdate":
        task_id = str(arguments.get("taskId") or arguments.get("id") or "")
        if _NOT_ON_THE_LIST.match(result):
            # The shared list no longer holds it (emptied once its tasks were all done, or the
            # task removed by a teammate): what was known of it is not the list now, and the
            # update it asked for did not happen.
            kept = [task for task in current if task.id != task_id]
            return kept if len(kept) < len(current) else None
        updated = []
        found = False
        for task in current:
            if task.id == task_id:
                found = True
                content = (
                    arguments.get("subject")
                    if isinstance(arguments.get("subject"), str)
                    else task.content
                )
                status = _status(arguments["status"]) if "status" in arguments else task.status
                task = Task(id=task.id, content=str(content), status=status, turn=turn)
            updated.append(task)
        return updated if found else None
    progress = arguments.get("task_progress")
    if isinstance(progress, str):
        return _checklist(progress, turn)
    return None


# Codex's code mode calls its tools from a script: ``await tools.update_plan({plan:[{step:"…",
# status:"…"}, …]})``, a JavaScript object (keys may be bare), not JSON.
_CODE_MODE_PLAN = lazy_pattern(r"\btools\.update_plan\s*\(")
_PLAN_END = lazy_pattern(r"\]\s*[,}]")
_PLAN_ITEM = lazy_pattern(r"\{[^{}]*\}")
_ITEM_FIELD = lazy_pattern(r"""["']?(?P<key>step|status)["']?\s*:\s*(?P<value>"(?:[^"\\]|\\.)*")""")


def _code_mode_plan(code: str, turn: int) -> list[Task] | None:
    """The plan the script's last ``tools.update_plan`` call set, or None when it makes none."""
    calls = list(_CODE_MODE_PLAN.finditer(code))
    if not calls:
        return None
    rest = code[calls[-1].end() :]
    end = _PLAN_END.search(rest)
    tasks: list[Task] = []
    for item in _PLAN_ITEM.finditer(rest[: end.start() if end else len(rest)]):
        fields: dict[str, str] = {}
        for field in _ITEM_FIELD.finditer(item.group()):
            try:
                fields[field["key"]] = str(json.loads(field["value"]))
            except ValueError:
                continue
        if fields.get("step", "").strip():
            tasks.append(
                Task(
                    id=str(len(tasks) + 1),
                    content=fields["step"].strip(),
                    status=_status(fields.get("status")),
                    turn=turn,
                )
            )
    return tasks or None


def open_tasks(tasks: list[Task]) -> list[Task]:
    """Tasks not completed or cancelled."""
    return [t for t in tasks if t.status in ("pending", "in_progress")]
