"""Python scripts -> file effects: ``open``, ``pathlib``, ``os``, ``shutil``, writers, ``subprocess``."""

from __future__ import annotations

import posixpath

from tree_sitter import Node as TSNode

from artifact_index.ingestion.events import FileOperation
from artifact_index.shell.invocation import Invocation, Runtime
from artifact_index.shell.parser import safe_parse
from artifact_index.shell.scripts.interpreter import (
    _MAX_DEPTH,
    Function,
    Handle,
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
    _texts,
)
from artifact_index.shell.scripts.unreached import unfollowed_writes

__all__ = ["python_effects"]

# ---------------------------------------------------------------------------
# Python

_PY_DEFAULTS: dict[str, Value] = {
    "open": Ref("open"),
    "os": Ref("os"),
    "shutil": Ref("shutil"),
    "pathlib": Ref("pathlib"),
    "Path": Ref("pathlib.Path"),
    "subprocess": Ref("subprocess"),
    "sys": Ref("sys"),
    "io": Ref("io"),
    "codecs": Ref("codecs"),
    "tempfile": Ref("tempfile"),
    "str": Ref("str"),
}

_PATH_CLASSES = {"pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath", "pathlib.PurePosixPath"}
_SUBPROCESS = {
    "os.system",
    "os.popen",
    "subprocess.run",
    "subprocess.call",
    "subprocess.check_call",
    "subprocess.check_output",
    "subprocess.Popen",
    "subprocess.getoutput",
    "subprocess.getstatusoutput",
}
_DATA_WRITERS = {
    "savefig",
    "to_csv",
    "to_json",
    "to_excel",
    "to_parquet",
    "to_pickle",
    "to_feather",
    "to_hdf",
    "to_netcdf",
    "to_file",
}
# Library functions that write the file named by one argument: name -> (position, keyword).
_MODULE_WRITERS: dict[str, tuple[int, str]] = {
    "numpy.save": (0, "file"),
    "numpy.savetxt": (0, "fname"),
    "numpy.savez": (0, "file"),
    "numpy.savez_compressed": (0, "file"),
    "matplotlib.pyplot.savefig": (0, "fname"),
    "pylab.savefig": (0, "fname"),
    "torch.save": (1, "f"),
    "joblib.dump": (1, "filename"),
}


class _Python(_Effects):
    def __init__(
        self,
        source: bytes,
        inv: Invocation,
        runtime: Runtime,
        script: str | None,
        argv: tuple[str | None, ...] | None = None,
    ):
        super().__init__(inv, runtime, script, "Python")
        self.source = source
        self.argv = argv
        self.globals: dict[str, Value] = dict(_PY_DEFAULTS)
        self.globals["__file__"] = _text(script) if script else None
        self.stack: list[TSNode] = []
        self.visited: set[tuple[int, int]] = set()

    def text(self, node: TSNode) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")

    # -- names --------------------------------------------------------------

    def lookup(self, name: str, scope: dict[str, Value]) -> Value:
        if name in scope:
            return scope[name]
        return self.globals.get(name)

    def bind(self, target: TSNode, value: Value, scope: dict[str, Value]) -> None:
        if target.type == "identifier":
            scope[self.text(target)] = value
        elif target.type in (
            "pattern_list",
            "tuple_pattern",
            "list_pattern",
            "expression_list",
            "tuple",
            "list",
        ):
            names = [c for c in target.named_children]
            items = (
                value.items if isinstance(value, Items) and len(value.items) == len(names) else None
            )
            for n, child in enumerate(names):
                self.bind(child, items[n] if items else None, scope)
        elif (
            target.type in ("as_pattern_target", "parenthesized_expression")
            and target.named_children
        ):
            self.bind(target.named_children[0], value, scope)
        # attributes and subscripts hold nothing we track

    # -- statements ---------------------------------------------------------

    def block(self, nodes: list[TSNode], scope: dict[str, Value]) -> None:
        for node in nodes:
            self.statement(node, scope)

    def statement(self, node: TSNode, scope: dict[str, Value]) -> None:
        self.tick()
        kind = node.type
        if kind in ("expression_statement",):
            for child in node.named_children:
                self.expression(child, scope)
        elif kind in ("import_statement", "import_from_statement", "future_import_statement"):
            self.imports(node, scope)
        elif kind == "function_definition":
            name = node.child_by_field_name("name")
            if name is not None:
                scope[self.text(name)] = Function(node)
        elif kind == "class_definition":
            name = node.child_by_field_name("name")
            if name is not None:
                scope[self.text(name)] = None
        elif kind == "decorated_definition":
            definition = node.child_by_field_name("definition")
            if definition is not None:
                self.statement(definition, scope)
        elif kind == "with_statement":
            for clause in node.children:
                if clause.type == "with_clause":
                    for item in clause.named_children:
                        self.with_item(item, scope)
            body = node.child_by_field_name("body")
            if body is not None:
                self.block(body.named_children, scope)
        elif kind == "for_statement":
            self.for_loop(node, scope)
        elif kind in (
            "block",
            "module",
            "else_clause",
            "elif_clause",
            "except_clause",
            "finally_clause",
            "if_statement",
            "while_statement",
            "try_statement",
            "match_statement",
            "case_clause",
            "except_group_clause",
        ):
            for child in node.named_children:
                if child.type in (
                    "block",
                    "else_clause",
                    "elif_clause",
                    "except_clause",
                    "finally_clause",
                    "except_group_clause",
                    "case_clause",
                ) or _is_statement(child):
                    self.statement(child, scope)
                else:
                    self.expression(child, scope)
        elif kind in (
            "return_statement",
            "raise_statement",
            "assert_statement",
            "delete_statement",
            "print_statement",
            "exec_statement",
        ):
            for child in node.named_children:
                self.expression(child, scope)
        elif kind in (
            "global_statement",
            "nonlocal_statement",
            "pass_statement",
            "break_statement",
            "continue_statement",
            "comment",
        ):
            return
        elif _is_statement(node):
            for child in node.named_children:
                self.statement(child, scope)
        else:
            self.expression(node, scope)

    def imports(self, node: TSNode, scope: dict[str, Value]) -> None:
        module = node.child_by_field_name("module_name")
        prefix = (
            self.text(module) + "."
            if module is not None and node.type == "import_from_statement"
            else ""
        )
        for child in node.children_by_field_name("name"):
            if child.type == "aliased_import":
                real = child.child_by_field_name("name")
                alias = child.child_by_field_name("alias")
                if real is not None and alias is not None:
                    scope[self.text(alias)] = Ref(prefix + self.text(real))
            elif child.type == "dotted_name":
                full = self.text(child)
                if prefix:
                    scope[full] = Ref(prefix + full)
                else:
                    scope[full.split(".")[0]] = Ref(full.split(".")[0])

    def with_item(self, item: TSNode, scope: dict[str, Value]) -> None:
        value_node = item.child_by_field_name("value") or (
            item.named_children[0] if item.named_children else None
        )
        if value_node is None:
            return
        if value_node.type == "as_pattern":
            inner = value_node.named_children[0] if value_node.named_children else None
            alias = value_node.child_by_field_name("alias")
            value = self.expression(inner, scope) if inner is not None else None
            if alias is not None:
                self.bind(alias, value, scope)
        else:
            self.expression(value_node, scope)

    def for_loop(self, node: TSNode, scope: dict[str, Value]) -> None:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        iterable = self.expression(right, scope) if right is not None else None
        if left is not None:
            self.bind(left, _loop_value(iterable), scope)
        for field_name in ("body", "alternative"):
            part = node.child_by_field_name(field_name)
            if part is not None:
                self.statement(part, scope)

    # -- expressions --------------------------------------------------------

    def expression(self, node: TSNode | None, scope: dict[str, Value]) -> Value:
        if node is None:
            return None
        self.tick()
        kind = node.type
        if kind in ("string", "concatenated_string"):
            return self.string(node, scope)
        if kind == "identifier":
            return self.lookup(self.text(node), scope)
        if kind == "attribute":
            return self.attribute(node, scope)
        if kind == "call":
            return self.call(node, scope)
        if kind in ("assignment", "augmented_assignment"):
            return self.assignment(node, scope)
        if kind == "binary_operator":
            left = self.expression(node.child_by_field_name("left"), scope)
            right = self.expression(node.child_by_field_name("right"), scope)
            op = node.child_by_field_name("operator")
            symbol = self.text(op) if op is not None else ""
            if symbol == "+":
                return _combine(left, right, "+")
            if symbol == "/" and isinstance(left, Text) and left.path:
                return _combine(left, right, "/")
            if symbol == "%" and isinstance(left, Text) and left.single is not None:
                return _percent(left.single, right)
            return None
        if kind == "subscript":
            # `sys.argv[1]`: an item of a known sequence at a literal index.
            value = self.expression(node.child_by_field_name("value"), scope)
            index = node.child_by_field_name("subscript")
            if index is None:
                return None
            position = self.text(index).strip()
            if not isinstance(value, Items) or not position.lstrip("-").isdigit():
                self.expression(index, scope)
                return None
            k = int(position)
            return value.items[k] if -len(value.items) <= k < len(value.items) else None
        if kind in ("parenthesized_expression", "await"):
            inner = node.named_children
            return self.expression(inner[0], scope) if inner else None
        if kind in ("list", "tuple", "expression_list", "set"):
            return Items(
                tuple(self.expression(c, scope) for c in node.named_children if c.type != "comment")
            )
        if kind in (
            "list_comprehension",
            "generator_expression",
            "set_comprehension",
            "dictionary_comprehension",
        ):
            inner_scope = dict(scope)
            for clause in node.named_children:
                if clause.type == "for_in_clause":
                    target = clause.child_by_field_name("left")
                    value = self.expression(clause.child_by_field_name("right"), inner_scope)
                    if target is not None:
                        self.bind(target, _loop_value(value), inner_scope)
            body = node.child_by_field_name("body")
            self.expression(body, inner_scope)
            return None
        if kind in ("lambda", "comment", "integer", "float", "true", "false", "none"):
            return None
        if kind == "named_expression":
            value = self.expression(node.child_by_field_name("value"), scope)
            name = node.child_by_field_name("name")
            if name is not None:
                scope[self.text(name)] = value
            return value
        for child in node.named_children:
            self.expression(child, scope)
        return None

    def assignment(self, node: TSNode, scope: dict[str, Value]) -> Value:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        value = self.expression(right, scope)
        if left is None:
            return value
        if node.type == "augmented_assignment":
            op = node.child_by_field_name("operator")
            current = self.expression(left, scope)
            value = (
                _combine(current, value, "+") if op is not None and self.text(op) == "+=" else None
            )
        self.bind(left, value, scope)
        return value

    def string(self, node: TSNode, scope: dict[str, Value]) -> Value:
        if node.type == "concatenated_string":
            result: Value = _text("")
            for child in node.named_children:
                result = _combine(result, self.string(child, scope), "+")
            return result
        start = next((c for c in node.children if c.type == "string_start"), None)
        if start is None:
            return None
        prefix = self.text(start).rstrip("'\"")
        quote = self.text(start)[len(prefix) :]
        if "f" not in prefix.lower():
            return _literal(self.text(node))
        plain_prefix = prefix.lower().replace("f", "")
        pieces: list[Value] = []
        pos = start.end_byte
        end = next((c.start_byte for c in node.children if c.type == "string_end"), node.end_byte)
        for child in node.children:
            if child.type != "interpolation":
                continue
            pieces.append(
                _literal(plain_prefix + quote + self._fraw(pos, child.start_byte) + quote)
            )
            pieces.append(self.interpolation(child, scope))
            pos = child.end_byte
        pieces.append(_literal(plain_prefix + quote + self._fraw(pos, end) + quote))
        result = _text("")
        for piece in pieces:
            result = _combine(result, piece, "+")
        return result

    def _fraw(self, start: int, end: int) -> str:
        return (
            self.source[start:end].decode("utf-8", "replace").replace("{{", "{").replace("}}", "}")
        )

    def interpolation(self, node: TSNode, scope: dict[str, Value]) -> Value:
        expr = node.child_by_field_name("expression") or (
            node.named_children[0] if node.named_children else None
        )
        value = self.expression(expr, scope)
        if node.child_by_field_name("format_specifier") is not None:
            return None
        conversion = node.child_by_field_name("type_conversion")
        if conversion is not None and self.text(conversion) != "!s":
            return None
        return Text(value.values) if isinstance(value, Text) else None

    def attribute(self, node: TSNode, scope: dict[str, Value]) -> Value:
        obj = self.expression(node.child_by_field_name("object"), scope)
        attr_node = node.child_by_field_name("attribute")
        attr = self.text(attr_node) if attr_node is not None else ""
        if isinstance(obj, Ref):
            name = f"{obj.name}.{attr}"
            if name == "sys.executable":
                return _text("python")
            if name == "sys.argv" and self.argv is not None:
                return Items(tuple(_text(v) if v is not None else None for v in self.argv))
            if name in ("os.sep", "os.path.sep"):
                return _text("/")
            if name == "os.curdir":
                return _text(".")
            return Ref(name)
        if isinstance(obj, Text) and obj.path:
            if attr == "parent":
                return _text(
                    *(posixpath.dirname(v.rstrip("/")) or "." for v in obj.values), path=True
                )
            if attr == "name":
                return _text(*(posixpath.basename(v.rstrip("/")) for v in obj.values))
            if attr == "stem":
                return _text(*(posixpath.splitext(posixpath.basename(v))[0] for v in obj.values))
            if attr == "suffix":
                return _text(*(posixpath.splitext(v)[1] for v in obj.values))
        return None

    # -- calls --------------------------------------------------------------

    def arguments(
        self, node: TSNode, scope: dict[str, Value]
    ) -> tuple[list[Value], dict[str, Value]]:
        args_node = node.child_by_field_name("arguments")
        positional: list[Value] = []
        keywords: dict[str, Value] = {}
        if args_node is None:
            return positional, keywords
        if args_node.type == "generator_expression":
            self.expression(args_node, scope)
            return [None], keywords
        for child in args_node.named_children:
            if child.type == "keyword_argument":
                name = child.child_by_field_name("name")
                value = self.expression(child.child_by_field_name("value"), scope)
                if name is not None:
                    keywords[self.text(name)] = value
            elif child.type in ("list_splat", "dictionary_splat"):
                self.expression(child, scope)
                positional.append(None)
            elif child.type != "comment":
                positional.append(self.expression(child, scope))
        return positional, keywords

    def call(self, node: TSNode, scope: dict[str, Value]) -> Value:
        self.visited.add((node.start_byte, node.end_byte))
        function = node.child_by_field_name("function")
        if function is None:
            return None
        receiver: Value = None
        method = ""
        if function.type == "attribute":
            receiver = self.expression(function.child_by_field_name("object"), scope)
            attr = function.child_by_field_name("attribute")
            method = self.text(attr) if attr is not None else ""
            target: Value = Ref(f"{receiver.name}.{method}") if isinstance(receiver, Ref) else None
        else:
            target = self.expression(function, scope)
        args, kwargs = self.arguments(node, scope)
        if isinstance(target, Ref):
            return self.library(target.name, args, kwargs)
        if isinstance(target, Function):
            self.user_function(target, args, kwargs)
            return None
        if function.type == "attribute":
            return self.method(receiver, method, args, kwargs, self.text(function))
        return None

    def library(self, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        def arg(n: int, key: str) -> Value:
            return args[n] if len(args) > n else kwargs.get(key)

        if name in ("open", "io.open", "codecs.open", "builtins.open"):
            return self.open(
                arg(0, "file"), arg(1, "mode"), mode_given=len(args) > 1 or "mode" in kwargs
            )
        if name in ("os.remove", "os.unlink"):
            self.emit("delete", arg(0, "path"), what="deletes")
        elif name in ("os.rename", "os.replace", "shutil.move", "os.renames"):
            self.emit("move", arg(0, "src"), dest=arg(1, "dst"), what="moves")
        elif name in ("shutil.copy", "shutil.copy2", "shutil.copyfile"):
            self.emit("copy", arg(0, "src"), dest=arg(1, "dst"), what="copies")
        elif name == "shutil.copytree":
            self.copy_tree(arg(0, "src"), arg(1, "dst"))
        elif name == "shutil.rmtree":
            self.remove_tree(arg(0, "path"))
        elif name in ("os.makedirs", "os.mkdir"):
            self.mkdir(arg(0, "name"))
        elif name in ("os.symlink", "os.link"):
            self.emit("create", arg(1, "dst"), what="creates a link at")
        elif name == "os.chdir":
            value = arg(0, "path")
            self.cwd = (
                self.where(value.single) if isinstance(value, Text) and value.single else None
            )
        elif name in _SUBPROCESS:
            self.shell(
                arg(0, "args" if name.startswith("subprocess") else "command"), kwargs.get("cwd")
            )
        elif name in _MODULE_WRITERS:
            position, keyword = _MODULE_WRITERS[name]
            self.emit("write", arg(position, keyword), what="writes")
        elif name in _PATH_CLASSES:
            parts = [a for a in args]
            if not parts:
                return _text(".", path=True)
            result: Value = parts[0] if isinstance(parts[0], Text) else None
            for part in parts[1:]:
                result = _combine(result, part, "/")
            return Text(result.values, path=True) if isinstance(result, Text) else None
        elif name == "os.path.join":
            result = args[0] if args and isinstance(args[0], Text) else None
            for part in args[1:]:
                result = _combine(result, part, "/")
            return Text(result.values) if isinstance(result, Text) else None
        elif name in (
            "os.path.abspath",
            "os.path.realpath",
            "os.path.normpath",
            "os.fspath",
            "str",
            "os.path.expandvars",
        ):
            value = arg(0, "path")
            if isinstance(value, Text) and name in ("os.path.abspath", "os.path.realpath"):
                placed = [self.where(v) for v in value.values]
                return _text(*(p for p in placed if p)) if all(placed) else None
            return Text(value.values) if isinstance(value, Text) else None
        elif name in ("os.path.dirname", "os.path.basename"):
            value = arg(0, "p")
            fn = posixpath.dirname if name.endswith("dirname") else posixpath.basename
            return _text(*(fn(v) for v in value.values)) if isinstance(value, Text) else None
        elif name in ("os.getcwd", "pathlib.Path.cwd"):
            return _text(self.cwd, path=name.startswith("pathlib")) if self.cwd else None
        elif name in (
            "tempfile.mkdtemp",
            "tempfile.mkstemp",
            "tempfile.gettempdir",
            "tempfile.mktemp",
        ):
            return _text(self.runtime.temp_path())
        elif name in ("textwrap.dedent",):
            return None
        return None

    def open(self, path: Value, mode: Value, *, mode_given: bool) -> Value:
        if mode_given and not (isinstance(mode, Text) and mode.single is not None):
            shown = (_texts(path) or ["a file"])[0]
            self.ops.append(
                self.inv.unknown(f"{self._who()} opens {shown} in a mode known only at run time")
            )
            return Handle(None, None)
        text_mode = mode.single if isinstance(mode, Text) and mode.single is not None else "r"
        if "w" in text_mode or "x" in text_mode:
            return Handle(self.emit("write", path, what="writes"))
        if "a" in text_mode:
            return Handle(self.emit("edit", path, what="appends to", detail="append"))
        if "+" in text_mode:
            return Handle(self.emit("edit", path, what="rewrites"), None)
        self.emit("read", path, what="reads")
        return Handle(None, None)

    def method(
        self, receiver: Value, method: str, args: list[Value], kwargs: dict[str, Value], shown: str
    ) -> Value:
        first = args[0] if args else None
        if isinstance(receiver, Handle):
            if (
                method in ("write", "writelines")
                and receiver.op_index is not None
                and receiver.chunks is not None
            ):
                pieces = (
                    _texts(first)
                    if method == "writelines"
                    else (
                        [first.single]
                        if isinstance(first, Text) and first.single is not None
                        else None
                    )
                )
                if pieces is None:
                    receiver.chunks = None
                else:
                    receiver.chunks.extend(pieces)
                    op = self.ops[receiver.op_index]
                    if op.action == "write":
                        self.ops[receiver.op_index] = op.model_copy(
                            update={"content": "".join(receiver.chunks)}
                        )
                    elif op.action == "edit" and op.detail == "append":
                        self.ops[receiver.op_index] = op.model_copy(
                            update={"new": "".join(receiver.chunks)}
                        )
            return None
        if (isinstance(receiver, Text) and receiver.path) or (
            receiver is None and method in _PATH_ONLY_METHODS
        ):
            return self.path_method(receiver, method, args, kwargs)
        if isinstance(receiver, Text):
            return _string_method(receiver, method, args, kwargs)
        if method in _DATA_WRITERS and first is not None:
            self.emit("write", first, what="writes")
        elif method in _DATA_WRITERS and "path_or_buf" in kwargs:
            self.emit("write", kwargs["path_or_buf"], what="writes")
        elif (
            method == "save"
            and isinstance(first, Text)
            and all(_looks_like_file(v) for v in first.values)
        ):
            # `.save("plot.png")` (seaborn, PIL, Keras, openpyxl) writes that file;
            # `.save()` with no file name (Django models) writes none.
            self.emit("write", first, what="writes")
        return None

    def path_method(
        self, receiver: Value, method: str, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        first = args[0] if args else None
        if method in ("write_text", "write_bytes"):
            content = first.single if method == "write_text" and isinstance(first, Text) else None
            self.emit("write", receiver, what="writes", content=content)
        elif method in ("read_text", "read_bytes"):
            self.emit("read", receiver, what="reads")
        elif method == "open":
            return self.open(
                receiver,
                first if first is not None else kwargs.get("mode"),
                mode_given=bool(args) or "mode" in kwargs,
            )
        elif method == "unlink":
            self.emit("delete", receiver, what="deletes")
        elif method in ("rename", "replace"):
            self.emit("move", receiver, dest=first, what="moves")
        elif method == "touch":
            self.touch(receiver)
        elif method == "mkdir":
            self.mkdir(receiver)
        elif method in ("symlink_to", "hardlink_to"):
            self.emit("create", receiver, what="creates a link at")
        elif isinstance(receiver, Text):
            if method == "joinpath":
                result: Value = receiver
                for part in args:
                    result = _combine(result, part, "/")
                return result
            if method in ("resolve", "absolute"):
                placed = [self.where(v) for v in receiver.values]
                return _text(*(p for p in placed if p), path=True) if all(placed) else None
            if (
                method in ("with_suffix", "with_name")
                and isinstance(first, Text)
                and first.single is not None
            ):
                if method == "with_suffix":
                    return _text(
                        *(posixpath.splitext(v)[0] + first.single for v in receiver.values),
                        path=True,
                    )
                return _text(
                    *(posixpath.join(posixpath.dirname(v), first.single) for v in receiver.values),
                    path=True,
                )
            if method in ("as_posix", "__str__", "expanduser"):
                return receiver if method != "expanduser" else None
        return None

    def user_function(
        self, function: Function, args: list[Value], kwargs: dict[str, Value]
    ) -> None:
        node = function.node
        if len(self.stack) >= _MAX_DEPTH or any(n == node for n in self.stack):
            return
        local: dict[str, Value] = {}
        params = node.child_by_field_name("parameters")
        position = 0
        for param in params.named_children if params is not None else []:
            if param.type == "identifier":
                name = self.text(param)
                local[name] = kwargs.get(name, args[position] if position < len(args) else None)
                position += 1
            elif param.type in ("default_parameter", "typed_default_parameter"):
                name_node = param.child_by_field_name("name")
                name = self.text(name_node) if name_node is not None else ""
                default = self.expression(param.child_by_field_name("value"), self.globals)
                local[name] = kwargs.get(name, args[position] if position < len(args) else default)
                position += 1
            elif param.type == "typed_parameter":
                ident = next((c for c in param.named_children if c.type == "identifier"), None)
                if ident is not None:
                    name = self.text(ident)
                    local[name] = kwargs.get(name, args[position] if position < len(args) else None)
                    position += 1
        body = node.child_by_field_name("body")
        if body is None:
            return
        self.stack.append(node)
        try:
            self.block(body.named_children, local)
        finally:
            self.stack.pop()


_PATH_ONLY_METHODS = {
    "write_text",
    "write_bytes",
    "unlink",
    "touch",
    "symlink_to",
    "read_text",
    "read_bytes",
}


def _looks_like_file(value: str) -> bool:
    stem, dot, ext = posixpath.basename(value).rpartition(".")
    return bool(stem and dot and ext.isalnum())


def _is_statement(node: TSNode) -> bool:
    return node.type.endswith(("_statement", "_definition")) or node.type in (
        "block",
        "decorated_definition",
    )


def _loop_value(iterable: Value) -> Value:
    """What a loop variable holds: every string of a literal list, or nothing known."""
    if isinstance(iterable, Items):
        if all(isinstance(item, Items) for item in iterable.items) and iterable.items:
            width = {len(item.items) for item in iterable.items if isinstance(item, Items)}
            if len(width) == 1:
                columns = []
                for n in range(width.pop()):
                    column = [item.items[n] for item in iterable.items if isinstance(item, Items)]
                    values = _texts(Items(tuple(column)))
                    columns.append(_text(*values) if values else None)
                return Items(tuple(columns))
        values = _texts(iterable)
        return _text(*values) if values else None
    return None


def _percent(fmt: str, right: Value) -> Value:
    values: tuple[str, ...]
    if isinstance(right, Text) and right.single is not None:
        values = (right.single,)
    elif isinstance(right, Items) and all(
        isinstance(i, Text) and i.single is not None for i in right.items
    ):
        values = tuple(
            i.single for i in right.items if isinstance(i, Text) and i.single is not None
        )
    else:
        return None
    try:
        return _text(fmt % values)
    except (TypeError, ValueError):
        return None


def _string_method(
    receiver: Text, method: str, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    """The str methods that build file names; anything else is unknown."""
    single = receiver.single
    if single is None:
        return None
    strs = [a.single if isinstance(a, Text) else None for a in args]
    try:
        if (
            method == "format"
            and all(s is not None for s in strs)
            and all(isinstance(v, Text) and v.single is not None for v in kwargs.values())
        ):
            named = {k: v.single for k, v in kwargs.items() if isinstance(v, Text)}
            return _text(single.format(*strs, **named))
        if method == "replace" and len(strs) >= 2 and strs[0] is not None and strs[1] is not None:
            return _text(single.replace(strs[0], strs[1]))
        if method in ("strip", "lstrip", "rstrip", "lower", "upper") and not args:
            return _text(getattr(single, method)())
        if method == "join" and args:
            parts = _texts(args[0])
            return (
                _text(single.join(parts))
                if parts is not None and isinstance(args[0], Items)
                else None
            )
    except (IndexError, KeyError, ValueError):
        return None
    return None


def python_effects(
    code: str,
    *,
    script: str | None,
    inv: Invocation,
    runtime: Runtime,
    argv: tuple[str | None, ...] | None = None,
) -> list[FileOperation]:
    """The file operations a Python program performs when run by ``inv`` (``script``: its placed path).

    ``argv``: the program's ``sys.argv`` when the command line shows it
    (``python gen.py out.bin`` writing ``sys.argv[1]`` writes ``out.bin``).
    """
    ts = _parser("python")
    if ts is None:
        return [inv.unknown("Python effects are not inferred: no tree-sitter grammar for Python")]
    source = code.encode("utf-8", "surrogatepass")
    tree = safe_parse(ts, source)
    walker = _Python(source, inv, runtime, script, argv)
    try:
        walker.block(tree.root_node.named_children, walker.globals)
    except (_Budget, RecursionError):
        walker.ops.append(inv.unknown(f"{walker._who()} is too large to follow completely"))
        return walker.ops
    unfollowed = unfollowed_writes(tree.root_node, source, walker.visited)
    if unfollowed:
        lines = ", ".join(str(n) for n in unfollowed[:5])
        walker.ops.append(
            inv.unknown(
                f"{walker._who()} changes files in code the analysis does not follow (methods, callbacks; line {lines})"
            )
        )
    return walker.ops
