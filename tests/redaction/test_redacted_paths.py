"""Paths that hold a secret stay paths: distinct, stable, and usable by everything that keys by path.

Redaction replaced a path with one random-looking segment whole, so two
uploads became one path and the session store's ``UNIQUE`` constraint
failed for the whole session: in ``store``, ``watch``, the PreCompact
snapshot and the PostCompact score.  Now only a component that holds a
secret is replaced, by a placeholder that keeps paths apart, and a random
name that is no secret (an upload's id) stays as it is.
"""

from __future__ import annotations

import io
import json
import random
import string
import subprocess
import sys
import time
from pathlib import Path

import pytest

from artifact_index.live.store import SessionStore
from artifact_index.presentation.cli import main
from tests.support.processes import interrupt
from tests.support.transcript_writers import ROOT, WRITERS, Step

_ALNUM = string.ascii_letters + string.digits


def _draw(rng: random.Random, size: int) -> str:
    return "".join(rng.choice(_ALNUM) for _ in range(size))


def _uploads(tmp_path: Path) -> tuple[Path, list[str], list[str]]:
    """A session writing uploads under token-named folders and under random ids."""
    rng = random.Random(11)
    tokens = [prefix + _draw(rng, 36) for prefix in ("gh" + "p_", "hf_", "npm_") for _ in range(3)]
    ids = [_draw(rng, 24) for _ in range(4)]
    steps = [Step("user", text="Store the uploads.")]
    steps += [
        Step("write", path=f"{ROOT}/uploads/{name}/photo.jpg", content="JFIF")
        for name in tokens + ids
    ]
    transcript = tmp_path / "session.jsonl"
    transcript.write_text(WRITERS["claude-code"][1](steps), encoding="utf-8")
    return transcript, tokens, ids


def test_store_keeps_every_upload_apart_with_secrets_hidden_and_ids_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    transcript, tokens, ids = _uploads(tmp_path)
    store = tmp_path / "s.db"
    assert main(["store", str(transcript), "--store", str(store)]) == 0
    capsys.readouterr()
    database = store.read_bytes().decode("latin-1")
    assert [token for token in tokens if token in database] == []

    found = {}
    for name in tokens + ids:
        [touch] = SessionStore(store).where(f"{ROOT}/uploads/{name}/photo.jpg")
        found[name] = touch.file.path
    assert len(set(found.values())) == len(tokens) + len(ids)  # no two paths became one
    assert all(found[name] == f"uploads/{name}/photo.jpg" for name in ids)  # no secret: kept
    assert all(
        path.startswith("uploads/[REDACTED-") and path.endswith("]/photo.jpg")
        for name, path in found.items()
        if name in tokens
    )


def test_the_compaction_hooks_snapshot_and_score_a_session_whose_paths_hold_secrets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    transcript, tokens, _ = _uploads(tmp_path)
    store = tmp_path / "s.db"
    for event, extra in (
        ("PreCompact", {"trigger": "auto"}),
        ("PostCompact", {"trigger": "auto", "compact_summary": "Stored the uploads."}),
    ):
        hook_input = {"transcript_path": str(transcript), "hook_event_name": event, **extra}
        monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(hook_input)))
        assert main(["hook", "--store", str(store)]) == 0
        captured = capsys.readouterr()
        assert captured.err == "", captured.err  # (a failed snapshot is a note here)
        assert [token for token in tokens if token in captured.out] == []
    [row] = SessionStore(store).sessions()
    phases = [entry.phase for entry in SessionStore(store).compactions(row.id)]
    assert phases == ["pre", "post"]


def test_watch_keeps_a_session_whose_paths_hold_secrets(tmp_path: Path) -> None:
    transcript, tokens, ids = _uploads(tmp_path)
    store = tmp_path / "s.db"
    watcher = subprocess.Popen(
        [sys.executable, "-m", "artifact_index", "watch", str(transcript), "--store", str(store)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and watcher.poll() is None:
            if store.exists() and SessionStore(store).sessions():
                break
            time.sleep(0.1)
    finally:
        out, err = interrupt(watcher)
    assert "UNIQUE" not in err and "failed" not in err, err
    [row] = SessionStore(store).sessions()
    touched = SessionStore(store).where(f"{ROOT}/uploads/{ids[0]}/photo.jpg")
    assert [touch.session.id for touch in touched] == [row.id]
    assert [token for token in tokens if token in out + err] == []
