"""``git`` subcommands -> file effects on the working tree.

Only the working tree counts: ``git add``, ``git commit``, ``git reset``
without ``--hard`` and ``git restore --staged`` change the index or history,
not files.  Restoring commands (``git checkout -- PATH``, ``git checkout
PATH``, ``git restore PATH``, ``git stash``, ``git reset --hard``) become
``restore`` operations; ``path=None`` means the whole working tree.
``git stash pop`` / ``apply`` / ``drop`` / ``clear`` become ``unstash``
operations: the tracker knows what the session's own stashes put away.
Commands that change files in ways that cannot be named from the command
line (``git rebase``, ``git cherry-pick``, switching branches, creating a
branch from another start point) become ``unknown`` operations; ``git
merge`` and ``git pull`` name the files their report lists
(:mod:`.git_report`) and are unknown only when there is no report.  A
switch to a revision that an earlier ``git diff`` compared with HEAD (HEAD
not moved since) changes the files that diff listed (the context's
``compared_with``); beside a listing that may leave files out, the switch
stays an unknown effect too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from artifact_index.ingestion.events import FileAction, FileOperation
from artifact_index.ingestion.git_quoting import unquote_git_path
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.expand import Arg
from artifact_index.shell.git_report import merge_reports, merged_in_place
from artifact_index.shell.invocation import (
    Invocation,
    Runtime,
    parse_options,
    patch_operations,
)
from artifact_index.shell.state import home_for, join

__all__ = [
    "BROUGHT_IN",
    "STARTER_FILE",
    "STASHED",
    "STASHED_WITH_UNTRACKED",
    "credited_to_sub_agent",
    "gh_effects",
    "git_effects",
    "settled_by_status",
    "skip_global_options",
]

# The details of the restore a `git stash` makes: the tracker keeps what such a
# restore put away, so that a later `git stash pop` can bring it back.
STASHED = "stashed"
STASHED_WITH_UNTRACKED = "stashed, untracked files included"

_GLOBAL_WITH_VALUE = frozenset(
    {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"}
)
_UNNAMEABLE = {
    "pull": "git pull merges remote changes into the working tree",
    "merge": "git merge changes files the tracker cannot name",
    "rebase": "git rebase rewrites files the tracker cannot name",
    "cherry-pick": "git cherry-pick applies a commit whose files the tracker cannot name",
    "revert": "git revert applies a commit's inverse, whose files the tracker cannot name",
    "am": "git am applies mailbox patches the tracker has not seen",
}

# What a switch does to a file an earlier diff listed, as a file operation.
_SWITCH_ACTIONS: dict[str, FileAction] = {"created": "create", "deleted": "delete"}

Mover = Callable[[Invocation, Runtime], list[FileOperation]]


def skip_global_options(values: Sequence[str | None], cwd: str | None) -> tuple[int, str | None]:
    """(where the subcommand is in ``values``, the directory git works in) after ``git -C dir ...``."""
    k = 0
    while k < len(values) and (option := values[k]) is not None and option.startswith("-"):
        k += 1
        name, eq, attached = option.partition("=")
        value: str | None = attached if eq else None
        if not eq and name in _GLOBAL_WITH_VALUE and k < len(values):
            value = values[k]
            k += 1
        if name in ("-C", "--work-tree") and value is not None:
            cwd = join(cwd, value)
    return k, cwd


def git_effects(inv: Invocation, runtime: Runtime, move: Mover) -> list[FileOperation]:
    """Effects of ``git ...``; ``move`` is the ``mv`` handler, reused for ``git mv``."""
    start, cwd = skip_global_options([a.value for a in inv.args[1:]], inv.cwd)
    args = list(inv.args[1 + start :])
    if not args or args[0].value is None:
        return []
    sub = args[0].value
    inv = replace(inv, args=tuple(args), cwd=cwd)
    rest = list(args[1:])
    if inv.failed:
        # A failed git command changed nothing, but a merge that stopped on a conflict wrote the
        # files both sides changed before it stopped.
        if sub in ("pull", "merge") and merged_in_place(runtime.output):
            return _merged(inv, runtime, sub)
        return []
    if sub in _UNNAMEABLE:
        if any(a.value in ("--abort", "--quit", "--skip") for a in rest):
            return (
                [inv.unknown(f"git {sub} --abort puts back files the tracker cannot name")]
                if sub != "pull"
                else []
            )
        if sub in ("pull", "merge"):
            return _merged(inv, runtime, sub)
        return [inv.unknown(_UNNAMEABLE[sub])]
    handler = _SUBCOMMANDS.get(sub)
    if handler is None:
        if sub == "mv":
            return move(replace(inv, args=(Arg("mv", "mv"), *rest)), runtime)
        return []
    return handler(inv, runtime, rest)


def gh_effects(inv: Invocation, runtime: Runtime) -> list[FileOperation]:
    """``gh pr merge``: the files its local fast-forward names ("Updating a..b", "Fast-forward").

    Merged, gh brings the default branch of the checkout up to date the way ``git pull``
    does and prints git's report; every other gh command changes no file here.
    """
    words = [a.value for a in inv.args[1:3]]
    if words != ["pr", "merge"] or merge_reports(runtime.output) is None:
        return []
    return _merged(inv, runtime, "pull", "gh pr merge")


def _merged(
    inv: Invocation, runtime: Runtime, sub: str, command: str | None = None
) -> list[FileOperation]:
    """``git merge`` / ``git pull``: the files its report names, else an unknown effect.

    ``command``: what brought them in, when not ``git <sub>`` (``gh pr merge``).
    """
    reports = merge_reports(runtime.output)
    root = _root(inv, runtime)
    detail = f"{BROUGHT_IN}{command or f'git {sub}'}"
    if reports is None:
        # Stopped on a conflict, it names only the files both sides changed, which it wrote.
        named_files = [join(root, p) for p in merged_in_place(runtime.output)]
        return [inv.unknown(_UNNAMEABLE[sub])] + [
            inv.op("edit", path, detail=detail) for path in named_files if path is not None
        ]
    ops: list[FileOperation] = []
    for report in reports:
        named: list[tuple[FileAction, str, str | None]] = [
            *(("create", p, None) for p in report.created),
            *(("edit", p, None) for p in report.modified),
            *(("delete", p, None) for p in report.deleted),
            *(("move", old, new) for old, new in report.renamed),
        ]
        for action, path, dest in named:
            placed = join(root, path)
            placed_dest = join(root, dest) if dest is not None else None
            if placed is None or (dest is not None and placed_dest is None):
                ops.append(inv.unknown(f"git {sub} changed {path}, which cannot be placed"))
                continue
            ops.append(inv.op(action, placed, dest=placed_dest, detail=detail))
        ops.extend(
            inv.unknown(f"git {sub} changed {p}, a path its report shortened")
            for p in report.unnamed
        )
    return ops


def _root(inv: Invocation, runtime: Runtime) -> str | None:
    """The working-tree root: the workspace when the cwd lies inside it, else the cwd."""
    workspace = runtime.files.workspace
    cwd = inv.cwd
    if workspace and cwd and (cwd == workspace or cwd.startswith(workspace.rstrip("/") + "/")):
        return workspace
    return cwd


def _restore_paths(
    inv: Invocation, runtime: Runtime, pathspecs: list[Arg], detail: str | None
) -> list[FileOperation]:
    files = runtime.files
    root = _root(inv, runtime)
    ops: list[FileOperation] = []
    for spec in pathspecs:
        path = inv.place(spec)
        if path is None or spec.glob:
            ops.append(inv.unplaced("git restores", spec))
            continue
        if (root is not None and path == root) or (not path or path == "."):
            ops.append(inv.op("restore", None, detail=detail or "the whole working tree"))
            if detail not in (STASHED, STASHED_WITH_UNTRACKED):
                ops.extend(_discarded(inv, runtime, "restoring the whole working tree"))
            continue
        under = files.files_under(path)
        if under and not files.known_file(path):
            ops.extend(inv.op("restore", p, detail=detail) for p in sorted(under))
        else:
            ops.append(inv.op("restore", path, detail=detail))
    return ops


def _looks_like_path(inv: Invocation, runtime: Runtime, arg: Arg) -> bool:
    """Whether ``git checkout X`` names a file rather than a branch, tag or commit."""
    value = arg.value
    if value is None:
        return False
    if (
        value in (".", "..")
        or value.startswith(("./", "../", "/"))
        or value.endswith("/")
        or arg.glob
    ):
        return True
    path = inv.place(arg)
    if path is not None and (runtime.files.known_file(path) or runtime.files.files_under(path)):
        return True
    base = value.rsplit("/", 1)[-1]
    stem, dot, ext = base.rpartition(".")
    # Branch and tag names rarely carry a file extension; versions (v1.2.3) carry digits.
    return bool(dot and stem and ext and ext.isalnum() and not ext.isdigit() and len(ext) <= 8)


def _checkout(inv: Invocation, runtime: Runtime, rest: list[Arg]) -> list[FileOperation]:
    parsed = parse_options(
        rest, short_values="bBU", long_values=("--orphan", "--conflict", "--pathspec-from-file")
    )
    if parsed.has("-p", "--patch"):
        return [inv.unknown("git checkout --patch restores hunks chosen interactively")]
    if parsed.has("-b", "-B", "--orphan"):
        return _new_branch(inv, runtime, "checkout", parsed.operands)
    conflict_side = parsed.has("--ours", "--theirs")
    raw = [a.value for a in rest]
    if "--" in raw:
        split = raw.index("--")
        before = [a for a in parse_options(rest[:split]).operands]
        pathspecs = list(rest[split + 1 :])
        source = before[0].value if before else None
    else:
        operands = parsed.operands
        if not operands:
            return []
        if _looks_like_path(inv, runtime, operands[0]):
            source, pathspecs = None, operands
        elif len(operands) >= 2:
            source, pathspecs = operands[0].value, operands[1:]
        else:
            name = operands[0].value or operands[0].raw
            return _switched(
                inv,
                runtime,
                operands[0].value,
                f"git checkout {name} switches the working tree to another branch or commit",
            )
    if conflict_side:
        side = "ours" if parsed.has("--ours") else "theirs"
        return [
            inv.op("edit", inv.place(p), detail=f"conflict resolved with --{side}")
            if inv.place(p)
            else inv.unplaced("git checkout changes", p)
            for p in pathspecs
        ]
    detail = f"to {source}" if source and source != "HEAD" else None
    return _restore_paths(inv, runtime, pathspecs, detail)


def _restore(inv: Invocation, runtime: Runtime, rest: list[Arg]) -> list[FileOperation]:
    parsed = parse_options(
        rest, short_values="s", long_values=("--source", "--pathspec-from-file", "--conflict")
    )
    if parsed.has("-p", "--patch"):
        return [inv.unknown("git restore --patch restores hunks chosen interactively")]
    staged = parsed.has("-S", "--staged")
    worktree = parsed.has("-W", "--worktree")
    if staged and not worktree:
        return []  # only the index changes
    source = parsed.value("-s", "--source")
    if parsed.has("--ours", "--theirs"):
        return [inv.op("edit", p) for p in (inv.place(a) for a in parsed.operands) if p]
    return _restore_paths(
        inv, runtime, parsed.operands, f"to {source}" if source and source != "HEAD" else None
    )


def _stash(inv: Invocation, runtime: Runtime, rest: list[Arg]) -> list[FileOperation]:
    action = (
        rest[0].value if rest and rest[0].value and not rest[0].value.startswith("-") else "push"
    )
    args = rest[1:] if rest and rest[0].value == action else rest
    if action in ("list", "show", "create", "store"):
        return []
    if action in ("pop", "apply", "drop"):
        refs = [a.value for a in args if a.value is None or not a.value.startswith("-")]
        if refs and refs != ["stash@{0}"]:
            return [
                inv.unknown(
                    f"git stash {action} of an older stash, whose changes the tracker cannot name"
                )
            ]
        # The tracker knows what the latest stash of this session put away; a
        # stash from before the session becomes unknown there.
        return [inv.op("unstash", None, detail=action)]
    if action == "clear":
        return [inv.op("unstash", None, detail="clear")]
    if action == "branch":
        return [inv.unknown("git stash branch checks out a branch with the stashed changes")]
    if action not in ("push", "save"):
        return []
    parsed = parse_options(
        args, short_values="m", long_values=("--message", "--pathspec-from-file")
    )
    untracked = parsed.has("-u", "--include-untracked", "-a", "--all")
    detail = STASHED_WITH_UNTRACKED if untracked else STASHED
    if parsed.has("-p", "--patch"):
        return [inv.unknown("git stash --patch stashes hunks chosen interactively")]
    if action == "push" and parsed.operands:
        return _restore_paths(inv, runtime, parsed.operands, detail)
    return [inv.op("restore", None, detail=detail)]


def _reset(inv: Invocation, runtime: Runtime, rest: list[Arg]) -> list[FileOperation]:
    parsed = parse_options(rest)
    if not parsed.has("--hard", "--merge", "--keep"):
        return []  # --soft / --mixed change the index and history only
    target = next((a.value for a in parsed.operands if a.value and a.value != "--"), None)
    if target is None or target in ("HEAD", "@"):
        return [
            inv.op("restore", None, detail="git reset --hard"),
            *_discarded(inv, runtime, "git reset --hard"),
        ]
    # Uncommitted changes are dropped, then the tree moves to the other revision.
    return [
        inv.op("restore", None, detail=f"git reset --hard {target}"),
        *_discarded(inv, runtime, f"git reset --hard {target}"),
        *_switched(
            inv,
            runtime,
            target,
            f"git reset --hard moves the working tree to {target}, whose differing files the"
            " tracker cannot name",
        ),
    ]


def _discarded(inv: Invocation, runtime: Runtime, shown: str) -> list[FileOperation]:
    """The changes a whole-tree reset throws away that the session did not make.

    A file the latest ``git status`` listed as changed and not committed,
    which no call of the session changed (the user's edit from before the
    session), holds something else after the reset: the reset changed it.
    The session's own changes are put back by the ``restore`` beside it.
    Only in the workspace's repository, whose status that is.
    """
    if _root(inv, runtime) != runtime.files.workspace:
        return []
    return [
        inv.op(
            "edit", path, detail=f"{shown} discards its uncommitted change, which git status listed"
        )
        for path in runtime.files.listed_uncommitted()
    ]


# git rm prints one line per file it removes, its path from the repository's root, quoted.
_RM_LINE = lazy_pattern(r"^rm '(?P<path>.+)'$", re.MULTILINE)
_GIT_WILDCARD = lazy_pattern(r"[*?\[]")


def _rm(inv: Invocation, runtime: Runtime, rest: list[Arg]) -> list[FileOperation]:
    """``git rm``: the files it names, else what the operands and the files seen under them say.

    A folder (``-r``) or a pathspec pattern removes files the session may never
    have touched; git's own ``rm 'path'`` lines name each one, so they are
    deleted by name.  Without those lines (``-q``, no output recorded) a folder
    deletes the files seen under it and a pattern is an effect not placed.
    """
    parsed = parse_options(rest, long_values=("--pathspec-from-file",))
    if parsed.has("--cached", "-n", "--dry-run"):
        return []
    recursive = parsed.has("-r")
    named = _removed_by_git(inv, runtime)
    ops: list[FileOperation] = []
    for arg in parsed.operands:
        path = inv.place(arg)
        # git matches a pathspec's wildcards itself, so a quoted pattern is one too.
        if path is None or arg.glob or _GIT_WILDCARD.search(arg.value or ""):
            if named:
                ops.extend(inv.op("delete", p, detail="git rm named it") for p in named)
                named = []  # named once, whichever pattern matched it
                continue
            ops.append(inv.unplaced("git rm removes", arg))
            continue
        under = set(runtime.files.files_under(path))
        if recursive:
            inside = [p for p in named if p.startswith(path.rstrip("/") + "/")]
            under.update(inside)
            named = [p for p in named if p not in under]
        if under and recursive:
            ops.extend(inv.op("delete", p) for p in sorted(under))
        elif not under:
            ops.append(inv.op("delete", path))
    return ops


def _removed_by_git(inv: Invocation, runtime: Runtime) -> list[str]:
    """The files git's ``rm 'path'`` lines name, placed from the working tree's root."""
    root = _root(inv, runtime)
    placed = (join(root, found.group("path")) for found in _RM_LINE.finditer(runtime.output or ""))
    return list(dict.fromkeys(p for p in placed if p is not None))


def _apply(inv: Invocation, runtime: Runtime, rest: list[Arg]) -> list[FileOperation]:
    parsed = parse_options(
        rest,
        short_values="pC",
        long_values=(
            "--directory",
            "--exclude",
            "--include",
            "--whitespace",
            "--build-fake-ancestor",
        ),
    )
    if parsed.has("--check", "--stat", "--numstat", "--summary", "--cached"):
        return []  # reports only, or the index only
    strip_value = parsed.value("-p")
    strip = int(strip_value) if strip_value and strip_value.isdigit() else 1
    root = _root(inv, runtime)
    directory = parsed.value("--directory")
    base = join(root, directory) if directory and root is not None else root
    reverse = parsed.has("-R", "--reverse")
    sources = [a for a in parsed.operands if a.value != "-"] or [Arg("-", "-")]
    ops: list[FileOperation] = []
    for source in sources:
        if source.value == "-":
            text, shown = inv.stdin, "a patch read from standard input"
        else:
            path = inv.place(source)
            text = runtime.files.content_of(path) if path else None
            shown = source.value or source.raw
        if text is None:
            ops.append(inv.unknown(f"git apply applies {shown}, whose text is not known"))
            continue
        ops.extend(patch_operations(inv, text, strip=strip, reverse=reverse, directory=base))
    return ops


def _switch(inv: Invocation, runtime: Runtime, rest: list[Arg]) -> list[FileOperation]:
    parsed = parse_options(
        rest, short_values="cC", long_values=("--create", "--force-create", "--orphan")
    )
    if parsed.has("-c", "-C", "--create", "--force-create", "--orphan"):
        return _new_branch(inv, runtime, "switch", parsed.operands)
    if not parsed.operands:
        return []
    name = parsed.operands[0].value or parsed.operands[0].raw
    return _switched(
        inv,
        runtime,
        parsed.operands[0].value,
        f"git switch {name} switches the working tree to another branch",
    )


def _new_branch(
    inv: Invocation, runtime: Runtime, sub: str, operands: list[Arg]
) -> list[FileOperation]:
    """A new branch: from the current state files stay; from another start point they change."""
    start = next((a for a in operands if a.value != "--"), None)
    if start is None or start.value == "HEAD":
        return []
    name = start.value or start.raw
    return _switched(
        inv,
        runtime,
        start.value,
        f"git {sub} moves the working tree to {name}, whose differing files the tracker cannot name",
    )


def _switched(
    inv: Invocation, runtime: Runtime, target: str | None, unnamed: str
) -> list[FileOperation]:
    """A switch of the working tree to ``target``: the files an earlier diff of HEAD against it listed.

    Without such a listing, or beside an incomplete one, the switch is an
    unknown effect (``unnamed`` says why).
    """
    if target and f"Already on '{target}'" in (runtime.output or ""):
        return []  # the branch checked out already: nothing moved
    compared = runtime.files.compared_with(target) if target else None
    if compared is None:
        return [inv.unknown(unnamed)]
    root = _root(inv, runtime)
    detail = f"switched to {target}"
    ops: list[FileOperation] = []
    for path, effect in compared.files:
        placed = join(root, path)
        if placed is None:
            ops.append(inv.unknown(f"switching to {target} changed {path}, which cannot be placed"))
            continue
        ops.append(inv.op(_SWITCH_ACTIONS.get(effect, "edit"), placed, detail=detail))
    if not compared.complete:
        ops.append(inv.unknown(f"{unnamed} beyond those an earlier diff listed"))
    return ops


# `git config` options that only read.
_CONFIG_READS = frozenset(
    {
        "--get",
        "--get-all",
        "--get-regexp",
        "--get-urlmatch",
        "--list",
        "-l",
        "--show-origin",
        "--show-scope",
        "--name-only",
        "-e",
        "--edit",
        "--get-color",
        "--get-colorbool",
    }
)
_CONFIG_WRITES = frozenset(
    {"--add", "--unset", "--unset-all", "--replace-all", "--rename-section", "--remove-section"}
)


def _config(inv: Invocation, runtime: Runtime, rest: list[Arg]) -> list[FileOperation]:
    """``git config --global NAME VALUE`` rewrites the user's ``~/.gitconfig``.

    The repository's own ``.git/config`` is git's state, not a project file;
    the user's file is placed only when the workspace shows the home directory.
    """
    parsed = parse_options(rest, long_values=("--file", "--type", "--default", "--comment"))
    if not parsed.has("--global") or parsed.has(*_CONFIG_READS):
        return []
    operands = [a.value for a in parsed.operands]
    verb = operands[0] if operands else None
    if verb in ("get", "list"):
        return []
    writes = (
        parsed.has(*_CONFIG_WRITES)
        or verb in ("set", "unset", "rename-section", "remove-section")
        or len(operands) >= 2
    )
    home = home_for(runtime.files.workspace, runtime.files.context)
    if not writes or home is None:
        return []
    return [inv.op("edit", join(home, ".gitconfig"), detail="git config --global")]


def _clean(inv: Invocation, runtime: Runtime, rest: list[Arg]) -> list[FileOperation]:
    parsed = parse_options(rest, short_values="e", long_values=("--exclude",))
    if parsed.has("-n", "--dry-run") or not parsed.has("-f", "--force"):
        return []
    return [inv.unknown("git clean removes untracked files")]


# What `git status` prints about a file that is new to the repository: the
# long form's untracked section and `new file:` lines, `??` / `A ` of the
# short form and of --porcelain.
_LONG_NEW = lazy_pattern(r"^\t(?:new file:\s+)?(?P<path>[^\t:][^\t]*)$")
_SHORT_NEW = lazy_pattern(r"^(?:\?\?|A[ MD]) (?P<path>.+)$")
_UNTRACKED_HEADER = "Untracked files:"


def _new_in_status(output: str) -> list[str]:
    """The files a `git status` output shows as new (untracked or added), as printed."""
    found: list[str] = []
    untracked = False
    for line in output.splitlines():
        if not line.startswith("\t"):
            untracked = line.startswith(_UNTRACKED_HEADER) or (
                untracked and line.lstrip().startswith("(")
            )
            if (short := _SHORT_NEW.match(line)) is not None:
                found.append(short.group("path"))
            continue
        match = _LONG_NEW.match(line)
        if match is not None and (untracked or line.startswith("\tnew file:")):
            found.append(match.group("path").strip())
    return [unquote_git_path(p) for p in found if not p.endswith("/") and " -> " not in p]


# The long form's changed tracked files (`\tmodified:   a.go`) and the short form's (` M a.go`).
_LONG_CHANGED = lazy_pattern(r"^\t(?P<state>modified|deleted):\s+(?P<path>[^\t]+)$")
_SHORT_CHANGED = lazy_pattern(r"^(?:[ M][MD]|[MD] ) (?P<path>.+)$")


def _changed_in_status(output: str) -> list[tuple[str, FileAction]]:
    """The tracked files a `git status` output shows changed (modified or deleted), as printed."""
    found: list[tuple[str, FileAction]] = []
    for line in output.splitlines():
        long = _LONG_CHANGED.match(line)
        if long is not None:
            action: FileAction = "delete" if long.group("state") == "deleted" else "edit"
            found.append((long.group("path").strip(), action))
            continue
        short = _SHORT_CHANGED.match(line)
        if short is not None and " -> " not in short.group("path"):
            found.append((short.group("path"), "delete" if "D" in line[:2] else "edit"))
    return [(unquote_git_path(p), a) for p, a in found]


def _status(inv: Invocation, runtime: Runtime, rest: list[Arg]) -> list[FileOperation]:
    """``git status``: the changes it lists that no call named, where the session's own command made them.

    * A tree ``cp -r`` made holds files no command named; the new files the
      status lists there are the copy's, and so are the new files it lists,
      unknown till then, in a folder a starter was scaffolded into (``npx
      create-next-app .``).  Elsewhere a new file may predate the
      session (even in a directory ``mkdir -p`` named: it may have been
      there), and the status proves nothing about who made it.
    * A file a command of the session said it may change (``pnpm install``
      and its lock file, ``cargo build`` after the manifest changed), which
      no status listed before that command ran: listed now, the command
      changed it.
    """
    output = runtime.output
    if not output:
        return []
    files = runtime.files
    porcelain = any((a.value or "").startswith("--porcelain") for a in rest)
    base = _root(inv, runtime) if porcelain else inv.cwd
    ops: list[FileOperation] = []
    for path in _new_in_status(output):
        placed = join(base, path)
        if placed is None:
            continue
        if files.in_scaffolded_tree(placed):
            # Even one the session has written since: the starter made it first.
            ops.append(inv.op("create", placed, detail=STARTER_FILE))
        elif files.known_file(placed):
            continue
        elif files.in_copied_tree(placed):
            ops.append(
                inv.op("create", placed, detail="listed by git status in a tree the session copied")
            )
        elif (command := files.possibly_changed(placed)) is not None:
            ops.append(inv.op("create", placed, detail=_settled("new", command)))
        elif (agent := files.changed_by_sub_agent(placed)) is not None:
            ops.append(
                inv.op("create", placed, detail=f"listed new by git status{AFTER_SUB_AGENT}{agent}")
            )
    for path, action in _changed_in_status(output):
        placed = join(base, path)
        if placed is None:
            continue
        shown = "deleted" if action == "delete" else "modified"
        if (command := files.possibly_changed(placed)) is not None:
            ops.append(inv.op(action, placed, detail=_settled(shown, command)))
        elif action == "edit" and files.put_back(placed):
            # Put back as it was, yet listed modified now: something the trail does not follow
            # (a generator, a build) changed it again since.
            ops.append(inv.op("edit", placed, detail=LISTED_AFTER_PUT_BACK))
        elif action == "delete" and files.changed_here(placed) and files.exists(placed) is True:
            # A file the session changed, listed deleted: removed since by something the calls
            # seen do not show (the person, another process). The status is the tree's truth.
            ops.append(inv.op("delete", placed, detail=LISTED_DELETED))
        elif (
            not files.changed_here(placed)
            and (agent := files.changed_by_sub_agent(placed)) is not None
        ):
            ops.append(
                inv.op(
                    action, placed, detail=f"listed {shown} by git status{AFTER_SUB_AGENT}{agent}"
                )
            )
    return ops


LISTED_DELETED = "listed deleted by git status: removed by something the calls seen do not show"
LISTED_AFTER_PUT_BACK = (
    "listed modified by git status after the session put it back: changed since by a command "
    "the trail does not follow"
)
# Between what git showed and the sub-agent run it shows the work of (see ``credited_to_sub_agent``).
AFTER_SUB_AGENT = " after the sub-agent "


def credited_to_sub_agent(detail: str | None) -> bool:
    """Whether an operation's ``detail`` says git showed a change an unseen sub-agent run made."""
    return detail is not None and AFTER_SUB_AGENT in detail


# `git commit`'s first line (`[main 1a2b3c4] message`, `[main (root-commit) 1a2b3c4] ...`) and the
# line of its summary that says a file is new to the repository.
_COMMITTED = lazy_pattern(r"^\[[^\]\n]*\b[0-9a-f]{7,40}\] ")
_CREATE_MODE = lazy_pattern(r"^ create mode \d+ (?P<path>.+?)\s*$")


def _commit(inv: Invocation, runtime: Runtime, rest: list[Arg]) -> list[FileOperation]:
    """``git commit``: the new files its summary lists that a sub-agent, whose calls are not seen, was to make.

    A commit changes no file, but its ``create mode`` lines show files new to the
    repository: one that no call seen wrote, which a sub-agent run of the session was
    asked to make (or said it made), is that run's work, made in the session.
    """
    output = runtime.output
    if inv.failed or not output or " create mode " not in output:
        return []
    files = runtime.files
    root = _root(inv, runtime)
    ops: list[FileOperation] = []
    committing = False
    for line in output.splitlines():
        if _COMMITTED.match(line):
            committing = True
            continue
        new = _CREATE_MODE.match(line) if committing else None
        placed = join(root, unquote_git_path(new.group("path"))) if new else None
        if placed is None or files.known_file(placed) or files.changed_here(placed):
            continue
        if (agent := files.changed_by_sub_agent(placed)) is not None:
            ops.append(
                inv.op(
                    "create",
                    placed,
                    detail=f"committed as new by git commit{AFTER_SUB_AGENT}{agent}",
                )
            )
    return ops


# The detail of a file a `git status` lists new in a folder a starter was scaffolded into.
STARTER_FILE = "listed new by git status in a folder the session scaffolded a starter into"

# The detail of a change a `git merge` / `git pull` report names: the merged commits' content.
BROUGHT_IN = "brought in by "

_SETTLED_SUFFIX = "`, which may change it"


def _settled(state: str, command: str) -> str:
    shown = " ".join(command.split())
    shown = shown if len(shown) <= 80 else shown[:77] + "..."
    return f"listed {state} by git status after `{shown}{_SETTLED_SUFFIX}"


def settled_by_status(detail: str | None) -> bool:
    """Whether an operation's ``detail`` says a ``git status`` credited the change to an earlier command."""
    return detail is not None and detail.startswith("listed ") and detail.endswith(_SETTLED_SUFFIX)


def _worktree(inv: Invocation, runtime: Runtime, rest: list[Arg]) -> list[FileOperation]:
    """``git worktree add <path>`` checks a revision out there; ``git worktree remove <path>`` removes it.

    ``add`` writes no file the session works on by name, but the files it checks out
    were in the repository before the session: the folder is kept as a checkout (see
    :attr:`~artifact_index.shell.state.Files.checked_out`), so a file first seen there is
    not taken for one the session made.  ``remove`` deletes every file seen under the
    worktree; a failed ``remove`` (changes left in the worktree) removes nothing.
    """
    if not rest or inv.failed:
        return []
    if rest[0].value == "add":
        _checked_out(inv, runtime, rest[1:])
        return []
    if rest[0].value != "remove":
        return []
    parsed = parse_options(rest[1:])
    ops: list[FileOperation] = []
    for arg in parsed.operands:
        path = inv.place(arg)
        if path is None or arg.glob:
            ops.append(inv.unplaced("git worktree remove removes", arg))
            continue
        ops.extend(
            inv.op("delete", p, detail="git worktree remove")
            for p in sorted(runtime.files.files_under(path))
        )
    return ops


# `git worktree add`'s options that take a value (the branch to make, the lock's reason).
_WORKTREE_ADD_VALUES = "bB"
_WORKTREE_ADD_LONG_VALUES = ("--reason",)
# Options after which the new worktree holds no checked-out file.
_EMPTY_WORKTREE = frozenset({"--no-checkout", "--orphan"})


def _checked_out(inv: Invocation, runtime: Runtime, args: list[Arg]) -> None:
    """Keep the folder ``git worktree add [options] <path> [<revision>]`` checked a revision out into."""
    parsed = parse_options(
        args, short_values=_WORKTREE_ADD_VALUES, long_values=_WORKTREE_ADD_LONG_VALUES
    )
    if any(name in _EMPTY_WORKTREE for name, _ in parsed.options) or not parsed.operands:
        return
    target = parsed.operands[0]
    path = inv.place(target) if not target.glob else None
    if path is not None:
        runtime.files.checked_out.append(path.rstrip("/") or "/")


_SUBCOMMANDS: dict[str, Callable[[Invocation, Runtime, list[Arg]], list[FileOperation]]] = {
    "status": _status,
    "commit": _commit,
    "checkout": _checkout,
    "restore": _restore,
    "stash": _stash,
    "reset": _reset,
    "rm": _rm,
    "apply": _apply,
    "switch": _switch,
    "clean": _clean,
    "config": _config,
    "worktree": _worktree,
}
