"""From a path (or standard input) to a transcript's UTF-8 bytes, within bounds.

A transcript path comes from a user, a hook's JSON or a folder scan, so it
can name anything: a FIFO (reading it waits for a writer forever), a device
(``/dev/zero`` never ends), a gzip bomb (8 MB that inflate to gigabytes).
Only regular files are read, and every stream is read to a limit: the bytes
kept in memory never exceed :func:`input_limit` (1 GiB unless
``ARTIFACT_INDEX_MAX_INPUT_BYTES`` says otherwise), and a gzip stream that
inflates more than :data:`GZIP_RATIO_LIMIT` times past its first 16 MiB is
refused before it gets there.  Refusals are :class:`UnreadableInput` with one
sentence that names the input.

Text encodings: UTF-8 with or without a byte order mark, and UTF-16 or UTF-32
(with a byte order mark, or UTF-16 recognized by its zero bytes) are read
and handed on as UTF-8.  A file is binary, not a transcript, only when zero
bytes are common in its head: one stray NUL does not make a transcript
unreadable.
"""

from __future__ import annotations

import io
import os
import re
import stat
import zlib
from pathlib import Path
from typing import BinaryIO

from artifact_index.exceptions import BinaryInput, UnreadableInput
from artifact_index.lazy_pattern import lazy_pattern

__all__ = [
    "DEFAULT_INPUT_LIMIT",
    "GZIP_RATIO_LIMIT",
    "INPUT_LIMIT_VARIABLE",
    "input_limit",
    "read_path",
    "read_stream",
    "require_regular",
    "too_large",
    "transcript_bytes",
]

INPUT_LIMIT_VARIABLE = "ARTIFACT_INDEX_MAX_INPUT_BYTES"
DEFAULT_INPUT_LIMIT = 1 << 30  # 1 GiB of (decompressed) transcript
# Real transcripts compress 5-20 times; gzip itself cannot exceed about 1,030.
GZIP_RATIO_LIMIT = 200
_RATIO_FREE = 16 << 20  # below this much output, no ratio is suspicious
_CHUNK = 1 << 20
_HEAD = 4096  # the bytes the binary and encoding checks look at

_GZIP_MAGIC = b"\x1f\x8b"
_UTF8_BOM = b"\xef\xbb\xbf"
# Longest first: UTF-32's little-endian mark begins with UTF-16's.
_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)
_SIZE = lazy_pattern(r"\s*(\d+)\s*([kmgt]?)(?:i?b)?\s*", re.IGNORECASE)


def input_limit() -> int:
    """The most bytes one transcript may hold, from ``ARTIFACT_INDEX_MAX_INPUT_BYTES`` (``512M``, ``2G``)."""
    value = os.environ.get(INPUT_LIMIT_VARIABLE)
    if not value:
        return DEFAULT_INPUT_LIMIT
    found = _SIZE.fullmatch(value)
    if found is None or int(found.group(1)) == 0:
        raise UnreadableInput(
            f"{INPUT_LIMIT_VARIABLE}={value!r} is not a size (a number of bytes, or like 512M or 2G)"
        )
    return int(found.group(1)) << (
        10 * "kmgt".find(found.group(2).lower()) + 10 if found.group(2) else 0
    )


def _size(count: int) -> str:
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if count >= 1 << shift:
            return f"{count / (1 << shift):g} {unit}"
    return f"{count} bytes"


def too_large(name: str, limit: int) -> UnreadableInput:
    """The error for input ``name`` past ``limit`` bytes, naming the variable that raises it."""
    return UnreadableInput(
        f"{name} holds more than {_size(limit)}, the input limit "
        f"(set {INPUT_LIMIT_VARIABLE} to read more)"
    )


def read_path(path: str | Path, limit: int | None = None) -> bytes:
    """The bytes of the regular file ``path`` (decompressed, UTF-8), refusing anything else.

    The file is opened without blocking, so a FIFO is refused instead of
    waiting for a writer; what it is, is asked of the open file, not of its
    name, so nothing can swap it in between.
    """
    name = str(path)
    limit = input_limit() if limit is None else limit
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError as exc:
        raise UnreadableInput(f"{name}: no such file") from exc
    except IsADirectoryError as exc:  # Windows refuses to open a folder
        raise UnreadableInput(f"{name} is a directory, not a transcript file") from exc
    except OSError as exc:
        raise UnreadableInput(f"{name} cannot be read ({exc.strerror or exc})") from exc
    try:
        status = os.fstat(descriptor)
        require_regular(name, status.st_mode)
        if status.st_size > limit:
            raise too_large(name, limit)
        pieces: list[bytes] = []
        held = 0
        # One read gets a regular file whole; the loop is for one that grows meanwhile.
        # (os.read allocates what it is asked for: ask for the size the file says it has.)
        while piece := os.read(
            descriptor, min(limit + 1 - held, max(status.st_size - held + 1, _CHUNK))
        ):
            pieces.append(piece)
            held += len(piece)
            if held > limit:
                raise too_large(name, limit)
    except OSError as exc:
        raise UnreadableInput(f"{name} cannot be read ({exc.strerror or exc})") from exc
    finally:
        os.close(descriptor)
    return transcript_bytes(b"".join(pieces), name, limit)


def require_regular(name: str, mode: int) -> None:
    """Refuse (:class:`UnreadableInput`) what ``mode`` says is not a regular file: reading it may never end."""
    if not stat.S_ISREG(mode):
        raise UnreadableInput(f"{name} is {_kind_of(mode)}, not a transcript file")


def _kind_of(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_stream(stream: BinaryIO, name: str, limit: int | None = None) -> bytes:
    """The transcript bytes of ``stream`` (standard input, an open file), read to ``limit``.

    Binary content is refused as soon as its head is read, so ``/dev/zero``
    costs one chunk, not the limit.
    """
    limit = input_limit() if limit is None else limit
    buffer = io.BytesIO()
    checked = False
    while True:
        chunk = stream.read(min(_CHUNK, limit + 1 - buffer.tell()))
        if not chunk:
            break
        buffer.write(chunk)
        if not checked and buffer.tell() >= _HEAD:
            checked = True
            head = buffer.getbuffer()[:_HEAD].tobytes()
            if not head.startswith(_GZIP_MAGIC):
                _refuse_binary(head, name)
        if buffer.tell() > limit:
            raise too_large(name, limit)
    return transcript_bytes(buffer.getvalue(), name, limit)


def transcript_bytes(data: bytes, name: str, limit: int | None = None) -> bytes:
    """``data`` as a transcript's UTF-8 bytes: decompressed, without a byte order mark, checked to be text."""
    limit = input_limit() if limit is None else limit
    if data.startswith(_GZIP_MAGIC):
        data = _gunzip(data, name, limit)
    elif len(data) > limit:
        raise too_large(name, limit)
    _refuse_binary(data[:_HEAD], name)
    for mark, encoding in _BOMS:
        if data.startswith(mark):
            return _reencoded(data[len(mark) :], encoding)
    utf16 = _bomless_utf16(data[:_HEAD])
    if utf16 is not None:
        return _reencoded(data, utf16)
    return data[len(_UTF8_BOM) :] if data.startswith(_UTF8_BOM) else data


def _gunzip(data: bytes, name: str, limit: int) -> bytes:
    """The decompressed bytes of every gzip member of ``data``, refused past ``limit`` or a bomb's ratio."""
    out = io.BytesIO()
    position = 0
    while position < len(data):
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        pending: bytes | memoryview = memoryview(data)[position:]
        try:
            while not inflater.eof:
                piece = inflater.decompress(pending, _CHUNK)
                pending = inflater.unconsumed_tail
                if not piece and not pending:
                    break  # the input ended inside the stream
                before = out.tell()
                out.write(piece)
                if out.tell() > limit:
                    raise too_large(name, limit)
                consumed = len(data) - position - len(pending)
                if out.tell() > _RATIO_FREE and out.tell() > GZIP_RATIO_LIMIT * consumed:
                    raise UnreadableInput(
                        f"{name} inflates to more than {GZIP_RATIO_LIMIT} times its compressed "
                        "size (a gzip bomb?); no transcript compresses that well"
                    )
                if before < _HEAD <= out.tell():
                    _refuse_binary(out.getbuffer()[:_HEAD].tobytes(), name)
        except zlib.error as exc:
            raise UnreadableInput(f"{name} is not a valid gzip file ({exc})") from exc
        if not inflater.eof:
            raise UnreadableInput(
                f"{name} is not a valid gzip file (Compressed file ended before the "
                "end-of-stream marker was reached)"
            )
        rest = inflater.unused_data
        position = len(data) - len(rest)
        if not rest.strip(b"\x00"):
            break  # trailing zero padding, as gzip(1) allows
        if not rest.startswith(_GZIP_MAGIC):
            raise UnreadableInput(f"{name} is not a valid gzip file (Not a gzipped file)")
    return out.getvalue()


def _bomless_utf16(head: bytes) -> str | None:
    """``utf-16-le`` or ``-be`` when ``head`` has the zero bytes of mostly-ASCII UTF-16 text, else None."""
    head = head[: len(head) & ~1]
    if len(head) < 8:
        return None
    even, odd = head[0::2].count(0), head[1::2].count(0)
    half = len(head) // 2
    if odd * 4 >= half * 3 and even * 16 < half:
        return "utf-16-le"
    if even * 4 >= half * 3 and odd * 16 < half:
        return "utf-16-be"
    return None


def _reencoded(data: bytes, encoding: str) -> bytes:
    # A cut file can end inside a character, and a lone surrogate cannot be written as UTF-8.
    return data.decode(encoding, "replace").encode("utf-8", "replace")


def _refuse_binary(head: bytes, name: str) -> None:
    """Raise :class:`BinaryInput` when zero bytes are common in ``head`` (one stray NUL is damage, not binary).

    UTF-16 and UTF-32 text is full of zero bytes: it is recognized first.
    """
    if head.startswith(tuple(mark for mark, _ in _BOMS)) or _bomless_utf16(head):
        return
    zeros = head.count(0)
    if zeros >= 2 and zeros * 256 > len(head):
        raise BinaryInput(f"{name} is a binary file, not a transcript")
