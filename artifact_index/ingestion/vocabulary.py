"""The shared tool vocabulary: what a named tool call does to files.

Most agents use one of a few families of file tools: Claude Code's
``Read``/``Write``/``Edit``/``MultiEdit``, the ``str_replace_editor`` of
SWE-agent, OpenHands and Anthropic's text editor tool, ``apply_patch`` of
Codex and OpenCode, and the generic ``read_file``/``write_file``/
``edit_file``/``execute_command`` vocabulary many others share.  An
adapter calls :func:`operations_for` with the tool's name and arguments and
gets the :class:`FileOperation` list for its :class:`ToolCall`; it only
needs its own code for tools peculiar to its format.
"""

from __future__ import annotations

from typing import Any, Literal

from artifact_index.ingestion.events import FileOperation, JSONObject, ShellDialect
from artifact_index.ingestion.patches import parse_patch

__all__ = [
    "PATH_KEYS",
    "SHELL_TOOLS",
    "TOOL_FAMILIES",
    "ToolFamily",
    "operations_for",
    "path_argument",
    "shell_command",
    "tool_family",
    "tool_key",
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

_READ = frozenset(
    {
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
)
_WRITE = frozenset(
    {
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
)
_CREATE = frozenset({"create", "newfilecreated", "new_file"})
_EDIT = frozenset(
    {
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
)
_MULTI_EDIT = frozenset({"multiedit", "multi_edit", "multi_replace_string_in_file"})
_NOTEBOOK_EDIT = frozenset({"notebookedit", "notebook_edit", "edit_notebook_file"})
_DELETE = frozenset({"delete", "delete_file", "deletefile", "remove_file", "rm", "file_delete"})
_MOVE = frozenset({"rename", "rename_file", "move_file", "mv", "move"})
_UNDO = frozenset({"undo_edit", "undoedit"})
_PATCH = frozenset({"apply_patch", "applypatch", "patch", "apply_diff"})
_EDITOR = frozenset(
    {"str_replace_editor", "str_replace_based_edit_tool", "text_editor", "file_editor"}
)

# Tools that run a shell command; the command is in one of these arguments.
SHELL_TOOLS = frozenset(
    {
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
)

# The families below touch no file by themselves: readers (the summarizer's
# compaction) still need to know what a call of them is.
_SHELL_SESSION = frozenset(
    {
        "bashoutput",
        "killshell",
        "write_stdin",
        "read_bash",
        "write_bash",
        "stop_bash",
        "read_powershell",
        "write_powershell",
        "stop_powershell",
        "list_powershell",
    }
)
# Searches of file contents.  Cline's and Roo Code's ``search_files`` is a regex
# search over contents (its output is ``path:line`` hits), not a file-name search.
_SEARCH_CODE = frozenset(
    {
        "grep",
        "search_files",
        "searchfiles",
        "codesearch",
        "search_code",
        "codebase_search",
        "grep_search",
        "ripgrep",
        "rg",
        "search",
        "find_in_files",
        "semantic_search",
        "search_file_content",
        "search_file",
        "search_dir",
    }
)
# Searches of file names.
_SEARCH_FILES = frozenset(
    {
        "glob",
        "find_files",
        "file_search",
        "list_files",
        "ls",
        "list_dir",
        "list_directory",
        "find",
        "find_file",
        "find_by_name",
    }
)
_WEB_SEARCH = frozenset({"websearch", "web_search", "google_web_search", "search_web"})
_FETCH_URL = frozenset(
    {"webfetch", "fetch_url", "fetch", "web_fetch", "read_url", "url_fetch", "browse"}
)
# Planning, delegation and bookkeeping: no file, no command.
_NO_FILE = frozenset(
    {
        "task",
        "todowrite",
        "todoread",
        "update_plan",
        "todo_write",
        "update_todos",
        "task_progress",
        "think",
        "finish",
        "submit",
        "exitplanmode",
        "attachment",
        "snapshot",
        "list_resources",
    }
)
# Tools only one format has, whose effects its adapter reads itself (an
# editor's cursor moves, a harness's own edit and commit records).
_FORMAT_SPECIFIC = frozenset(
    {
        "open",
        "goto",
        "scroll_up",
        "scroll_down",
        "insert",
        "add_to_chat",
        "apply_edit",
        "create_empty",
        "git_commit",
        "code_action",
        "user_shell",
        "run_ipython",
        "git_ai_attestation",
        "undo",
    }
)

ToolFamily = Literal[
    "read",
    "write",
    "create",
    "edit",
    "multi_edit",
    "notebook_edit",
    "delete",
    "move",
    "undo",
    "patch",
    "editor",
    "shell",
    "shell_session",
    "search_code",
    "search_files",
    "web_search",
    "fetch_url",
    "no_file",
    "format_specific",
]

# Every tool name the project knows, by what a call of it does.  The
# families are disjoint: a name has one meaning.
TOOL_FAMILIES: dict[ToolFamily, frozenset[str]] = {
    "read": _READ,
    "write": _WRITE,
    "create": _CREATE,
    "edit": _EDIT,
    "multi_edit": _MULTI_EDIT,
    "notebook_edit": _NOTEBOOK_EDIT,
    "delete": _DELETE,
    "move": _MOVE,
    "undo": _UNDO,
    "patch": _PATCH,
    "editor": _EDITOR,
    "shell": SHELL_TOOLS,
    "shell_session": _SHELL_SESSION,
    "search_code": _SEARCH_CODE,
    "search_files": _SEARCH_FILES,
    "web_search": _WEB_SEARCH,
    "fetch_url": _FETCH_URL,
    "no_file": _NO_FILE,
    "format_specific": _FORMAT_SPECIFIC,
}
_FAMILY_OF: dict[str, ToolFamily] = {
    name: family for family, names in TOOL_FAMILIES.items() for name in names
}
_COMMAND_KEYS = ("command", "cmd", "script", "commandLine", "CommandLine")
# Shell tools whose name says which shell runs the command.  A tool named Bash
# runs bash on Windows too (Git Bash for Claude Code), where `%` and backslashes
# would otherwise make a command look like cmd.exe's.
_DIALECTS: dict[str, ShellDialect] = {"powershell": "powershell", "cmd": "cmd", "bash": "bash"}


def tool_key(name: str) -> str:
    """The name a tool is known by here: lower case, ``_`` for ``-`` and spaces, no MCP prefix.

    An MCP tool (``mcp__server__tool``) is known by its own name.
    """
    key = name.strip().lower().replace("-", "_").replace(" ", "_")
    if "__" in key:
        key = key.rsplit("__", 1)[-1]
    return key


def tool_family(name: str) -> ToolFamily | None:
    """What a call of the tool ``name`` does, or ``None`` for a name no family holds."""
    return _FAMILY_OF.get(tool_key(name))


def path_argument(arguments: JSONObject) -> str | None:
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


def _read(path: str, arguments: JSONObject) -> FileOperation:
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


def _edit(path: str, arguments: JSONObject) -> FileOperation:
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


def _content(arguments: JSONObject) -> str | None:
    for key in ("content", "file_text", "text", "contents", "code"):
        value = arguments.get(key)
        if isinstance(value, str):
            return value
    return None


def _editor(arguments: JSONObject) -> list[FileOperation]:
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


# A code runner told its code is a shell script (an MCP `execute` tool: `{"language": "shell", "code": …}`).
_SHELL_LANGUAGES = frozenset({"shell", "bash", "sh", "zsh"})


def shell_command(arguments: JSONObject) -> str | None:
    """The command string of a shell tool call (lists are joined as argv)."""
    code, language = arguments.get("code"), arguments.get("language")
    if isinstance(code, str) and code.strip() and isinstance(language, str):
        return code if language.lower() in _SHELL_LANGUAGES else None
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


def operations_for(tool: str, arguments: JSONObject, cwd: str | None = None) -> list[FileOperation]:
    """The file operations a call of ``tool`` with ``arguments`` asks for.

    Unknown tools yield no operation: most tools (search, web, todo lists)
    touch no file.  ``cwd`` is recorded on shell operations so relative
    paths in the command resolve against the directory the command ran in.
    """
    key = tool_key(tool)
    if key in _EDITOR:
        return _editor(arguments)
    if key in _PATCH:
        text = next(
            (
                value
                for k in ("input", "patchText", "patch", "diff")
                if isinstance(value := arguments.get(k), str)
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
        ops = [
            _edit(path, e | {"file_path": path})
            for e in (edits if isinstance(edits, list) else [])
            if isinstance(e, dict)
        ]
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
