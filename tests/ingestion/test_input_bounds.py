"""Inputs that never end, never start, or inflate without bound are refused in one line, quickly.

A transcript path can name a FIFO (reading waits for a writer forever), a
device (``/dev/zero`` never ends) or a gzip bomb; standard input can be
endless; standard output can be closed.  Each case ends with one sentence on
standard error and a known exit code, within a bounded amount of memory.
"""

from __future__ import annotations

import gzip
import io
import os
import subprocess
import sys
import threading
import tracemalloc
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from artifact_index.exceptions import BinaryInput, UnreadableInput
from artifact_index.ingestion.reading import INPUT_LIMIT_VARIABLE, input_limit
from artifact_index.ingestion.source import read_source
from artifact_index.presentation.cli import main
from tests.support.paths import FIXTURES

SESSION = FIXTURES / "cli" / "session.jsonl"  # app.py modified; lines 4 and 9 are not JSON


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Path]:
    """A FIFO, and a writer that connects whenever a reader waits on it, so a regression fails instead of hanging."""
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this system")
    path = tmp_path / "transcript.jsonl"
    os.mkfifo(path)
    done = threading.Event()

    def unblock() -> None:
        while not done.wait(0.2):
            try:
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                continue  # nobody is reading: nothing to unblock

    writer = threading.Thread(target=unblock, daemon=True)
    writer.start()
    yield path
    done.set()
    writer.join()


def test_a_fifo_is_refused_in_one_line_without_waiting_for_a_writer(
    fifo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(UnreadableInput, match="is a FIFO"):
        read_source(fifo)
    code, out, err = _run(capsys, "files", str(fifo), "--json")
    assert code == 1 and out == ""
    assert err.strip().splitlines() == [
        f"artifact-index: error: {fifo} is a FIFO (named pipe), not a transcript file"
    ]


def test_a_followed_transcript_that_is_a_fifo_is_refused_without_waiting(fifo: Path) -> None:
    from artifact_index.live.live_transcript import LiveTranscript

    with pytest.raises(UnreadableInput, match="is a FIFO"):
        LiveTranscript(fifo).refresh()


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_a_device_is_refused_without_reading_it(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "files", "/dev/zero")
    assert code == 1 and out == ""
    assert "/dev/zero is a character device, not a transcript file" in err
    assert len(err.strip().splitlines()) == 1


def test_a_directory_is_not_read_as_a_transcript(tmp_path: Path) -> None:
    with pytest.raises(UnreadableInput, match="is a directory"):
        read_source(tmp_path)


class _Endless(io.RawIOBase):
    """A stream that never ends, counting what was read from it."""

    def __init__(self, byte: bytes) -> None:
        self.byte, self.read_bytes = byte, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        buffer[:] = self.byte * len(buffer)
        self.read_bytes += len(buffer)
        return len(buffer)


def _stdin(monkeypatch: pytest.MonkeyPatch, stream: io.RawIOBase) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(stream)))


def test_endless_zeros_on_standard_input_are_refused_at_their_first_bytes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    zeros = _Endless(b"\x00")
    _stdin(monkeypatch, zeros)
    code, out, err = _run(capsys, "files", "-")
    assert code == 1 and out == ""
    assert err.strip() == "artifact-index: error: standard input is a binary file, not a transcript"
    assert zeros.read_bytes < 4 << 20


def test_endless_text_on_standard_input_stops_at_the_input_limit(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(INPUT_LIMIT_VARIABLE, "2M")
    text = _Endless(b"a")
    _stdin(monkeypatch, text)
    code, out, err = _run(capsys, "files", "-")
    assert code == 1 and out == ""
    assert err.strip() == (
        "artifact-index: error: standard input holds more than 2 MiB, the input limit "
        f"(set {INPUT_LIMIT_VARIABLE} to read more)"
    )
    assert text.read_bytes <= (2 << 20) + (1 << 20)


def test_the_input_limit_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert input_limit() == 1 << 30
    for value, limit in (("512M", 512 << 20), ("2g", 2 << 30), ("1000", 1000), ("64KiB", 64 << 10)):
        monkeypatch.setenv(INPUT_LIMIT_VARIABLE, value)
        assert input_limit() == limit
    monkeypatch.setenv(INPUT_LIMIT_VARIABLE, "a lot")
    with pytest.raises(UnreadableInput, match="is not a size"):
        input_limit()


def _bomb(path: Path, byte: bytes, megabytes: int) -> Path:
    """``megabytes`` MiB of one byte, gzipped (a few KB), written without holding them."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    with path.open("wb") as out:
        block = byte * (1 << 20)
        for _ in range(megabytes):
            out.write(compressor.compress(block))
        out.write(compressor.flush())
    return path


def test_a_gzip_bomb_is_refused_before_it_fills_memory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bomb = _bomb(tmp_path / "bomb.jsonl.gz", b" ", 96)
    tracemalloc.start()
    try:
        with pytest.raises(UnreadableInput, match="gzip bomb"):
            read_source(bomb)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 48 << 20  # it stopped well before inflating all 96 MiB
    code, out, err = _run(capsys, "files", str(bomb))
    assert code == 1 and out == "" and len(err.strip().splitlines()) == 1


def test_a_gzip_bomb_of_zeros_is_refused_as_binary_at_once(tmp_path: Path) -> None:
    with pytest.raises(BinaryInput):
        read_source(_bomb(tmp_path / "zeros.gz", b"\x00", 32))


def test_a_gzip_stream_is_read_to_the_input_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "session.jsonl.gz"
    path.write_bytes(gzip.compress(SESSION.read_bytes() * 200))
    monkeypatch.setenv(INPUT_LIMIT_VARIABLE, "64K")
    with pytest.raises(UnreadableInput, match="holds more than 64 KiB"):
        read_source(path)
    monkeypatch.delenv(INPUT_LIMIT_VARIABLE)
    assert read_source(path).data == SESSION.read_bytes() * 200


def test_gzip_members_written_one_after_another_are_read_as_one_stream(tmp_path: Path) -> None:
    data = SESSION.read_bytes()
    path = tmp_path / "session.jsonl.gz"
    path.write_bytes(gzip.compress(data[:100]) + gzip.compress(data[100:]) + b"\x00" * 8)
    assert read_source(path).data == data
    path.write_bytes(gzip.compress(data)[:-20])
    with pytest.raises(UnreadableInput, match="not a valid gzip file"):
        read_source(path)


@pytest.mark.skipif(sys.platform == "win32", reason="closes a descriptor before exec")
def test_a_closed_standard_output_ends_the_command_quietly_with_exit_0() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "artifact_index", "files", str(SESSION), "--json"],
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        check=False,
        preexec_fn=lambda: os.close(1),
    )
    assert result.returncode == 0
    assert "Traceback" not in result.stderr and "error" not in result.stderr


def test_a_reader_that_stops_reading_ends_the_command_quietly_with_exit_0() -> None:
    with subprocess.Popen(
        [sys.executable, "-m", "artifact_index", "show", str(SESSION), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.close()  # as `| head -0` does
        error = process.stderr.read()
        assert process.wait(timeout=120) == 0
    assert "Traceback" not in error and "Exception ignored" not in error


@pytest.mark.parametrize(
    "command", [("store", "--store", "{tmp}/s.db"), ("show",), ("summary", "--no-llm")]
)
def test_every_command_that_reads_a_transcript_refuses_a_fifo(
    fifo: Path, tmp_path: Path, command: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    name, *options = command
    code, _, err = _run(capsys, name, str(fifo), *(o.format(tmp=tmp_path) for o in options))
    assert code == 1 and "Traceback" not in err
    assert f"{fifo} is a FIFO (named pipe), not a transcript file" in err


def test_a_fifo_in_a_watched_folder_holds_the_watch_up_not_at_all(
    fifo: Path, tmp_path: Path
) -> None:
    from artifact_index.live.store import SessionStore
    from artifact_index.live.watch import Watcher

    watcher = Watcher([str(fifo.parent)], SessionStore(tmp_path / "s.db"))
    answered: list[object] = []
    # In a thread: a regression fails here instead of hanging the suite.
    reader = threading.Thread(
        target=lambda: answered.append(watcher.changed(str(fifo))), daemon=True
    )
    reader.start()
    reader.join(timeout=20)
    assert answered == [None]  # not a file to follow: no record, no error


def test_a_followed_session_is_read_no_further_than_the_input_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from artifact_index.live.live_transcript import LiveTranscript

    transcript = tmp_path / "live.jsonl"
    transcript.write_bytes(SESSION.read_bytes())
    live = LiveTranscript(transcript)
    live.refresh()
    # The session grows past the limit: the servers and the watch say so instead of reading on.
    monkeypatch.setenv(INPUT_LIMIT_VARIABLE, str(SESSION.stat().st_size + 100))
    with transcript.open("ab") as out:
        out.write(
            b'{"type": "user", "message": {"role": "user", "content": "' + b"a" * 500 + b'"}}\n'
        )
    with pytest.raises(UnreadableInput, match=r"holds more than .* the input limit"):
        live.refresh()
