"""In-place editors: ``sed -i``, ``perl -pi``, ``awk -i inplace``, ``ed``, ``patch`` and ``apply_patch``."""

from __future__ import annotations

import posixpath

from artifact_index.ingestion.events import FileOperation
from artifact_index.shell.effects.effect import Effect
from artifact_index.shell.expand import Arg
from artifact_index.shell.invocation import (
    Invocation,
    Runtime,
    parse_options,
    patch_operations,
)
from artifact_index.shell.sed import apply_sed, minimal_edit

__all__ = [
    "apply_patch",
    "awk",
    "ed",
    "patch",
    "perl",
    "sed",
]


def sed(inv: Invocation, runtime: Runtime) -> Effect:
    args = list(inv.args[1:])
    in_place = False
    extended = False
    suffix = ""
    scripts: list[str | None] = []
    quiet = False
    rest: list[Arg] = []
    i = 0
    while i < len(args):
        arg = args[i]
        value = arg.value
        i += 1
        if value is None or not value.startswith("-") or value == "-" or arg.glob:
            rest.append(arg)
            continue
        if value == "--":
            rest.extend(args[i:])
            break
        if value.startswith("--"):
            name, _, attached = value.partition("=")
            if name == "--in-place":
                in_place, suffix = True, attached
            elif name == "--expression":
                if attached or "=" in value:
                    scripts.append(attached)
                elif i < len(args):
                    scripts.append(args[i].value)
                    i += 1
            elif name == "--file":
                scripts.append(None)
                if not attached and i < len(args):
                    i += 1
            elif name in ("--quiet", "--silent"):
                quiet = True
            elif name == "--regexp-extended":
                extended = True
            elif name == "--line-length" and not attached:
                i += 1
            continue
        cluster = value[1:]
        for j, ch in enumerate(cluster):
            if ch == "i":
                in_place = True
                suffix = cluster[j + 1 :]
                # BSD sed: `-i ''` / `-i .bak` give the suffix as the next argument.
                following = args[i].value if i < len(args) else None
                if (
                    not suffix
                    and following is not None
                    and (following == "" or following.startswith("."))
                ):
                    suffix = following
                    i += 1
                break
            if ch in "ef":
                attached = cluster[j + 1 :]
                if attached:
                    scripts.append(attached if ch == "e" else None)
                elif i < len(args):
                    scripts.append(args[i].value if ch == "e" else None)
                    i += 1
                break
            if ch == "l":
                if not cluster[j + 1 :]:
                    i += 1
                break
            if ch == "n":
                quiet = True
            if ch in "Er":
                extended = True
    if not scripts and rest:
        scripts.append(rest.pop(0).value)
    script = "; ".join(s or "?" for s in scripts)
    ops: list[FileOperation] = []
    if in_place:
        for arg in rest:
            path = inv.place(arg)
            if path is None:
                ops.append(inv.unplaced("sed -i edits", arg))
                continue
            if suffix:
                backup = (
                    suffix.replace("*", posixpath.basename(path))
                    if "*" in suffix
                    else path + suffix
                )
                if "*" in suffix:
                    backup = posixpath.join(posixpath.dirname(path), backup)
                ops.append(inv.op("copy", path, dest=backup))
            edit = _sed_edit(inv, runtime, path, scripts, extended)
            if edit is not None:
                ops.append(edit)
        return Effect(ops)
    start, end = _sed_window(script) if quiet else (None, None)
    for arg in rest:
        path = inv.place(arg)
        if path is not None and arg.value != "-":
            ops.append(inv.op("read", path, start_line=start, end_line=end))
    return Effect(ops)


_REGEX_SPECIAL = set(".[]*^$\\+?(){}|")


def _sed_edit(
    inv: Invocation, runtime: Runtime, path: str, scripts: list[str | None], extended: bool
) -> FileOperation | None:
    """The edit ``sed -i`` makes: exact when the file's text is known, or the script is a plain ``s///g``.

    None when the text is known and the script changes nothing in it (a
    pattern that matches nothing is a common agent mistake).
    """
    before = runtime.files.content_of(path)
    known = [s for s in scripts if s is not None]
    if before is not None and known and len(known) == len(scripts):
        after = apply_sed(before, known, extended=extended)
        if after is not None:
            if after == before:
                return None
            old, new = minimal_edit(before, after)
            return inv.op("edit", path, old=old, new=new)
    literal = _literal_substitution(scripts[0]) if len(scripts) == 1 and scripts[0] else None
    if literal is not None:
        return inv.op("edit", path, old=literal[0], new=literal[1], replace_all=True)
    return inv.op("edit", path)


def _literal_substitution(script: str) -> tuple[str, str] | None:
    """``s/old/new/g`` with plain text on both sides -> (old, new): the edit is then exact."""
    script = script.strip()
    if len(script) < 4 or script[0] != "s" or script[1].isalnum() or script[1] in "\\\n ":
        return None
    pieces = script[2:].split(script[1])
    if len(pieces) != 3:
        return None
    old, new, flags = pieces
    if (
        flags != "g"
        or not old
        or _REGEX_SPECIAL.intersection(old)
        or "&" in new
        or "\\" in new
        or "\n" in old + new
    ):
        return None
    return old, new


def _sed_window(script: str) -> tuple[int | None, int | None]:
    """``sed -n '10,20p'`` -> (10, 20); anything fancier -> no window."""
    body = script.strip()
    if not body.endswith("p"):
        return None, None
    first, _, second = body[:-1].partition(",")
    if first.isdigit() and (second.isdigit() or not second):
        return int(first), int(second or first)
    return None, None


def perl(inv: Invocation, runtime: Runtime) -> Effect:
    args = list(inv.args[1:])
    in_place = False
    loops = False
    has_code = False
    rest: list[Arg] = []
    i = 0
    while i < len(args):
        arg = args[i]
        value = arg.value
        i += 1
        if value is None or not value.startswith("-") or value == "-" or arg.glob:
            rest.append(arg)
            rest.extend(args[i:])
            break
        if value == "--":
            rest.extend(args[i:])
            break
        cluster = value[1:]
        j = 0
        while j < len(cluster):
            ch = cluster[j]
            if ch == "i":
                in_place = True
                break
            if ch in "eE":
                has_code = True
                if not cluster[j + 1 :]:
                    i += 1  # the code is the next argument
                break
            if ch in "MmIFCdDx":
                break
            if ch in "0l":
                j += 1
                while j < len(cluster) and cluster[j] in "0123456789abcdefxABCDEF":
                    j += 1
                continue
            if ch in "pn":
                loops = True
            j += 1
    if not has_code and rest:
        rest.pop(0)  # the program file
    ops: list[FileOperation] = []
    for arg in rest:
        path = inv.place(arg)
        if in_place:
            ops.append(inv.op("edit", path) if path else inv.unplaced("perl -i edits", arg))
        elif loops and path:
            ops.append(inv.op("read", path))
    return Effect(ops)


def awk(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(
        inv.args[1:],
        short_values="FvfiE",
        long_values=("--include", "--file", "--assign", "--field-separator"),
    )
    in_place = "inplace" in [v for v in parsed.values("-i", "--include") if v]
    operands = list(parsed.operands)
    if not parsed.has("-f", "--file") and operands:
        operands.pop(0)  # the program text
    ops: list[FileOperation] = []
    for arg in operands:
        if arg.value is not None and "=" in arg.value and not arg.value.startswith("/"):
            continue  # awk treats var=value operands as assignments
        path = inv.place(arg)
        if in_place:
            ops.append(inv.op("edit", path) if path else inv.unplaced("awk -i inplace edits", arg))
        elif path and arg.value != "-":
            ops.append(inv.op("read", path))
    return Effect(ops)


def ed(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(inv.args[1:], short_values="p")
    ops = []
    for arg in parsed.operands[:1]:
        path = inv.place(arg)
        ops.append(inv.op("edit", path) if path else inv.unplaced(f"{inv.program} edits", arg))
    return Effect(ops)


def patch(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(
        inv.args[1:],
        short_values="pidoDBrFVYzgx",
        long_values=(
            "--strip",
            "--input",
            "--directory",
            "--output",
            "--reject-file",
            "--backup",
            "--suffix",
            "--fuzz",
        ),
    )
    if parsed.has("--dry-run", "-C", "--check"):
        return Effect()
    strip_value = parsed.value("-p", "--strip")
    strip = int(strip_value) if strip_value and strip_value.isdigit() else 1
    directory_arg = parsed.value("-d", "--directory")
    directory = inv.place(directory_arg) if directory_arg else None
    patch_file = parsed.value("-i", "--input")
    operands = list(parsed.operands)
    if patch_file is None and len(operands) >= 2:
        patch_file = operands[1].value
    text, source = _patch_text(inv, runtime, patch_file)
    if text is None:
        return Effect([inv.unknown(f"patch applies {source}, whose text is not known")])
    ops = patch_operations(
        inv, text, strip=strip, reverse=parsed.has("-R", "--reverse"), directory=directory
    )
    if operands and operands[0].value and len(ops) == 1 and ops[0].action == "edit":
        # `patch FILE PATCHFILE`: the file named on the command line is the one patched.
        target = inv.place(operands[0])
        if target:
            ops = [ops[0].model_copy(update={"path": target})]
    return Effect(ops)


def _patch_text(
    inv: Invocation, runtime: Runtime, patch_file: str | None
) -> tuple[str | None, str]:
    if patch_file is not None and patch_file != "-":
        path = inv.place(patch_file)
        return (runtime.files.content_of(path) if path else None), patch_file
    if inv.stdin is not None:
        return inv.stdin, "a patch"
    return None, inv.stdin_path or "a patch read from standard input"


def apply_patch(inv: Invocation, runtime: Runtime) -> Effect:
    """Codex's ``apply_patch`` run as a shell command: the patch is the argument or stdin."""
    text = inv.args[1].value if len(inv.args) > 1 else inv.stdin
    if text is None:
        return Effect([inv.unknown("apply_patch applies a patch whose text is not known")])
    return Effect(patch_operations(inv, text))
