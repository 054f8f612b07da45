"""The HTTP server's bounds against clients that stall or come all at once: served in-process on loopback."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

httpx = pytest.importorskip("httpx", reason="the HTTP test client comes with the [test] extra")
uvicorn = pytest.importorskip("uvicorn", reason="the HTTP API is the optional [http] extra")

from summarizer.integrations.access import SessionAccess  # noqa: E402
from summarizer.integrations.http_api import Compaction, build_app  # noqa: E402

BODY = b'{"model": "claude-test", "messages": [{"role": "user", "content": "Go on."}]}'
JSON = {"Content-Type": "application/json"}


class Served:
    """``build_app`` under uvicorn in a thread of this process, on a free loopback port."""

    def __init__(self, compaction: Compaction, store: Path) -> None:
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        self.port = listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        app = build_app(SessionAccess(store), compaction)
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False))
        self.thread = threading.Thread(
            target=lambda: self.server.run(sockets=[listener]), daemon=True
        )
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)

    def close(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture
def served(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Served]:
    compaction = Compaction(state_root=tmp_path / "state", use_llm=False, **request.param)
    server = Served(compaction, tmp_path / "sessions.db")
    yield server
    server.close()


@pytest.mark.parametrize("served", [{"body_seconds": 1.0}], indirect=True)
def test_a_client_that_stalls_mid_body_is_answered_408_and_holds_up_nobody(
    served: Served,
) -> None:
    stalled = socket.create_connection(("127.0.0.1", served.port), timeout=20)
    try:
        stalled.sendall(
            b"POST /api/sessions/a/compact HTTP/1.1\r\n"
            + f"Host: 127.0.0.1:{served.port}\r\n".encode()
            + b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
        )
        # Meanwhile the server answers everyone else.
        assert httpx.get(served.url + "/api/health", timeout=10).status_code == 200
        started = time.monotonic()
        # The head and the body may come in separate segments: read until the server closes.
        answer = b""
        while chunk := stalled.recv(4096):
            answer += chunk
        waited = time.monotonic() - started
    finally:
        stalled.close()
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert b"did not arrive within 1 s" in answer
    assert waited < 10


@pytest.mark.parametrize("served", [{"at_once": 2}], indirect=True)
def test_compactions_run_a_few_at_a_time_and_the_others_wait_their_turn(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    lock = threading.Lock()
    running, peak = [0], [0]
    # Two compactions meet here before either ends: every one that starts meanwhile is counted.
    pair = threading.Barrier(2, timeout=30)

    def compact_request(body: dict[str, Any], **_: Any) -> dict[str, Any]:
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        pair.wait()
        with lock:
            running[0] -= 1
        return {"result": {"didCompress": False}, "messages": body["messages"]}

    monkeypatch.setattr("summarizer.summary_commands.compact_request", compact_request)
    statuses: list[int] = []

    def post() -> None:
        response = httpx.post(
            served.url + "/api/sessions/a/compact", content=BODY, headers=JSON, timeout=60
        )
        statuses.append(response.status_code)

    clients = [threading.Thread(target=post) for _ in range(6)]
    for client in clients:
        client.start()
    for client in clients:
        client.join(timeout=60)
    assert statuses == [200] * 6
    assert peak[0] == 2
