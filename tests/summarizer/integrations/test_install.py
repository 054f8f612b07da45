"""`artifact-index install|uninstall`: hooks merged into the agents' own files, on temporary homes and projects."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from artifact_index.presentation.cli import main
from summarizer.integrations.install import install, uninstall
from tests.support.paths import ROOT

EXAMPLES = ROOT / "examples"
FIXTURES = ROOT / "tests" / "fixtures"
EXECUTABLE = str(Path(sys.executable).parent / "artifact-index")
THEIRS = {
    "model": "opus",
    "hooks": {
        "SessionStart": [
            {"matcher": "startup", "hooks": [{"type": "command", "command": "echo welcome"}]}
        ],
        "PreCompact": [
            {"matcher": "manual", "hooks": [{"type": "command", "command": "./save-notes.sh"}]}
        ],
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "lint-command"}]}
        ],
    },
}


def cli(home: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``artifact-index ARGS`` with ``home`` as the user's home, in this process (the installer
    starts nothing; the hooks it writes are run as the agents run them, in processes of their own)."""
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", str(home))
        patch.setenv("CODEX_HOME", str(home / ".codex"))
        patch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
        if cwd is not None:
            patch.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as exit:
                code = int(exit.code or 0)
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


def run_installed(
    command: str, payload: dict[str, object], **env: str
) -> subprocess.CompletedProcess[str]:
    """Run a hook command the way an agent does: through the shell, the hook input on standard input."""
    return subprocess.run(
        command,
        shell=True,
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **env},
    )


def test_claude_code_hooks_join_the_users_settings_and_leave_exactly_as_they_came(
    tmp_path: Path,
) -> None:
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps(THEIRS, indent=4))
    done = cli(tmp_path, "install", "claude-code")
    assert done.returncode == 0, done.stderr
    merged = json.loads(settings.read_text())
    assert (
        merged["model"] == "opus" and merged["hooks"]["PreToolUse"] == THEIRS["hooks"]["PreToolUse"]
    )
    ours = [
        (event, group["matcher"], hook["command"])
        for event, groups in merged["hooks"].items()
        for group in groups
        for hook in group["hooks"]
        if "artifact-index" in hook["command"]
    ]
    assert ours == [
        ("SessionStart", "compact", f"{EXECUTABLE} hook"),
        ("PreCompact", "", f"{EXECUTABLE} hook"),
        ("PostCompact", "", f"{EXECUTABLE} hook"),
    ]
    assert merged["hooks"]["SessionStart"][0] == THEIRS["hooks"]["SessionStart"][0]

    before = settings.read_bytes()
    again = cli(tmp_path, "install", "claude-code", "--user")
    assert again.returncode == 0 and again.stdout.startswith("already installed")
    assert settings.read_bytes() == before

    done = cli(tmp_path, "uninstall", "claude-code")
    assert done.returncode == 0 and done.stdout.startswith(
        "removed SessionStart, PreCompact, PostCompact"
    )
    assert json.loads(settings.read_text()) == THEIRS


def test_installing_from_another_environment_replaces_the_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    install("claude-code", command=["/old/venv/bin/artifact-index"])
    change = install("claude-code", command=[EXECUTABLE])
    assert change.done == "updated"
    commands = [
        hook["command"]
        for groups in json.loads((tmp_path / ".claude" / "settings.json").read_text())[
            "hooks"
        ].values()
        for group in groups
        for hook in group["hooks"]
    ]
    assert commands == [f"{EXECUTABLE} hook"] * 3
    assert uninstall("claude-code").done == "removed"
    # Install made the file, and it holds nothing else: uninstall takes it away again.
    assert not (tmp_path / ".claude" / "settings.json").exists()
    assert uninstall("claude-code").done == "absent"


def test_claude_code_scopes_are_claude_codes_own_user_project_and_local(tmp_path: Path) -> None:
    project = tmp_path / "webapp"
    (project / ".claude").mkdir(parents=True)
    shared = project / ".claude" / "settings.json"
    shared.write_text(json.dumps(THEIRS))
    assert cli(tmp_path, "install", "claude-code", "--project", cwd=project).returncode == 0
    merged = json.loads(shared.read_text())
    assert merged["model"] == "opus" and "PreToolUse" in merged["hooks"]
    assert any(
        "artifact-index" in hook["command"]
        for group in merged["hooks"]["SessionStart"]
        for hook in group["hooks"]
    )
    assert not (project / ".claude" / "settings.local.json").exists()
    assert not (tmp_path / ".claude" / "settings.json").exists()

    assert cli(tmp_path, "install", "claude-code", "--local", cwd=project).returncode == 0
    assert (
        "PostCompact"
        in json.loads((project / ".claude" / "settings.local.json").read_text())["hooks"]
    )
    assert cli(tmp_path, "uninstall", "claude-code", "--project", cwd=project).returncode == 0
    assert json.loads(shared.read_text()) == THEIRS


def test_only_claude_code_has_a_local_scope(tmp_path: Path) -> None:
    refused = cli(tmp_path, "install", "codex", "--local", cwd=tmp_path)
    assert refused.returncode != 0
    assert refused.stderr.strip().count("\n") == 0 and "no local scope" in refused.stderr
    assert not (tmp_path / ".codex").exists()


def test_the_installed_claude_code_hooks_answer_what_claude_code_sends(tmp_path: Path) -> None:
    project = tmp_path / "webapp"
    project.mkdir()
    assert cli(tmp_path, "install", "claude-code", "--local", cwd=project).returncode == 0
    settings = json.loads((project / ".claude" / "settings.local.json").read_text())
    commands = {
        event: groups[0]["hooks"][0]["command"] for event, groups in settings["hooks"].items()
    }
    transcript = str(EXAMPLES / "claude-code-session.jsonl")
    common = {
        "session_id": "5b1e2c4d-8f3a-4e6b-9c2d-1a7f0e3b5c9d",
        "transcript_path": transcript,
        "cwd": "/home/dev/webapp",
        "permission_mode": "default",
    }
    store = str(tmp_path / "s.db")
    start = run_installed(
        commands["SessionStart"],
        {**common, "hook_event_name": "SessionStart", "source": "compact"},
        ARTIFACT_INDEX_STORE=store,
    )
    assert "src/auth.py" in json.loads(start.stdout)["hookSpecificOutput"]["additionalContext"]
    pre = run_installed(
        commands["PreCompact"],
        {**common, "hook_event_name": "PreCompact", "trigger": "manual", "custom_instructions": ""},
        ARTIFACT_INDEX_STORE=store,
    )
    assert pre.returncode == 0 and "tests/test_auth.py" in pre.stdout
    post = run_installed(
        commands["PostCompact"],
        {
            **common,
            "hook_event_name": "PostCompact",
            "trigger": "manual",
            "compact_summary": "We fixed src/auth.py.",
        },
        ARTIFACT_INDEX_STORE=store,
    )
    assert post.returncode == 0 and "missed: tests/test_auth.py" in post.stdout, post.stderr


def test_codex_hooks_json_runs_the_trail_back_in_after_compact(tmp_path: Path) -> None:
    hooks = tmp_path / ".codex" / "hooks.json"
    hooks.parent.mkdir()
    hooks.write_text(
        json.dumps({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify"}]}]}})
    )
    installed = cli(tmp_path, "install", "codex")
    assert installed.returncode == 0
    # Codex 0.169 skips an untrusted hook in `codex exec` without a word (test_real_agents.py), so the
    # installer says how it gets trusted.
    assert (
        "only once you trust it" in installed.stdout
        and "--dangerously-bypass-hook-trust" in installed.stdout
    )
    written = json.loads(hooks.read_text())
    assert written["hooks"]["Stop"] == [{"hooks": [{"type": "command", "command": "notify"}]}]
    [group] = written["hooks"]["SessionStart"]
    assert (
        group["matcher"] == "compact"
        and group["hooks"][0]["command"] == f"{EXECUTABLE} hook --agent codex"
    )
    rollout = json.loads((EXAMPLES / "codex-rollout.jsonl").read_text().splitlines()[0])["payload"][
        "id"
    ]
    folder = tmp_path / ".codex" / "sessions" / "2026" / "05" / "12"
    folder.mkdir(parents=True)
    shutil.copy(
        EXAMPLES / "codex-rollout.jsonl", folder / f"rollout-2026-05-12T14-02-11-{rollout}.jsonl"
    )
    answer = run_installed(
        group["hooks"][0]["command"],
        {
            "session_id": rollout,
            "transcript_path": None,
            "cwd": "/home/alex/src/weather-cli",
            "hook_event_name": "SessionStart",
            "model": "gpt-5.5",
            "permission_mode": "default",
            "source": "compact",
        },
        CODEX_HOME=str(tmp_path / ".codex"),
    )
    assert (
        "weather/units.py" in json.loads(answer.stdout)["hookSpecificOutput"]["additionalContext"]
    )
    assert cli(tmp_path, "uninstall", "codex").returncode == 0
    assert json.loads(hooks.read_text()) == {
        "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify"}]}]}
    }


def test_a_settings_file_that_is_not_json_is_left_alone(tmp_path: Path) -> None:
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"hooks": {,}')
    done = cli(tmp_path, "install", "claude-code")
    assert (
        done.returncode == 1
        and "is not valid JSON (line 1" in done.stderr
        and "Traceback" not in done.stderr
    )
    assert settings.read_text() == '{"hooks": {,}'


def test_claude_codes_plugin_layout_carries_the_same_hooks(tmp_path: Path) -> None:
    done = cli(tmp_path, "install", "claude-code", "--plugin-dir", str(tmp_path / "plugin"))
    assert done.returncode == 0, done.stderr
    manifest = json.loads((tmp_path / "plugin" / ".claude-plugin" / "plugin.json").read_text())
    assert manifest["name"] == "artifact-index"
    plugin = json.loads((tmp_path / "plugin" / "hooks" / "hooks.json").read_text())
    shipped = json.loads(
        (
            ROOT
            / "summarizer"
            / "integrations"
            / "plugins"
            / "claude-code"
            / "hooks"
            / "hooks.json"
        ).read_text()
    )
    assert plugin["hooks"].keys() == shipped["hooks"].keys()
    assert {
        h["command"] for groups in plugin["hooks"].values() for g in groups for h in g["hooks"]
    } == {f"{EXECUTABLE} hook"}


NODE_HARNESS = """
const plugin = await import(process.argv[2]);
const hooks = await plugin.ArtifactIndexPlugin({ directory: process.argv[3] });
const output = { context: [] };
await hooks["experimental.session.compacting"]({ sessionID: process.argv[4] }, output);
console.log(JSON.stringify(output));
"""


@pytest.fixture
def node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.skip("node is not installed; the OpenCode plugin is checked with it")
    return found


def test_the_opencode_plugin_pushes_the_trail_into_the_compaction_context(
    tmp_path: Path, node: str
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    done = cli(tmp_path, "install", "opencode", "--project", "--project-dir", str(project))
    assert done.returncode == 0, done.stderr
    plugin = project / ".opencode" / "plugins" / "artifact-index.js"
    assert f"const COMMAND = {json.dumps([EXECUTABLE])};" in plugin.read_text()
    assert subprocess.run([node, "--check", str(plugin)], capture_output=True).returncode == 0

    export = FIXTURES / "opencode" / "session-export.json"
    session = json.loads(export.read_text())["info"]["id"]
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "opencode"  # `opencode export ID`, as the real one answers it
    fake.write_text(f"#!{sys.executable}\nimport sys\nprint(open({str(export)!r}).read())\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    harness = tmp_path / "harness.mjs"
    harness.write_text(NODE_HARNESS)
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "ARTIFACT_INDEX_STATE_HOME": str(tmp_path / "state"),
        "ARTIFACT_INDEX_STORE": str(tmp_path / "s.db"),
    }
    ran = subprocess.run(
        [node, str(harness), plugin.as_uri(), str(project), session],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert ran.returncode == 0, ran.stderr
    [context] = json.loads(ran.stdout)["context"]
    assert context.startswith("Keep every file path below in the summary")

    # Whatever goes wrong, the compaction goes on: no context, no exception.
    broken = {**env, "PATH": os.environ["PATH"]}  # no `opencode` to export with
    ran = subprocess.run(
        [node, str(harness), plugin.as_uri(), str(project), session],
        capture_output=True,
        text=True,
        timeout=120,
        env=broken,
    )
    assert ran.returncode == 0 and json.loads(ran.stdout) == {"context": []}
    assert "opencode` is not on PATH" in ran.stderr

    assert (
        cli(
            tmp_path, "uninstall", "opencode", "--project", "--project-dir", str(project)
        ).returncode
        == 0
    )
    assert not plugin.exists()


def test_the_shipped_opencode_plugin_is_valid_javascript(node: str) -> None:
    shipped = ROOT / "summarizer" / "integrations" / "plugins" / "opencode" / "artifact-index.js"
    checked = subprocess.run([node, "--check", str(shipped)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


def test_a_plugin_file_of_someone_else_is_never_overwritten(tmp_path: Path) -> None:
    foreign = tmp_path / ".config" / "opencode" / "plugins" / "artifact-index.js"
    foreign.parent.mkdir(parents=True)
    foreign.write_text("export const Mine = async () => ({});\n")
    done = cli(tmp_path, "install", "opencode")
    assert done.returncode == 1 and "is not artifact-index's plugin" in done.stderr
    assert cli(tmp_path, "uninstall", "opencode").returncode == 1
    assert foreign.read_text() == "export const Mine = async () => ({});\n"


def test_install_codex_trust_without_codex_installs_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable))  # no `codex` to ask
    done = cli(tmp_path, "install", "codex", "--trust")
    # --trust cannot be honoured: nothing is half done, and the sentence says what to do instead.
    assert done.returncode == 1
    assert "`codex` is not on PATH: nothing was installed" in done.stderr
    assert "install without --trust" in done.stderr
    assert not (tmp_path / ".codex").exists()


def test_a_trust_that_codex_refuses_undoes_the_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    codex = bin_dir / "codex"
    codex.write_text("#!/bin/sh\nexit 3\n")  # its app-server ends before answering
    codex.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.path.dirname(sys.executable)}")
    home = tmp_path / "home"
    home.mkdir()
    done = cli(home, "install", "codex", "--trust")
    assert done.returncode == 1
    assert "Codex could not trust the hook" in done.stderr and "not installed" in done.stderr
    assert not (home / ".codex").exists()


def test_trust_is_for_codex_only(tmp_path: Path) -> None:
    done = cli(tmp_path, "install", "claude-code", "--trust")
    assert done.returncode == 2 and "--trust is for codex" in done.stderr
    assert not (tmp_path / ".claude" / "settings.json").exists()
