"""artifact-index: the file trail of coding-agent transcripts, computed without an LLM.

Typical use::

    from artifact_index import build_index

    index, loaded = build_index("session.jsonl.gz")
    for entry in index.changed_files():
        print(entry.status, entry.path)

For live sessions, feed events one at a time to a :class:`Tracker` and
:meth:`Tracker.save` / :meth:`Tracker.resume` its state between calls.
"""

from __future__ import annotations

from artifact_index.exceptions import (
    ArtifactIndexError,
    StateError,
    TranscriptError,
    UnknownFormat,
    UnreadableInput,
)
from artifact_index.ingestion.adapters import Adapter, detect, known_formats, register
from artifact_index.ingestion.events import (
    AssistantMessage,
    CompactionBoundary,
    Event,
    FileOperation,
    ReportedChange,
    SessionInfo,
    Submission,
    ToolCall,
    ToolResult,
    UserMessage,
    WorkingDirectory,
)
from artifact_index.ingestion.loading import Loaded, load_events, open_transcript
from artifact_index.ingestion.source import Source, read_source
from artifact_index.trail.build import build_index
from artifact_index.trail.index import ArtifactIndex, FileEntry, OperationEntry
from artifact_index.trail.tracker import Tracker

__version__ = "0.1.0"

__all__ = [
    "Adapter",
    "ArtifactIndex",
    "ArtifactIndexError",
    "AssistantMessage",
    "CompactionBoundary",
    "Event",
    "FileEntry",
    "FileOperation",
    "Loaded",
    "OperationEntry",
    "ReportedChange",
    "SessionInfo",
    "Source",
    "StateError",
    "Submission",
    "ToolCall",
    "ToolResult",
    "Tracker",
    "TranscriptError",
    "UnknownFormat",
    "UnreadableInput",
    "UserMessage",
    "WorkingDirectory",
    "__version__",
    "build_index",
    "detect",
    "known_formats",
    "load_events",
    "open_transcript",
    "read_source",
    "register",
]
