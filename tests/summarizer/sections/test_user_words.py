"""What the user last asked is decided by who wrote it: notices and host wrappers are not the user's words."""

from __future__ import annotations

import json
from pathlib import Path

from artifact_index.ingestion.events import (
    AssistantMessage,
    Event,
    ToolCall,
    ToolResult,
    UserMessage,
)
from artifact_index.ingestion.loading import load_events
from summarizer.narrative.extractive import ExtractiveWriter
from summarizer.sections.templates import load_template
from summarizer.sections.user_words import users_words
from summarizer.summary import summarize
from tests.support.session_steps import ROOT, edit, read, section, summary_of

_TASK_NOTICE = json.dumps(
    {"task_id": "a2fb57d", "description": "Find the core package", "task_type": "local_agent"}
)


def test_a_host_apps_instructions_are_taken_off_the_users_words() -> None:
    wrapped = (
        "<system_instruction>\nYou are working inside Conductor.\nRename the branch first.\n"
        "</system_instruction>\n\nimplement the typed flag parser"
    )
    summary = summary_of(UserMessage(turn=1, text=wrapped))
    intent = section(summary, "Session Intent")
    assert "The user asked (turn 1): implement the typed flag parser" in intent
    assert "Conductor" not in summary.markdown


def test_the_users_query_inside_an_envelope_is_their_words() -> None:
    assert (
        users_words(
            "<timestamp>Tuesday, 1:15 PM</timestamp>\n<user_query>\ncommit this\n</user_query>"
        )
        == "commit this"
    )


def test_an_attachment_note_keeps_the_files_the_request_refers_to() -> None:
    wrapped = (
        "<system_instruction>\nThe user has attached these files. Read them before proceeding.\n"
        "- /tmp/attachments/ci.log\n</system_instruction>\n\nFix the failing CI."
    )
    assert users_words(wrapped) == "(attached: /tmp/attachments/ci.log)\nFix the failing CI."


def test_a_message_that_is_only_a_reminder_is_dropped() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Round the cart total to cents."),
        UserMessage(turn=2, text="<system-reminder>\nApply AGENTS.md.\n</system-reminder>"),
    )
    assert "AGENTS.md" not in summary.markdown
    assert "Latest request" not in section(summary, "Session Intent")


_AGENT_REPORT = (
    '<agent-message from="researcher">\n# Findings\nThe cache is stale.\n</agent-message>'
)


def test_notices_in_a_claude_code_transcript_are_not_the_users_words(tmp_path: Path) -> None:
    # The shapes Claude Code writes: a task's notice is enqueued and delivered like a message typed while the agent
    # worked; another agent's report arrives as a prompt of its own.
    def record(**fields: object) -> str:
        return json.dumps({"sessionId": "s1", "cwd": ROOT, **fields})

    lines = [
        record(
            type="user",
            uuid="u1",
            timestamp="2026-01-01T00:00:00Z",
            message={"role": "user", "content": "Move the flag types into core."},
        ),
        record(
            type="queue-operation",
            operation="enqueue",
            timestamp="2026-01-01T00:00:01Z",
            content=_TASK_NOTICE,
        ),
        record(
            type="assistant",
            uuid="a1",
            parentUuid="u1",
            timestamp="2026-01-01T00:00:02Z",
            message={
                "role": "assistant",
                "id": "m1",
                "content": [{"type": "text", "text": "The flag types are in core now."}],
            },
        ),
        record(type="queue-operation", operation="dequeue", timestamp="2026-01-01T00:00:03Z"),
        record(
            type="user",
            uuid="u2",
            parentUuid="a1",
            timestamp="2026-01-01T00:00:04Z",
            message={"role": "user", "content": _AGENT_REPORT},
        ),
    ]
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    events = load_events(path)
    summary = summarize(
        events, template=load_template("default"), writer=ExtractiveWriter(), format="claude-code"
    )
    assert "task_id" not in summary.markdown
    assert "researcher" not in summary.markdown
    assert "Move the flag types into core." in section(summary, "Session Intent")
    assert "Latest request" not in section(summary, "Session Intent")
    assert "Answer the user's latest message" not in section(summary, "Next Steps")
    assert "reported back on the latest request (turn 1)" in section(summary, "Next Steps")


def _todo(turn: int, content: str) -> list[Event]:
    todos = [{"content": content, "status": "in_progress", "activeForm": content}]
    return [
        ToolCall(turn=turn, call_id=f"t{turn}", tool="TodoWrite", arguments={"todos": todos}),
        ToolResult(turn=turn, call_id=f"t{turn}", status="success", output="ok"),
    ]


def test_a_queued_request_the_agent_planned_for_is_the_request_in_hand() -> None:
    # Typed while the agent worked, then taken up: the agent's task list, rewritten after it, says so.
    summary = summary_of(
        UserMessage(turn=1, text="Make the filter default to all files."),
        edit(2, f"{ROOT}/app/filter.swift", old="media", new="all"),
        UserMessage(turn=3, text="Found a new bug: syncing the vault crashes.", channel="queued"),
        _todo(4, "Investigate the sync crash"),
        AssistantMessage(turn=5, text="The sync path holds every file in memory."),
        read(5, f"{ROOT}/app/sync.swift", "func sync() {}\n"),
    )
    intent = section(summary, "Session Intent")
    assert "Latest request (turn 3): Found a new bug: syncing the vault crashes." in intent
    assert "on the latest request (turn 3" in section(summary, "Next Steps")


def test_a_queued_aside_without_a_new_plan_leaves_the_work_in_hand() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Make the filter default to all files."),
        _todo(2, "Default the filter to all"),
        edit(2, f"{ROOT}/app/filter.swift", old="media", new="all"),
        UserMessage(turn=3, text="also add a changelog line", channel="queued"),
        AssistantMessage(turn=4, text="Now the persisted default."),
        read(4, f"{ROOT}/app/settings.swift", "let x = 1\n"),
    )
    assert "on the request of turn 1 and the messages queued" in section(summary, "Next Steps")


def test_a_look_at_the_session_is_not_the_users_last_word() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Move the flag types into core."),
        UserMessage(turn=2, text="/context", channel="command"),
        UserMessage(turn=3, text="/commit", channel="command"),
        UserMessage(turn=4, text="/cost", channel="command"),
    )
    intent = section(summary, "Session Intent")
    assert "Then the user said: (turn 3) /commit\n" in intent + "\n"
    assert "/context" not in intent and "/cost" not in intent


def test_a_document_pasted_as_the_request_is_named_by_its_title() -> None:
    guide = "\n".join(
        [
            "# Security Principles",
            "",
            "<meta>",
            "Document: security.md",
            "Priority: High",
            "</meta>",
            "This document defines how data is protected.",
            "Protect data: never expose sensitive information in logs or errors.",
            "Validate inputs: sanitize all user inputs at the boundary of the system.",
            "Seek approval before changing who can read the data or how it is stored.",
        ]
    )
    summary = summary_of(
        UserMessage(turn=1, text="Migrate each guide I paste into docs/guides/."),
        UserMessage(turn=2, text=guide),
    )
    intent = section(summary, "Session Intent")
    assert (
        'Latest request (turn 2): "Security Principles" (9 lines): This document defines how data is '
        "protected." in intent
    )
    assert "Priority: High" not in intent
