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

import importlib
from typing import TYPE_CHECKING, Any

from artifact_index.exceptions import (
    ArtifactIndexError,
    StateError,
    TranscriptError,
    UnknownFormat,
    UnreadableInput,
)

if TYPE_CHECKING:
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

# Where each public name lives.  They are imported on first use, so that
# importing one part of the package (the command line, one adapter) does not
# pay for all of it: a command on a small transcript is mostly start-up.
_LOCATIONS = {
    "Adapter": "artifact_index.ingestion.adapters",
    "detect": "artifact_index.ingestion.adapters",
    "known_formats": "artifact_index.ingestion.adapters",
    "register": "artifact_index.ingestion.adapters",
    **dict.fromkeys(
        (
            "AssistantMessage",
            "CompactionBoundary",
            "Event",
            "FileOperation",
            "ReportedChange",
            "SessionInfo",
            "Submission",
            "ToolCall",
            "ToolResult",
            "UserMessage",
            "WorkingDirectory",
        ),
        "artifact_index.ingestion.events",
    ),
    "Loaded": "artifact_index.ingestion.loading",
    "load_events": "artifact_index.ingestion.loading",
    "open_transcript": "artifact_index.ingestion.loading",
    "Source": "artifact_index.ingestion.source",
    "read_source": "artifact_index.ingestion.source",
    "build_index": "artifact_index.trail.build",
    "ArtifactIndex": "artifact_index.trail.index",
    "FileEntry": "artifact_index.trail.index",
    "OperationEntry": "artifact_index.trail.index",
    "Tracker": "artifact_index.trail.tracker",
}


def __getattr__(name: str) -> Any:
    if name not in _LOCATIONS:
        raise AttributeError(f"module 'artifact_index' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LOCATIONS[name]), name)
    globals()[name] = value
    return value


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
