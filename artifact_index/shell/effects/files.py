"""File management: ``rm``, ``mv``, ``cp``, ``ln``, ``touch``, ``mkdir``, ``tee``, ``sponge``, ``truncate``, ``dd``, downloads, and ``git``'s moves and removals."""

from __future__ import annotations

import posixpath

from artifact_index.ingestion.events import FileAction, FileOperation
from artifact_index.shell.effects.effect import Effect
from artifact_index.shell.expand import Arg
from artifact_index.shell.git import gh_effects, git_effects
from artifact_index.shell.invocation import (
    Invocation,
    Parsed,
    Runtime,
    parse_options,
)
from artifact_index.shell.state import Files

__all__ = [
    "cp",
    "dd",
    "download",
    "gh",
    "git",
    "install",
    "ln",
    "mkdir",
    "mv",
    "rm",
    "sponge",
    "tee",
    "touch",
    "truncate",
]


def rm(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(inv.args[1:])
    recursive = parsed.has("-r", "-R", "--recursive")
    forced = parsed.has("-f", "--force")
    files = runtime.files
    ops: list[FileOperation] = []
    for arg in parsed.operands:
        path = inv.place(arg)
        if path is None or arg.glob:
            ops.append(inv.unplaced("rm removes", arg))
            continue
        if files.kind(path) == "git":
            continue  # git's own bookkeeping is no project file, known or not
        if (
            forced
            and not recursive  # `rm -rf` of what no one knows is said as an unknown effect
            and files.kind(path) == "scratch"
            and files.exists(path) is None
            and files.is_directory(path) is None
        ):
            # `rm -f /tmp/x` as a precaution: silent whether or not x was there, and nothing
            # the session did showed it was. No temporary file is known to have gone.
            continue
        under = files.files_under(path)
        if under and not recursive:
            continue  # rm refuses a directory without -r
        if under:
            ops.extend(inv.op("delete", p) for p in sorted(under))
            if files.known_file(path):
                ops.append(inv.op("delete", path))
            continue
        if not recursive:
            ops.append(inv.op("delete", path))
            continue
        is_dir = True if (arg.value or "").endswith("/") else files.is_directory(path)
        if is_dir is False or files.known_file(path):
            ops.append(inv.op("delete", path))
        elif is_dir is None and not hasattr(files.context, "is_directory"):
            ops.append(inv.op("delete", path))  # nobody can tell: a named path is most often a file
        elif is_dir is None:
            ops.append(
                inv.unknown(
                    f"rm -r removes {arg.value}; no file under it is known, and it may be a directory"
                )
            )
    if inv.failed:
        # rm goes on past an operand it cannot remove (usually one that does
        # not exist), so a failed rm of several paths still removed those
        # known to exist.  A failed rm of one path removed nothing.
        if len(parsed.operands) < 2:
            return Effect()
        ops = [op for op in ops if op.action == "delete" and op.path and _exists(files, op.path)]
    elif recursive:
        # Whatever is found under a directory after rm -r emptied it was made after.
        for arg in parsed.operands:
            path = inv.place(arg)
            if path is not None and not arg.glob and files.is_directory(path) is not False:
                files.cleared_directory(path.rstrip("/") or "/")
    return Effect(ops)


def _exists(files: Files, path: str) -> bool:
    return files.known_file(path) or files.is_directory(path) is False


def _destination(
    inv: Invocation, runtime: Runtime, parsed: Parsed
) -> tuple[list[Arg], Arg | None, bool]:
    """(sources, destination, destination is a directory) for mv / cp / ln style argument lists."""
    target_dir = parsed.value("-t", "--target-directory")
    operands = list(parsed.operands)
    if target_dir is not None:
        return operands, Arg(target_dir, target_dir), True
    if len(operands) < 2:
        return operands, None, False
    dest = operands.pop()
    if parsed.has("-T", "--no-target-directory"):
        return operands, dest, False
    if len(operands) > 1:
        return operands, dest, True
    place = inv.place(dest)
    is_dir = (dest.value or "").endswith("/") or (
        place is not None and runtime.files.is_directory(place) is True
    )
    return operands, dest, is_dir


def _transfer(inv: Invocation, runtime: Runtime, verb: str) -> Effect:
    """mv and cp: each source file (or each file under a source directory) to its destination."""
    short = "tS"
    parsed = parse_options(
        inv.args[1:],
        short_values=short,
        long_values=(
            "--target-directory",
            "--suffix",
            "--backup",
            "--reflink",
            "--sparse",
            "--preserve",
        ),
    )
    sources, dest, into_dir = _destination(inv, runtime, parsed)
    action: FileAction = "move" if verb == "mv" else "copy"
    recursive = verb == "mv" or parsed.has("-r", "-R", "-a", "--recursive", "--archive")
    files = runtime.files
    if dest is None:
        return Effect()
    dest_path = inv.place(dest)
    ops: list[FileOperation] = []
    for src in sources:
        src_path = inv.place(src)
        if src_path is None or src.glob:
            ops.append(inv.unplaced(f"{verb} moves" if verb == "mv" else f"{verb} copies", src))
            continue
        if dest_path is None:
            ops.append(inv.unplaced(f"{verb} writes", dest))
            continue
        target = (
            posixpath.join(dest_path, posixpath.basename(src_path.rstrip("/")))
            if into_dir
            else dest_path
        )
        under = files.files_under(src_path)
        if under and not files.known_file(src_path):
            if not recursive:
                continue  # cp without -r skips directories
            if verb == "cp" and not into_dir and files.is_directory(dest_path) is True:
                target = posixpath.join(dest_path, posixpath.basename(src_path.rstrip("/")))
            for path in sorted(under):
                rel = path[len(src_path.rstrip("/")) + 1 :]
                ops.append(inv.op(action, path, dest=posixpath.join(target, rel)))
            if verb == "cp":
                ops.extend(_copied_tree(inv, files, src_path, target))
            continue
        if (
            verb == "cp"
            and recursive
            and _copies_a_folder(src, src_path, files.is_directory(src_path))
        ):
            if files.is_directory(dest_path) is True and not into_dir:
                target = posixpath.join(dest_path, posixpath.basename(src_path.rstrip("/")))
            ops.extend(_copied_tree(inv, files, src_path, target))
            continue
        if target == src_path:
            continue
        ops.append(inv.op(action, src_path, dest=target))
    return Effect(ops)


# Files commonly named without an extension: copied with -r, they are still one file.
_EXTENSIONLESS_FILES = frozenset(
    {
        "makefile",
        "dockerfile",
        "license",
        "licence",
        "readme",
        "gemfile",
        "procfile",
        "rakefile",
        "jenkinsfile",
        "vagrantfile",
        "brewfile",
        "justfile",
        "containerfile",
    }
)


def _copies_a_folder(src: Arg, src_path: str, is_directory: bool | None) -> bool:
    """Whether ``cp -r`` copies a folder: known to be one, written as one, or named like one.

    A source the session never saw is a folder when written with a trailing
    slash, or when its name has no extension and is not a file commonly named
    that way: ``cp -r templates out`` copies a tree whose files are unknown,
    not one file called ``templates``.
    """
    if is_directory is not None:
        return is_directory
    if (src.value or "").endswith("/"):
        return True
    name = posixpath.basename(src_path.rstrip("/"))
    # A dot-name (.env, .github) says nothing either way: it stays a copy of what it names.
    return "." not in name and name.lower() not in _EXTENSIONLESS_FILES


def _copied_tree(inv: Invocation, files: Files, source: str, target: str) -> list[FileOperation]:
    """A recursive copy of a directory the tracker does not know whole: its destination is a new tree.

    The files it copies are unknown (those known were named above), so the
    copy is an unknown effect; a destination that did not exist becomes a
    tree the session copied, so files a later listing shows there (``git
    status``) are the copy's.
    """
    if files.is_directory(target) is not True:
        files.made_directory(target.rstrip("/") or "/")
        files.copied.append(target.rstrip("/") or "/")
    if files.in_new_directory(source.rstrip("/") + "/"):
        return []  # a tree the session made holds no file it does not know
    return [inv.unknown(f"cp -r copies {source} to {target}; the files under it are not known")]


def mv(inv: Invocation, runtime: Runtime) -> Effect:
    return _transfer(inv, runtime, "mv")


def cp(inv: Invocation, runtime: Runtime) -> Effect:
    return _transfer(inv, runtime, "cp")


def install(inv: Invocation, runtime: Runtime) -> Effect:
    """``install [-m MODE] SRC... DEST``: each source copied to its destination (``-d``: folders made).

    What a source held may not be known (``install -m 0755 "$SHIM" ~/bin/tool``): its
    destination is written all the same, its content unknown.
    """
    parsed = parse_options(
        inv.args[1:],
        short_values="mgotS",
        long_values=("--mode", "--group", "--owner", "--target-directory", "--suffix"),
    )
    if parsed.has("-d", "--directory"):
        for arg in parsed.operands:
            path = inv.place(arg)
            if path is not None:
                runtime.files.made_directory(path.rstrip("/") or "/")
        return Effect()
    sources, dest, into_dir = _destination(inv, runtime, parsed)
    dest_path = inv.place(dest) if dest is not None else None
    ops: list[FileOperation] = []
    for src in sources:
        if dest is None or dest_path is None:
            ops.append(inv.unplaced("install writes", dest or src))
            continue
        if into_dir and src.value is None:
            ops.append(inv.unplaced("install writes into a folder", src))
            continue
        target = (
            posixpath.join(dest_path, posixpath.basename((src.value or "").rstrip("/")))
            if into_dir
            else dest_path
        )
        source = inv.place(src)
        content = runtime.files.content_of(source) if source is not None else None
        ops.append(inv.op("write", target, content=content, detail=f"installed from {src.raw}"))
    return Effect(ops)


def ln(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(
        inv.args[1:], short_values="tS", long_values=("--target-directory", "--suffix")
    )
    operands = list(parsed.operands)
    if len(operands) == 1 and parsed.value("-t", "--target-directory") is None:
        operands.append(Arg(".", "."))
        parsed.operands = operands
    sources, dest, into_dir = _destination(inv, runtime, parsed)
    dest_path = inv.place(dest) if dest is not None else None
    ops: list[FileOperation] = []
    force = parsed.has("-f", "--force")
    for src in sources:
        if dest is None or dest_path is None or src.value is None:
            ops.append(inv.unplaced("ln creates", dest or src))
            continue
        link = (
            posixpath.join(dest_path, posixpath.basename(src.value.rstrip("/")))
            if into_dir
            else dest_path
        )
        kind = "symbolic link" if parsed.has("-s", "--symbolic") else "hard link"
        ops.append(inv.op("write" if force else "create", link, detail=f"{kind} to {src.value}"))
    return Effect(ops)


def touch(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(
        inv.args[1:], short_values="dtr", long_values=("--date", "--reference", "--time")
    )
    if parsed.has("-c", "--no-create"):
        return Effect()
    ops: list[FileOperation] = []
    for arg in parsed.operands:
        path = inv.place(arg)
        if path is None:
            ops.append(inv.unplaced("touch creates", arg))
        elif not runtime.files.known_file(path) and runtime.files.is_directory(path) is None:
            # Nothing says the file exists: touch creates it, empty.
            ops.append(inv.op("create", path, content=""))
    return Effect(ops)


def mkdir(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(inv.args[1:], short_values="m", long_values=("--mode",))
    for arg in parsed.operands:
        path = inv.place(arg)
        if path is not None:
            runtime.files.made_directory(path.rstrip("/") or "/")
    return Effect()


def tee(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(inv.args[1:], long_values=("--output-error",))
    append = parsed.has("-a", "--append")
    ops: list[FileOperation] = []
    for arg in parsed.operands:
        path = inv.place(arg)
        if path is None:
            ops.append(inv.unplaced("tee writes", arg))
        elif append:
            ops.append(inv.op("edit", path, new=inv.stdin, detail="append"))
        else:
            ops.append(inv.op("write", path, content=inv.stdin))
    return Effect(ops, inv.stdin)


def sponge(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(inv.args[1:])
    ops = []
    for arg in parsed.operands[:1]:
        path = inv.place(arg)
        if path is None:
            ops.append(inv.unplaced("sponge writes", arg))
        elif parsed.has("-a"):
            ops.append(inv.op("edit", path, new=inv.stdin, detail="append"))
        else:
            ops.append(inv.op("write", path, content=inv.stdin))
    return Effect(ops)


def truncate(inv: Invocation, runtime: Runtime) -> Effect:
    parsed = parse_options(inv.args[1:], short_values="sr", long_values=("--size", "--reference"))
    size = parsed.value("-s", "--size")
    ops: list[FileOperation] = []
    for arg in parsed.operands:
        path = inv.place(arg)
        if path is None:
            ops.append(inv.unplaced("truncate changes", arg))
        elif size == "0":
            ops.append(inv.op("write", path, content=""))
        else:
            ops.append(inv.op("edit", path, detail=f"truncated to size {size}"))
    return Effect(ops)


def dd(inv: Invocation, runtime: Runtime) -> Effect:
    ops: list[FileOperation] = []
    settings = {
        a.value.split("=", 1)[0]: a.value.split("=", 1)[1]
        for a in inv.args[1:]
        if a.value and "=" in a.value
    }
    if "if" in settings:
        path = inv.place(settings["if"])
        if path:
            ops.append(inv.op("read", path))
    if "of" in settings:
        path = inv.place(settings["of"])
        notrunc = "notrunc" in settings.get("conv", "")
        if path:
            ops.append(inv.op("edit" if notrunc else "write", path))
    return Effect(ops)


def download(inv: Invocation, runtime: Runtime) -> Effect:
    name = inv.program
    if name == "curl":
        parsed = parse_options(
            inv.args[1:],
            short_values="oHdXuAeEmrTwxzbcKFCDQYy",
            long_values=(
                "--output",
                "--header",
                "--data",
                "--request",
                "--user",
                "--url",
                "--max-time",
                "--connect-timeout",
                "--data-raw",
                "--data-binary",
                "--form",
                "--cookie",
                "--user-agent",
            ),
        )
        outputs = [v for v in parsed.values("-o", "--output") if v != "-"]
        if parsed.has("-O", "--remote-name"):
            urls = [a.value for a in parsed.operands if a.value]
            outputs.extend(posixpath.basename(u.split("?", 1)[0]) for u in urls[:1])
    else:
        parsed = parse_options(
            inv.args[1:],
            short_values="OPoaetTUw",
            long_values=(
                "--output-document",
                "--directory-prefix",
                "--header",
                "--user-agent",
                "--tries",
                "--timeout",
            ),
        )
        document = parsed.value("-O", "--output-document")
        if document == "-":
            return Effect()
        if document is None:
            urls = [a.value for a in parsed.operands if a.value]
            prefix = parsed.value("-P", "--directory-prefix") or ""
            outputs = [
                posixpath.join(prefix, posixpath.basename(u.split("?", 1)[0]) or "index.html")
                for u in urls[:1]
            ]
        else:
            outputs = [document]
    ops = []
    for out in outputs:
        path = inv.place(out) if out is not None else None
        ops.append(
            inv.op("write", path)
            if path
            else inv.unknown(f"{name} downloads to a path known only at run time")
        )
    return Effect(ops)


def git(inv: Invocation, runtime: Runtime) -> Effect:
    return Effect(git_effects(inv, runtime, lambda i, r: mv(i, r).operations))


def gh(inv: Invocation, runtime: Runtime) -> Effect:
    return Effect(gh_effects(inv, runtime))
