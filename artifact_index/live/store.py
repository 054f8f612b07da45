"""The session store: every indexed session in one SQLite file, so questions can span sessions.

Which sessions touched a path, what changed under a repository this week,
which errors are still open anywhere: each is one query here, answered from
:class:`~artifact_index.live.record.SessionRecord` rows, without reading a
transcript again.

One file per user by default (``$ARTIFACT_INDEX_STORE``, else
``$XDG_DATA_HOME/artifact-index/sessions.db``, else
``~/.local/share/artifact-index/sessions.db``).  The schema grows by named,
append-only migrations, recorded in the file itself, so an old store opens
with a newer version.  Writers (a watcher, hooks, a batch run) may work at
once: the file is in WAL mode and a writer waits for another's transaction.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import closing, contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict
from typing_extensions import TypedDict  # pydantic reads typing's only from Python 3.12

from artifact_index.exceptions import ArtifactIndexError, StateError
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.live.record import SessionRecord, StoredError, StoredFile, instant
from artifact_index.redaction import redact_json, redact_path, redaction_enabled
from artifact_index.state_files import private_directory, private_file

__all__ = [
    "STORE_VARIABLE",
    "Compaction",
    "ProbeScore",
    "SessionNotFound",
    "SessionRow",
    "SessionStore",
    "StoreError",
    "Touch",
    "default_store_path",
    "since_cutoff",
]

STORE_VARIABLE = "ARTIFACT_INDEX_STORE"
# A record's lists of rows, each an object (see _RecordRows).
_ROW_LISTS = ("files", "errors", "tests")
# Sessions whose rows are remembered between saves: as many as a watcher follows at once.
_REMEMBERED_SESSIONS = 64
# How long a writer waits for another's lock before the store reports it as locked.
_LOCK_WAIT_SECONDS = 30.0
_LOCK_RETRY_SECONDS = 0.01


class StoreError(ArtifactIndexError):
    """The store cannot be opened or written, or a query's argument is malformed."""


class SessionNotFound(StoreError):
    """No stored session has that id (or several have, and the id does not say which)."""


# Named migrations, applied in order and never edited once released: a new
# column or table is a new entry at the end.
_MIGRATIONS: tuple[tuple[str, str], ...] = (
    (
        "001_sessions_files_errors_tests",
        """
        CREATE TABLE sessions (
            id TEXT PRIMARY KEY,
            transcript TEXT NOT NULL UNIQUE,
            format TEXT NOT NULL,
            session_id TEXT,
            agent TEXT,
            model TEXT,
            root TEXT,
            title TEXT,
            turns INTEGER NOT NULL,
            events INTEGER NOT NULL,
            skipped INTEGER NOT NULL,
            started TEXT,
            last_activity TEXT NOT NULL,
            indexed_at TEXT NOT NULL,
            size INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL
        );
        CREATE INDEX sessions_session_id ON sessions(session_id);
        CREATE INDEX sessions_last_activity ON sessions(last_activity);
        CREATE TABLE files (
            session TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            path TEXT NOT NULL,
            absolute TEXT NOT NULL,
            status TEXT NOT NULL,
            sources TEXT NOT NULL,
            first_turn INTEGER NOT NULL,
            last_turn INTEGER NOT NULL,
            renamed_from TEXT,
            PRIMARY KEY (session, path)
        );
        CREATE INDEX files_absolute ON files(absolute);
        CREATE TABLE errors (
            session TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            message TEXT NOT NULL,
            kind TEXT,
            file TEXT,
            line INTEGER,
            first_turn INTEGER NOT NULL,
            last_turn INTEGER NOT NULL,
            resolved INTEGER NOT NULL,
            PRIMARY KEY (session, position)
        );
        CREATE TABLE tests (
            session TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            command TEXT NOT NULL,
            passed INTEGER,
            failed INTEGER,
            turn INTEGER NOT NULL,
            PRIMARY KEY (session, position)
        );
    """,
    ),
    (
        "002_compactions",
        """
        CREATE TABLE compactions (
            session TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            at TEXT NOT NULL,
            phase TEXT NOT NULL,
            trigger TEXT,
            changed INTEGER NOT NULL,
            summary_chars INTEGER,
            overall REAL,
            probes TEXT
        );
        CREATE INDEX compactions_session ON compactions(session, at);
    """,
    ),
    (
        "003_session_saves",
        # Every save of a session, by any writer of any version, writes its row: counted here (in
        # a table of its own, so a session deleted and stored again counts on), a writer tells
        # whether another saved the session since it did (see SessionStore.save).
        """
        CREATE TABLE session_saves (session TEXT PRIMARY KEY, count INTEGER NOT NULL);
        CREATE TRIGGER sessions_inserted AFTER INSERT ON sessions BEGIN
            INSERT INTO session_saves (session, count) VALUES (NEW.id, 1)
            ON CONFLICT(session) DO UPDATE SET count = count + 1;
        END;
        CREATE TRIGGER sessions_updated AFTER UPDATE ON sessions BEGIN
            INSERT INTO session_saves (session, count) VALUES (NEW.id, 1)
            ON CONFLICT(session) DO UPDATE SET count = count + 1;
        END;
    """,
    ),
)


def default_store_path() -> Path:
    """Where the store lives when no path is given (see the module docstring)."""
    if os.environ.get(STORE_VARIABLE):
        return Path(os.environ[STORE_VARIABLE]).expanduser()
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "artifact-index" / "sessions.db"


_SPAN = lazy_pattern(r"^\s*(\d+)\s*([mhdw])\s*$")
_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def since_cutoff(text: str, now: datetime | None = None) -> str:
    """``7d``, ``24h``, ``30m``, ``2w`` before now, or a date or time (ISO 8601), as the store's UTC time."""
    match = _SPAN.match(text)
    if match:
        moment = (now or datetime.now(UTC)) - timedelta(**{_UNITS[match[2]]: int(match[1])})
        return moment.strftime("%Y-%m-%dT%H:%M:%SZ")
    cutoff = instant(text) if not text.strip().isdigit() else None
    if cutoff is None:
        raise StoreError(
            f"the time {text!r} is neither a span (7d, 24h, 30m, 2w) nor a date (2026-11-01)"
        )
    return cutoff


class SessionRow(BaseModel):
    """A stored session as listings show it, with its counts."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    id: str
    transcript: str
    format: str
    session_id: str | None
    agent: str | None
    model: str | None
    root: str | None
    title: str | None
    turns: int
    events: int
    skipped: int
    started: str | None
    last_activity: str
    indexed_at: str
    changed: int
    read: int
    open_errors: int


_ITEM_CHARS = 120


class ProbeScore(TypedDict):
    """How a compaction's summary did on one probe: what it was asked, how many items, which it missed."""

    kind: str
    score: float
    expected: int
    missing: list[str]


class Compaction(BaseModel):
    """A compaction an agent hook saw: the trail before it (``pre``), or how its summary scored (``post``)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    at: str
    phase: Literal["pre", "post"]
    trigger: str | None  # manual or auto, as the agent says
    changed: int  # files changed before the compaction
    summary_chars: int | None = None
    overall: float | None = None  # the summary's probe score, 0 to 1
    probes: list[ProbeScore] = []

    def score_line(self) -> str:
        """``0.50: artifact 1/2 (missed: tests/test_auth.py)``: the summary's score, probe by probe."""
        parts = []
        for probe in self.probes:
            missing: list[str] = probe["missing"]
            # An item can be a whole paragraph (a task written at length): its start names it.
            named = [
                m if len(m) <= _ITEM_CHARS else m[: _ITEM_CHARS - 1] + "…" for m in missing[:5]
            ]
            missed = (
                f" (missed: {', '.join(named)}{'…' if len(missing) > 5 else ''})" if missing else ""
            )
            parts.append(
                f"{probe['kind']} {probe['expected'] - len(missing)}/{probe['expected']}{missed}"
            )
        overall = f"{self.overall:.2f}" if self.overall is not None else "-"
        return overall + (": " + "; ".join(parts) if parts else "")


class Touch(BaseModel):
    """One session's dealings with one file."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    session: SessionRow
    file: StoredFile


_ROW = """
    SELECT s.id, s.transcript, s.format, s.session_id, s.agent, s.model, s.root, s.title, s.turns, s.events,
           s.skipped, s.started, s.last_activity, s.indexed_at,
           (SELECT count(*) FROM files f WHERE f.session = s.id
            AND f.status IN ('created', 'modified', 'deleted')) AS changed,
           (SELECT count(*) FROM files f WHERE f.session = s.id AND f.status = 'read') AS read,
           (SELECT count(*) FROM errors e WHERE e.session = s.id AND NOT e.resolved) AS open_errors
    FROM sessions s
"""
_ROW_FIELDS = tuple(SessionRow.model_fields)
_SESSION_COLUMNS = (
    "id",
    "transcript",
    "format",
    "session_id",
    "agent",
    "model",
    "root",
    "title",
    "turns",
    "events",
    "skipped",
    "started",
    "last_activity",
    "indexed_at",
    "size",
    "mtime_ns",
)


# Every INSERT names its columns: a newer version may add columns (with defaults) to a store
# that an older version still writes to.
_FILE_COLUMNS = (
    "session",
    "path",
    "absolute",
    "status",
    "sources",
    "first_turn",
    "last_turn",
    "renamed_from",
)
_ERROR_COLUMNS = (
    "session",
    "position",
    "message",
    "kind",
    "file",
    "line",
    "first_turn",
    "last_turn",
    "resolved",
)
_TEST_COLUMNS = ("session", "position", "command", "passed", "failed", "turn")
_COMPACTION_COLUMNS = (
    "session",
    "at",
    "phase",
    "trigger",
    "changed",
    "summary_chars",
    "overall",
    "probes",
)


def _insert(table: str, columns: tuple[str, ...]) -> str:
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"


def _update(table: str, columns: tuple[str, ...], key: str) -> str:
    """An UPDATE of one row of a session's ``table``, by ``key``: the values, then the session and the key."""
    values = [column for column in columns if column not in ("session", key)]
    return (
        f"UPDATE {table} SET {', '.join(f'{column} = ?' for column in values)} "
        f"WHERE session = ? AND {key} = ?"
    )


def _statements(script: str) -> Iterator[str]:
    """The SQL statements of ``script``, in order (a trigger's body holds statements of its own)."""
    statement = ""
    for piece in script.split(";"):
        statement += piece + ";"
        if sqlite3.complete_statement(statement):
            if statement.strip(" \n;"):
                yield statement
            statement = ""
    if statement.strip(" \n;"):
        yield statement


def _sidecars(database: Path) -> tuple[Path, ...]:
    """The files SQLite keeps beside a database in WAL mode."""
    return tuple(database.with_name(database.name + suffix) for suffix in ("-wal", "-shm"))


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _posix_absolute(path: str) -> str:
    return Path(os.path.abspath(os.path.expanduser(path))).as_posix()


_Row = tuple[object, ...]


class _SavedRows:
    """One session's rows as a store last saved them: redacted, with the models they were made from."""

    def __init__(self, redacting: bool) -> None:
        self.redacting = redacting
        # Per table, each row's values as written (without the session and position columns),
        # in the record's order, with the model each was made from (kept alive for its id).
        self.tables: dict[str, list[tuple[object, _Row]]] = {name: [] for name in _ROW_LISTS}
        self.saves: int | None = None  # the session's count of saves after this one wrote


def _file_row(saved: dict[str, object]) -> _Row:
    return (
        saved["path"],
        saved["absolute"],
        saved["status"],
        json.dumps(saved["sources"]),
        saved["first_turn"],
        saved["last_turn"],
        saved["renamed_from"],
    )


def _error_row(saved: dict[str, object]) -> _Row:
    return (
        saved["message"],
        saved["kind"],
        saved["file"],
        saved["line"],
        saved["first_turn"],
        saved["last_turn"],
        1 if saved["resolved"] else 0,  # SQLite keeps a bool as 1 or 0
    )


def _test_row(saved: dict[str, object]) -> _Row:
    return (saved["command"], saved["passed"], saved["failed"], saved["turn"])


_ROW_VALUES = {"files": _file_row, "errors": _error_row, "tests": _test_row}


class _RecordRows:
    """A record's rows as saved (every string redacted), remembered for the next save of the same session.

    A watcher saves a followed session's record again at each change, and
    almost every row (a file, an error, a test run) is what it was: the
    same model (see :class:`~artifact_index.live.record.KeptRows`), or an
    equal one.  The redaction of a row depends on nothing but the row, so a
    row saved before is not redacted again; and the store, knowing what it
    wrote, writes only the rows that changed (see :meth:`SessionStore.save`).
    Only the rows of the last save of the :data:`_REMEMBERED_SESSIONS`
    sessions saved last are remembered.
    """

    def __init__(self) -> None:
        self._sessions: OrderedDict[str, _SavedRows] = OrderedDict()

    def last(self, session: str) -> _SavedRows | None:
        """What the last save of ``session`` by this store wrote, if it is remembered."""
        return self._sessions.get(session)

    # The record as the JSON the store writes, read back only through SessionRecord's validation.
    def rows(self, record: SessionRecord) -> tuple[dict[str, object], _SavedRows]:
        """``record``'s own fields as JSON, and its rows, redacted as :func:`~artifact_index.redaction.redact_json` redacts them."""
        redacting = redaction_enabled()
        dumped = record.model_dump(exclude=set(_ROW_LISTS))
        fields: dict[str, object] = redact_json(dumped) if redacting else dumped
        before = self._sessions.pop(record.id, None)
        if before is not None and before.redacting != redacting:
            before = None
        now = _SavedRows(redacting)
        for name in _ROW_LISTS:
            models: list[BaseModel] = getattr(record, name)
            # The same model as before is the same row; else an equal one (its text).
            by_id = {id(model): row for model, row in before.tables[name]} if before else {}
            by_text: dict[str, _Row] = {}
            made = now.tables[name]
            for model in models:
                row = by_id.get(id(model))
                if row is None:
                    item = model.model_dump()
                    text = repr(item)
                    row = by_text.get(text)
                    if row is None:
                        # A row is an object: redact_json redacts it whatever key holds its list.
                        row = _ROW_VALUES[name](redact_json(item) if redacting else item)
                        by_text[text] = row
                made.append((model, row))
        self._sessions[record.id] = now
        while len(self._sessions) > _REMEMBERED_SESSIONS:
            self._sessions.popitem(last=False)
        return fields, now

    def forget(self, session: str) -> None:
        self._sessions.pop(session, None)


class SessionStore:
    """The SQLite session store at ``path`` (default: :func:`default_store_path`)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path).expanduser() if path is not None else default_store_path()
        self._rows = _RecordRows()
        try:
            # The store quotes sessions (paths, error messages): its owner's only, like the tracker states.
            private_directory(self.path.parent)
            # A store made by an older version, or under a loose umask, is tightened too; SQLite
            # gives its -wal and -shm files the database's mode when it makes them.
            for path in (self.path, *_sidecars(self.path)):
                if path is self.path or path.exists():
                    private_file(path)
            with self._connection() as db:
                self._migrate(db)
        except (OSError, sqlite3.Error, StateError) as exc:
            raise StoreError(
                _damaged(self.path, exc)
                or f"the session store {self.path} cannot be opened ({_reason(exc)})"
            ) from exc

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        # Autocommit: transactions are explicit (see _write), so a migration or a save is all or nothing.
        with closing(
            sqlite3.connect(self.path, timeout=_LOCK_WAIT_SECONDS, isolation_level=None)
        ) as db:
            db.execute("PRAGMA foreign_keys = ON")
            yield db

    @staticmethod
    @contextmanager
    def _transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            # SQLite has already rolled back after some errors (a full disk): a second ROLLBACK
            # would fail and hide the error that matters.
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    @classmethod
    def _migrate(cls, db: sqlite3.Connection) -> None:
        _enter_wal_mode(db)
        db.execute(
            "CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied TEXT NOT NULL)"
        )
        for name, script in _MIGRATIONS:
            with cls._transaction(db):
                # Checked inside the transaction: another process may have just applied it.
                if db.execute("SELECT 1 FROM _migrations WHERE name = ?", (name,)).fetchone():
                    continue
                for statement in _statements(script):
                    db.execute(statement)
                db.execute("INSERT INTO _migrations (name, applied) VALUES (?, ?)", (name, _now()))

    @contextmanager
    def _use(self, *, write: bool = False) -> Iterator[sqlite3.Connection]:
        try:
            with self._connection() as db:
                if write:
                    with self._transaction(db):
                        yield db
                else:
                    yield db
        except sqlite3.Error as exc:
            raise StoreError(
                _damaged(self.path, exc) or f"the session store {self.path} failed ({_reason(exc)})"
            ) from exc

    # -- writing ----------------------------------------------------------------------
    def save(self, record: SessionRecord) -> None:
        """Keep ``record``, replacing what was kept of the same transcript; secrets never reach the file.

        Of a session this store saved last (and nobody since: every save
        counts in ``session_saves``), only the rows that changed are written.
        """
        session = record.id
        before = self._rows.last(session)
        # As JSON, redacted: what was validated as a record is written as it is (no model again).
        saved, rows = self._rows.rows(record)
        try:
            with self._use(write=True) as db:
                counted = db.execute(
                    "SELECT count FROM session_saves WHERE session = ?", (session,)
                ).fetchone()
                unchanged = (
                    before is not None and counted is not None and before.saves == counted[0]
                )
                # The session's row is updated in place, so what hangs off it besides its facts
                # (the compaction log) stays.
                db.execute(
                    _insert("sessions", _SESSION_COLUMNS)
                    + " ON CONFLICT(id) DO UPDATE SET "
                    + ", ".join(f"{c} = excluded.{c}" for c in _SESSION_COLUMNS[1:]),
                    (
                        session,
                        saved["transcript"],
                        saved["format"],
                        saved["session_id"],
                        saved["agent"],
                        saved["model"],
                        saved["root"],
                        saved["title"],
                        saved["turns"],
                        saved["events"],
                        saved["skipped"],
                        saved["started"],
                        saved["last_activity"],
                        _now(),
                        saved["size"],
                        saved["mtime_ns"],
                    ),
                )
                if unchanged:
                    assert before is not None
                    self._write_changes(db, session, before, rows)
                else:
                    self._write_all(db, session, rows)
                counted = db.execute(
                    "SELECT count FROM session_saves WHERE session = ?", (session,)
                ).fetchone()
                rows.saves = counted[0] if counted is not None else None
        except BaseException:
            self._rows.forget(session)  # what the file holds is not known now
            raise

    @staticmethod
    def _write_all(db: sqlite3.Connection, session: str, rows: _SavedRows) -> None:
        """Replace the session's rows whole."""
        for table in _ROW_LISTS:
            db.execute(f"DELETE FROM {table} WHERE session = ?", (session,))
        db.executemany(
            _insert("files", _FILE_COLUMNS),
            [(session, *row) for _, row in rows.tables["files"]],
        )
        for table, columns in (("errors", _ERROR_COLUMNS), ("tests", _TEST_COLUMNS)):
            db.executemany(
                _insert(table, columns),
                [(session, n, *row) for n, (_, row) in enumerate(rows.tables[table])],
            )

    @staticmethod
    def _write_changes(
        db: sqlite3.Connection, session: str, before: _SavedRows, rows: _SavedRows
    ) -> None:
        """Write the rows that differ from ``before``, which the store holds as this store wrote it.

        A row still there is updated in place and a new one added after the
        others, so the rows stay in the record's order, as saving it whole
        writes them (a new file, error or test run comes after the others).
        """
        # A file's row is keyed by its path; the others by their position in the record.
        old = {row[0]: row for _, row in before.tables["files"]}
        new = {row[0]: row for _, row in rows.tables["files"]}
        staying = [path for path in old if path in new]
        if list(new)[: len(staying)] != staying:
            # A file back in the list before others (or the files in another order): whole, so
            # that the rows keep the record's order.
            db.execute("DELETE FROM files WHERE session = ?", (session,))
            old = {}
        db.executemany(
            "DELETE FROM files WHERE session = ? AND path = ?",
            [(session, path) for path in old if path not in new],
        )
        db.executemany(
            _update("files", _FILE_COLUMNS, "path"),
            [
                (*row[1:], session, path)
                for path, row in new.items()
                if path in old and old[path] != row
            ],
        )
        db.executemany(
            _insert("files", _FILE_COLUMNS),
            [(session, *row) for path, row in new.items() if path not in old],
        )
        for table, columns in (("errors", _ERROR_COLUMNS), ("tests", _TEST_COLUMNS)):
            was = [row for _, row in before.tables[table]]
            now = [row for _, row in rows.tables[table]]
            db.execute(
                f"DELETE FROM {table} WHERE session = ? AND position >= ?", (session, len(now))
            )
            db.executemany(
                _update(table, columns, "position"),
                [(*row, session, n) for n, row in enumerate(now[: len(was)]) if was[n] != row],
            )
            db.executemany(
                _insert(table, columns),
                [(session, n, *row) for n, row in enumerate(now) if n >= len(was)],
            )

    def log_compaction(self, session: str, compaction: Compaction) -> None:
        """Add ``compaction`` to the log of the stored ``session`` (kept even when the session is stored again)."""
        with self._use(write=True) as db:
            db.execute(
                _insert("compactions", _COMPACTION_COLUMNS),
                (
                    session,
                    compaction.at,
                    compaction.phase,
                    compaction.trigger,
                    compaction.changed,
                    compaction.summary_chars,
                    compaction.overall,
                    json.dumps(redact_json(compaction.probes)),
                ),
            )

    def compactions(self, session: str) -> list[Compaction]:
        """The compactions logged for ``session``, oldest first."""
        with self._use() as db:
            rows = db.execute(
                "SELECT at, phase, trigger, changed, summary_chars, overall, probes FROM compactions "
                "WHERE session = ? ORDER BY at, rowid",
                (session,),
            ).fetchall()
        return [
            Compaction(
                at=r[0],
                phase=r[1],
                trigger=r[2],
                changed=r[3],
                summary_chars=r[4],
                overall=r[5],
                probes=json.loads(r[6]) if r[6] else [],
            )
            for r in rows
        ]

    def stamp(self, transcript: str | Path) -> tuple[int, int] | None:
        """Size and modification time of ``transcript`` when it was stored, or None if it never was."""
        with self._use() as db:
            row = db.execute(
                "SELECT size, mtime_ns FROM sessions WHERE transcript = ?",
                (str(Path(transcript).resolve()),),
            ).fetchone()
        return (int(row[0]), int(row[1])) if row else None

    # -- reading ----------------------------------------------------------------------
    @staticmethod
    def _filters(root: str | None, since: str | None) -> tuple[str, list[Any]]:
        clauses, values = [], []
        if root is not None:
            base = _posix_absolute(root).rstrip("/")
            clauses.append("(s.root = ? OR s.root LIKE ? ESCAPE '\\')")
            values += [base, _escape_like(base) + "/%"]
        if since is not None:
            clauses.append("s.last_activity >= ?")
            values.append(since_cutoff(since))
        return (" WHERE " + " AND ".join(clauses)) if clauses else "", values

    def sessions(self, *, root: str | None = None, since: str | None = None) -> list[SessionRow]:
        """Stored sessions, most recent first; ``root`` keeps those under a directory, ``since`` the recent ones."""
        where, values = self._filters(root, since)
        with self._use() as db:
            rows = db.execute(
                _ROW + where + " ORDER BY s.last_activity DESC, s.transcript", values
            ).fetchall()
        return [SessionRow(**dict(zip(_ROW_FIELDS, row, strict=True))) for row in rows]

    def session(self, key: str) -> SessionRow:
        """The session whose store id, agent session id or transcript path is ``key``."""
        with self._use() as db:
            rows = db.execute(
                _ROW + " WHERE s.id = ? OR s.session_id = ? OR s.transcript = ?", (key, key, key)
            ).fetchall()
        found = [SessionRow(**dict(zip(_ROW_FIELDS, row, strict=True))) for row in rows]
        exact = [row for row in found if row.id == key]
        if exact:
            return exact[0]
        if len(found) == 1:
            return found[0]
        if not found:
            raise SessionNotFound(
                f"no stored session has the id {key!r} (see `artifact-index sessions`)"
            )
        raise SessionNotFound(
            f"{len(found)} stored sessions carry the id {key!r}; use one of the store's ids: "
            + ", ".join(row.id for row in found)
        )

    def files(self, session: str) -> list[StoredFile]:
        """The files of one stored session, in order of first touch."""
        with self._use() as db:
            rows = db.execute(
                "SELECT path, absolute, status, sources, first_turn, last_turn, renamed_from "
                "FROM files WHERE session = ? ORDER BY first_turn, path",
                (session,),
            ).fetchall()
        return [_file(row) for row in rows]

    def where(self, path: str, *, since: str | None = None) -> list[Touch]:
        """Every stored session that touched ``path``, most recent first.

        ``path`` is taken relative to the current directory; a relative path
        also matches any file whose absolute path ends with it, so
        ``src/app.py`` finds the file in every checkout.
        """
        # The store keeps paths redacted (a component holding a secret is a keyed placeholder):
        # the path asked about is redacted the same way to find them.
        conditions = ["f.absolute = ?"]
        values: list[Any] = [redact_path(_posix_absolute(path))]
        relative = redact_path(path.replace("\\", "/").strip())
        if relative and not os.path.isabs(relative) and not relative.startswith("~"):
            conditions.append("f.absolute LIKE ? ESCAPE '\\'")
            values.append("%/" + _escape_like(relative.removeprefix("./")))
        where, more = self._filters(None, since)
        query = (
            _ROW.replace(
                "FROM sessions s",
                ", f.path, f.absolute, f.status, f.sources, f.first_turn, "
                "f.last_turn, f.renamed_from FROM sessions s JOIN files f ON f.session = s.id",
            )
            + (where + " AND " if where else " WHERE ")
            + "("
            + " OR ".join(conditions)
            + ")"
            + " ORDER BY s.last_activity DESC, s.transcript"
        )
        with self._use() as db:
            rows = db.execute(query, more + values).fetchall()
        count = len(_ROW_FIELDS)
        return [
            Touch(
                session=SessionRow(**dict(zip(_ROW_FIELDS, row[:count], strict=True))),
                file=_file(row[count:]),
            )
            for row in rows
        ]

    def open_errors(
        self, *, root: str | None = None, since: str | None = None
    ) -> list[tuple[SessionRow, StoredError]]:
        """Errors still open at the end of their session, across sessions."""
        found = []
        for row in self.sessions(root=root, since=since):
            if not row.open_errors:
                continue
            with self._use() as db:
                errors = db.execute(
                    "SELECT message, kind, file, line, first_turn, last_turn, resolved FROM errors "
                    "WHERE session = ? AND NOT resolved ORDER BY position",
                    (row.id,),
                ).fetchall()
            found += [
                (
                    row,
                    StoredError(
                        message=e[0],
                        kind=e[1],
                        file=e[2],
                        line=e[3],
                        first_turn=e[4],
                        last_turn=e[5],
                        resolved=bool(e[6]),
                    ),
                )
                for e in errors
            ]
        return found


def _enter_wal_mode(db: sqlite3.Connection, wait: float = _LOCK_WAIT_SECONDS) -> None:
    """Put the store in WAL mode, waiting as long as any other lock wait would.

    Switching a new file to WAL needs every other connection out of it for a
    moment, and when waiting could deadlock SQLite answers "locked" at once
    instead of calling its busy handler: hooks that start together on a new
    store would then fail though each holds the lock only briefly.
    """
    deadline = time.monotonic() + wait
    while True:
        try:
            db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc) or time.monotonic() >= deadline:
                raise
            time.sleep(_LOCK_RETRY_SECONDS)


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    """Whether another connection's lock refused ``exc``'s statement (SQLITE_BUSY or LOCKED, any variant)."""
    return getattr(exc, "sqlite_errorcode", 0) & 0xFF in (
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_LOCKED,
    )


def _reason(exc: Exception) -> str:
    """What went wrong, in the system's words: a full disk is said as such, not as SQLite's code."""
    if isinstance(exc, StateError) and isinstance(exc.__cause__, OSError):
        exc = exc.__cause__  # the store names its own file: the system's reason is what is left
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorname", "")
        if code == "SQLITE_FULL":
            return "no space left on device"
        if code.startswith("SQLITE_READONLY"):
            return "read-only: the store's file or folder cannot be written"
    return str(exc)


def _damaged(path: Path, exc: Exception) -> str | None:
    """What to say of a store SQLite finds damaged (cut short, overwritten), else None.

    The file is left as it is: what it still holds is the user's to rescue.
    The sessions come back from their transcripts; the compaction log does not.
    """
    code = getattr(exc, "sqlite_errorname", "")
    if code not in ("SQLITE_CORRUPT", "SQLITE_NOTADB") and not code.startswith("SQLITE_CORRUPT_"):
        return None
    return (
        f"the session store {path} is damaged ({exc}): move it aside, and "
        "`artifact-index store` rebuilds the sessions from their transcripts"
    )


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _file(row: tuple[Any, ...] | sqlite3.Row) -> StoredFile:
    return StoredFile(
        path=row[0],
        absolute=row[1],
        status=row[2],
        sources=json.loads(row[3]),
        first_turn=row[4],
        last_turn=row[5],
        renamed_from=row[6],
    )
