"""Walking the tree-sitter tree of a command into the model: words with their quoting and expansions, then statements.

Words and statements recurse into each other (a command substitution holds
statements), so both live here.  Redirections of a list or pipeline are
moved to its last element, where bash binds them (:func:`_attach`).
"""

from __future__ import annotations

from tree_sitter import Node as TSNode

from artifact_index.shell.parser.bash_grammar import Source, heredoc_index
from artifact_index.shell.parser.syntax_tree import (
    Command,
    Conditional,
    ForLoop,
    Group,
    Lit,
    Node,
    Opaque,
    Part,
    Pipeline,
    Redirect,
    Sequence,
    Sub,
    Subshell,
    Var,
    Word,
)

__all__ = [
    "EXPANSIONS",
    "Builder",
    "unescape",
    "word_parts",
]

# Words.
EXPANSIONS = {
    "simple_expansion",
    "expansion",
    "command_substitution",
    "arithmetic_expansion",
    "process_substitution",
}

_ANSI_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "v": "\v",
    "e": "\x1b",
    "E": "\x1b",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}


def _unquoted_parts(raw: str) -> list[Part]:
    """An unquoted word: a backslash quotes the next character; backslash-newline vanishes."""
    if "\\" not in raw:
        return [Lit(raw)]
    parts: list[Part] = []
    buf: list[str] = []
    i = 0
    while i < len(raw):
        ch = raw[i]
        if ch == "\\" and i + 1 < len(raw):
            if buf:
                parts.append(Lit("".join(buf)))
                buf = []
            if raw[i + 1] != "\n":
                parts.append(Lit(raw[i + 1], quoted=True))
            i += 2
            continue
        buf.append(ch)
        i += 1
    if buf:
        parts.append(Lit("".join(buf)))
    return parts


def _double_quoted(raw: str) -> str:
    """Inside double quotes a backslash escapes only ``$``, `````, ``"``, ``\\\\`` and a newline."""
    return unescape(raw, '$`"\\\n')


def _ansi_c(raw: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(raw):
        ch = raw[i]
        if ch != "\\" or i + 1 >= len(raw):
            out.append(ch)
            i += 1
            continue
        nxt = raw[i + 1]
        if nxt in _ANSI_ESCAPES:
            out.append(_ANSI_ESCAPES[nxt])
            i += 2
        elif nxt in "xuU":
            width = {"x": 2, "u": 4, "U": 8}[nxt]
            digits = ""
            j = i + 2
            while j < len(raw) and len(digits) < width and raw[j] in "0123456789abcdefABCDEF":
                digits += raw[j]
                j += 1
            out.append(chr(int(digits, 16)) if digits else "\\" + nxt)
            i = j
        elif nxt in "01234567":
            digits = ""
            j = i + 1
            while j < len(raw) and len(digits) < 3 and raw[j] in "01234567":
                digits += raw[j]
                j += 1
            out.append(chr(int(digits, 8)))
            i = j
        else:
            out.append("\\" + nxt)
            i += 2
    return "".join(out)


def word_parts(node: TSNode, source: Source) -> list[Part]:
    kind = node.type
    raw = source.text(node)
    if kind in ("word", "number", "special_variable_name", "variable_name"):
        return _unquoted_parts(raw)
    if kind == "raw_string":
        return [Lit(raw[1:-1] if len(raw) >= 2 else "", quoted=True)]
    if kind == "ansi_c_string":
        return [Lit(_ansi_c(raw[2:-1] if len(raw) >= 3 else ""), quoted=True)]
    if kind in ("string", "translated_string"):
        return _string_parts(node, source)
    if kind == "concatenation":
        out: list[Part] = []
        for child in node.children:
            out.extend(word_parts(child, source))
        return out
    if kind == "simple_expansion":
        name = raw[1:]
        if name.isidentifier():
            return [Var(name)]
        return [Opaque(raw)]
    if kind == "expansion":
        inner = raw[2:-1] if raw.startswith("${") and raw.endswith("}") else ""
        if inner.isidentifier():
            return [Var(inner)]
        return [Opaque(raw)]
    if kind == "command_substitution":
        return [Sub(Builder(source).statements(_inner(node)), raw)]
    if kind == "process_substitution":
        return [Sub(Builder(source).statements(_inner(node)), raw, process=True)]
    if not node.is_named:
        return [Lit(raw)]
    return [Opaque(raw)]


def _inner(node: TSNode) -> list[TSNode]:
    return [c for c in node.children if c.type not in ("$(", ")", "`", "<(", ">(")]


def _string_parts(node: TSNode, source: Source) -> list[Part]:
    """A double-quoted string: literal gaps between the expansions it holds."""
    out: list[Part] = []
    data = source.data
    start = node.start_byte
    end = node.end_byte
    # Skip the opening `"` (or `$"`) and the closing `"`.
    first = node.children[0] if node.children else None
    last = node.children[-1] if node.children else None
    pos = first.end_byte if first is not None and first.type in ('"', '$"') else start
    stop = last.start_byte if last is not None and last.type == '"' and last is not first else end
    for child in node.children:
        if child.type not in EXPANSIONS:
            continue
        if child.start_byte > pos:
            out.append(
                Lit(
                    _double_quoted(data[pos : child.start_byte].decode("utf-8", "replace")),
                    quoted=True,
                )
            )
        out.extend(word_parts(child, source))
        pos = child.end_byte
    if stop > pos:
        out.append(Lit(_double_quoted(data[pos:stop].decode("utf-8", "replace")), quoted=True))
    if not out:
        out.append(Lit("", quoted=True))
    return out


def _word(node: TSNode, source: Source) -> Word:
    return Word(tuple(word_parts(node, source)), source.span(node.start_byte, node.end_byte))


def unescape(text: str, escapable: str) -> str:
    """``text`` with a backslash before one of ``escapable`` removed (a backslash-newline joins lines)."""
    if "\\" not in text:
        return text
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text) and text[i + 1] in escapable:
            if text[i + 1] != "\n":
                out.append(text[i + 1])
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


# Statements.
_WORD_TYPES = {
    "word",
    "string",
    "raw_string",
    "ansi_c_string",
    "translated_string",
    "concatenation",
    "simple_expansion",
    "expansion",
    "command_substitution",
    "number",
    "process_substitution",
    "arithmetic_expansion",
}
_REDIRECT_TYPES = {"file_redirect", "heredoc_redirect", "herestring_redirect"}
_CONDITIONALS = {
    "if_statement": "if",
    "while_statement": "while",
    "case_statement": "case",
    "c_style_for_statement": "for",
}
_SEPARATORS = {";", "&", ";;", "\n"}


class Builder:
    def __init__(self, source: Source):
        self.source = source
        self.heredocs = source.heredocs

    def statements(self, nodes: list[TSNode]) -> Sequence:
        items: list[Node] = []
        operators: list[str] = []
        for n in nodes:
            if n.type in _SEPARATORS:
                if items and len(operators) == len(items) - 1:
                    operators.append("&" if n.type == "&" else ";")
                continue
            converted = self.node(n)
            if converted is None:
                continue
            if len(operators) < len(items):
                operators.append(";")
            if isinstance(converted, Sequence) and converted.items:
                # Lists are left-associative with equal precedence, so `a; b && c`
                # behaves as the flat list a ; b && c.
                items.extend(converted.items)
                operators.extend(converted.operators)
            else:
                items.append(converted)
        del operators[max(len(items) - 1, 0) :]
        return Sequence(tuple(items), tuple(operators))

    def node(self, n: TSNode) -> Node | None:
        kind = n.type
        if kind == "command":
            return self.command(n, [])
        if kind == "redirected_statement":
            return self.redirected(n)
        if kind == "list":
            return self.flat_list(n)
        if kind == "pipeline":
            cmds = [
                c for c in (self.node(ch) for ch in n.children if ch.type not in ("|", "|&")) if c
            ]
            return _pipeline(cmds)
        if kind == "negated_command":
            inner = [c for c in (self.node(ch) for ch in n.children if ch.type != "!") if c]
            return Pipeline(tuple(inner), negated=True) if inner else None
        if kind == "subshell":
            return Subshell(self.statements([c for c in n.children if c.type not in ("(", ")")]))
        if kind == "compound_statement":
            return Group(self.statements([c for c in n.children if c.type not in ("{", "}")]))
        if kind in _CONDITIONALS:
            return Conditional(_CONDITIONALS[kind], self.statements(self._flatten_clauses(n)))
        if kind == "for_statement":
            return self.for_loop(n)
        if kind in ("variable_assignment", "variable_assignments"):
            assignments = self.assignments([n] if kind == "variable_assignment" else n.children)
            return Command((), assignments, (), self.source.span(n.start_byte, n.end_byte))
        if kind == "declaration_command":
            return self.declaration(n)
        if kind in ("unset_command", "test_command"):
            return Command(
                (Word((Lit(kind.split("_")[0]),), kind),),
                (),
                (),
                self.source.span(n.start_byte, n.end_byte),
            )
        if kind == "ERROR":
            # Salvage the statements the parser could still recognize.
            salvaged = self.statements(n.children)
            return salvaged if salvaged.items else None
        return None

    def _flatten_clauses(self, n: TSNode) -> list[TSNode]:
        out: list[TSNode] = []
        for c in n.children:
            if c.type in (
                "elif_clause",
                "else_clause",
                "case_item",
                "do_group",
                "compound_statement",
            ):
                out.extend(self._flatten_clauses(c))
            elif c.is_named and c.type not in ("word", "comment", "extglob_pattern"):
                out.append(c)
        return out

    def flat_list(self, n: TSNode) -> Sequence:
        """``a && b || c``: the grammar nests lists on the left; walk them without recursion."""
        items: list[Node] = []
        operators: list[str] = []
        stack = [iter(n.children)]
        while stack:
            c = next(stack[-1], None)
            if c is None:
                stack.pop()
                continue
            if c.type == "list":
                stack.append(iter(c.children))
                continue
            if c.type in ("&&", "||"):
                operators.append(c.type)
                continue
            converted = self.node(c)
            if converted is None:
                continue
            if len(operators) < len(items):
                operators.append(";")
            if isinstance(converted, Sequence):
                items.extend(converted.items)
                operators.extend(converted.operators)
            else:
                items.append(converted)
        del operators[max(len(items) - 1, 0) :]
        return Sequence(tuple(items), tuple(operators))

    def for_loop(self, n: TSNode) -> ForLoop | None:
        var = n.child_by_field_name("variable")
        body = n.child_by_field_name("body")
        if var is None or body is None:
            return None
        values = [c for c in n.children_by_field_name("value")]
        has_in = any(c.type == "in" for c in n.children)
        words = tuple(_word(v, self.source) for v in values) if has_in else None
        stmts = self.statements([c for c in body.children if c.type not in ("do", "done")])
        return ForLoop(self.source.text(var), words, stmts)

    def assignments(self, nodes: list[TSNode]) -> tuple[tuple[str, Word], ...]:
        out: list[tuple[str, Word]] = []
        for a in nodes:
            if a.type != "variable_assignment":
                continue
            name = a.child_by_field_name("name")
            value = a.child_by_field_name("value")
            if name is None:
                continue
            word = _word(value, self.source) if value is not None else Word((Lit(""),), "")
            out.append((self.source.text(name), word))
        return tuple(out)

    def declaration(self, n: TSNode) -> Command:
        keyword = n.children[0] if n.children else None
        argv: list[Word] = []
        if keyword is not None:
            argv.append(Word((Lit(self.source.text(keyword)),), self.source.text(keyword)))
        for c in n.children[1:]:
            if c.type in _WORD_TYPES:
                argv.append(_word(c, self.source))
        return Command(
            tuple(argv),
            self.assignments(list(n.children)),
            (),
            self.source.span(n.start_byte, n.end_byte),
        )

    def command(self, n: TSNode, extra: list[Redirect]) -> Command:
        argv: list[Word] = []
        assignments: list[TSNode] = []
        redirects: list[Redirect] = []
        for c in n.children:
            if c.type == "variable_assignment":
                assignments.append(c)
            elif c.type == "command_name":
                inner = c.children[0] if c.children else c
                argv.append(_word(inner, self.source))
            elif c.type in _REDIRECT_TYPES:
                r = self.redirect(c)
                if r is not None:
                    redirects.append(r)
            elif c.type in _WORD_TYPES:
                argv.append(_word(c, self.source))
        return Command(
            tuple(argv),
            self.assignments(assignments),
            tuple(redirects + extra),
            self.source.span(n.start_byte, n.end_byte),
        )

    def redirected(self, n: TSNode) -> Node | None:
        redirects = [
            r for r in (self.redirect(c) for c in n.children_by_field_name("redirect")) if r
        ]
        body_node = n.child_by_field_name("body")
        end = n.end_byte
        if body_node is None:
            # `> file` on its own truncates or creates the file.
            return Command((), (), tuple(redirects), self.source.span(n.start_byte, end))
        if body_node.type == "command":
            cmd = self.command(body_node, redirects)
            return Command(
                cmd.argv, cmd.assignments, cmd.redirects, self.source.span(n.start_byte, end)
            )
        body = self.node(body_node)
        if body is None:
            return None
        last = body_node
        while last.type in ("list", "pipeline", "redirected_statement") and last.named_children:
            inner = [c for c in last.named_children if c.type not in _REDIRECT_TYPES]
            if not inner:
                break
            last = inner[-1]
        return _attach(body, tuple(redirects), self.source.span(last.start_byte, end))

    def redirect(self, n: TSNode) -> Redirect | None:
        if n.type == "herestring_redirect":
            words = [c for c in n.children if c.type in _WORD_TYPES]
            return Redirect("<<<", body=_word(words[0], self.source) if words else None)
        if n.type == "heredoc_redirect":
            return Redirect("<<")  # a heredoc the first pass could not cut out
        fd_node = n.child_by_field_name("descriptor")
        fd = (
            int(self.source.text(fd_node))
            if fd_node is not None and self.source.text(fd_node).isdigit()
            else None
        )
        op = next((c.type for c in n.children if not c.is_named), None)
        targets = n.children_by_field_name("destination")
        if op is None:
            return None
        target = _word(targets[0], self.source) if targets else None
        if op == "<" and target is not None:
            index = heredoc_index(target.literal or "")
            if index is not None and index < len(self.heredocs):
                return Redirect("<<", fd=fd, body=self.heredocs[index])
        return Redirect(op, fd=fd, target=target)


def _pipeline(cmds: list[Node]) -> Node:
    """The pipeline of ``cmds`` as bash binds it: ``|`` closer than ``&&``, ``||`` and ``;``.

    tree-sitter reads ``ls d 2>/dev/null && cat d/f 2>/dev/null | head`` as the list
    ``ls && cat`` piped into ``head``; a list is no element of a pipeline without braces or
    parentheses, so its last command alone is piped: ``ls && (cat | head)``.
    """
    items: list[Node] = []
    operators: list[str] = []
    current: list[Node] = []

    def join(node: Node) -> None:
        if isinstance(node, Pipeline) and not node.negated:
            current.extend(node.commands)
        else:
            current.append(node)

    for cmd in cmds:
        if isinstance(cmd, Sequence) and cmd.items:
            join(cmd.items[0])
            for operator, item in zip(cmd.operators, cmd.items[1:], strict=False):
                items.append(Pipeline(tuple(current)) if len(current) != 1 else current[0])
                operators.append(operator)
                current = []
                join(item)
        else:
            current.append(cmd)
    items.append(Pipeline(tuple(current)) if len(current) != 1 else current[0])
    return Sequence(tuple(items), tuple(operators)) if len(items) > 1 else items[0]


def _attach(body: Node, redirects: tuple[Redirect, ...], text: str) -> Node:
    """Bind redirections to ``body`` the way bash does: to the last element of a list or pipeline."""
    if not redirects:
        return body
    if isinstance(body, Sequence) and body.items:
        return Sequence(
            body.items[:-1] + (_attach(body.items[-1], redirects, text),), body.operators
        )
    if isinstance(body, Pipeline) and body.commands:
        # `! cmd > out`: the redirection is the command's, the `!` only inverts its status.
        return Pipeline(
            body.commands[:-1] + (_attach(body.commands[-1], redirects, text),),
            negated=body.negated,
        )
    if isinstance(body, Command):
        return Command(body.argv, body.assignments, body.redirects + redirects, text)
    if isinstance(body, Subshell):
        return Subshell(body.body, body.redirects + redirects)
    if isinstance(body, Group):
        return Group(body.body, body.redirects + redirects)
    if isinstance(body, Conditional):
        return Conditional(body.kind, body.body, body.redirects + redirects)
    if isinstance(body, ForLoop):
        return ForLoop(body.variable, body.values, body.body, body.redirects + redirects)
    return body
