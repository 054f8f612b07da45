"""A transcript is read from its bytes, line by line, with the values the standard library would give."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

from artifact_index.ingestion import source as source_module
from artifact_index.ingestion.loading import open_transcript
from artifact_index.ingestion.source import Records, Skipped, Source, parse_json_line, read_source
from tests.support.paths import FIXTURES

# Lines that orjson and the standard library read differently, or not at all.
LINES = [
    b'{"type": "user", "text": "plain"}',
    b'{"n": NaN, "big": 1e400}',  # the standard library's extensions to JSON
    b'{"cut": "\\ud83d half an emoji"}',  # a lone surrogate escape, as Claude Code writes when it cuts output
    b'{"bad": "\xff\xfe not UTF-8"}',  # a stray byte in a tool output
    b'{"sep": "a\xe2\x80\xa8b\xc2\x85c"}',  # U+2028 and U+0085 are characters inside a record, not line ends
    b'{"a": 1}{"b": 2}',  # two records a lost newline joined
    b'  {"padded": true}\r',
    b"",
    b"not json at all",
    b"[" * 5000 + b"]" * 5000,  # nested too deeply to read
]


def _expected(lines: list[bytes]) -> tuple[list[tuple[int, Any]], list[int]]:
    """What reading the decoded text line by line with the standard library gives."""
    records, bad = [], []
    for number, line in enumerate(
        b"\n".join(lines).decode("utf-8", "replace").split("\n"), start=1
    ):
        values, problem = parse_json_line(line)
        records += [(number, value) for value in values]
        if problem is not None:
            bad.append(number)
    return records, bad


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b and type(a) is type(b))


def test_every_line_reads_as_the_standard_library_reads_it(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"\n".join(LINES))
    source = read_source(path)
    records, bad = _expected(LINES)
    assert _same(list(source.records), records)
    assert [s.line for s in source.bad_lines] == bad == [9, 10]
    # Read again, and by position: the same values.
    assert _same(list(source.records), records)
    assert _same(source.records[2], records[2]) and _same(source.records[-1], records[-1])
    assert _same(source.records[1:3], records[1:3])


@pytest.mark.parametrize("first_look", ["head", "position", "truth", "interleaved"])
def test_records_read_in_any_order_are_the_records_of_the_whole_file(
    tmp_path: Path, first_look: str
) -> None:
    # Lines are indexed only as far as a reader has looked (detection reads a few),
    # so what is read first must not change what is read afterwards.
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"\n".join(LINES))
    source = read_source(path)
    records, bad = _expected(LINES)
    if first_look == "head":
        assert _same(source.records[:3], records[:3])
    elif first_look == "position":
        assert _same(source.records[4], records[4])
    elif first_look == "truth":
        assert source.records
    else:
        outer = iter(source.records)
        assert _same(
            [(next(outer), inner) for inner in list(source.records)[:2]],
            [(records[0], records[0]), (records[1], records[1])],
        )
    assert _same(list(source.records), records)
    assert [s.line for s in source.bad_lines] == bad
    assert len(source.records) == len(records)


def test_a_text_made_source_reads_as_one_read_from_a_file(tmp_path: Path) -> None:
    text = "\n".join(json.dumps({"n": n, "s": "é\u2028"}) for n in range(5)) + "\n{broken"
    path = tmp_path / "t.jsonl"
    path.write_text(text, encoding="utf-8")
    from_file, from_text = read_source(path), Source("t.jsonl", text)
    assert (
        list(from_file.records)
        == list(from_text.records)
        == [(n + 1, {"n": n, "s": "é\u2028"}) for n in range(5)]
    )
    assert from_file.bad_lines == from_text.bad_lines
    assert from_file.text == text


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b'{"messages": [{"role": "user"}]}', {"messages": [{"role": "user"}]}),
        (
            b'\xc2\x85 {"after": "U+0085"}',
            None,
        ),  # not JSON whitespace: the standard library refuses it too
        (b'{"x": NaN}', {"x": math.nan}),
        (b'{"a": 1}\n{"b": 2}\n', None),  # JSON lines, not a document
    ],
)
def test_a_json_document_reads_as_the_standard_library_reads_it(
    tmp_path: Path, content: bytes, expected: Any
) -> None:
    path = tmp_path / "t.json"
    path.write_bytes(content)
    assert _same(read_source(path).document, expected)


def test_an_integer_beyond_64_bits_is_read_as_a_float(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b'{"n": 18446744073709551616}\n{"n": 18446744073709551615}\n')
    assert list(read_source(path).records) == [
        (1, {"n": 1.8446744073709552e19}),
        (2, {"n": 18446744073709551615}),
    ]


# Lines of text and of pretty-printed JSON, as a text transcript (an aider
# history, a git-ai note) holds them: none is a record.
NOT_RECORDS = [
    "# aider chat started at 2024-05-01",
    "- a bullet",
    "1. a numbered step",
    "> quoted",
    '"prompts": {',
    '"text": "a value", "more": 1',
    "[1] and more",
    "true or false",
    "nothing",
    "NaN and more",
    "\ufeffnot json",  # a byte order mark does not make a line a record
    "é",
    "}",
    '{"a": 1} trailing words',
    '{"a": 1}[2]',  # joined, but not two records
]


@pytest.mark.parametrize("line", NOT_RECORDS)
def test_a_line_that_is_no_record_is_refused_for_the_reason_the_standard_library_gives(
    line: str,
) -> None:
    source = Source("t.txt", f'{{"first": 1}}\n{line}\n{{"last": 2}}')
    values, problem = parse_json_line(line)
    assert problem is not None and not values
    assert source.bad_lines == [Skipped(2, problem)]


def test_detection_parses_each_first_record_once_and_hands_it_on_once(tmp_path: Path) -> None:
    # Sniffers only look, so while detecting they share one parse of each first record; the
    # reader after them (the adapter) is handed that value instead of parsing the line again,
    # and a later read parses afresh, so no reader sees what another changed.
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"\n".join(LINES))
    source = read_source(path)
    with source.records.shared_head():
        first = source.records[0][1]
        assert next(iter(source.records))[1] is first and source.records[:1][0][1] is first
    handed = next(iter(source.records))[1]
    assert handed is first
    handed["text"] = "changed by a reader"
    assert source.records[0][1] == {"type": "user", "text": "plain"}


def test_records_joined_on_one_line_are_parsed_once_for_all_of_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Read one by one (as a look-ahead reads), the records of one long line do not parse
    # the line once each: that made 400 KB of joined records take minutes.
    joined = b"".join(b'{"type": "user", "n": %d, "text": "\\ud83d"}' % n for n in range(2000))
    source = Source.from_bytes("t.jsonl", b'{"first": 1}\n' + joined + b"\n")
    parses = []
    original = source_module.parse_json_line

    def counted(raw: str) -> tuple[list[Any], str | None]:
        parses.append(len(raw))
        return original(raw)

    monkeypatch.setattr(source_module, "parse_json_line", counted)
    assert len(source.records) == 2001
    assert [source.records[i][1]["n"] for i in range(1, 2001)] == list(range(2000))
    assert source.records[1][1]["text"] == "\ufffd"
    assert len(parses) <= 3  # indexing the line, reading its records, the last read again


@pytest.mark.parametrize(
    ("line", "too_deep"),
    [
        (b"[" * 600 + b"]" * 600, True),  # deeper than 512, within what orjson reads
        (b'{"a": ' * 513 + b"1" + b"}" * 513, True),
        (b'{"a": ' * 512 + b"1" + b"}" * 512, False),
        (b'{"code": "' + b"[{" * 600 + b'"}', False),  # brackets in a string do not nest
        (b"[" + b"[1]," * 600 + b"[2]]", False),  # many lists side by side
    ],
)
def test_a_record_is_refused_only_when_its_lists_and_objects_nest_too_deep(
    line: bytes, too_deep: bool
) -> None:
    source = Source("t.jsonl", f'{{"first": 1}}\n{line.decode()}\n{{"last": 2}}')
    assert ("nested too deeply" in (parse_json_line(line.decode())[1] or "")) == too_deep
    assert [(s.line, "nested too deeply" in s.reason) for s in source.bad_lines] == (
        [(2, True)] if too_deep else []
    )
    assert len(source.records) == (2 if too_deep else 3)


def _parses_per_line(monkeypatch: pytest.MonkeyPatch) -> dict[int, int]:
    """Count the parses of each line (by where it starts) from now on: indexing, reading, looking ahead."""
    parses: dict[int, int] = {}

    def count(start: int) -> None:
        parses[start] = parses.get(start, 0) + 1

    index_line, parsed, kept = Records._index_line, Records._parsed, Records._values_kept

    def counted_index_line(self: Records) -> list[Any]:
        if self._next_start not in self._ahead:
            count(self._next_start)
        return index_line(self)

    def counted_parsed(self: Records, index: int) -> tuple[int, Any]:
        spare = self._spare
        if spare is None or spare[0] != self._starts[index] or self._picks[index] not in spare[1]:
            count(self._starts[index])
        return parsed(self, index)

    def counted_kept(self: Records, start: int, end: int) -> list[Any]:
        if start not in self._ahead:
            count(start)
        return kept(self, start, end)

    monkeypatch.setattr(Records, "_index_line", counted_index_line)
    monkeypatch.setattr(Records, "_parsed", counted_parsed)
    monkeypatch.setattr(Records, "_values_kept", counted_kept)
    return parses


@pytest.mark.parametrize(
    "fixture",
    [
        *sorted(str(p.relative_to(FIXTURES)) for p in (FIXTURES / "claude_code").glob("*.jsonl")),
        *sorted(str(p.relative_to(FIXTURES)) for p in (FIXTURES / "codex").glob("*.jsonl")),
    ],
)
@pytest.mark.parametrize("copies", [1, 60])
def test_detection_and_the_adapter_parse_each_line_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, fixture: str, copies: int
) -> None:
    # Detection looks at the head only and hands what it parsed on; look-aheads (Claude Code's
    # queued messages and compaction summaries, what a Codex patch changed) keep what they parse.
    # Many copies make a transcript far longer than the head detection reads and than what is
    # kept for a reader, so a pass of its own over every line would show.
    path = tmp_path / Path(fixture).name
    path.write_text(_copies((FIXTURES / fixture).read_text(encoding="utf-8"), copies), "utf-8")
    parses = _parses_per_line(monkeypatch)
    loaded = open_transcript(path)
    events = list(loaded.events())
    assert events
    assert parses and max(parses.values()) == 1, {start: n for start, n in parses.items() if n > 1}


def _copies(text: str, copies: int) -> str:
    """``text`` repeated, its ids made distinct per copy (a call id answers only its own copy)."""
    lines = [line for line in text.split("\n") if line.strip()]
    return "".join(
        "\n".join(
            re.sub(r'"((?:call|toolu|prt|msg|uuid|id)[^"]*)"', rf'"\1-{n}"', line) if n else line
            for line in lines
        )
        + "\n"
        for n in range(copies)
    )
