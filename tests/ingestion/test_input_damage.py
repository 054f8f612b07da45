"""Damaged input: a bad record costs itself and nothing more, and what yields nothing says so.

Each case was found by feeding crafted and mutated transcripts to every
command: records split by Unicode line separators, lone surrogates, deep
nesting, out-of-range timestamps, truncated JSON documents, a forced wrong
format, and lower-layer errors printed over several lines.
"""

from __future__ import annotations

import json
import re
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
from tests.support.paths import FIXTURES

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

    monkeypatch.setattr("artifact_index.trail.build.build_index", broken)
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


# --- encodings and stray bytes -------------------------------------------------------------


def _modified_paths(result: dict[str, Any]) -> list[tuple[str, str]]:
    return [(f["path"], f["status"]) for f in result["files"]]


@pytest.mark.parametrize(
    "encode",
    [
        lambda text: text.encode("utf-16"),  # with its byte order mark, as PowerShell writes
        lambda text: b"\xfe\xff" + text.encode("utf-16-be"),
        lambda text: text.encode("utf-16-le"),  # no mark: told by its zero bytes
        lambda text: (
            b"\xef\xbb\xbf" + text.replace("\n", "\n\ufeff").encode()
        ),  # a mark on every line
        lambda text: b"\x00" + text.encode(),  # one early NUL
        lambda text: text.replace("\n", "\n\x00\x00\x00", 1).encode(),  # a crashed writer's zeros
        lambda text: text.replace("Read", "Re\x00ad", 1).encode(),  # a NUL inside a string
    ],
    ids=[
        "utf-16",
        "utf-16-be",
        "utf-16-le-unmarked",
        "bom-per-line",
        "early-nul",
        "nul-run",
        "nul-in-string",
    ],
)
def test_a_transcript_in_another_encoding_or_with_stray_bytes_reads_as_the_original(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    encode: Any,
) -> None:
    text = SESSION.read_text(encoding="utf-8")
    path = tmp_path / "s.jsonl"
    path.write_bytes(encode(text))
    assert _modified_paths(_files(capsys, path)) == _modified_paths(_files(capsys, SESSION))


# --- damaged JSON documents ------------------------------------------------------------------

EXPORT = FIXTURES / "opencode" / "session-export.json"


def _export_with_file_lists() -> str:
    """The OpenCode fixture with a ``patch`` part (a list of paths, one per line) in every message.

    Pretty-printed, the last path of each list is a line holding a whole JSON
    value, which once made a cut export pass for JSON lines.
    """
    export = json.loads(EXPORT.read_text(encoding="utf-8"))
    for message in export["messages"]:
        if isinstance(message, dict) and isinstance(message.get("parts"), list):
            message["parts"].append(
                {
                    "type": "patch",
                    "hash": "h",
                    "files": ["/home/dev/notes/a.md", "/home/dev/notes/b.md"],
                }
            )
    return json.dumps(export, indent=1)


def _files_of(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[set[str], str]:
    code, out, err = _run(capsys, "files", str(path), "--json")
    assert code == 0, err
    return {f["path"] for f in json.loads(out)["files"]}, err


@pytest.mark.parametrize("fraction", [0.55, 0.65, 0.75, 0.85, 0.95])
def test_a_pretty_printed_export_cut_past_half_keeps_what_came_before(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fraction: float
) -> None:
    text = _export_with_file_lists()
    whole = tmp_path / "whole.json"
    whole.write_text(text, encoding="utf-8")
    everything, _ = _files_of(capsys, whole)
    cut = tmp_path / "cut.json"
    cut.write_text(text[: int(len(text) * fraction)], encoding="utf-8")
    salvaged, err = _files_of(capsys, cut)
    assert salvaged and salvaged <= everything
    assert "the JSON document is damaged here" in err and "what came before was read" in err


def _damaged_at(text: str, mark: str, occurrence: float, replacement: str) -> str:
    """``text`` with the structural ``mark`` (outside strings; a quote that opens one) nearest ``occurrence`` replaced."""
    places = [
        token.start()
        for token in re.finditer(r'"(?:[^"\\]|\\.)*"|[{}\[\],:]', text)
        if token.group()[0] == mark
    ]
    place = places[int(len(places) * occurrence)]
    return text[:place] + replacement + text[place + 1 :]


@pytest.mark.parametrize("mark", ["}", "]", ",", ":", '"', "{"])
@pytest.mark.parametrize("replacement", ["\x01", "x", "\udcff"])
def test_one_bad_byte_in_an_export_costs_at_most_the_element_it_is_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mark: str, replacement: str
) -> None:
    # A structural character replaced half-way through: what follows the damage is read too.
    text = EXPORT.read_text(encoding="utf-8")
    everything, _ = _files_of(capsys, EXPORT)
    for occurrence in (0.5, 0.7):
        damaged = tmp_path / "damaged.json"
        damaged.write_bytes(
            _damaged_at(text, mark, occurrence, replacement).encode("utf-8", "surrogateescape")
        )
        salvaged, err = _files_of(capsys, damaged)
        assert salvaged == everything, err
        assert "the JSON document is damaged here" in err


def test_a_field_nested_over_a_thousand_levels_costs_only_itself(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    export = json.loads(EXPORT.read_text(encoding="utf-8"))
    text = json.dumps(export, indent=1)
    # A deep field in the second message, written as a pretty-printer would.
    deep = "[" * 1100 + "]" * 1100
    text = text.replace('"role": "assistant"', f'"deep": {deep},\n   "role": "assistant"', 1)
    path = tmp_path / "deep.json"
    path.write_text(text, encoding="utf-8")
    salvaged, err = _files_of(capsys, path)
    assert salvaged == _files_of(capsys, EXPORT)[0]
    assert "nested too deeply to read (over 512 levels) was skipped" in err


def test_records_joined_on_one_line_read_as_the_same_records_on_lines_of_their_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = [json.dumps(r) for r in _records(SESSION)]
    joined = _write_jsonl(tmp_path / "joined.jsonl", [records[0], "".join(records[1:] * 30)])
    apart = _write_jsonl(tmp_path / "apart.jsonl", [records[0], *(records[1:] * 30)])
    assert _modified_paths(_files(capsys, joined)) == _modified_paths(_files(capsys, apart))
