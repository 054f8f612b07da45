"""OpenHands IPython cells: calls of the ``agentskills`` helpers as exact file operations, the rest as shell."""

from __future__ import annotations

import ast

from artifact_index.ingestion.adapters.narrowing import as_int_or_digits
from artifact_index.ingestion.events import (
    FileOperation,
    JSONObject,
)

__all__ = ["ipython_operations"]

# agentskills helpers -> their parameter names, in order.
_SKILLS: dict[str, tuple[str, ...]] = {
    "open_file": ("path", "line_number", "context_lines"),
    "goto_line": ("line_number",),
    "scroll_down": (),
    "scroll_up": (),
    "create_file": ("filename",),
    "edit_file_by_replace": ("file_name", "to_replace", "new_content"),
    "insert_content_at_line": ("file_name", "line_number", "content"),
    "append_file": ("file_name", "content"),
    "edit_file": ("file_name", "start", "start_str", "end", "end_str", "content"),
    "search_file": ("search_term", "file_path"),
    "search_dir": ("search_term", "dir_path"),
    "find_file": ("file_name", "dir_path"),
    "parse_pdf": ("file_path",),
    "parse_docx": ("file_path",),
    "parse_latex": ("file_path",),
    "parse_pptx": ("file_path",),
}


def ipython_operations(
    code: str, cwd: str | None, current_file: str | None
) -> tuple[list[FileOperation], str | None]:
    """The file operations of an OpenHands IPython cell, and agentskills' open file after it.

    Calls of the ``agentskills`` helpers become exact operations.  ``!cmd``
    lines are shell commands.  Any other Python is handed to the shell
    module as ``python3 - <<'EOF' ... EOF`` so that what it writes is
    inferred like any script run from a shell.
    """
    ops: list[FileOperation] = []
    shell_lines: list[str] = []
    python_lines: list[str] = []
    for line in code.splitlines():
        stripped = line.lstrip()
        if stripped.startswith("!"):
            shell_lines.append(stripped[1:].strip())
        elif not stripped.startswith("%"):
            python_lines.append(line)
    python = "\n".join(python_lines)
    other = False
    try:
        tree: ast.Module | None = ast.parse(python)
    except SyntaxError:
        tree = None
        other = bool(python.strip())
    for statement in tree.body if tree else []:
        call = _skill_call(statement)
        if call is None:
            other = other or not _harmless(statement)
            continue
        name, arguments = call
        if arguments is None:
            other = True
            continue
        op, current_file = _skill_operation(name, arguments, current_file)
        if op is not None:
            ops.append(op)
    ops.extend(
        FileOperation(action="shell", command=line, cwd=cwd, source="shell")
        for line in shell_lines
        if line
    )
    if other:
        script = f"python3 - <<'PYTHON_EOF'\n{python.strip()}\nPYTHON_EOF"
        ops.append(
            FileOperation(
                action="shell", command=script, cwd=cwd, source="shell", detail="IPython cell"
            )
        )
    return ops, current_file


def _harmless(statement: ast.stmt) -> bool:
    """Imports and bare names/constants change no file."""
    if isinstance(statement, ast.Import | ast.ImportFrom | ast.Pass):
        return True
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Name | ast.Constant)


def _skill_call(statement: ast.stmt) -> tuple[str, JSONObject | None] | None:
    """``(helper, arguments)`` for ``helper(...)`` or ``print(helper(...))``; arguments None if not literal."""
    if not isinstance(statement, ast.Expr) or not isinstance(statement.value, ast.Call):
        return None
    call = statement.value
    if (
        isinstance(call.func, ast.Name)
        and call.func.id == "print"
        and len(call.args) == 1
        and isinstance(call.args[0], ast.Call)
    ):
        call = call.args[0]
    if not isinstance(call.func, ast.Name) or call.func.id not in _SKILLS:
        return None
    name = call.func.id
    params = _SKILLS[name]
    arguments: JSONObject = {}
    try:
        for position, node in enumerate(call.args):
            if position < len(params):
                arguments[params[position]] = ast.literal_eval(node)
        for keyword in call.keywords:
            if keyword.arg:
                arguments[keyword.arg] = ast.literal_eval(keyword.value)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return name, None
    return name, arguments


def _skill_operation(
    name: str, args: JSONObject, current_file: str | None
) -> tuple[FileOperation | None, str | None]:
    def text(key: str) -> str | None:
        value = args.get(key)
        return value if isinstance(value, str) else None

    path = text("path") or text("file_name") or text("filename") or text("file_path")
    if name in ("goto_line", "scroll_down", "scroll_up"):
        return (
            FileOperation(action="read", path=current_file) if current_file else None
        ), current_file
    if name in ("search_dir", "find_file"):
        return None, current_file
    if name == "search_file":
        target = text("file_path") or current_file
        return (FileOperation(action="read", path=target) if target else None), current_file
    if path is None:
        return None, current_file
    if name == "open_file":
        line = as_int_or_digits(args.get("line_number"))
        return FileOperation(
            action="read", path=path, start_line=line if line and line > 1 else None
        ), path
    if name == "create_file":
        return FileOperation(action="create", path=path, content="\n"), path
    if name == "edit_file_by_replace":
        return FileOperation(
            action="edit", path=path, old=text("to_replace"), new=text("new_content")
        ), path
    if name == "insert_content_at_line":
        line = as_int_or_digits(args.get("line_number"))
        return FileOperation(
            action="edit", path=path, new=text("content"), start_line=line, detail="insert"
        ), path
    if name == "append_file":
        return FileOperation(action="edit", path=path, new=text("content"), detail="append"), path
    if name == "edit_file":
        start, end = as_int_or_digits(args.get("start")), as_int_or_digits(args.get("end"))
        return (
            FileOperation(
                action="edit",
                path=path,
                new=text("content"),
                start_line=start,
                end_line=end,
                detail="replace lines",
            ),
            path,
        )
    return FileOperation(action="read", path=path), current_file
