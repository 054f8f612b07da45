"""What the tracker knows of a session beyond its files: one typed record, saved with the index.

:class:`SessionState` holds everything the tracker keeps between events
that is not a file's state (:class:`~artifact_index.trail.file_state.FileState`)
nor a node of the graph: where the session runs, the calls waiting for their
result, the conversation's requests and compactions, the task lists, the git
staging and work state, the runs of checks, the stashes.  Each part has its
own record type here, so every reader and writer is checked by mypy; the
modules that keep a part (:mod:`~artifact_index.trail.submission`,
:mod:`~artifact_index.trail.work_state`,
:mod:`~artifact_index.trail.verification`, the tracker) change it through
these types.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from artifact_index.facts.tasks import Task
from artifact_index.facts.work_items import TrackedItems
from artifact_index.ingestion.events import ToolCall, UserChannel
from artifact_index.trail.file_state import FileSnapshot

__all__ = [
    "AssistantSaid",
    "BranchSwitch",
    "CheckRun",
    "Commit",
    "CompactionMark",
    "ListedStatus",
    "OtherRepository",
    "PendingCall",
    "PossibleChange",
    "ScriptRun",
    "SeenChange",
    "SessionState",
    "Staging",
    "Stash",
    "StepCall",
    "SubmissionRecord",
    "UserSaid",
    "WorkRecord",
    "WrittenDiff",
]


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


class PendingCall(_Record):
    """A tool call waiting for its result, and the directory it was issued in."""

    call: ToolCall
    cwd: str | None
    # Files a later edit showed it did not change: that edit found, whole, the text this one
    # was to replace, so what the trail says of them does not wait on this call.
    not_applied_to: list[str] = Field(default_factory=list)


class CompactionMark(_Record):
    """A compaction boundary; ``seq``: the operations before it are those numbered up to it."""

    turn: int
    trigger: str | None
    pre_tokens: int | None
    seq: int
    sidechain: str | None


class UserSaid(_Record):
    """A message the user typed (see :class:`~artifact_index.ingestion.events.UserMessage`)."""

    turn: int
    text: str
    channel: UserChannel | Literal["interrupt"]  # "interrupt": the person stopped the agent


class AssistantSaid(_Record):
    turn: int
    text: str


class CheckRun(_Record):
    """One run of a recognized check (see :mod:`~artifact_index.trail.verification`)."""

    turn: int
    seq: int  # the operation count when it ran
    category: str  # test, lint, typecheck, build
    runner: str
    command: str
    passed: bool | None  # None: the transcript does not record how it ended (no exit status)
    errors: list[str]  # signatures of the ledger entries its output showed


class ScriptRun(_Record):
    """A run of a script file itself (``python scratch/make_table.py``, ``./deploy.sh``)."""

    turn: int
    seq: int  # the operation count when it ran
    path: str  # as the command line spelled it
    passed: bool | None


class WrittenDiff(_Record):
    """A ``git diff > FILE``: when it was written and the files it holds (None: not known)."""

    seq: int
    files: list[str] | None


class Staging(_Record):
    """What ``git add`` and friends staged, followed command by command."""

    staged_all: bool = False
    staged_tracked: bool = False
    staged: list[str] = Field(default_factory=list)
    unsure: str | None = None  # why the staging can no longer be followed
    diffs: dict[str, WrittenDiff] = Field(default_factory=dict)

    def cleared(self) -> None:
        """Nothing staged beyond HEAD (after a commit)."""
        self.staged_all = self.staged_tracked = False
        self.staged = []
        self.unsure = None


class SubmissionRecord(_Record):
    """How a run that ended with a harness submission ended (see :mod:`~artifact_index.trail.submission`)."""

    turn: int
    command: str | None
    exit_status: str | None
    files: list[str] | None  # keys of the changed files it holds; None: not known
    unresolved: str | None = None  # why ``files`` is not known


class Commit(_Record):
    turn: int
    hash: str
    branch: str
    message: str
    files: list[str] | None  # None: what it held could not be worked out
    pushed: bool = False
    pushed_turn: int | None = None
    command: str | None = None  # the command that printed it


class CommitAttempt(_Record):
    """A ``git commit`` that ran without printing a commit (``-q``, output cut): it may or may not have committed."""

    turn: int
    command: str
    message: str | None = None  # the first line of its -m message, to know it by in a later git log
    files: list[str] | None = None  # what it would hold, as the staging seen then says
    seq: int = 0  # the operation count when it ran


class ListedStatus(_Record):
    """The latest ``git status`` (or ``git diff --stat``) of the workspace (see :mod:`~artifact_index.trail.tree_status`)."""

    turn: int
    seq: int
    command: str
    shown: str
    files: list[tuple[str, str]]  # (key, state)
    complete: bool = True
    untracked_shown: bool
    commits_before: int | None = None  # None: every commit
    scope: list[str] = Field(default_factory=list)


class ComparedWithHead(_Record):
    """The latest ``git diff`` of HEAD against another revision, while HEAD has not moved since.

    A branch switch to ``other`` then changes exactly those files (see
    :func:`~artifact_index.trail.tree_status.compared_revision`).
    """

    other: str
    files: list[tuple[str, str]]  # (path from the repository's top, created / modified / deleted)
    complete: bool


class OtherRepository(_Record):
    branch: str | None = None
    branch_turn: int | None = None
    commits: list[Commit] = Field(default_factory=list)
    unconfirmed_commits: list[int] = Field(
        default_factory=list
    )  # turns of commits that printed none
    worktree: bool = False  # a `git worktree add` of the workspace's repository made it


class BranchSwitch(_Record):
    """A ``git checkout``/``git switch`` of the workspace that said it switched branches."""

    turn: int
    branch: str  # the branch switched to
    # A new branch made where HEAD is (`git switch -c topic`): the working tree stays as it was.
    from_head: bool = False


class ListedChange(_Record):
    """The first ``git status`` / ``git diff`` that listed a file as changed and not committed."""

    turn: int
    shown: str  # the command, shortened


class WorkRecord(_Record):
    """Branch, commits and the latest status (see :mod:`~artifact_index.trail.work_state`)."""

    branch: str | None = None
    commits: list[Commit] = Field(default_factory=list)
    unconfirmed_commits: list[CommitAttempt] = Field(default_factory=list)
    committed_at: dict[str, int] = Field(default_factory=dict)  # key -> seq of the last commit
    staging: Staging = Field(default_factory=Staging)
    status: ListedStatus | None = None
    compared: ComparedWithHead | None = None
    repos: dict[str, OtherRepository] = Field(default_factory=dict)
    switches: list[BranchSwitch] = Field(default_factory=list)  # in the order they ran
    # Per file key: the first listing that showed it changed (see trail.unseen_changes).
    first_listed_changed: dict[str, ListedChange] = Field(default_factory=dict)
    # key -> turn of a complete status that did not list the file's change, though no commit seen held it
    unlisted: dict[str, int] = Field(default_factory=dict)


class SubAgentRun(_Record):
    """A sub-agent's run whose own calls this transcript does not hold: only its prompt and report are seen."""

    turn: int  # its report's turn (its launch's while it still runs)
    description: str
    text: str  # its prompt, when it asks for changes
    report: str = ""  # the lines of its report that say a file was made or changed
    finished: bool
    # Its prompt forbids every change or asks for a review: what its report tells of, it saw.
    looks_only: bool = False


class Stash(_Record):
    """What one ``git stash`` put away, by file key."""

    call_id: str
    files: dict[str, FileSnapshot] = Field(default_factory=dict)


class StepCall(_Record):
    """What one call of the current turn did, for the changes its turn's snapshot saw.

    ``named``: the files it named (key -> action; ``unknown`` when it only
    said the file may change); ``open``: it ran something that may change
    files it does not name (see :mod:`~artifact_index.trail.tracker.attribution`).
    """

    turn: int
    open: bool
    named: dict[str, str] = Field(default_factory=dict)


class SeenChange(_Record):
    """A change the working tree showed that no call of the session could have made."""

    path: str  # file key
    turn: int
    call_id: str
    change: str  # created, modified, deleted
    evidence: str


class PossibleChange(_Record):
    """A file a command said it may change (``pnpm install`` and its lock file), not yet settled.

    A later ``git status`` that lists the file as changed settles it: the
    command changed it (see :func:`~artifact_index.shell.git.git_effects`).
    """

    turn: int
    command: str
    seq: int | None = None  # the operation that said so; None in states saved before it was kept


class SessionState(_Record):
    """Everything the tracker keeps of a session that is not a file or a graph node."""

    # -- identity
    format: str | None = None
    root: str | None = None
    session_id: str | None = None
    model: str | None = None
    agent: str | None = None
    version: str | None = None
    # -- feeding
    cwd: str | None = None
    events: int = 0
    seen_events: list[str] = Field(default_factory=list)
    op_count: int = 0
    orphan_results: int = 0
    pending: dict[str, PendingCall] = Field(default_factory=dict)
    # -- directories and scratch files
    listed_directories: list[str] = Field(default_factory=list)  # paths a read tool listed
    directories: list[str] = Field(default_factory=list)  # made by the session
    copied_trees: list[str] = Field(default_factory=list)  # made by a recursive copy
    # Folders a starter was scaffolded into, with the command that did (see trail.scaffolds).
    scaffolded_trees: dict[str, PossibleChange] = Field(default_factory=dict)
    cleared_directories: list[str] = Field(default_factory=list)  # emptied by the session
    listed_files: dict[str, list[str]] = Field(
        default_factory=dict
    )  # names an `ls` showed, by directory
    scratch: dict[str, str] = Field(default_factory=dict)  # what temporary files hold
    # -- whose changes: the calls of the current turn, and changes seen but not made
    step_calls: dict[str, StepCall] = Field(default_factory=dict)
    seen_not_made: list[SeenChange] = Field(default_factory=list)
    possible_changes: dict[str, PossibleChange] = Field(default_factory=dict)  # by file key
    # -- the conversation
    user_messages: list[UserSaid] = Field(default_factory=list)
    last_assistant: AssistantSaid | None = None
    compactions: list[CompactionMark] = Field(default_factory=list)
    decision_count: int = 0
    # -- plans
    task_lists: dict[str, list[Task]] = Field(default_factory=dict)  # by agent ("": the main one)
    work_items: TrackedItems = Field(default_factory=TrackedItems)
    # -- checks and errors
    check_runs: list[CheckRun] = Field(default_factory=list)
    script_runs: list[ScriptRun] = Field(default_factory=list)
    error_symbols: dict[str, str] = Field(default_factory=dict)  # signature -> definition
    # -- git
    git: Staging = Field(default_factory=Staging)
    work: WorkRecord = Field(default_factory=WorkRecord)
    stashes: list[Stash] = Field(default_factory=list)
    # -- sub-agents whose calls are in their own transcripts (see trail.unseen_sub_agents)
    unseen_sub_agents: list[SubAgentRun] = Field(default_factory=list)
    sub_agent_launches: dict[str, SubAgentRun] = Field(default_factory=dict)  # by agent id
    sidechains_seen: list[str] = Field(default_factory=list)
    submission: SubmissionRecord | None = None
