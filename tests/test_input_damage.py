"""Damaged input: a bad record costs itself and nothing more, and what yields nothing says so.

Each case was found by feeding crafted and mutated transcripts to every
command: records split by Unicode line separators, lone surrogates, deep
nesting, out-of-range timestamps, truncated JSON documents, a forced wrong
format, and lower-layer errors printed over several lines.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from pydantic import BaseModel

from artifact_index.ingestion.adapters import Adapter
from artifact_index.ingestion.events import Event, UserMessage
from artifact_index.ingestion.loading import Loaded
from artifact_index.ingestion.source import Source
from artifact_index.presentation.cli import main

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SESSION = FIXTURES / "cli" / "session.jsonl"  # app.py modified; lines 4 and 9 are not JSON
COMMANDS = ["files", "show", "symbols", "errors", "decisions", "tasks", "refetch"]


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _files(capsys: pytest.CaptureFixture[str], path: Path, *extra: str) -> dict[str, Any]:
    code, out, _ = _run(capsys, "files", str(path), "--json", *extra)
    assert code == 0
    result: dict[str, Any] = json.loads(out)
    return result


def _records(path: Path) -> list[dict[str, Any]]:
    records = []
    for line in path.read_text(encoding="utf-8").split("\n"):
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            continue  # the fixture's own damaged lines
    return records


def _write_jsonl(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\u0085"])
def test_unicode_line_separators_inside_a_record_do_not_split_it(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    separator: str,
) -> None:
    records = _records(SESSION)
    # The Edit call of app.py says something with the separator in it, written raw (as ensure_ascii=False does).
    for record in records:
        for block in (
            record.get("message", {}).get("content", [])
            if isinstance(record.get("message", {}).get("content"), list)
            else []
        ):
            if block.get("type") == "tool_use" and block.get("name") == "Edit":
                block["input"]["new_string"] += f"# note{separator}more\n"
    path = _write_jsonl(
        tmp_path / "s.jsonl", [json.dumps(r, ensure_ascii=False) for r in records] + ["{broken"]
    )
    assert separator in path.read_text(encoding="utf-8")
    result = _files(capsys, path)
    assert [f["path"] for f in result["files"] if f["status"] == "modified"] == ["app.py"]
    assert result["skipped_lines"] == 1
    # Line numbers count "\n" only: the broken line is reported as the file's last line.
    _, _, err = _run(capsys, "files", str(path))
    assert f"line {len(records) + 1}: not valid JSON" in err


def _with_tool_output(path: Path, raw_output: str, tmp_path: Path) -> Path:
    lines = [line for line in SESSION.read_text(encoding="utf-8").split("\n") if line.strip()]
    result = (
        '{"type":"user","cwd":"/work/demo","sessionId":"s-1","uuid":"u9","message":{"role":"user",'
        '"content":[{"type":"tool_result","tool_use_id":"toolu_9","content":"'
        + raw_output
        + '"}]}}'
    )
    call = (
        '{"type":"assistant","cwd":"/work/demo","sessionId":"s-1","uuid":"a9","message":{"role":"assistant",'
        '"content":[{"type":"tool_use","id":"toolu_9","name":"Bash","input":{"command":"cat log.txt"}}]}}'
    )
    return _write_jsonl(tmp_path / path, [*lines, call, result])


@pytest.mark.parametrize("command", [*COMMANDS, "summary"])
def test_a_lone_surrogate_from_a_cut_tool_output_crashes_no_command(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    command: str,
) -> None:
    path = _with_tool_output(Path("s.jsonl"), "error: rocket \\ud83d then the cut", tmp_path)
    code, out, _ = _run(capsys, command, str(path), *(["--no-llm"] if command == "summary" else []))
    assert code == 0
    out.encode("utf-8")  # what was printed is valid UTF-8
    if command == "files":
        assert "app.py" in out


def test_a_record_nested_a_thousand_levels_deep_is_skipped_and_counted(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = [line for line in SESSION.read_text(encoding="utf-8").split("\n") if line.strip()]
    deep = '{"type":"user","message":' + "[" * 1000 + "]" * 1000 + "}"
    path = _write_jsonl(tmp_path / "s.jsonl", [lines[0], deep, *lines[1:]])
    for command in COMMANDS:
        code, out, err = _run(capsys, command, str(path), "--json")
        assert code == 0, err
        json.loads(out)
    result = _files(capsys, path)
    assert [f["path"] for f in result["files"] if f["status"] == "modified"] == ["app.py"]
    assert result["skipped_lines"] == 3
    _, _, err = _run(capsys, "files", str(path))
    assert "line 2: nested too deeply to read" in err  # on every Python alike


def test_a_cline_record_with_an_out_of_range_time_loses_only_its_time(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    original = FIXTURES / "cline-ui" / "ui_messages.json"
    records = json.loads(original.read_text(encoding="utf-8"))
    records[3]["ts"] = 10**22
    records[0]["ts"] = float("nan")
    damaged = tmp_path / "ui_messages.json"
    damaged.write_text(json.dumps(records), encoding="utf-8")
    assert _files(capsys, damaged)["files"] == _files(capsys, original)["files"]


@pytest.mark.parametrize(
    "fixture", ["cline/api_conversation_history.json", "opencode/session-export.json"]
)
def test_a_truncated_json_document_says_it_is_damaged_and_what_came_before_is_read(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    fixture: str,
) -> None:
    text = (FIXTURES / fixture).read_text(encoding="utf-8")
    cut = tmp_path / Path(fixture).name
    cut.write_text(text[: int(len(text) * 0.8)], encoding="utf-8")
    # (Compared by name: the workspace root a whole Cline history reveals can differ from its first part's.)
    whole = {
        f["path"].replace("\\", "/").rsplit("/", 1)[-1]
        for f in _files(capsys, FIXTURES / fixture)["files"]
    }
    code, out, err = _run(capsys, "files", str(cut), "--json")
    assert code == 0
    salvaged = {f["path"].replace("\\", "/").rsplit("/", 1)[-1] for f in json.loads(out)["files"]}
    assert salvaged and salvaged <= whole
    assert "the JSON document is damaged here" in err


def test_a_damaged_json_document_with_nothing_to_salvage_says_it_is_damaged(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "export.json"
    path.write_text(
        '{"info": {"id": "ses_1", "title": "x"}, "messages": [{"info": {"role": "us',
        encoding="utf-8",
    )
    code, out, err = _run(capsys, "files", str(path))
    assert code == 1 and out == ""
    assert "is a damaged JSON document" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("wrong", ["opencode", "cline", "swe-agent", "aider", "codex"])
def test_a_forced_format_that_yields_nothing_says_so_and_exits_1(
    capsys: pytest.CaptureFixture[str],
    wrong: str,
) -> None:
    code, out, err = _run(capsys, "files", str(SESSION), "--format", wrong)
    assert code == 1 and out == ""
    assert f"read as {wrong} yields nothing" in err and len(err.strip().splitlines()) == 1


def test_a_transcript_whose_every_record_is_damaged_says_so_and_exits_1(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = [line for line in SESSION.read_text(encoding="utf-8").split("\n") if line.strip()]
    path = _write_jsonl(tmp_path / "s.jsonl", [line[: len(line) // 2] for line in lines])
    code, _, err = _run(capsys, "files", str(path), "--format", "claude-code")
    assert code == 1 and len(err.strip().splitlines()) == 1


class _Strict(BaseModel):
    count: int
    name: str


def test_a_pydantic_error_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*_: object) -> None:
        _Strict.model_validate({"count": "many", "name": 3})

    monkeypatch.setattr("artifact_index.presentation.cli.build_index", broken)
    code, out, err = _run(capsys, "files", str(SESSION))
    assert code == 3 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert (
        "invalid _Strict: count: Input should be a valid integer" in err and "(and 1 more)" in err
    )


class _FailsOnThirdRecord(Adapter):
    name: ClassVar[str] = "fails-on-third"
    description: ClassVar[str] = "test adapter with a bug"

    @classmethod
    def sniff(cls, source: Source) -> bool:
        return False

    def events(self, source: Source) -> Iterator[Event]:
        for number, record in source.records:
            if number == 3:
                raise TypeError("unhashable type: 'dict'\nin a second line")
            yield UserMessage(turn=number, line=number, text=str(record))


def test_an_adapter_bug_costs_the_rest_of_the_transcript_not_what_was_read(tmp_path: Path) -> None:
    source = Source("t.jsonl", "\n".join(json.dumps({"n": n}) for n in range(1, 6)))
    loaded = Loaded(source, _FailsOnThirdRecord())
    events = list(loaded.events())
    assert [e.line for e in events] == [1, 2]
    [skipped] = loaded.skipped
    assert skipped.line == 2 and skipped.reason.startswith(
        "reading stopped after this point (TypeError: "
    )
    assert "\n" not in skipped.reason


# Found by seeded type mutants of the corpus (one value of one record given the wrong type).
def test_one_damaged_message_of_a_gemini_cli_session_costs_only_itself(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    original = FIXTURES / "gemini_cli" / "session-2026-01-20.json"
    document = json.loads(original.read_text(encoding="utf-8"))
    assert document["messages"][3]["type"] == "info"
    document["messages"][3]["type"] = None  # once made the whole session "not a transcript format"
    damaged = tmp_path / "session.json"
    damaged.write_text(json.dumps(document), encoding="utf-8")
    result = _files(capsys, damaged)
    assert result["files"] == _files(capsys, original)["files"]
    assert result["skipped_lines"] == 1


def test_a_cline_model_id_of_the_wrong_type_costs_only_itself(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    original = FIXTURES / "cline" / "api_conversation_history.json"
    messages = json.loads(original.read_text(encoding="utf-8"))
    first_reply = next(m for m in messages if isinstance(m, dict) and m.get("role") == "assistant")
    first_reply["modelInfo"] = {
        "modelId": 12345
    }  # once stopped reading at the first assistant message
    damaged = tmp_path / "api_conversation_history.json"
    damaged.write_text(json.dumps(messages), encoding="utf-8")
    code, _, err = _run(capsys, "files", str(damaged), "--json")
    assert code == 0 and "reading stopped" not in err
    assert _files(capsys, damaged)["files"] == _files(capsys, original)["files"]


def test_a_record_whose_type_is_not_a_string_trips_no_format_detection(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    original = FIXTURES / "other_agents" / "windsurf.jsonl"
    records = [
        json.loads(line)
        for line in original.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    records[0]["type"] = ["user_input"]  # once an internal error (exit 3) while sniffing formats
    damaged = _write_jsonl(tmp_path / "windsurf.jsonl", [json.dumps(r) for r in records])
    code, out, err = _run(capsys, "files", str(damaged), "--json")
    assert code == 0, err
    assert json.loads(out)["format"] == "windsurf"


class _SniffsWithABug(Adapter):
    name: ClassVar[str] = "sniffs-with-a-bug"
    description: ClassVar[str] = "test adapter whose sniffer raises"
    priority: ClassVar[int] = -1

    def sniff(self, source: Source) -> bool:
        raise TypeError("unhashable type: 'list'")

    def events(self, source: Source) -> Iterator[Event]:
        yield from ()


def test_a_sniffer_that_raises_has_not_recognized_its_format(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from artifact_index.ingestion import adapters

    adapters.known_formats()  # the built-in adapters are registered first
    monkeypatch.setitem(adapters._registry, _SniffsWithABug.name, _SniffsWithABug())
    assert _files(capsys, SESSION)["format"] == "claude-code"


def test_an_opencode_export_whose_session_info_is_damaged_is_still_read(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    original = FIXTURES / "opencode" / "session-export.json"
    document = json.loads(original.read_text(encoding="utf-8"))
    document["info"] = None  # once "not a transcript format": every message lost with it
    damaged = tmp_path / "session-export.json"
    damaged.write_text(json.dumps(document), encoding="utf-8")
    result, whole = _files(capsys, damaged), _files(capsys, original)
    assert result["format"] == "opencode"
    assert result["skipped_lines"] == whole["skipped_lines"] + 1

    def changed(files: list[dict[str, Any]]) -> set[tuple[str, str]]:
        return {(f["path"], f["status"]) for f in files if f["status"] != "read"}

    assert changed(result["files"]) == changed(whole["files"])
