"""The Claude Code hooks: after a compaction the agent gets the exact file trail back, and a hook never blocks it."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from artifact_index.presentation.cli import main
from summarizer.integrations.compactions import ReadTranscript
from summarizer.integrations.hooks import ECHOED_PRE_COMPACT_LIMIT, HOOK_OUTPUT_LIMIT, run_hook
from tests.support.paths import CORPUS, FIXTURES

SESSION = FIXTURES / "cli" / "session.jsonl"


def _run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], payload: str, *args: str
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(payload))
    code = main(["hook", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_session_start_after_compact_returns_the_file_trail_as_additional_context(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    payload = json.dumps(
        {
            "hook_event_name": "SessionStart",
            "source": "compact",
            "session_id": "s-1",
            "transcript_path": str(SESSION),
            "cwd": "/work/demo",
        }
    )
    code, out, _ = _run(monkeypatch, capsys, payload)
    assert code == 0
    answer = json.loads(out)["hookSpecificOutput"]
    assert answer["hookEventName"] == "SessionStart"
    assert "## Files modified\n- `app.py`" in answer["additionalContext"]
    assert (
        "test_app.py" not in answer["additionalContext"]
    )  # its Write failed: never claimed as changed


def test_pre_compact_asks_to_keep_the_paths(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(
        monkeypatch, capsys, json.dumps({"transcript_path": str(SESSION)}), "--event", "PreCompact"
    )
    assert code == 0 and out.startswith("Keep every file path below") and "`app.py`" in out


@pytest.mark.parametrize(
    ("payload", "args", "message"),
    [
        ("not json", (), "not JSON"),
        ("[1, 2]", (), "not a JSON object"),
        ("{}", (), "no transcript_path"),
        (json.dumps({"transcript_path": "/no/such.jsonl"}), (), "no such file"),
        (json.dumps({"transcript_path": str(SESSION)}), ("--event", "Stop"), "not supported"),
        (
            json.dumps({"transcript_path": str(SESSION), "hook_event_name": "PostToolUse"}),
            (),
            "not supported",
        ),
    ],
)
def test_a_failing_hook_never_blocks_the_agent_it_exits_0_with_one_line(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    payload: str,
    args: tuple[str, ...],
    message: str,
) -> None:
    code, out, err = _run(monkeypatch, capsys, payload, *args)
    assert code == 0 and out == "" and message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "content", [b"\x00\x01\x02binary", b"just some prose, no transcript\n", b"\x1f\x8bnot gzip"]
)
def test_an_unreadable_transcript_fails_open(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    content: bytes,
) -> None:
    transcript = tmp_path / "t.jsonl"
    transcript.write_bytes(content)
    code, out, err = _run(monkeypatch, capsys, json.dumps({"transcript_path": str(transcript)}))
    assert code == 0 and out == "" and len(err.strip().splitlines()) == 1


def test_an_internal_failure_fails_open_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*_: object, **__: object) -> None:
        raise RecursionError("maximum recursion depth exceeded\nwhile parsing")

    monkeypatch.setattr("summarizer.integrations.hooks.session_facts", broken)
    code, out, err = _run(monkeypatch, capsys, json.dumps({"transcript_path": str(SESSION)}))
    assert code == 0 and out == ""
    assert (
        err.count("\n") == 1
        and "RecursionError: maximum recursion depth exceeded while parsing" in err
    )


def _big_session(path: Path, created: int, read: int, module: str = "generated_module") -> Path:
    records = [
        {
            "type": "user",
            "uuid": "u0",
            "sessionId": "s",
            "cwd": "/w",
            "message": {"role": "user", "content": "build it"},
        }
    ]
    for n in range(created + read):
        tool, arguments = (
            ("Write", {"file_path": f"/w/src/pkg{n % 7}/{module}_{n:04d}.py", "content": "x = 1\n"})
            if n < created
            else ("Read", {"file_path": f"/w/docs/section_{n:04d}/notes.md"})
        )
        output = "File created successfully" if tool == "Write" else "     1→notes\n"
        records += [
            {
                "type": "assistant",
                "uuid": f"a{n}",
                "sessionId": "s",
                "cwd": "/w",
                "message": {
                    "role": "assistant",
                    "content": [
                        {"type": "tool_use", "id": f"t{n}", "name": tool, "input": arguments}
                    ],
                },
            },
            {
                "type": "user",
                "uuid": f"r{n}",
                "sessionId": "s",
                "cwd": "/w",
                "message": {
                    "role": "user",
                    "content": [{"type": "tool_result", "tool_use_id": f"t{n}", "content": output}],
                },
            },
        ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.mark.parametrize("event", ["SessionStart", "PreCompact"])
def test_a_large_trail_stays_under_the_hosts_cap_changed_files_first_and_says_what_it_left_out(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    event: str,
) -> None:
    session = _big_session(tmp_path / "big.jsonl", created=150, read=400)
    code, out, err = _run(
        monkeypatch, capsys, json.dumps({"transcript_path": str(session)}), "--event", event
    )
    assert code == 0 and err == ""
    assert len(out) <= HOOK_OUTPUT_LIMIT
    text = (
        json.loads(out)["hookSpecificOutput"]["additionalContext"]
        if event == "SessionStart"
        else out
    )
    assert all(
        f"generated_module_{n:04d}.py" in text for n in range(150)
    )  # every created file made it
    # The 400 read files are condensed: the latest few by path, the rest counted by folder.
    counted = re.search(r"- and (\d+) more read, in `docs/` \((\d+)\)", text)
    assert counted is not None and counted[1] == counted[2] and int(counted[1]) >= 370
    named = re.findall(r"^- `docs/section_\d+/notes\.md`$", text, flags=re.MULTILINE)
    assert len(named) + int(counted[1]) == 400 and "`docs/section_0549/notes.md`" in text


@pytest.mark.parametrize("event", ["SessionStart", "PreCompact"])
def test_the_cap_counts_bytes_so_a_trail_of_non_ascii_paths_stays_under_it_too(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    event: str,
) -> None:
    # Codex 0.169 estimates tokens from the length and cut the middle out of a 10,015-character context;
    # three bytes a character must not let the trail outgrow the cap it was measured against.
    session = _big_session(
        tmp_path / "wide.jsonl", created=150, read=0, module="生成された模块生成された模块"
    )
    code, out, err = _run(
        monkeypatch, capsys, json.dumps({"transcript_path": str(session)}), "--event", event
    )
    assert code == 0 and err == ""
    assert HOOK_OUTPUT_LIMIT * 0.8 < len(out.encode("utf-8")) <= HOOK_OUTPUT_LIMIT
    assert "Left out to stay under" in out


def test_a_trail_that_fits_is_given_whole_without_a_note(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    session = _big_session(tmp_path / "small.jsonl", created=3, read=3)
    _, out, _ = _run(
        monkeypatch, capsys, json.dumps({"transcript_path": str(session)}), "--event", "PreCompact"
    )
    assert (
        "Left out" not in out and out.count("generated_module_") == 3 and out.count("notes.md") == 3
    )


def _pre_compact(trigger: str, session: Path) -> str:
    return json.dumps(
        {"hook_event_name": "PreCompact", "trigger": trigger, "transcript_path": str(session)}
    )


def test_a_manual_compact_gets_the_changed_paths_alone_since_claude_code_echoes_them_into_the_conversation(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    # After a manual /compact, Claude Code shows PreCompact's output as command output in the new context, where
    # the SessionStart hook puts the whole trail too: the echo must not carry it a second time.
    session = _big_session(tmp_path / "small.jsonl", created=3, read=3)
    code, out, err = _run(monkeypatch, capsys, _pre_compact("manual", session))
    assert code == 0 and err == ""
    assert out.startswith("Keep every file path below in the summary")
    assert out.count("generated_module_") == 3 and "notes.md" not in out and "## " not in out


def test_a_manual_compact_of_a_long_session_names_what_fits_and_counts_the_rest(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    session = _big_session(tmp_path / "big.jsonl", created=150, read=10)
    _, out, _ = _run(monkeypatch, capsys, _pre_compact("manual", session))
    assert len(out.encode("utf-8")) <= ECHOED_PRE_COMPACT_LIMIT + 1
    shown = out.count("generated_module_")
    assert 0 < shown < 150 and f"(and {150 - shown} more: `artifact-index files`)" in out


def test_an_automatic_compaction_is_not_echoed_so_pre_compact_gives_the_whole_trail(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    session = _big_session(tmp_path / "small.jsonl", created=3, read=3)
    _, out, _ = _run(monkeypatch, capsys, _pre_compact("auto", session))
    assert "## Files created" in out and out.count("notes.md") == 3


def _claude_code_transcripts() -> list[Path]:
    folder = CORPUS / "claude_code"
    return sorted(folder.glob("*.gz")) if folder.is_dir() else []


@pytest.mark.parametrize("transcript", _claude_code_transcripts(), ids=lambda p: p.name[:50])
def test_every_claude_code_transcript_of_the_corpus_gets_a_hook_answer_within_the_cap(
    corpus_dir: Path,
    transcript: Path,
) -> None:
    for event in ("SessionStart", "PreCompact"):
        run = run_hook(json.dumps({"transcript_path": str(transcript), "hook_event_name": event}))
        assert run.exit_code == 0 and run.note is None, run.note
        assert 0 < len(run.output) <= HOOK_OUTPUT_LIMIT


def _every_detail_rendered(facts: object, limit: int, transcript: str) -> str:
    """The trail as rendering every section at every detail gives it (what the hook must equal)."""
    from summarizer.integrations import hooks
    from summarizer.sections.index_sections import MAX_DETAIL, render_index_section

    rendered: list[tuple[str, str, str, str]] = []
    for detail in range(1, MAX_DETAIL + 1):
        rendered = [
            (title, body, noun, command)
            for title, key, noun, command in hooks._SECTIONS
            if not (body := render_index_section(key, facts, detail)).startswith(hooks._EMPTY)  # type: ignore[arg-type]
        ]
        whole = "\n\n".join([hooks._TITLE, *(f"## {t}\n{b}" for t, b, _, _ in rendered)]) + "\n"
        if len(whole) <= limit:
            return whole
    return hooks._fill_by_priority(rendered, limit, transcript)


def test_a_detail_that_cannot_fit_is_left_early_with_the_same_trail_at_every_limit(
    tmp_path: Path,
) -> None:
    # The hook stops rendering a detail once what it rendered is over the limit; the trail it
    # gives must be the one rendering everything gives, on each side of each detail's length.
    from artifact_index.trail.build import build_index
    from summarizer.integrations.hooks import file_trail_context
    from summarizer.sections.session_facts import session_facts

    session = _big_session(tmp_path / "mixed.jsonl", created=40, read=30)
    facts = session_facts(build_index(str(session))[0])
    lengths = {len(_every_detail_rendered(facts, 10**9, "t"))}
    for limit in (200, 1_000, 2_500, 4_000):
        lengths.add(len(_every_detail_rendered(facts, limit, "t")))
    limits = sorted({n + d for n in lengths for d in (-1, 0, 1)} | {300, 1_500, 3_000, 6_000})
    for limit in limits:
        assert file_trail_context(facts, limit, "t") == _every_detail_rendered(facts, limit, "t")


def test_the_left_out_count_of_errors_counts_lines_not_open_errors() -> None:
    """An Errors line cut may be a finding there before the session: the count says lines, not open errors."""
    from summarizer.integrations.hooks import _SECTIONS, _fill_by_priority

    [noun] = [noun for title, _, noun, _ in _SECTIONS if title == "Errors"]
    errors = "\n".join(
        [
            "- [OPEN] pytest: `FAILED tests/test_a.py::test_a`",
            "Reported, but there before the session:",
        ]
        + [f"- linter in `src/m{n}.py:1`: `unused import`" for n in range(40)]
    )
    text = _fill_by_priority([("Errors", errors, noun, "errors")], 900, None)
    counted = re.search(r"Left out to stay under 900 characters: (\d+) error lines", text)
    assert counted is not None and "open errors" not in text


_SESSIONS = [
    SESSION,
    *sorted((FIXTURES / "claude_code").glob("*.jsonl")),
    *sorted((FIXTURES / "codex").glob("*.jsonl")),
]


@pytest.mark.parametrize("session", _SESSIONS, ids=lambda p: p.name)
def test_no_section_is_shorter_than_the_hook_reckons_before_rendering_it(session: Path) -> None:
    # A detail the hook knows cannot fit is not rendered: the length it reckons must never
    # exceed what the section says.
    from artifact_index.trail.build import build_index
    from summarizer.integrations.hooks import _SECTIONS, least_length
    from summarizer.sections.index_sections import MAX_DETAIL, render_index_section
    from summarizer.sections.session_facts import session_facts

    facts = session_facts(build_index(session)[0])
    for _, key, _, _ in _SECTIONS:
        for detail in range(MAX_DETAIL + 1):
            assert least_length(key, facts) <= len(render_index_section(key, facts, detail))


def test_what_the_hook_read_is_handed_to_keep_alive_and_the_answer_is_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A hook's own process ends with its answer without freeing the session's index: the index
    # must reach the list it keeps, and keeping it must change nothing of the answer.
    monkeypatch.setenv("ARTIFACT_INDEX_STATE_HOME", str(tmp_path / "state"))
    payload = json.dumps({"hook_event_name": "SessionStart", "transcript_path": str(SESSION)})
    kept: list[object] = []
    with_kept = run_hook(payload, keep_alive=kept)
    assert len(kept) == 1 and isinstance(kept[0], ReadTranscript)
    assert ("app.py", "modified") in kept[0].index.changed_paths()
    assert run_hook(payload) == with_kept
