"""Code generators and builders: the files they create, as their reports name them.

``mix ash.codegen add_users`` writes migrations and resource snapshots,
``mix phx.gen.context`` and ``rails generate model`` write modules and
tests, ``alembic revision`` a migration: none of them is named on the
command line, and each is printed by the generator (``* creating
priv/repo/migrations/20260501_add_users.exs``, ``      create  app/models/user.rb``,
``Generating /srv/app/alembic/versions/3f2a_add_users.py ...  done``, ``wrangler
types``' ``Types written to worker-configuration.d.ts``, ``vercel env pull``'s ``Created
.env.local file``).
Named files become ``create`` (or ``edit`` for ``* injecting`` / ``insert``)
operations; a generator whose report names nothing, or whose output was
not recorded, is an ``unknown`` effect, unless it says it found nothing to
generate.

A starter scaffolded into a folder (``npm create vite app``, ``npx
create-next-app .``) writes files it does not name: the folder is remembered
as scaffolded, so a file first seen there later that a ``git status`` shows
new to git is the starter's, created by the session.  ``shadcn add`` names
the files it writes (``Created 2 files:`` then ``  - src/lib/utils.ts``).

``sphinx-build SOURCE OUTPUT`` creates its output directory: it is
remembered as made by the session, so what is later read in it is never
taken for a file that existed before the session.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from artifact_index.ingestion.events import FileAction, FileOperation
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.invocation import Invocation, Runtime, parse_options

__all__ = ["GENERATOR_PROGRAMS", "generator_effects", "is_generator"]


@dataclass(frozen=True)
class _Generator:
    report: re.Pattern[str]  # group "verb", group "path"
    nothing: re.Pattern[str] | None = None  # a report that nothing was generated


# Mix.Generator prints "* creating PATH" (and "* injecting", "* updating").
_MIX = _Generator(
    lazy_pattern(
        r"^\s*\* (?P<verb>creating|injecting|updating|modifying) (?P<path>\S+)", re.MULTILINE
    ),
    lazy_pattern(
        r"No changes detected|No snapshots to generate|nothing to generate", re.IGNORECASE
    ),
)
_RAILS = _Generator(
    lazy_pattern(
        r"^\s+(?P<verb>create|force|insert|inject|append|prepend|gsub|remove)\s+(?P<path>\S+)\s*$",
        re.MULTILINE,
    )
)
_ALEMBIC = _Generator(lazy_pattern(r"^\s*(?P<verb>Generating) (?P<path>\S+?\.py)\b", re.MULTILINE))
# `wrangler types` writes the Worker's type declarations and says where ("✨ Types written to
# worker-configuration.d.ts"); the file may be there already, from an earlier run.
_WRANGLER_TYPES = _Generator(
    lazy_pattern(r"\b(?P<verb>Types written) to (?P<path>\S+?\.ts)\s*$", re.MULTILINE)
)

# `vercel env pull [FILE]` downloads the project's environment into FILE (.env.local by default)
# and says which it wrote: "Created .env.check file", or "Updated ..." when it was there.
_VERCEL_ENV_PULL = _Generator(
    lazy_pattern(r"^\s*(?P<verb>Created|Updated|Overwrote) (?P<path>\S+) file\b", re.MULTILINE)
)

# mix tasks that generate files, by prefix.
_MIX_GENERATORS = (
    "ash.codegen",
    "ash.gen.",
    "ash_postgres.generate_migrations",
    "ash_sqlite.generate_migrations",
    "ecto.gen.",
    "phx.gen.",
    "phx.new",
    "igniter.",
    "ash.patch.",
)
_MIX_BUILD_PRIV = lazy_pattern(r"^_build/[^/]+/lib/[^/]+/priv/")
_EDITING_VERBS = frozenset(
    {"injecting", "updating", "modifying", "insert", "inject", "append", "prepend", "gsub", "force"}
)
_WRITING_VERBS = frozenset(
    {"Types written", "Updated", "Overwrote"}
)  # a whole file written, whether it was there or not

GENERATOR_PROGRAMS = frozenset({"mix", "rails", "alembic", "sphinx-build", "wrangler", "vercel"})
"""Programs :func:`generator_effects` knows."""


def is_generator(program: str) -> bool:
    """Whether a program a package runner fetched (``create-next-app@latest``, ``shadcn``) is a generator."""
    name = _package(program)
    return name.startswith("create-") or name in _SHADCN


def _package(program: str) -> str:
    """``create-next-app@latest`` -> ``create-next-app``: the version a package runner was asked for."""
    return program.partition("@")[0] if not program.startswith("@") else program


def generator_effects(inv: Invocation, runtime: Runtime) -> list[FileOperation] | None:
    """The files a generator command creates; None when ``inv`` generates nothing."""
    name = _package(inv.program or "")
    words = [a.value for a in inv.args[1:]]
    task = next((w for w in words if w and not w.startswith("-")), None)
    if name == "sphinx-build":
        return _sphinx(inv, runtime)
    if name in _SCAFFOLDERS and task == "create":
        return _scaffold(inv, runtime, words[words.index("create") + 1 :], f"{name} create")
    if name.startswith("create-"):
        return _scaffold(inv, runtime, words, name)
    if name in _SHADCN and task in ("add", "init"):
        return _shadcn(inv, runtime, f"{name} {task}")
    if name == "mix" and task and task.startswith(_MIX_GENERATORS):
        return _generated(inv, runtime, f"mix {task}", _MIX)
    if name == "rails" and task in ("generate", "g", "destroy", "d"):
        return _generated(inv, runtime, f"rails {task}", _RAILS)
    if name == "alembic" and task == "revision":
        return _generated(inv, runtime, "alembic revision", _ALEMBIC)
    if name == "wrangler" and task == "types":
        return _generated(inv, runtime, "wrangler types", _WRANGLER_TYPES)
    if name == "vercel" and words[:2] == ["env", "pull"]:
        return _generated(inv, runtime, "vercel env pull", _VERCEL_ENV_PULL)
    return None


def _generated(
    inv: Invocation, runtime: Runtime, label: str, generator: _Generator
) -> list[FileOperation]:
    output = runtime.output or ""
    ops: list[FileOperation] = []
    for match in generator.report.finditer(output):
        # In development Mix links _build/ENV/lib/APP/priv to the project's priv,
        # and some data layers (ash_sqlite) report the linked path.
        path = inv.place(_MIX_BUILD_PRIV.sub("priv/", match.group("path").rstrip("/")))
        if path is None or match.group("path").endswith("/"):
            continue  # a directory it made
        verb = match.group("verb")
        action: FileAction = (
            "delete"
            if verb == "remove"
            else "edit"
            if verb in _EDITING_VERBS
            else "write"
            if verb in _WRITING_VERBS
            else "create"
        )
        ops.append(inv.op(action, path, detail=f"{label}: {verb} {match.group('path')}"))
    if ops or inv.failed:
        return ops
    if generator.nothing is not None and generator.nothing.search(output):
        return []
    why = "its output was not recorded" if not output else "its output names none of them"
    return [inv.unknown(f"{label} generates files; which ones is not known ({why})")]


# `npm create vite@latest app -- --template react` (and pnpm's, yarn's, bun's): a starter's files in a folder.
_SCAFFOLDERS = frozenset({"npm", "pnpm", "yarn", "bun"})


def _scaffold(
    inv: Invocation, runtime: Runtime, words: list[str | None], label: str
) -> list[FileOperation]:
    """A starter scaffolded into a folder (``words``: the starter's arguments, without ``create``).

    A new folder is the session's, so no file in it predates it; one that
    was there (``.``) may hold older files, so only a later listing that
    shows a file new to git tells the starter's.  Which files it writes is
    not known (its report lists none reliably): an unknown effect.
    """
    before = words[: words.index("--")] if "--" in words else words
    operands = [w for w in before if w and not w.startswith("-")]
    if label.endswith(" create"):
        # `npm create vite app`: the starter, then the folder.
        label = f"{label} {operands[0] if operands else 'a starter'}"
        operands = operands[1:]
    if inv.failed:
        return []
    # With no folder named the starter asks for one: where it went is not known.
    folder = inv.place(operands[0]) if operands else None
    if folder is not None:
        folder = folder.rstrip("/") or "/"
        if runtime.files.exists(folder) is not True and operands[0] not in (".", "./"):
            runtime.files.made_directory(folder)
        runtime.files.scaffolded.append(folder)
    return [inv.unknown(f"{label} writes a starter project; its files are not named")]


# The shadcn CLI (`npx shadcn@latest add button`) lists what it wrote:
# "✔ Created 2 files:" / "Updated 1 file:" then one "  - PATH" line each.
_SHADCN = frozenset({"shadcn", "shadcn-ui"})
_SHADCN_REPORT = lazy_pattern(
    r"^\W*(?P<verb>Created|Updated|Overwrote|Skipped) \d+ files?:?\s*$", re.MULTILINE
)
_SHADCN_ITEM = lazy_pattern(r"^\s+- (?P<path>\S.*?)\s*$")


def _shadcn(inv: Invocation, runtime: Runtime, label: str) -> list[FileOperation]:
    output = runtime.output or ""
    ops: list[FileOperation] = []
    for report in _SHADCN_REPORT.finditer(output):
        verb = report.group("verb")
        for line in output[report.end() :].lstrip("\n").splitlines():
            item = _SHADCN_ITEM.match(line)
            if item is None:
                break
            path = inv.place(item.group("path"))
            if path is None or verb == "Skipped":
                continue  # a skipped file was there and is left as it was
            action: FileAction = "create" if verb == "Created" else "write"
            ops.append(inv.op(action, path, detail=f"{label}: {verb} {item.group('path')}"))
    if ops or inv.failed:
        return ops
    why = "its output was not recorded" if not output else "its output names none of them"
    return [inv.unknown(f"{label} writes component files; which ones is not known ({why})")]


def _sphinx(inv: Invocation, runtime: Runtime) -> list[FileOperation]:
    parsed = parse_options(
        inv.args[1:],
        short_values="bdcDAjtwM",
        long_values=(
            "--builder",
            "--doctree-dir",
            "--conf-dir",
            "--define",
            "--html-define",
            "--tag",
            "--jobs",
            "--warning-file",
        ),
    )
    operands = [a for a in parsed.operands if a.value is not None]
    if len(operands) >= 2 and not inv.failed:
        output = inv.place(operands[1])
        if output is not None and runtime.files.exists(output) is not True:
            runtime.files.made_directory(output.rstrip("/") or "/")
    return []
