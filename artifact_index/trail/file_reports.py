"""Each file the session touched, with what its changes wrote: the files as a summary states them.

:func:`file_reports` joins what the index knows of each file: its net
status and operations (:meth:`~artifact_index.trail.index.ArtifactIndex.files`),
the definitions its changes touched and its reads showed
(:meth:`~artifact_index.trail.index.ArtifactIndex.symbols`), the size of its
net change, and what the change wrote where the index knows the text
(:mod:`artifact_index.facts.changes`: the signatures and docs of added
definitions, the tests a test file gained, the lines a file without
definitions gained, the telling lines inside modified definitions).
"""

from __future__ import annotations

import functools
import hashlib
import pickle

from pydantic import BaseModel, TypeAdapter

from artifact_index.facts.changes import (
    added_tests,
    changed_code,
    changed_outline,
    definition_notes,
)
from artifact_index.facts.claims import Evidence
from artifact_index.facts.symbols.symbol_entry import SymbolEntry
from artifact_index.ingestion.events import MAY_BE_UNCHANGED, ToolCall
from artifact_index.shell.git import BROUGHT_IN, LISTED_AFTER_PUT_BACK, LISTED_DELETED
from artifact_index.trail.answers import FileEntry, FileReport, OperationEntry
from artifact_index.trail.collection import collector_paused
from artifact_index.trail.file_state import CHANGED_STATUSES, FileState, is_stash
from artifact_index.trail.index import ArtifactIndex

__all__ = ["MAKING_ACTIONS", "ReportCache", "file_reports"]


def file_reports(
    index: ArtifactIndex,
    symbols: dict[str, list[SymbolEntry]] | None = None,
    kept: ReportCache | None = None,
) -> list[FileReport]:
    """Every file with a status (not those only failed calls touched), in order of first touch.

    ``symbols``: ``index.symbols()``, when the caller already has it (it
    visits every symbol).  ``kept``: the reports an earlier call made of the
    same growing session; a file whose report would be made from the same
    things is not reported again (see :class:`ReportCache`).
    """
    if symbols is None:
        symbols = index.symbols()
    if kept is not None:
        return _reports_kept(index, symbols, kept)
    made: list[FileReport] = []
    for entry in index.files():
        if entry.status is None:
            continue
        file_symbols = symbols.get(entry.path, [])
        made.append(_report(index, entry, file_symbols, index.find_file(entry.path)))
    return made


def _reports_kept(
    index: ArtifactIndex, symbols: dict[str, list[SymbolEntry]], kept: ReportCache
) -> list[FileReport]:
    """:func:`file_reports`, reusing the reports ``kept`` holds of files that are what they were.

    A file whose inputs (:func:`_inputs`: its operations' count, its state, its symbols, the
    calls waiting on it) are those of the last call is not listed again: its report is what
    the last call made, found under the digest that call kept for it (building every file's
    entry to digest it was most of a long session's report).  Any other file is listed,
    digested (:func:`_made_from`) and, unless a report made from the same things is kept,
    reported.
    """
    waiting = index.waiting_calls()
    submission = index.session.submission
    submitted = submission.files if submission is not None else None
    made: list[tuple[bytes, FileReport]] = []
    inputs: dict[str, tuple[bytes, bytes]] = {}
    for listed in index.listed_files():
        if listed.status is None:
            continue
        file_symbols = symbols.get(listed.shown, [])
        state = index.find_file(listed.shown)
        shown_in = (
            listed.path in submitted
            if submitted is not None and listed.status in CHANGED_STATUSES
            else None
        )
        now = (
            _inputs(
                listed,
                index.operations_spelled(listed.path),
                file_symbols,
                waiting.get(listed.path, []),
                (index.root, shown_in),
            )
            if state is listed
            else None
        )
        report = None
        before = kept.inputs_of(listed.path) if now is not None else None
        if before is not None and before[0] == now:
            made_from = before[1]
            report = kept.find(made_from, file_symbols)
        if report is None:
            entry = index.file_entry(listed, waiting)
            made_from = _made_from(entry, file_symbols, state)
            report = kept.find(made_from, file_symbols) or _report(
                index, entry, file_symbols, state
            )
        made.append((made_from, report))
        if now is not None:
            inputs[listed.path] = (now, made_from)
    kept.keep(made, inputs)
    return [report for _, report in made]


def _inputs(
    state: FileState,
    operations: bytes,
    symbols: list[SymbolEntry],
    waiting: list[ToolCall],
    around: tuple[object, ...],
) -> bytes:
    """A digest of everything a file's entry and report are made from, read without building the entry.

    The entry (:meth:`~artifact_index.trail.index.ArtifactIndex.file_entry`) is made of the
    file's ``operations`` (spelled as kept: an operation's result may be settled after it is
    added), its state, the calls still waiting on it, and ``around`` (the workspace's root,
    whether the submission holds it); the report of those and of its ``symbols``.
    """
    digest = hashlib.blake2b(b"%d:" % len(operations), digest_size=20)
    digest.update(operations)
    digest.update(
        repr(
            (
                state.path,
                state.shown,
                state.status,
                state.sources,
                state.renamed_from,
                state.changed,
                state.existed_before,
                state.exists,
                state.restored,
                # A write's own fields: a model's repr costs more than all the rest.
                (state.latest_write.turn, state.latest_write.text) if state.latest_write else None,
                state.made_again_by,
                state.changed_unseen_turn,
                [
                    (call.call_id, call.turn, call.tool, [op.action for op in call.operations])
                    for call in waiting
                ],
                around,
            )
        ).encode("utf-8", "surrogatepass")
    )
    for text in (state.original, state.content):
        digest.update(b"\x00" if text is None else b"\x01%d:" % len(text))
        digest.update((text or "").encode("utf-8", "surrogatepass"))
    if symbols:
        digest.update(_symbols_spelled().dump_json(symbols))
    return digest.digest()


@functools.cache
def _symbols_spelled() -> TypeAdapter[list[SymbolEntry]]:
    return TypeAdapter(list[SymbolEntry])


def _made_from(entry: FileEntry, symbols: list[SymbolEntry], state: FileState | None) -> bytes:
    """A digest of everything a file's report is made from (see :func:`_report`).

    The entry and the symbols are frozen models, spelled whole by
    :func:`_spelling`; of the state, a report reads the path it shows,
    whether it changed and existed, the text its latest change wrote, its
    content and its original (net_diff, content).
    """
    digest = hashlib.blake2b(digest_size=20)
    digest.update(_spelling(entry, symbols))
    if state is not None:
        digest.update(
            repr(
                (state.shown, state.changed, state.existed_before, state.exists, state.latest_write)
            ).encode()
        )
        for text in (state.original, state.content):
            digest.update(b"\x00" if text is None else b"\x01%d:" % len(text))
            digest.update((text or "").encode("utf-8", "surrogatepass"))
    return digest.digest()


# The fields of the spelled models that their JSON leaves out (marked ``exclude``): a report
# reads them, so they are spelled beside it.
SPELLED_APART: dict[type[BaseModel], frozenset[str]] = {
    FileEntry: frozenset({"certainty", "evidence"}),
    OperationEntry: frozenset({"call_id", "copied_away", "seq"}),
    SymbolEntry: frozenset(),
    Evidence: frozenset(),
}
_Spelled = tuple[
    FileEntry, list[SymbolEntry], str, tuple[Evidence, ...], list[tuple[str | None, bool, int]]
]


@functools.cache
def _spelled() -> TypeAdapter[_Spelled]:
    return TypeAdapter(_Spelled)


def _spelling(entry: FileEntry, symbols: list[SymbolEntry]) -> bytes:
    """A file's entry and symbols as every field's value, in the same bytes in every process.

    Their JSON (pydantic's: a few microseconds a model, and a run that
    finds every report kept spells every file), with the fields it leaves
    out (:data:`SPELLED_APART`) after it.  No set is spelled (its order
    would change with the process's hash seed): the models hold lists.
    """
    return _spelled().dump_json(
        (
            entry,
            symbols,
            entry.certainty,
            entry.evidence,
            [(op.call_id, op.copied_away, op.seq) for op in entry.ops],
        )
    )


def _symbol_fields(file_symbols: list[SymbolEntry]) -> dict[str, list[SymbolEntry]]:
    """A file's report's ``symbols`` (those its changes touched) and ``read_symbols``."""
    return {
        "symbols": [s for s in file_symbols if s.change != "read"],
        "read_symbols": [s for s in file_symbols if s.change == "read"],
    }


# The changes that leave a file where there was none.
MAKING_ACTIONS = frozenset({"write", "create", "move", "copy", "restore", "unstash"})


def _since_last_deletion(changes: list[OperationEntry]) -> list[OperationEntry]:
    """The changes a created file now rests on: those since its last deletion.

    None when what followed the deletion only changed the file (an append, an
    edit): it was there again, made by something the session's calls do not
    show, and the command that made it the first time is not what it rests on.
    """
    last = max((k for k, op in enumerate(changes) if op.action == "delete"), default=None)
    if last is None:
        return changes
    after = changes[last + 1 :]
    return after if after and after[0].action in MAKING_ACTIONS else []


def _first_of_last_deletions(changes: list[OperationEntry]) -> list[OperationEntry]:
    """``changes`` up to the first of the deletions that end them: `rm f`, then `git rm f` to stage
    the deletion, was deleted by the `rm`."""
    end = len(changes)
    while end > 1 and changes[end - 1].action == "delete" and changes[end - 2].action == "delete":
        end -= 1
    return changes[:end]


def _brought_in(changes: list[OperationEntry]) -> str | None:
    """``git pull`` / ``git merge`` when every change of a file came from such a command's report."""
    subs = {(op.detail or "").removeprefix(BROUGHT_IN) for op in changes}
    if len(subs) == 1 and all((op.detail or "").startswith(BROUGHT_IN) for op in changes):
        return subs.pop()
    return None


def _report_paths(changes: list[OperationEntry]) -> int:
    """How many paths of its merge report a brought-in file stands for: its operations of the last such command."""
    last = changes[-1]
    return sum(1 for op in changes if (op.turn, op.command) == (last.turn, last.command))


def _report(
    index: ArtifactIndex,
    entry: FileEntry,
    file_symbols: list[SymbolEntry],
    state: FileState | None,
) -> FileReport:
    """The report of one file: made only from ``entry``, ``file_symbols`` and ``state`` (its content, its original)."""
    assert entry.status is not None
    # A copy of the file elsewhere read it: no change of it to rest on.
    changes = [
        op
        for op in entry.ops
        if op.action != "read" and op.result != "failure" and not op.copied_away
    ]
    # A formatter's run that may have changed nothing is not what a change seen for certain (an
    # edit, then `gofmt -w` on the file) rests on.
    certain = [op for op in changes if not (op.detail or "").endswith(MAY_BE_UNCHANGED)]
    # The command its status rests on: what created a created file (a later `sed -i` on it
    # only edited it), else the last one that changed it; a stash and the pop that brought
    # it back are a round trip, not the change. When a file tool made that change, no command
    # did: a `git pull` before the session's own edit is not what the file now rests on.
    resting = (
        _since_last_deletion(changes)[:1]
        if entry.status == "created"
        else _first_of_last_deletions(
            _before_brought_back(_without_round_trips(certain or changes))
        )
    )
    if entry.status in ("created", "modified") and resting and resting[-1].action == "delete":
        # Deleted last, yet there now: something no call shows made it again, not the `rm`.
        resting = []
    shell = [resting[-1].command] if resting and resting[-1].command else []
    if resting and resting[-1].detail in (LISTED_AFTER_PUT_BACK, LISTED_DELETED):
        shell = []  # the status only showed the change; what made it is not seen
    # Only formatters touched it: the command it rests on may have changed nothing.
    reformatted = shell if not certain else []
    if state is not None and state.made_again_by and entry.status in ("created", "reverted"):
        # Deleted with its folder, then a build or generator may have made it again: that
        # command is what it rests on, not the `rm -rf`.
        shell = [state.made_again_by]
    diff = index.net_diff(entry.path) if entry.status in ("created", "modified") else None
    added, removed = (
        index.net_line_counts(entry.path, diff) if entry.status == "modified" else (None, None)
    )
    fields = _symbol_fields(file_symbols)
    changed_symbols = fields["symbols"]
    notes = definition_notes(
        index.content(entry.path) if diff else None,
        entry.path,
        [s for s in changed_symbols if s.change == "added"],
    )
    first_lines, outline = (
        changed_outline(diff, entry.path, index.content(entry.path) if diff else None)
        if not changed_symbols
        else ([], False)
    )
    return FileReport(
        path=entry.path,
        status=entry.status,
        renamed_from=entry.renamed_from,
        sources=entry.sources,
        turns=sorted({op.turn for op in entry.ops if op.result != "failure"}),
        last_seq=max((op.seq for op in entry.ops if op.result != "failure"), default=0),
        changed_turns=sorted({op.turn for op in changes if op.action != "unknown"}),
        **fields,
        shell_command=shell[-1] if shell else None,
        shell_command_may_be_unchanged=bool(shell) and shell == reformatted,
        brought_in=(brought := _brought_in(changes)),
        brought_in_paths=_report_paths(changes) if brought is not None else 0,
        lines_added=added,
        lines_removed=removed,
        signatures={key: signature for key, (signature, _) in notes.items()},
        docs={key: doc for key, (_, doc) in notes.items() if doc},
        tests_added=added_tests(diff, entry.path, changed_symbols),
        first_lines=first_lines,
        headings=outline,
        changed_code=changed_code(
            diff,
            index.content(entry.path),
            entry.path,
            [s for s in changed_symbols if s.change == "modified"],
            original=state.original if state is not None else None,
        )
        if entry.status == "modified"
        else {},
        existed_before=state.existed_before if state is not None else None,
        latest_write=state.latest_write if state is not None else None,
        changes=[(op.action, op.turn) for op in changes],
        last_change=(changes[-1].action, changes[-1].turn) if changes else None,
        last_command=changes[-1].command if changes else None,
        sub_agent_only=bool(entry.ops) and all(op.sidechain for op in entry.ops),
        changed_unseen_turn=state.changed_unseen_turn if state is not None else None,
        certainty=entry.certainty,
        evidence=entry.evidence,
    )


def _before_brought_back(changes: list[OperationEntry]) -> list[OperationEntry]:
    """``changes`` up to the session's own last one, when only `git pull`/`git merge` reports follow it.

    A pull after the session edited, committed and merged a file (its pull request) lists the
    file in its report: that brings back the session's own change, it is not where the change
    came from. The file rests on the session's edit; a file only a pull touched keeps the pull.
    """
    own = [i for i, op in enumerate(changes) if not (op.detail or "").startswith(BROUGHT_IN)]
    return changes[: own[-1] + 1] if own else changes


def _without_round_trips(changes: list[OperationEntry]) -> list[OperationEntry]:
    """``changes`` without each ``git stash`` and the ``git stash pop`` that brought its content back."""
    kept: list[OperationEntry] = []
    for op in changes:
        if (
            op.action == "unstash"
            and kept
            and kept[-1].action == "restore"
            and is_stash(kept[-1].detail)
        ):
            kept.pop()
            continue
        kept.append(op)
    # Nothing but round trips (a change from before the session, stashed and brought back): the pop
    # is all that was seen.
    return kept or changes


class ReportCache:
    """The files' reports of a growing session, each kept with what it was made from, between runs.

    Reporting a file diffs its content against its original and parses both
    (tree-sitter, for the definitions it gained); in a session that grows by
    a few records between two runs (the hooks), almost every file is what
    it was.  A report is made only from the file's entry (status,
    operations, evidence), its symbols and its state (path shown, whether
    it changed and existed, its content and original), so one made from
    the same things (the same digest of them) is the same report.  Only the
    reports of the last call are kept: no more than one per file, with the
    digest of each file's inputs (:func:`_inputs`), so that a file whose
    inputs did not change is found without building its entry.

    What is kept (and pickled) is the reports as they were made, so a
    caller that changes a report in place afterwards changes nothing kept.
    """

    def __init__(self) -> None:
        self._kept: dict[bytes, FileReport] = {}
        # Per file key: the digest of its inputs (see _inputs) and of what its report was made from.
        self._inputs: dict[str, tuple[bytes, bytes]] = {}
        self._snapshot: bytes | None = None
        # Whether keep() takes the snapshot that pickling the cache keeps.  A caller that will
        # not pickle it again turns it off: taking it costs more than finding every report.
        self.snapshots = True

    def find(self, made_from: bytes, symbols: list[SymbolEntry]) -> FileReport | None:
        """The report kept of a file made from what ``made_from`` digests (with its ``symbols``), if any."""
        kept = self._kept.get(made_from)
        if kept is None:
            return None
        return kept.model_copy(update=_symbol_fields(symbols))

    def inputs_of(self, key: str) -> tuple[bytes, bytes] | None:
        """What the last call kept of the file ``key``: the digest of its inputs, and of what its report was made from."""
        return self._inputs.get(key)

    def keep(
        self,
        made: list[tuple[bytes, FileReport]],
        inputs: dict[str, tuple[bytes, bytes]] | None = None,
    ) -> None:
        """Keep the reports of this call (those of files no longer reported go), with its files' ``inputs``.

        Their symbols are left out: the caller has them again (they are part
        of what a report is made from), and they are most of a report's size.
        With :attr:`snapshots` off, the cache pickles as it did before this
        call: each report it holds is still the report of what it was made
        from, only fewer of them are found.
        """
        if not self.snapshots:
            self._kept = dict(made)
            self._inputs = {}  # what is pickled has no inputs to match
            return
        self._kept = {
            made_from: report.model_copy(update={"symbols": [], "read_symbols": []})
            for made_from, report in made
        }
        self._inputs = dict(inputs or {})
        with collector_paused():
            self._snapshot = pickle.dumps(
                (self._kept, self._inputs), protocol=pickle.HIGHEST_PROTOCOL
            )

    def __getstate__(self) -> dict[str, bytes | None]:
        return {"kept": self._snapshot}

    def __setstate__(self, state: dict[str, bytes | None]) -> None:
        snapshot = state["kept"]
        self._kept, self._inputs = {}, {}
        if snapshot is not None:
            kept = pickle.loads(snapshot)
            if not (
                isinstance(kept, tuple)
                and len(kept) == 2
                and all(isinstance(part, dict) for part in kept)
            ):
                # Kept by another version (its reports alone): its reader starts afresh.
                raise ValueError("files' reports kept in another shape")
            self._kept, self._inputs = kept
        self._snapshot = snapshot
        self.snapshots = True
