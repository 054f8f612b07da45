"""A hook run reads only what was appended since the last run on its transcript, and says the same as reading it whole."""

from __future__ import annotations

import gc
import json
import os
import stat
import time
from pathlib import Path

import pytest

from artifact_index.live.live_transcript import LiveTranscript
from summarizer.integrations import compactions, hook_state
from summarizer.integrations.hook_state import HookStates
from summarizer.integrations.hooks import run_hook

ROOT = Path(__file__).resolve().parents[3]
LINES = (ROOT / "examples" / "claude-code-session.jsonl").read_bytes().splitlines(keepends=True)
ROLLOUT = (ROOT / "examples" / "codex-rollout.jsonl").read_bytes().splitlines(keepends=True)


def hook(transcript: Path, event: str = "SessionStart") -> str:
    payload = {"hook_event_name": event, "source": "compact", "transcript_path": str(transcript)}
    run = run_hook(json.dumps(payload))
    assert run.note is None
    return run.output


def whole(transcript: Path, tmp_path: Path, event: str = "SessionStart") -> str:
    """What a run that kept nothing says of ``transcript`` (a copy, so no state applies)."""
    copy = tmp_path / "copies" / f"{len(list(tmp_path.glob('copies/*')))}.jsonl"
    copy.parent.mkdir(exist_ok=True)
    copy.write_bytes(transcript.read_bytes())
    return hook(copy, event).replace(str(copy), str(transcript))


@pytest.fixture
def states(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> HookStates:
    monkeypatch.setenv("ARTIFACT_INDEX_STATE_HOME", str(tmp_path / "state"))
    return HookStates(tmp_path / "state" / "hooks")


@pytest.mark.parametrize("lines", [LINES, ROLLOUT], ids=["claude-code", "codex"])
def test_each_run_reads_what_was_appended_and_says_what_reading_it_whole_says(
    lines: list[bytes], states: HookStates, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes(b"".join(lines[:8]))
    assert hook(transcript) == whole(transcript, tmp_path)
    read_whole: list[Path] = []
    for cut in (12, 16, len(lines)):
        kept = states.load(transcript)
        assert kept.offset == transcript.stat().st_size  # where the last run stopped
        with transcript.open("ab") as out:
            out.write(b"".join(lines[len(transcript.read_bytes().splitlines()) : cut]))
        event = "PreCompact" if cut == 16 else "SessionStart"
        with monkeypatch.context() as patch:
            # Only what follows is read: the transcript is never read whole again.
            patch.setattr(compactions, "read_transcript", read_whole.append)
            answer = hook(transcript, event)
        assert answer == whole(transcript, tmp_path, event)
    assert read_whole == []


@pytest.mark.parametrize(
    "change",
    [
        # Rewritten in place, same size: its first bytes differ.
        lambda data: data.replace(b'"sessionId"', b'"sessionID"', 1),
        # Cut short, then grown past where it was read to.
        lambda data: data[: len(data) // 2] + b"\n" * len(data),
    ],
    ids=["rewritten", "truncated"],
)
def test_a_rewritten_or_truncated_transcript_is_read_again(
    change: object, states: HookStates, tmp_path: Path
) -> None:
    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes(b"".join(LINES))
    hook(transcript)
    transcript.write_bytes(change(transcript.read_bytes()))  # type: ignore[operator]
    assert hook(transcript) == whole(transcript, tmp_path)


def test_the_state_is_private_and_one_anyone_else_could_write_is_never_loaded(
    states: HookStates, tmp_path: Path
) -> None:
    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes(b"".join(LINES))
    hook(transcript)
    saved = states.path_of(transcript)
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600
    assert stat.S_IMODE(saved.parent.stat().st_mode) == 0o700
    assert states.load(transcript).offset == transcript.stat().st_size
    saved.chmod(0o666)
    assert states.load(transcript).offset == 0  # a fresh start: the file is read whole


def test_a_damaged_state_or_one_of_another_version_is_a_fresh_start(
    states: HookStates, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes(b"".join(LINES))
    hook(transcript)
    monkeypatch.setattr(hook_state, "_code_version", lambda: "another version")
    assert HookStates(states.directory).load(transcript).offset == 0
    monkeypatch.undo()
    states.path_of(transcript).write_bytes(b"not a pickle")
    assert states.load(transcript).offset == 0
    assert hook(transcript) == whole(transcript, tmp_path)


def _with_checksum(body: bytes) -> bytes:
    """``body`` as a state file whose checksum holds: only its parts can be wrong."""
    import zlib

    return hook_state._MAGIC + zlib.crc32(body).to_bytes(hook_state._DIGEST_SIZE, "big") + body


@pytest.mark.parametrize(
    "parts",
    [
        # Its first part said longer than the file: cut short after the checksum was taken.
        lambda saved, live: hook_state._LENGTH.pack(len(saved) + len(live) + 1) + saved + live,
        # The two parts swapped: the followed transcript where the code's version belongs.
        lambda saved, live: hook_state._LENGTH.pack(len(live)) + live + saved,
        # Something else pickled where the followed transcript belongs.
        lambda saved, live: hook_state._LENGTH.pack(len(saved)) + saved + b"\x80\x05K\x07.",
        # No length at all.
        lambda saved, live: b"\x00\x01",
    ],
    ids=["length-past-the-end", "parts-swapped", "foreign-object", "no-length"],
)
def test_a_state_whose_parts_do_not_hold_together_is_a_fresh_start(
    parts: object, states: HookStates, tmp_path: Path
) -> None:
    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes(b"".join(LINES[:12]))
    hook(transcript)
    saved_file = states.path_of(transcript)
    body = saved_file.read_bytes()[len(hook_state._MAGIC) + hook_state._DIGEST_SIZE :]
    (length,) = hook_state._LENGTH.unpack_from(body)
    start = hook_state._LENGTH.size
    saved, live = body[start : start + length], body[start + length :]
    assert callable(parts)
    saved_file.write_bytes(_with_checksum(parts(saved, live)))
    assert states.load(transcript).offset == 0  # read whole again
    with transcript.open("ab") as out:
        out.write(b"".join(LINES[12:]))
    assert hook(transcript) == whole(transcript, tmp_path)
    assert states.load(transcript).offset == transcript.stat().st_size  # and kept anew


def test_the_states_kept_are_bounded_in_number_and_age(
    states: HookStates, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hook_state, "KEPT_STATES", 3)
    now = time.time()

    def keep(n: int, used: float) -> Path:
        transcript = tmp_path / f"session-{n}.jsonl"
        transcript.write_bytes(b"".join(LINES))
        live = LiveTranscript(transcript)
        live.refresh()
        states.save(live)
        os.utime(states.path_of(transcript), (used, used))
        return states.path_of(transcript)

    saved = [keep(n, now - 60 * (5 - n)) for n in range(5)]
    assert sorted(states.directory.glob("*.pickle")) == sorted(saved[2:])  # the three newest
    os.utime(saved[3], (now - hook_state.KEPT_FOR - 60,) * 2)  # unused for too long
    newest = keep(5, now)
    assert sorted(states.directory.glob("*.pickle")) == sorted([saved[2], saved[4], newest])


def test_a_temporary_file_a_stopped_run_left_behind_is_removed_but_a_fresh_one_is_kept(
    states: HookStates, tmp_path: Path
) -> None:
    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes(b"".join(LINES))
    live = LiveTranscript(transcript)
    live.refresh()
    states.save(live)
    name = states.path_of(transcript).name
    abandoned = states.directory / f".{name}.abc123.tmp"
    writing = states.directory / f".{name}.def456.tmp"
    for temporary in (abandoned, writing):
        temporary.write_bytes(b"half a state")
    old = time.time() - hook_state.ABANDONED_AFTER - 60
    os.utime(abandoned, (old, old))

    states.save(live)

    assert not abandoned.exists()
    assert writing.exists()  # another run may still be writing it
    assert states.load(transcript).path == live.path


@pytest.mark.parametrize("lines", [LINES, ROLLOUT], ids=["claude-code", "codex"])
def test_a_run_that_found_little_appended_reads_it_again_next_time_rather_than_keep_a_new_state(
    lines: list[bytes], states: HookStates, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hook_state, "UNSAVED_SHARE", 0.5)
    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes(b"".join(lines[: len(lines) - 4]))
    hook(transcript)
    kept_at = transcript.stat().st_size
    saved = states.path_of(transcript).read_bytes()
    read_whole: list[Path] = []
    monkeypatch.setattr(compactions, "read_transcript", read_whole.append)
    for cut in (len(lines) - 3, len(lines) - 2):
        with transcript.open("ab") as out:
            out.write(lines[cut - 1])
        assert hook(transcript) == whole(transcript, tmp_path)
        # The state stays where it was: the next run reads what came since from the transcript.
        assert states.path_of(transcript).read_bytes() == saved
        assert states.load(transcript).offset == kept_at
    monkeypatch.setattr(hook_state, "UNSAVED_SHARE", 0.0)
    with transcript.open("ab") as out:
        out.write(b"".join(lines[len(lines) - 2 :]))
    assert hook(transcript) == whole(transcript, tmp_path)
    assert states.load(transcript).offset == transcript.stat().st_size  # kept anew
    assert read_whole == []


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],  # torn: a crash mid-write
        # Still a state that loads, but one that names another file: only the digest tells.
        lambda data: data.replace(b"auth.py", b"auth.pz"),
        lambda data: b"",
    ],
    ids=["torn", "altered", "empty"],
)
def test_a_torn_or_damaged_state_is_found_and_the_transcript_read_whole(
    damage: object, states: HookStates, tmp_path: Path
) -> None:
    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes(b"".join(LINES[:12]))
    hook(transcript)
    saved = states.path_of(transcript)
    saved.write_bytes(damage(saved.read_bytes()))  # type: ignore[operator]
    assert states.load(transcript).offset == 0
    with transcript.open("ab") as out:
        out.write(b"".join(LINES[12:]))
    assert hook(transcript) == whole(transcript, tmp_path)
    assert states.load(transcript).offset == transcript.stat().st_size  # a sound state again


def test_a_loaded_state_is_not_left_for_the_young_collections_to_walk(
    states: HookStates, tmp_path: Path
) -> None:
    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes(b"".join(ROLLOUT))
    hook(transcript)
    live = states.load(transcript)
    assert live.offset == transcript.stat().st_size  # loaded from the state, not read afresh
    young = [found for generation in (0, 1) for found in gc.get_objects(generation)]
    assert not any(found is live or found is live.index for found in young)


def test_a_state_kept_in_the_previous_format_is_read_whole_again(
    states: HookStates, tmp_path: Path
) -> None:
    # Its head and checksum were a blake2b digest: the transcript is read whole, and kept anew.
    import hashlib

    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes(b"".join(LINES[:12]))
    hook(transcript)
    saved = states.path_of(transcript)
    payload = saved.read_bytes()[len(hook_state._MAGIC) + hook_state._DIGEST_SIZE :]
    older = hashlib.blake2b(payload, digest_size=32).digest()
    saved.write_bytes(b"artifact-index hook state 2\n" + older + payload)
    assert states.load(transcript).offset == 0
    with transcript.open("ab") as out:
        out.write(b"".join(LINES[12:]))
    assert hook(transcript) == whole(transcript, tmp_path)
    assert states.load(transcript).offset == transcript.stat().st_size
    assert saved.read_bytes().startswith(hook_state._MAGIC)


def test_a_state_whose_files_reports_have_another_shape_is_a_fresh_start(
    states: HookStates, tmp_path: Path
) -> None:
    # The previous version kept the reports alone (a dictionary by digest), with no digest of
    # each file's inputs: such a state is read whole again, never half used.
    import pickle

    from artifact_index.trail.file_reports import ReportCache

    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes(b"".join(LINES[:12]))
    hook(transcript)
    live = states.load(transcript)
    assert live.offset == transcript.stat().st_size
    older = ReportCache()
    older._snapshot = pickle.dumps({b"a digest": None, b"another": None})
    states.save(live, older)
    assert states.load(transcript).offset == 0
    with transcript.open("ab") as out:
        out.write(b"".join(LINES[12:]))
    assert hook(transcript) == whole(transcript, tmp_path)
    assert states.load(transcript).offset == transcript.stat().st_size
