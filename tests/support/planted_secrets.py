"""Secrets planted in every place of a session, and every surface a session's text can leave by.

:func:`planted_session` writes one session per format that holds every kind
of fake secret (``tests/fake_secrets.py``) in a few of the places a session
shows text (which ones turns with the format, so the formats together cover
most kinds in most places): the user's message, the assistant's text and thinking, a tool's input
and output, a file written, an edit, a shell command, a failing command's
error, a test run's output, a todo item and a component of a file path.
Each planting draws its own value, so a value found in an output names the
kind and the place that leaked.

:func:`surfaces` runs every surface on a transcript and returns what each
produced: the views and their JSON, the offline summary, the summary
written by an LLM (the requests the fake API received too), the three hook
events and what they stored, ``store`` and the session store's file,
``watch`` (its first pass and an append it follows) and its store, the HTTP API and the MCP server (in process), and for request bodies
``compact`` with its state directory and requests.  ``redact=False`` is
the control run (``--no-redact``, or ``ARTIFACT_INDEX_NO_REDACT=1`` for the
servers), which must find the planted values.
"""

from __future__ import annotations

import asyncio
import io
import json
import random
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fake_secrets import KINDS, FakeSecret

from artifact_index.presentation.cli import main
from artifact_index.redaction import DISABLE_ENVIRONMENT_VARIABLE
from summarizer.sections.templates import load_template
from tests.support.fake_anthropic import FakeAnthropic, tool_reply
from tests.support.fake_openai import FakeOpenAI, function_reply
from tests.support.transcript_writers import ROOT, WRITERS, Step

__all__ = [
    "PLACES",
    "REQUEST_FORMATS",
    "SURFACE_GROUPS",
    "Planting",
    "cells",
    "planted_session",
    "surfaces",
]

PLACES = (
    "user message",
    "assistant text",
    "thinking",
    "tool input",
    "tool output",
    "file written",
    "file edited",
    "shell command",
    "command error",
    "test output",
    "todo item",
    "path component",
)
# Formats that are request bodies: `compact` takes them.
REQUEST_FORMATS = ("anthropic-messages", "openai-chat")
# The surfaces in groups of about the same cost, which a quick run can take one at a time.
SURFACE_GROUPS = ("views", "LLM summaries", "hooks, store and watch", "servers and compact")


@dataclass(frozen=True)
class Planting:
    kind: str
    place: str
    secret: FakeSecret


def _steps(place: str, secret: FakeSecret, number: int) -> list[Step] | None:
    text = secret.context
    one_line = " ".join(text.split())
    if place == "user message":
        return [Step("user", text=f"Please wire this into the deploy:\n{text}")]
    if place == "assistant text":
        return [Step("assistant", text=f"I found this in the old setup:\n{text}\nI'll move it.")]
    if place == "thinking":
        return [Step("thinking", text=f"The config holds {one_line}; it must not be committed.")]
    if place == "tool input":
        return [Step("search", text=one_line)]
    if place == "tool output":
        return [Step("read", path=f"{ROOT}/config/settings{number}.conf", content=text)]
    if place == "file written":
        return [Step("write", path=f"{ROOT}/deploy/env{number}.sh", content=text)]
    if place == "file edited":
        path = f"{ROOT}/deploy/edited{number}.conf"
        return [
            Step("write", path=path, content=f"# placeholder {number}\n"),
            Step("edit", path=path, old=f"# placeholder {number}", new=text),
        ]
    if place == "shell command":
        return [Step("shell", command=text, output="done")]
    if place == "command error":
        return [
            Step(
                "shell",
                command=f"./scripts/release.sh {number}",
                output=f"error: release failed with\n{text}\nexit status 1",
                exit_code=1,
            )
        ]
    if place == "test output":
        return [
            Step(
                "shell",
                command=f"pytest -q tests/test_settings{number}.py",
                output=(
                    f"F\n=== FAILURES ===\n___ test_settings{number} ___\n"
                    f"E   AssertionError: {text}\n"
                    f"FAILED tests/test_settings{number}.py::test_settings{number}\n1 failed in 0.1s"
                ),
                exit_code=1,
            )
        ]
    if place == "todo item":
        return [Step("todo", items=(f"Rotate the credential in: {one_line}", "Run the tests"))]
    if place == "path component":
        # A path's name is a secret only when its shape says so: an upload's random id is a name.
        if not (secret.path_safe and secret.by_shape):
            return None
        return [Step("write", path=f"{ROOT}/uploads/{secret.value}/photo.jpg", content="JFIF")]
    raise ValueError(place)


# Each kind goes to this many of the places (every place holds about a fifth of the kinds), and
# a format's turn shifts which: the formats together put each kind in most places, while one
# session stays small enough for every surface to read it twice in a few seconds.
PLACES_PER_KIND = 3
_TEXT_PLACES = tuple(place for place in PLACES if place != "path component")


def _places_of(kind_number: int, shift: int, count: int = PLACES_PER_KIND) -> list[str]:
    """The places of the ``kind_number``-th kind in the format whose turn is ``shift``.

    (A step of 4 through the 11 text places, coprime to it: the places drawn are distinct.)
    """
    start = kind_number + 3 * shift
    chosen = [_TEXT_PLACES[(start + 4 * j) % len(_TEXT_PLACES)] for j in range(count)]
    return [*chosen, "path component"]


def planted_session(
    format_name: str, folder: Path, seed: int = 23, places_per_kind: int = PLACES_PER_KIND
) -> tuple[Path, list[Planting]]:
    """A transcript of ``format_name`` holding every kind in some places, and what was planted where."""
    rng = random.Random(f"{format_name}/{seed}")
    steps = [Step("user", text="Set up the deploy of the shop.")]
    plantings: list[Planting] = []
    number = 0
    shift = sorted(WRITERS).index(format_name) if format_name in WRITERS else 0
    for at, kind in enumerate(KINDS):
        for place in _places_of(at, shift, places_per_kind):
            secret = kind.secret(rng)
            planted = _steps(place, secret, number)
            if planted is None:
                continue
            number += 1
            steps += planted
            plantings.append(Planting(kind.name, place, secret))
    steps.append(Step("assistant", text="The deploy is set up; the tests still fail."))
    name, write = WRITERS[format_name]
    path = folder / name
    path.write_text(write(steps), encoding="utf-8")
    return path, plantings


def cells(plantings: list[Planting], text: str) -> set[tuple[str, str]]:
    """The (kind, place) of every planting ``text`` betrays."""
    return {
        (planting.kind, planting.place)
        for planting in plantings
        if any(needle in text for needle in planting.secret.needles)
    }


# -- surfaces ------------------------------------------------------------------------------------


def _run(capsys: pytest.CaptureFixture[str], redact: bool, *args: str) -> str:
    main([*(() if redact else ("--no-redact",)), *args])
    captured = capsys.readouterr()
    return captured.out + captured.err


def _files_in(folder: Path) -> str:
    return "".join(
        path.read_text(encoding="utf-8", errors="replace")
        for path in sorted(folder.rglob("*"))
        if path.is_file() and not path.name.endswith((".db", ".db-wal", ".db-shm"))
    )


def _database(path: Path) -> str:
    """Every row of every table of a SQLite file, as text."""
    if not path.exists():
        return ""
    rows: list[str] = []
    # closing(): a connection's own context manager ends the transaction, not the connection
    # (Python 3.13 warns about every connection left open).
    with closing(sqlite3.connect(path)) as db:
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for table in tables:
            rows += [repr(row) for row in db.execute(f"SELECT * FROM {table}")]
    return "\n".join(rows)


def _narrative_replies(count: int) -> list[dict[str, Any]]:
    template = load_template("default")
    empty = {s.key: {"items": [], "superseded": []} for s in template.narrative_sections}
    return [tool_reply(empty) for _ in range(count)]


@contextmanager
def _redaction(monkeypatch: pytest.MonkeyPatch, redact: bool) -> Iterator[None]:
    """For the servers in process, which take no --no-redact: the environment variable."""
    with monkeypatch.context() as patch:
        if not redact:
            patch.setenv(DISABLE_ENVIRONMENT_VARIABLE, "1")
        yield


def surfaces(
    format_name: str,
    transcript: Path,
    work: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    *,
    redact: bool,
    groups: tuple[str, ...] = SURFACE_GROUPS,
) -> dict[str, str]:
    """What every surface of ``groups`` produced for ``transcript`` (each keyed by the surface's name)."""
    work.mkdir(parents=True, exist_ok=True)
    out: dict[str, str] = {}
    source = [str(transcript), "--format", format_name]
    if "views" in groups:
        _views(out, capsys, redact, source)
    if "LLM summaries" in groups:
        _llm_summaries(out, capsys, monkeypatch, redact, source)
    store = work / "sessions.db"
    if "hooks, store and watch" in groups:
        _hooks(out, capsys, monkeypatch, redact, transcript, work)
        _store(out, capsys, redact, source, store)
        out["watch"] = _watch(capsys, monkeypatch, redact, transcript, format_name, work / "watch")
    if "servers and compact" in groups:
        if not store.exists():
            _run(capsys, redact, "store", *source, "--store", str(store))
        rows = json.loads(_run(capsys, False, "sessions", "--store", str(store), "--json"))
        session_id = rows["sessions"][0]["id"]
        paths = _paths(capsys, source)
        with _redaction(monkeypatch, redact):
            out["HTTP API"] = _http(store, work / "http-state", session_id, paths)
            out["MCP server"] = _mcp(store, session_id, paths)
        if format_name in REQUEST_FORMATS:
            _compact(out, capsys, monkeypatch, redact, format_name, transcript, work)
    return out


def _paths(capsys: pytest.CaptureFixture[str], source: list[str]) -> list[str]:
    files = json.loads(_run(capsys, False, "files", *source, "--json"))["files"]
    return [entry["path"] for entry in files][:20]


def _views(
    out: dict[str, str], capsys: pytest.CaptureFixture[str], redact: bool, source: list[str]
) -> None:
    out["show"] = _run(capsys, redact, "show", *source) + _run(
        capsys, redact, "show", *source, "--json"
    )
    out["views (files, symbols, errors, decisions, tasks)"] = _run(
        capsys, redact, "files", *source
    ) + "".join(
        _run(capsys, redact, view, *source, "--json")
        for view in ("files", "symbols", "errors", "decisions", "tasks")
    )
    out["summary --no-llm"] = _run(capsys, redact, "summary", *source, "--no-llm")


def _llm_summaries(
    out: dict[str, str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    redact: bool,
    source: list[str],
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-local")
    with FakeAnthropic(replies=_narrative_replies(60)) as api:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", api.url)
        out["summary --llm"] = _run(
            capsys, redact, "summary", *source, "--llm", "--model", "claude-test"
        )
        out["summary --llm: requests to the API"] = json.dumps([r.body for r in api.requests])
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    monkeypatch.delenv("ANTHROPIC_BASE_URL")
    empty = {
        s.key: {"items": [], "superseded": []} for s in load_template("default").narrative_sections
    }
    with FakeOpenAI(replies=[function_reply(empty) for _ in range(60)]) as server:
        out["summary --provider openai"] = _run(
            capsys,
            redact,
            "summary",
            *source,
            "--provider",
            "openai",
            "--base-url",
            server.base_url,
            "--model",
            "local-test",
        )
        out["summary --provider openai: requests to the API"] = json.dumps(
            [r.body for r in server.requests]
        )


def _hooks(
    out: dict[str, str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    redact: bool,
    transcript: Path,
    work: Path,
) -> None:
    """What the hooks print, and what PreCompact and PostCompact keep in the session store."""
    hook_store = work / "hooks.db"
    monkeypatch.setenv("ARTIFACT_INDEX_STORE", str(hook_store))
    for event, extra in (
        ("SessionStart", {"source": "compact"}),
        ("PreCompact", {"trigger": "auto"}),
        ("PostCompact", {"trigger": "auto", "compact_summary": "Set up the deploy; tests fail."}),
    ):
        hook_input = {"transcript_path": str(transcript), "hook_event_name": event, **extra}
        monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(hook_input)))
        out[f"hook {event}"] = _run(capsys, redact, "hook")
    out["hooks: session store"] = _database(hook_store)


def _store(
    out: dict[str, str],
    capsys: pytest.CaptureFixture[str],
    redact: bool,
    source: list[str],
    store: Path,
) -> None:
    out["store"] = (
        _run(capsys, redact, "store", *source, "--store", str(store), "--json")
        + _run(capsys, redact, "sessions", "--store", str(store), "--json")
        + _database(store)
    )
    out["store"] += "".join(
        _run(capsys, redact, "where", path, "--store", str(store), "--json")
        for path in _paths(capsys, source)[:5]
    )


def _compact(
    out: dict[str, str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    redact: bool,
    format_name: str,
    transcript: Path,
    work: Path,
) -> None:
    """``compact`` on a request body, offline and through the fake API, and its state directory."""
    body = _request_body(format_name, transcript, work)
    state = work / "compact-state"
    out["compact"] = _run(
        capsys, redact, "compact", str(body), "--force", "--no-llm", "--state-dir", str(state)
    )
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-local")
    with FakeAnthropic(replies=_narrative_replies(40), token_counts=[50_000] * 40) as api:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", api.url)
        llm_state = work / "compact-llm-state"
        out["compact"] += _run(
            capsys,
            redact,
            "compact",
            str(body),
            "--force",
            "--llm",
            "--exact-tokens",
            "--state-dir",
            str(llm_state),
        )
        out["compact: requests to the API"] = json.dumps([r.body for r in api.requests])
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    monkeypatch.delenv("ANTHROPIC_BASE_URL")
    out["compact: state directory"] = _files_in(state) + _files_in(llm_state)


def _json_lines(data: bytes) -> bool:
    lines = [line for line in data.splitlines() if line.strip()]
    try:
        return len(lines) > 1 and all(isinstance(json.loads(line), dict) for line in lines)
    except json.JSONDecodeError:
        return False


def _watch(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    redact: bool,
    transcript: Path,
    format_name: str,
    folder: Path,
) -> str:
    """``watch``: its first pass on half the session, then the rest as the agent appends it.

    The file system's change events are stood in for by one call of what
    the watcher does on a change (so no test waits for them): the appended
    half is read as a followed transcript reads it, record by record.
    """
    from artifact_index.live.watch import Update, Watcher

    folder.mkdir(parents=True, exist_ok=True)
    followed = folder / transcript.name
    data = transcript.read_bytes()
    if _json_lines(data):
        lines = data.splitlines(keepends=True)
        start, rest = b"".join(lines[: len(lines) // 2]), b"".join(lines[len(lines) // 2 :])
    else:  # one JSON document: written whole, then rewritten (read whole again)
        start, rest = data, b"\n"
    followed.write_bytes(start)

    def follow(watcher: Watcher, stop: Any = None, *, debounce_ms: int = 200) -> Iterator[Update]:
        with followed.open("ab") as out:
            out.write(rest)
        update = watcher.changed(str(followed))
        followed_updates.append(update)
        if update is not None and update.kind != "unchanged":
            yield update
        raise KeyboardInterrupt  # how a watch ends

    followed_updates: list[Update | None] = []
    store = folder / "watch.db"
    with monkeypatch.context() as patch:
        patch.setattr(Watcher, "follow", follow)
        said = _run(
            capsys,
            redact,
            "watch",
            str(followed),
            "--format",
            format_name,
            "--store",
            str(store),
            "--json",
        )
    # The append was followed (else this surface would be the first pass alone).
    assert [u.kind if u else None for u in followed_updates] in (["stored"], ["unchanged"]), said
    return said + _database(store)


def _request_body(format_name: str, transcript: Path, work: Path) -> Path:
    """The request body `compact` takes: the transcript itself, or an OpenAI chat's messages in one."""
    if format_name == "anthropic-messages":
        return transcript
    lines = transcript.read_text(encoding="utf-8").splitlines()
    body = work / "request.json"
    body.write_text(
        json.dumps({"model": "gpt-test", "messages": [json.loads(line) for line in lines if line]}),
        encoding="utf-8",
    )
    return body


def _http(store: Path, state: Path, session_id: str, paths: list[str]) -> str:
    from starlette.testclient import TestClient

    from summarizer.integrations.access import SessionAccess
    from summarizer.integrations.http_api import Compaction, build_app

    app = build_app(
        SessionAccess(store), Compaction(state_root=state, use_llm=False), allowed_hosts=None
    )
    answers: list[str] = []
    with TestClient(app) as client:
        routes = [
            "/api/sessions",
            f"/api/sessions/{session_id}",
            f"/api/sessions/{session_id}/files",
            *(
                f"/api/sessions/{session_id}/{name}"
                for name in ("errors", "symbols", "decisions", "tasks")
            ),
            f"/api/sessions/{session_id}/summary",
        ]
        for route in routes:
            answers.append(client.get(route).text)
        for path in paths[:5]:
            answers.append(client.get("/api/where", params={"path": path}).text)
            answers.append(
                client.get(f"/api/sessions/{session_id}/history", params={"path": path}).text
            )
    return "\n".join(answers)


def _mcp(store: Path, session_id: str, paths: list[str]) -> str:
    import mcp

    from summarizer.integrations.access import SessionAccess
    from summarizer.integrations.mcp_server import build_server

    answers: list[str] = []

    async def work() -> None:
        async with mcp.Client(build_server(SessionAccess(store))) as client:
            # (The summary tool answers what the HTTP route does, from the same call: asked there.)
            calls: list[tuple[str, dict[str, Any]]] = [
                (name, {"session": session_id})
                for name in ("files", "errors", "symbols", "decisions", "tasks")
            ]
            calls += [("sessions", {}), *(("where", {"path": path}) for path in paths[:5])]
            calls += [("history", {"session": session_id, "path": path}) for path in paths[:5]]
            for name, arguments in calls:
                result = await client.call_tool(name, arguments)
                answers.append(
                    json.dumps(result.structured_content) if result.structured_content else ""
                )
                answers.extend(getattr(block, "text", "") for block in result.content)

    asyncio.run(work())
    return "\n".join(answers)
