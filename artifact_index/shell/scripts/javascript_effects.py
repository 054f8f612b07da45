"""JavaScript scripts -> file effects: ``fs`` calls in their sync, async and promise forms, ``child_process``."""

from __future__ import annotations

import posixpath

from tree_sitter import Node as TSNode

from artifact_index.ingestion.events import FileAction, FileOperation
from artifact_index.shell.invocation import Invocation, Runtime
from artifact_index.shell.parser import safe_parse
from artifact_index.shell.scripts.interpreter import (
    Items,
    Ref,
    Text,
    Value,
    _Budget,
    _combine,
    _Effects,
    _literal,
    _parser,
    _text,
)

__all__ = ["javascript_effects"]

# ---------------------------------------------------------------------------
# JavaScript

_FS_MODULES = {"fs", "node:fs", "fs/promises", "node:fs/promises", "fs-extra"}
_FS_CALLS: dict[str, tuple[FileAction, str]] = {
    "writeFileSync": ("write", "writes"),
    "writeFile": ("write", "writes"),
    "outputFile": ("write", "writes"),
    "outputFileSync": ("write", "writes"),
    "appendFileSync": ("edit", "appends to"),
    "appendFile": ("edit", "appends to"),
    "unlinkSync": ("delete", "deletes"),
    "unlink": ("delete", "deletes"),
    "rmSync": ("delete", "deletes"),
    "rm": ("delete", "deletes"),
    "removeSync": ("delete", "deletes"),
    "remove": ("delete", "deletes"),
    "renameSync": ("move", "moves"),
    "rename": ("move", "moves"),
    "moveSync": ("move", "moves"),
    "move": ("move", "moves"),
    "copyFileSync": ("copy", "copies"),
    "copyFile": ("copy", "copies"),
    "cpSync": ("copy", "copies"),
    "cp": ("copy", "copies"),
    "copySync": ("copy", "copies"),
    "copy": ("copy", "copies"),
    "readFileSync": ("read", "reads"),
    "readFile": ("read", "reads"),
    "symlinkSync": ("create", "creates a link at"),
    "symlink": ("create", "creates a link at"),
}


class _JavaScript(_Effects):
    def __init__(self, source: bytes, inv: Invocation, runtime: Runtime, script: str | None):
        super().__init__(inv, runtime, script, "JavaScript")
        self.source = source
        self.names: dict[str, Value] = {
            "process": Ref("process"),
            "path": Ref("path"),
            "require": Ref("require"),
        }
        if script:
            self.names["__dirname"] = _text(posixpath.dirname(script))
            self.names["__filename"] = _text(script)

    def text(self, node: TSNode) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def walk(self, node: TSNode) -> None:
        """Document order: declarations bind names before the calls that follow them."""
        self.tick()
        kind = node.type
        if kind == "variable_declarator":
            self.declarator(node)
            return
        if kind == "import_statement":
            self.import_statement(node)
            return
        if kind in ("call_expression", "assignment_expression"):
            self.value(node)
            return
        for child in node.named_children:
            self.walk(child)

    def import_statement(self, node: TSNode) -> None:
        source = node.child_by_field_name("source")
        module = self.value(source) if source is not None else None
        name = module.single if isinstance(module, Text) else None
        if name is None:
            return
        for clause in node.named_children:
            if clause.type != "import_clause":
                continue
            for item in clause.named_children:
                if item.type == "identifier":
                    self.names[self.text(item)] = Ref(name)
                elif item.type == "namespace_import":
                    ident = next((c for c in item.named_children if c.type == "identifier"), None)
                    if ident is not None:
                        self.names[self.text(ident)] = Ref(name)
                elif item.type == "named_imports":
                    for spec in item.named_children:
                        real = spec.child_by_field_name("name")
                        alias = spec.child_by_field_name("alias") or real
                        if real is not None and alias is not None:
                            self.names[self.text(alias)] = Ref(f"{name}.{self.text(real)}")

    def declarator(self, node: TSNode) -> None:
        target = node.child_by_field_name("name")
        value = self.value(node.child_by_field_name("value"))
        if target is None:
            return
        if target.type == "identifier":
            self.names[self.text(target)] = value
        elif target.type == "object_pattern" and isinstance(value, Ref):
            for prop in target.named_children:
                if prop.type == "shorthand_property_identifier_pattern":
                    self.names[self.text(prop)] = Ref(f"{value.name}.{self.text(prop)}")
                elif prop.type == "pair_pattern":
                    key = prop.child_by_field_name("key")
                    alias = prop.child_by_field_name("value")
                    if key is not None and alias is not None and alias.type == "identifier":
                        self.names[self.text(alias)] = Ref(f"{value.name}.{self.text(key)}")
        else:
            for child in target.named_children:
                self.walk(child)

    def value(self, node: TSNode | None) -> Value:
        if node is None:
            return None
        self.tick()
        kind = node.type
        if kind == "string":
            return (
                _literal(self.text(node).replace("\n", "\\n"))
                if "\\u{" not in self.text(node)
                else None
            )
        if kind == "template_string":
            result: Value = _text("")
            pos = node.start_byte + 1
            for child in node.named_children:
                if child.type == "template_substitution":
                    result = _combine(result, self._raw(pos, child.start_byte), "+")
                    inner = child.named_children[0] if child.named_children else None
                    result = _combine(result, self.value(inner), "+")
                    pos = child.end_byte
            return _combine(result, self._raw(pos, node.end_byte - 1), "+")
        if kind == "identifier":
            return self.names.get(self.text(node))
        if kind == "member_expression":
            obj = self.value(node.child_by_field_name("object"))
            prop = node.child_by_field_name("property")
            if isinstance(obj, Ref) and prop is not None:
                return Ref(f"{obj.name}.{self.text(prop)}")
            return None
        if kind == "binary_expression":
            left = self.value(node.child_by_field_name("left"))
            right = self.value(node.child_by_field_name("right"))
            op = node.child_by_field_name("operator")
            return _combine(left, right, "+") if op is not None and self.text(op) == "+" else None
        if kind in ("parenthesized_expression", "await_expression"):
            return self.value(node.named_children[0]) if node.named_children else None
        if kind == "array":
            return Items(tuple(self.value(c) for c in node.named_children))
        if kind == "call_expression":
            return self.call(node)
        if kind == "assignment_expression":
            value = self.value(node.child_by_field_name("right"))
            target = node.child_by_field_name("left")
            if target is not None and target.type == "identifier":
                self.names[self.text(target)] = value
            return value
        for child in node.named_children:
            self.walk(child)
        return None

    def _raw(self, start: int, end: int) -> Value:
        raw = self.source[start:end].decode("utf-8", "replace")
        return None if "\\" in raw else _text(raw)

    def call(self, node: TSNode) -> Value:
        callee = self.value(node.child_by_field_name("function"))
        args_node = node.child_by_field_name("arguments")
        args = [self.value(c) for c in args_node.named_children] if args_node is not None else []
        if not isinstance(callee, Ref):
            return None
        name = callee.name
        module, _, function = name.rpartition(".")
        if name == "require":
            first = args[0] if args else None
            return Ref(first.single) if isinstance(first, Text) and first.single else None
        if module.removesuffix(".promises") in _FS_MODULES and function in _FS_CALLS:
            action, verb = _FS_CALLS[function]
            first = args[0] if args else None
            if action in ("move", "copy"):
                self.emit(action, first, dest=args[1] if len(args) > 1 else None, what=verb)
            elif action == "write":
                data = args[1] if len(args) > 1 else None
                self.emit(
                    "write",
                    first,
                    what=verb,
                    content=data.single if isinstance(data, Text) else None,
                )
            elif action == "edit":
                data = args[1] if len(args) > 1 else None
                self.emit(
                    "edit",
                    first,
                    what=verb,
                    new=data.single if isinstance(data, Text) else None,
                    detail="append",
                )
            elif action == "create":
                self.emit("create", args[1] if len(args) > 1 else None, what=verb)
            else:
                self.emit(action, first, what=verb)
            return None
        if module.removesuffix(".promises") in _FS_MODULES and function in (
            "mkdirSync",
            "mkdir",
            "ensureDirSync",
            "mkdirpSync",
        ):
            self.mkdir(args[0] if args else None)
        elif module in ("child_process", "node:child_process") and function in (
            "execSync",
            "exec",
            "spawnSync",
            "execFileSync",
            "spawn",
            "execFile",
        ):
            command = args[0] if args else None
            if (
                function in ("spawnSync", "execFileSync", "spawn", "execFile")
                and len(args) > 1
                and isinstance(args[1], Items)
            ):
                command = Items((command, *args[1].items))
            self.shell(command)
        elif name in ("path.join", "path.resolve", "node:path.join", "node:path.resolve"):
            result: Value = args[0] if args and isinstance(args[0], Text) else None
            for part in args[1:]:
                result = _combine(result, part, "/")
            if name.endswith("resolve") and isinstance(result, Text):
                placed = [self.where(v) for v in result.values]
                return _text(*(p for p in placed if p)) if all(placed) else None
            return result
        elif name in ("path.dirname", "path.basename"):
            first = args[0] if args else None
            fn = posixpath.dirname if function == "dirname" else posixpath.basename
            return _text(*(fn(v) for v in first.values)) if isinstance(first, Text) else None
        elif name == "process.cwd":
            return _text(self.cwd) if self.cwd else None
        return None


def javascript_effects(
    code: str, *, script: str | None, inv: Invocation, runtime: Runtime
) -> list[FileOperation]:
    """The file operations a JavaScript program performs when run by ``inv``."""
    ts = _parser("javascript")
    if ts is None:
        return [
            inv.unknown(
                "JavaScript effects are not inferred: no tree-sitter grammar for JavaScript"
            )
        ]
    source = code.encode("utf-8", "surrogatepass")
    walker = _JavaScript(source, inv, runtime, script)
    try:
        walker.walk(safe_parse(ts, source).root_node)
    except (_Budget, RecursionError):
        walker.ops.append(inv.unknown(f"{walker._who()} is too large to follow completely"))
    return walker.ops
