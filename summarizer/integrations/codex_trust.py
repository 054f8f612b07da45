"""``install codex --trust``: have Codex itself record that our hook is trusted.

Codex 0.169 runs a new or changed hook only once the user trusts it: it
keeps the hook's hash in its ``config.toml`` (``[hooks.state."<hooks.json>:
<event>:<group>:<handler>"] trusted_hash``), and until then ``codex exec``
skips the hook without a word (seen in the real agent).  Rather than compute
Codex's hash, this asks Codex: its ``app-server`` lists the hooks with their
current hash (``hooks/list``) and writes its own config
(``config/value/write``).  Only our entries of the file we installed into are
trusted, and only when the user asks with ``--trust``.
"""

from __future__ import annotations

import contextlib
import json
import queue
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from artifact_index.ingestion.events import JSONObject
from summarizer.integrations.install import InstallError, is_ours

__all__ = ["hook_trust", "trust_codex_hooks"]

_SECONDS = 30.0


class _AppServer:
    """``codex app-server``: JSON-RPC, one message a line, on its standard input and output."""

    def __init__(self, codex: str, cwd: Path) -> None:
        try:
            self.process = subprocess.Popen(
                [codex, "app-server"],
                cwd=cwd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
        except OSError as exc:
            raise InstallError(
                f"`{codex} app-server` cannot start ({exc.strerror or exc})"
            ) from exc
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.next_id = 0
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _send(self, message: JSONObject) -> None:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(message) + "\n")
            self.process.stdin.flush()
        except OSError as exc:
            raise InstallError(f"Codex's app-server stopped ({exc.strerror or exc})") from exc

    def notify(self, method: str) -> None:
        self._send({"method": method})

    def call(self, method: str, params: JSONObject) -> Any:
        self.next_id += 1
        self._send({"id": self.next_id, "method": method, "params": params})
        deadline = time.monotonic() + _SECONDS
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                raise InstallError(f"Codex's app-server ended before answering {method}")
            try:
                message = json.loads(line)
            except json.JSONDecodeError:
                continue  # not ours to read: only answers carry our id
            if isinstance(message, dict) and message.get("id") == self.next_id:
                if "error" in message:
                    raise InstallError(f"Codex's app-server refused {method}: {message['error']}")
                return message.get("result")
        raise InstallError(
            f"Codex's app-server did not answer {method} within {_SECONDS:.0f} seconds"
        )

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        # The pipes too: the reader stops at the end of the output, then its end is closed.
        assert self.process.stdin is not None and self.process.stdout is not None
        with contextlib.suppress(OSError):
            self.process.stdin.close()
        self.reader.join(timeout=5)
        if not self.reader.is_alive():
            self.process.stdout.close()


def _ours(server: _AppServer, hooks_file: Path, project: Path) -> list[JSONObject]:
    listed = server.call("hooks/list", {"cwds": [str(project)]})
    hooks = [hook for entry in (listed or {}).get("data", []) for hook in entry.get("hooks", [])]
    return [
        hook
        for hook in hooks
        if isinstance(hook, dict)
        and is_ours(hook.get("command"))
        and Path(str(hook.get("sourcePath"))).resolve() == hooks_file.resolve()
    ]


def hook_trust(codex: str, hooks_file: Path, project: Path) -> list[tuple[str, str]]:
    """How Codex sees our hooks in ``hooks_file`` from ``project``: each hook's key and trust status.

    Raises :class:`~summarizer.integrations.install.InstallError` when Codex
    cannot be asked or lists none of them.
    """
    server = _AppServer(codex, project)
    try:
        server.call("initialize", {"clientInfo": {"name": "artifact-index", "version": "1"}})
        server.notify("initialized")
        ours = _ours(server, hooks_file, project)
    finally:
        server.close()
    if not ours:
        raise InstallError(f"Codex lists none of artifact-index's hooks from {hooks_file}")
    return [(str(hook.get("key")), str(hook.get("trustStatus"))) for hook in ours]


def trust_codex_hooks(codex: str, hooks_file: Path, project: Path) -> list[str]:
    """Have Codex trust our hooks in ``hooks_file``, as seen from ``project``; the keys Codex now trusts.

    Raises :class:`~summarizer.integrations.install.InstallError` when Codex
    cannot be asked, lists none of our hooks, or still does not trust them.
    """
    server = _AppServer(codex, project)
    try:
        server.call("initialize", {"clientInfo": {"name": "artifact-index", "version": "1"}})
        server.notify("initialized")
        ours = _ours(server, hooks_file, project)
        if not ours:
            raise InstallError(f"Codex lists none of artifact-index's hooks from {hooks_file}")
        for hook in ours:
            if hook.get("trustStatus") != "trusted":
                server.call(
                    "config/value/write",
                    {
                        "keyPath": f'hooks.state."{hook["key"]}".trusted_hash',
                        "value": hook["currentHash"],
                        "mergeStrategy": "replace",
                    },
                )
        untrusted = [
            str(hook["key"])
            for hook in _ours(server, hooks_file, project)
            if hook.get("trustStatus") != "trusted"
        ]
        if untrusted:
            raise InstallError(f"Codex still does not trust {', '.join(untrusted)}")
        return [str(hook["key"]) for hook in ours]
    finally:
        server.close()
