"""``artifact-index install|uninstall AGENT``: put the hooks where Claude Code, Codex and OpenCode look for them.

The hooks are package data (``plugins/``): Claude Code's plugin layout
(``.claude-plugin/plugin.json``, ``hooks/hooks.json``, ``LICENSE``), Codex's
``hooks.json`` and OpenCode's plugin file.  Installing writes them with the
absolute path of an artifact-index that will still be there when the agent
runs the hook (:func:`installed_command`), because an agent's hook runs
without the user's virtual environment on its ``PATH``:

* Claude Code: merged into ``~/.claude/settings.json`` (``--user``), the
  project's ``.claude/settings.json`` (``--project``, shared through git) or
  its ``.claude/settings.local.json`` (``--local``: the file Claude Code keeps
  out of git, the better place for a command that is a path on this
  machine), the three scopes Claude Code itself names;
* Codex: merged into ``$CODEX_HOME/hooks.json`` or the project's
  ``.codex/hooks.json``;
* OpenCode: the plugin file in ``~/.config/opencode/plugins/`` or the
  project's ``.opencode/plugins/``.

Merging changes only what is ours: our entries are recognized by their
command (``... artifact-index hook``), added at the end of their event's
list and removed again as text edits (:mod:`summarizer.integrations.json_text`),
so a hand-kept file keeps its formatting, its order and everything else in
it.  Installing again changes nothing, installing from another environment
replaces the path, and uninstalling removes exactly our entries (and the
events, files and folders left empty by that, which install made).  A
settings file that is not valid JSON is left alone, with one sentence
saying so.  Every change is planned first (:class:`Change`, with the text
before and after), so ``--dry-run`` can show it without making it.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
import tempfile
from dataclasses import dataclass, field, replace
from importlib.resources import files
from pathlib import Path
from typing import Literal, NotRequired

from pydantic import TypeAdapter
from typing_extensions import TypedDict  # pydantic reads typing's only from Python 3.12

from artifact_index.distribution import installation
from artifact_index.exceptions import UsageError
from artifact_index.ingestion.events import JSONObject
from summarizer.exceptions import SummarizerError
from summarizer.integrations import json_text

__all__ = [
    "AGENTS",
    "SCOPES",
    "Change",
    "InstallError",
    "Scope",
    "apply",
    "install",
    "installed_command",
    "installed_scopes",
    "is_ours",
    "our_commands",
    "plan_install",
    "plan_uninstall",
    "settings_path",
    "undone",
    "uninstall",
    "write_claude_plugin",
]

Scope = Literal["user", "project", "local"]


class HookCommand(TypedDict):
    """One hook of ours, as the templates write it: the command the agent runs."""

    type: Literal["command"]
    command: str
    timeout: int  # seconds
    statusMessage: NotRequired[str]  # what Codex shows while it runs


class HookGroup(TypedDict):
    """Our hooks for one event, in the agent's settings format: those whose matcher matches."""

    matcher: str
    hooks: list[HookCommand]


# Our part of the "hooks" object of an agent's settings: event name -> our hook groups.
HookGroups = dict[str, list[HookGroup]]
_HOOK_GROUPS: TypeAdapter[HookGroups] = TypeAdapter(HookGroups)
# The groups holding one of our hooks as a settings file has them: the user may have edited them.
_FoundGroups = dict[str, list[JSONObject]]
AGENTS = ("claude-code", "codex", "opencode")
SCOPES: dict[str, tuple[Scope, ...]] = {
    "claude-code": ("user", "project", "local"),
    "codex": ("user", "project"),
    "opencode": ("user", "project"),
}
_PLUGIN_FILE = "artifact-index.js"
_PLUGIN_MARK = "// artifact-index for OpenCode"
_COMMAND_LINE = 'const COMMAND = ["artifact-index"];'
_EXECUTABLES = ("artifact-index", "artifact-index.exe")


class InstallError(SummarizerError):
    """A settings file cannot be read or written, or no lasting command can be named; nothing was changed."""


@dataclass(frozen=True)
class Change:
    """What an install or uninstall does to one file: its text before and after (None: no file)."""

    path: Path
    done: Literal["installed", "updated", "unchanged", "removed", "absent"]
    what: str  # the hooks or file concerned, for the user
    before: str | None = None
    after: str | None = None
    # An uninstall: the folders it leaves empty, removed with the file.  An install: the folders
    # it creates, so that undoing it (:func:`undone`) removes them again.
    folders: tuple[Path, ...] = field(default=())


def installed_command() -> list[str]:
    """How an agent should run this artifact-index: an absolute path that lasts, never a bare name.

    A copy run from a tool's cache (``uvx``, ``pipx run``) would be pruned
    with it: another ``artifact-index`` on ``PATH`` is named instead, and
    without one this is an :class:`InstallError` that says how to install.
    """
    here = installation()
    invoked = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    candidates: list[Path] = []
    if invoked is not None and invoked.name in _EXECUTABLES and invoked.exists():
        candidates.append(Path(os.path.abspath(invoked)))
    beside = Path(sys.executable).parent / _EXECUTABLES[sys.platform == "win32"]
    if beside.exists():
        candidates.append(beside)
    if not here.temporary and candidates:
        return [str(candidates[0])]
    found = shutil.which("artifact-index")
    if found and not _inside(Path(found).resolve(), here.prefix if here.temporary else None):
        return [os.path.abspath(found)]
    if here.temporary:
        raise InstallError(
            f"this artifact-index runs from a cache ({here.prefix}) that may be emptied at any "
            "time, and no other artifact-index is on PATH: install it for good first (uv tool "
            "install PATH or pipx install PATH, PATH being this checkout, a git URL or a wheel; "
            "see the README), then run its install"
        )
    return [sys.executable, "-m", "artifact_index"]


def _inside(path: Path, folder: Path | None) -> bool:
    if folder is None:
        return False
    try:
        path.relative_to(folder.resolve())
    except ValueError:
        return False
    return True


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


def _hooks_template(agent: str, command: list[str]) -> HookGroups:
    """The hook groups of ``agent``'s template, running ``command``."""
    name = (
        ("claude-code", "hooks", "hooks.json")
        if agent == "claude-code"
        else ("codex", "hooks.json")
    )
    groups = _HOOK_GROUPS.validate_python(json.loads(_template(*name))["hooks"])
    for event_groups in groups.values():
        for group in event_groups:
            for entry in group["hooks"]:
                words = shlex.split(entry["command"])
                entry["command"] = shlex.join(command + words[1:])
    return groups


# -- JSON settings files ---------------------------------------------------------------------------------
def _read_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise InstallError(f"{path} cannot be read ({exc}); nothing was changed") from exc


def _settings(path: Path, text: str | None) -> JSONObject:
    if text is None or not text.strip():
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


def _write(path: Path, text: str) -> None:
    """Replace ``path`` in one step, keeping its permissions (a new file gets the usual 0644)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
        handle, temporary = tempfile.mkstemp(
            dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"
        )
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except OSError as exc:
        raise InstallError(f"{path} cannot be written ({exc.strerror or exc})") from exc


def _is_our_entry(entry: object) -> bool:
    return isinstance(entry, dict) and is_ours(entry.get("command"))


def _entries(group: JSONObject) -> list[JSONObject]:
    """The hook entries of one group (a settings file may hold anything else there too)."""
    entries = group.get("hooks")
    return (
        [entry for entry in entries if isinstance(entry, dict)] if isinstance(entries, list) else []
    )


def _ours(settings: JSONObject) -> _FoundGroups:
    """The groups of ``settings`` that hold one of our hooks, as they are there."""
    found: _FoundGroups = {}
    hooks = settings.get("hooks", {})
    for event, groups in hooks.items() if isinstance(hooks, dict) else ():
        for group in groups if isinstance(groups, list) else []:
            entries = group.get("hooks") if isinstance(group, dict) else None
            if isinstance(entries, list) and any(_is_our_entry(e) for e in entries):
                found.setdefault(event, []).append(group)
    return found


def our_commands(path: Path) -> list[str]:
    """The commands of our hooks in the settings file or plugin file at ``path`` (none when absent)."""
    text = _read_text(path)
    if text is None:
        return []
    if path.name == _PLUGIN_FILE:
        for line in text.splitlines():
            if line.startswith("const COMMAND = "):
                try:
                    words = json.loads(line.removeprefix("const COMMAND = ").rstrip(";"))
                except json.JSONDecodeError:
                    return []
                return [shlex.join(words)] if isinstance(words, list) else []
        return []
    settings = _settings(path, text)
    return [
        str(entry["command"])
        for groups in _ours(settings).values()
        for group in groups
        for entry in _entries(group)
        if _is_our_entry(entry)
    ]


def _without_ours(text: str) -> tuple[str, list[str]]:
    """``text`` without our hook entries (and the groups and events they leave empty), edited in place."""
    removed: list[str] = []
    while True:
        root = json_text.parse(text)
        hooks = root.member("hooks")
        if hooks is None or hooks.value.kind != "object":
            break
        edit = _next_removal(text, root, hooks.value, removed)
        if edit is None:
            break
        text = edit
    return text, removed


def _next_removal(
    text: str, root: json_text.Node, hooks: json_text.Node, removed: list[str]
) -> str | None:
    """``text`` with one of our entries (or a container it left empty) taken out; None when none is left."""
    data = json.loads(text[hooks.start : hooks.end])
    for member in hooks.members:
        groups = data.get(member.key)
        if not isinstance(groups, list):
            continue
        for g, group in enumerate(groups):
            entries = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(entries, list):
                continue
            ours = [i for i, entry in enumerate(entries) if _is_our_entry(entry)]
            if not ours:
                continue
            removed.append(member.key)
            group_node = member.value.items[g]
            if len(ours) == len(entries):
                if len(groups) == 1:  # the event held only our group: the event goes
                    if len(hooks.members) == 1:
                        return json_text.remove_member(text, root, "hooks")
                    return json_text.remove_member(text, hooks, member.key)
                return json_text.remove_item(text, member.value, g)
            entries_member = group_node.member("hooks")
            assert entries_member is not None
            return json_text.remove_item(text, entries_member.value, ours[0])
    return None


def _with_ours(text: str, groups: HookGroups) -> str:
    """``text`` (without our entries) with ``groups`` added at the end of their events."""
    root = json_text.parse(text)
    hooks = root.member("hooks")
    if hooks is None:
        return json_text.add_member(text, root, "hooks", groups)
    for event, event_groups in groups.items():
        for group in event_groups:
            hooks_node = json_text.parse(text).member("hooks")
            assert hooks_node is not None
            existing = hooks_node.value.member(event)
            if existing is None or existing.value.kind != "array":
                text = json_text.add_member(text, hooks_node.value, event, [group])
            else:
                text = json_text.append_item(text, existing.value, group)
    return text


def _plan_hooks(path: Path, groups: HookGroups) -> Change:
    before = _read_text(path)
    settings = _settings(path, before)
    what = ", ".join(groups)
    if _ours(settings) == groups:
        return Change(path, "unchanged", what, before, before)
    existed = bool(_ours(settings))
    if before is None or not before.strip():
        after = json.dumps({"hooks": groups}, indent=2) + "\n"
    else:
        after = _with_ours(_without_ours(before)[0], groups)
    return Change(path, "updated" if existed else "installed", what, before, after)


def _plan_unhooks(path: Path, root: Path) -> Change:
    before = _read_text(path)
    if before is None:
        return Change(path, "absent", "no settings file")
    _settings(path, before)
    after, removed = _without_ours(before) if before.strip() else (before, [])
    if not removed:
        return Change(path, "absent", "no artifact-index hook", before, before)
    what = ", ".join(dict.fromkeys(removed))
    if json.loads(after) == {}:
        # Nothing else was in it: the file was ours (install made it), so it goes too.
        return Change(
            path,
            "removed",
            what + " (and the file, which held nothing else)",
            before,
            None,
            _emptied_folders(path, root),
        )
    return Change(path, "removed", what, before, after)


def _emptied_folders(path: Path, root: Path) -> tuple[Path, ...]:
    """The folders between ``path`` and ``root`` that hold nothing but what leads to ``path``."""
    emptied: list[Path] = []
    folder = path.parent
    keep = {path.name}
    while folder != root and _inside(folder, root):
        try:
            others = [p for p in folder.iterdir() if p.name not in keep]
        except OSError:
            break
        if others:
            break
        emptied.append(folder)
        keep = {folder.name}
        folder = folder.parent
    return tuple(emptied)


# -- where each agent looks -----------------------------------------------------------------------------
def _home_of(agent: str, scope: Scope, project: Path) -> Path:
    """The folder below which the scope's files live: emptied folders are removed up to it, never it."""
    if scope != "user":
        return project
    if agent == "codex":
        from summarizer.integrations.agents import codex_home

        return codex_home().parent
    if agent == "opencode":
        return Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return Path.home()


def settings_path(agent: str, scope: Scope, project: Path) -> Path:
    """The file ``agent`` reads its hooks (or our plugin) from at ``scope``."""
    if agent not in AGENTS:
        raise UsageError(f"unknown agent {agent!r} ({', '.join(AGENTS)})")
    if scope not in SCOPES[agent]:
        # Only Claude Code keeps a per-machine project file beside the shared one.
        raise UsageError(f"{agent} has no {scope} scope; use --project (or --user)")
    if agent == "claude-code":
        if scope == "user":
            return Path.home() / ".claude" / "settings.json"
        return (
            project / ".claude" / ("settings.local.json" if scope == "local" else "settings.json")
        )
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


def plan_install(
    agent: str, scope: Scope = "user", project: Path | None = None, command: list[str] | None = None
) -> Change:
    """What installing ``agent``'s hooks running ``command`` (default: :func:`installed_command`) changes."""
    folder = (project or Path.cwd()).resolve()
    path = settings_path(agent, scope, folder)
    command = command or installed_command()
    if agent in ("claude-code", "codex"):
        planned = _plan_hooks(path, _hooks_template(agent, command))
        return replace(planned, folders=_missing_folders(path))
    plugin = _opencode_plugin(command)
    current = _read_text(path)
    if current is not None:
        if not current.startswith(_PLUGIN_MARK):
            raise InstallError(
                f"{path} exists and is not artifact-index's plugin; nothing was changed"
            )
        if current == plugin:
            return Change(path, "unchanged", "plugin file", current, current)
    return Change(
        path,
        "updated" if current is not None else "installed",
        "plugin file",
        current,
        plugin,
        _missing_folders(path),
    )


def _missing_folders(path: Path) -> tuple[Path, ...]:
    """The folders above ``path`` that do not exist yet, the deepest first."""
    missing = []
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    return tuple(missing)


def plan_uninstall(agent: str, scope: Scope = "user", project: Path | None = None) -> Change:
    """What removing what :func:`install` added for ``agent`` changes."""
    folder = (project or Path.cwd()).resolve()
    path = settings_path(agent, scope, folder)
    root = _home_of(agent, scope, folder)
    if agent in ("claude-code", "codex"):
        return _plan_unhooks(path, root)
    current = _read_text(path)
    if current is None:
        return Change(path, "absent", "no plugin file")
    if not current.startswith(_PLUGIN_MARK):
        raise InstallError(f"{path} is not artifact-index's plugin; it was left alone")
    return Change(path, "removed", "plugin file", current, None, _emptied_folders(path, root))


def apply(change: Change) -> None:
    """Make ``change``: write or remove its file, then the folders it left empty."""
    if change.after == change.before:
        return
    if change.after is not None:
        _write(change.path, change.after)
        return
    try:
        change.path.unlink()
        for folder in change.folders:
            folder.rmdir()
    except OSError as exc:
        raise InstallError(f"{change.path} cannot be removed ({exc.strerror or exc})") from exc


def undone(change: Change) -> Change:
    """The change that puts the file of ``change`` back as it was before it."""
    return Change(
        change.path, change.done, change.what, change.after, change.before, change.folders
    )


def install(
    agent: str, scope: Scope = "user", project: Path | None = None, command: list[str] | None = None
) -> Change:
    """Install ``agent``'s hooks running ``command`` (default: :func:`installed_command`)."""
    change = plan_install(agent, scope, project, command)
    apply(change)
    return change


def uninstall(agent: str, scope: Scope = "user", project: Path | None = None) -> Change:
    """Remove what :func:`install` added for ``agent``, and nothing else."""
    change = plan_uninstall(agent, scope, project)
    apply(change)
    return change


def installed_scopes(agent: str, project: Path | None = None) -> list[tuple[Scope, Path]]:
    """The scopes at which ``agent`` has our hooks (each would run them: twice at two scopes)."""
    folder = (project or Path.cwd()).resolve()
    found = []
    for scope in SCOPES[agent]:
        path = settings_path(agent, scope, folder)
        try:
            if our_commands(path):
                found.append((scope, path))
        except InstallError:
            continue
    return found


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
        (folder / "LICENSE").write_text(_template("claude-code", "LICENSE"), encoding="utf-8")
    except OSError as exc:
        raise InstallError(
            f"the plugin cannot be written in {folder} ({exc.strerror or exc})"
        ) from exc
    return folder
