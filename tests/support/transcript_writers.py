"""One session, written as each agent's transcript: so a test can put a text in the same place of every format.

A session is a list of :class:`Step` (a user message, assistant text,
thinking, a search, a file read, written or edited, a shell command with
its output and exit code, a todo list).  :data:`WRITERS` turns it into the
file each format's adapter reads: Claude Code and Codex JSONL, an OpenCode
export, an Anthropic or OpenAI request body.  The records carry what the
real agents record for these steps (see the fixtures of each format), no
more.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ROOT", "WRITERS", "Step"]

ROOT = "/home/dev/shop"


@dataclass(frozen=True)
class Step:
    kind: str  # user, assistant, thinking, search, read, write, edit, shell, todo
    text: str = ""  # what is said or searched for
    path: str = ""
    content: str = ""  # a file read or written
    old: str = ""
    new: str = ""
    command: str = ""
    output: str = ""
    exit_code: int = 0
    items: tuple[str, ...] = field(default_factory=tuple)


def _numbered(content: str) -> str:
    return "\n".join(f"{n:>6}→{line}" for n, line in enumerate(content.split("\n"), start=1))


# -- Claude Code ---------------------------------------------------------------------------------


def claude_code(steps: Sequence[Step]) -> str:
    records: list[dict[str, Any]] = []
    parent: str | None = None

    def add(kind: str, message: dict[str, Any], **extra: Any) -> None:
        nonlocal parent
        uuid = f"00000000-0000-4000-8000-{len(records):012d}"
        records.append(
            {
                "parentUuid": parent,
                "isSidechain": False,
                "userType": "external",
                "cwd": ROOT,
                "sessionId": "9d0c4a52-7e1b-4f38-a6c2-3b5e8d1f0a47",
                "version": "2.1.39",
                "type": kind,
                "uuid": uuid,
                "message": message,
                "timestamp": f"2026-02-11T10:{len(records) // 60 % 60:02d}:{len(records) % 60:02d}.000Z",
                **extra,
            }
        )
        parent = uuid

    def call(number: int, name: str, tool_input: dict[str, Any], result: str, **extra: Any) -> None:
        call_id = f"toolu_{number:04d}"
        add(
            "assistant",
            {
                "model": "claude-opus-4-6",
                "id": f"msg_{number:04d}",
                "type": "message",
                "role": "assistant",
                "content": [{"type": "tool_use", "id": call_id, "name": name, "input": tool_input}],
            },
        )
        error = extra.pop("is_error", False)
        block: dict[str, Any] = {"tool_use_id": call_id, "type": "tool_result", "content": result}
        if error:
            block["is_error"] = True
        add("user", {"role": "user", "content": [block]}, **extra)

    for number, step in enumerate(steps):
        if step.kind == "user":
            add("user", {"role": "user", "content": step.text})
        elif step.kind in ("assistant", "thinking"):
            block = (
                {"type": "text", "text": step.text}
                if step.kind == "assistant"
                else {"type": "thinking", "thinking": step.text, "signature": "c2lnbmF0dXJl"}
            )
            add(
                "assistant",
                {
                    "model": "claude-opus-4-6",
                    "role": "assistant",
                    "type": "message",
                    "content": [block],
                },
            )
        elif step.kind == "search":
            call(number, "Grep", {"pattern": step.text, "path": ROOT}, "No matches found")
        elif step.kind == "read":
            call(
                number,
                "Read",
                {"file_path": step.path},
                _numbered(step.content),
                toolUseResult={
                    "type": "text",
                    "file": {"filePath": step.path, "content": step.content, "startLine": 1},
                },
            )
        elif step.kind == "write":
            call(
                number,
                "Write",
                {"file_path": step.path, "content": step.content},
                f"File created successfully at: {step.path}",
                toolUseResult={"type": "create", "filePath": step.path, "content": step.content},
            )
        elif step.kind == "edit":
            call(
                number,
                "Edit",
                {"file_path": step.path, "old_string": step.old, "new_string": step.new},
                f"The file {step.path} has been updated successfully.",
                toolUseResult={"filePath": step.path, "oldString": step.old, "newString": step.new},
            )
        elif step.kind == "shell":
            failed = step.exit_code != 0
            call(
                number,
                "Bash",
                {"command": step.command, "description": "Run it"},
                f"Exit code {step.exit_code}\n{step.output}" if failed else step.output,
                is_error=failed,
            )
        elif step.kind == "todo":
            todos = [
                {"content": item, "status": "pending", "activeForm": item} for item in step.items
            ]
            call(
                number,
                "TodoWrite",
                {"todos": todos},
                "Todos have been modified successfully.",
                toolUseResult={"oldTodos": [], "newTodos": todos},
            )
    return "".join(json.dumps(record) + "\n" for record in records)


# -- Codex ---------------------------------------------------------------------------------------


def codex(steps: Sequence[Step]) -> str:
    lines: list[dict[str, Any]] = [
        {
            "type": "session_meta",
            "payload": {
                "session_id": "019f0000-aaaa-7000-8000-000000000001",
                "id": "019f0000-aaaa-7000-8000-000000000001",
                "cwd": ROOT,
                "originator": "codex-tui",
                "cli_version": "0.142.3",
            },
        },
        {"type": "turn_context", "payload": {"turn_id": "t1", "cwd": ROOT, "model": "gpt-5.5"}},
    ]

    def item(payload: dict[str, Any]) -> None:
        lines.append({"type": "response_item", "payload": payload})

    def event(payload: dict[str, Any]) -> None:
        lines.append({"type": "event_msg", "payload": payload})

    def shell(call_id: str, command: str, output: str, exit_code: int) -> None:
        item(
            {
                "type": "function_call",
                "name": "exec_command",
                "arguments": json.dumps({"cmd": command, "workdir": ROOT}),
                "call_id": call_id,
            }
        )
        event(
            {
                "type": "exec_command_end",
                "call_id": call_id,
                "exit_code": exit_code,
                "aggregated_output": output,
            }
        )
        item(
            {
                "type": "function_call_output",
                "call_id": call_id,
                "output": f"Process exited with code {exit_code}\nOutput:\n{output}",
            }
        )

    def patch(call_id: str, body: str, changes: dict[str, Any]) -> None:
        item(
            {
                "type": "custom_tool_call",
                "status": "completed",
                "call_id": call_id,
                "name": "apply_patch",
                "input": f"*** Begin Patch\n{body}*** End Patch\n",
            }
        )
        event(
            {
                "type": "patch_apply_end",
                "call_id": call_id,
                "stdout": "Success.",
                "stderr": "",
                "success": True,
                "changes": changes,
            }
        )
        item({"type": "custom_tool_call_output", "call_id": call_id, "output": "Success."})

    for number, step in enumerate(steps):
        call_id = f"call_{number:04d}"
        if step.kind == "user":
            item(
                {
                    "type": "message",
                    "role": "user",
                    "content": [{"type": "input_text", "text": step.text}],
                }
            )
            event({"type": "user_message", "message": step.text, "images": []})
        elif step.kind == "assistant":
            event({"type": "agent_message", "message": step.text})
            item(
                {
                    "type": "message",
                    "role": "assistant",
                    "content": [{"type": "output_text", "text": step.text}],
                }
            )
        elif step.kind == "thinking":
            item(
                {
                    "type": "reasoning",
                    "summary": [{"type": "summary_text", "text": step.text}],
                    "encrypted_content": "gAAAAA",
                }
            )
        elif step.kind == "search":
            item(
                {
                    "type": "function_call",
                    "name": "web_search",
                    "arguments": json.dumps({"query": step.text}),
                    "call_id": call_id,
                }
            )
            item({"type": "function_call_output", "call_id": call_id, "output": "no results"})
        elif step.kind == "read":
            shell(call_id, f"cat {step.path}", step.content, 0)
        elif step.kind == "shell":
            shell(call_id, step.command, step.output, step.exit_code)
        elif step.kind == "write":
            relative = step.path.removeprefix(ROOT + "/")
            added = "".join(f"+{line}\n" for line in step.content.split("\n"))
            patch(
                call_id,
                f"*** Add File: {relative}\n{added}",
                {step.path: {"type": "add", "content": step.content}},
            )
        elif step.kind == "edit":
            relative = step.path.removeprefix(ROOT + "/")
            removed = "".join(f"-{line}\n" for line in step.old.split("\n"))
            added = "".join(f"+{line}\n" for line in step.new.split("\n"))
            patch(
                call_id,
                f"*** Update File: {relative}\n@@\n{removed}{added}",
                {step.path: {"type": "update", "unified_diff": f"@@ -1 +1 @@\n{removed}{added}"}},
            )
        elif step.kind == "todo":
            plan = [{"step": entry, "status": "pending"} for entry in step.items]
            item(
                {
                    "type": "function_call",
                    "name": "update_plan",
                    "arguments": json.dumps({"plan": plan}),
                    "call_id": call_id,
                }
            )
            item({"type": "function_call_output", "call_id": call_id, "output": "Plan updated"})
    stamped = [
        {"timestamp": f"2026-03-01T10:{n // 60 % 60:02d}:{n % 60:02d}.000Z", **line}
        for n, line in enumerate(lines)
    ]
    return "".join(json.dumps(line) + "\n" for line in stamped)


# -- OpenCode ------------------------------------------------------------------------------------


def opencode(steps: Sequence[Step]) -> str:
    session = "ses_3a5b8c9d0ffeAbCdEfGhIjKlMn"
    messages: list[dict[str, Any]] = []

    def message(role: str, parts: list[dict[str, Any]]) -> None:
        number = len(messages)
        message_id = f"msg_{number:04d}"
        info: dict[str, Any] = {
            "id": message_id,
            "sessionID": session,
            "role": role,
            "time": {"created": 1772900000000 + number * 1000},
        }
        if role == "assistant":
            info.update(
                {
                    "modelID": "gpt-5.3-codex",
                    "providerID": "openai",
                    "path": {"cwd": ROOT, "root": ROOT},
                }
            )
        messages.append(
            {
                "info": info,
                "parts": [
                    {
                        "id": f"prt_{number:04d}{i}",
                        "sessionID": session,
                        "messageID": message_id,
                        **part,
                    }
                    for i, part in enumerate(parts)
                ],
            }
        )

    def tool(name: str, tool_input: dict[str, Any], output: str, **metadata: Any) -> None:
        state = {
            "status": "completed",
            "input": tool_input,
            "output": output,
            "title": name,
            "metadata": metadata,
            "time": {"start": 1772900000000, "end": 1772900000100},
        }
        message(
            "assistant",
            [{"type": "tool", "callID": f"call_{len(messages):04d}", "tool": name, "state": state}],
        )

    for step in steps:
        if step.kind == "user":
            message("user", [{"type": "text", "text": step.text}])
        elif step.kind == "assistant":
            message("assistant", [{"type": "text", "text": step.text}])
        elif step.kind == "thinking":
            message(
                "assistant",
                [{"type": "reasoning", "text": step.text, "time": {"start": 1, "end": 2}}],
            )
        elif step.kind == "search":
            tool("grep", {"pattern": step.text, "path": ROOT}, "No files found")
        elif step.kind == "read":
            numbered = "\n".join(
                f"{n}: {line}" for n, line in enumerate(step.content.split("\n"), 1)
            )
            tool(
                "read",
                {"filePath": step.path},
                f"<path>{step.path}</path>\n<content>{numbered}\n</content>",
            )
        elif step.kind == "write":
            tool(
                "write",
                {"filePath": step.path, "content": step.content},
                "Wrote file successfully.",
                filepath=step.path,
                exists=False,
            )
        elif step.kind == "edit":
            tool(
                "edit",
                {"filePath": step.path, "oldString": step.old, "newString": step.new},
                "Edit applied successfully.",
            )
        elif step.kind == "shell":
            tool(
                "bash",
                {"command": step.command, "description": "Run it"},
                step.output,
                exit=step.exit_code,
            )
        elif step.kind == "todo":
            todos = [
                {"content": entry, "status": "pending", "priority": "high", "id": str(n)}
                for n, entry in enumerate(step.items)
            ]
            tool("todowrite", {"todos": todos}, json.dumps(todos), todos=todos)
    info = {"id": session, "directory": ROOT, "title": "Set up the deploy", "version": "1.2.26"}
    return json.dumps({"info": info, "messages": messages}, indent=2)


# -- request bodies ------------------------------------------------------------------------------


def _tool_calls(step: Step) -> tuple[str, dict[str, Any], str, bool]:
    """(tool name, input, result, failed) of a step as a generic coding agent's tool."""
    if step.kind == "search":
        return "search_code", {"query": step.text}, "no matches", False
    if step.kind == "read":
        return "read_file", {"path": step.path}, step.content, False
    if step.kind == "write":
        return (
            "write_file",
            {"path": step.path, "content": step.content},
            f"Wrote {step.path}",
            False,
        )
    if step.kind == "edit":
        return (
            "edit_file",
            {"path": step.path, "old_string": step.old, "new_string": step.new},
            f"Edited {step.path}",
            False,
        )
    if step.kind == "shell":
        failed = step.exit_code != 0
        result = f"exit code {step.exit_code}\n{step.output}" if failed else step.output
        return "execute_command", {"command": step.command}, result, failed
    return "todo_write", {"todos": list(step.items)}, "ok", False


def anthropic_request(steps: Sequence[Step]) -> str:
    messages: list[dict[str, Any]] = []
    for number, step in enumerate(steps):
        if step.kind == "user":
            messages.append({"role": "user", "content": step.text})
        elif step.kind in ("assistant", "thinking"):
            block = (
                {"type": "text", "text": step.text}
                if step.kind == "assistant"
                else {"type": "thinking", "thinking": step.text, "signature": "c2lnbmF0dXJl"}
            )
            messages.append({"role": "assistant", "content": [block]})
        else:
            name, tool_input, result, failed = _tool_calls(step)
            call_id = f"toolu_{number:04d}"
            messages.append(
                {
                    "role": "assistant",
                    "content": [
                        {"type": "tool_use", "id": call_id, "name": name, "input": tool_input}
                    ],
                }
            )
            block = {"type": "tool_result", "tool_use_id": call_id, "content": result}
            if failed:
                block["is_error"] = True
            messages.append({"role": "user", "content": [block]})
    messages.append({"role": "user", "content": "Carry on."})
    # Merge neighbours of one role: the API takes alternating roles.
    merged: list[dict[str, Any]] = []
    for entry in messages:
        content = entry["content"]
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        if merged and merged[-1]["role"] == entry["role"]:
            merged[-1]["content"].extend(blocks)
        else:
            merged.append({"role": entry["role"], "content": list(blocks)})
    tools = [
        {"name": name, "description": f"The {name} tool.", "input_schema": {"type": "object"}}
        for name in (
            "search_code",
            "read_file",
            "write_file",
            "edit_file",
            "execute_command",
            "todo_write",
        )
    ]
    return json.dumps(
        {
            "model": "claude-test",
            "max_tokens": 2048,
            "system": "You are a coding agent.",
            "tools": tools,
            "messages": merged,
        }
    )


def openai_chat(steps: Sequence[Step]) -> str:
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are a coding agent."}]
    for number, step in enumerate(steps):
        if step.kind == "user":
            messages.append({"role": "user", "content": step.text})
        elif step.kind in ("assistant", "thinking"):
            messages.append({"role": "assistant", "content": step.text})
        else:
            name, tool_input, result, _ = _tool_calls(step)
            call_id = f"call_{number:04d}"
            messages.append(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": call_id,
                            "type": "function",
                            "function": {"name": name, "arguments": json.dumps(tool_input)},
                        }
                    ],
                }
            )
            messages.append({"role": "tool", "tool_call_id": call_id, "content": result})
    return "".join(json.dumps(message) + "\n" for message in messages)


# Format name (as `--format` takes it) -> (file name, writer).
WRITERS: dict[str, tuple[str, Callable[[Sequence[Step]], str]]] = {
    "claude-code": ("session.jsonl", claude_code),
    "codex": ("rollout-2026-03-01T10-00-00-019f0000.jsonl", codex),
    "opencode": ("export.json", opencode),
    "anthropic-messages": ("request.json", anthropic_request),
    "openai-chat": ("chat.jsonl", openai_chat),
}
