"""``artifact-index doctor``: what is installed where, whether it runs, and whether each agent will run it.

Each finding is one line a person can act on: the installation this
command runs from (and whether it lasts), every agent's hooks at every
scope with the command they run and whether that command answers, a hook
installed at two scopes (the agent then runs it twice), Codex's switch and
trust for our hooks, an OpenCode plugin changed since it was installed, and
a Claude Code plugin folder's files.  Nothing is changed.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from artifact_index import __version__
from artifact_index.distribution import OptionalPart, installation, optional_parts
from summarizer.integrations.install import (
    AGENTS,
    InstallError,
    installed_scopes,
    is_ours,
    our_commands,
    plan_install,
)

__all__ = ["Finding", "examine"]

Verdict = Literal["ok", "problem", "note"]
_RUN_SECONDS = 60


@dataclass(frozen=True)
class Finding:
    subject: str  # what it is about: "artifact-index", "claude-code (user)", ...
    verdict: Verdict
    text: str


def _runs(command: str) -> str | None:
    """Why the hook command would not run (its executable, asked its version), or None when it runs."""
    words = shlex.split(command)
    runner = words[: words.index("hook")] if "hook" in words else words
    if not runner:
        return "it names no program"
    if not Path(runner[0]).is_absolute():
        return f"{runner[0]} is not an absolute path: the agent may not find it"
    if not Path(runner[0]).exists():
        return f"{runner[0]} does not exist (moved or uninstalled?): run install again"
    try:
        done = subprocess.run(
            [*runner, "--version"],
            capture_output=True,
            text=True,
            timeout=_RUN_SECONDS,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{runner[0]} cannot be run ({exc})"
    if done.returncode != 0 or not done.stdout.startswith("artifact-index"):
        reason = " ".join(done.stderr.split())[:200] or f"exit status {done.returncode}"
        return f"{shlex.join(runner)} --version fails ({reason})"
    return None


def _this_copy() -> list[Finding]:
    here = installation()
    parts = optional_parts()
    usable = [_part_text(part) for part in parts if part.usable]
    found = [
        Finding(
            "artifact-index",
            "note",
            f"version {__version__}, installed by {here.manager} in {here.prefix}"
            + (f" from {here.source}" if here.source else "")
            + (f"; optional parts: {', '.join(usable)}" if usable else "; no optional part"),
        )
    ]
    found += [
        Finding(
            "artifact-index",
            "note",
            f"optional part {part.name} is not usable: it needs "
            + ", ".join(
                f"{wanted} ({installed or 'not installed'})" for wanted, installed in part.unmet
            ),
        )
        for part in parts
        # Not asked for (none of it there) is no news; a part half there, or at a version it
        # does not accept, would fail when used.
        if any(installed is not None for _, installed in part.unmet)
        or (part.unmet and len(part.unmet) < part.requirements)
    ]
    if here.temporary:
        found.append(
            Finding(
                "artifact-index",
                "problem",
                "this copy runs from a cache that may be emptied: hooks must not point at it "
                "(install it with uv tool install or pipx install, see the README)",
            )
        )
    on_path = shutil.which("artifact-index")
    found.append(
        Finding(
            "artifact-index",
            "note",
            f"on PATH: {on_path}"
            if on_path
            else "not on PATH (the hooks run it by its absolute path, so they do not need it)",
        )
    )
    return found


def _part_text(part: OptionalPart) -> str:
    if part.came_with:
        return f"{part.name} (its dependencies came with {part.came_with})"
    return part.name


def _codex_switch() -> Finding | None:
    from summarizer.integrations.agents import codex_hooks_disabled

    reason = codex_hooks_disabled()
    return Finding("codex", "problem", reason) if reason else None


def _codex_trust(path: Path, project: Path) -> Finding:
    from summarizer.integrations.codex_trust import hook_trust

    codex = shutil.which("codex")
    if codex is None:
        return Finding(
            "codex",
            "note",
            f"whether Codex trusts the hooks of {path} is unknown: `codex` is not on PATH",
        )
    try:
        statuses = hook_trust(codex, path, project)
    except InstallError as exc:
        return Finding("codex", "note", f"Codex could not say whether it trusts them ({exc})")
    untrusted = [key for key, status in statuses if status != "trusted"]
    if untrusted:
        return Finding(
            "codex",
            "problem",
            f"Codex does not trust {', '.join(untrusted)} yet, so it skips it: start `codex` and "
            "trust it there, or run `artifact-index install codex --trust`",
        )
    return Finding("codex", "ok", f"Codex trusts the hooks of {path}")


def _opencode_plugin(path: Path, command: str) -> Finding | None:
    expected = plan_install("opencode", "user", None, shlex.split(command)).after
    if path.read_text(encoding="utf-8", errors="replace") != expected:
        return Finding(
            "opencode",
            "problem",
            f"{path} differs from the plugin artifact-index writes: run install again to repair it",
        )
    return None


def _agent(agent: str, project: Path) -> list[Finding]:
    found: list[Finding] = []
    scopes = installed_scopes(agent, project)
    if not scopes:
        return [Finding(agent, "note", "not installed (artifact-index install " + agent + ")")]
    for scope, path in scopes:
        subject = f"{agent} ({scope})"
        for command in dict.fromkeys(our_commands(path)):
            problem = _runs(command)
            if problem:
                found.append(Finding(subject, "problem", f"{path}: {problem}"))
            else:
                found.append(Finding(subject, "ok", f"{path} runs {command}"))
            if agent == "opencode" and (changed := _opencode_plugin(path, command)):
                found.append(changed)
        if agent == "codex":
            found.append(_codex_trust(path, project))
    if len(scopes) > 1:
        found.append(
            Finding(
                agent,
                "problem",
                f"installed at {len(scopes)} scopes ({', '.join(s for s, _ in scopes)}): "
                f"{agent} runs the hooks once for each; uninstall all but one",
            )
        )
    if agent == "codex" and (switch := _codex_switch()):
        found.append(switch)
    return found


def _plugin_folder(folder: Path) -> list[Finding]:
    subject = f"claude-code plugin {folder}"
    found: list[Finding] = []
    manifest = folder / ".claude-plugin" / "plugin.json"
    try:
        name = json.loads(manifest.read_text(encoding="utf-8")).get("name")
    except (OSError, json.JSONDecodeError, AttributeError) as exc:
        return [Finding(subject, "problem", f"{manifest} cannot be read as JSON ({exc})")]
    if not name:
        found.append(Finding(subject, "problem", f"{manifest} has no name"))
    if not (folder / "LICENSE").is_file():
        found.append(Finding(subject, "problem", f"{folder} has no LICENSE file"))
    hooks = folder / "hooks" / "hooks.json"
    try:
        groups = json.loads(hooks.read_text(encoding="utf-8")).get("hooks", {})
    except (OSError, json.JSONDecodeError, AttributeError) as exc:
        return [*found, Finding(subject, "problem", f"{hooks} cannot be read as JSON ({exc})")]
    commands = {
        entry.get("command")
        for event in groups.values()
        for group in event
        for entry in group.get("hooks", [])
        if is_ours(entry.get("command"))
    }
    if not commands:
        found.append(Finding(subject, "problem", f"{hooks} holds no artifact-index hook"))
    for command in sorted(commands):
        problem = _runs(command)
        found.append(
            Finding(subject, "problem", f"{hooks}: {problem}")
            if problem
            else Finding(subject, "ok", f"{hooks} runs {command}")
        )
    return found


def examine(project: Path, plugin_dir: Path | None = None) -> list[Finding]:
    """Every finding about this installation and the agents' hooks, for ``project``'s scopes."""
    found = _this_copy()
    for agent in AGENTS:
        try:
            found += _agent(agent, project)
        except InstallError as exc:
            found.append(Finding(agent, "problem", str(exc)))
    if plugin_dir is not None:
        found += _plugin_folder(plugin_dir)
    return found
