"""Where each agent's hook finds the session's transcript.

* Claude Code names it: ``transcript_path`` in every hook input.
* Codex's ``SessionStart`` input may carry ``"transcript_path": null``; the
  rollout is then found by its session id under ``$CODEX_HOME/sessions``
  (``~/.codex/sessions/YYYY/MM/DD/rollout-...-<session id>.jsonl``).
* OpenCode keeps sessions in its own storage, so our plugin passes the
  session id and the transcript is what ``opencode export <id>`` prints,
  kept under the user's state folder so the session store can point at it:
  redacted like every output (it quotes the whole session), ``0600`` in a
  ``0700`` folder, one file per session replaced at each export, and removed
  once no hook has exported it for :data:`EXPORT_RETENTION_DAYS` days.
  The plugin also names the OpenCode it runs in (``"opencode"``): a real
  OpenCode 1.18.33 started by its full path had no ``opencode`` on PATH.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import time
from pathlib import Path

from artifact_index.ingestion.events import JSONObject
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.redaction import redact_json, redact_text
from artifact_index.state_files import private_directory, user_state_directory, write_atomically
from summarizer.exceptions import SummarizerError

__all__ = ["AGENTS", "EXPORT_RETENTION_DAYS", "keep_export", "transcript_of"]

# How long an OpenCode export is kept after the last hook that made it: the session store's
# snapshot of the session points at it, for questions asked later.
EXPORT_RETENTION_DAYS = 14

AGENTS = ("claude-code", "codex", "opencode")
_SAFE_ID = lazy_pattern(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$")
_EXPORT_SECONDS = 60


def _session_id(hook_input: JSONObject) -> str:
    session = hook_input.get("session_id")
    if not isinstance(session, str) or not _SAFE_ID.match(session):
        raise SummarizerError("the hook input has no transcript_path and no usable session_id")
    return session


def codex_home() -> Path:
    return Path(os.environ.get("CODEX_HOME") or Path.home() / ".codex")


def codex_hooks_disabled() -> str | None:
    """Why Codex would not run the hooks, read from its config.toml, if it says so."""
    import tomllib  # only `install codex` and `doctor` ask

    config = codex_home() / "config.toml"
    try:
        features = tomllib.loads(config.read_text(encoding="utf-8")).get("features", {})
    except (OSError, tomllib.TOMLDecodeError):
        return None
    for key in ("hooks", "codex_hooks"):
        if isinstance(features, dict) and features.get(key) is False:
            return f"{config} turns hooks off ([features] {key} = false): Codex will not run them"
    return None


def _codex_rollout(hook_input: JSONObject) -> Path:
    session = _session_id(hook_input)
    sessions = codex_home() / "sessions"
    found = (
        sorted(sessions.rglob(f"rollout-*{session}.jsonl"), key=lambda p: p.stat().st_mtime)
        if sessions.is_dir()
        else []
    )
    if not found:
        raise SummarizerError(
            f"transcript_path is null and no Codex rollout of session {session} is under {sessions}"
        )
    return found[-1]


def _opencode_executable(hook_input: JSONObject) -> str | None:
    """The OpenCode our plugin runs in (it names its own binary: OpenCode need not be on PATH), else PATH's."""
    named = hook_input.get("opencode")
    if (
        isinstance(named, str)
        and Path(named).name.lower().startswith("opencode")
        and os.path.isfile(named)
        and os.access(named, os.X_OK)
    ):
        return named
    return shutil.which("opencode")


def _opencode_export(hook_input: JSONObject, seconds: float) -> Path:
    session = _session_id(hook_input)
    opencode = _opencode_executable(hook_input)
    if opencode is None:
        raise SummarizerError(
            "`opencode` is not on PATH and the plugin named no OpenCode, so the session cannot "
            "be exported"
        )
    import subprocess  # only OpenCode's sessions are exported by a process; a hook on another agent's spends nothing on it

    cwd = hook_input.get("cwd")
    try:
        done = subprocess.run(
            [opencode, "export", session],
            capture_output=True,
            text=True,
            timeout=min(seconds, _EXPORT_SECONDS),
            cwd=cwd if isinstance(cwd, str) and os.path.isdir(cwd) else None,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SummarizerError(f"`opencode export {session}` failed ({exc})") from exc
    # Some versions print a line of their own before the JSON.
    start = done.stdout.find("{")
    if done.returncode != 0 or start < 0:
        reason = " ".join(done.stderr.split())[:200] or f"exit status {done.returncode}"
        raise SummarizerError(f"`opencode export {session}` printed no session ({reason})")
    return keep_export(session, done.stdout[start:])


def keep_export(session: str, exported: str) -> Path:
    """Keep ``exported`` (what ``opencode export`` printed) for the hook: redacted, private, pruned.

    Exports of other sessions left untouched for :data:`EXPORT_RETENTION_DAYS` are removed.
    """
    folder = private_directory(user_state_directory() / "opencode")
    with contextlib.suppress(OSError):
        os.chmod(folder, 0o700)  # a folder an older version made with the umask's permissions
    try:
        document = json.loads(exported)
    except json.JSONDecodeError:
        text = redact_text(exported)  # not JSON (cut short?): kept as text, the reader says why
    else:
        text = json.dumps(redact_json(document), ensure_ascii=False)
    target = folder / f"{session}.json"
    write_atomically(target, text)
    _prune(folder, keep=target)
    return target


def _prune(folder: Path, keep: Path) -> None:
    cutoff = time.time() - EXPORT_RETENTION_DAYS * 86_400
    for old in folder.glob("*.json"):
        if old != keep:
            with contextlib.suppress(OSError):
                if old.stat().st_mtime < cutoff:
                    old.unlink()


def transcript_of(agent: str, hook_input: JSONObject, seconds: float = _EXPORT_SECONDS) -> Path:
    """The transcript the hook input of ``agent`` is about (found, or exported, within ``seconds``)."""
    named = hook_input.get("transcript_path")
    if isinstance(named, str) and named:
        return Path(named).expanduser()
    if agent == "codex":
        return _codex_rollout(hook_input)
    if agent == "opencode":
        return _opencode_export(hook_input, seconds)
    raise SummarizerError("the hook input has no transcript_path")
