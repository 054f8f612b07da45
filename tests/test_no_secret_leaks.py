"""No secret leaves: nine kinds planted in every format's transcript appear in no output, state file or request.

The fake secrets (``fake_secrets``) are planted in every text of a small
transcript of each format, so they sit in user text, tool inputs (commands,
file contents of writes and edits), tool outputs and assistant text alike.
Then every command runs on it: the engine's views as tables and JSON, the
summary (offline and through the real ``anthropic`` SDK against a local fake
API), both hook events, and ``compact`` with a state directory.  Nothing any
of them writes (standard output, standard error, state files, the requests
the fake API received) may hold a secret.  A control run with
``--no-redact`` proves the planted secrets do reach the outputs.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_secrets import fake_secrets

from artifact_index.presentation.cli import main
from summarizer.sections.templates import load_template
from tests.support.fake_anthropic import FakeAnthropic, tool_reply
from tests.support.fake_openai import FakeOpenAI, function_reply

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SECRETS = fake_secrets()

# One transcript of each format, with file changes in it.
TRANSCRIPTS = {
    "claude-code": "claude_code/edits.jsonl",
    "codex": "codex/rollout-0142.jsonl",
    "opencode": "opencode/session-export.json",
    "swe-agent": "swe_agent/editor-1x.traj",
    "mini-swe-agent": "mini_swe_agent/v1.traj.json",
    "openhands": "openhands/legacy.json",
    "aider": "aider/chat.history.md",
    "cline": "cline/api_conversation_history.json",
    "cline-ui": "cline-ui/ui_messages.json",
    "gemini-cli": "gemini_cli/checkpoint-release.json",
    "copilot-cli": "copilot_cli/events.jsonl",
    "entire-compact": "entire_compact/transcript.jsonl",
    "git-ai-note": "git_ai_note/claude-with-results.txt",
    "amp": "other_agents/amp.json",
    "cursor": "other_agents/cursor.jsonl",
    "windsurf": "other_agents/windsurf.jsonl",
    "anthropic-messages": "anthropic-messages/session.json",
    "openai-chat": "openai-chat/session.jsonl",
}
VIEWS = ["files", "symbols", "errors", "decisions", "tasks", "show", "refetch"]
_UNTOUCHED_KEYS = {
    "type",
    "role",
    "id",
    "uuid",
    "name",
    "tool",
    "kind",
    "status",
    "say",
    "ask",
    "call_id",
    "tool_use_id",
    "tool_call_id",
    "toolCallId",
    "sessionId",
    "parentUuid",
    "model",
    "cwd",
    "path",
    "file_path",
    "filePath",
    "timestamp",
    "action",
    "state",
    "recipient_name",
    "agent",
}


def _plant(value: Any, counter: Iterator[int], key: str | None = None) -> Any:
    """Every text of a JSON value with one of the secrets added (identifiers and paths left alone)."""
    if isinstance(value, dict):
        return {k: _plant(v, counter, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_plant(v, counter, key) for v in value]
    if isinstance(value, str) and key not in _UNTOUCHED_KEYS and (" " in value or "\n" in value):
        secret = SECRETS[next(counter) % len(SECRETS)]
        return f"{value}\n{secret.context}\n"
    return value


def _planted(tmp_path: Path, fixture: str) -> Path:
    source = FIXTURES / fixture
    text = source.read_text(encoding="utf-8")
    counter = iter(range(10**9))
    target = tmp_path / source.name
    stripped = text.lstrip()
    if source.suffix == ".txt":
        # A git-ai note: attestation lines, then "---", then its JSON.
        head, _, document = text.partition("\n---\n")
        target.write_text(
            f"{head}\n---\n{json.dumps(_plant(json.loads(document), counter), indent=2)}\n",
            encoding="utf-8",
        )
    elif source.suffix == ".md":
        # Line-based text formats: a secret after every line of prose.
        lines = text.split("\n")
        planted = [
            f"{line} {SECRETS[n % len(SECRETS)].context.splitlines()[0]}"
            if " " in line and not line.startswith(("#", ">", "```", "<<<", "===", ">>>"))
            else line
            for n, line in enumerate(lines)
        ]
        target.write_text(
            "\n".join(planted) + "\n" + "\n".join(s.context for s in SECRETS), encoding="utf-8"
        )
    elif stripped.startswith(("[", "{")) and source.suffix != ".jsonl":
        target.write_text(json.dumps(_plant(json.loads(text), counter)), encoding="utf-8")
    else:
        records = [
            json.loads(line)
            for line in text.split("\n")
            if line.strip().startswith("{") and _parses(line)
        ]
        target.write_text(
            "".join(json.dumps(_plant(r, counter)) + "\n" for r in records), encoding="utf-8"
        )
    return target


def _parses(line: str) -> bool:
    try:
        json.loads(line)
    except json.JSONDecodeError:
        return False
    return True


def _leaks(text: str) -> list[str]:
    found = []
    for secret in SECRETS:
        # A private key is found by any one of its lines as well.
        pieces = [secret.value] + [
            line for line in secret.value.split("\n")[1:-1] if len(line) > 20
        ]
        if any(piece in text for piece in pieces):
            found.append(secret.kind)
    return found


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    main(list(args))
    captured = capsys.readouterr()
    return captured.out + captured.err


def _hook(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    transcript: Path,
    event: str,
) -> str:
    monkeypatch.setattr(
        "sys.stdin",
        io.StringIO(json.dumps({"transcript_path": str(transcript), "hook_event_name": event})),
    )
    return _run(capsys, "hook")


def _narrative_replies(count: int) -> list[dict[str, Any]]:
    template = load_template("default")
    empty = {s.key: {"items": [], "superseded": []} for s in template.narrative_sections}
    return [tool_reply(empty) for _ in range(count)]


def _files_of_state(folder: Path) -> str:
    return "".join(
        path.read_text(encoding="utf-8", errors="replace")
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    )


@pytest.mark.parametrize("format_name", sorted(TRANSCRIPTS))
def test_no_output_of_any_command_holds_a_planted_secret(
    format_name: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    transcript = _planted(tmp_path, TRANSCRIPTS[format_name])
    arguments = [str(transcript), "--format", format_name]

    control = _run(capsys, "--no-redact", "tasks", *arguments, "--json") + _run(
        capsys, "--no-redact", "summary", *arguments, "--no-llm"
    )
    assert _leaks(control), (
        "the planted secrets never reach an output: the test would prove nothing"
    )

    outputs: dict[str, str] = {}
    for view in VIEWS:
        outputs[view] = _run(capsys, view, *arguments)
        outputs[f"{view} --json"] = _run(capsys, view, *arguments, "--json")
    for template in ("default", "claude-code", "debugging", "migration"):
        outputs[f"summary {template}"] = _run(
            capsys, "summary", *arguments, "--no-llm", "--template", template
        )
    if format_name == "claude-code":
        for event in ("SessionStart", "PreCompact"):
            outputs[f"hook {event}"] = _hook(monkeypatch, capsys, transcript, event)

    with FakeAnthropic(replies=_narrative_replies(40)) as api:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-local")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", api.url)
        outputs["summary --llm"] = _run(
            capsys, "summary", *arguments, "--llm", "--model", "claude-test"
        )
        requests = json.dumps([request.body for request in api.requests])
    assert api.messages_requests, f"the LLM path sent no request: {outputs['summary --llm'][-300:]}"
    outputs["requests to the API"] = requests

    empty = {
        s.key: {"items": [], "superseded": []} for s in load_template("default").narrative_sections
    }
    with FakeOpenAI(replies=[function_reply(empty) for _ in range(40)]) as server:
        outputs["summary --provider openai"] = _run(
            capsys,
            "summary",
            *arguments,
            "--provider",
            "openai",
            "--base-url",
            server.base_url,
            "--model",
            "local-test",
        )
        opened = json.dumps([request.body for request in server.requests])
    assert server.requests, "the OpenAI-compatible path sent no request"
    outputs["requests to the OpenAI-compatible API"] = opened

    leaked = {name: kinds for name, text in outputs.items() if (kinds := _leaks(text))}
    assert leaked == {}


def _request_body(tmp_path: Path) -> Path:
    """An Anthropic request whose user text, tool input, tool output, written file and tool definition hold secrets."""
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": f"Set up the service.\n{SECRETS[0].context}"}
    ]
    for number, secret in enumerate(SECRETS):
        call = f"toolu_{number:02d}"
        messages += [
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": f"Writing config {number}. {secret.context}"},
                    {
                        "type": "tool_use",
                        "id": call,
                        "name": "write_file",
                        "input": {"path": f"config/{number}.env", "content": secret.context},
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": call,
                        "content": f"Wrote it.\n{secret.context}",
                    }
                ],
            },
        ]
    messages += [
        {"role": "assistant", "content": [{"type": "text", "text": "All written."}]},
        {"role": "user", "content": "Carry on."},
    ]
    body = tmp_path / "request.json"
    # A tool definition can carry a secret too (a deploy tool whose description names its token):
    # the token-count request sends the definitions along with the messages.
    tools = [
        {
            "name": "deploy",
            "description": f"Deploys the service. {SECRETS[1].context}",
            "input_schema": {"type": "object", "properties": {}},
        }
    ]
    body.write_text(
        json.dumps(
            {
                "model": "claude-test",
                "system": "You are a coding agent.",
                "tools": tools,
                "messages": messages,
            }
        ),
        encoding="utf-8",
    )
    return body


def test_compact_and_its_state_hold_no_secret_and_neither_do_its_requests(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    body = _request_body(tmp_path)
    state = tmp_path / "state"
    control = _run(capsys, "--no-redact", "compact", str(body), "--force", "--no-llm")
    assert _leaks(control), (
        "the planted secrets never reach an output: the test would prove nothing"
    )

    outputs = {
        "compact offline": _run(
            capsys, "compact", str(body), "--force", "--no-llm", "--state-dir", str(state)
        )
    }
    with FakeAnthropic(replies=_narrative_replies(20), token_counts=[5000] * 20) as api:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-local")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", api.url)
        outputs["compact --llm --exact-tokens"] = _run(
            capsys,
            "compact",
            str(body),
            "--force",
            "--llm",
            "--exact-tokens",
            "--state-dir",
            str(tmp_path / "state2"),
        )
        paths = {request.path for request in api.requests}
        outputs["requests to the API"] = json.dumps([request.body for request in api.requests])
    assert paths == {"/v1/messages", "/v1/messages/count_tokens"}
    outputs["state files"] = _files_of_state(state) + _files_of_state(tmp_path / "state2")
    assert "tracker.json" in {p.name for p in state.iterdir()}

    leaked = {name: kinds for name, text in outputs.items() if (kinds := _leaks(text))}
    assert leaked == {}
