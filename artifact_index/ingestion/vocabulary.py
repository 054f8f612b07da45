"""The shared tool vocabulary: what a named tool call does to files.

Most agents use one of a few families of file tools: Claude Code's
``Read``/``Write``/``Edit``/``MultiEdit``, the ``str_replace_editor`` of
SWE-agent, OpenHands and Anthropic's text editor tool, ``apply_patch`` of
Codex and OpenCode, and the generic ``read_file``/``write_file``/
``edit_file``/``execute_command`` vocabulary of the context service's design.  An
adapter calls :func:`operations_for` with the tool's name and arguments and
gets the :class:`FileOperation` list for its :class:`ToolCall`; it only
needs its own code for tools peculiar to its format.
"""

from __future__ import annotations

from typing import Any

from artifact_index.ingestion.events import FileOperation, ShellDialect
from artifact_index.ingestion.patches import parse_patch

__all__ = [
    "PATH_KEYS",
    "SHELL_TOOLS",
    "operations_for",
    "path_argument",
    "shell_command",
]

# Argument names that hold the file a tool acts on, in the order agents use them.
PATH_KEYS = (
    "file_path",
    "filePath",
    "path",
    "absolutePath",
    "absolute_path",
    "target_file",
    "targetFile",
    "notebook_path",
    "file",
    "filepath",
    "filename",
    "target",
    "uri",
)

_READ = {
    "read",
    "read_file",
    "readfile",
    "view",
    "view_file",
    "open_file",
    "cat",
    "read_many_files",
    "notebookread",
    "get_file",
    "file_read",
    "readfiles",
}
_WRITE = {
    "write",
    "write_file",
    "writefile",
    "write_to_file",
    "create_file",
    "createfile",
    "file_write",
    "save_file",
    "overwrite_file",
}
_CREATE = {"create", "newfilecreated", "new_file"}
_EDIT = {
    "edit",
    "edit_file",
    "editfile",
    "replace",
    "str_replace",
    "search_replace",
    "replace_in_file",
    "replace_string_in_file",
    "file_edit",
    "editedexistingfile",
    "update_file",
    "modify_file",
    "edit_notebook",
    "strreplace",
    "insert_edit_into_file",
}
_MULTI_EDIT = {"multiedit", "multi_edit", "multi_replace_string_in_file"}
_NOTEBOOK_EDIT = {"notebookedit", "notebook_edit", "edit_notebook_file"}
_DELETE = {"delete", "delete_file", "deletefile", "remove_file", "rm", "file_delete"}
_MOVE = {"rename", "rename_file", "move_file", "mv", "move"}
_UNDO = {"undo_edit", "undoedit"}
_PATCH = {"apply_patch", "applypatch", "patch", "apply_diff"}
_EDITOR = {"str_replace_editor", "str_replace_based_edit_tool", "text_editor", "file_editor"}

# Tools that run a shell command; the command is in one of these arguments.
SHELL_TOOLS = {
    "bash",
    "shell",
    "exec_command",
    "execute_command",
    "run_shell_command",
    "run_command",
    "run_terminal_cmd",
    "run_in_terminal",
    "local_shell",
    "terminal",
    "execute_bash",
    "executebashaction",
    "cmd",
    "powershell",
    "run",
    "execute",
}
_COMMAND_KEYS = ("command", "cmd", "script", "commandLine", "CommandLine")
# Shell tools whose name says which shell runs the command.
_DIALECTS: dict[str, ShellDialect] = {"powershell": "powershell", "cmd": "cmd"}


def path_argument(arguments: dict[str, Any]) -> str | None:
    """The file path argument of a tool call, whatever the agent called it."""
    for key in PATH_KEYS:
        value = arguments.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    return None


def _read(path: str, arguments: dict[str, Any]) -> FileOperation:
    start = _int(arguments.get("offset") or arguments.get("start_line") or arguments.get("start"))
    end = _int(arguments.get("end_line") or arguments.get("end"))
    limit = _int(arguments.get("limit"))
    view_range = arguments.get("view_range")
    if isinstance(view_range, list) and len(view_range) == 2:
        start, end = _int(view_range[0]), _int(view_range[1])
    if limit is not None and end is None:  # a limit without an offset reads from line 1
        end = (start if start is not None else 1) + limit - 1
    if end is not None and end < 0:
        end = None
    return FileOperation(action="read", path=path, start_line=start, end_line=end)


def _edit(path: str, arguments: dict[str, Any]) -> FileOperation:
    old = arguments.get("old_string", arguments.get("old_str", arguments.get("oldString")))
    new = arguments.get("new_string", arguments.get("new_str", arguments.get("newString")))
    diff = arguments.get("diff") if isinstance(arguments.get("diff"), str) else None
    return FileOperation(
        action="edit",
        path=path,
        old=old if isinstance(old, str) else None,
        new=new if isinstance(new, str) else None,
        replace_all=bool(arguments.get("replace_all") or arguments.get("replaceAll")),
        diff=diff,
    )


def _content(arguments: dict[str, Any]) -> str | None:
    for key in ("content", "file_text", "text", "contents", "code"):
        value = arguments.get(key)
        if isinstance(value, str):
            return value
    return None


def _editor(arguments: dict[str, Any]) -> list[FileOperation]:
    """``str_replace_editor`` and its relatives: the sub-command is an argument."""
    path = path_argument(arguments)
    if path is None:
        return []
    command = str(arguments.get("command", "")).lower()
    if command == "view":
        return [_read(path, arguments)]
    if command == "create":
        return [FileOperation(action="create", path=path, content=_content(arguments))]
    if command == "str_replace":
        return [_edit(path, arguments)]
    if command == "insert":
        line = _int(arguments.get("insert_line"))
        text = arguments.get("new_str", arguments.get("text"))
        return [
            FileOperation(
                action="edit",
                path=path,
                new=text if isinstance(text, str) else None,
                start_line=line,
                detail="insert",
            )
        ]
    if command == "undo_edit":
        return [FileOperation(action="undo", path=path)]
    return []


def shell_command(arguments: dict[str, Any]) -> str | None:
    """The command string of a shell tool call (lists are joined as argv)."""
    for key in _COMMAND_KEYS:
        value = arguments.get(key)
        if isinstance(value, str) and value.strip():
            return value
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            # Codex's older `shell` tool passes ["bash", "-lc", "cmd"].
            if (
                len(value) >= 3
                and value[0].endswith(("bash", "sh", "zsh"))
                and value[1] in ("-lc", "-c")
            ):
                return str(value[2])
            return " ".join(value)
    return None


def operations_for(
    tool: str, arguments: dict[str, Any], cwd: str | None = None
) -> list[FileOperation]:
    """The file operations a call of ``tool`` with ``arguments`` asks for.

    Unknown tools yield no operation: most tools (search, web, todo lists)
    touch no file.  ``cwd`` is recorded on shell operations so relative
    paths in the command resolve against the directory the command ran in.
    """
    key = tool.lower().replace("-", "_").replace(" ", "_")
    if "__" in key:  # MCP tools: mcp__server__tool
        key = key.rsplit("__", 1)[-1]
    if key in _EDITOR:
        return _editor(arguments)
    if key in _PATCH:
        text = next(
            (
                arguments[k]
                for k in ("input", "patchText", "patch", "diff")
                if isinstance(arguments.get(k), str)
            ),
            None,
        )
        return parse_patch(text) if text else []
    if key in SHELL_TOOLS:
        command = shell_command(arguments)
        if command is None:
            return []
        workdir = arguments.get("workdir") or arguments.get("cwd") or arguments.get("directory")
        return [
            FileOperation(
                action="shell",
                command=command,
                cwd=workdir if isinstance(workdir, str) and workdir else cwd,
                source="shell",
                dialect=_DIALECTS.get(key),
            )
        ]
    path = path_argument(arguments)
    if path is None:
        return []
    if key in _READ:
        return [_read(path, arguments)]
    if key in _CREATE:
        return [FileOperation(action="create", path=path, content=_content(arguments))]
    if key in _WRITE:
        return [FileOperation(action="write", path=path, content=_content(arguments))]
    if key in _MULTI_EDIT:
        edits = arguments.get("edits") or arguments.get("replacements") or []
        ops = [_edit(path, e | {"file_path": path}) for e in edits if isinstance(e, dict)]
        return ops or [FileOperation(action="edit", path=path)]
    if key in _NOTEBOOK_EDIT:
        mode = str(arguments.get("edit_mode", "replace"))
        new = arguments.get("new_source")
        return [
            FileOperation(
                action="edit",
                path=path,
                new=new if isinstance(new, str) else None,
                detail=f"notebook cell {mode}",
            )
        ]
    if key in _EDIT:
        return [_edit(path, arguments)]
    if key in _DELETE:
        return [FileOperation(action="delete", path=path)]
    if key in _UNDO:
        return [FileOperation(action="undo", path=path)]
    if key in _MOVE:
        dest = next(
            (
                arguments[k]
                for k in ("new_path", "destination", "dest", "newPath", "to", "target_path")
                if isinstance(arguments.get(k), str)
            ),
            None,
        )
        return [FileOperation(action="move", path=path, dest=dest)] if dest else []
    return []
