"""Everything the index states about a session, in one model: what a summary states exactly.

:func:`session_report` asks every query of the index once and puts the
answers together: the files by status (the agent's own files apart), the
errors and the original one, the last run of each test command, the
decisions, the latest task list with what was seen done since, the user's
messages, the git work, the tracker items, the runs of checks and the
checks owed.  Its readers (the summary's sections, the narrative prompt,
the hooks, the probes) take these models as they are.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from artifact_index.facts.decisions import Decision
from artifact_index.facts.task_evidence import task_evidence
from artifact_index.facts.work_items import SeenInListing, TrackerListing, WorkItem
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.agent_files import is_agent_own
from artifact_index.trail.answers import (
    CheckRunReport,
    ErrorReport,
    FileReport,
    LeftBehind,
    PendingCallReport,
    TaskReport,
    TestReport,
    UncheckedReport,
    UnknownEffect,
    WorkReport,
)
from artifact_index.trail.collection import collector_paused
from artifact_index.trail.file_reports import ReportCache, file_reports
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.left_behind import left_behind
from artifact_index.trail.script_reach import maybe_changed_by_scripts, maybe_created_by_scripts
from artifact_index.trail.session_state import AssistantSaid, ListedChange, UserSaid
from artifact_index.trail.test_first import written_first
from artifact_index.trail.unseen_sub_agents import sub_agent_notes
from artifact_index.trail.verification import check_runs, unverified_changes
from artifact_index.trail.work_state import work_state

__all__ = ["SessionReport", "session_report"]

_CHANGED = ("created", "modified", "deleted")


class SessionReport(BaseModel):
    """What the index knows of a session that a summary must state exactly."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    format: str | None
    root: str | None
    turns: int
    created: list[FileReport]
    modified: list[FileReport]
    deleted: list[FileReport]
    reverted: list[FileReport]
    read: list[FileReport]
    # The agent's own files it changed (its plan, under its home directory), apart from the project's.
    agent_files: list[FileReport] = []
    errors: list[ErrorReport]
    original_error: ErrorReport | None
    tests: list[TestReport]  # in the order they ran, so "the last run" is the latest one
    decisions: list[Decision]
    tasks: list[TaskReport]
    user_messages: list[UserSaid]
    last_assistant: AssistantSaid | None
    # A factory, not an instance: building one at import would build the models' validators
    # (and scan for pydantic's plugins) in every command that imports this one.
    work: WorkReport = Field(default_factory=WorkReport)
    work_items: list[WorkItem] = []  # issue-tracker items the session drove or looked at, in order
    listing: TrackerListing | None = None  # the latest listing of tracker items the session printed
    # Every item a listing showed, as the latest one to show it left it.
    listed_items: list[SeenInListing] = []
    check_runs: list[CheckRunReport] = []  # in the order they ran
    unverified: list[UncheckedReport] = []
    # Calls issued whose result is not recorded: what they did is unknown.
    pending: list[PendingCallReport] = []
    # Changed files left on a branch the session switched away from (see trail.left_behind).
    left_behind: list[LeftBehind] = []
    # Reads of files known only at run time: ``read`` lists some of the files read, not all.
    unnamed_reads: list[UnknownEffect] = []
    # Changes to files known only at run time (`perl -pi … $(rg -l …)`, `sed -i` over a glob no
    # known file matched): the changed files listed are some of those changed, not all.
    unnamed_changes: list[UnknownEffect] = []

    @property
    def changed(self) -> list[FileReport]:
        return [*self.created, *self.modified, *self.deleted]

    @property
    def open_errors(self) -> list[ErrorReport]:
        """The errors still to resolve; those that were there before the session, and the failures of
        tests written before their code, are not among them."""
        return [
            e
            for e in self.errors
            if not e.resolved and e.pre_existing is None and e.tests_written_first is None
        ]

    @property
    def written_first_errors(self) -> list[ErrorReport]:
        """Failures of tests the session wrote before the code they test (not written yet)."""
        return [e for e in self.errors if not e.resolved and e.tests_written_first is not None]

    @property
    def pre_existing_errors(self) -> list[ErrorReport]:
        return [e for e in self.errors if not e.resolved and e.pre_existing is not None]

    @property
    def open_tasks(self) -> list[TaskReport]:
        return [t for t in self.tasks if t.status in ("pending", "in_progress")]


def session_report(index: ArtifactIndex, kept: ReportCache | None = None) -> SessionReport:
    """Every query of the index, answered once.

    ``kept``: the files' reports of an earlier call on the same growing
    session, reused where a file is what it was (see :class:`ReportCache`).
    """
    # The answers are hundreds of thousands of small objects that all live on with the report,
    # none of them garbage: with the collector on, each full collection they set off walked all
    # of them made so far (a fifth of a hook's answer to a 100 MB session).
    with collector_paused():
        return _session_report(index, kept)


def _session_report(index: ArtifactIndex, kept: ReportCache | None) -> SessionReport:
    by_status: dict[str, list[FileReport]] = {
        s: [] for s in ("created", "modified", "deleted", "reverted", "read")
    }
    work = work_state(index)
    symbols = index.symbols()
    for report in file_reports(index, symbols, kept):
        held = [
            (c.hash, c.turn) for c in work.commits if c.files is not None and report.path in c.files
        ]
        if held:
            report = report.model_copy(update={"committed_in": held})
        by_status[report.status].append(report)
    agent_files = [f for key in _CHANGED for f in by_status[key] if is_agent_own(f.path)]
    for key in _CHANGED:
        by_status[key] = [f for f in by_status[key] if not is_agent_own(f.path)]
    changed = [
        (f.path, f.status, max(f.turns, default=0)) for key in _CHANGED for f in by_status[key]
    ]
    commits = [(c.turn, c.hash, c.message) for c in work.commits]
    runs = check_runs(index)
    tasks = [
        TaskReport(
            **task.model_dump(),
            certainty=task.certainty,
            evidence=task.evidence,
            done_evidence=task_evidence(
                task.content,
                task.turn,
                symbols,
                changed,
                commits,
                checks=[(run.turn, run.category, run.passed) for run in runs],
                pushed=[
                    (c.pushed_turn if c.pushed_turn is not None else c.turn, c.hash)
                    for c in work.commits
                    if c.pushed
                ],
            )
            if task.status in ("pending", "in_progress")
            else None,
        )
        for task in index.tasks()
    ]
    changed_reports = [f for key in _CHANGED for f in by_status[key]]
    reach = maybe_changed_by_scripts(index, by_status["read"], changed_reports)
    made = maybe_created_by_scripts(index, by_status["modified"], changed_reports)
    by_status["modified"] = [
        f.model_copy(update={"maybe_changed_by": made[f.path]}) if f.path in made else f
        for f in by_status["modified"]
    ]
    by_status["read"] = [
        f.model_copy(update={"maybe_changed_by": reach[f.path]}) if f.path in reach else f
        for f in by_status["read"]
    ]
    by_status["read"] = _listed_changed(index.session.work.first_listed_changed, by_status["read"])
    for status in ("read", *_CHANGED):
        # A deletion or a counted change stands unless a sub-agent could have written the file after it.
        named = sub_agent_notes(
            index.session, by_status[status], after_last_change=status in ("deleted", "created")
        )
        by_status[status] = [
            f.model_copy(update={"sub_agent_named": named[f.path]}) if f.path in named else f
            for f in by_status[status]
        ]
    errors = [
        e.model_copy(update={"tests_written_first": turn})
        if (turn := written_first(e, by_status["created"], changed_reports)) is not None
        else e
        for e in index.errors()
    ]
    original = index.original_error()
    if original is not None:
        original = next((e for e in errors if e.signature == original.signature), original)
    turns = [int(data["turn"]) for _, data in index.nodes_of_kind("turn")]
    tracked = index.session.work_items
    return SessionReport(
        format=index.format,
        root=index.root,
        turns=max(turns, default=0),
        errors=errors,
        original_error=original,
        tests=sorted(index.tests(), key=lambda t: t.turn),
        decisions=index.decisions(),
        tasks=tasks,
        user_messages=index.user_messages(),
        last_assistant=index.session.last_assistant,
        work=work,
        work_items=list(tracked.items.values()),
        listing=tracked.listing,
        listed_items=list(tracked.seen.values()),
        check_runs=runs,
        unverified=unverified_changes(index),
        pending=index.pending_calls(),
        agent_files=agent_files,
        left_behind=left_behind(index, changed_reports, work),
        unnamed_reads=index.unnamed_reads(),
        unnamed_changes=[e for e in index.unknown_effects() if changes_unnamed_files(e)],
        **by_status,
    )


# What an in-place editor, `rm`, `touch`... say when the files they change cannot be named (see
# shell.invocation's `unplaced`), and `find -exec` writing what its search matches; not a program or
# code known only at run time, whose effects are not known at all.
_UNNAMED_CHANGE = lazy_pattern(
    r"^(?!runs |\S+ -c runs )\S.*(?:a path known only at run time|none of which the tracker knows"
    r"|at paths computed at run time"
    # A formatter or fixer over a folder that did not name what it changed (shell.formatters).
    r"|file\(s\) under .+ it does not name|the files it fixed under .+ are not known"
    r"|rewrites files under .+; which ones changed is not known)"
)


def changes_unnamed_files(effect: UnknownEffect) -> bool:
    """Whether ``effect`` changed files that exist but that the trail cannot name."""
    return _UNNAMED_CHANGE.match(effect.detail or "") is not None


def _listed_changed(listed: dict[str, ListedChange], read: list[FileReport]) -> list[FileReport]:
    """Files only read that a `git status` / `git diff` listed as changed: each with that listing.

    Something the calls seen do not show changed such a file (a script's fixer, a sub-agent, an
    editor), or it was changed before the session began: either way "read (unchanged)" would be a
    guess, and the listing is what was seen.  A ``--stat`` path cut to ``.../tail`` matches by its end.
    """
    if not listed:
        return read
    cut = {key[3:]: change for key, change in listed.items() if key.startswith(".../")}
    found = []
    for f in read:
        change = listed.get(f.path) or next(
            (c for tail, c in cut.items() if f.path.endswith(tail)), None
        )
        if change is not None and f.changed_unseen_turn is None:
            f = f.model_copy(update={"listed_changed_by": (change.turn, change.shown)})
        found.append(f)
    return found
