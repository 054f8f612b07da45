"""What the index's queries answer: the one contract between the engine and everything that reads it.

The command line, the JSON contracts, the live store and the summarizer
all read the index through :class:`~artifact_index.trail.index.ArtifactIndex`'s
queries, and every query answers with a model of this module (or one of the
facts layer's own: :class:`~artifact_index.facts.tasks.Task`,
:class:`~artifact_index.facts.decisions.Decision`,
:class:`~artifact_index.facts.work_items.WorkItem`...).  Readers consume these
models as they are; none keeps a copy of its own.

A model that states something a reader acts on (a file's status, an error's
state, a test command's last result, a commit) is
:class:`~artifact_index.facts.claims.Claimed`: beside its values it holds
the evidence for them and how sure the index is, outside its JSON contract
(see :mod:`artifact_index.facts.claims`).  A model's ``model_dump()`` is its
JSON contract: the field order is the order the JSON shows.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from artifact_index.facts.claims import Claimed
from artifact_index.facts.errors.diagnostics import DiagnosticKind
from artifact_index.facts.symbols.symbol_entry import SymbolEntry
from artifact_index.facts.tasks import Task
from artifact_index.trail.file_state import FileStatus
from artifact_index.trail.latest_writes import LatestWrite

__all__ = [
    "ChangedSince",
    "CheckRunReport",
    "CommitAttemptReport",
    "CommitReport",
    "ErrorReport",
    "FileEntry",
    "FileReport",
    "LeftBehind",
    "ListedFileReport",
    "OperationEntry",
    "OtherRepositoryReport",
    "PendingCallReport",
    "SeenChangeReport",
    "StatusReport",
    "SubAgentNote",
    "SubmissionReport",
    "TaskReport",
    "TestReport",
    "UncheckedReport",
    "UnknownEffect",
    "WorkReport",
]


class _Answer(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class OperationEntry(_Answer):
    """One operation on a file, as users and the JSON contract see it."""

    model_config = ConfigDict(frozen=True)

    turn: int
    action: str
    tool: str
    source: str
    result: str
    failure: str | None = None
    command: str | None = None
    detail: str | None = None
    dest: str | None = None
    sidechain: str | None = None
    call_id: str | None = Field(default=None, exclude=True)
    seq: int = Field(default=0, exclude=True)  # its place among all the session's operations
    # A copy's source: the copy read this file and left it as it was.
    copied_away: bool = Field(default=False, exclude=True)


class FileEntry(_Answer, Claimed):
    """A file's net state at the end of what was fed, with its operations.

    Its claim is its ``status``: ``seen`` when a call's recorded result made
    it, ``inferred`` when it rests on a shell command's effects worked out
    from its words or on a result whose status was unknown, ``unrecorded``
    when a call naming the file is still waiting for its result.
    """

    model_config = ConfigDict(frozen=True)

    path: str
    status: FileStatus | None  # None: only failed or pending operations touched it
    sources: list[str]
    renamed_from: str | None = None
    ops: list[OperationEntry]
    # Whether the run's submission holds this change: None when the run did
    # not submit, the submission could not be worked out, or the file is
    # not changed (see artifact_index.trail.submission).
    submitted: bool | None = None
    # The file lies outside the workspace root (a script in /tmp, a plan in
    # the home directory); views may hide such files.
    outside_workspace: bool = False


class UnknownEffect(_Answer):
    """A shell effect the tracker could not pin to a file, with its command."""

    turn: int
    tool: str
    command: str | None = None
    detail: str | None = None


class SubAgentNote(_Answer):
    """A sub-agent run, its calls not in the transcript, whose prompt or report names a file."""

    turn: int
    description: str
    finished: bool  # False: still running at the cut
    before_first: bool  # it ran before the session's first seen call on the file
    reported: bool = False  # its report, not only its prompt, says it changed the file
    earlier: int = 0  # the earlier unseen runs that named the file too


class FileReport(_Answer, Claimed):
    """A file the session created, modified, deleted, reverted or read, with what its changes wrote.

    What the changes wrote (``signatures``, ``docs``, ``tests_added``,
    ``first_lines``, ``changed_code``; see :mod:`artifact_index.facts.changes`)
    is known where the index knows the text.
    """

    path: str
    status: FileStatus
    renamed_from: str | None = None
    sources: list[str]
    turns: list[int]  # the turns of its operations that did not fail
    # The place of the last of them among all the session's operations: which came last in a turn.
    last_seq: int = Field(default=0, exclude=True)
    changed_turns: list[int] = []  # the turns of its changes (reads left out)
    symbols: list[SymbolEntry]  # changed symbols only (reads are in read_symbols)
    read_symbols: list[SymbolEntry]
    shell_command: str | None = (
        None  # the shell command its status rests on (what created it, else the last change), when shell-made
    )
    # That command is a formatter's run on the file, which may have left it as it was.
    shell_command_may_be_unchanged: bool = Field(default=False, exclude=True)
    # "git pull" / "git merge": every change of it came from that command's merge report (the
    # merged commits' content, not an edit of the session's own).
    brought_in: str | None = None
    # How many of that report's paths it stands for: more than one where the transcript shows
    # several paths under one name (a redacted file name), so a count of files counts them all.
    brought_in_paths: int = Field(default=0, exclude=True)
    lines_added: int | None = None
    lines_removed: int | None = None
    signatures: dict[str, str] = {}  # an added definition (by symbol key) -> its head as written
    docs: dict[
        str, str
    ] = {}  # an added definition -> the first sentence of the doc written with it
    tests_added: list[str] = []  # the tests a test file gained
    first_lines: list[str] = []  # a file without definitions: the headings or first lines it gained
    headings: bool = Field(default=False, exclude=True)  # first_lines are Markdown headings
    # What its net status hides: whether it existed before the session, its last change (action
    # and turn), and the session's commits that held it (hash, turn): "created, committed, then
    # deleted" is not "changed and reverted".
    existed_before: bool | None = Field(default=None, exclude=True)
    changes: list[tuple[str, int]] = Field(
        default=[], exclude=True
    )  # (action, turn) of each change
    last_change: tuple[str, int] | None = Field(default=None, exclude=True)
    last_command: str | None = Field(default=None, exclude=True)  # the shell command of that change
    # Every call that touched it was a sub-agent's: its read (or change) is not the main agent's.
    sub_agent_only: bool = Field(default=False, exclude=True)
    # A read at this turn showed other content than an earlier one, though the session changed nothing.
    changed_unseen_turn: int | None = Field(default=None, exclude=True)
    # The run of a script of the session's that writes files at paths computed at run time and could
    # reach this one (see trail.script_reach): for a file only read, it may have changed it; for a
    # file modified and first seen after that run, it may have created it.
    maybe_changed_by: UnknownEffect | None = Field(default=None, exclude=True)
    # A sub-agent whose own calls are not seen and that named this file (see trail.unseen_sub_agents).
    sub_agent_named: SubAgentNote | None = Field(default=None, exclude=True)
    # For a file only read: the first `git status` / `git diff` that listed it as changed and not
    # committed, (turn, command), though no call the trail followed changed it.
    listed_changed_by: tuple[int, str] | None = Field(default=None, exclude=True)
    committed_in: list[tuple[str, int]] = Field(default=[], exclude=True)
    # The text the main agent's latest change by a file tool wrote (see trail.latest_writes).
    latest_write: LatestWrite | None = Field(default=None, exclude=True)
    # The most telling lines written inside each definition it modified, by symbol key ("": places unknown).
    changed_code: dict[str, list[str]] = {}


class ErrorReport(_Answer, Claimed):
    """An error of the ledger as the ``errors --json`` contract shows it.

    Its claim is whether it is resolved: ``seen`` when the same check (or
    command) passed or a rerun of it no longer showed it, ``inferred`` when
    another run was taken to cover it (a broader run, a run by name, a
    corrected retry) or when it is called pre-existing.
    """

    message: str
    detail: str | None = None
    kind: DiagnosticKind
    file: str | None = None
    line: int | None = None
    symbol: str | None = None
    code: str | None = None
    tool: str | None = None
    first_turn: int
    last_turn: int
    occurrences: int
    resolved: bool
    resolved_turn: int | None = None
    resolved_by: str | None = None  # the command whose run showed it gone
    resolution: str | None = None  # how that run showed it: "the same check passed", ...
    fixed_by: list[str] = []  # files it names that changed between its last appearance and that run
    command: str | None = None
    tests: list[str] = []
    pre_existing: str | None = None  # why it is not the session's to fix; None when it is
    seen_turns: list[int] = []  # the turns it appeared in (the latest few)
    # The turn the session wrote the tests it comes from, when they were written before the code
    # they test and nothing else changed since (see artifact_index.trail.test_first).
    tests_written_first: int | None = Field(default=None, exclude=True)
    signature: str = Field(default="", exclude=True)  # its identity in the ledger
    # Open, from a command that is no check (or a program that is not there): the first shell
    # command that succeeded after it, and its turn.  The session went on another way; whether
    # that did what the failed command was for is not known, so it is said as what ran next.
    went_on: str | None = Field(default=None, exclude=True)
    went_on_turn: int | None = Field(default=None, exclude=True)


class TestReport(_Answer, Claimed):
    """The last result of one test command, as ``errors --json`` shows it.

    ``unit`` says what the counts count (tests, or packages for ``go test``
    without ``-v``).  A failed run that a later, broader run passed
    (``superseded_by``) is not the current state: its claim is ``inferred``.
    """

    __test__: ClassVar[bool] = False  # not a pytest test class, despite the name

    command: str
    passed: int
    failed: int
    skipped: int
    failing: list[str]
    turn: int
    unit: Literal["tests", "packages"] = Field(default="tests", exclude=True)
    outcome: Literal["passed", "failed"] = Field(default="passed", exclude=True)
    # False when a filter may have left the passed count out of what the run printed.
    passed_shown: bool = Field(default=True, exclude=True)
    # Counts by the runner's own names beyond passed/failed/skipped ("xfailed", "xpassed").
    other: tuple[tuple[str, int], ...] = Field(default=(), exclude=True)
    # A later run that covers this one (the whole suite, a run of the same file) and passed:
    # this run's failures are not the current state. Its command and turn.
    superseded_by: str | None = Field(default=None, exclude=True)
    superseded_turn: int | None = Field(default=None, exclude=True)


class TaskReport(Task):
    """A task of the latest list, with what the index saw done since it was set that the task names.

    ``done_evidence`` ("`refresh` added at turn 52"; see
    :mod:`artifact_index.facts.task_evidence`) is for an open task only: the
    task stays open, the reader judges.
    """

    done_evidence: str | None = None


class PendingCallReport(_Answer, Claimed):
    """A call issued whose result the transcript does not hold (yet): what it would do is unknown.

    Its claim is ``unrecorded``: the files it names are neither read nor
    unchanged by it, as far as the transcript shows.
    """

    turn: int
    call_id: str
    tool: str
    command: str | None = None  # a shell call's command
    paths: list[str] = []  # the files it names, as shown
    # The turn of a later read of a file it names: what the file holds after it was seen then.
    read_after: int | None = Field(default=None, exclude=True)


class SeenChangeReport(_Answer):
    """A file the working tree showed changed that no call of the session could have changed.

    Never one of the session's changed files: the user, an editor or another
    agent in the same checkout made it.  ``turns``: where it was seen;
    ``change``: the change last seen; ``evidence``: what showed it.
    """

    path: str
    turns: list[int]
    change: str
    evidence: str


class SubmissionReport(_Answer):
    """How a run that a harness took a submission from ended (mini-swe-agent).

    ``files``: the displayed paths of the changed files it holds; None when
    they could not be worked out, and then ``unresolved`` says why (shown
    only for a run that submitted).
    """

    turn: int
    command: str | None
    exit_status: str | None
    files: list[str] | None
    unresolved: str | None = None

    @model_serializer(mode="wrap")
    def _contract(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        shown: dict[str, object] = handler(self)
        if self.command is None:
            shown.pop("unresolved", None)
        return shown


class CommitReport(_Answer, Claimed):
    """A commit the session made: the ``[branch hash] message`` line ``git commit`` printed.

    Its claim is what it holds (``files``): ``inferred`` from the staging
    model, or None when that could not be worked out.
    """

    turn: int
    hash: str
    branch: str
    message: str
    files: list[str] | None  # None: what it held could not be worked out
    pushed: bool
    pushed_turn: int | None = None  # shown only for a commit the session pushed

    @model_serializer(mode="wrap")
    def _contract(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        shown: dict[str, object] = handler(self)
        if self.pushed_turn is None:
            shown.pop("pushed_turn", None)
        return shown


class OtherRepositoryReport(_Answer):
    """Another repository the session's git commands ran in (``cd ../other && git status``)."""

    path: str
    branch: str | None = None
    branch_turn: int | None = None
    commits: list[CommitReport] = []
    unconfirmed_commits: list[int] = []  # turns of `git commit` runs there that printed no commit
    worktree: bool = False  # a git worktree of the workspace's repository, not another repository


class ListedFileReport(_Answer):
    path: str
    state: str  # modified, added, deleted, renamed, untracked, conflicted, changed
    changed_in_session: bool


class StatusReport(_Answer):
    """The latest ``git status`` (or ``git diff --stat``) of the workspace: what it listed as not committed."""

    turn: int
    command: str
    not_shown: list[str]  # files the trail calls uncommitted that it did not list: it wins
    current: bool  # no file changed after it
    files: list[ListedFileReport]


class CommitAttemptReport(_Answer):
    """A ``git commit`` that ran but printed no commit: whether it committed is not known."""

    turn: int
    command: str


class WorkReport(_Answer):
    """The work unit: branch, commits made, changed files not committed since, the latest status.

    ``unconfirmed_commits``: ``git commit`` commands that ran without printing a commit
    (``-q``, or output not recorded); after one, "not committed" is only what the session saw.
    """

    branch: str | None = None
    commits: list[CommitReport] = []
    unconfirmed_commits: list[CommitAttemptReport] = []
    uncommitted: list[str] = []
    # Of ``uncommitted``: those a complete ``git status`` did not list after an earlier change, though no
    # commit seen held it (ignored by git, or put away unseen), by the turn of that status.
    unlisted: dict[str, int] = {}
    elsewhere: list[OtherRepositoryReport] = []
    status: StatusReport | None = None

    @model_serializer(mode="wrap")
    def _contract(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        shown: dict[str, object] = handler(self)
        if not self.unlisted:
            shown.pop("unlisted", None)  # said only when a status left out a change
        return shown


class LeftBehind(_Answer):
    """A file changed before the session switched branches, which the latest ``git status`` no longer lists."""

    path: str
    switch_turn: int
    branch: str  # the branch switched to


class CheckRunReport(_Answer):
    """One run of a recognized check: tests, a linter, a type checker, a build."""

    turn: int
    category: str  # test, lint, typecheck, build
    runner: str
    command: str
    # It succeeded, or all it reported was there before the session; None: the transcript does not
    # record how it ended (a format that keeps the calls, not their results).
    passed: bool | None


class ChangedSince(_Answer):
    path: str
    turns: list[int]
    # A script: the turn it last ran itself, when that was after the check runs named with it.
    ran_itself_turn: int | None = Field(default=None, exclude=True)


class UncheckedReport(_Answer):
    """Changed files that came after the last run of some kinds of check: those checks are owed."""

    runs: list[CheckRunReport]  # the last run of each kind, build, typecheck, lint, test order
    files: list[ChangedSince]
    # Runs of a project task (`make check`) after all of these changes, not known to run these kinds
    # of check: they may have run them.
    tasks_after: list[CheckRunReport] = []
