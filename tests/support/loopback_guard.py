"""Tests that drive a real SDK may reach only the loopback: no proxy, no connection to any other host."""

from __future__ import annotations

import socket
from typing import Any

import pytest

__all__ = ["only_loopback"]

_LOOPBACK = {"127.0.0.1", "localhost", "::1"}
_PROXY_VARIABLES = (
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "http_proxy",
    "https_proxy",
    "all_proxy",
)


def only_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    """Refuse, failing the test, any connection that is not to the loopback; drop the proxy variables."""
    for name in _PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    real = socket.create_connection

    def guarded(address: tuple[str, int], *args: Any, **kwargs: Any) -> socket.socket:
        if address[0] not in _LOOPBACK:
            raise AssertionError(f"a test tried to connect to {address[0]}")
        return real(address, *args, **kwargs)

    monkeypatch.setattr(socket, "create_connection", guarded)
