"""The HTTP API as a client meets it: a real HTTP client against `artifact-index serve` on loopback."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from artifact_index.presentation.cli import main

httpx = pytest.importorskip("httpx", reason="the HTTP test client comes with the [test] extra")
pytest.importorskip("uvicorn", reason="the HTTP API is the optional [http] extra")

from tests.support.fake_anthropic import FakeAnthropic  # noqa: E402
from tests.support.paths import ROOT  # noqa: E402

EXAMPLES = ROOT / "examples"
EXAMPLE = json.loads((EXAMPLES / "anthropic-messages.json").read_text())


def _long_outputs(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The example's tool results, each as long as a real file read: so compaction has something to release."""
    padding = "".join(f"    line {n}: value = compute({n})\n" for n in range(300))
    return [
        {
            **m,
            "content": [
                {**b, "content": str(b.get("content")) + "\n" + padding}
                if isinstance(b, dict) and b.get("type") == "tool_result"
                else b
                for b in m["content"]
            ],
        }
        if isinstance(m["content"], list)
        else m
        for m in messages
    ]


REQUEST = {**EXAMPLE, "messages": _long_outputs(EXAMPLE["messages"])}


class Server:
    def __init__(self, url: str, process: subprocess.Popen[str], errors: list[str]) -> None:
        self.url, self.process, self.errors = url, process, errors

    def get(self, path: str, **kwargs: Any) -> Any:
        return httpx.get(self.url + path, timeout=60, **kwargs)

    def post(self, path: str, **kwargs: Any) -> Any:
        return httpx.post(self.url + path, timeout=120, **kwargs)


def _serve(folder: Path, *args: str, env: dict[str, str] | None = None) -> Iterator[Server]:
    store = folder / "sessions.db"
    assert main(["store", str(EXAMPLES), "--store", str(store), "--jobs", "1"]) == 0
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "artifact_index",
            "serve",
            "--port",
            "0",
            "--store",
            str(store),
            "--state-dir",
            str(folder / "state"),
            *(() if "--llm" in args else ("--no-llm",)),
            *args,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    errors: list[str] = []
    threading.Thread(target=lambda: errors.extend(process.stderr or []), daemon=True).start()
    deadline = time.monotonic() + 60
    url = None
    try:
        while url is None and time.monotonic() < deadline and process.poll() is None:
            found = [re.search(r"serving on (http://\S+)/api", line) for line in errors]
            url = next((m[1] for m in found if m), None)
            time.sleep(0.05)
        assert url is not None, errors
        yield Server(url, process, errors)
    finally:
        process.terminate()
        process.wait(timeout=30)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()


TEMPLATE = """\
name = "handover"

[[sections]]
title = "Files touched"
fill = "index"
key = "files_changed"
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("serve")
    (folder / "templates").mkdir()
    (folder / "templates" / "handover.toml").write_text(TEMPLATE, encoding="utf-8")
    yield from _serve(folder, "--template-dir", str(folder / "templates"))


TOKEN = "s3cret-token-of-this-test-0123456789"


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("guarded")
    (folder / "token").write_text(TOKEN + "\n")
    yield from _serve(folder, "--token-file", str(folder / "token"))


def cli_json(*args: str) -> Any:
    done = subprocess.run(
        [sys.executable, "-m", "artifact_index", *args, "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def stored_id(server: Server, fmt: str) -> str:
    sessions = server.get("/api/sessions").json()["sessions"]
    return str(next(s["id"] for s in sessions if s["format"] == fmt))


def test_the_compact_route_compacts_now_and_resumes_from_its_log(server: Server) -> None:
    first = server.post("/api/sessions/agent-1/compact", json=REQUEST)
    assert first.status_code == 200, first.text
    result = first.json()
    assert result["didCompress"] is True and result["released"] > 0 and result["promptEstimate"] > 0
    assert "app/health.py" in json.dumps(result["messages"])
    # The client carries on with the compacted history; the next compaction of this session is incremental.
    more = [
        *result["messages"],
        {"role": "assistant", "content": "Next I add logging."},
        {"role": "user", "content": "Go on, then summarize."},
    ]
    second = server.post("/api/sessions/agent-1/compact", json={**REQUEST, "messages": more})
    assert second.status_code == 200, second.text
    assert "app/health.py" in json.dumps(second.json()["messages"])
    # Thresholds instead of the manual trigger: a small request is left as it is.
    relaxed = server.post("/api/sessions/agent-2/compact", json={**EXAMPLE, "force": False})
    assert (
        relaxed.json()["didCompress"] is False and relaxed.json()["messages"] == EXAMPLE["messages"]
    )


def test_read_routes_give_the_trail_of_a_stored_session(server: Server) -> None:
    session = stored_id(server, "claude-code")
    transcript = str(EXAMPLES / "claude-code-session.jsonl")
    assert server.get(f"/api/sessions/{session}/files").json() == cli_json("files", transcript)
    assert server.get(f"/api/sessions/{session}/errors").json() == cli_json("errors", transcript)
    assert server.get(
        f"/api/sessions/{session}/history", params={"path": "src/auth.py"}
    ).json() == cli_json("history", transcript, "src/auth.py")
    assert server.get(f"/api/sessions/{session}").json() == cli_json("show", transcript)
    changed = server.get(f"/api/sessions/{session}/files", params={"changed": "1"}).json()["files"]
    assert sorted(f["path"] for f in changed) == ["src/auth.py", "tests/test_auth.py"]
    summary = server.get(f"/api/sessions/{session}/summary")
    assert (
        summary.headers["content-type"].startswith("text/markdown")
        and "src/auth.py" in summary.text
    )
    where = server.get("/api/where", params={"path": "src/auth.py"}).json()["sessions"]
    assert [(s["id"], s["file"]["status"]) for s in where] == [(session, "modified")]
    assert server.get("/api/health").json()["ok"] is True


def test_the_routes_take_the_command_lines_options(server: Server) -> None:
    session = stored_id(server, "claude-code")
    transcript = str(EXAMPLES / "claude-code-session.jsonl")
    for route, query, command in [
        ("files", {"changed": "1"}, ["files", transcript, "--changed"]),
        ("files", {"workspace_only": "1"}, ["files", transcript, "--workspace-only"]),
        ("symbols", {"changed": "1"}, ["symbols", transcript, "--changed"]),
    ]:
        answer = server.get(f"/api/sessions/{session}/{route}", params=query).json()
        assert answer == cli_json(*command), (route, query)
    by_name = server.get(f"/api/sessions/{session}/history", params={"path": "auth.py"}).json()
    assert by_name["path"] == "src/auth.py" and by_name["ops"]


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "says"),
    [
        ("post", "/api/sessions/a/compact", b"{not json", 400, "not JSON"),
        ("post", "/api/sessions/a/compact", b"[1, 2]", 400, "must be a JSON object"),
        (
            "post",
            "/api/sessions/a/compact",
            json.dumps({"cwd": "/work"}).encode(),
            422,
            'no "messages"',
        ),
        (
            "post",
            "/api/sessions/a/compact",
            json.dumps({"messages": "hi"}).encode(),
            422,
            "messages",
        ),
        (
            "post",
            "/api/sessions/a/compact",
            json.dumps({**REQUEST, "contextWindow": -5}).encode(),
            422,
            "contextWindow",
        ),
        (
            "post",
            "/api/sessions/two%20words/compact",
            json.dumps(REQUEST).encode(),
            400,
            "not a session id",
        ),
        ("get", "/api/sessions/nope/files", None, 404, "no stored session"),
        ("get", "/api/sessions/x/history", None, 400, "'path' is required"),
        ("get", "/api/where", None, 400, "'path' is required"),
        ("get", "/api/sessions?since=someday", None, 400, "since='someday' is neither a span"),
        ("get", "/api/where?path=a.py&since=someday", None, 400, "is neither a span"),
        # Malformed requests are the caller's: 4xx, never a 500.
        *(
            ("post", "/api/sessions/a/compact", json.dumps(body).encode(), 422, says)
            for body, says in [
                ({"messages": [{"role": ["user"], "content": "hi"}]}, "no role"),
                ({"messages": [{"role": {"user": 1}, "content": "hi"}]}, "no role"),
                ({"messages": [{"role": "wizard", "content": "hi"}]}, "unknown role 'wizard'"),
                ({"messages": [{"role": "user", "content": [{"type": {}}]}]}, '"type"'),
                ({"messages": [{"role": "assistant", "tool_calls": 5}]}, '"tool_calls"'),
                ({**REQUEST, "usage": 5}, '"usage" must be an object'),
            ]
        ),
        (
            "post",
            "/api/sessions/a/compact",
            b'{"messages": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
            400,
            "nests deeper than",
        ),
        (
            "post",
            "/api/sessions/a/compact",
            b'{"messages": [{"role": "user", "content": ' + b"[" * 500 + b"]" * 500 + b"}]}",
            400,
            "nests deeper than",
        ),
        ("get", "/api/nothing", None, 404, "no such route"),
        ("get", "/api/sessions/a/compact", None, 405, "GET is not allowed"),
    ],
)
def test_bad_input_gets_a_status_and_one_sentence(
    server: Server, method: str, path: str, body: bytes | None, status: int, says: str
) -> None:
    response = (
        server.post(path, content=body, headers={"Content-Type": "application/json"})
        if method == "post"
        else server.get(path)
    )
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert says in error
    # Said for a client of this API: no option of the command line, no library's own links.
    assert "Traceback" not in response.text and " --" not in error and "pydantic" not in error
    assert "https://" not in error


def test_only_requests_addressed_to_loopback_are_answered(server: Server) -> None:
    response = server.get("/api/health", headers={"Host": "attacker.example"})
    assert response.status_code == 400
    assert not any("Traceback" in line for line in server.errors)


def test_with_a_token_every_route_but_health_needs_it(guarded: Server) -> None:
    sessions = "/api/sessions"
    assert guarded.get("/api/health").status_code == 200
    missing = guarded.get(sessions)
    assert missing.status_code == 401 and missing.headers["WWW-Authenticate"] == "Bearer"
    assert "needs its token" in missing.json()["error"]
    wrong = guarded.get(sessions, headers={"Authorization": "Bearer " + TOKEN[:-1] + "x"})
    assert wrong.status_code == 401 and "does not match" in wrong.json()["error"]
    assert (
        guarded.post("/api/sessions/a/compact", content=json.dumps(REQUEST).encode()).status_code
        == 401
    )
    good = guarded.get(sessions, headers={"Authorization": f"Bearer {TOKEN}"})
    assert good.status_code == 200 and good.json()["sessions"]
    assert not any(TOKEN in line for line in guarded.errors)


@pytest.mark.parametrize(
    ("env", "args", "message"),
    [
        ({}, ("--host", "0.0.0.0"), "needs a token"),
        ({"ARTIFACT_INDEX_HTTP_TOKEN": "short"}, (), "at least 16 printable characters"),
        ({}, ("--token-file", "/no/such/token"), "cannot read the token file"),
    ],
)
def test_serve_refuses_to_start_unguarded_beyond_loopback_or_with_a_bad_token(
    tmp_path: Path, env: dict[str, str], args: tuple[str, ...], message: str
) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "artifact_index",
            "serve",
            "--port",
            "0",
            "--store",
            str(tmp_path / "s.db"),
            "--no-llm",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **env},
    )
    assert done.returncode != 0 and message in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def _peak_memory_kib(process: subprocess.Popen[str]) -> int | None:
    """The server's peak resident memory, where the system says (Linux)."""
    status = Path(f"/proc/{process.pid}/status")
    if not status.exists():
        return None
    return next(
        int(line.split()[1])
        for line in status.read_text().splitlines()
        if line.startswith("VmHWM:")
    )


def test_a_body_over_the_limit_is_refused_without_reading_it_all(server: Server) -> None:
    before = _peak_memory_kib(server.process)
    json_body = {"Content-Type": "application/json"}
    declared = server.post(
        "/api/sessions/a/compact", content=b" " * (60 * 2**20), headers=json_body
    )
    assert declared.status_code == 413 and "over 10 MiB" in declared.json()["error"]

    def undeclared() -> Iterator[bytes]:  # chunked: no length said, so counted while read
        for _ in range(60):
            yield b" " * 2**20

    streamed = server.post("/api/sessions/a/compact", content=undeclared(), headers=json_body)
    assert streamed.status_code == 413
    after = _peak_memory_kib(server.process)
    if before is not None and after is not None:
        assert after - before < 100 * 1024, (before, after)  # the 60 MiB were never held


def test_templates_are_named_never_given_by_path(server: Server) -> None:
    session = stored_id(server, "claude-code")
    own = server.get(f"/api/sessions/{session}/summary", params={"template": "handover"})
    assert own.status_code == 200 and "## Files touched" in own.text, own.text
    assert "src/auth.py" in own.text
    answers = []
    for name in ("/etc/passwd", "/no/such/file.toml", "../../../etc/passwd", "nosuch"):
        response = server.get(f"/api/sessions/{session}/summary", params={"template": name})
        assert response.status_code == 400
        answers.append(response.json()["error"].replace(repr(name), "NAME"))
    # The same answer whether the file exists or not: the server tells nothing about its disk.
    assert len(set(answers)) == 1 and "handover" in answers[0] and "passwd" not in answers[0]


@pytest.fixture(scope="module")
def paid(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, FakeAnthropic]]:
    """A server that writes narratives with the (fake) Anthropic API: each call would be paid for."""
    with FakeAnthropic() as api:
        env = {**os.environ, "ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": api.url}
        folder = tmp_path_factory.mktemp("paid")
        for server in _serve(folder, "--llm", env=env):
            yield server, api


def test_a_web_page_cannot_make_the_server_compact_or_call_the_model(
    paid: tuple[Server, FakeAnthropic],
) -> None:
    server, api = paid
    body = json.dumps(REQUEST).encode()
    compact = "/api/sessions/from-a-page/compact"
    page = "https://pages.example"
    # What a page can send to any address without asking: a form's or no-cors fetch's text/plain POST.
    for headers, status in [
        ({"Origin": page, "Content-Type": "text/plain"}, 403),
        ({"Origin": page, "Content-Type": "application/json"}, 403),
        ({"Origin": "null", "Content-Type": "application/json"}, 403),
        ({"Sec-Fetch-Site": "cross-site", "Content-Type": "application/json"}, 403),
        ({"Origin": "http://localhost:3000", "Content-Type": "application/json"}, 403),
        ({"Content-Type": "text/plain"}, 415),
        ({"Content-Type": "application/x-www-form-urlencoded"}, 415),
        ({}, 415),
    ]:
        response = server.post(compact, content=body, headers=headers)
        assert response.status_code == status, (headers, response.text)
    session = stored_id(server, "claude-code")
    image = server.get(f"/api/sessions/{session}/summary", headers={"Sec-Fetch-Site": "cross-site"})
    assert image.status_code == 403
    assert api.requests == []  # not one model call
    # The server's own origin, or a client that is no browser, is served: the model is asked.
    origin = server.url
    served = server.post(
        compact, content=body, headers={"Origin": origin, "Content-Type": "application/json"}
    )
    assert served.status_code in (200, 502), served.text
    assert api.messages_requests
