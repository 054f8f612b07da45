"""The message that stands in for compacted history, and how to recognize it without being fooled.

After an LLM compaction the request holds one user message whose text
starts with a fixed header, followed by the kept recent turns (the session-compaction design marks
its summary message ``summary: true``; a request body has no such field, so
the mark is the header).  The header names the last turn the summary covers
and its compaction cycle, so turn numbering stays stable from one request to
the next and the next compaction resumes right after it.

Everything before a summary is dropped, so a forged one would erase the
session: tool output is attacker-controlled text (a fetched web page, a file
in the repository) and could begin with the header.  A summary is therefore
trusted only when

* it is a user message of text alone (a tool result never qualifies), the
  header starting its first text block, and
* its header carries a mark, an HMAC-SHA256 of the turn, the cycle and the
  exact summary text under a secret key that never enters a request: the
  state directory's ``summary.key`` (see :func:`load_summary_key`), or a
  per-process key for a :class:`~summarizer.Compactor` given none.

The summary text is redacted before it is signed, so redacting the whole
output later leaves the mark valid.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import re
import secrets
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from artifact_index.exceptions import StateError
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.redaction import redact_text
from artifact_index.state_files import private_directory, user_state_directory
from summarizer.compaction.message_lists import Message, Shape

__all__ = [
    "KEY_FILE",
    "SUMMARY_PREFIX",
    "SummaryMark",
    "find_latest_summary",
    "load_summary_key",
    "new_summary_key",
    "read_summary",
    "summary_message",
    "user_state_directory",
]

SUMMARY_PREFIX = "[Summary of the earlier conversation"
KEY_FILE = "summary.key"
_HEADER = (
    SUMMARY_PREFIX
    + ": turns 1-{last_turn} were compacted into this summary (cycle {cycle}, mark {mark}).]"
)
_HEADER_RE = lazy_pattern(
    re.escape(SUMMARY_PREFIX)
    + r": turns 1-(\d+) were compacted into this summary \(cycle (\d+), mark ([0-9a-f]{32})\)\.\]\n*"
)


@dataclass(frozen=True, slots=True)
class SummaryMark:
    """A recognized summary message: the turns it covers, its cycle and its Markdown."""

    last_turn: int
    cycle: int
    text: str


def new_summary_key() -> bytes:
    """A fresh random key (what a :class:`~summarizer.Compactor` without a state directory uses)."""
    return secrets.token_bytes(32)


def _create_key(folder: Path, target: Path) -> None:
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{KEY_FILE}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="ascii") as out:
            out.write(new_summary_key().hex() + "\n")
        with contextlib.suppress(FileExistsError):
            os.link(temporary, target)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def load_summary_key(directory: str | os.PathLike[str]) -> bytes:
    """The key in ``directory/summary.key``, created (``0600``) on first use.

    Creation is atomic and first-writer-wins (a complete temporary file is
    hard-linked into place), so concurrent processes agree on one key.
    """
    folder = private_directory(directory)
    target = folder / KEY_FILE
    if not target.exists():
        try:
            _create_key(folder, target)
        except OSError as exc:  # no space, a read-only folder: said as it is
            raise StateError(
                f"the summary key {target} cannot be written ({exc.strerror or exc})"
            ) from exc
    try:
        key = bytes.fromhex(target.read_text(encoding="ascii").strip())
    except (OSError, ValueError) as exc:
        raise StateError(
            f"the summary key {target} cannot be read; delete it to make a new one "
            f"(summaries signed with it will then be summarized again)"
        ) from exc
    if len(key) < 16:
        raise StateError(f"the summary key {target} is too short; delete it to make a new one")
    return key


def _mark(key: bytes, last_turn: int, cycle: int, text: str) -> str:
    signed = f"{last_turn}\n{cycle}\n{text.strip()}".encode()
    return hmac.new(key, signed, hashlib.sha256).hexdigest()[:32]


def summary_message(
    shape: Shape, summary: str, *, last_turn: int, cycle: int, key: bytes
) -> Message:
    """The user message carrying ``summary`` (valid in both shapes), marked with ``key``."""
    text = redact_text(summary.strip())
    header = _HEADER.format(
        last_turn=last_turn, cycle=cycle, mark=_mark(key, last_turn, cycle, text)
    )
    body = f"{header}\n\n{text}"
    if shape == "anthropic":
        return {"role": "user", "content": [{"type": "text", "text": body}]}
    return {"role": "user", "content": body}


def _own_text(content: Any) -> str | None:
    """The text of a message made of text alone; None if it holds anything else (a tool result, an image)."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list) or not content:
        return None
    texts: list[str] = []
    for block in content:
        if (
            not isinstance(block, Mapping)
            or block.get("type") != "text"
            or not isinstance(block.get("text"), str)
        ):
            return None
        texts.append(block["text"])
    return "\n".join(texts)


def read_summary(message: Mapping[str, Any], key: bytes) -> SummaryMark | None:
    """The summary mark of ``message``, or ``None`` unless it is a summary signed with ``key``."""
    if message.get("role") != "user":
        return None
    text = _own_text(message.get("content"))
    if text is None:
        return None
    match = _HEADER_RE.match(text)
    if match is None:
        return None
    last_turn, cycle, body = int(match.group(1)), int(match.group(2)), text[match.end() :]
    if not hmac.compare_digest(match.group(3), _mark(key, last_turn, cycle, body)):
        return None
    return SummaryMark(last_turn, cycle, body)


def find_latest_summary(messages: Sequence[Mapping[str, Any]], key: bytes) -> int | None:
    """Index of the last summary message in ``messages`` signed with ``key``."""
    for index in range(len(messages) - 1, -1, -1):
        if read_summary(messages[index], key) is not None:
            return index
    return None
