"""The tools in SWE-agent's action text: which one a command line runs, its arguments, the operation it is."""

from __future__ import annotations

import posixpath
import re
import shlex
from typing import Any

from artifact_index.ingestion.adapters.failures import classify_failure
from artifact_index.ingestion.adapters.narrowing import as_int_or_digits
from artifact_index.ingestion.adapters.str_replace_editor import (
    parse_editor_command_line,
)
from artifact_index.ingestion.events import (
    FailureReason,
    FileOperation,
    JSONObject,
)
from artifact_index.lazy_pattern import lazy_pattern

__all__ = [
    "NO_FILE_TOOLS",
    "TOOLS",
    "aci_failure",
    "cd_target",
    "change_directory",
    "edit_operation",
    "first_str",
    "normalized_arguments",
    "parse_tool",
    "shell_words",
    "split_commands",
    "text_or_empty",
    "window_of",
]

# Commands of SWE-agent's tool bundles that the adapter understands; any
# other first word makes the text a shell command.
TOOLS = frozenset(
    {
        "open",
        "goto",
        "scroll_up",
        "scroll_down",
        "create",
        "edit",
        "insert",
        "search_file",
        "search_dir",
        "find_file",
        "submit",
        "set_cursors",
        "filemap",
        "str_replace_editor",
    }
)
NO_FILE_TOOLS = frozenset({"search_dir", "find_file", "submit", "set_cursors"})

_NUMBERED_LINE = lazy_pattern(r"^(\d+):", re.MULTILINE)
_LINE_RANGE_EDIT = lazy_pattern(r"^edit(?:\s+(\d+)\s*(?::|\s)\s*(\d+))?\s*$")

# Sentences of the ACI scripts (config/commands/*.sh, tools/windowed*) that
# mean the command did nothing, with why.
_ACI_FAILURES: tuple[tuple[FailureReason, re.Pattern[str]], ...] = (
    (
        "verification",
        lazy_pattern(r"introduced new syntax error|changes have NOT been applied", re.I),
    ),
    (
        "not_found",
        lazy_pattern(r"^Your edit was not applied.*not found|^File .* not found", re.I | re.M),
    ),
    ("not_unique", lazy_pattern(r"more than one occurrence", re.I)),
    (
        "invalid",
        lazy_pattern(
            r"^(?:Usage: |No file open|No file opened|Error: |Search text must not be empty|"
            r"Your search and replace strings are the same|goto allows only one)",
            re.I | re.M,
        ),
    ),
)


def text_or_empty(value: Any) -> str:
    """A string field, or ``""``."""
    return value if isinstance(value, str) else ""


def first_str(arguments: JSONObject, *keys: str) -> str | None:
    """The first of ``keys`` that holds a non-blank string, stripped."""
    for key in keys:
        value = arguments.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def normalized_arguments(name: str, arguments: JSONObject) -> JSONObject:
    """Function-calling argument names, made the same as the parsed command line's."""
    args = dict(arguments)
    if name == "edit" and "replace-all" in args:
        args["replace_all"] = args.pop("replace-all")
    return args


def shell_words(text: str) -> list[str] | None:
    """The words of a command line as the shell splits them; None when its quotes do not close."""
    try:
        return shlex.split(text, posix=True)
    except ValueError:
        return None


def parse_tool(text: str) -> tuple[str, JSONObject] | None:
    """``(tool, arguments)`` when ``text`` is one SWE-agent tool invocation."""
    first = text.split(maxsplit=1)[0] if text.split() else ""
    if first not in TOOLS:
        return None
    if first == "str_replace_editor":
        editor = parse_editor_command_line(text)
        return (first, editor) if editor is not None else None
    header, _, body = text.partition("\n")
    if first == "edit":
        match = _LINE_RANGE_EDIT.match(header.strip())
        if match and body:
            lines = body.split("\n")
            end = next(
                (i for i, line in enumerate(lines) if line.strip() == "end_of_edit"), len(lines)
            )
            args: JSONObject = {"replacement_text": "\n".join(lines[:end])}
            if match.group(1):
                args["start_line"], args["end_line"] = int(match.group(1)), int(match.group(2))
            return first, args
    tokens = shell_words(text)
    if tokens is None:
        return None
    rest = tokens[1:]
    if first == "edit":
        if len(rest) in (2, 3):
            replace_all = len(rest) == 3 and rest[2].strip().lower() in ("true", "1", "yes")
            return first, {"search": rest[0], "replace": rest[1], "replace_all": replace_all}
        return first, {}
    keys = {
        "open": ("path", "line_number"),
        "create": ("filename",),
        "goto": ("line_number",),
        "insert": ("text", "line"),
        "search_file": ("search_term", "file"),
        "search_dir": ("search_term", "dir"),
        "find_file": ("file_name", "dir"),
        "set_cursors": ("start", "end"),
        "filemap": ("file_path",),
    }.get(first, ())
    return first, dict(zip(keys, rest, strict=False))


def edit_operation(
    name: str, args: JSONObject, path: str, cursor: tuple[int, int] | None
) -> FileOperation:
    if name == "insert":
        text = args.get("text")
        line = as_int_or_digits(args.get("line"))
        detail = f"insert after line {line}" if line is not None else "insert"
        return FileOperation(
            action="edit",
            path=path,
            new=text if isinstance(text, str) else None,
            start_line=line,
            detail=detail,
        )
    if "search" in args:
        return FileOperation(
            action="edit",
            path=path,
            old=str(args.get("search", "")),
            new=str(args.get("replace", "")),
            replace_all=bool(args.get("replace_all")),
        )
    start, end = as_int_or_digits(args.get("start_line")), as_int_or_digits(args.get("end_line"))
    if start is None and cursor is not None:
        start, end = cursor
    replacement = args.get("replacement_text")
    detail = f"replace lines {start}-{end}" if start is not None else "replace the selected lines"
    return FileOperation(
        action="edit",
        path=path,
        new=replacement if isinstance(replacement, str) else None,
        start_line=start,
        end_line=end,
        detail=detail,
    )


def window_of(observation: str | None) -> tuple[int | None, int | None]:
    """The first and last numbered line an ACI window showed."""
    if not observation:
        return None, None
    numbers = [int(n) for n in _NUMBERED_LINE.findall(observation)]
    return (numbers[0], numbers[-1]) if numbers else (None, None)


def aci_failure(observation: str) -> FailureReason | None:
    head = "\n".join(observation.strip().splitlines()[:4])
    for reason, pattern in _ACI_FAILURES:
        if pattern.search(head):
            return reason
    if re.match(r"\s*(?:Error|ERROR)\b", head):
        return classify_failure(head)
    return None


def change_directory(cwd: str | None, target: str) -> str | None:
    if target.startswith("/"):
        return posixpath.normpath(target)
    if cwd is None or target.startswith("~") or target == "-":
        return None
    return posixpath.normpath(posixpath.join(cwd, target))


def cd_target(segment: str) -> str | None:
    tokens = shell_words(segment)
    if tokens and tokens[0] == "cd" and len(tokens) == 2:
        return tokens[1]
    return None


def split_commands(text: str) -> list[str]:
    """``text`` cut at top-level ``&&``, ``||``, ``;`` and newlines.

    Quotes are respected; from a here-document (``<<``) on, the rest stays
    one piece because its body is not shell syntax.  Pipes stay inside a
    piece.
    """
    pieces: list[str] = []
    current: list[str] = []
    quote: str | None = None
    i = 0
    while i < len(text):
        char = text[i]
        if quote:
            current.append(char)
            if char == "\\" and quote == '"' and i + 1 < len(text):
                current.append(text[i + 1])
                i += 1
            elif char == quote:
                quote = None
        elif char == "\\" and i + 1 < len(text):
            current.extend((char, text[i + 1]))
            i += 1
        elif char in "'\"":
            quote = char
            current.append(char)
        elif text.startswith("<<", i):
            current.append(text[i:])
            break
        elif text.startswith(("&&", "||"), i) or char in ";\n":
            pieces.append("".join(current))
            current = []
            if char in "&|":
                i += 1
        else:
            current.append(char)
        i += 1
    pieces.append("".join(current))
    return [piece.strip() for piece in pieces if piece.strip()]
