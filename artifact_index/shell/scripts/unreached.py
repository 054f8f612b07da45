"""File-changing calls in a Python script that the walk never reached, but that can still run."""

from __future__ import annotations

import re

from tree_sitter import Node as TSNode

from artifact_index.lazy_pattern import lazy_pattern

__all__ = ["unfollowed_writes"]

_WRITER_METHODS = {
    "write_text",
    "write_bytes",
    "unlink",
    "touch",
    "savefig",
    "rmtree",
    "symlink_to",
}
_WRITER_CALLS = {
    "os.remove",
    "os.unlink",
    "os.rename",
    "os.replace",
    "os.system",
    "os.symlink",
    "shutil.move",
    "shutil.copy",
    "shutil.copy2",
    "shutil.copyfile",
    "shutil.copytree",
    "shutil.rmtree",
    "subprocess.run",
    "subprocess.call",
    "subprocess.check_call",
    "subprocess.check_output",
    "subprocess.Popen",
}
# Every writer's name is in the source text of its call: a script holding none of them has no writer.
_ANY_WRITER = lazy_pattern(
    b"|".join(
        re.escape(name.encode()) for name in sorted({*_WRITER_METHODS, *_WRITER_CALLS, "open"})
    )
)


def unfollowed_writes(root: TSNode, source: bytes, visited: set[tuple[int, int]]) -> list[int]:
    """Lines of file-changing calls the walk never reached, in code that can still run.

    Code that can run without the walk reaching it: methods (class bodies),
    lambdas, and functions whose name is used somewhere (a callback).  A
    function that is defined and never mentioned again is dead code.
    """
    if _ANY_WRITER.search(source) is None:
        return []
    text = source.decode("utf-8", "replace")
    lines: list[int] = []
    stack: list[tuple[TSNode, bool]] = [(root, True)]
    while stack:
        node, dead = stack.pop()
        kind = node.type
        if kind == "function_definition":
            name = node.child_by_field_name("name")
            ident = (
                source[name.start_byte : name.end_byte].decode("utf-8", "replace")
                if name is not None
                else ""
            )
            dead = not _is_method(node) and _mentions(text, ident) <= 1
        elif kind == "lambda":
            dead = False
        elif (
            kind == "call"
            and not dead
            and (node.start_byte, node.end_byte) not in visited
            and _is_writer(node, source)
        ):
            lines.append(node.start_point[0] + 1)
        stack.extend((child, dead) for child in node.named_children)
    return sorted(set(lines))


def _is_method(definition: TSNode) -> bool:
    """Whether the nearest enclosing definition of a function is a class."""
    parent = definition.parent
    while parent is not None:
        if parent.type == "class_definition":
            return True
        if parent.type == "function_definition":
            return False
        parent = parent.parent
    return False


def _mentions(text: str, name: str) -> int:
    """How often ``name`` occurs as a whole identifier in ``text``."""
    count = 0
    start = text.find(name)
    while name and start >= 0:
        before = text[start - 1] if start > 0 else " "
        after = text[start + len(name)] if start + len(name) < len(text) else " "
        if not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_"):
            count += 1
        start = text.find(name, start + 1)
    return count


def _is_writer(call: TSNode, source: bytes) -> bool:
    function = call.child_by_field_name("function")
    if function is None:
        return False
    name = source[function.start_byte : function.end_byte].decode("utf-8", "replace")
    if name in _WRITER_CALLS or (name.rsplit(".", 1)[-1] in _WRITER_METHODS and "." in name):
        return True
    if name == "open":
        arguments = call.child_by_field_name("arguments")
        args = (
            [a for a in arguments.named_children if a.type != "comment"]
            if arguments is not None
            else []
        )
        mode = args[1] if len(args) > 1 and args[1].type == "string" else None
        if mode is None:
            mode = next(
                (
                    a.child_by_field_name("value")
                    for a in args
                    if a.type == "keyword_argument"
                    and source[a.start_byte : a.start_byte + 4] == b"mode"
                ),
                None,
            )
        mode_text = (
            source[mode.start_byte : mode.end_byte].decode("utf-8", "replace")
            if mode is not None
            else ""
        )
        return any(ch in mode_text for ch in "wax+")
    return False
