"""The file sections: every changed file by its exact path with what the change did, read files condensed.

A changed file (created, modified, deleted, reverted) is always named by its
full path, because that is what the agent opens next; beside it, what the
change did, in the words it wrote (see :mod:`artifact_index.facts.changes`):
the definitions it added, changed or removed, the signature and doc line of
the ones it added, the tests it added, the headings or first lines of a file
without definitions.  Detail goes first to the files of the current thread
(see :mod:`summarizer.sections.thread`); what shrinks with the detail level
is what is said of the others.  Read files are evidence of what the agent
looked at: the most recently read few are named, the rest counted by
directory.  Symbols a read merely showed are never listed: they cost the
most and tell the least.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from artifact_index.facts.changes import symbol_key
from artifact_index.ingestion.events import UNNAMED_READ
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.answers import FileReport, LeftBehind, SubAgentNote
from artifact_index.trail.conversation.told import ChangeAccount
from artifact_index.trail.index import SymbolEntry
from artifact_index.trail.paths import is_absolute
from artifact_index.trail.script_reach import MAY_HAVE_CHANGED_IT
from summarizer.sections.background import reported_paths_line
from summarizer.sections.checkouts import Checkouts
from summarizer.sections.claim_wording import file_story, pending_calls
from summarizer.sections.progress import shown_command
from summarizer.sections.summary_facts import LatestCode, SessionFacts
from summarizer.sections.text import block, code_span
from summarizer.sections.thread import thread_start

__all__ = [
    "brought_in_count",
    "brought_in_lines",
    "changed_files",
    "changed_paths",
    "created_then_moved",
    "files_of_status",
    "latest_files",
    "left_behind_lines",
    "moved_files",
    "read_files",
]

_READ_NAMED_AT = {0: 12, 1: 8, 2: 5, 3: 3}
_READ_IN_THREAD_AT = {0: 20, 1: 12, 2: 6, 3: 3}  # the current thread's reads, named one by one
_READ_GROUPED_AT = {
    0: 40,
    1: 24,
    2: 12,
    3: 8,
}  # the others named by folder up to this many, else counted
_OUTSIDE_NAMED = 3  # files read outside the workspace named by path; the others counted
_CURRENT_FILES = 6  # a thread that changed more is most of the session: its latest files lead
_LATEST_FILES = (
    2  # the files of the latest changes: what they do is said, not only how big they are
)


# The key code of the latest change, for the latest files of the current thread: (files, lines each).
_CODE_AT = {0: (2, 10), 1: (2, 8), 2: (1, 6), 3: (1, 4)}
_LANGUAGES = {
    "py": "python",
    "ts": "typescript",
    "tsx": "tsx",
    "js": "javascript",
    "jsx": "jsx",
    "go": "go",
    "rs": "rust",
    "rb": "ruby",
    "ex": "elixir",
    "exs": "elixir",
    "java": "java",
    "kt": "kotlin",
    "swift": "swift",
    "c": "c",
    "h": "c",
    "cc": "cpp",
    "cpp": "cpp",
    "cs": "csharp",
    "php": "php",
    "sh": "bash",
    "sql": "sql",
    "md": "markdown",
    "json": "json",
    "toml": "toml",
    "yaml": "yaml",
    "yml": "yaml",
    "css": "css",
    "html": "html",
    "vue": "vue",
}


@dataclass(frozen=True)
class _Quota:
    """How much is said of one file at one detail level."""

    names: int  # definitions named
    signatures: int  # added definitions shown by their signature
    docs: bool  # with the first sentence of their doc
    tests: int  # tests named
    lines: int  # first lines (or headings) of a file without definitions


# Files the current thread changed, then the others, at detail levels 0..3.
_IN_THREAD = {
    0: _Quota(14, 4, True, 10, 6),
    1: _Quota(10, 3, True, 8, 4),
    2: _Quota(8, 2, True, 6, 3),
    3: _Quota(6, 1, False, 4, 2),
}
_EARLIER = {
    0: _Quota(10, 2, True, 6, 4),
    1: _Quota(6, 1, False, 4, 2),
    2: _Quota(4, 0, False, 2, 1),
    3: _Quota(0, 0, False, 0, 0),
}


def _named(names: list[str], limit: int) -> str:
    shown = ", ".join(names[:limit])
    more = len(names) - limit
    return shown + (f" and {more} more" if more > 0 else "")


def _turns(turns: list[int]) -> str:
    if len(turns) == 1:
        return f"turn {turns[0]}"
    if len(turns) <= 4:
        return "turns " + ", ".join(map(str, turns))
    return f"turns {turns[0]}–{turns[-1]} ({len(turns)} turns)"


def _status(f: FileReport, new_then_moved: set[str]) -> str:
    """The status words of a changed file; a moved file's say where from, and whether it is new."""
    if f.renamed_from is None:
        return {"reverted": "reverted: changed, then back to its original state"}.get(
            f.status, f.status
        )
    if f.path in new_then_moved:
        return f"created, then moved here from `{f.renamed_from}`"
    return f"moved here from `{f.renamed_from}`" + (
        "" if f.status == "created" else f", {f.status}"
    )


@dataclass
class _Describer:
    """Says what each change did, at one detail level, the files of the current work first in line for it."""

    detail: int
    since: int  # the turn the current thread started
    current: set[str] | None = None  # the files of the current work; None: every file
    latest: set[str] | None = (
        None  # the files of the latest changes, said by what they do; None: every file
    )
    docs_said: set[str] = field(
        default_factory=set
    )  # an interface and its implementation share one doc
    signatures_said: set[str] = field(default_factory=set)  # ... and one signature
    # What the agent said each change did, by path (see artifact_index.trail.conversation.change_accounts).
    accounts: dict[str, ChangeAccount] = field(default_factory=dict)
    # What each change does and why, by path, when an LLM wrote it: said first, in place of the agent's account.
    notes: dict[str, str] = field(default_factory=dict)

    def line(self, f: FileReport, *, status: str | None = None, moved_to: str | None = None) -> str:
        if transcript_redacted(f.path):
            # Several files hidden under one placeholder: their changes, counts and headings mixed up.
            return (
                f"- `{f.path}`"
                + (f" ({status})" if status else "")
                + ": the transcript itself redacted part of this path, so several files may share it;"
                " whether each was created or changed, and what changed in each, is not known"
                + (f"; {_turns(f.changed_turns)}" if f.changed_turns and self.detail == 0 else "")
            )
        if moved_to is not None and f.status in ("deleted", "reverted"):
            # Its content lives on at the new path: a move, not a deletion or an undone change.
            return f"- `{f.path}` (moved to `{moved_to}`)"
        story = file_story(f)
        if story is not None:
            note = self.notes.get(f.path)
            return f"- `{f.path}`: " + (f"{note.rstrip('.')}; " if note else "") + story
        last = max(f.changed_turns, default=0)
        if (
            f.changed_unseen_turn is not None
            and f.changed_unseen_turn > last
            and f.status
            in (
                "created",
                "modified",
            )
        ):
            # Its change, as the session made it, is no longer what it holds: its lines and
            # counts would be stated as current.  What was seen is said instead.
            return (
                f"- `{f.path}`"
                + (f" ({status})" if status else "")
                + f": changed by the session (turn {last}), then its read at turn "
                f"{f.changed_unseen_turn} showed other content than that change left (changed since "
                "by something the calls seen do not show, or the trail's copy of it was off), so "
                "its changed lines are not told"
            )
        quota = (_IN_THREAD if self.current is None or f.path in self.current else _EARLIER)[
            self.detail
        ]
        # Without status words (a section of one status), a move is said here.
        parts = [f"moved here from `{f.renamed_from}`"] if f.renamed_from and status is None else []
        parts += self._definitions(f, quota)
        if f.tests_added:
            tests = [f"`{t}`" for t in _newest_tests_first(f)]
            parts.append(
                f"tests added: {_named(tests, quota.tests)}"
                if quota.tests
                else f"{len(tests)} test(s) added"
            )
        if f.first_lines and quota.lines:
            parts.append(
                ("headings: " if f.headings else "first lines: ")
                + _named([code_span(line) for line in f.first_lines], quota.lines)
            )
        note = self.notes.get(f.path)
        substance = (
            self._substance(f)
            if note is None and (self.latest is None or f.path in self.latest)
            else []
        )
        parts = ([note.rstrip(".")] if note else []) + parts + substance
        if f.lines_added is not None and self.detail <= 1 and not substance:
            parts.append(f"+{f.lines_added}/-{f.lines_removed} lines")
        if f.shell_command and (self.detail == 0 or f.certainty == "inferred"):
            # A status worked out from a shell command's words is said with the command it rests on.
            command = " ".join(f.shell_command.split())
            room = 80 if self.detail == 0 else 50
            parts.append(f"via `{command[:room]}{'…' if len(command) > room else ''}`")
            if f.shell_command_may_be_unchanged:
                parts.append("a formatter's run on it, which may have left it as it was")
        if f.certainty == "unrecorded":
            parts.append("a later call on it has no result recorded, so its state now is unknown")
        if f.maybe_changed_by is not None and f.status == "modified":
            # First seen after a script that writes at computed paths: it may be the script's file.
            effect = f.maybe_changed_by
            parts.append(
                f"first seen after `{shown_command(effect.command or effect.tool)}` (turn "
                f"{effect.turn}), which writes files at paths computed at run time and may have "
                "created it: whether it was there before the session is not known"
            )
        if f.sub_agent_named is not None:
            parts.append(_sub_agent_part(f))
        if f.changed_turns and self.detail == 0:
            parts.append(_turns(f.changed_turns))
        return (
            f"- `{f.path}`"
            + (f" ({status})" if status else "")
            + (f": {'; '.join(parts)}" if parts else "")
        )

    def _substance(self, f: FileReport) -> list[str]:
        """What the change does, for a file of the current work: the agent's account of it, else its telling lines."""
        account = self.accounts.get(f.path)
        if account is not None:
            return [f'the agent (turn {account.turn}): "{account.text}"']
        # The lines of the definitions the current thread changed (all of them when it changed none by name).
        recent = {symbol_key(s) for s in f.symbols if any(t >= self.since for t in s.turns)}
        lines = list(
            dict.fromkeys(
                text
                for key, found in f.changed_code.items()
                if key in recent or not recent or key == ""
                for text in found
            )
        )
        if lines:
            return ["changed lines: " + "; ".join(lines[: {0: 2, 1: 2, 2: 1, 3: 1}[self.detail]])]
        return []

    def _definitions(self, f: FileReport, quota: _Quota) -> list[str]:
        """What the change did to the file's definitions, grouped by change.

        When the file changed before the current thread too, the definitions the thread changed come first,
        on their own: that is the work in progress.
        """
        tests = set(f.tests_added)
        symbols = [s for s in f.symbols if symbol_key(s) not in tests and s.name not in tests]
        if any(s.kind != "module" for s in symbols):
            # `defmodule Spotter.Cart` beside its functions says only what the path does.
            symbols = [s for s in symbols if s.kind != "module"]
        if not symbols or quota.names == 0:
            return []  # "4 added definition(s)" tells the reader nothing it can use
        # The latest changed first (file order among equals): the thread's work leads.
        ordered = sorted(symbols, key=lambda s: -max(s.turns, default=0))
        recent = [s for s in ordered if any(t >= self.since for t in s.turns)]
        signatures = [quota.signatures]
        parts = []
        limit = quota.names
        if (
            recent
            and len(recent) <= len(symbols) // 2
            and any(t < self.since for t in f.changed_turns)
        ):
            parts.append(
                f"since turn {self.since}, changed "
                + ", ".join(self._definition(f, s, quota, signatures) for s in recent[:limit])
            )
            ordered = [s for s in ordered if s not in recent]
            limit = max(limit - len(recent), 0)
        groups: dict[str, list[str]] = {}
        for s in ordered[:limit]:
            change = "defines" if f.status == "created" else s.change
            groups.setdefault(change, []).append(self._definition(f, s, quota, signatures))
        parts += [
            f"{change} {', '.join(names)}"
            if change == "defines"
            else f"{', '.join(names)} {change}"
            for change, names in groups.items()
        ]
        if len(ordered) > limit:
            more = f"{len(ordered) - limit} more definition(s)"
            parts.append(f"and {more}" if parts else more)
        return parts

    def _definition(
        self, f: FileReport, s: SymbolEntry, quota: _Quota, signatures: list[int]
    ) -> str:
        """A definition by its signature as written (and its doc line) while the quota lasts, else by its name."""
        key = symbol_key(s)
        signature = f.signatures.get(key)
        if signature is None or signatures[0] <= 0:
            return f"`{key}`"
        # `func (s *GitStore) Read(ctx, id) (*Content, error)` after `Store.Read(ctx, id) (*Content, error)`: the
        # implementation of a method already shown needs only its name.
        at = signature.find(s.name + "(")
        shape = signature[at + len(s.name) :] if at >= 0 else None
        if shape is not None and f"{s.name}{shape}" in self.signatures_said:
            return f"`{key}`"
        if shape is not None:
            self.signatures_said.add(f"{s.name}{shape}")
        signatures[0] -= 1
        if s.container and signature.startswith(s.name + "("):
            signature = (
                key + signature[len(s.name) :]
            )  # `mounted()` says little; `TranscriptHighlighter.mounted()`
        doc = f.docs.get(key) if quota.docs else None
        if doc is None or doc in self.docs_said:
            return f"`{signature}`"
        self.docs_said.add(doc)
        # Go's convention opens the doc with the name the signature already shows.
        return f"`{signature}` ({doc.removeprefix(s.name + ' ').strip()})"


def _newest_tests_first(f: FileReport) -> list[str]:
    """The tests a file gained, the latest written first: the ones the work in hand added are named, the older
    ones counted when the quota runs out (file order among tests written at the same turn)."""
    written = {key: max(s.turns, default=0) for s in f.symbols for key in (symbol_key(s), s.name)}
    order = {name: number for number, name in enumerate(f.tests_added)}
    return sorted(f.tests_added, key=lambda name: (-written.get(name, 0), order[name]))


def _code_lines(f: FileReport, code: LatestCode, lines: int) -> str:
    """The key code of a file's latest change, as a fenced block under its line."""
    shown = code.text.split("\n")
    left_out = code.lines_left_out + max(len(shown) - lines, 0)
    text = "\n".join(shown[:lines])
    more = f", {left_out} more line(s) of it not shown" if left_out else ""
    language = _LANGUAGES.get(f.path.rsplit(".", 1)[-1].lower(), "") if "." in f.path else ""
    fenced = block(text).replace("```", "```" + language, 1)
    return f"  latest change (turn {code.turn}{more}):" + fenced


# The bare word a transcript's producer writes where it hid part of a path (Entire's redaction); the
# index's own placeholders are bracketed and name their kind ("[REDACTED github-token]").
_TRANSCRIPT_REDACTION = lazy_pattern(r"(?<!\[)\bREDACTED\b")


def transcript_redacted(path: str) -> bool:
    """Whether the transcript hid part of ``path``: distinct files may have become this one name."""
    return "REDACTED" in path and _TRANSCRIPT_REDACTION.search(path) is not None


def files_of_status(
    files: list[FileReport],
    detail: int,
    empty: str = "None.",
    accounts: dict[str, ChangeAccount] | None = None,
) -> str:
    """One status's files, one line each, in the order the session first touched them.

    ``accounts``: what the agent said each change did, by path.
    """
    if not files:
        return empty
    describer = _Describer(detail, since=0, accounts=accounts or {})
    return "\n".join(describer.line(f) for f in files)


def changed_files(facts: SessionFacts, detail: int) -> str:
    """Every created, modified, deleted and reverted file, by directory, each with what changed in it.

    The files a ``git pull`` or ``git merge`` only brought in are the merged commits' work, not the
    session's: they are counted by command, status and folder after the session's own (see
    :func:`brought_in_lines`).
    """
    files = [*facts.created, *facts.modified, *facts.deleted, *facts.reverted]
    brought = brought_in_lines(facts)
    files = [f for f in files if f.brought_in is None]
    own = "\n".join([_agent_own_line(facts), *brought]).strip("\n")
    reported = reported_paths_line(facts)
    if reported:
        own = f"{own}\n{reported}" if own else reported
    if facts.pending:
        # What the calls still waiting for their result did is unknown: said, never guessed.
        waiting = "Issued, result not recorded (effect unknown):\n" + "\n".join(
            pending_calls(facts.pending, detail)
        )
        own = f"{own}\n{waiting}" if own else waiting
    if not files:
        return own or "None."
    # The workspace's files first: a scratch or temp file outside it (absolute, e.g. under /tmp) is the agent's
    # working material, said after the project's changes and briefly, never in their place.  A file in another
    # checkout the session worked in (a git worktree) is the project's work, described as the workspace's are.
    checkouts = Checkouts(facts)
    outside = checkouts.outside
    ordered = sorted(files, key=lambda f: (is_absolute(f.path), f.path.rpartition("/")[0], f.path))
    moved = moved_files(facts)
    new = created_then_moved(facts)
    since = thread_start(facts)
    describer = _Describer(
        detail,
        since,
        _current(files, since, outside=outside),
        latest_files(files, since, outside=outside),
        accounts=facts.accounts,
        notes=facts.file_notes,
    )
    left = {found.path: found for found in facts.left_behind}
    shared = _shared_stories(
        [f for f in ordered if f.path not in left and f.path not in facts.file_notes]
    )
    code_files, code_lines = _CODE_AT[detail]
    # When the thread changed nothing yet (the user asks about the change just made), the session's latest
    # changes are what the next agent continues from: their code is shown as the thread's would be.
    with_code = latest_files(files, since, code_files, outside=outside)
    lines = []
    for f in ordered:
        if f.path in left:
            lines.append(_left_line(f, left[f.path]))
            continue
        if f.path in shared:
            # Files that went through the same commits and the same git command: one line, every path named.
            if shared[f.path]:
                lines.append(shared[f.path])
            continue
        if outside(f.path) and f.path not in with_code:
            lines.append(_outside_line(f, _status(f, new)))
            continue
        line = describer.line(f, status=_status(f, new), moved_to=moved.get(f.path))
        checkout = checkouts.of(f.path)
        if checkout is not None:
            line += f" (in {checkout})"
        code = facts.latest_code.get(f.path)
        # With a writer's line on the file (the LLM path) the code shows what the line says; offline it is
        # shown where the budget allows every detail, the agent's account and the changed lines beside it.
        if (
            code is not None
            and (f.path in facts.file_notes or detail == 0)
            and f.path in with_code
            and f.status in ("created", "modified")
        ):
            line += "\n" + _code_lines(f, code, code_lines)
        lines.append(line)
    lines = _one_command_lines(lines)
    return "\n".join([*lines, own] if own else lines)


_PLAIN_LINE = lazy_pattern(r"^- `([^`\n]+)`( \([^)\n]*\): via `[^\n]+)$")


def _one_command_lines(lines: list[str]) -> list[str]:
    """Files one shell command changed and nothing else did, told the same way: one line naming every path.

    ``git checkout --theirs a.go b.go ...`` over a dozen files had put the same status, command and turn on a
    dozen lines.
    """
    said: dict[str, list[tuple[int, str]]] = {}  # what is said of each -> (line number, path)
    for at, line in enumerate(lines):
        found = _PLAIN_LINE.match(line)
        if found is not None:
            said.setdefault(found.group(2), []).append((at, found.group(1)))
    merged: dict[int, str] = {}
    for tail, places in said.items():
        if len(places) < _SHARED_STORY:
            continue
        paths = ", ".join(f"`{path}`" for _, path in places)
        status, _, rest = tail.strip().partition(": ")
        merged[places[0][0]] = f"- {paths} ({len(places)} files), each {status}: {rest}"
        merged.update({at: "" for at, _ in places[1:]})
    return [merged.get(at, line) for at, line in enumerate(lines) if merged.get(at, line)]


_SHARED_STORY = 3  # files with the same story told on one line from this many on
_STORY_START = lazy_pattern(r"^(created|changed) \(turn (\d+)\)")


def _shared_stories(files: list[FileReport]) -> dict[str, str]:
    """The files whose story (see :func:`file_story`) is the same but for the turn each was first changed, when
    enough share one: path -> the group's line for its first file, "" for the others.

    A merge's conflicts resolved file by file, committed, then the branch left with ``git stash``: told once
    per file, the same long sentence filled the section and said nothing more.
    """
    groups: dict[str, list[tuple[FileReport, int]]] = {}
    for f in files:
        story = file_story(f)
        found = _STORY_START.match(story) if story is not None else None
        if story is None or found is None:
            continue
        shape = found.group(1) + story[found.end() :]
        groups.setdefault(shape, []).append((f, int(found.group(2))))
    lines: dict[str, str] = {}
    for shape, members in groups.items():
        if len(members) < _SHARED_STORY:
            continue
        start, _, rest = shape.partition(",")
        turns = _turns(sorted({turn for _, turn in members}))
        paths = ", ".join(f"`{f.path}`" for f, _ in members)
        lines[members[0][0].path] = (
            f"- {paths} ({len(members)} files), each {start} ({turns}),{rest}"
        )
        lines.update({f.path: "" for f, _ in members[1:]})
    return lines


def changed_paths(facts: SessionFacts) -> str:
    """Every changed file by its exact path, grouped by status and folder, nothing more: the list when nothing
    else fits.

    The workspace's files come first, each folder on its line with its files by name (the folder said once,
    not with every path), those of another checkout the session worked in (a git worktree) among them; files
    outside the workspace (scratch and temp files, often under one long folder) come after them, one line per
    status.  So a budget that must cut takes the scratch files first, and a modified file of the project is
    never pushed out by them.
    """
    groups = [
        (status, [f for f in files if f.brought_in is None])
        for status, files in (
            ("created", facts.created),
            ("modified", facts.modified),
            ("deleted", facts.deleted),
            ("reverted", facts.reverted),
        )
    ]
    lines = []
    outside_lines = []
    elsewhere = Checkouts(facts).outside
    for status, files in groups:
        inside = [f.path for f in files if not elsewhere(f.path)]
        outside = [f.path for f in files if elsewhere(f.path)]
        by_folder: dict[str, list[str]] = {}
        for path in inside:
            folder, _, name = path.rpartition("/")
            by_folder.setdefault(folder, []).append(name)
        for folder, names in by_folder.items():
            where = f" in {folder}/" if folder else ""
            lines.append(f"- {status}{where} ({len(names)}): " + ", ".join(f"`{n}`" for n in names))
        if outside:
            common, named = _common_folder(outside)
            where = f" under {common}/" if common else ""
            outside_lines.append(
                f"- {status} outside the workspace{where} ({len(outside)}): "
                + ", ".join(f"`{n}`" for n in named)
            )
    lines += outside_lines
    lines += brought_in_lines(facts)
    return "\n".join(lines) if lines else "None."


# Past this many files, what a merge brought in is counted by folder rather than named.
_BROUGHT_NAMED = 8
_BROUGHT_FOLDERS = 6


def brought_in_lines(facts: SessionFacts) -> list[str]:
    """One line per ``git pull`` / ``git merge`` for the files it only brought in: counted, not described.

    What a merge brought is the merged commits' content. Named file by file, a pull of a busy
    branch (70 images and chapters) filled Files Changed and pushed the user's messages out of the
    budget; the index still has every path (``artifact-index files``).
    """
    left = {
        found.path: found
        for found in facts.left_behind
        if any(f.path == found.path and f.brought_in is not None for f in facts.changed)
    }
    by_command: dict[str, list[tuple[str, FileReport]]] = {}
    for status, files in (
        ("created", facts.created),
        ("modified", facts.modified),
        ("deleted", facts.deleted),
        ("reverted", facts.reverted),
    ):
        for f in files:
            if f.brought_in is not None and f.path not in left:
                by_command.setdefault(f.brought_in, []).append((status, f))
    lines = left_behind_lines(
        [f for f in (*facts.created, *facts.modified, *facts.deleted) if f.path in left], left
    )
    for command, members in by_command.items():
        turns = _turns(sorted({t for _, f in members for t in f.changed_turns}))
        count = brought_in_count([f for _, f in members])
        if len(members) <= _BROUGHT_NAMED:
            what = ", ".join(f"`{f.path}` ({status})" for status, f in members)
        else:
            places = Counter(
                (status, f.path.rpartition("/")[0]) for status, f in sorted(members, key=_by_path)
            )
            shown = [
                f"{n} {status} in {folder + '/' if folder else 'the top folder'}"
                for (status, folder), n in places.most_common(_BROUGHT_FOLDERS)
            ]
            rest = sum(n for _, n in places.most_common()[_BROUGHT_FOLDERS:])
            what = ", ".join(shown) + (
                f", and {rest} more in {len(places) - _BROUGHT_FOLDERS} other place(s)"
                if rest
                else ""
            )
        lines.append(
            f"- {count} file(s) `{command}` brought in ({turns}) from the merged commits, not "
            f"changed by the session's own edits: {what}"
        )
    return lines


def brought_in_count(reports: list[FileReport]) -> int:
    """How many paths a merge report named for these files: a name it gave several paths (redacted names)
    counts each of them."""
    return sum(max(r.brought_in_paths, 1) for r in reports)


def _by_path(member: tuple[str, FileReport]) -> str:
    return member[1].path


def _common_folder(paths: list[str]) -> tuple[str, list[str]]:
    """The deepest folder the paths share, and each path below it."""
    parts = [p.split("/")[:-1] for p in paths]
    common: list[str] = []
    for level in zip(*parts, strict=False):
        if len(set(level)) != 1:
            break
        common.append(level[0])
    folder = "/".join(common)
    if not folder.strip("/"):
        return "", paths
    return folder, [p[len(folder) + 1 :] for p in paths]


def _outside_line(f: FileReport, status: str) -> str:
    """A changed file outside the workspace (a scratch or temp file): its path, status and turns, nothing more."""
    return f"- `{f.path}` ({status}, {_turns(f.changed_turns or f.turns)}; outside the workspace)"


def left_behind_lines(files: list[FileReport], left: dict[str, LeftBehind]) -> list[str]:
    """The ``files`` left on a branch the session switched away from (``left``, by path).

    The session's own changes one line each; what a ``git pull`` or ``git merge`` only brought in,
    in one line per command and switch, its files named (counted past a few).
    """
    lines = [_left_line(f, left[f.path]) for f in files if f.brought_in is None]
    groups: dict[tuple[str, int, str], list[FileReport]] = {}
    for f in files:
        if f.brought_in is not None:
            away = left[f.path]
            groups.setdefault((f.brought_in, away.switch_turn, away.branch), []).append(f)
    for (command, switch_turn, branch), members in groups.items():
        turns = _turns(sorted({t for f in members for t in f.changed_turns}))
        names = ", ".join(f"`{f.path}` ({f.status})" for f in members[:_BROUGHT_NAMED])
        more = f" and {len(members) - _BROUGHT_NAMED} more" if len(members) > _BROUGHT_NAMED else ""
        lines.append(
            f"- {brought_in_count(members)} file(s) `{command}` brought in ({turns}), left on the"
            f" branch the session switched away from at turn {switch_turn} (to `{branch}`); not"
            f" changes of the working tree now: {names}{more}"
        )
    return lines


def _left_line(f: FileReport, left: LeftBehind) -> str:
    """A change left on the branch the session switched away from: named, not described as current work."""
    return (
        f"- `{f.path}` ({f.status} at {_turns(f.changed_turns)}, left on the branch the session switched away "
        f"from at turn {left.switch_turn}; not a change of the working tree now)"
    )


def _agent_own_line(facts: SessionFacts) -> str:
    """The agent's own files it wrote (its plan), said apart: not the project's changes, never committed."""
    if not facts.agent_files:
        return ""
    return "Not the project's (the agent's own files, outside the workspace): " + ", ".join(
        f"`{f.path}` ({f.status}, {_turns(f.changed_turns or f.turns)})" for f in facts.agent_files
    )


def _current(
    files: list[FileReport],
    since: int,
    limit: int = _CURRENT_FILES,
    *,
    outside: Callable[[str], bool] = is_absolute,
) -> set[str]:
    """The files of the current work: changed since the thread started, the latest ``limit`` when that is more.

    ``outside``: whether a path is a scratch or temp file, not the project's.
    """
    changed = sorted(
        (f for f in files if any(t >= since for t in f.changed_turns)),
        key=lambda f: max(f.changed_turns),
        reverse=True,
    )
    # A scratch or temp file outside the workspace takes a place only when the workspace has none to fill it.
    inside = [f for f in changed if not outside(f.path)]
    return {f.path for f in (inside or changed)[:limit]}


def latest_files(
    files: list[FileReport],
    since: int,
    limit: int = _LATEST_FILES,
    *,
    outside: Callable[[str], bool] = is_absolute,
) -> set[str]:
    """The files of the latest changes: the current thread's, or the session's when the thread changed none yet
    (a question asked about the change just made)."""
    return _current(files, since, limit, outside=outside) or _current(
        files, 0, limit, outside=outside
    )


def moved_files(facts: SessionFacts) -> dict[str, str]:
    """Old path -> new path, for every file the session moved or renamed."""
    return {f.renamed_from: f.path for f in [*facts.created, *facts.modified] if f.renamed_from}


def created_then_moved(facts: SessionFacts) -> set[str]:
    """The new paths of files the session created and then moved: new files, not moves of existing ones.

    The old path of such a file is "reverted" (created, then gone); a file that existed before is "deleted" there.
    """
    gone_again = {f.path for f in facts.reverted}
    return {new for old, new in moved_files(facts).items() if old in gone_again}


def read_files(facts: SessionFacts, detail: int) -> str:
    """The files read and never changed: those the current thread read and the latest few by path, the others
    named or counted by directory.

    A file the current thread read is evidence for the work in hand: the next agent must know it has seen it,
    so it is named whatever the number (the budget cuts whole lines, the longest sections first).
    """
    # A file a call still waiting for its result names is not known to be unchanged.
    files = [f for f in facts.read if f.certainty != "unrecorded"]
    # Files read by a command that named them only at run time are not listed: counts are floors.
    unnamed = _unnamed_reads_line(facts)
    at_least = "at least " if unnamed else ""
    if not files:
        # "None" would say no file was read: the files read and then changed are listed as changed.
        changed = [*facts.created, *facts.modified, *facts.deleted, *facts.reverted]
        also = sum(1 for f in changed if set(f.turns) - set(f.changed_turns))
        if unnamed:
            return f"None named.\n{unnamed}"
        return (
            f"None read without being changed; {also} of the changed files were read too."
            if also
            else "None."
        )
    since = thread_start(facts)
    # Files a script of the session's may have rewritten are not "unchanged": said apart, with the run.
    scripted = [
        f for f in files if f.maybe_changed_by is not None and f.changed_unseen_turn is None
    ]
    # ...nor are files a sub-agent whose calls are not seen was given or reported.
    # (Taken apart by identity: a file's fields decide which group it is in, so an equal file is in the
    # same one, and comparing models field by field made this quadratic in the files read.)
    apart = {id(f) for f in scripted}
    delegated = [
        f
        for f in files
        if f.sub_agent_named is not None and id(f) not in apart and f.changed_unseen_turn is None
    ]
    apart.update(id(f) for f in delegated)
    # ...nor are files a `git status` or `git diff` listed as changed, though no call seen changed them.
    listed = [f for f in files if f.listed_changed_by is not None and id(f) not in apart]
    apart.update(id(f) for f in listed)
    files = [f for f in files if id(f) not in apart]
    latest = sorted(files, key=lambda f: (max(f.turns, default=0), f.last_seq), reverse=True)
    # Files outside the workspace (scratch, temp, a dependency's) come after the project's, briefly; those of
    # another checkout the session worked in (a git worktree) are the project's.
    elsewhere = Checkouts(facts).outside
    outside = [f for f in latest if elsewhere(f.path)]
    if len(outside) < len(latest):
        latest = [f for f in latest if not elsewhere(f.path)]
    else:
        outside = []
    in_thread = [f for f in latest if max(f.turns, default=0) >= since]
    named = in_thread[: _READ_IN_THREAD_AT[detail]]
    named += [f for f in latest[: _READ_NAMED_AT[detail]] if f not in named]
    # A file changed under the session is named with what its reads showed, never only counted.
    named += [f for f in latest if f.changed_unseen_turn is not None and f not in named]
    lines = [f"- `{f.path}`{_whose_read(f)}" for f in sorted(named, key=lambda f: f.path)]
    rest = [f for f in latest if f not in named]
    if rest and len(rest) <= _READ_GROUPED_AT[detail]:
        # Few enough to name: by folder, each file by its name, so the agent knows whether it has seen one.
        by_folder: dict[str, list[str]] = {}
        for f in sorted(rest, key=lambda f: f.path):
            folder, _, name = f.path.rpartition("/")
            by_folder.setdefault(folder + "/" if folder else "./", []).append(f"`{name}`")
        lines.append(
            f"- and {at_least}{len(rest)} more read, in "
            + "; ".join(f"`{folder}`: {', '.join(names)}" for folder, names in by_folder.items())
        )
    elif rest:
        # Two folder levels when they are few enough to read at a glance, else the top level.
        folders = Counter(_folder(f.path, 2) for f in rest)
        if len(folders) > 6:
            folders = Counter(_folder(f.path, 1) for f in rest)
        shown = ", ".join(f"`{folder}` ({n})" for folder, n in folders.most_common(6))
        more = len(folders) - 6
        lines.append(
            f"- and {at_least}{len(rest)} more read, in {shown}"
            + (f" and {more} other folders" if more > 0 else "")
        )
    lines += _maybe_changed_lines(scripted)
    lines += _sub_agent_read_lines(delegated)
    lines += _listed_changed_lines(listed)
    if outside:
        shown = ", ".join(f"`{f.path}`{_whose_read(f)}" for f in outside[:_OUTSIDE_NAMED])
        more = len(outside) - _OUTSIDE_NAMED
        lines.append(
            f"- outside the workspace ({at_least}{len(outside)}, the latest first): {shown}"
            + (f" and {more} more" if more > 0 else "")
        )
    if unnamed:
        lines.append(unnamed)
    return "\n".join(lines)


# How many of the commands that read files known only at run time are shown, the latest.
_UNNAMED_SHOWN = 3


def _unnamed_reads_line(facts: SessionFacts) -> str | None:
    """The commands that read files the trail cannot name (a loop over a glob, `xargs cat`), or None."""
    seen = {(r.turn, r.command, r.detail): r for r in facts.unnamed_reads}
    if not seen:
        return None
    reads = list(seen.values())
    shown = []
    for read in reads[-_UNNAMED_SHOWN:]:
        over = (read.detail or "").removeprefix(UNNAMED_READ).strip(" ()")
        loop = f", {code_span(over)}" if over.startswith("for ") else ""
        shown.append(f"{code_span(shown_command(read.command or '', 60))} (turn {read.turn}{loop})")
    more = len(reads) - len(shown)
    return (
        "- and reads of files named only when they ran, which these lists may leave out: "
        + "; ".join(shown)
        + (f" and {more} more such command(s)" if more > 0 else "")
    )


# Folders of installed dependencies: a file read there is a library's, not the project's.
# A bare `vendor/` is not one of them: projects commit their own code there too (a CLI, a fork),
# so only the layouts a package manager writes count: Go's `vendor/<host>/` (`vendor/github.com/`)
# and Bundler's `vendor/bundle/`.
_DEPENDENCY = lazy_pattern(
    r"(?:^|/)(?:node_modules|site-packages|\.venv|venv|pkg/mod|\.cargo/registry"
    r"|vendor/(?:bundle|[a-z0-9-]+(?:\.[a-z0-9-]+)+))/"
)


_SCRIPTED_NAMED = 8


def _maybe_changed_lines(files: list[FileReport]) -> list[str]:
    """Files read that a run may have changed: one line per run, naming it and the files.

    A script writing at paths computed at run time may reach them; a command that said it may
    rewrite a file (``go mod tidy``, ``go.mod``) names it.
    """
    by_run: dict[tuple[int, str], list[str]] = {}
    named_by_command: dict[int, set[str]] = {}
    for f in files:
        effect = f.maybe_changed_by
        assert effect is not None
        by_run.setdefault((effect.turn, effect.command or effect.tool), []).append(f.path)
        if effect.detail == MAY_HAVE_CHANGED_IT:
            named_by_command.setdefault(effect.turn, set()).add(effect.command or effect.tool)
    lines = []
    for (turn, command), paths in sorted(by_run.items()):
        named = ", ".join(f"`{p}`" for p in sorted(paths)[:_SCRIPTED_NAMED])
        more = len(paths) - _SCRIPTED_NAMED
        how = (
            "may have rewritten them after their last read"
            if turn in named_by_command and command in named_by_command[turn]
            else "writes files at paths computed at run time and may have changed or created them"
        )
        lines.append(
            f"- read, but `{shown_command(command)}` (turn {turn}) {how} (not known): {named}"
            + (f" and {more} more" if more > 0 else "")
        )
    return lines


def _sub_agent_run(note: SubAgentNote) -> str:
    """A sub-agent run said by what was seen of it: its description, its turn, whether it had ended."""
    when = (
        f"turn {note.turn}"
        if note.finished
        else f"launched at turn {note.turn}, no report of it seen yet"
    )
    # Earlier runs named the file too (an implementer, then a fixer): the latest is not the only one.
    earlier = f" (and {note.earlier} earlier sub-agent run(s))" if note.earlier else ""
    return (
        f'the sub-agent "{note.description}" ({when}){earlier}, whose own calls this transcript'
        " does not hold,"
    )


def _sub_agent_part(f: FileReport) -> str:
    """What an unseen sub-agent run that names a changed file leaves unknown about it."""
    note = f.sub_agent_named
    assert note is not None
    run = _sub_agent_run(note)
    seen = "named it in a prompt asking for changes or in its report of changes"
    if f.status == "deleted":
        return f"{run} {seen} after the deletion: it may exist again (not known)"
    if note.before_first and f.status == "modified":
        return (
            f"first seen after {run} {seen}: whether it was there before the session is not known"
        )
    return f"{run} {seen}, so what it holds now is not known"


def _sub_agent_read_lines(files: list[FileReport]) -> list[str]:
    """Files read that an unseen sub-agent run named: one line per run, naming it and the files."""
    by_run: dict[SubAgentNote, list[str]] = {}
    for f in files:
        assert f.sub_agent_named is not None
        by_run.setdefault(f.sub_agent_named, []).append(f.path)
    lines = []
    for note, paths in sorted(by_run.items(), key=lambda item: item[0].turn):
        named = ", ".join(f"`{p}`" for p in sorted(paths)[:_SCRIPTED_NAMED])
        more = len(paths) - _SCRIPTED_NAMED
        said = (
            "reported changing them, so they have changed since as far as its report says"
            " (what they hold now is not known)"
            if note.reported
            else "named them in a prompt asking for changes or in its report of changes, so whether"
            " they are unchanged is not known"
        )
        lines.append(
            f"- read, but {_sub_agent_run(note)} {said}: "
            + named
            + (f" and {more} more" if more > 0 else "")
        )
    return lines


def _listed_changed_lines(files: list[FileReport]) -> list[str]:
    """Files read that a git listing showed as changed: one line per listing, naming it and the files."""
    by_listing: dict[tuple[int, str], list[str]] = {}
    for f in files:
        assert f.listed_changed_by is not None
        by_listing.setdefault(f.listed_changed_by, []).append(f.path)
    lines = []
    for (turn, command), paths in sorted(by_listing.items()):
        named = ", ".join(f"`{p}`" for p in sorted(paths)[:_SCRIPTED_NAMED])
        more = len(paths) - _SCRIPTED_NAMED
        lines.append(
            f"- read, but `{shown_command(command)}` (turn {turn}) listed them as changed and not"
            " committed, though no call seen changed them (changed by something unseen, or before"
            " the session): " + named + (f" and {more} more" if more > 0 else "")
        )
    return lines


def _whose_read(f: FileReport) -> str:
    """Whose read it was when not plainly the agent's reading of the project: a sub-agent's, a dependency's file."""
    notes = []
    if f.sub_agent_only:
        notes.append("read by a sub-agent only")
    if _DEPENDENCY.search(f.path):
        notes.append("an installed dependency's file")
    if transcript_redacted(f.path):
        # Distinct files hidden under one name: reads of two of them differ without any change.
        notes.append(
            "the transcript itself redacted part of this path, so several files may share it"
        )
    elif f.changed_unseen_turn is not None:
        # Not changed by any call the trail followed, yet not unchanged: say what the reads showed.
        effect = f.maybe_changed_by
        notes.append(
            f"its read at turn {f.changed_unseen_turn} showed other content than an earlier read: "
            + (
                f"{code_span(shown_command(effect.command or effect.tool))} (turn {effect.turn}), a script "
                "writing files at paths computed at run time, may have changed it"
                if effect is not None and effect.detail != MAY_HAVE_CHANGED_IT
                else f"{code_span(shown_command(effect.command or effect.tool))} (turn {effect.turn}) "
                "may have rewritten it"
                if effect is not None
                else "something the calls seen do not show changed it"
            )
        )
    return f" ({'; '.join(notes)})" if notes else ""


def _folder(path: str, depth: int) -> str:
    """A path's folder, ``depth`` levels deep at most: ``lib/spotter/services/x.ex``, 2 -> ``lib/spotter/``."""
    parts = path.lstrip("/").split("/")[:-1]
    if not parts:
        return "./"
    prefix = "/" if path.startswith("/") else ""
    return prefix + "/".join(parts[:depth]) + "/"
