"""The artifact index: a graph of files and the operations that touched them.

Node kinds (the ``kind`` attribute) and their ids:

- ``file:<key>``: one file; attributes hold its net state (``existed_before``,
  ``exists``, ``changed``, ``read``, ``restored``, ``sources``, known contents).
- ``op:<n>``: one operation of one tool call on one file (or an effect of a
  shell command whose file is unknown), with turn, tool, action, source and
  result status.
- ``turn:<n>``: one turn of the conversation.

Edges: ``turn -> op`` (``performed``), ``op -> file`` (``touched``; the
destination of a move or copy has ``role="dest"``), ``file -> file``
(``renamed_from``).  Later stages add ``symbol``, ``error`` and ``decision``
nodes with edges to files, so queries select by ``kind`` and never assume
that every node is a file.  :mod:`artifact_index.trail.nodes` types what each
kind of node and edge holds.

The graph *is* the tracker's state: it serializes to JSON with
:meth:`ArtifactIndex.to_json` and resumes with :meth:`ArtifactIndex.from_json`.
"""

from __future__ import annotations

import difflib
import json
import marshal
import re
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from itertools import islice
from typing import TYPE_CHECKING, Any, Literal, cast, overload

from pydantic import ValidationError

from artifact_index.exceptions import AmbiguousPath, StateError
from artifact_index.facts.claims import Certainty, Evidence
from artifact_index.facts.decisions import Decision
from artifact_index.facts.errors.checks import checks_in, covers
from artifact_index.facts.errors.ledger import ErrorLedger, FailedRun, LedgerEntry, TestStatus
from artifact_index.facts.symbols.definitions import (
    changed_symbols,
    definitions,
    language_for_path,
)
from artifact_index.facts.symbols.extraction import usable
from artifact_index.facts.symbols.symbol_entry import NetChange, SymbolEntry
from artifact_index.facts.tasks import Task
from artifact_index.ingestion.events import UNNAMED_READ, ToolCall
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.redaction import redact_json
from artifact_index.shell.git import BROUGHT_IN
from artifact_index.shell.state import TEMP_ROOTS
from artifact_index.trail.answers import (
    ErrorReport,
    FileEntry,
    OperationEntry,
    PendingCallReport,
    SeenChangeReport,
    SubmissionReport,
    TestReport,
    UnknownEffect,
)
from artifact_index.trail.file_state import CHANGED_STATUSES, FileState, FileStatus, is_stash
from artifact_index.trail.graph import ArtifactGraph
from artifact_index.trail.nodes import (
    DecisionNode,
    ErrorNode,
    FileNode,
    NodeKind,
    OperationNode,
    OperationOnFile,
    SymbolNode,
    TurnNode,
)
from artifact_index.trail.paths import case_insensitive, file_key, is_absolute
from artifact_index.trail.session_state import SeenChange, SessionState, UserSaid
from artifact_index.trail.state_versions import STATE_VERSION, IndexState, upgraded

if TYPE_CHECKING:
    from artifact_index.trail.work_state import UnlistedMemory

__all__ = [
    "CHANGED_STATUSES",
    "ArtifactIndex",
    "FileEntry",
    "FileStatus",
    "OperationEntry",
    "SymbolEntry",
]

# The kinds of node only deferred work adds (see ArtifactIndex.defer).
_DEFERRED_KINDS = frozenset({"symbol"})


def _net_change(changes: list[str]) -> NetChange | None:
    """Net effect of a symbol's changes in order (``None``: added then removed again)."""
    edits = [c for c in changes if c != "read"]
    if not edits:
        return "read" if changes else None
    first, last = edits[0], edits[-1]
    if first == "added":
        return None if last == "removed" else "added"
    if last == "removed":
        return "removed"
    return "modified"


def _net_modified(original: str, content: str, path: str) -> frozenset[tuple[str, str, str | None]]:
    """The definitions whose text differs between a file's original and its content now.

    Edit by edit, a definition a change only moved (a block above it rewritten) or one an
    unbalanced intermediate state misparsed looks modified; the two whole contents say which
    ones the session's changes left different.
    """
    return frozenset(
        (c.name, c.kind, c.container)
        for c in changed_symbols(original, content, path)
        if c.change == "modified"
    )


MAX_FIXES = 8  # files named as an error's fix; more changed in between says little about which


# How a run resolved an error when it was the same check (or command) again: seen, not inferred.
_SEEN_RESOLUTIONS = frozenset(
    {
        "the same check passed",
        "the same command succeeded",
        "gone from a rerun of the same check",
        "gone from a rerun of the same check, whose tests ran",
        "a rerun of the same command got past it",
    }
)


def _passing_latest_first(runs: list[TestStatus]) -> list[TestStatus]:
    """The runs that could supersede a failure (passed, with a command), latest turn first, in order within a turn."""
    passing = [r for r in runs if r.outcome == "passed" and r.passed > 0 and r.command]
    return sorted(passing, key=lambda r: -r.turn)  # stable: runs of one turn keep their order


def _superseding_run(run: TestStatus, passing: list[TestStatus]) -> TestStatus | None:
    """The latest later run that passed and covers the failed ``run`` (the whole suite, its file), or None.

    ``passing``: :func:`_passing_latest_first` of the session's runs; of the latest runs that
    cover it, the first one run.
    """
    if run.outcome != "failed" or not run.command:
        return None
    for later in passing:
        if later.turn <= run.turn:
            return None
        if later.command and covers(later.command, run.command, "test"):
            return later
    return None


# A failure that says the program itself is missing: no change to the code fixes it, another way does.
_MISSING_PROGRAM = lazy_pattern(
    r"command not found|is not recognized as (?:an internal|the name)|No such file or directory.*"
    r"(?:exec|spawn)|executable file not found|unrecognized subcommand|unknown command",
    re.IGNORECASE,
)


def _names_file(entry: LedgerEntry, path: str) -> bool:
    """Whether an error names ``path``: as its file, or by path or file name in its words or failing tests."""
    own = entry.file.lstrip("./") if entry.file else None
    if own and (path == own or path.endswith("/" + own) or own.endswith("/" + path)):
        return True
    text = " ".join([entry.message, entry.detail or "", *entry.tests])
    name = path.rsplit("/", 1)[-1]
    # A file name of a few letters ("a.go", "Makefile") is named only with its directory.
    wanted = path if len(name) < 6 or "." not in name else name
    return _stands_alone(wanted, text)


def _word_character(character: str) -> bool:
    return character.isalnum() or character == "_"  # what ``\w`` matches in a str pattern


def _stands_alone(wanted: str, text: str) -> bool:
    """Whether ``wanted`` is in ``text`` with no word character, ``.`` or ``-`` before it, none or ``-`` after.

    What the pattern ``(?<![\\w.-])WANTED(?![\\w-])`` finds, without compiling a pattern per
    path: a long session asks this of thousands of paths, more than ``re`` keeps compiled.
    """
    start = text.find(wanted)
    while start >= 0:
        end = start + len(wanted)
        before = text[start - 1] if start else ""
        after = text[end] if end < len(text) else ""
        if not (before and (_word_character(before) or before in ".-")) and not (
            after and (_word_character(after) or after == "-")
        ):
            return True
        start = text.find(wanted, start + 1)
    return False


def _error_report(
    entry: LedgerEntry, symbols: dict[str, str], fixed_by: list[str] | None = None
) -> ErrorReport:
    """A ledger entry as the ``errors --json`` contract shows it (symbol from the tracker when the output had none)."""
    evidence = [
        Evidence(
            turn=entry.first_turn,
            call_id=entry.first_call_id,
            tool=entry.tool,
            command=entry.command,
            shows="showed it first",
        )
    ]
    if entry.last_call_id is not None and entry.last_call_id != entry.first_call_id:
        evidence.append(
            Evidence(turn=entry.last_turn, call_id=entry.last_call_id, shows="showed it last")
        )
    if entry.resolved and entry.resolved_turn is not None:
        evidence.append(
            Evidence(
                turn=entry.resolved_turn,
                command=entry.resolved_by,
                shows=entry.resolution or "resolved it",
            )
        )
    worked_around = (
        not entry.resolved
        and entry.went_on is not None
        and (
            not checks_in(entry.command or "") or _MISSING_PROGRAM.search(entry.message) is not None
        )
    )
    seen = (entry.pre_existing is None and not entry.resolved) or (
        entry.resolution in _SEEN_RESOLUTIONS
    )
    return ErrorReport(
        message=entry.message,
        detail=entry.detail,
        kind=entry.kind,
        file=entry.file,
        line=entry.line,
        symbol=entry.symbol or symbols.get(entry.signature),
        code=entry.code,
        tool=entry.tool,
        first_turn=entry.first_turn,
        last_turn=entry.last_turn,
        occurrences=entry.occurrences,
        resolved=entry.resolved,
        resolved_turn=entry.resolved_turn,
        resolved_by=entry.resolved_by,
        resolution=entry.resolution,
        fixed_by=fixed_by or [],
        command=entry.command,
        tests=list(entry.tests),
        pre_existing=entry.pre_existing,
        seen_turns=list(entry.seen_turns),
        signature=entry.signature,
        went_on=entry.went_on if worked_around else None,
        went_on_turn=entry.went_on_turn if worked_around else None,
        certainty="seen" if seen else "inferred",
        evidence=tuple(evidence),
    )


def _diff_lines(text: str) -> list[str]:
    """Lines for :func:`difflib.unified_diff`, marking a missing final newline as git does."""
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n\\ No newline at end of file\n"
    return lines


# A diff matches every line when it can afford to: difflib's default takes a line that fills more
# than 1% of a file of 200 lines or more (`}`, a blank line) as junk that cannot anchor a match, so
# an insertion before a file's last `}` read as that `}` removed and added again (+1/-1 on the
# counts where git showed none). Matching every line costs about the square of how often the
# commonest line repeats (5,000 equal lines: 40 s), so past these bounds the default is kept.
_EXACT_DIFF_LINES = 5000
_EXACT_DIFF_REPEATS = 500


def _unified_diff(before: str, after: str, old_name: str, new_name: str) -> str:
    if before == after:
        return ""
    old, new = _diff_lines(before), _diff_lines(after)
    exact = (
        max(len(old), len(new)) <= _EXACT_DIFF_LINES
        and max(Counter(old + new).values(), default=0) <= 2 * _EXACT_DIFF_REPEATS
    )
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=not exact)
    out = [f"--- {old_name}\n", f"+++ {new_name}\n"]
    for group in matcher.get_grouped_opcodes(3):
        first, last = group[0], group[-1]
        out.append(f"@@ -{_hunk_range(first[1], last[2])} +{_hunk_range(first[3], last[4])} @@\n")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out += [" " + line for line in old[i1:i2]]
                continue
            out += ["-" + line for line in old[i1:i2]]
            out += ["+" + line for line in new[j1:j2]]
    return "".join(out)


# The most lines a minimal count looks through: Myers' search costs about the square of the edits.
_MAX_MINIMAL_EDITS = 400


def _fewest_edits(old: list[str], new: list[str], bound: int) -> int | None:
    """The fewest lines to remove and add to turn ``old`` into ``new`` (Myers), or None past ``bound``.

    The diff above is difflib's: it anchors on the longest common run first, which can cost lines
    a shortest edit would keep (+137/-257 where git says +131/-251).  Counts are git's.
    """
    n, m = len(old), len(new)
    furthest = {1: 0}  # per diagonal k = x - y, the furthest x reached
    for edits in range(bound + 1):
        for k in range(-edits, edits + 1, 2):
            if k == -edits or (k != edits and furthest[k - 1] < furthest[k + 1]):
                x = furthest[k + 1]  # a line added
            else:
                x = furthest[k - 1] + 1  # a line removed
            y = x - k
            while x < n and y < m and old[x] == new[y]:
                x, y = x + 1, y + 1
            furthest[k] = x
            if x >= n and y >= m:
                return edits
    return None


def _hunk_range(start: int, stop: int) -> str:
    """A hunk header's range as :func:`difflib.unified_diff` writes it (1-based; an empty range names the line before)."""
    length = stop - start
    beginning = start + 1
    if length == 1:
        return f"{beginning}"
    if not length:
        beginning -= 1
    return f"{beginning},{length}"


class ArtifactIndex:
    """The file-state graph and the queries over it."""

    def __init__(
        self,
        graph: Any = None,  # an ArtifactGraph, else any multigraph of networkx's interface, copied
        session: SessionState | None = None,
        ledger: ErrorLedger | None = None,
        files: Iterable[FileState] = (),
    ) -> None:
        if graph is None:
            graph = ArtifactGraph()
        elif not isinstance(graph, ArtifactGraph):
            graph = ArtifactGraph(graph)
        self._graph: ArtifactGraph = graph
        self._pending: deque[Callable[[], None]] = deque()
        self.ledger = ledger if ledger is not None else ErrorLedger()
        self.session: SessionState = session if session is not None else SessionState()
        # Each file's state by its key, in the order first touched (its graph node is ``file:<key>``).
        self._files: dict[str, FileState] = {state.path: state for state in files}
        # Keys by their case-folded spelling, for a session on a case-insensitive file system.
        self._folded: dict[str, str] = {}
        # Per symbol node: its edges in, first sequence number, net change and turns (see remember_symbols).
        self._symbol_memory: (
            dict[str, tuple[int, int, NetChange | None, tuple[int, ...]]] | None
        ) = None
        # Per file key: the original and content its differing definitions were worked out for,
        # and those definitions (see _net_modified); kept with the index when it is pickled.
        self._net_memory: dict[str, tuple[str, str, frozenset[tuple[str, str, str | None]]]] = {}
        # Per file key: the content whose definitions' names were found, and those names (see
        # _contradicted_now).
        self._names_memory: dict[str, tuple[str, frozenset[tuple[str, str | None]] | None]] = {}
        # Per file key: the count of nodes with an edge into it, and its last change (see last_change).
        self._last_change_memory: dict[str, tuple[int, int]] = {}
        # Each file key's place in the order first touched, for the keys counted so far (see
        # first_touch_ranks): files are only ever added, so the places already counted hold.
        self._first_touch_ranks: dict[str, int] = {}
        # What the work state keeps from one complete `git status` to the next, so that each looks
        # only at the files whose answer may have moved (see work_state); None until one status
        # was looked at over every file.
        self.unlisted_memory: UnlistedMemory | None = None

    # -- the graph and the work deferred on it -------------------------------------
    @property
    def graph(self) -> ArtifactGraph:
        """The whole graph, with every deferred piece of symbol work done first (see :meth:`defer`)."""
        self.settle()
        return self._graph

    @property
    def fed_graph(self) -> ArtifactGraph:
        """The graph as fed so far, without waiting for deferred work.

        Its file, operation, turn, decision and error nodes are current; the
        symbol nodes and the edges to them may still be owed.  The tracker
        works on this graph; queries of files and operations read it too.
        """
        return self._graph

    def defer(self, work: Callable[[], None]) -> None:
        """Do ``work`` on the graph when its symbols are next asked for, in the order deferred.

        Finding the definitions a read showed or a change touched means
        parsing the file with tree-sitter, the largest part of indexing, and
        ``files`` never needs it.  The work only adds symbol nodes and the
        edges to them, reads nothing but those and what it was given, and
        runs in the order it was deferred: the graph it leaves is the one
        doing it at once would have left.
        """
        self._pending.append(work)

    def settle(self) -> None:
        """Do the deferred work now, letting go of each piece (and the texts it holds) once done."""
        pending = self._pending
        while pending:
            pending.popleft()()

    # -- identity -------------------------------------------------------------
    @property
    def root(self) -> str | None:
        return self.session.root or None

    @property
    def format(self) -> str | None:
        return self.session.format or None

    # -- files ----------------------------------------------------------------
    def same_file_key(self, key: str) -> str:
        """The key of the file ``key`` names: on a case-insensitive file system, the first spelling seen.

        macOS (a root under ``/Users/``) and Windows (a drive letter) fold
        case by default: ``src/EntireCommand.ts`` and ``src/entireCommand.ts``
        are one file there, and two anywhere else.
        """
        if not case_insensitive(self.root):
            return key
        folded = self._folded
        if len(folded) < len(self._files):
            for known in self._files:
                folded.setdefault(known.lower(), known)
        return folded.setdefault(key.lower(), key)

    def file_state(self, key: str) -> FileState | None:
        """The state of the file ``key`` (its key, not a displayed path: see :meth:`find_file`)."""
        return self._files.get(key)

    def file_states(self) -> Iterator[FileState]:
        """Every file's state, in the order first touched."""
        return iter(self._files.values())

    def file_count(self) -> int:
        """How many files the session has touched."""
        return len(self._files)

    def first_touch_ranks(self) -> Mapping[str, int]:
        """Each file key's place in the order first touched (as :meth:`file_states` gives them).

        Asked at each complete `git status` that notes several files at once: counting only the
        files added since the last question keeps a long session's statuses from each walking
        every file's state.
        """
        ranks = self._first_touch_ranks
        counted = len(ranks)
        if counted < len(self._files):
            ranks.update(
                (key, rank) for rank, key in enumerate(islice(self._files, counted, None), counted)
            )
        return ranks

    def add_file(self, state: FileState) -> FileState:
        """A file seen for the first time: its state, and its node in the graph."""
        self._files[state.path] = state
        self._graph.add_node(f"file:{state.path}", kind="file", path=state.path)
        return state

    def files_under(self, directory: str) -> Iterator[FileState]:
        """The files whose key lies under ``directory`` (no trailing slash), in the order first touched."""
        states = self._files
        for _, data in self._graph.files_under(directory):
            yield states[cast(str, data["path"])]  # a file node's key, set when it is added

    # -- nodes ----------------------------------------------------------------
    @overload
    def nodes_of_kind(self, kind: Literal["file"]) -> Iterator[tuple[str, FileNode]]: ...
    @overload
    def nodes_of_kind(self, kind: Literal["operation"]) -> Iterator[tuple[str, OperationNode]]: ...
    @overload
    def nodes_of_kind(self, kind: Literal["turn"]) -> Iterator[tuple[str, TurnNode]]: ...
    @overload
    def nodes_of_kind(self, kind: Literal["symbol"]) -> Iterator[tuple[str, SymbolNode]]: ...
    @overload
    def nodes_of_kind(self, kind: Literal["error"]) -> Iterator[tuple[str, ErrorNode]]: ...
    @overload
    def nodes_of_kind(self, kind: Literal["decision"]) -> Iterator[tuple[str, DecisionNode]]: ...
    def nodes_of_kind(self, kind: NodeKind) -> Iterator[tuple[str, Any]]:
        """``(node, attributes)`` of every node of ``kind``, in the order they were added.

        The attributes are typed by kind (:mod:`artifact_index.trail.nodes`): what the
        tracker and the annotations put in a node of that kind.
        """
        return (self.graph if kind == "symbol" else self._graph).nodes_of_kind(kind)

    def operations_on(self, key: str) -> list[OperationOnFile]:
        """Operations that touched file ``key``, in order; ``role`` is ``"dest"`` where it was a move's or copy's destination."""
        return [
            cast(OperationOnFile, {**op, "role": role})
            for op, role in self._operations_with_roles(key)
        ]

    def _operations_with_roles(self, key: str) -> list[tuple[OperationNode, str | None]]:
        """:meth:`operations_on` as each operation's attributes (as kept: read, never write) and its role.

        For the queries that ask it of every file: copying each operation's
        attributes to add the role cost more than the rest of their work.
        """
        nodes = self._graph.attributes
        ops = [
            (cast(OperationNode, nodes[op]), edge.get("role"))
            for op, keyed in self._graph.keyed_edges_into.get(f"file:{key}", {}).items()
            if nodes[op].get("kind") == "operation"
            for edge in keyed.values()
        ]
        return sorted(ops, key=lambda op_role: int(op_role[0]["seq"]))

    def _changes_to(self, key: str) -> list[OperationNode]:
        """The operations that changed file ``key`` and did not fail, in no order (their attributes as kept: read, never write)."""
        nodes = self._graph.attributes
        changes: list[OperationNode] = []
        for op, keyed in self._graph.keyed_edges_into.get(f"file:{key}", {}).items():
            data = cast(OperationNode, nodes[op])
            if (
                data.get("kind") == "operation"
                and data["action"] not in ("read", "unknown")
                and data["result"] != "failure"
            ):
                changes.extend(data for _ in keyed)  # one per edge, as operations_on has them
        return changes

    def last_change(self, key: str) -> int:
        """The sequence number of the last operation that changed the file ``key`` (0: none did)."""
        # Asked for every changed file at each complete `git status`: remembered per file while the
        # count of nodes with an edge into it holds (operations never change once added, and
        # none is taken out), the question costs a long session what its new operations add.
        into = self._graph.keyed_edges_into.get(f"file:{key}")
        if not into:
            return 0
        known = self._last_change_memory.get(key)
        if known is not None and known[0] == len(into):
            return known[1]
        last = max((int(op["seq"]) for op in self._changes_to(key)), default=0)
        self._last_change_memory[key] = (len(into), last)
        return last

    def change_turns(self, key: str) -> tuple[int, list[int]]:
        """The last change of the file ``key`` and the turns of its changes (in order).

        A ``git stash`` and the ``git stash pop`` that brought the file back are a round trip: its
        content is what it was before them, so neither counts (a check run before the stash saw it).
        What a ``git merge`` or ``git pull`` brought in is not the session's change either: a file
        it alone changed has none (seq 0, no turns).
        """
        changes = self._own_changes(key)
        # A change a later `git status` credited to an earlier command happened at that command.
        return max((op.get("cause_seq", op["seq"]) for op in changes), default=0), sorted(
            {int(op["turn"]) for op in changes}
        )

    def last_change_action(self, key: str) -> str | None:
        """The action of the session's last change of the file ``key`` (``delete``, ``edit``...), or None."""
        changes = self._own_changes(key)
        return str(changes[-1]["action"]) if changes else None

    def last_change_command(self, key: str) -> str | None:
        """The shell command of the session's last change of the file ``key`` (None: a file tool's, or none)."""
        changes = self._own_changes(key)
        return changes[-1].get("command") if changes else None

    def _own_changes(self, key: str) -> list[OperationNode]:
        """The session's own changes of ``key`` in order (see :meth:`change_turns`)."""
        changes: list[OperationNode] = []
        for op in sorted(self._changes_to(key), key=lambda op: int(op["seq"])):
            if (op.get("detail") or "").startswith(BROUGHT_IN):
                continue  # the merged commits' content, no change of the session's own
            if (
                op["action"] == "unstash"
                and changes
                and changes[-1]["action"] == "restore"
                and is_stash(changes[-1].get("detail"))
            ):
                changes.pop()
                continue
            changes.append(op)
        return changes

    # -- status ---------------------------------------------------------------
    def _entry(self, state: FileState, waiting: dict[str, list[ToolCall]]) -> FileEntry:
        raw = self._operations_with_roles(state.path)
        ops = [
            OperationEntry(
                turn=op["turn"],
                action=op["action"],
                tool=op["tool"],
                source=op["source"],
                result=op["result"],
                failure=op.get("failure"),
                command=op.get("command"),
                detail=op.get("detail"),
                dest=op.get("dest"),
                sidechain=op.get("sidechain"),
                call_id=op.get("call_id"),
                seq=op["seq"],
                copied_away=op["action"] == "copy" and role != "dest",
            )
            for op, role in raw
        ]
        status = state.status
        submission = self.session.submission
        submitted = submission.files if submission is not None else None
        # Copying a file away leaves it as it was: no ground for its status.
        grounds = [entry for entry in ops if not entry.copied_away]
        certainty, evidence = self._file_claim(state, grounds, waiting)
        return FileEntry(
            path=state.shown,
            status=status,
            sources=sorted(state.sources),
            renamed_from=state.renamed_from,
            ops=ops,
            submitted=state.path in submitted
            if submitted is not None and status in CHANGED_STATUSES
            else None,
            outside_workspace=self.is_outside(state.path),
            certainty=certainty,
            evidence=evidence,
        )

    @staticmethod
    def _file_claim(
        state: FileState, ops: list[OperationEntry], waiting: dict[str, list[ToolCall]]
    ) -> tuple[Certainty, tuple[Evidence, ...]]:
        """How sure a file's status is, and the operations (of ``ops``) it rests on.

        A changed file rests on its changes, a file only read on its first
        read; a call naming the file whose result is not recorded leaves
        its status unsure.
        """
        done = [op for op in ops if op.result != "failure"]
        changes = [op for op in done if op.action not in ("read", "unknown")]
        grounds = changes or done[:1] or ops[:1]
        evidence = [
            Evidence(
                turn=op.turn,
                call_id=op.call_id,
                tool=op.tool,
                command=op.command,
                shows=f"{op.action}, {op.result}",
            )
            for op in grounds
        ]
        # A read still waiting for its output cannot change the file, and a call whose result is
        # missing leaves no doubt about a file read whole after it: neither unsettles what was seen.
        pending = [
            call
            for call in waiting.get(state.path, [])
            if not (changes and all(op.action == "read" for op in call.operations))
            and not any(
                op.action == "read" and op.result == "success" and op.turn > call.turn
                for op in done
            )
        ]
        evidence += [
            Evidence(
                turn=call.turn, call_id=call.call_id, tool=call.tool, shows="no result recorded"
            )
            for call in pending
        ]
        certainty: Certainty = "seen"
        # A read whose result the transcript does not hold (it ends before the output) is not known to
        # have happened, as a call still waiting for its result is not.
        if pending or (done and not changes and all(op.result == "unknown" for op in done)):
            certainty = "unrecorded"
        elif any(op.source == "shell" or op.result == "unknown" for op in grounds):
            certainty = "inferred"
        return certainty, tuple(evidence)

    def _waiting(self) -> dict[str, list[ToolCall]]:
        """The calls still waiting for a result, by the key of each file they name."""
        named: dict[str, list[ToolCall]] = {}
        session = self.session
        for pending in session.pending.values():
            for op in pending.call.operations:
                for path in (op.path, op.dest):
                    if path:
                        key = file_key(path, op.cwd or pending.cwd or session.cwd, session.root)
                        if key in pending.not_applied_to:
                            continue  # a later edit showed it changed nothing there
                        calls = named.setdefault(key, [])
                        if pending.call not in calls:
                            calls.append(pending.call)
        return named

    def pending_calls(self) -> list[PendingCallReport]:
        """The calls issued whose result is not recorded, in the order they were issued."""
        session = self.session
        found = []
        for pending in session.pending.values():
            call = pending.call
            paths: list[str] = []
            command = None
            read_after: int | None = None
            for op in call.operations:
                command = command or op.command
                for path in (op.path, op.dest):
                    if path:
                        key = file_key(path, op.cwd or pending.cwd or session.cwd, session.root)
                        state = self._files.get(key)
                        shown = state.shown if state is not None else key
                        if shown not in paths:
                            paths.append(shown)
                        read_after = read_after or next(
                            (
                                int(op["turn"])
                                for op in self.operations_on(key)
                                if op["action"] == "read"
                                and op["result"] == "success"
                                and int(op["turn"]) > call.turn
                            ),
                            None,
                        )
            if not command and isinstance(call.arguments, dict):
                given = call.arguments.get("command") or call.arguments.get("cmd")
                command = given if isinstance(given, str) else None
            found.append(
                PendingCallReport(
                    turn=call.turn,
                    call_id=call.call_id,
                    tool=call.tool,
                    command=command,
                    paths=paths,
                    read_after=read_after,
                    certainty="unrecorded",
                    evidence=(
                        Evidence(
                            turn=call.turn,
                            call_id=call.call_id,
                            tool=call.tool,
                            command=command,
                            shows="issued, no result recorded",
                        ),
                    ),
                )
            )
        return sorted(found, key=lambda p: p.turn)

    def is_outside(self, key: str) -> bool:
        """Whether a file key lies outside the workspace.

        Keys under the root are relative, so an absolute key is outside when
        the root is known; without a root only temporary directories are
        known to be outside.
        """
        if not is_absolute(key):
            return False
        return bool(self.root) or any(key == r or key.startswith(r + "/") for r in TEMP_ROOTS)

    def files(self) -> list[FileEntry]:
        """Every file the transcript touched, in order of first touch.

        A path that was only read and is a directory (a tool listed it, or
        other files lie under it) is no file, and is left out.
        """
        waiting = self._waiting()
        return [self._entry(state, waiting) for state in self._listed()]

    def file_entry(self, state: FileState, waiting: dict[str, list[ToolCall]]) -> FileEntry:
        """The entry :meth:`files` lists for ``state``; ``waiting``: :meth:`waiting_calls`."""
        return self._entry(state, waiting)

    def operations_spelled(self, key: str) -> bytes:
        """The operations with an edge into file ``key`` and those edges, as kept, in bytes: what its entry lists.

        Read off the graph without building the entry (see
        :func:`~artifact_index.trail.file_reports.file_reports`), in the
        graph's order.  Spelled by :mod:`marshal`'s version 2, which writes
        values alone (no reference or interning marks, which differ from one
        process to the next), in a third less time than their ``repr``.
        """
        nodes = self._graph.attributes
        spelled: list[object] = []
        for node, keyed in self._graph.keyed_edges_into.get(f"file:{key}", {}).items():
            data = nodes[node]
            if data.get("kind") == "operation":  # the entry lists its operations alone
                spelled.append(data)
                spelled.append(list(keyed.values()))
        try:
            return marshal.dumps(spelled, 2)
        except ValueError:  # a value marshal cannot write (a caller's own object)
            return repr(spelled).encode("utf-8", "surrogatepass")

    def waiting_calls(self) -> dict[str, list[ToolCall]]:
        """The calls still waiting for a result, by the key of each file they name."""
        return self._waiting()

    def listed_files(self) -> list[FileState]:
        """The states of the files :meth:`files` lists, in its order."""
        return self._listed()

    def file_turns(self) -> list[tuple[FileState, list[int]]]:
        """Each file :meth:`files` lists, as its state and the turns of its operations (in order).

        What a one-line account of a file needs (its shown path, status,
        sources and first and last turn), without building its entry.
        """
        return [(state, self.operation_turns(state.path)) for state in self._listed()]

    def file_edges(self) -> list[tuple[FileState, int]]:
        """Each file :meth:`files` lists, as its state and the count of edges into its node.

        Every operation on a file adds an edge into its node, and none is
        ever taken out: an account made of a file's operations (see
        :meth:`operation_turns`) is still right while its count stays the
        same.  A session store saving a followed session at each change
        makes again only the accounts of the files whose count moved.
        """
        into = self._graph.keyed_edges_into
        edges: list[tuple[FileState, int]] = []
        for state in self._listed():
            keyed = into.get(f"file:{state.path}")
            edges.append((state, sum(map(len, keyed.values())) if keyed else 0))
        return edges

    def operation_turns(self, key: str) -> list[int]:
        """The turns of the operations on file ``key``, in order: one per edge, as :meth:`operations_on` has them.

        Read off the graph without copying each operation's attributes.
        """
        nodes = self._graph.attributes
        timed: list[tuple[int, int]] = []
        for op, keyed in self._graph.keyed_edges_into.get(f"file:{key}", {}).items():
            data = nodes[op]
            if data.get("kind") == "operation":
                # An operation node's sequence number and turn are ints, set when it is added.
                seq, turn = cast(int, data["seq"]), cast(int, data["turn"])
                timed.extend((seq, turn) for _ in keyed)
        timed.sort(key=lambda seq_turn: seq_turn[0])
        return [turn for _, turn in timed]

    def _listed(self) -> list[FileState]:
        """The states of the files :meth:`files` lists, in order of first touch."""
        states = sorted(self._files.values(), key=lambda state: state.first_seq)
        directories = self._directories()
        return [
            state for state in states if not (state.path in directories and state.status == "read")
        ]

    def _directories(self) -> set[str]:
        """Keys known to be directories: listed by a read tool, or holding another file."""
        found = {"."}  # the workspace root itself
        for key in self._files:
            parent = key
            while "/" in parent.rstrip("/"):
                parent = parent.rstrip("/").rsplit("/", 1)[0]
                if not parent or parent in found:
                    break  # its ancestors are in already
                found.add(parent)
        return found | set(self.session.listed_directories)

    def seen_not_made(self) -> list[SeenChangeReport]:
        """Changes the working tree showed that no call of the session could have made.

        One entry per file the session did not change itself, in the order
        first seen; never among the session's changed files.
        """
        by_path: dict[str, list[SeenChange]] = {}
        for seen in self.session.seen_not_made:
            file = self.file_state(seen.path)
            if file is not None and file.status in CHANGED_STATUSES:
                continue
            by_path.setdefault(seen.path, []).append(seen)
        return [
            SeenChangeReport(
                path=path,
                turns=sorted({seen.turn for seen in seens}),
                change=seens[-1].change,
                evidence=seens[-1].evidence,
            )
            for path, seens in by_path.items()
        ]

    def submission(self) -> SubmissionReport | None:
        """How the run ended when its harness took a submission (mini-swe-agent), else None."""
        record = self.session.submission
        if record is None:
            return None
        keys = record.files
        files = (
            None
            if keys is None
            else [state.shown if (state := self._files.get(k)) else k for k in keys]
        )
        return SubmissionReport(
            turn=record.turn,
            command=record.command,
            exit_status=record.exit_status,
            files=files,
            unresolved=record.unresolved,
        )

    def changed_files(self) -> list[FileEntry]:
        """Files created, modified or deleted at the end (reverted ones excluded)."""
        return [f for f in self.files() if f.status in CHANGED_STATUSES]

    def changed_paths(self) -> list[tuple[str, FileStatus]]:
        """The path and status of each file :meth:`changed_files` lists, in its order.

        Read off the file states without building any entry: a hook that must
        answer within its deadline names the changed files of a session of
        thousands of files without assembling every file's operations.
        """
        states = sorted(self._files.values(), key=lambda state: state.first_seq)
        return [(state.shown, state.status) for state in states if state.status in CHANGED_STATUSES]

    def find_file(self, path: str) -> FileState | None:
        """The state of a file named by its key or its displayed path, however spelled.

        ``./mix.exs``, ``mix.exs`` and ``/abs/root/mix.exs`` name one file.
        """
        named = self._files.get(path)
        if named is not None:
            return named
        named = self._files.get(file_key(path, None, self.root))
        if named is not None:
            return named
        for state in self._files.values():
            if state.display == path:
                return state
        return None

    def find_path(self, path: str) -> str | None:
        """The displayed path of the file ``path`` names, as ``where`` matches across sessions.

        ``path`` may be the file's key or displayed path however spelled, or
        the end of its path (``auth.py`` for ``src/auth.py``) when only one
        file's path ends so; None when no file matches.  When several do,
        :class:`~artifact_index.exceptions.AmbiguousPath` names them.
        """
        named = self.find_file(path)
        if named is not None:
            return named.shown
        tail = "/" + path.replace("\\", "/").removeprefix("./").lstrip("/")
        matches = sorted(
            {
                state.shown
                for state in self._files.values()
                if state.shown.replace("\\", "/").endswith(tail)
            }
        )
        if len(matches) > 1:
            listed = ", ".join(matches[:8]) + (", …" if len(matches) > 8 else "")
            raise AmbiguousPath(
                f"{path} names {len(matches)} files ({listed}): give more of its path"
            )
        return matches[0] if matches else None

    def history(self, path: str) -> list[OperationEntry]:
        """The timeline of one file, accepting its key or its displayed path."""
        state = self.find_file(path)
        return self._entry(state, {}).ops if state is not None else []

    def net_diff(self, path: str) -> str | None:
        """The unified diff of a changed file from before the session to the end of it.

        Known only when both sides are: the content before the first change
        (``original``; empty for a created file) and the content at the end
        (empty for a deleted file).  ``None`` when either side is unknown or
        the file was never changed; ``""`` when the change was undone.
        """
        state = self.find_file(path)
        if state is None or not state.changed:
            return None
        before = "" if state.existed_before is False else state.original
        after = "" if state.exists is False else state.content
        if before is None or after is None:
            return None
        shown = state.shown
        old_name = "/dev/null" if state.existed_before is False else f"a/{shown.lstrip('/')}"
        new_name = "/dev/null" if state.exists is False else f"b/{shown.lstrip('/')}"
        return _unified_diff(before, after, old_name, new_name)

    def net_line_counts(self, path: str, diff: str | None = None) -> tuple[int | None, int | None]:
        """Lines added and removed by a file's net change, as few as any diff gives (git's counts).

        ``diff``: its :meth:`net_diff`, when the caller has it. ``(None, None)`` when that is not known.
        """
        diff = self.net_diff(path) if diff is None else diff
        if diff is None:
            return None, None
        body = diff.split("\n@@", 1)[1].splitlines()[1:] if "\n@@" in diff else []
        added = sum(1 for line in body if line.startswith("+"))
        removed = sum(1 for line in body if line.startswith("-"))
        state = self.find_file(path)
        if added and removed and state is not None:
            before = "" if state.existed_before is False else state.original or ""
            after = "" if state.exists is False else state.content or ""
            old, new = _diff_lines(before), _diff_lines(after)
            fewest = _fewest_edits(old, new, min(added + removed, _MAX_MINIMAL_EDITS))
            if fewest is not None:
                grown = len(new) - len(old)
                added, removed = (fewest + grown) // 2, (fewest - grown) // 2
        return added, removed

    def content(self, path: str) -> str | None:
        """A file's whole content at the end of the transcript, when the transcript showed or implied it all."""
        state = self.find_file(path)
        if state is None or state.exists is False:
            return None
        return state.content

    def touched_in_turn(self, turn: int) -> list[tuple[str, OperationEntry]]:
        """``(path, operation)`` pairs of the operations performed in ``turn``."""
        node = f"turn:{turn}"
        if node not in self._graph:
            return []
        out: list[tuple[str, OperationEntry]] = []
        for _, op in self._graph.out_edges(node):
            for _, target, edge in self._graph.out_edges(op, data=True):
                if edge.get("kind") == "touched" and edge.get("role") != "dest":
                    state = self._files[self._graph.nodes[target]["path"]]
                    entry = next(e for e in self._entry(state, {}).ops if e.turn == turn)
                    out.append((state.path, entry))
        return out

    def unknown_effects(self) -> list[UnknownEffect]:
        """Effects the tracker could not attribute to a file (with their command); a failed call had none."""
        found = sorted(
            (
                d
                for _, d in self.nodes_of_kind("operation")
                if d.get("action") == "unknown" and d.get("result") != "failure"
            ),
            key=lambda d: int(d["seq"]),
        )
        return [
            UnknownEffect(
                turn=d["turn"], tool=d["tool"], command=d.get("command"), detail=d.get("detail")
            )
            for d in found
        ]

    def unnamed_reads(self) -> list[UnknownEffect]:
        """Reads of files known only at run time (a loop over a glob, `xargs cat`), with their command.

        The trail cannot list those files: with any of these, the files it lists as read are
        some of the files read, not all of them.
        """
        found = sorted(
            (
                d
                for _, d in self.nodes_of_kind("operation")
                if d.get("action") == "read"
                and str(d.get("detail") or "").startswith(UNNAMED_READ)
                and d.get("result") != "failure"
            ),
            key=lambda d: int(d["seq"]),
        )
        return [
            UnknownEffect(
                turn=d["turn"], tool=d["tool"], command=d.get("command"), detail=d.get("detail")
            )
            for d in found
        ]

    def remember_symbols(self) -> None:
        """Keep each symbol's net change from one :meth:`symbols` to the next, with the index.

        For an index that keeps growing and is asked again and again (a
        followed transcript, kept between hook runs): a symbol no edge was
        added to since is not worked out again, nor are its edges counted
        (the graph notes the nodes edges are added into, see
        :meth:`~artifact_index.trail.graph.ArtifactGraph.follow_growth`).
        That is sound because the graph only grows: a symbol node's
        attributes, an operation's sequence number and turn, and an edge's
        attributes never change once added, and no node or edge is taken
        out.  A memory taken with the index (pickled) must be of an index
        this one grew from; the end of a file
        (:meth:`LiveTranscript.finish <artifact_index.live.live_transcript.LiveTranscript.finish>`)
        adds what a later line may contradict, so what is kept of a
        followed transcript is taken before it.
        """
        if self._symbol_memory is None:
            self._symbol_memory = {}
            self._graph.follow_growth()

    def symbols(self) -> dict[str, list[SymbolEntry]]:
        """Per file (displayed path), the symbols changed or read, in order of first touch."""
        by_file: dict[str, list[tuple[int, SymbolEntry]]] = {}
        graph = self.graph
        # The graph's own dictionaries: this visits every symbol and each edge into it.
        attributes, into = graph.attributes, graph.keyed_edges_into
        memory = self._symbol_memory
        # The symbols an edge was added into since the memory was last brought up to date; when
        # the graph did not note them, a symbol's memory holds while its count of edges does.
        grown = graph.take_growth() if memory is not None else None
        shown: dict[str, str] = {}
        for node, data in graph.nodes_of_kind("symbol"):
            known = None
            if memory is not None:
                if grown is None:
                    known = memory.get(node)
                    edges = sum(len(keyed) for keyed in into[node].values())
                    if known is not None and known[0] != edges:
                        known = None
                elif node not in grown:
                    known = memory.get(node)
            if known is not None:
                _, first, change, turns = known
            else:
                incoming = into[node]
                touches = sorted(
                    (
                        cast(int, attributes[op]["seq"]),
                        cast(int, attributes[op]["turn"]),
                        str(edge["change"]),
                    )
                    for op, keyed in incoming.items()
                    for edge in keyed.values()
                    if edge.get("kind") == "changed"
                )
                first = touches[0][0] if touches else 0
                change = _net_change([c for _, _, c in touches])
                turns = tuple(sorted({turn for _, turn, _ in touches}))
                if memory is not None:
                    edges = sum(len(keyed) for keyed in incoming.values())
                    memory[node] = (edges, first, change, turns)
            if change is None:
                continue
            key = cast(str, data["path"])
            if change == "modified" and not self._net_modified(key, data):
                continue
            if change in ("added", "removed") and self._contradicted_now(key, data, change):
                continue
            path = shown.get(key)
            if path is None:
                path = shown[key] = self._files[key].shown
            entry = SymbolEntry(
                name=data["name"],
                kind=data["symbol_kind"],
                container=data["container"],
                change=change,
                turns=list(turns),
            )
            by_file.setdefault(path, []).append((first, entry))
        return {
            path: [e for _, e in sorted(entries, key=lambda i: i[0])]
            for path, entries in by_file.items()
        }

    def _contradicted_now(self, key: str, data: dict[str, object], change: str) -> bool:
        """Whether file ``key``'s content now says otherwise: an added definition it lacks, a removed one it has.

        Changes are read edit by edit; one the trail does not read into (a `git stash` of the
        file, a checkout) can take an added definition away again or bring a removed one back.
        Known only when the content now is.  An added definition is taken away only when no
        definition of its name is left (an edit's piece parsed on its own may miss its
        container); a removed one is there again when one of its name is, in its container
        when it has one (``Selection.mounted`` is not ``Highlighter.mounted``).
        """
        state = self._files.get(key)
        language = language_for_path(key)
        if state is None or state.content is None or language is None:
            return False
        known = self._names_memory.get(key)
        if known is None or known[0] != state.content:
            # A content too large or deep to parse shows no definition: it says nothing.
            found = definitions(state.content, language) if usable(state.content) else None
            held = (
                frozenset((d.name, d.container) for d in found)
                | frozenset((d.name, None) for d in found)
                if found is not None
                else None
            )
            known = self._names_memory[key] = (state.content, held)
        if known[1] is None:
            return False
        name = str(data["name"])
        if change == "added":
            return (name, None) not in known[1]
        return (name, cast("str | None", data["container"])) in known[1]

    def _net_modified(self, key: str, data: dict[str, object]) -> bool:
        """Whether the symbol ``data`` of file ``key`` differs from before the session (True when not known)."""
        state = self._files.get(key)
        if state is None or state.original is None or state.content is None:
            return True
        symbol = (
            str(data["name"]),
            str(data["symbol_kind"]),
            cast("str | None", data["container"]),
        )
        # Parsed once per file and its texts, not once per symbol; kept with a followed
        # transcript's index between hook runs, where parsing both whole contents of every changed
        # file again would cost what the session holds, not what was appended.
        known = self._net_memory.get(key)
        if known is None or known[0] != state.original or known[1] != state.content:
            known = (
                state.original,
                state.content,
                _net_modified(state.original, state.content, key),
            )
            self._net_memory[key] = known
        return symbol in known[2]

    def decisions(self) -> list[Decision]:
        """Candidate decisions, in order."""
        found = sorted(self.nodes_of_kind("decision"), key=lambda item: int(item[0].split(":")[1]))
        return [
            Decision(
                kind=data["decision_kind"],
                text=data["text"],
                turn=data["turn"],
                files=data["files"],
                symbols=data["symbols"],
            )
            for _, data in found
        ]

    def tasks(self) -> list[Task]:
        """The latest task list from the agent's todo / plan tools.

        The main agent's list when it kept one; otherwise the sub-agent list
        updated last.  Each task's claim is its state, as the call that last
        set it said.
        """
        lists = self.session.task_lists
        if "" in lists:
            latest = lists[""]
        else:
            latest = max(
                lists.values(),
                key=lambda tasks: max((t.turn for t in tasks), default=0),
                default=[],
            )
        return [
            task.model_copy(
                update={"evidence": (Evidence(turn=task.turn, shows=f"set {task.status}"),)}
            )
            for task in latest
        ]

    def errors(self) -> list[ErrorReport]:
        """The error ledger: every error seen, with its location, turns, resolution and the files that fixed it."""
        self.settle()  # the symbols errors lie in are found with the others
        symbols = self.session.error_symbols
        # The errors of a long session span many of the same turns: each turn's changes are
        # read off the graph once.
        changes: dict[int, list[str]] = {}
        return [
            _error_report(entry, symbols, self._fixes(entry, changes))
            for entry in self.ledger.errors
        ]

    def failed_runs(self) -> list[FailedRun]:
        """Every failed shell command, as an error or as noise with the reason it does not matter."""
        return list(self.ledger.failed_runs)

    def _fixes(self, entry: Any, changes: dict[int, list[str]] | None = None) -> list[str]:
        """The files changed after an error last appeared and up to the run that resolved it, that the error names.

        The calls of the error's own turn were made before its output was seen;
        those of the resolving turn came with the run that proved the fix.  Only
        a file the error names (its file, or a path or file name in its message,
        detail or failing tests) is said to have fixed it: another file changed
        in between may be unrelated work, and "fixed by" it would be a guess.
        ``changes``: the files each turn changed (see :meth:`_changed_in`), as
        far as known, for a caller that asks of many errors.
        """
        if not entry.resolved or entry.resolved_turn is None:
            return []
        if changes is None:
            changes = {}
        changed: dict[str, None] = {}
        for turn in range(entry.last_turn + 1, entry.resolved_turn + 1):
            found = changes.get(turn)
            if found is None:
                found = changes[turn] = self._changed_in(turn)
            changed.update(dict.fromkeys(found))
        return [p for p in changed if _names_file(entry, p)][:MAX_FIXES]

    def _changed_in(self, turn: int) -> list[str]:
        """The shown paths of the files the operations of ``turn`` changed, in the graph's order."""
        # The graph's own dictionaries (in out_edges' order).
        graph = self._graph
        nodes, out_of = graph.attributes, graph.keyed_edges_out_of
        changed: list[str] = []
        for op in out_of.get(f"turn:{turn}", ()):
            data = nodes[op]
            if (
                data.get("action") in ("read", "unknown", "shell")
                or data.get("result") == "failure"
            ):
                continue
            for target, keyed in out_of[op].items():
                if any(edge.get("kind") == "touched" for edge in keyed.values()):
                    changed.append(self._files[cast(str, nodes[target]["path"])].shown)
        return changed

    def original_error(self) -> ErrorReport | None:
        """The session's first real error, with its current status."""
        original = self.ledger.original
        if original is None:
            return None
        self.settle()
        return _error_report(original, self.session.error_symbols, self._fixes(original))

    def tests(self) -> list[TestReport]:
        """The last result of each test command; its claim is its counts, and what they count.

        A failed run that a later run covering it passed (the whole suite, the
        same file) is marked superseded by that run.
        """
        runs = self.ledger.tests
        passing = _passing_latest_first(runs)
        reports = []
        for t in runs:
            later = _superseding_run(t, passing)
            evidence = [
                Evidence(
                    turn=t.turn,
                    call_id=t.call_id,
                    tool=t.runner,
                    command=t.command,
                    shows=f"{t.passed} passed, {t.failed} failed, {t.skipped} skipped"
                    + "".join(f", {n} {word}" for word, n in t.other)
                    + f" ({t.unit})",
                )
            ]
            if later is not None:
                evidence.append(
                    Evidence(
                        turn=later.turn,
                        call_id=later.call_id,
                        tool=later.runner,
                        command=later.command,
                        shows="a later run covering it passed",
                    )
                )
            reports.append(
                TestReport(
                    command=t.command or t.key,
                    passed=t.passed,
                    failed=t.failed,
                    skipped=t.skipped,
                    failing=list(t.failing),
                    turn=t.turn,
                    unit=t.unit,
                    outcome=t.outcome,
                    passed_shown=t.passed_shown,
                    other=t.other,
                    superseded_by=(later.command or later.key) if later is not None else None,
                    superseded_turn=later.turn if later is not None else None,
                    certainty="inferred" if later is not None else "seen",
                    evidence=tuple(evidence),
                )
            )
        return reports

    def user_messages(self) -> list[UserSaid]:
        """Every message the user typed, in order, with its turn and channel (see :class:`UserMessage`)."""
        return list(self.session.user_messages)

    # -- serialization --------------------------------------------------------
    def to_state(self) -> IndexState:
        """The whole state as JSON-ready data, secrets redacted: a state file is an output like any other."""
        data = self.graph.to_node_link(late_kinds=_DEFERRED_KINDS)
        state: IndexState = redact_json(
            {
                "version": STATE_VERSION,
                "session": self.session.model_dump(mode="json"),
                "files": [file.model_dump(mode="json") for file in self._files.values()],
                "graph": data,
                "ledger": self.ledger.model_dump(mode="json"),
            }
        )
        return state

    def to_json(self) -> str:
        """The whole state as JSON (see :meth:`to_state`)."""
        return json.dumps(self.to_state(), sort_keys=True)

    @classmethod
    def from_state(cls, payload: Any) -> ArtifactIndex:
        """The index :meth:`to_state` saved, by this version or an earlier one.

        :class:`StateError` when ``payload`` is not one.  ``payload`` is
        consumed: the graph is built from its node-link data in place.
        """
        current = upgraded(payload)
        try:
            graph = ArtifactGraph.from_node_link(current["graph"])
            ledger = ErrorLedger.model_validate(current["ledger"])
            session = SessionState.model_validate(current["session"])
            files = [FileState.model_validate(file) for file in current["files"]]
        except (KeyError, TypeError, AttributeError, ValueError, ValidationError) as exc:
            raise StateError(f"saved state is not a valid artifact-index state ({exc})") from exc
        states = {file.path for file in files}
        nodes = {str(data["path"]) for _, data in graph.nodes_of_kind("file")}
        if states != nodes:
            odd = sorted(states ^ nodes)[0]
            raise StateError(
                "saved state is not a valid artifact-index state "
                f"(the file {odd!r} has a state or a graph node, not both)"
            )
        return cls(graph, session, ledger, files)

    @classmethod
    def from_json(cls, text: str) -> ArtifactIndex:
        try:
            payload = json.loads(text)
        except (json.JSONDecodeError, TypeError) as exc:
            raise StateError(f"saved state is not a valid artifact-index state ({exc})") from exc
        return cls.from_state(payload)
