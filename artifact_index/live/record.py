"""What the session store keeps of one transcript: its identity and the facts that span sessions.

A :class:`SessionRecord` is made from an index and the events that built
it.  It holds no file contents and no tool output, only what questions
across sessions need: the files and how each ended, the errors with their
resolution, the last result of each test command, and when the session ran.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from artifact_index.ingestion.events import AssistantMessage, Event, ToolCall, UserMessage
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.paths import is_absolute, join

__all__ = [
    "EventTally",
    "KeptRows",
    "SessionRecord",
    "StoredError",
    "StoredFile",
    "StoredTest",
    "instant",
    "parent_session",
    "session_id_of",
    "session_record",
    "sub_agent_of",
]

# A sub-agent's session id is its parent's, this, and the sub-agent's own id.
SUB_AGENT_MARK = "/"

_TITLE_WIDTH = 120
_TAG = lazy_pattern(r"</?[\w-]+>")


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class StoredFile(_Model):
    path: str  # as `files` prints it: relative to the root when under it
    absolute: str  # the same file as an absolute path, when the root is known
    status: str
    sources: list[str]
    first_turn: int
    last_turn: int
    renamed_from: str | None = None


class StoredError(_Model):
    message: str
    kind: str | None
    file: str | None
    line: int | None
    first_turn: int
    last_turn: int
    resolved: bool


class StoredTest(_Model):
    command: str
    passed: int | None
    failed: int | None
    turn: int


class SessionRecord(_Model):
    """One transcript as the store keeps it."""

    id: str  # stable: derived from the transcript's absolute path
    transcript: str
    format: str
    session_id: str | None  # the agent's own id, when the transcript says
    agent: str | None
    model: str | None
    root: str | None
    title: str | None  # the first line of the first user message
    turns: int
    events: int
    skipped: int
    started: str | None  # UTC, ISO 8601
    last_activity: str  # the last event's time, else the file's modification time
    size: int
    mtime_ns: int
    files: list[StoredFile]
    errors: list[StoredError]
    tests: list[StoredTest]


def session_id_of(transcript: str | Path) -> str:
    """The store's id of a transcript: short, stable, the same for every spelling of its path."""
    return hashlib.sha256(str(Path(transcript).resolve()).encode()).hexdigest()[:12]


def instant(value: str | float | None) -> str | None:
    """A timestamp as UTC ISO 8601 (``2026-11-20T14:03:00Z``), or None when it is not one.

    Transcripts write ISO strings with ``Z`` or an offset, or epoch seconds
    or milliseconds (Cline's ``ts``).
    """
    if value is None or value == "":
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        try:
            moment = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
        except ValueError:
            return None
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
    else:
        seconds = number / 1000 if number > 1e11 else number
        try:
            moment = datetime.fromtimestamp(seconds, UTC)
        except (OverflowError, OSError, ValueError):
            return None
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _title_of(event: Event) -> str | None:
    """The first line of a user message that says something (not a bare ``<tag>``)."""
    if not isinstance(event, UserMessage) or event.synthetic:
        return None
    for line in event.text.splitlines():
        line = line.strip()
        if line and not _TAG.fullmatch(line):
            return line if len(line) <= _TITLE_WIDTH else line[: _TITLE_WIDTH - 1] + "…"
    return None


class EventTally:
    """What a session record says of the events themselves, counted as they are fed (none is kept)."""

    def __init__(self) -> None:
        self.events = 0
        self.turns = 0
        self.title: str | None = (
            None  # the first line of the first user message that says something
        )
        self.started: str | None = None  # the first event's time
        self.last: str | None = None  # the last event's time
        # The side chains the messages and calls come from (None: the main one), see sub_agent_of.
        self.chains: set[str | None] = set()

    def add(self, event: Event) -> None:
        self.events += 1
        self.turns = max(self.turns, event.turn)
        if self.title is None:
            self.title = _title_of(event)
        moment = instant(event.timestamp)
        if moment is not None:
            self.started = self.started or moment
            self.last = moment
        if isinstance(event, UserMessage | AssistantMessage | ToolCall) and len(self.chains) < 2:
            self.chains.add(event.sidechain)

    @classmethod
    def of(cls, events: Iterable[Event]) -> EventTally:
        tally = cls()
        for event in events:
            tally.add(event)
        return tally


def sub_agent_of(events: EventTally) -> str | None:
    """The sub-agent's id when the whole transcript is one sub-agent's, else None.

    Claude Code writes each sub-agent to a file of its own
    (``SESSION/subagents/agent-ID.jsonl``), every record carrying the parent's
    session id: the messages of such a file all come from one side chain.
    """
    if len(events.chains) == 1:
        (chain,) = events.chains
        return chain
    return None


def parent_session(session_id: str | None) -> str | None:
    """The parent's session id when ``session_id`` is a sub-agent's (see :func:`session_record`)."""
    if session_id is None or SUB_AGENT_MARK not in session_id:
        return None
    return session_id.split(SUB_AGENT_MARK, 1)[0]


class KeptRows:
    """The rows of a followed session's last record, each under what it was made from.

    A watcher makes a followed session's record again at each change, and
    almost every file, error and test run is what it was: a row made from
    the same things is taken from here instead of being made again.  Only
    the rows of the last record are kept (no more than the record holds).
    """

    def __init__(self) -> None:
        # Per file key: its account (None: no operation to date it), and what it was made from.
        self.files: dict[str, tuple[tuple[object, ...], StoredFile | None]] = {}
        self.errors: dict[tuple[object, ...], StoredError] = {}
        self.tests: dict[tuple[object, ...], StoredTest] = {}


def _stored_files(index: ArtifactIndex, kept: KeptRows) -> list[StoredFile]:
    """The files `files` lists, as the store keeps them: each made again only when it changed."""
    root = index.root
    before = kept.files
    now: dict[str, tuple[tuple[object, ...], StoredFile | None]] = {}
    files = []
    # Made from the file's state and its operations' turns; every operation adds an edge into
    # the file's node, so an unchanged count of edges means unchanged turns.
    for state, edges in index.file_edges():
        status = state.status
        if status is None:
            continue
        made_from: tuple[object, ...] = (
            edges,
            state.shown,
            status,
            tuple(state.sources),
            state.renamed_from,
            root,
        )
        found = before.get(state.path)
        if found is not None and found[0] == made_from:
            stored = found[1]
        else:
            stored = None
            # The files `files` lists, from their states: their entries (every operation and the
            # evidence of each status, as models) would cost most of a followed session's refresh.
            turns = index.operation_turns(state.path)
            if turns:
                shown = state.shown
                absolute = shown if is_absolute(shown) or not root else join(root, shown)
                stored = StoredFile(
                    path=shown,
                    absolute=absolute,
                    status=status,
                    sources=sorted(state.sources),
                    first_turn=min(turns),
                    last_turn=max(turns),
                    renamed_from=state.renamed_from,
                )
        now[state.path] = (made_from, stored)
        if stored is not None:
            files.append(stored)
    kept.files = now
    return files


def session_record(
    transcript: str | Path,
    index: ArtifactIndex,
    events: EventTally | Iterable[Event],
    skipped: int,
    stat: os.stat_result,
    kept: KeptRows | None = None,
) -> SessionRecord:
    """The store's record of ``transcript``, whose ``events`` (or their tally) built ``index``.

    A sub-agent's own transcript gets the session id ``PARENT/SUB-AGENT``: it
    belongs to its parent session, and the parent's id names the parent alone.
    ``kept``: the rows of the record last made of the same growing session
    (see :class:`KeptRows`), which this one updates.
    """
    tally = events if isinstance(events, EventTally) else EventTally.of(events)
    path = Path(transcript).resolve()
    root = index.root
    rows = kept if kept is not None else KeptRows()
    files = _stored_files(index, rows)
    # From the ledger itself: the store keeps no error's symbol, so none is looked for.
    errors = []
    kept_errors, rows.errors = rows.errors, {}
    for e in index.ledger.errors:
        error_fields = (e.message, e.kind, e.file, e.line, e.first_turn, e.last_turn, e.resolved)
        error = kept_errors.get(error_fields) or StoredError(
            message=e.message,
            kind=e.kind,
            file=e.file,
            line=e.line,
            first_turn=e.first_turn,
            last_turn=e.last_turn,
            resolved=e.resolved,
        )
        rows.errors[error_fields] = error
        errors.append(error)
    tests = []
    kept_tests, rows.tests = rows.tests, {}
    for t in index.tests():
        test_fields = (t.command, t.passed, t.failed, t.turn)
        test = kept_tests.get(test_fields) or StoredTest(
            command=t.command, passed=t.passed, failed=t.failed, turn=t.turn
        )
        rows.tests[test_fields] = test
        tests.append(test)
    modified = instant(stat.st_mtime)
    session_id = index.session.session_id
    sub_agent = sub_agent_of(tally)
    if session_id and sub_agent:
        session_id = f"{session_id}{SUB_AGENT_MARK}{sub_agent}"
    return SessionRecord(
        id=session_id_of(path),
        transcript=str(path),
        format=str(index.format or "unknown"),
        session_id=session_id,
        agent=index.session.agent,
        model=index.session.model,
        root=root,
        title=tally.title,
        turns=tally.turns,
        events=tally.events,
        skipped=skipped,
        started=tally.started,
        last_activity=tally.last or modified or "",
        size=stat.st_size,
        mtime_ns=stat.st_mtime_ns,
        files=files,
        errors=errors,
        tests=tests,
    )
