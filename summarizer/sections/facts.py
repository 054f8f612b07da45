"""The facts a summary states exactly, read from the artifact index.

:func:`facts_from_index` is the one place the summarizer reads the index;
everything downstream (index sections, the narrative prompt, the offline
narrative, the consistency check) works on :class:`SessionFacts`.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from artifact_index.trail.index import ArtifactIndex, SymbolEntry
from artifact_index.trail.verification import run_passed, unverified_changes
from artifact_index.trail.work_state import work_state
from summarizer.sections.agent_files import is_agent_own
from summarizer.sections.changes import added_tests, changed_code, changed_lines, definition_notes
from summarizer.sections.reconcile import task_evidence

__all__ = [
    "ActivityFact",
    "AnswerFact",
    "AnsweredQuestion",
    "AttemptFact",
    "ChangedSince",
    "CheckRunFact",
    "CommitFact",
    "DecisionFact",
    "ErrorFact",
    "FileFact",
    "LeftBehindFact",
    "ListedFileFact",
    "ListedItemFact",
    "ListingFact",
    "MessageFact",
    "OtherRepositoryFact",
    "RequestItemFact",
    "SearchFact",
    "SeenItemFact",
    "SessionFacts",
    "StatusFact",
    "TaskFact",
    "TestFact",
    "UncheckedFact",
    "WorkFact",
    "WorkItemFact",
    "facts_from_index",
]


class _Fact(BaseModel):
    model_config = ConfigDict(frozen=True)


class FileFact(_Fact):
    path: str
    status: str
    renamed_from: str | None = None
    sources: list[str]
    turns: list[int]
    changed_turns: list[int] = []  # the turns of its changes (reads left out)
    symbols: list[SymbolEntry]  # changed symbols only (reads are in read_symbols)
    read_symbols: list[SymbolEntry]
    evidence: str | None = None  # the last shell command that changed it, when shell-made
    lines_added: int | None = None
    lines_removed: int | None = None
    # What the change wrote (see summarizer.sections.changes), where the index knows the text:
    signatures: dict[str, str] = {}  # an added definition (by symbol_key) -> its head as written
    docs: dict[
        str, str
    ] = {}  # an added definition -> the first sentence of the doc written with it
    tests_added: list[str] = []  # the tests a test file gained
    first_lines: list[str] = []  # a file without definitions: the headings or first lines it gained
    # The most telling lines written inside each definition it modified, by symbol key ("": places unknown).
    changed_code: dict[str, list[str]] = {}
    # What the agent said its last change did, and when (from the events, for the files of the current thread).
    account: str | None = None
    account_turn: int | None = None


class AttemptFact(_Fact):
    """What the session did between two runs that showed the same error: it did not resolve it."""

    turn: int
    text: str  # the agent's words announcing it, the files it changed, the options the rerun added


class ErrorFact(_Fact):
    message: str
    detail: str | None = None  # the lines that explain it: assertion, expected and actual
    kind: str
    file: str | None = None
    line: int | None = None
    symbol: str | None = None
    first_turn: int
    last_turn: int
    resolved: bool
    resolved_turn: int | None = None
    resolved_by: str | None = None  # the command whose run showed it gone
    resolution: str | None = None  # how that run showed it: "the same check passed", ...
    fixed_by: list[str] = []  # files changed between its last appearance and that run
    command: str | None = None
    pre_existing: str | None = (
        None  # why it is not the session's to fix (it was there before); None when it is
    )
    seen_turns: list[int] = []  # the turns it appeared in (the latest few)
    attempts: list[
        AttemptFact
    ] = []  # what was tried since it first appeared, still open (from the events)


class TestFact(_Fact):
    command: str
    passed: int
    failed: int
    skipped: int
    failing: list[str]
    turn: int


class DecisionFact(_Fact):
    text: str
    kind: str
    turn: int
    files: list[str]
    symbols: list[str]


class TaskFact(_Fact):
    content: str
    status: str
    turn: int
    # For an open task: what the index saw done after the list was last written that the
    # task names ("`refresh` added at turn 52"); None when nothing.
    done_evidence: str | None = None


class MessageFact(_Fact):
    turn: int
    text: str
    channel: str = (
        "prompt"  # prompt, feedback, interjection, queued, command (see UserMessage); interrupt
    )


class AnsweredQuestion(_Fact):
    number: int
    question: str  # the agent's question, by its title and the sentence that asks
    answer: str  # the user's answer, in their words


class AnswerFact(_Fact):
    """The user's reply that answered the agent's numbered questions, each answer beside its question."""

    turn: int
    asked_turn: int
    answers: list[AnsweredQuestion]


class SearchFact(_Fact):
    """A search of the current thread and the places it matched (``path:line``, or paths)."""

    turn: int
    query: str
    places: list[str]
    # The places' files a later call of the agent named (a read, an edit, a command or search over them).
    looked_at: list[str] = []


class LeftBehindFact(_Fact):
    """A file changed before the session switched branches, which the latest ``git status`` no longer lists."""

    path: str
    switch_turn: int
    branch: str  # the branch switched to


class CommitFact(_Fact):
    turn: int
    hash: str
    branch: str
    message: str
    files: list[str] | None  # None: what the commit held could not be worked out
    pushed: bool
    pushed_turn: int | None = None


class OtherRepositoryFact(_Fact):
    """Another repository the session's git commands ran in (``cd ../other && git status``)."""

    path: str
    branch: str | None = None
    branch_turn: int | None = None
    commits: list[CommitFact] = []


class ListedFileFact(_Fact):
    path: str
    state: str  # modified, added, deleted, renamed, untracked, conflicted, changed
    changed_in_session: bool


class StatusFact(_Fact):
    """The latest ``git status`` (or ``git diff --stat``) of the workspace: what it listed as not committed."""

    turn: int
    command: str
    files: list[ListedFileFact]
    not_shown: list[str]  # files the trail calls uncommitted that it did not list: it wins
    current: bool  # no file changed after it


class WorkFact(_Fact):
    """The work unit: branch, commits made, changed files not committed since, the latest status."""

    branch: str | None = None
    commits: list[CommitFact] = []
    uncommitted: list[str] = []
    elsewhere: list[OtherRepositoryFact] = []
    status: StatusFact | None = None


class WorkItemFact(_Fact):
    """An item of an issue tracker the session drove from the shell (``bd``, ``gh``); see WorkItem."""

    id: str
    tracker: str
    title: str | None = None
    kind: str | None = None
    status: str  # open, in_progress, blocked, deferred, closed, merged
    turn: int
    created_turn: int | None = None
    started_turn: int | None = None
    closed_turn: int | None = None
    closed_reason: str | None = None
    description: str | None = None


class ListedItemFact(_Fact):
    """One item of the latest tracker listing: ``bd ready``, ``bd list``, an epic's children."""

    id: str
    title: str
    status: str
    kind: str | None = None


class SeenItemFact(ListedItemFact):
    """An item as the latest listing that showed it left it, with that listing's turn and command."""

    turn: int
    command: str


class ListingFact(_Fact):
    turn: int
    command: str
    items: list[ListedItemFact]


class CheckRunFact(_Fact):
    """One run of a recognized check: tests, a linter, a type checker, a build."""

    turn: int
    category: str  # test, lint, typecheck, build
    runner: str
    command: str
    passed: bool


class ChangedSince(_Fact):
    path: str
    turns: list[int]


class UncheckedFact(_Fact):
    """Changed files that came after the last run of some kinds of check: those checks are owed."""

    runs: list[CheckRunFact]  # the last run of each kind, build, typecheck, lint, test order
    files: list[ChangedSince]


class ActivityFact(_Fact):
    """One of the last tool calls before the summary: what was done, and how it ended."""

    turn: int
    tool: str
    target: str  # the command, or the file, or the arguments in short
    status: str  # success, failure, unknown, pending (no result yet)
    output: str = ""  # the tail of its output
    lines: tuple[int, int] | None = (
        None  # the lines a read of part of a file asked for, first and last
    )


class RequestItemFact(_Fact):
    """One item of the latest request's numbered list, and what the session's words and changes since say of it."""

    number: int
    text: str
    status: str  # done, checked, in progress, edited, then moved on, changed, no evidence either way, not started
    evidence: str  # the agent's sentence (and turn), or what named it
    changes: list[str] = []  # the changes since the request to what it names


class SessionFacts(_Fact):
    format: str | None
    root: str | None
    turns: int
    created: list[FileFact]
    modified: list[FileFact]
    deleted: list[FileFact]
    reverted: list[FileFact]
    read: list[FileFact]
    errors: list[ErrorFact]
    agent_files: list[
        FileFact
    ] = []  # the agent's own files it changed (its plan), apart from the project's
    original_error: ErrorFact | None
    tests: list[TestFact]
    decisions: list[DecisionFact]
    tasks: list[TaskFact]
    user_messages: list[MessageFact]
    last_assistant: MessageFact | None
    work: WorkFact = WorkFact()
    work_items: list[
        WorkItemFact
    ] = []  # issue-tracker items the session drove or looked at, in order
    listing: ListingFact | None = None  # the latest listing of tracker items the session printed
    listed_items: list[
        SeenItemFact
    ] = []  # every item a listing showed, as the latest one to show it left it
    check_runs: list[CheckRunFact] = []  # in the order they ran
    unverified: list[UncheckedFact] = []
    activity: list[
        ActivityFact
    ] = []  # the last tool calls, oldest first (from the events, not the index)
    recent_messages: list[
        MessageFact
    ] = []  # the agent's last messages, oldest first (from the events)
    findings: list[MessageFact] = []  # what the agent established, in its words (from the events)
    # The current thread, from the events: the agent's messages and how many tool calls it made since the
    # user's latest request (see summarizer.sections.thread).
    thread_messages: list[MessageFact] = []
    thread_calls: int = 0
    request_items: list[
        RequestItemFact
    ] = []  # the latest request's numbered items, each followed (from the events)
    searches: list[SearchFact] = []  # what the current thread's searches matched (from the events)
    left_behind: list[
        LeftBehindFact
    ] = []  # changes left on the branch switched away from (from the events)
    lessons: list[
        MessageFact
    ] = []  # constraints of the project the agent ran into and acted on (from the events)
    interruptions: list[
        MessageFact
    ] = []  # the times the person stopped the agent (from the events)
    answers: list[
        AnswerFact
    ] = []  # the user's replies to the agent's numbered questions (from the events)

    @property
    def changed(self) -> list[FileFact]:
        return [*self.created, *self.modified, *self.deleted]

    @property
    def open_errors(self) -> list[ErrorFact]:
        """The errors still to resolve; those that were there before the session are not among them."""
        return [e for e in self.errors if not e.resolved and e.pre_existing is None]

    @property
    def pre_existing_errors(self) -> list[ErrorFact]:
        return [e for e in self.errors if not e.resolved and e.pre_existing is not None]

    @property
    def open_tasks(self) -> list[TaskFact]:
        return [t for t in self.tasks if t.status in ("pending", "in_progress")]


def _line_counts(diff: str | None) -> tuple[int | None, int | None]:
    """Lines added and removed by a file's net change, when the index knows both sides of it."""
    if diff is None:
        return None, None
    body = (
        diff.split("\n@@", 1)[1].splitlines()[1:] if "\n@@" in diff else []
    )  # past the ---/+++ headers
    added = sum(1 for line in body if line.startswith("+"))
    removed = sum(1 for line in body if line.startswith("-"))
    return added, removed


def facts_from_index(index: ArtifactIndex) -> SessionFacts:
    """Everything the index knows that a summary must state exactly."""
    symbols = index.symbols()
    by_status: dict[str, list[FileFact]] = {
        s: [] for s in ("created", "modified", "deleted", "reverted", "read")
    }
    for entry in index.files():
        if entry.status is None:
            continue
        changes = [op for op in entry.ops if op.action != "read" and op.result != "failure"]
        shell = [op.command for op in changes if op.command]
        diff = index.net_diff(entry.path) if entry.status in ("created", "modified") else None
        added, removed = _line_counts(diff if entry.status == "modified" else None)
        file_symbols = symbols.get(entry.path, [])
        changed_symbols = [s for s in file_symbols if s.change != "read"]
        notes = definition_notes(
            index.content(entry.path) if diff else None,
            entry.path,
            [s for s in changed_symbols if s.change == "added"],
        )
        by_status[entry.status].append(
            FileFact(
                path=entry.path,
                status=entry.status,
                renamed_from=entry.renamed_from,
                sources=entry.sources,
                turns=sorted({op.turn for op in entry.ops if op.result != "failure"}),
                changed_turns=sorted({op.turn for op in changes if op.action != "unknown"}),
                symbols=changed_symbols,
                read_symbols=[s for s in file_symbols if s.change == "read"],
                evidence=shell[-1] if shell else None,
                lines_added=added,
                lines_removed=removed,
                signatures={key: signature for key, (signature, _) in notes.items()},
                docs={key: doc for key, (_, doc) in notes.items() if doc},
                tests_added=added_tests(diff, entry.path, changed_symbols),
                first_lines=changed_lines(diff, entry.path) if not changed_symbols else [],
                changed_code=changed_code(
                    diff,
                    index.content(entry.path),
                    entry.path,
                    [s for s in changed_symbols if s.change == "modified"],
                )
                if entry.status == "modified"
                else {},
            )
        )
    agent_files = [
        f
        for key in ("created", "modified", "deleted")
        for f in by_status[key]
        if is_agent_own(f.path)
    ]
    for key in ("created", "modified", "deleted"):
        by_status[key] = [f for f in by_status[key] if not is_agent_own(f.path)]
    errors = [ErrorFact.model_validate(_error_fields(e)) for e in index.errors()]
    work = WorkFact.model_validate(work_state(index))
    tasks = [
        TaskFact.model_validate({k: t[k] for k in ("content", "status", "turn")})
        for t in index.tasks()
    ]
    changed = [
        (f.path, f.status, max(f.turns, default=0))
        for key in ("created", "modified", "deleted")
        for f in by_status[key]
    ]
    commits = [(c.turn, c.hash, c.message) for c in work.commits]
    tasks = [
        t.model_copy(
            update={"done_evidence": task_evidence(t.content, t.turn, symbols, changed, commits)}
        )
        if t.status in ("pending", "in_progress")
        else t
        for t in tasks
    ]
    original = index.original_error()
    last = index.session.last_assistant
    turn_numbers = [int(d["turn"]) for _, d in index.nodes_of_kind("turn")]
    return SessionFacts(
        format=index.format,
        root=index.root,
        turns=max(turn_numbers, default=0),
        errors=errors,
        original_error=ErrorFact.model_validate(_error_fields(original)) if original else None,
        # In the order they ran, so "the last run" is the latest one.
        tests=sorted((TestFact.model_validate(t) for t in index.tests()), key=lambda t: t.turn),
        decisions=[DecisionFact.model_validate(d) for d in index.decisions()],
        tasks=tasks,
        user_messages=[MessageFact.model_validate(m) for m in index.user_messages()],
        last_assistant=MessageFact(turn=last.turn, text=last.text) if last else None,
        work=work,
        work_items=[
            WorkItemFact.model_validate(item.model_dump())
            for item in index.session.work_items.items.values()
        ],
        listing=ListingFact.model_validate(index.session.work_items.listing.model_dump())
        if index.session.work_items.listing
        else None,
        listed_items=[
            SeenItemFact.model_validate(item.model_dump())
            for item in index.session.work_items.seen.values()
        ],
        check_runs=[
            CheckRunFact(
                turn=run.turn,
                category=run.category,
                runner=run.runner,
                command=run.command,
                passed=run_passed(index, run),
            )
            for run in index.session.check_runs
        ],
        unverified=[UncheckedFact.model_validate(group) for group in unverified_changes(index)],
        agent_files=agent_files,
        **by_status,
    )


def _error_fields(entry: dict[str, Any]) -> dict[str, Any]:
    fields = (
        "message",
        "detail",
        "kind",
        "file",
        "line",
        "symbol",
        "first_turn",
        "last_turn",
        "resolved",
        "resolved_turn",
        "resolved_by",
        "resolution",
        "fixed_by",
        "command",
        "pre_existing",
        "seen_turns",
    )
    return {k: entry.get(k) for k in fields if k in entry}
