"""Edits of a JSON document's text that leave the rest of it exactly as it was written.

A settings file kept by hand has its own indentation, key order, one-line
arrays and blank lines; rewriting it from the parsed data would lose them
all.  Here the text is parsed only for where each value starts and ends
(:func:`parse`), and an edit adds or removes one member or item in place:
an addition is indented like its neighbours (or one step deeper than its
container's line, in the file's own step), a removal takes the separating
comma with it.  The caller validates the document with :mod:`json` first.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal

from artifact_index.lazy_pattern import lazy_pattern

__all__ = [
    "Member",
    "Node",
    "add_member",
    "append_item",
    "indent_unit",
    "parse",
    "remove_item",
    "remove_member",
]


@dataclass
class Member:
    key: str
    start: int  # where the key's opening quote is
    value: Node


@dataclass
class Node:
    start: int  # the value's first character
    end: int  # just past its last character
    kind: Literal["object", "array", "scalar"]
    members: list[Member] = field(default_factory=list)  # an object's
    items: list[Node] = field(default_factory=list)  # an array's

    def member(self, key: str) -> Member | None:
        return next((m for m in self.members if m.key == key), None)


_WHITESPACE = " \t\r\n"
_SCALAR_END = lazy_pattern(r"[\s,\]\}]")


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def skip(self) -> None:
        while self.at < len(self.text) and self.text[self.at] in _WHITESPACE:
            self.at += 1

    def expect(self, char: str) -> None:
        self.skip()
        if self.text[self.at : self.at + 1] != char:
            raise ValueError(f"expected {char!r} at offset {self.at}")
        self.at += 1

    def string(self) -> str:
        start = self.at
        self.at += 1
        while self.text[self.at] != '"':
            self.at += 2 if self.text[self.at] == "\\" else 1
        self.at += 1
        value: str = json.loads(self.text[start : self.at])
        return value

    def value(self) -> Node:
        self.skip()
        start = self.at
        char = self.text[self.at : self.at + 1]
        if char == "{":
            self.at += 1
            node = Node(start, start, "object")
            self.skip()
            if self.text[self.at] != "}":
                while True:
                    self.skip()
                    key_start = self.at
                    key = self.string()
                    self.expect(":")
                    node.members.append(Member(key, key_start, self.value()))
                    self.skip()
                    if self.text[self.at] == ",":
                        self.at += 1
                        continue
                    break
            self.expect("}")
        elif char == "[":
            self.at += 1
            node = Node(start, start, "array")
            self.skip()
            if self.text[self.at] != "]":
                while True:
                    node.items.append(self.value())
                    self.skip()
                    if self.text[self.at] == ",":
                        self.at += 1
                        continue
                    break
            self.expect("]")
        elif char == '"':
            self.string()
            node = Node(start, start, "scalar")
        else:
            found = _SCALAR_END.search(self.text, self.at)
            self.at = found.start() if found else len(self.text)
            node = Node(start, start, "scalar")
        node.end = self.at
        return node


def parse(text: str) -> Node:
    """Where each value of the JSON document ``text`` starts and ends."""
    return _Parser(text).value()


def indent_unit(text: str) -> str:
    """The document's indentation step: its smallest indentation, else two spaces."""
    indents = [
        match.group(1)
        for match in re.finditer(r"\n([ \t]+)\S", text)
        if match.group(1).strip(" ") == "" or match.group(1).strip("\t") == ""
    ]
    return min(indents, key=len) if indents else "  "


def _line_indent(text: str, position: int) -> str:
    line_start = text.rfind("\n", 0, position) + 1
    line = text[line_start:position]
    return line[: len(line) - len(line.lstrip(" \t"))]


def _render(value: Any, unit: str, base: str) -> str:
    indent: int | str = len(unit) if unit.strip(" ") == "" else unit
    return json.dumps(value, indent=indent, ensure_ascii=False).replace("\n", "\n" + base)


def _insert(text: str, container: Node, spans: list[tuple[int, int]], rendered: str) -> str:
    """Add ``rendered`` (a member or an item, rendered at the right depth) at the end of ``container``."""
    if spans:
        last_end = spans[-1][1]
        if "\n" not in text[container.start + 1 : spans[0][0]]:  # one line: stays on one line
            return text[:last_end] + ", " + rendered + text[last_end:]
        indent = _line_indent(text, spans[0][0])
        return text[:last_end] + ",\n" + indent + rendered + text[last_end:]
    outer = _line_indent(text, container.start)
    close = container.end - 1
    return (
        text[: container.start + 1]
        + "\n"
        + outer
        + indent_unit(text)
        + rendered
        + "\n"
        + outer
        + text[close:]
    )


def _depth_indent(text: str, container: Node, spans: list[tuple[int, int]]) -> str:
    if spans and "\n" in text[container.start + 1 : spans[0][0]]:
        return _line_indent(text, spans[0][0])
    return _line_indent(text, container.start) + indent_unit(text)


def append_item(text: str, array: Node, value: Any) -> str:
    """``text`` with ``value`` added as the last item of ``array``."""
    spans = [(item.start, item.end) for item in array.items]
    rendered = _render(value, indent_unit(text), _depth_indent(text, array, spans))
    if spans and "\n" not in text[array.start + 1 : spans[0][0]]:
        rendered = json.dumps(value, ensure_ascii=False)
    return _insert(text, array, spans, rendered)


def add_member(text: str, obj: Node, key: str, value: Any) -> str:
    """``text`` with ``"key": value`` added as the last member of ``obj``."""
    spans = [(member.start, member.value.end) for member in obj.members]
    base = _depth_indent(text, obj, spans)
    if spans and "\n" not in text[obj.start + 1 : spans[0][0]]:
        rendered = json.dumps(key) + ": " + json.dumps(value, ensure_ascii=False)
    else:
        rendered = json.dumps(key) + ": " + _render(value, indent_unit(text), base)
    return _insert(text, obj, spans, rendered)


def _remove(text: str, container: Node, spans: list[tuple[int, int]], index: int) -> str:
    start, end = spans[index]
    if index > 0:  # from the end of the one before: its comma and the line break go too
        return text[: spans[index - 1][1]] + text[end:]
    if len(spans) > 1:  # the first of several: up to where the next begins
        return text[:start] + text[spans[1][0] :]
    return text[: container.start + 1] + text[container.end - 1 :]


def remove_item(text: str, array: Node, index: int) -> str:
    """``text`` without the ``index``-th item of ``array``."""
    return _remove(text, array, [(item.start, item.end) for item in array.items], index)


def remove_member(text: str, obj: Node, key: str) -> str:
    """``text`` without the member ``key`` of ``obj``."""
    spans = [(member.start, member.value.end) for member in obj.members]
    index = next(i for i, member in enumerate(obj.members) if member.key == key)
    return _remove(text, obj, spans, index)
