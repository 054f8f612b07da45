"""``artifact-index watch`` as a user runs it: a real transcript appended line by line while watched."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from artifact_index.live.store import SessionStore
from artifact_index.trail.build import build_index
from tests.support.processes import interrupt

TRANSCRIPT = "claude_code/ccviewer__5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl.gz"


def wait_for(
    condition: Callable[[], bool], seconds: float = 60, poke: Callable[[], None] | None = None
) -> bool:
    """Poll ``condition`` until it holds; ``poke`` runs before each check (to nudge a watcher)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if poke is not None:
            poke()
        if condition():
            return True
        time.sleep(0.1)
    return False


def stored_events(store: SessionStore) -> int:
    rows = store.sessions()
    return rows[0].events if rows else 0


def test_a_transcript_written_line_by_line_is_kept_current_in_the_store(
    corpus_dir: Path, tmp_path: Path
) -> None:
    lines = gzip.decompress((corpus_dir / TRANSCRIPT).read_bytes()).splitlines(keepends=True)
    sessions = tmp_path / "projects"
    sessions.mkdir()
    db = tmp_path / "sessions.db"
    watcher = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "artifact_index",
            "watch",
            str(sessions),
            "--json",
            "--store",
            str(db),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    errors: list[str] = []
    reader = threading.Thread(target=lambda: errors.extend(watcher.stderr or []), daemon=True)
    reader.start()
    try:
        assert wait_for(lambda: any("watching" in line for line in errors)), errors
        store = SessionStore(db)
        transcript = sessions / "session.jsonl"
        half = len(lines) // 2
        for line in lines[:half]:
            with transcript.open("ab") as handle:
                handle.write(line)
        expected = len(list(build_index(transcript)[1].events()))
        # "watching" is printed before the watch is set up: lines written before it are seen at
        # the next change of the file, which touching it makes.
        assert wait_for(
            lambda: stored_events(store) == expected, poke=lambda: os.utime(transcript)
        ), (
            stored_events(store),
            expected,
            errors,
        )

        # Half a line is not a record yet: the store waits for the rest.  A transcript written
        # after it and seen stored shows the watcher has been through the half line.
        partial = lines[half][: len(lines[half]) // 2]
        with transcript.open("ab") as handle:
            handle.write(partial)
        later = sessions / "later.jsonl"
        later.write_bytes(b"".join(lines[:4]))
        assert wait_for(lambda: any(r.transcript == str(later.resolve()) for r in store.sessions()))
        assert stored_events(store) == expected
        with transcript.open("ab") as handle:
            handle.write(lines[half][len(partial) :] + b"".join(lines[half + 1 :]))
        final, _ = build_index(transcript)
        expected = len(list(build_index(transcript)[1].events()))
        assert wait_for(lambda: stored_events(store) == expected), (
            stored_events(store),
            expected,
            errors,
        )
        [row] = [r for r in store.sessions() if r.transcript == str(transcript.resolve())]
        assert (row.format, row.changed) == ("claude-code", len(final.changed_files()))
    finally:
        out, _ = interrupt(watcher)
    assert watcher.returncode == 0, errors
    updates = [json.loads(line) for line in out.splitlines()]
    assert updates and all(u["kind"] == "stored" for u in updates)
    ours = [u for u in updates if u["transcript"].endswith("session.jsonl")]
    assert ours[-1]["events"] == expected and not any("Traceback" in line for line in errors)


def test_a_named_transcript_is_followed_even_when_replaced_by_a_new_file(tmp_path: Path) -> None:
    from artifact_index.live.watch import Watcher

    lines = (
        (Path(__file__).resolve().parents[2] / "examples" / "claude-code-session.jsonl")
        .read_bytes()
        .splitlines(keepends=True)
    )
    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes(b"".join(lines[:8]))
    (tmp_path / "other.jsonl").write_bytes(
        b"".join(lines)
    )  # in the same folder, but not named: never stored
    store = SessionStore(tmp_path / "s.db")
    watcher = Watcher([str(transcript)], store)
    stop = threading.Event()
    updates: list[object] = []
    follower = threading.Thread(target=lambda: updates.extend(watcher.follow(stop)), daemon=True)
    follower.start()
    try:
        with transcript.open("ab") as handle:
            handle.write(b"".join(lines[8:16]))
        # The watch may not be set up yet when the lines land: touching the file again makes
        # a change it sees once it is, and the lines appended are read then.
        assert wait_for(lambda: stored_events(store) > 0, poke=lambda: os.utime(transcript))
        # An editor-style save: a new file renamed over the old one.
        replacement = tmp_path / "session.jsonl.new"
        replacement.write_bytes(b"".join(lines))
        replacement.replace(transcript)
        expected = len(list(build_index(transcript)[1].events()))
        assert wait_for(lambda: stored_events(store) == expected), (stored_events(store), expected)
    finally:
        stop.set()
        follower.join(timeout=30)
    assert [row.transcript for row in store.sessions()] == [str(transcript.resolve())]


def test_the_first_line_appended_after_the_catch_up_is_read_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from artifact_index.batch.runner import local_executor
    from artifact_index.live import live_transcript
    from artifact_index.live.watch import Watcher

    lines = (
        (Path(__file__).resolve().parents[2] / "examples" / "claude-code-session.jsonl")
        .read_bytes()
        .splitlines(keepends=True)
    )
    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes(b"".join(lines[:20]))
    store = SessionStore(tmp_path / "s.db")
    watcher = Watcher([str(transcript)], store)
    candidates, _ = watcher.stale()
    with local_executor(1) as pool:
        assert [u.kind for u in watcher.catch_up(candidates, pool, 1)] == ["stored"]
    with transcript.open("ab") as handle:
        handle.write(b"".join(lines[20:]))
    # Reading from the start again would start with a new stream.
    monkeypatch.setattr(
        live_transcript.LiveTranscript, "_start", lambda self: pytest.fail("read again")
    )
    update = watcher.changed(str(transcript))
    assert update is not None and update.kind == "stored" and not update.rebuilt
    assert update.record is not None
    assert update.record.events == len(list(build_index(transcript)[1].events()))


@pytest.mark.parametrize("example", ["claude-code-session.jsonl", "codex-rollout.jsonl"])
def test_each_record_made_while_following_is_the_record_made_anew(
    tmp_path: Path, example: str
) -> None:
    # A followed session's record makes again only the rows that changed: it must say what
    # making every row anew says, line after line.
    from artifact_index.batch.runner import local_executor
    from artifact_index.live.record import session_record
    from artifact_index.live.watch import Watcher

    lines = (
        (Path(__file__).resolve().parents[2] / "examples" / example)
        .read_bytes()
        .splitlines(keepends=True)
    )
    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes(b"".join(lines[:3]))
    watcher = Watcher([str(transcript)], SessionStore(tmp_path / "s.db"))
    candidates, _ = watcher.stale()
    with local_executor(1) as pool:
        list(watcher.catch_up(candidates, pool, 1))
    records = []
    for line in lines[3:]:
        with transcript.open("ab") as handle:
            handle.write(line)
        update = watcher.changed(str(transcript))
        if update is None or update.record is None:
            continue
        live, _ = watcher._followed.refresh(str(transcript))
        anew = session_record(
            transcript, live.index, live.tally, len(live.skipped), transcript.stat()
        )
        assert update.record == anew
        records.append(update.record)
    assert len(records) > 5 and records[-1].files
    # A file the last lines did not touch is the row made before, not made again.
    unchanged = [f for f in records[-1].files if f in records[-2].files]
    assert unchanged and all(any(f is before for before in records[-2].files) for f in unchanged)


def test_the_first_refresh_after_the_catch_up_makes_only_the_rows_that_changed(
    tmp_path: Path,
) -> None:
    # The catch-up keeps the rows of the record it stored with the transcript it follows: the
    # first line appended after it does not make every file's row again.
    from artifact_index.batch.runner import local_executor
    from artifact_index.live.watch import Watcher

    lines = (
        (Path(__file__).resolve().parents[2] / "examples" / "claude-code-session.jsonl")
        .read_bytes()
        .splitlines(keepends=True)
    )
    transcript = tmp_path / "session.jsonl"
    half = len(lines) // 2
    transcript.write_bytes(b"".join(lines[:half]))
    watcher = Watcher([str(transcript)], SessionStore(tmp_path / "s.db"))
    candidates, _ = watcher.stale()
    with local_executor(1) as pool:
        [caught_up] = watcher.catch_up(candidates, pool, 1)
    assert caught_up.record is not None and caught_up.record.files
    for line in lines[half:]:  # up to the first line that settles an event
        with transcript.open("ab") as handle:
            handle.write(line)
        update = watcher.changed(str(transcript))
        if update is not None and update.record is not None:
            break
    assert update is not None and update.record is not None
    kept = [f for f in update.record.files if f in caught_up.record.files]
    assert kept and all(any(f is made for made in caught_up.record.files) for f in kept)
