"""A threaded HTTP server on a free loopback port: the one place tests' fake APIs run (no other network)."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class QuietHandler(BaseHTTPRequestHandler):
    """A request handler that keeps test output clean."""

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def reply(self, status: int, content_type: str, data: bytes, **headers: str) -> None:
        """Answer with ``data`` whole, its length given (so a keep-alive client knows where it ends)."""
        self.send_response(status)
        self.send_header("content-type", content_type)
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class Loopback:
    """Serves ``handler`` on 127.0.0.1 from a background thread until :meth:`close`."""

    def __init__(self, handler: type[BaseHTTPRequestHandler]) -> None:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


class LoopbackFake:
    """What every fake API shares: its address while it runs, and stopping it at the end of its ``with``."""

    _loopback: Loopback | None

    @property
    def url(self) -> str:
        assert self._loopback is not None, "the fake server is not running"
        return self._loopback.url

    def __exit__(self, *exc: object) -> None:
        assert self._loopback is not None
        self._loopback.close()
