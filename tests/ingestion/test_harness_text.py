"""Text in the user's slot that nobody typed is marked ``synthetic`` where the transcript is read, once."""

from __future__ import annotations

import json
from pathlib import Path

from artifact_index.ingestion.events import UserMessage
from artifact_index.ingestion.harness_text import is_harness_text
from artifact_index.ingestion.loading import load_events

_TASK_NOTICE = json.dumps(
    {"task_id": "a2fb57d", "description": "Find the core package", "task_type": "local_agent"}
)
_AGENT_REPORT = (
    '<agent-message from="researcher">\n# Findings\nThe cache is stale.\n</agent-message>'
)


def test_notices_and_the_harness_own_text_are_not_typed() -> None:
    assert is_harness_text(_TASK_NOTICE)
    assert is_harness_text(_AGENT_REPORT)
    assert is_harness_text("  <bash-notification>build done</bash-notification>")
    assert is_harness_text("<command-name>/context</command-name>")
    assert is_harness_text("[Request interrupted by user for tool use]")


def test_text_that_only_looks_like_a_notice_is_the_users() -> None:
    assert not is_harness_text('{"name": "cart", "total": 3}')
    assert not is_harness_text("{not json at all}")
    assert not is_harness_text("Why does the <agent-message> tag show in the log?")
    assert not is_harness_text("Move the flag types into core.")


def _record(**fields: object) -> str:
    return json.dumps({"sessionId": "s1", "cwd": "/home/dev/shop", **fields})


def test_the_claude_code_adapter_marks_notices_synthetic(tmp_path: Path) -> None:
    lines = [
        _record(
            type="user",
            uuid="u1",
            timestamp="2026-01-01T00:00:00Z",
            message={"role": "user", "content": "Move the flag types into core."},
        ),
        _record(
            type="queue-operation",
            operation="enqueue",
            timestamp="2026-01-01T00:00:01Z",
            content=_TASK_NOTICE,
        ),
        _record(
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
        _record(type="queue-operation", operation="dequeue", timestamp="2026-01-01T00:00:03Z"),
        _record(
            type="user",
            uuid="u2",
            parentUuid="a1",
            timestamp="2026-01-01T00:00:04Z",
            message={"role": "user", "content": _AGENT_REPORT},
        ),
    ]
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    said = [e for e in load_events(path) if isinstance(e, UserMessage)]
    typed = [m.text for m in said if not m.synthetic]
    assert typed == ["Move the flag types into core."]
    assert any(m.text == _AGENT_REPORT and m.synthetic for m in said)


def test_a_background_agents_end_handed_over_from_the_queue_reaches_the_events(
    tmp_path: Path,
) -> None:
    # Newer versions take a queued notice off the queue (`remove`) and hand it to the agent as a
    # `queued_command` attachment: the only record of a background sub-agent's end.
    notice = (
        "<task-notification>\n<task-id>a30c509</task-id>\n<status>completed</status>\n"
        '<summary>Agent "Release groups" finished</summary>\n<result>Done.</result>\n'
        "</task-notification>"
    )
    lines = [
        _record(
            type="user",
            uuid="u1",
            timestamp="2026-01-01T00:00:00Z",
            message={"role": "user", "content": "Port the release groups."},
        ),
        _record(type="queue-operation", operation="enqueue", content=notice),
        _record(type="queue-operation", operation="remove", content=notice),
        _record(
            type="attachment",
            uuid="t1",
            parentUuid="u1",
            timestamp="2026-01-01T00:00:05Z",
            attachment={"type": "queued_command", "prompt": notice, "commandMode": "prompt"},
        ),
    ]
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    said = [e for e in load_events(path) if isinstance(e, UserMessage)]
    assert [m.text for m in said if not m.synthetic] == ["Port the release groups."]
    assert [(m.text, m.channel) for m in said if m.synthetic] == [(notice, "queued")]
