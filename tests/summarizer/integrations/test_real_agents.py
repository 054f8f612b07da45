"""The compaction hooks inside the real agents, each pointed at a fake model server on loopback.

``artifact-index install AGENT`` writes the hooks into a temporary home, the
agent runs non-interactively against :mod:`fake_models` (which answers a
request for a file with the agent's write tool, a compaction request with a
fixed summary, anything else with "Done."), and the tests read what the
agent sent its model and what the hooks left in the session store.

The agents are not installed here (CI has no npm, and nothing is installed at
test time): each test skips unless its agent's binary is found, by its
variable or on ``PATH``::

    npm install --prefix /tmp/agents @anthropic-ai/claude-code@2.1.328 @openai/codex@0.169.0 opencode-ai@1.18.33
    ARTIFACT_INDEX_CLAUDE=/tmp/agents/node_modules/.bin/claude ARTIFACT_INDEX_CODEX=/tmp/agents/node_modules/.bin/codex \
        ARTIFACT_INDEX_OPENCODE=/tmp/agents/node_modules/.bin/opencode pytest tests/summarizer/integrations/test_real_agents.py
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from artifact_index.ingestion.loading import open_transcript
from artifact_index.live.store import SessionStore
from artifact_index.trail.tracker import Tracker
from tests.support.fake_models import SUMMARY, FakeModels, Recorded, WriteRequest

TITLE = "# What this session has done so far (computed from the transcript by artifact-index)"
PRE_COMPACT_LEAD = "Keep every file path below in the summary"
# How the trail names the file the fake model had written (relative to the session's directory).
CREATED = "## Files created\n- `notes.txt`: first lines: `hello from the fake model`"
# What Claude Code echoes of a slash command's output into the conversation: after a manual /compact,
# PreCompact's output shows there, so it is cut out before asking whether the SessionStart context arrived.
_COMMAND_OUTPUT = re.compile(r"<local-command-stdout>.*?</local-command-stdout>", re.DOTALL)
_SECONDS = 180


def _agent(variable: str, name: str) -> str | None:
    return os.environ.get(variable) or shutil.which(name)


def _artifact_index() -> list[str]:
    beside = Path(sys.executable).parent / "artifact-index"
    return [str(beside)] if beside.exists() else [sys.executable, "-m", "artifact_index"]


def _home_env(home: Path, store: Path, **extra: str) -> dict[str, str]:
    """A clean environment: a temporary home, so nothing reads or touches the user's agent settings."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "ARTIFACT_INDEX_STORE": str(store),
        "LANG": "C.UTF-8",
        **extra,
    }


def _run(
    argv: list[str], env: dict[str, str], cwd: Path, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        argv,
        env=env,
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=_SECONDS,
        check=False,
    )
    assert done.returncode == 0, f"{argv[:3]} exited {done.returncode}: {done.stderr[-2000:]}"
    return done


def _stream(stdout: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]


# -- Claude Code -------------------------------------------------------------------------------------------
CLAUDE = _agent("ARTIFACT_INDEX_CLAUDE", "claude")
needs_claude = pytest.mark.skipif(
    CLAUDE is None,
    reason="Claude Code is not installed: set ARTIFACT_INDEX_CLAUDE to "
    "its `claude` (npm install @anthropic-ai/claude-code) or put it on PATH",
)


@dataclass
class ClaudeRun:
    """One Claude Code session, in three runs: a file written, ``/compact``, a question after it."""

    project: Path
    written: Path
    transcript: Path
    store: Path
    compact_events: list[dict[str, Any]]
    requests_before: list[Recorded]  # the first run's
    compaction_requests: list[Recorded]  # the /compact run's
    requests_after: list[Recorded]  # the question's, after the compaction


def _claude_session(
    root: Path, fake: FakeModels, layout: str = "settings"
) -> tuple[Path, dict[str, str], list[str]]:
    """A project, Claude Code's environment with our hooks installed, and its command line.

    ``layout`` is how the hooks are installed: ``settings`` merges them into the user's settings.json,
    ``plugin`` writes them as a plugin that the command line loads with ``--plugin-dir``.
    """
    assert CLAUDE is not None
    home, project = root / "home", root / "project"
    home.mkdir()
    project.mkdir()
    env = _home_env(
        home,
        root / "store.db",
        ANTHROPIC_BASE_URL=fake.url,
        ANTHROPIC_API_KEY="not-a-key-the-fake-ignores-it",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
    )
    where = ["--user"] if layout == "settings" else ["--plugin-dir", str(root / "plugin")]
    _run([*_artifact_index(), "install", "claude-code", *where], env, project)
    # Root may not use --dangerously-skip-permissions; allowing the one tool is enough to run unattended.
    claude = [CLAUDE, "--output-format", "stream-json", "--verbose", "--allowedTools", "Write"]
    if layout == "plugin":
        claude += where
    return project, env, [*claude, "-p"]


def _transcript(root: Path, session: str) -> Path:
    (transcript,) = (root / "home" / ".claude" / "projects").rglob(f"{session}.jsonl")
    return transcript


def _session_id(events: list[dict[str, Any]]) -> str:
    return str(next(event["session_id"] for event in events if event.get("type") == "result"))


@pytest.fixture(scope="module")
def claude(tmp_path_factory: pytest.TempPathFactory) -> ClaudeRun:
    root = tmp_path_factory.mktemp("claude")
    with FakeModels() as fake:
        project, env, claude = _claude_session(root, fake)
        written = project / "notes.txt"
        session = _session_id(
            _stream(
                _run([*claude, f"WRITE {written}: hello from the fake model"], env, project).stdout
            )
        )
        seen = len(fake.requests)
        compact = _stream(_run([*claude, "--resume", session, "/compact"], env, project).stdout)
        compacted = len(fake.requests)
        _run([*claude, "--resume", session, "What did you change?"], env, project)
        requests = list(fake.requests)
    return ClaudeRun(
        project,
        written,
        _transcript(root, session),
        root / "store.db",
        compact,
        requests[:seen],
        requests[seen:compacted],
        requests[compacted:],
    )


@pytest.fixture(scope="module", params=["settings", "plugin"])
def claude_auto(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[list[Recorded], Path]:
    """One run in which the model's reply to the write reports a context all but full: Claude Code compacts alone."""
    root = tmp_path_factory.mktemp("claude-auto")
    with FakeModels(tool_call_tokens=995_000) as fake:
        project, env, claude = _claude_session(root, fake, request.param)
        _run([*claude, f"WRITE {project / 'notes.txt'}: hello from the fake model"], env, project)
        requests = list(fake.requests)
    return requests, root / "store.db"


@needs_claude
def test_claude_code_ran_the_write_the_fake_model_asked_for(claude: ClaudeRun) -> None:
    assert claude.written.read_text() == "hello from the fake model"
    assert [r.path for r in claude.requests_before] == ["/v1/messages", "/v1/messages"]


@needs_claude
def test_its_transcript_reads_whole_with_the_file_created(claude: ClaudeRun) -> None:
    loaded = open_transcript(claude.transcript)
    events = list(loaded.events())
    assert loaded.adapter.name == "claude-code"
    assert loaded.skipped == []
    index = Tracker(format="claude-code").feed_all(events)
    assert [(entry.path, entry.status) for entry in index.changed_files()] == [
        ("notes.txt", "created")
    ]


@needs_claude
def test_pre_compact_prints_the_paths_into_the_compaction_request(claude: ClaudeRun) -> None:
    # Claude Code 2.1.328 appends a PreCompact hook's output to its summary prompt as "Additional Instructions".
    (compaction, *retries) = [
        r for r in claude.compaction_requests if "provide your summary" in r.text
    ]
    assert retries == [], "the fake summary has a <summary> block, so Claude Code asks once"
    instructions = compaction.text.split("Additional Instructions:", 1)[1]
    assert instructions.lstrip().startswith(PRE_COMPACT_LEAD)
    # A manual /compact's PreCompact output is echoed into the conversation too, so it is the paths alone.
    assert "Created: `notes.txt`" in instructions and TITLE not in instructions


@needs_claude
def test_after_a_manual_compact_the_new_context_holds_the_trail_once(claude: ClaudeRun) -> None:
    first = claude.requests_after[0].text
    echoed = "".join(_COMMAND_OUTPUT.findall(first))
    assert "Created: `notes.txt`" in echoed  # PreCompact's paths, as Claude Code echoed them
    assert first.count(TITLE) == 1 and first.count(CREATED) == 1


@needs_claude
def test_session_start_compact_hook_answers_with_the_trail_and_exit_zero(claude: ClaudeRun) -> None:
    responses = [
        e
        for e in claude.compact_events
        if e.get("subtype") == "hook_response" and e.get("hook_name") == "SessionStart:compact"
    ]
    assert [(e["exit_code"], e["outcome"]) for e in responses] == [(0, "success")]
    context = json.loads(responses[0]["stdout"])["hookSpecificOutput"]
    assert context["hookEventName"] == "SessionStart"
    assert (
        context["additionalContext"].startswith(TITLE) and CREATED in context["additionalContext"]
    )


@needs_claude
def test_the_trail_reaches_the_model_in_the_first_request_after_the_compaction(
    claude: ClaudeRun,
) -> None:
    first = claude.requests_after[0]
    shown = _COMMAND_OUTPUT.sub("", first.text)
    assert SUMMARY in shown  # the compaction took: its summary opens the new context
    assert TITLE + "\n\n" + CREATED in shown


@needs_claude
def test_the_hooks_snapshot_the_session_and_score_the_agents_summary_in_the_store(
    claude: ClaudeRun,
) -> None:
    store = SessionStore(claude.store)
    [row] = store.sessions()
    assert (row.transcript, row.changed) == (str(claude.transcript), 1)
    pre, post = store.compactions(row.id)
    assert (pre.phase, pre.trigger, pre.changed) == ("pre", "manual", 1)
    # The fake summary names no file, and PostCompact says so.
    assert (post.phase, post.trigger) == ("post", "manual")
    assert post.score_line() == "0.00: artifact 0/1 (missed: notes.txt)"


@needs_claude
def test_an_automatic_compaction_runs_the_same_hooks_and_the_next_request_carries_the_trail(
    claude_auto: tuple[list[Recorded], Path],
) -> None:
    requests, store_path = claude_auto
    _write, compaction, after = requests
    assert "provide your summary" in compaction.text
    assert (
        compaction.text.split("Additional Instructions:", 1)[1]
        .lstrip()
        .startswith(PRE_COMPACT_LEAD)
    )
    assert CREATED in compaction.text
    assert SUMMARY in after.text and TITLE + "\n\n" + CREATED in _COMMAND_OUTPUT.sub("", after.text)
    store = SessionStore(store_path)
    [row] = store.sessions()
    assert [(c.phase, c.trigger) for c in store.compactions(row.id)] == [
        ("pre", "auto"),
        ("post", "auto"),
    ]


# -- Codex -------------------------------------------------------------------------------------------------
CODEX = _agent("ARTIFACT_INDEX_CODEX", "codex")
needs_codex = pytest.mark.skipif(
    CODEX is None,
    reason="Codex is not installed: set ARTIFACT_INDEX_CODEX to its "
    "`codex` (npm install @openai/codex) or put it on PATH",
)
_CODEX_CONFIG = """model = "fake-model"
model_provider = "fake"
# The fake model reports a context this full after its tool call, so Codex compacts before it goes on.
model_auto_compact_token_limit = 100000

[model_providers.fake]
name = "fake"
base_url = "{url}/v1"
wire_api = "responses"
env_key = "FAKE_MODEL_KEY"
"""


def _codex_writer(request: WriteRequest) -> tuple[str, dict[str, Any]]:
    # Codex offers a model it has no metadata for no apply_patch tool, but intercepts apply_patch run by exec_command.
    patch = f"*** Begin Patch\n*** Add File: {request.path}\n+{request.content}\n*** End Patch"
    return "exec_command", {"cmd": f"apply_patch <<'EOF'\n{patch}\nEOF\n"}


@dataclass
class CodexRun:
    written: Path
    rollout: Path
    requests: list[Recorded]  # the write, the compaction, the request after it
    events: list[dict[str, Any]]


def _codex_run(root: Path, *, trust: str) -> CodexRun:
    """One `codex exec` that writes a file and compacts on its own.

    ``trust`` is how our hook gets past Codex's review: ``bypass`` (``codex exec
    --dangerously-bypass-hook-trust``), ``install`` (``artifact-index install codex --trust``) or ``none``.
    """
    assert CODEX is not None
    home, codex_home, project = root / "home", root / "codex", root / "project"
    for folder in (home, codex_home, project):
        folder.mkdir()
    written = project / "notes.txt"
    with FakeModels(writer=_codex_writer, tool_call_tokens=200_000) as fake:
        (codex_home / "config.toml").write_text(_CODEX_CONFIG.format(url=fake.url))
        env = _home_env(
            home, root / "store.db", CODEX_HOME=str(codex_home), FAKE_MODEL_KEY="not-a-key"
        )
        env["PATH"] = (
            f"{Path(CODEX).parent}{os.pathsep}{env['PATH']}"  # where --trust looks for Codex
        )
        _run(
            [
                *_artifact_index(),
                "install",
                "codex",
                "--user",
                *(["--trust"] if trust == "install" else []),
            ],
            env,
            project,
        )
        bypass = ["--dangerously-bypass-hook-trust"] if trust == "bypass" else []
        done = _run(
            [
                CODEX,
                "exec",
                *bypass,
                "--json",
                "--skip-git-repo-check",
                "--dangerously-bypass-approvals-and-sandbox",
                f"WRITE {written}: hello from the fake model",
            ],
            env,
            project,
            stdin="",
        )
        requests = list(fake.requests)
    (rollout,) = (codex_home / "sessions").rglob("rollout-*.jsonl")
    return CodexRun(written, rollout, requests, _stream(done.stdout))


@pytest.fixture(scope="module")
def codex(tmp_path_factory: pytest.TempPathFactory) -> CodexRun:
    return _codex_run(tmp_path_factory.mktemp("codex"), trust="bypass")


@needs_codex
def test_codex_wrote_the_file_and_compacted_on_its_own(codex: CodexRun) -> None:
    assert codex.written.read_text() == "hello from the fake model\n"
    assert [r.path for r in codex.requests] == ["/v1/responses"] * 3
    assert "CONTEXT CHECKPOINT COMPACTION" in codex.requests[1].text


@needs_codex
def test_codex_session_start_compact_puts_the_trail_into_the_request_after_the_compaction(
    codex: CodexRun,
) -> None:
    after = codex.requests[2].body["input"]
    ours = [item for item in after if TITLE in json.dumps(item, ensure_ascii=False)]
    # Codex adds a hook's additionalContext as a developer message of its own.
    assert [(item["type"], item["role"]) for item in ours] == [("message", "developer")]
    assert CREATED in ours[0]["content"][0]["text"]
    assert SUMMARY in codex.requests[2].text


@needs_codex
def test_codex_rollout_reads_whole_and_the_hook_found_it(codex: CodexRun) -> None:
    loaded = open_transcript(codex.rollout)
    index = Tracker(format="codex").feed_all(list(loaded.events()))
    assert (loaded.adapter.name, loaded.skipped) == ("codex", [])
    assert [(entry.path, entry.status) for entry in index.changed_files()] == [
        ("notes.txt", "created")
    ]


@needs_codex
def test_codex_runs_our_hook_only_once_it_is_trusted(tmp_path: Path) -> None:
    # What the installer warns about: without trust (or the bypass), `codex exec` compacts without the trail.
    untrusted = _codex_run(tmp_path, trust="none")
    assert "CONTEXT CHECKPOINT COMPACTION" in untrusted.requests[1].text
    assert TITLE not in untrusted.requests[2].text


@needs_codex
def test_install_codex_with_trust_has_codex_run_the_hook_without_a_bypass(tmp_path: Path) -> None:
    trusted = _codex_run(tmp_path, trust="install")
    assert "CONTEXT CHECKPOINT COMPACTION" in trusted.requests[1].text
    assert TITLE + "\n\n" + CREATED in trusted.requests[2].text
    config = (tmp_path / "codex" / "config.toml").read_text()
    assert f'[hooks.state."{tmp_path / "codex" / "hooks.json"}:session_start:0:0"]' in config


# -- OpenCode ----------------------------------------------------------------------------------------------
OPENCODE = _agent("ARTIFACT_INDEX_OPENCODE", "opencode")
needs_opencode = pytest.mark.skipif(
    OPENCODE is None,
    reason="OpenCode is not installed: set ARTIFACT_INDEX_OPENCODE "
    "to its `opencode` (npm install opencode-ai) or put it on PATH",
)
# Its Anthropic provider pointed at the fake; a context of 100,000 tokens, which the fake's reply to the write
# says is exceeded, so OpenCode compacts on its own.
_OPENCODE_CONFIG = {
    "provider": {
        "anthropic": {
            "options": {"baseURL": "{url}/v1", "apiKey": "not-a-key"},
            "models": {
                "fake-model": {"name": "fake", "limit": {"context": 100_000, "output": 8_000}}
            },
        }
    },
    "model": "anthropic/fake-model",
    "autoupdate": False,
    "share": "disabled",
}
# Nothing but the fake model: no model list, update, language server or default plugin from the network.
_OPENCODE_OFFLINE = {
    f"OPENCODE_DISABLE_{name}": "1"
    for name in ("MODELS_FETCH", "AUTOUPDATE", "LSP_DOWNLOAD", "DEFAULT_PLUGINS", "SHARE")
}


@dataclass
class OpenCodeRun:
    root: Path
    written: Path
    store: Path
    session: str
    env: dict[str, str]
    requests: list[Recorded]


@pytest.fixture(scope="module")
def opencode(tmp_path_factory: pytest.TempPathFactory) -> OpenCodeRun:
    assert OPENCODE is not None
    root = tmp_path_factory.mktemp("opencode")
    home, project = root / "home", root / "project"
    home.mkdir()
    project.mkdir()
    written = project / "notes.txt"
    with FakeModels(
        writer=lambda w: ("write", {"filePath": w.path, "content": w.content}),
        tool_call_tokens=150_000,
    ) as fake:
        config = json.dumps(_OPENCODE_CONFIG).replace("{url}", fake.url)
        (project / "opencode.json").write_text(config)
        env = _home_env(home, root / "store.db", **_OPENCODE_OFFLINE)
        _run([*_artifact_index(), "install", "opencode", "--user"], env, project)
        # Run by its path: whether or not `opencode` is on PATH, the plugin names the binary it runs in.
        done = _run(
            [OPENCODE, "run", "--format", "json", f"WRITE {written}: hello from the fake model"],
            env,
            project,
            stdin="",
        )
        requests = list(fake.requests)
    session = next(event["sessionID"] for event in _stream(done.stdout) if event.get("sessionID"))
    return OpenCodeRun(root, written, root / "store.db", session, env, requests)


@needs_opencode
def test_opencode_wrote_the_file_and_compacted_on_its_own(opencode: OpenCodeRun) -> None:
    assert opencode.written.read_text() == "hello from the fake model"
    assert len([r for r in opencode.requests if "anchored summary" in r.text]) == 1


@needs_opencode
def test_the_opencode_plugin_puts_the_trail_into_the_compaction_prompt(
    opencode: OpenCodeRun,
) -> None:
    (compaction,) = [r for r in opencode.requests if "anchored summary" in r.text]
    prompt = compaction.body["messages"][-1]["content"][-1]["text"]
    # OpenCode appends the plugin's context after its own instructions.
    trail = prompt.split(PRE_COMPACT_LEAD, 1)[1]
    assert TITLE in trail and CREATED in trail


@needs_opencode
def test_the_opencode_hook_exported_and_snapshotted_the_session(opencode: OpenCodeRun) -> None:
    store = SessionStore(opencode.store)
    [row] = store.sessions()
    assert (row.format, row.changed) == ("opencode", 1)
    assert [(c.phase, c.changed) for c in store.compactions(row.id)] == [("pre", 1)]


def _free_port() -> int:
    with (
        socket.socket() as probe
    ):  # `opencode serve --port 0` listens on 4096, so a free port is picked here
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@needs_opencode
def test_a_compaction_asked_of_opencodes_server_gets_the_trail_too(opencode: OpenCodeRun) -> None:
    # What the TUI's /compact asks: POST /session/ID/summarize, here on `opencode serve` on loopback.
    assert OPENCODE is not None
    project = opencode.root / "project"
    with FakeModels() as fake:
        (project / "opencode.json").write_text(
            json.dumps(_OPENCODE_CONFIG).replace("{url}", fake.url)
        )
        port = _free_port()
        with subprocess.Popen(
            [OPENCODE, "serve", "--port", str(port), "--hostname", "127.0.0.1"],
            env=opencode.env,
            cwd=project,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        ) as server:
            try:
                assert server.stdout is not None
                for line in server.stdout:  # it says where it listens once it is ready
                    if f"listening on http://127.0.0.1:{port}" in line:
                        break
                request = urllib.request.Request(
                    f"http://127.0.0.1:{port}/session/{opencode.session}/summarize",
                    method="POST",
                    data=json.dumps({"providerID": "anthropic", "modelID": "fake-model"}).encode(),
                    headers={"content-type": "application/json"},
                )
                with urllib.request.urlopen(request, timeout=_SECONDS) as answer:
                    assert json.load(answer) is True
            finally:
                server.terminate()
        requests = list(fake.requests)
    # The session has a summary already, so OpenCode asks for it to be updated: a prompt of other words.
    (compaction,) = [r for r in requests if PRE_COMPACT_LEAD in r.text]
    assert TITLE + "\n\n" + CREATED in compaction.text.split(PRE_COMPACT_LEAD, 1)[1]
    store = SessionStore(opencode.store)
    [row] = store.sessions()
    assert [c.phase for c in store.compactions(row.id)] == ["pre", "pre"]
