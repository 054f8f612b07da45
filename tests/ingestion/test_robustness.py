"""Whatever the input, the library raises only its own errors and the adapters never raise.

Real transcripts are hand-edited, truncated, or from versions nobody has seen.
Every adapter is fed arbitrary JSON (documents and lines, shaped like its own
records but with wrong types) and arbitrary text; reading may skip parts, but
must never leak a lower-layer exception.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import artifact_index
from artifact_index.exceptions import ArtifactIndexError
from artifact_index.ingestion.adapters import adapter_named, known_formats
from artifact_index.ingestion.source import Source
from artifact_index.trail.tracker import Tracker

KEYS = [
    "type",
    "role",
    "content",
    "message",
    "tool_use_id",
    "id",
    "name",
    "input",
    "arguments",
    "output",
    "path",
    "command",
    "file_path",
    "toolUseResult",
    "payload",
    "parts",
    "state",
    "status",
    "messages",
    "trajectory",
    "history",
    "action",
    "observation",
    "tool_calls",
    "function",
    "cwd",
    "text",
    "data",
    "result",
    "args",
    "info",
    "tool",
    "kind",
    "call_id",
    "old_str",
    "new_str",
    "changes",
    "say",
    "ask",
    "ts",
]
VALUES = [
    "user",
    "assistant",
    "tool_use",
    "tool_result",
    "function_call",
    "custom_tool_call",
    "Edit",
    "Write",
    "Bash",
    "apply_patch",
    "*** Begin Patch\n*** Update File: a.py\n@@\n-x\n+y\n*** End Patch",
    "edit 1:2",
    "str_replace_editor create /x --file_text 'a'",
    "<returncode>1</returncode>",
    "Exit code 2",
    "tool",
]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.sampled_from(VALUES) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.sampled_from(KEYS), children, max_size=6)
    ),
    max_leaves=30,
)


def _feed(fmt: str, text: str) -> None:
    source = Source("<fuzz>", text)
    tracker = Tracker(format=fmt)
    tracker.feed_all(adapter_named(fmt).events(source))
    tracker.index.files()
    tracker.index.symbols()
    Tracker.resume(tracker.save())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    document=json_values,
    lines=st.lists(json_values, max_size=6),
    fmt=st.sampled_from(known_formats()),
)
def test_adapters_never_raise_on_malformed_records(
    document: Any, lines: list[Any], fmt: str
) -> None:
    _feed(fmt, json.dumps(document))
    _feed(fmt, "\n".join(json.dumps(line) for line in lines))


@settings(max_examples=40, deadline=None)
@given(text=st.text(max_size=300), fmt=st.sampled_from(known_formats()))
def test_adapters_never_raise_on_arbitrary_text(text: str, fmt: str) -> None:
    _feed(fmt, text)


@settings(max_examples=40, deadline=None)
@given(data=st.binary(max_size=200))
def test_reading_arbitrary_bytes_raises_only_our_errors(data: bytes, tmp_path_factory: Any) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "input"
    path.write_bytes(data)
    with contextlib.suppress(ArtifactIndexError):
        artifact_index.build_index(path)


def test_the_public_api_is_as_documented() -> None:
    assert sorted(artifact_index.__all__) == sorted(
        [
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
    )
    for name in artifact_index.__all__:
        assert hasattr(artifact_index, name), name
