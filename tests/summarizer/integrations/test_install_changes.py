"""`install` and `uninstall` change only what is theirs: a hand-kept file keeps its form, what they made goes again."""

from __future__ import annotations

import difflib
import json
import os
import stat
import sys
from pathlib import Path

import pytest

from artifact_index.distribution import Installation
from summarizer.integrations import install as installer
from summarizer.integrations.install import InstallError, installed_command
from tests.summarizer.integrations.test_install import EXECUTABLE, cli

# A settings file as a person keeps it: four-space indents, a one-line list, a blank line, no
# newline at the end, a hook group of theirs on one line.
HAND_KEPT = """{
    "model": "opus",
    "permissions": {"allow": ["Bash(ls)", "Read"]},

    "hooks": {
        "SessionStart": [
            { "matcher": "startup", "hooks": [ { "type": "command", "command": "echo welcome" } ] }
        ]
    },
    "env": {"NOTE": "déjà vu"}
}"""


def test_a_hand_kept_settings_file_gets_only_additions_and_comes_back_byte_for_byte(
    tmp_path: Path,
) -> None:
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(HAND_KEPT, encoding="utf-8")
    assert cli(tmp_path, "install", "claude-code").returncode == 0
    installed = settings.read_text(encoding="utf-8")
    removed = [
        line
        for line in difflib.ndiff(HAND_KEPT.splitlines(), installed.splitlines())
        if line.startswith("- ")
    ]
    # Only the line that gained a comma changed; everything of theirs is as they wrote it.
    assert removed == [
        '-             { "matcher": "startup", "hooks": [ { "type": "command", "command": '
        '"echo welcome" } ] }'
    ]
    assert '        "PreCompact": [' in installed.splitlines()  # their four-space step
    assert f'                        "command": "{EXECUTABLE} hook",' in installed.splitlines()
    assert cli(tmp_path, "uninstall", "claude-code").returncode == 0
    assert settings.read_text(encoding="utf-8") == HAND_KEPT


def test_a_new_path_replaces_the_old_one_in_place_of_nothing_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(HAND_KEPT, encoding="utf-8")
    installer.install("claude-code", command=["/old/venv/bin/artifact-index"])
    change = installer.install("claude-code", command=[EXECUTABLE])
    assert change.done == "updated" and "/old/venv" not in settings.read_text()
    installer.uninstall("claude-code")
    assert settings.read_text(encoding="utf-8") == HAND_KEPT


@pytest.mark.parametrize(
    ("agent", "scope", "made"),
    [
        ("claude-code", "--local", ".claude"),
        ("claude-code", "--project", ".claude"),
        ("codex", "--project", ".codex"),
        ("opencode", "--project", ".opencode"),
    ],
)
def test_uninstall_removes_the_files_and_folders_install_made(
    tmp_path: Path, agent: str, scope: str, made: str
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    assert cli(tmp_path, "install", agent, scope, cwd=project).returncode == 0
    assert (project / made).is_dir()
    done = cli(tmp_path, "uninstall", agent, scope, cwd=project)
    assert done.returncode == 0 and f"removed the folder {project / made}" in done.stdout
    assert list(project.iterdir()) == []


def test_a_folder_that_holds_something_else_stays(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".claude" / "commands").mkdir(parents=True)
    assert cli(tmp_path, "install", "claude-code", "--project", cwd=project).returncode == 0
    assert cli(tmp_path, "uninstall", "claude-code", "--project", cwd=project).returncode == 0
    assert sorted(p.name for p in (project / ".claude").iterdir()) == ["commands"]


def test_installing_at_a_second_scope_warns_that_the_agent_would_run_the_hooks_twice(
    tmp_path: Path,
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    assert cli(tmp_path, "install", "claude-code", cwd=project).returncode == 0
    done = cli(tmp_path, "install", "claude-code", "--local", cwd=project)
    assert done.returncode == 0
    assert (
        f"warning: the hooks are also installed at the user scope ({tmp_path / '.claude' / 'settings.json'}): "
        "claude-code will run them twice; `artifact-index uninstall claude-code --user` removes those"
        in " ".join(done.stderr.split())
    )


def test_a_dry_run_shows_the_change_and_makes_none(tmp_path: Path) -> None:
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(HAND_KEPT, encoding="utf-8")
    done = cli(tmp_path, "install", "claude-code", "--dry-run")
    assert done.returncode == 0
    assert done.stdout.startswith(
        f"would change {settings} (SessionStart, PreCompact, PostCompact):"
    )
    assert f'+                        "command": "{EXECUTABLE} hook",' in done.stdout.splitlines()
    assert settings.read_text(encoding="utf-8") == HAND_KEPT
    fresh = cli(tmp_path, "install", "codex", "--dry-run")
    assert fresh.stdout.startswith(f"would create {tmp_path / '.codex' / 'hooks.json'}")
    assert not (tmp_path / ".codex").exists()
    cli(tmp_path, "install", "opencode", "--project", cwd=tmp_path)
    gone = cli(tmp_path, "uninstall", "opencode", "--project", "--dry-run", cwd=tmp_path)
    assert gone.stdout.splitlines() == [
        f"would remove {tmp_path / '.opencode' / 'plugins' / 'artifact-index.js'} (plugin file)",
        f"would remove the folder {tmp_path / '.opencode' / 'plugins'}, left empty",
        f"would remove the folder {tmp_path / '.opencode'}, left empty",
    ]
    assert (tmp_path / ".opencode" / "plugins" / "artifact-index.js").exists()


def _temporary(prefix: Path) -> Installation:
    return Installation("uv-cache", prefix, "file:///checkout", editable=False)


def test_a_copy_in_a_tools_cache_never_writes_its_own_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache" / "uv" / "archive-v0" / "x"
    (cache / "bin").mkdir(parents=True)
    monkeypatch.setattr(installer, "installation", lambda: _temporary(cache))
    monkeypatch.setattr(sys, "argv", [str(cache / "bin" / "artifact-index")])
    monkeypatch.setenv("PATH", str(cache / "bin"))
    with pytest.raises(InstallError, match=r"runs from a cache .* install it for good first"):
        installed_command()
    lasting = tmp_path / "bin"
    lasting.mkdir()
    (lasting / "artifact-index").write_text("#!/bin/sh\n")
    (lasting / "artifact-index").chmod(stat.S_IRWXU)
    monkeypatch.setenv("PATH", f"{cache / 'bin'}{os.pathsep}{lasting}")
    assert installed_command() == [str(lasting / "artifact-index")]


def test_claude_codes_plugin_folder_carries_a_license(tmp_path: Path) -> None:
    assert (
        cli(tmp_path, "install", "claude-code", "--plugin-dir", str(tmp_path / "p")).returncode == 0
    )
    license_text = (tmp_path / "p" / "LICENSE").read_text(encoding="utf-8")
    assert license_text.startswith("MIT License")
    manifest = json.loads((tmp_path / "p" / ".claude-plugin" / "plugin.json").read_text())
    assert manifest["license"] == "MIT" and "pypi.org" not in json.dumps(manifest)


def test_doctor_says_what_is_installed_where_and_whether_it_runs(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    assert cli(tmp_path, "install", "claude-code", "--local", cwd=project).returncode == 0
    healthy = cli(tmp_path, "doctor", cwd=project)
    assert healthy.returncode == 0, healthy.stdout
    settings = project / ".claude" / "settings.local.json"
    assert f"ok      claude-code (local): {settings} runs {EXECUTABLE} hook" in healthy.stdout
    assert "codex: not installed" in healthy.stdout and "no problem found" in healthy.stdout

    # The same hooks at the user scope too, running an artifact-index that is gone.
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", str(tmp_path))
        installer.install(
            "claude-code", "user", command=[str(tmp_path / "gone" / "artifact-index")]
        )
    sick = cli(tmp_path, "doctor", "--json", cwd=project)
    assert sick.returncode == 1
    report = json.loads(sick.stdout)
    problems = [f["text"] for f in report["findings"] if f["verdict"] == "problem"]
    assert report["problems"] == len(problems) == 2
    assert "does not exist (moved or uninstalled?): run install again" in problems[0]
    assert problems[1].startswith("installed at 2 scopes (user, local)")
