"""Redaction: secrets become placeholders that say what they hid; everything else stays as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_secrets import FakeSecret, fake_secrets, planted_text
from hypothesis import given, settings
from hypothesis import strategies as st

from artifact_index.ingestion.events import FileOperation, SessionInfo, ToolCall, ToolResult
from artifact_index.presentation.cli import main
from artifact_index.redaction import (
    DISABLE_ENVIRONMENT_VARIABLE,
    redact_json,
    redact_text,
    redaction_disabled,
    secret_name,
)
from artifact_index.trail.tracker import Tracker

SECRETS = fake_secrets()


@pytest.mark.parametrize("secret", SECRETS, ids=lambda s: s.kind)
def test_each_kind_of_secret_becomes_a_placeholder_naming_it(secret: FakeSecret) -> None:
    redacted = redact_text(secret.context)
    assert secret.value not in redacted
    assert f"[REDACTED {secret.kind}]" in redacted


def test_the_text_around_a_secret_is_kept() -> None:
    assert (
        redact_text(f"before {SECRETS[0].value} after")
        == "before [REDACTED anthropic-api-key] after"
    )
    postgres = next(s for s in SECRETS if s.kind == "url-password")
    assert (
        redact_text(postgres.context)
        == "DATABASE_URL=postgres://app:[REDACTED url-password]@db.example.test:5432/app"
    )


def test_a_private_key_cut_off_before_its_end_line_is_still_hidden() -> None:
    key = next(s for s in SECRETS if s.kind == "private-key").value
    cut = key[: len(key) // 2]
    assert redact_text(f"output:\n{cut}") == "output:\n[REDACTED private-key]"


def test_a_private_key_inside_escaped_json_is_hidden() -> None:
    key = next(s for s in SECRETS if s.kind == "private-key").value
    escaped = json.dumps({"content": key})
    redacted = redact_text(escaped)
    assert "[REDACTED private-key]" in redacted and key.split("\n")[1] not in redacted


@pytest.mark.parametrize(
    "harmless",
    [
        "src/artifact_index/ingestion/adapters/claude_code.py",
        "/home/dev/.claude/projects/-home-dev-webapp/8463c716-a2ea-4c14-9efa-87158ebd9f20/tool-results/x.txt",
        "commit 5f98664a1b2c3d4e5f60718293a4b5c6d7e8f901 (HEAD -> main)",
        "request 123e4567-e89b-12d3-a456-426614174000 done",
        "tool_use_id toolu_01KSL9QqYN9rX8NXtbyX5ngw and call_00_4ThMmhVbxCJ3BUuppYE2Sg3h",
        "def test_expired_token_is_rejected_when_the_clock_skew_exceeds_the_limit():",
        "data = 'dGhpcyBpcyBzb21lIHRlc3QgZGF0YSBmb3IgYmFzZTY0IGRlY29kaW5n'",
        "max_tokens = 4096\ntokenizer: cl100k_base\npassword_field = 'password'",
        "password = request.form['password']\ntoken = get_token()\nAPI_KEY = os.environ['API_KEY']",
        "DB_PASSWORD=${DB_PASSWORD}\nSECRET_KEY=settings.SECRET_KEY",
        "see https://github.com/Project-MONAI/MONAI/blob/f407fcce1c32c050f327b26a16b7f7bc8a01f593/monai/losses/dice.py",
        "Project-MONAI__MONAI-4943",
        "integrity sha512-41sCUwGPhMMQIkwksEZXNWeSOMEDIGESTabcdefghijklmnopq==",
    ],
)
def test_paths_hashes_ids_identifiers_and_test_data_are_not_secrets(harmless: str) -> None:
    assert redact_text(harmless) == harmless


@pytest.mark.parametrize(
    ("name", "label"),
    [
        ("DB_PASSWORD", "password"),
        ("apiKey", "api-key"),
        ("AWS_SECRET_ACCESS_KEY", "aws-secret-key"),
        ("GITHUB_TOKEN", "token"),
        ("client_secret", "secret"),
        ("max_tokens", None),
        ("password_field", None),
        ("tokenizer", None),
        ("PWD", None),
        ("passed", None),
    ],
)
def test_secret_sounding_names(name: str, label: str | None) -> None:
    assert secret_name(name) == label


def test_redacting_twice_changes_nothing_and_the_same_text_always_redacts_the_same() -> None:
    once = redact_text(planted_text())
    assert redact_text(once) == once
    assert redact_text(planted_text()) == once
    assert all(s.value not in once for s in SECRETS)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=200))
def test_redaction_is_idempotent_on_any_text(text: str) -> None:
    once = redact_text(text)
    assert redact_text(once) == once


def test_json_is_copied_with_keys_kept_and_values_under_secret_names_hidden() -> None:
    data = {
        "user": "dev",
        "password": "hunter22",
        "nested": [{"note": SECRETS[0].context}],
        "count": 3,
    }
    redacted = redact_json(data)
    assert redacted == {
        "user": "dev",
        "password": "[REDACTED password]",
        "nested": [{"note": "export ANTHROPIC_API_KEY=[REDACTED anthropic-api-key]"}],
        "count": 3,
    }
    assert data["password"] == "hunter22"  # the input is not changed


def test_the_opt_out_leaves_secrets_in_place(monkeypatch: pytest.MonkeyPatch) -> None:
    text = planted_text()
    with redaction_disabled():
        assert redact_text(text) == text
    monkeypatch.setenv(DISABLE_ENVIRONMENT_VARIABLE, "1")
    assert redact_json({"password": "hunter22"}) == {"password": "hunter22"}
    monkeypatch.setenv(DISABLE_ENVIRONMENT_VARIABLE, "0")
    assert redact_text(text) != text


def _session_showing(text: str, path: Path) -> Path:
    records = [
        {
            "type": "user",
            "uuid": "u1",
            "sessionId": "s",
            "cwd": "/w",
            "message": {"role": "user", "content": f"set up the env:\n{text}"},
        },
        {
            "type": "assistant",
            "uuid": "a1",
            "sessionId": "s",
            "cwd": "/w",
            "message": {
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "toolu_1",
                        "name": "Bash",
                        "input": {"command": "cat .env"},
                    }
                ],
            },
        },
        {
            "type": "user",
            "uuid": "u2",
            "sessionId": "s",
            "cwd": "/w",
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": text}],
            },
        },
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_the_command_line_redacts_and_no_redact_is_the_debugging_opt_out(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    session = _session_showing(planted_text(), tmp_path / "s.jsonl")
    assert main(["tasks", str(session), "--json"]) == 0
    assert main(["show", str(session)]) == 0
    out = capsys.readouterr().out
    assert all(s.value not in out for s in SECRETS)
    assert main(["--no-redact", "tasks", str(session), "--json"]) == 0
    assert SECRETS[5].value in capsys.readouterr().out


def test_a_resumed_state_holds_contents_redacted_and_later_edits_still_apply() -> None:
    env = next(s for s in SECRETS if s.kind == "password")
    content = f"DEBUG=1\n{env.context}\nPORT=80\n"
    tracker = Tracker(format="claude-code")
    tracker.feed(SessionInfo(turn=0, cwd="/w"))
    tracker.feed(
        ToolCall(
            turn=1,
            call_id="c1",
            tool="Write",
            operations=[FileOperation(action="write", path="/w/.env", content=content)],
        )
    )
    tracker.feed(ToolResult(turn=1, call_id="c1", status="success", output="ok"))
    state = tracker.save()
    assert env.value not in state

    resumed = Tracker.resume(state)
    resumed.feed(
        ToolCall(
            turn=2,
            call_id="c2",
            tool="Edit",
            operations=[
                FileOperation(
                    action="edit",
                    path="/w/.env",
                    old=f"{env.context}\nPORT=80",
                    new=f"{env.context}\nPORT=8080",
                )
            ],
        )
    )
    resumed.feed(ToolResult(turn=2, call_id="c2", status="success", output="ok"))
    assert resumed.content_of("/w/.env") == "DEBUG=1\nDB_PASSWORD=[REDACTED password]\nPORT=8080\n"
