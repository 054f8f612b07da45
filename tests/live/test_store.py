"""The session store: questions that span sessions, answered without reading a transcript again."""

from __future__ import annotations

import errno
import json
import multiprocessing
import os
import sqlite3
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import pytest

from artifact_index.batch.discovery import Candidate
from artifact_index.live.indexing import index_for_store
from artifact_index.live.record import StoredFile
from artifact_index.live.store import (
    Compaction,
    SessionNotFound,
    SessionStore,
    StoreError,
    _enter_wal_mode,
    since_cutoff,
)
from artifact_index.presentation.cli import main
from tests.conftest import CorpusIndex

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def stored(store: SessionStore, *paths: Path) -> None:
    for path in paths:
        indexed = index_for_store(Candidate(str(path), named=True))
        assert indexed.record is not None, indexed.message
        store.save(indexed.record)


@pytest.fixture
def store(tmp_path: Path) -> SessionStore:
    return SessionStore(tmp_path / "sessions.db")


def test_which_sessions_touched_a_path(
    store: SessionStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    stored(store, EXAMPLES / "claude-code-session.jsonl", EXAMPLES / "codex-rollout.jsonl")
    touches = store.where("/home/dev/webapp/src/auth.py")
    assert [
        (t.session.format, t.file.status, t.file.first_turn, t.file.last_turn) for t in touches
    ] == [("claude-code", "modified", 5, 7)]
    # A relative path matches the file in any checkout; from inside one, it is that checkout's file.
    assert [t.file.absolute for t in store.where("src/auth.py")] == ["/home/dev/webapp/src/auth.py"]
    assert [t.session.format for t in store.where("weather/units.py")] == ["codex"]
    assert store.where("src/nothing.py") == []


def test_what_changed_under_a_repository_since_a_time(store: SessionStore) -> None:
    stored(store, EXAMPLES / "claude-code-session.jsonl", EXAMPLES / "codex-rollout.jsonl")
    # The transcripts' own timestamps date the sessions: Claude Code's in February, Codex's in May 2026.
    assert [r.format for r in store.sessions(since="2026-03-01")] == ["codex"]
    assert [r.format for r in store.sessions(since="2026-01-01")] == ["codex", "claude-code"]
    assert [r.format for r in store.sessions(root="/home/dev")] == ["claude-code"]
    webapp = store.sessions(root="/home/dev/webapp")[0]
    assert (webapp.changed, webapp.read, webapp.turns) == (2, 1, 11)
    assert [(f.path, f.status) for f in store.files(webapp.id)] == [
        ("README.md", "read"),
        ("src/auth.py", "modified"),
        ("tests/test_auth.py", "created"),
    ]


def test_open_errors_across_sessions(
    store: SessionStore, corpus_dir: Path, corpus_index: CorpusIndex
) -> None:
    transcripts = sorted((corpus_dir / "claude_code").glob("entire__*.jsonl.gz"))[:12]
    stored(store, *transcripts)
    expected = sorted(
        (str(path.resolve()), e.message)
        for path in transcripts
        for e in corpus_index(path)[0].errors()
        if not e.resolved
    )
    assert expected, "some of these sessions end with errors open"
    found = store.open_errors()
    assert sorted((row.transcript, error.message) for row, error in found) == expected
    assert sum(row.open_errors for row in store.sessions()) == len(expected)


def test_storing_again_replaces_the_session_and_the_agent_id_finds_it(store: SessionStore) -> None:
    stored(store, EXAMPLES / "claude-code-session.jsonl")
    stored(store, EXAMPLES / "claude-code-session.jsonl")
    [row] = store.sessions()
    assert store.session("5b1e2c4d-8f3a-4e6b-9c2d-1a7f0e3b5c9d").id == row.id
    assert len(store.files(row.id)) == 3
    with pytest.raises(SessionNotFound, match="no stored session"):
        store.session("nope")


def test_a_store_of_an_older_version_gains_the_new_tables_and_keeps_its_rows(
    tmp_path: Path,
) -> None:
    stored(SessionStore(tmp_path / "s.db"), EXAMPLES / "codex-rollout.jsonl")
    # closing(): sqlite3's own context manager commits but leaves the connection open (a ResourceWarning on 3.13).
    with (
        closing(sqlite3.connect(tmp_path / "s.db")) as db,
        db,
    ):  # as a store written before the compaction log existed
        db.execute("DROP TABLE compactions")
        db.execute("DELETE FROM _migrations WHERE name = '002_compactions'")
    again = SessionStore(tmp_path / "s.db")
    [row] = again.sessions()
    again.log_compaction(
        row.id, Compaction(at="2026-05-12T14:03:00Z", phase="pre", trigger="auto", changed=2)
    )
    assert [c.changed for c in again.compactions(row.id)] == [2]
    with closing(sqlite3.connect(tmp_path / "s.db")) as db:
        assert [name for (name,) in db.execute("SELECT name FROM _migrations ORDER BY name")] == [
            "001_sessions_files_errors_tests",
            "002_compactions",
            "003_session_saves",
        ]


def test_storing_a_session_again_keeps_its_compaction_log(store: SessionStore) -> None:
    stored(store, EXAMPLES / "claude-code-session.jsonl")
    [row] = store.sessions()
    store.log_compaction(
        row.id, Compaction(at="2026-02-11T10:01:00Z", phase="pre", trigger="manual", changed=2)
    )
    stored(store, EXAMPLES / "claude-code-session.jsonl")
    assert [(c.phase, c.trigger) for c in store.compactions(row.id)] == [("pre", "manual")]


def test_the_store_is_its_owners_only(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "private" / "sessions.db")
    stored(store, EXAMPLES / "codex-rollout.jsonl")
    assert (tmp_path / "private").stat().st_mode & 0o777 == 0o700
    # SQLite gives its -wal and -shm files the database's mode, while they exist.
    files = {p.name: p.stat().st_mode & 0o777 for p in (tmp_path / "private").iterdir()}
    assert files["sessions.db"] == 0o600 and set(files.values()) == {0o600}


def test_since_takes_spans_and_dates_and_says_what_it_cannot_read() -> None:
    assert since_cutoff("2026-11-01") == "2026-11-01T00:00:00Z"
    assert since_cutoff("2026-11-01T12:30:00+02:00") == "2026-11-01T10:30:00Z"
    assert since_cutoff("7d") < since_cutoff("1h")
    with pytest.raises(StoreError, match="neither a span"):
        since_cutoff("last week")


def test_the_commands_over_the_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "s.db")
    assert main(["store", str(EXAMPLES), "--store", db, "--jobs", "1"]) == 0
    capsys.readouterr()
    assert main(["sessions", "--store", db, "--root", "/home/dev/webapp", "--changed"]) == 0
    out = capsys.readouterr().out
    assert (
        "claude-code" in out and "modified  src/auth.py  (turns 5-7)" in out and "codex" not in out
    )
    assert main(["where", "tests/test_auth.py", "--store", db, "--json"]) == 0
    [touch] = json.loads(capsys.readouterr().out)["sessions"]
    assert touch["file"]["status"] == "created" and touch["format"] == "claude-code"
    # Nothing changed since: nothing is indexed again.
    assert main(["store", str(EXAMPLES), "--store", db, "--jobs", "1"]) == 0
    assert "0 session(s) stored" in capsys.readouterr().err


def test_a_bad_since_is_one_sentence(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "artifact_index",
            "sessions",
            "--store",
            str(tmp_path / "s.db"),
            "--since",
            "yesterday",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2  # the command line is wrong: its usage, then why
    assert done.stderr.startswith("usage: artifact-index sessions")
    assert (
        "error: argument --since: the time 'yesterday' is neither" in done.stderr
        and "Traceback" not in done.stderr
    )


def test_a_column_a_newer_version_added_does_not_stop_an_older_writer(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    stored(SessionStore(path), EXAMPLES / "codex-rollout.jsonl")
    # A newer version's migration: one more column in every table, and its name in the log.
    with closing(sqlite3.connect(path)) as db, db:
        for table in ("sessions", "files", "errors", "tests", "compactions", "_migrations"):
            db.execute(f"ALTER TABLE {table} ADD COLUMN added_later TEXT DEFAULT 'x'")
        db.execute("INSERT INTO _migrations (name, applied) VALUES ('999_later', 'now')")
    older = SessionStore(path)
    stored(older, EXAMPLES / "codex-rollout.jsonl", EXAMPLES / "claude-code-session.jsonl")
    row = next(r for r in older.sessions() if r.format == "claude-code")
    older.log_compaction(
        row.id, Compaction(at="2026-05-12T14:03:00Z", phase="pre", trigger="auto", changed=2)
    )
    assert [c.changed for c in older.compactions(row.id)] == [2]
    assert {f.path for f in older.files(row.id)} >= {"src/auth.py", "tests/test_auth.py"}


@pytest.mark.parametrize("umask", [0o000, 0o022])
def test_every_folder_the_store_makes_is_private_whatever_the_umask(
    tmp_path: Path, umask: int
) -> None:
    previous = os.umask(umask)
    try:
        store = SessionStore(tmp_path / "data" / "artifact-index" / "sessions.db")
        stored(store, EXAMPLES / "codex-rollout.jsonl")
    finally:
        os.umask(previous)
    for folder in (tmp_path / "data", tmp_path / "data" / "artifact-index"):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    files = {p.name: stat.S_IMODE(p.stat().st_mode) for p in store.path.parent.iterdir()}
    assert files["sessions.db"] == 0o600 and set(files.values()) == {0o600}, files


def test_a_store_left_readable_by_others_is_tightened_when_opened(tmp_path: Path) -> None:
    path = tmp_path / "sessions.db"
    stored(SessionStore(path), EXAMPLES / "codex-rollout.jsonl")
    # Another process holds the store open, so its -wal and -shm files stay.
    with closing(sqlite3.connect(path)) as other:
        other.execute("SELECT count(*) FROM sessions").fetchone()
        sidecars = [path.with_name("sessions.db-wal"), path.with_name("sessions.db-shm")]
        for file in (path, *sidecars):
            os.chmod(file, 0o644)
        SessionStore(path).sessions()
        assert {stat.S_IMODE(p.stat().st_mode) for p in (path, *sidecars)} == {0o600}


def test_a_full_disk_is_said_as_such(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = SessionStore(tmp_path / "s.db")
    opened = SessionStore._connection

    @contextmanager
    def small(self: SessionStore) -> Iterator[sqlite3.Connection]:
        with opened(self) as db:
            # SQLite's own "database or disk is full" (SQLITE_FULL) as soon as the file would grow.
            pages = db.execute("PRAGMA page_count").fetchone()[0]
            db.execute(f"PRAGMA max_page_count = {pages}")
            yield db

    indexed = index_for_store(Candidate(str(EXAMPLES / "claude-code-session.jsonl"), named=True))
    assert indexed.record is not None
    many = [
        StoredFile(
            path=f"src/m{n}.py",
            absolute=f"/w/src/m{n}.py",
            status="read",
            sources=["tool"],
            first_turn=1,
            last_turn=1,
        )
        for n in range(2000)
    ]
    monkeypatch.setattr(SessionStore, "_connection", small)
    with pytest.raises(StoreError, match=r"failed \(no space left on device\)"):
        store.save(indexed.record.model_copy(update={"files": many}))


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0,
    reason="the superuser writes into read-only folders",
)
def test_a_store_in_a_read_only_folder_is_one_sentence_and_exit_1(tmp_path: Path) -> None:
    folder = tmp_path / "readonly"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "artifact_index", "sessions", "--store", str(folder / "s.db")],
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        folder.chmod(0o700)
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1 and "Permission denied" in done.stderr


def test_a_store_the_system_refuses_to_open_is_one_sentence_and_exit_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # What a read-only folder does to a user who is not the superuser (the test may run as root).
    folder = tmp_path / "readonly"
    folder.mkdir()
    system_open = os.open

    def refuse(path: Any, *args: Any, **kwargs: Any) -> int:
        if str(path).startswith(str(folder)):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return system_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)
    assert main(["sessions", "--store", str(folder / "s.db")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot be opened (Permission denied)" in err


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_a_damaged_store_is_said_in_one_sentence_and_left_as_it_was(
    tmp_path: Path, damage: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "s.db"
    if damage == "garbage":
        path.write_bytes(bytes(range(256)) * 64)
    else:  # a store cut in half (a copy that did not finish, a full disk)
        assert (
            main(["store", str(ROOT / "tests" / "fixtures" / "claude_code"), "--store", str(path)])
            == 0
        )
        with closing(sqlite3.connect(path)) as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        os.truncate(path, path.stat().st_size // 2)
    capsys.readouterr()
    before = path.read_bytes()
    assert main(["sessions", "--store", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"the session store {path} is damaged" in err and "artifact-index store" in err
    assert path.read_bytes() == before  # what can still be rescued from it is the user's


def _rows(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    with closing(sqlite3.connect(path)) as db:
        return {
            table: db.execute(f"SELECT * FROM {table} ORDER BY rowid").fetchall()
            for table in ("files", "errors", "tests")
        }


def test_saving_a_session_again_writes_what_saving_it_once_writes_and_no_secret(
    tmp_path: Path,
) -> None:
    # The rows a save redacted are remembered for the next save of the session: a row that
    # changed is redacted again, one that did not is written as it was.
    from tests.fake_secrets import fake_secrets

    secret = next(s for s in fake_secrets() if s.by_shape and s.path_safe)
    indexed = index_for_store(Candidate(str(EXAMPLES / "claude-code-session.jsonl"), named=True))
    assert indexed.record is not None
    first = indexed.record
    leaked = StoredFile(
        path=f"config/{secret.value}.env",
        absolute=f"/home/dev/webapp/config/{secret.value}.env",
        status="created",
        sources=["Write"],
        first_turn=9,
        last_turn=9,
    )
    second = first.model_copy(
        update={
            "files": [
                first.files[0].model_copy(update={"last_turn": 11}),
                *first.files[1:],
                leaked,
            ]
        }
    )
    following = SessionStore(tmp_path / "following.db")
    following.save(first)
    following.save(second)
    once = SessionStore(tmp_path / "once.db")
    once.save(second)
    rows = _rows(following.path)
    assert rows == _rows(once.path)
    assert [row[1] for row in rows["files"]][-1].startswith("config/[REDACTED")
    written = b"".join(p.read_bytes() for p in tmp_path.glob("following.db*"))
    assert secret.value.encode() not in written


def test_a_save_after_another_writers_rewrites_the_session_whole(tmp_path: Path) -> None:
    # A store writes only the rows that changed since its own last save of a session; another
    # writer (a hook, a second watcher) may have saved the session meanwhile, with other rows.
    indexed = index_for_store(Candidate(str(EXAMPLES / "claude-code-session.jsonl"), named=True))
    assert indexed.record is not None
    first = indexed.record
    assert len(first.files) >= 3 and len(first.tests) >= 2
    other = first.model_copy(update={"files": first.files[1:], "errors": [], "tests": []})
    last = first.model_copy(
        update={
            "files": [first.files[0].model_copy(update={"last_turn": 12}), *first.files[1:]],
            "tests": [first.tests[0].model_copy(update={"failed": 1})],
        }
    )
    watcher = SessionStore(tmp_path / "s.db")
    watcher.save(first)
    SessionStore(tmp_path / "s.db").save(other)
    watcher.save(last)
    once = SessionStore(tmp_path / "once.db")
    once.save(last)
    assert _rows(watcher.path) == _rows(once.path)
    # And its own saves in a row, rows dropped and changed included, write what one save writes.
    watcher.save(other)
    watcher.save(first)
    once.save(first)
    assert _rows(watcher.path) == _rows(once.path)


@pytest.mark.parametrize(
    "example", ["claude-code-session.jsonl", "codex-rollout.jsonl", "mini-swe-agent.traj.json"]
)
def test_a_sessions_stored_files_are_the_files_it_lists(example: str) -> None:
    # The record is made from the files' states, not their entries: it must say what they say.
    from artifact_index.live.record import session_record
    from artifact_index.trail.build import build_index

    path = EXAMPLES / example
    index, _ = build_index(str(path))
    record = session_record(path, index, [], 0, path.stat())
    listed = [entry for entry in index.files() if entry.status is not None and entry.ops]
    assert listed
    assert [
        (f.path, f.status, f.sources, f.first_turn, f.last_turn, f.renamed_from)
        for f in record.files
    ] == [
        (
            e.path,
            e.status,
            e.sources,
            min(op.turn for op in e.ops),
            max(op.turn for op in e.ops),
            e.renamed_from,
        )
        for e in listed
    ]


def _open_store_at(args: tuple[str, float]) -> str | None:
    """Open the store at a shared start time; what went wrong, if anything."""
    path, start = args
    while time.time() < start:
        pass  # every opener starts in the same instant, where the lock race happens
    try:
        SessionStore(path)
    except StoreError as exc:
        return str(exc)
    return None


def test_many_openers_of_a_new_store_at_once_all_open_it(tmp_path: Path) -> None:
    # Switching a new file to WAL made SQLite answer "locked" at once, without waiting, to
    # about one opener in three such rounds.
    context = multiprocessing.get_context("spawn")  # fork warns in a threaded test runner
    failures: list[str] = []
    with context.Pool(12) as pool:
        for round_number in range(10):
            path = str(tmp_path / f"round-{round_number}" / "sessions.db")
            start = time.time() + 0.2
            failures += [err for err in pool.map(_open_store_at, [(path, start)] * 12) if err]
    assert failures == []


def test_the_switch_to_wal_mode_waits_out_a_refusal_that_skipped_the_busy_wait() -> None:
    class RefusedTwice:
        def __init__(self) -> None:
            self.tries = 0

        def execute(self, statement: str) -> None:
            self.tries += 1
            if self.tries <= 2:
                refusal = sqlite3.OperationalError("database is locked")
                refusal.sqlite_errorcode = sqlite3.SQLITE_BUSY  # type: ignore[attr-defined]
                raise refusal

    db = RefusedTwice()
    _enter_wal_mode(db, wait=5)  # type: ignore[arg-type]
    assert db.tries == 3


def test_a_store_that_stays_locked_is_still_reported_as_locked() -> None:
    class AlwaysLocked:
        def execute(self, statement: str) -> None:
            refusal = sqlite3.OperationalError("database is locked")
            refusal.sqlite_errorcode = sqlite3.SQLITE_BUSY  # type: ignore[attr-defined]
            raise refusal

    with pytest.raises(sqlite3.OperationalError, match="locked"):
        _enter_wal_mode(AlwaysLocked(), wait=0.05)  # type: ignore[arg-type]
