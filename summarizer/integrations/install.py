"""``artifact-index install|uninstall AGENT``: put the hooks where Claude Code, Codex and OpenCode look for them.

The hooks are package data (``plugins/``): Claude Code's plugin layout
(``.claude-plugin/plugin.json``, ``hooks/hooks.json``), Codex's
``hooks.json`` and OpenCode's plugin file.  Installing writes them with the
absolute path of the artifact-index that runs the installer, because an
agent's hook runs without the user's virtual environment on its ``PATH``:

* Claude Code: merged into ``~/.claude/settings.json`` (``--user``), the
  project's ``.claude/settings.json`` (``--project``, shared through git) or
  its ``.claude/settings.local.json`` (``--local``: the file Claude Code keeps
  out of git, the better place for a command that is a path on this
  machine), the three scopes Claude Code itself names;
* Codex: merged into ``$CODEX_HOME/hooks.json`` or the project's
  ``.codex/hooks.json``;
* OpenCode: the plugin file in ``~/.config/opencode/plugins/`` or the
  project's ``.opencode/plugins/``.

Merging never touches another hook or setting: our entries are recognized
by their command (``... artifact-index hook``), so installing again changes
nothing, installing from another environment replaces the path, and
uninstalling removes exactly our entries (and the groups and events left
empty by that), nothing else.  A settings file that is not valid JSON is
left alone, with one sentence saying so.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
import tempfile
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any, Literal

from summarizer.exceptions import SummarizerError

__all__ = [
    "Change",
    "InstallError",
    "Scope",
    "install",
    "installed_command",
    "is_ours",
    "uninstall",
    "write_claude_plugin",
]

Scope = Literal["user", "project", "local"]
_PLUGIN_FILE = "artifact-index.js"
_PLUGIN_MARK = "// artifact-index for OpenCode"
_COMMAND_LINE = 'const COMMAND = ["artifact-index"];'
_EXECUTABLES = ("artifact-index", "artifact-index.exe")


class InstallError(SummarizerError):
    """A settings file cannot be read or written; nothing was changed."""


@dataclass(frozen=True)
class Change:
    """What an install or uninstall did to one file."""

    path: Path
    done: Literal["installed", "updated", "unchanged", "removed", "absent"]
    what: str  # the hooks or file concerned, for the user


def installed_command() -> list[str]:
    """How an agent should run this artifact-index: an absolute path, never a bare name on ``PATH``."""
    invoked = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if invoked is not None and invoked.name in _EXECUTABLES and invoked.exists():
        return [os.path.abspath(invoked)]
    beside = Path(sys.executable).parent / _EXECUTABLES[sys.platform == "win32"]
    if beside.exists():
        return [str(beside)]
    found = shutil.which("artifact-index")
    return [os.path.abspath(found)] if found else [sys.executable, "-m", "artifact_index"]


def is_ours(command: object) -> bool:
    """Whether a hook command runs ``artifact-index hook`` (from any environment)."""
    if not isinstance(command, str):
        return False
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    if "hook" not in words:
        return False
    runner = words[: words.index("hook")]
    return (len(runner) == 1 and Path(runner[0]).name in _EXECUTABLES) or runner[1:] == [
        "-m",
        "artifact_index",
    ]


def _template(*parts: str) -> str:
    return files("summarizer.integrations").joinpath("plugins", *parts).read_text(encoding="utf-8")


def _hooks_template(agent: str, command: list[str]) -> dict[str, list[dict[str, Any]]]:
    """The hook groups of ``agent``'s template, running ``command``."""
    name = (
        ("claude-code", "hooks", "hooks.json")
        if agent == "claude-code"
        else ("codex", "hooks.json")
    )
    groups: dict[str, list[dict[str, Any]]] = json.loads(_template(*name))["hooks"]
    for event_groups in groups.values():
        for group in event_groups:
            for entry in group["hooks"]:
                words = shlex.split(entry["command"])
                entry["command"] = shlex.join(command + words[1:])
    return groups


# -- JSON settings files ---------------------------------------------------------------------------------
def _read_settings(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise InstallError(
            f"{path} cannot be read ({exc.strerror or exc}); nothing was changed"
        ) from exc
    if not text.strip():
        return {}
    try:
        settings = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InstallError(
            f"{path} is not valid JSON (line {exc.lineno}: {exc.msg}); fix it first, nothing "
            "was changed"
        ) from exc
    if not isinstance(settings, dict) or not isinstance(settings.get("hooks", {}), dict):
        raise InstallError(
            f'{path} does not hold a settings object with a "hooks" object; nothing was changed'
        )
    return settings


def _write_settings(path: Path, settings: dict[str, Any]) -> None:
    """Replace ``path`` in one step, keeping its permissions (a new file gets the usual 0644)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
        handle, temporary = tempfile.mkstemp(
            dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"
        )
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(json.dumps(settings, indent=2, ensure_ascii=False) + "\n")
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except OSError as exc:
        raise InstallError(f"{path} cannot be written ({exc.strerror or exc})") from exc


def _without_ours(settings: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """``settings`` without our hook entries (and what they left empty), and the events they were under."""
    hooks: dict[str, Any] = settings.get("hooks", {})
    kept_hooks: dict[str, Any] = {}
    removed: list[str] = []
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            kept_hooks[event] = groups
            continue
        kept_groups = []
        for group in groups:
            entries = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(entries, list):
                kept_groups.append(group)
                continue
            kept = [
                entry
                for entry in entries
                if not (isinstance(entry, dict) and is_ours(entry.get("command")))
            ]
            if len(kept) < len(entries):
                removed.append(event)
            if kept:
                kept_groups.append({**group, "hooks": kept})
        if kept_groups:
            kept_hooks[event] = kept_groups
    result = {key: value for key, value in settings.items() if key != "hooks"}
    if kept_hooks:
        result["hooks"] = kept_hooks
    return result, removed


def _ours(settings: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Our hook groups in ``settings``, as the template writes them."""
    found: dict[str, list[dict[str, Any]]] = {}
    for event, groups in settings.get("hooks", {}).items():
        for group in groups if isinstance(groups, list) else []:
            entries = group.get("hooks") if isinstance(group, dict) else None
            if isinstance(entries, list) and any(
                isinstance(e, dict) and is_ours(e.get("command")) for e in entries
            ):
                found.setdefault(event, []).append(group)
    return found


def _install_hooks(path: Path, groups: dict[str, list[dict[str, Any]]]) -> Change:
    settings = _read_settings(path)
    what = ", ".join(groups)
    if _ours(settings) == groups:
        return Change(path, "unchanged", what)
    existed = bool(_ours(settings))
    merged, _ = _without_ours(settings)
    hooks = merged.setdefault("hooks", {})
    for event, event_groups in groups.items():
        hooks.setdefault(event, []).extend(event_groups)
    _write_settings(path, merged)
    return Change(path, "updated" if existed else "installed", what)


def _uninstall_hooks(path: Path) -> Change:
    if not path.exists():
        return Change(path, "absent", "no settings file")
    settings = _read_settings(path)
    kept, removed = _without_ours(settings)
    if not removed:
        return Change(path, "absent", "no artifact-index hook")
    what = ", ".join(dict.fromkeys(removed))
    if kept:
        _write_settings(path, kept)
        return Change(path, "removed", what)
    # Nothing else was in it: the file was ours (install made it), so it goes too.
    try:
        path.unlink()
    except OSError as exc:
        raise InstallError(f"{path} cannot be removed ({exc.strerror or exc})") from exc
    return Change(path, "removed", what + " (and the file, which held nothing else)")


# -- where each agent looks -----------------------------------------------------------------------------
def _settings_path(agent: str, scope: Scope, project: Path) -> Path:
    if agent == "claude-code":
        if scope == "user":
            return Path.home() / ".claude" / "settings.json"
        return (
            project / ".claude" / ("settings.local.json" if scope == "local" else "settings.json")
        )
    if scope == "local":
        # Only Claude Code keeps a per-machine project file beside the shared one.
        raise InstallError(f"{agent} has no local scope; use --project (or --user)")
    if agent == "codex":
        from summarizer.integrations.agents import codex_home

        return codex_home() / "hooks.json" if scope == "user" else project / ".codex" / "hooks.json"
    config = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    folder = (
        config / "opencode" / "plugins" if scope == "user" else project / ".opencode" / "plugins"
    )
    return folder / _PLUGIN_FILE


def _opencode_plugin(command: list[str]) -> str:
    text = _template("opencode", _PLUGIN_FILE)
    return text.replace(_COMMAND_LINE, f"const COMMAND = {json.dumps(command)};")


def install(
    agent: str, scope: Scope = "user", project: Path | None = None, command: list[str] | None = None
) -> Change:
    """Install ``agent``'s hooks running ``command`` (default: :func:`installed_command`)."""
    command = command or installed_command()
    path = _settings_path(agent, scope, (project or Path.cwd()).resolve())
    if agent in ("claude-code", "codex"):
        return _install_hooks(path, _hooks_template(agent, command))
    if agent != "opencode":
        raise InstallError(f"unknown agent {agent!r} (claude-code, codex, opencode)")
    plugin = _opencode_plugin(command)
    if path.exists():
        current = path.read_text(encoding="utf-8", errors="replace")
        if not current.startswith(_PLUGIN_MARK):
            raise InstallError(
                f"{path} exists and is not artifact-index's plugin; nothing was changed"
            )
        if current == plugin:
            return Change(path, "unchanged", "plugin file")
    done: Literal["installed", "updated"] = "updated" if path.exists() else "installed"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(plugin, encoding="utf-8")
    except OSError as exc:
        raise InstallError(f"{path} cannot be written ({exc.strerror or exc})") from exc
    return Change(path, done, "plugin file")


def uninstall(agent: str, scope: Scope = "user", project: Path | None = None) -> Change:
    """Remove what :func:`install` added for ``agent``, and nothing else."""
    path = _settings_path(agent, scope, (project or Path.cwd()).resolve())
    if agent in ("claude-code", "codex"):
        return _uninstall_hooks(path)
    if agent != "opencode":
        raise InstallError(f"unknown agent {agent!r} (claude-code, codex, opencode)")
    if not path.exists():
        return Change(path, "absent", "no plugin file")
    if not path.read_text(encoding="utf-8", errors="replace").startswith(_PLUGIN_MARK):
        raise InstallError(f"{path} is not artifact-index's plugin; it was left alone")
    path.unlink()
    return Change(path, "removed", "plugin file")


def write_claude_plugin(folder: Path, command: list[str] | None = None) -> Path:
    """Claude Code's plugin layout in ``folder``, its hooks running ``command`` (for ``claude --plugin-dir``)."""
    command = command or installed_command()
    hooks = {"hooks": _hooks_template("claude-code", command)}
    try:
        (folder / ".claude-plugin").mkdir(parents=True, exist_ok=True)
        (folder / "hooks").mkdir(exist_ok=True)
        (folder / ".claude-plugin" / "plugin.json").write_text(
            _template("claude-code", ".claude-plugin", "plugin.json"), encoding="utf-8"
        )
        (folder / "hooks" / "hooks.json").write_text(
            json.dumps(hooks, indent=2) + "\n", encoding="utf-8"
        )
    except OSError as exc:
        raise InstallError(
            f"the plugin cannot be written in {folder} ({exc.strerror or exc})"
        ) from exc
    return folder
