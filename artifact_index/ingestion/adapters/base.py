"""What an adapter is, and the small helpers every adapter shares."""

from __future__ import annotations

import json
import posixpath
from collections.abc import Iterator
from typing import Any, ClassVar
from urllib.parse import unquote, urlparse

from artifact_index.ingestion.adapters.narrowing import as_dict, as_list
from artifact_index.ingestion.events import (
    Event,
    FailureReason,
    JSONObject,
    ReportedChange,
    ResultStatus,
    ToolResult,
)
from artifact_index.ingestion.following import RecordStream
from artifact_index.ingestion.source import Source
from artifact_index.lazy_pattern import lazy_pattern

# A Windows drive at the start of a path: `C:\\x`, `c:/x`.
_DRIVE = lazy_pattern(r"^[A-Za-z]:[\\/]")

__all__ = [
    "Adapter",
    "TurnCounter",
    "as_text",
    "json_object_records",
    "list_field",
    "parse_json_object",
    "report_bad_lines",
    "tool_result",
    "under_directory",
    "uri_to_path",
]


class Adapter:
    """Turns one transcript format into normalized events.

    Subclasses set :attr:`name` (the ``--format`` value) and
    :attr:`description`, and implement :meth:`sniff` and :meth:`events`.
    ``priority`` orders detection: lower is tried first, so a specific shape
    (Entire's compact transcript) is tried before a generic one (a plain
    Anthropic message list).

    :meth:`events` must not raise on a malformed record: it calls
    ``source.skip(line, reason)`` and goes on, so nothing is lost silently.
    """

    name: ClassVar[str]
    description: ClassVar[str]
    priority: ClassVar[int] = 50

    def sniff(self, source: Source) -> bool:
        """True when ``source`` is in this adapter's format."""
        raise NotImplementedError

    def events(self, source: Source) -> Iterator[Event]:
        """The normalized events of ``source``, in transcript order."""
        raise NotImplementedError

    def stream(self) -> RecordStream | None:
        """A reader of this format's JSON lines as they are appended, or None when it has none.

        Its events are those of :meth:`events` over the lines so far (see
        :mod:`artifact_index.ingestion.following`); without one, a growing
        transcript is read whole again.
        """
        return None


class TurnCounter:
    """Numbers turns: each user message and each model response is one turn.

    Formats that split one model response over several records (Claude Code
    writes one ``assistant`` record per content block) pass the response id
    to :meth:`assistant` so the blocks share a turn.
    """

    def __init__(self) -> None:
        self.current = 0
        self._last_response: str | None = None

    def user(self) -> int:
        self.current += 1
        self._last_response = None
        return self.current

    def assistant(self, response_id: str | None = None) -> int:
        if response_id is None or response_id != self._last_response:
            self.current += 1
        self._last_response = response_id
        return self.current


def as_text(content: Any) -> str:
    """Flatten message content (a string, or a list of Anthropic/OpenAI blocks) to text."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, dict):
                if isinstance(block.get("text"), str):
                    parts.append(block["text"])
                elif "content" in block and block.get("type") in ("tool_result", None):
                    parts.append(as_text(block["content"]))
        return "\n".join(p for p in parts if p)
    if isinstance(content, dict):
        if isinstance(content.get("text"), str):
            return str(content["text"])
        if "content" in content:
            return as_text(content["content"])
    return str(content)


def parse_json_object(raw: Any) -> JSONObject:
    """Tool arguments arrive as a dict or as a JSON string of one; anything else is ``{}``."""
    if isinstance(raw, dict):
        return raw
    if isinstance(raw, str):
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            return {}
        return as_dict(value)
    return {}


def uri_to_path(value: str) -> str:
    """``file:///Users/x/a.py`` -> ``/Users/x/a.py``; ``file:///c%3A/x`` -> ``c:/x``.

    A URI is how these agents name a file, not a path anyone typed, so it is
    decoded; anything that is not a ``file:`` URI is returned unchanged.
    """
    if not value.startswith("file:"):
        return value
    path = unquote(urlparse(value).path)
    if len(path) > 2 and path[0] == "/" and path[2] == ":":
        path = path[1:]  # /c:/Users -> c:/Users
    return path


def under_directory(cwd: str | None, directory: str) -> str:
    """The directory a shell call names (``workdir``, ``dir_path``), resolved against the session's ``cwd``.

    A Windows directory (``C:\\Users\\x``, ``D:/work``) is absolute like
    ``/home/x``: joining it under the session's directory would name a
    folder inside the workspace that does not exist.
    """
    if not cwd or directory.startswith(("/", "\\")) or _DRIVE.match(directory):
        return directory
    return posixpath.join(cwd, directory)


def json_object_records(source: Source) -> list[tuple[int, JSONObject]]:
    """The JSON-object lines of ``source``; other lines are skipped and counted."""
    reported = len(source.skipped)
    out: list[tuple[int, JSONObject]] = []
    for line, record in source.records:
        if isinstance(record, dict):
            out.append((line, record))
        else:
            source.skip(line, "not a JSON object")
    report_bad_lines(source, reported)
    return out


def report_bad_lines(source: Source, reported: int) -> None:
    """Put the lines of ``source`` that are not JSON among its skipped parts, at place ``reported``.

    Called once a pass has read every line, when which lines are bad is
    known without another parse; ``reported`` is how many parts were
    skipped before the pass, so the bad lines come first among its own.
    """
    source.skipped[reported:reported] = source.bad_lines


def list_field(value: Any) -> list[Any]:
    """A list field, or no items when the record holds something else there."""
    return as_list(value)


def tool_result(
    turn: int,
    line: int,
    call_id: str,
    status: ResultStatus,
    output: str = "",
    failure: FailureReason | None = None,
    exit_code: int | None = None,
    reported: tuple[ReportedChange, ...] | None = None,
) -> ToolResult:
    """A tool's result; a failure reason is kept only on a failure."""
    return ToolResult(
        turn=turn,
        line=line,
        call_id=call_id,
        status=status,
        output=output,
        failure=failure if status == "failure" else None,
        exit_code=exit_code,
        reported=reported,
    )
