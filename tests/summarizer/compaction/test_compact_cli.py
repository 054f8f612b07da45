"""`artifact-index compact` end to end: the file trail survives cycle after cycle, and the event log resumes."""

from __future__ import annotations

import json
from pathlib import Path

import anthropic
import pytest

from artifact_index.presentation.cli import main
from tests.support.compaction_chat import Chat
from tests.support.fake_anthropic import FakeAnthropic


def _write(chat: Chat, path: str, content: str) -> None:
    chat.tools([("write_file", f"Wrote {path}")], args={"path": path, "content": content})


def _request(tmp_path: Path, name: str, messages: list[dict[str, object]]) -> Path:
    body = tmp_path / name
    body.write_text(
        json.dumps(
            {
                "model": "claude-test",
                "max_tokens": 1000,
                "system": "You are a coding agent.",
                "tools": [{"name": "write_file", "input_schema": {"type": "object"}}],
                "messages": messages,
            }
        ),
        encoding="utf-8",
    )
    return body


def _compact(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["compact", *args]) == 0
    out: dict[str, object] = json.loads(capsys.readouterr().out)
    return out


def test_each_cycle_names_every_file_of_every_earlier_cycle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    chat = Chat("anthropic").user("Add a parser and its tests.")
    _write(chat, "src/parser.py", "def parse(text):\n    return text.split()\n")
    chat.assistant("Parser written.").user("Now the tests.")
    _write(chat, "tests/test_parser.py", "def test_parse():\n    assert True\n")
    chat.assistant("Done.").user("Thanks, keep going.")
    first = _compact(
        capsys,
        str(_request(tmp_path, "one.json", chat.messages)),
        "--force",
        "--no-llm",
        "--state-dir",
        str(state),
    )
    assert first["result"]["didCompress"] is True  # type: ignore[index]
    summary_text = json.dumps(first["messages"])
    assert "src/parser.py" in summary_text and "tests/test_parser.py" in summary_text

    # The client sends the compacted history back, with new work after it.
    later = Chat("anthropic")
    later.messages = list(first["messages"])  # type: ignore[arg-type]
    later._ids = 100
    later.assistant("Adding the CLI.").user("Go on.")
    _write(later, "src/cli.py", "def main():\n    pass\n")
    later.assistant("CLI added.").user("Summarize and continue.")
    second = _compact(
        capsys,
        str(_request(tmp_path, "two.json", later.messages)),
        "--force",
        "--no-llm",
        "--state-dir",
        str(state),
    )
    text = json.dumps(second["messages"])
    for path in ("src/parser.py", "tests/test_parser.py", "src/cli.py"):
        assert path in text, f"{path} was lost by the second compaction"

    events = [json.loads(line) for line in (state / "events.jsonl").read_text().splitlines()]
    summaries = [e for e in events if e["type"] == "summary"]
    assert len(summaries) == 2
    assert summaries[1]["lastSummarizedTurnId"] > summaries[0]["lastSummarizedTurnId"]


def test_system_and_tools_are_never_compressed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chat = Chat("anthropic").user("Write it.")
    _write(chat, "a.py", "x = 1\n")
    chat.assistant("Done.").user("More.")
    out = _compact(capsys, str(_request(tmp_path, "r.json", chat.messages)), "--force", "--no-llm")
    assert set(out) == {"schema_version", "messages", "result"}
    assert set(out["result"]) == {"didCompress", "released", "promptEstimate"}  # type: ignore[arg-type]


def test_exact_tokens_come_from_the_api(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeAnthropic(token_counts=[4321] * 10) as api:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-local")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", api.url)
        chat = Chat("anthropic").user("Hello")
        out = _compact(
            capsys, str(_request(tmp_path, "r.json", chat.messages)), "--no-llm", "--exact-tokens"
        )
    assert out["result"]["promptEstimate"] == 4321  # type: ignore[index]
    assert any(r.path.endswith("/count_tokens") for r in api.requests)
    assert anthropic.__version__  # the real SDK did the counting


def test_exact_tokens_without_a_key_is_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    chat = Chat("anthropic").user("Hello")
    assert (
        main(["compact", str(_request(tmp_path, "r.json", chat.messages)), "--exact-tokens"])
        == 1  # what is missing is in the environment, not on the command line
    )
    assert "ANTHROPIC_API_KEY" in capsys.readouterr().err
