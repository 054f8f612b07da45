"""The compaction hooks of Claude Code, Codex and OpenCode, driven with the hook JSON each agent sends on stdin."""

from __future__ import annotations

import gzip
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

from artifact_index.ingestion.events import CompactionBoundary
from artifact_index.ingestion.loading import load_events
from artifact_index.live.store import SessionStore
from artifact_index.trail.tracker import Tracker
from summarizer.evaluation.probes import probe_summary
from summarizer.sections.session_facts import session_facts
from tests.support.paths import ROOT

EXAMPLES = ROOT / "examples"
FIXTURES = ROOT / "tests" / "fixtures"


def hook(
    payload: dict[str, object], *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "artifact_index", "hook", *args],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )


def test_claude_code_pre_compact_prints_the_trail_and_snapshots_it(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    # The input Claude Code sends a PreCompact hook.
    payload = {
        "session_id": "5b1e2c4d-8f3a-4e6b-9c2d-1a7f0e3b5c9d",
        "transcript_path": str(EXAMPLES / "claude-code-session.jsonl"),
        "cwd": "/home/dev/webapp",
        "permission_mode": "default",
        "hook_event_name": "PreCompact",
        "trigger": "auto",
        "custom_instructions": "",
    }
    done = hook(payload, "--store", str(store))
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("Keep every file path below in the summary")
    assert "src/auth.py" in done.stdout and "tests/test_auth.py" in done.stdout
    [row] = SessionStore(store).sessions()
    assert (row.session_id, row.changed) == ("5b1e2c4d-8f3a-4e6b-9c2d-1a7f0e3b5c9d", 2)
    assert [(c.phase, c.trigger, c.changed) for c in SessionStore(store).compactions(row.id)] == [
        ("pre", "auto", 2)
    ]


def test_claude_code_post_compact_scores_its_summary_and_logs_what_it_missed(
    corpus_dir: Path, tmp_path: Path
) -> None:
    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes(
        gzip.decompress(
            (corpus_dir / "claude_code" / "entire__f3df91827bd6_0.jsonl.gz").read_bytes()
        )
    )
    events = load_events(transcript)
    boundary = next(
        n for n, e in enumerate(events) if isinstance(e, CompactionBoundary) and e.sidechain is None
    )
    summary = events[boundary].summary  # type: ignore[union-attr]
    assert summary
    expected = probe_summary(
        summary, session_facts(Tracker(format="claude-code").feed_all(events[:boundary]))
    )
    store = tmp_path / "s.db"
    payload = {
        "session_id": "s",
        "transcript_path": str(transcript),
        "cwd": "/w",
        "hook_event_name": "PostCompact",
        "trigger": "auto",
        "compact_summary": summary,
    }
    done = hook(payload, "--store", str(store))
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith(
        f"artifact-index: the compaction summary scored {expected.overall:.2f}: "
    )
    [row] = SessionStore(store).sessions()
    [logged] = SessionStore(store).compactions(row.id)
    asked = [p for p in expected.probes if p.expected]
    assert (logged.phase, logged.summary_chars, logged.overall) == (
        "post",
        len(summary),
        expected.overall,
    )
    assert [(p["kind"], p["missing"]) for p in logged.probes] == [
        (p.kind, p.missing) for p in asked
    ]
    listed = subprocess.run(
        [
            sys.executable,
            "-m",
            "artifact_index",
            "sessions",
            "--compactions",
            "--store",
            str(store),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert f"the agent's summary scored {expected.overall:.2f}" in listed.stdout


def test_post_compact_without_a_summary_fails_open(tmp_path: Path) -> None:
    done = hook(
        {
            "transcript_path": str(EXAMPLES / "claude-code-session.jsonl"),
            "hook_event_name": "PostCompact",
        },
        "--store",
        str(tmp_path / "s.db"),
    )
    assert done.returncode == 0 and done.stdout == ""
    assert "no compact_summary" in done.stderr and len(done.stderr.splitlines()) == 1


def _codex_home(tmp_path: Path) -> tuple[Path, str]:
    session = json.loads((EXAMPLES / "codex-rollout.jsonl").read_text().splitlines()[0])["payload"][
        "id"
    ]
    day = tmp_path / "codex" / "sessions" / "2026" / "05" / "12"
    day.mkdir(parents=True)
    (day / f"rollout-2026-05-12T14-02-11-{session}.jsonl").write_bytes(
        (EXAMPLES / "codex-rollout.jsonl").read_bytes()
    )
    return tmp_path / "codex", session


def test_codex_session_start_after_compact_finds_the_rollout_when_transcript_path_is_null(
    tmp_path: Path,
) -> None:
    home, session = _codex_home(tmp_path)
    # Codex's SessionStart input: transcript_path is nullable.
    payload = {
        "session_id": session,
        "transcript_path": None,
        "cwd": "/home/alex/src/weather-cli",
        "hook_event_name": "SessionStart",
        "model": "gpt-5.5",
        "permission_mode": "default",
        "source": "compact",
    }
    done = hook(payload, "--agent", "codex", env={"CODEX_HOME": str(home)})
    assert done.returncode == 0 and done.stderr == ""
    answer = json.loads(done.stdout)
    assert answer["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    context = answer["hookSpecificOutput"]["additionalContext"]
    assert "weather/report.py" in context and "weather/units.py" in context


def test_codex_without_a_rollout_fails_open(tmp_path: Path) -> None:
    payload = {
        "session_id": "0000-none",
        "transcript_path": None,
        "hook_event_name": "SessionStart",
        "source": "compact",
    }
    done = hook(payload, "--agent", "codex", env={"CODEX_HOME": str(tmp_path)})
    assert done.returncode == 0 and done.stdout == "" and "no Codex rollout" in done.stderr


def fake_opencode(folder: Path, export: Path) -> dict[str, str]:
    """An `opencode` on PATH whose `export ID` prints a real export, after a line of its own as some versions do."""
    folder.mkdir(exist_ok=True)
    script = folder / "opencode"
    script.write_text(
        f"#!{sys.executable}\nimport sys\nassert sys.argv[1] == 'export'\n"
        f"print('Exporting session: ' + sys.argv[2])\nprint(open({str(export)!r}).read())\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return {"PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}


def test_opencode_compacting_gets_the_trail_of_the_exported_session(tmp_path: Path) -> None:
    export = FIXTURES / "opencode" / "session-export.json"
    session = json.loads(export.read_text())["info"]["id"]
    env = fake_opencode(tmp_path / "bin", export) | {
        "ARTIFACT_INDEX_STATE_HOME": str(tmp_path / "state")
    }
    done = hook(
        {"hook_event_name": "PreCompact", "session_id": session, "cwd": str(tmp_path)},
        "--agent",
        "opencode",
        "--store",
        str(tmp_path / "s.db"),
        env=env,
    )
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("Keep every file path below in the summary")
    kept = tmp_path / "state" / "opencode" / f"{session}.json"
    assert json.loads(kept.read_text())["info"]["id"] == session
    [row] = SessionStore(tmp_path / "s.db").sessions()
    assert (row.format, row.transcript) == ("opencode", str(kept.resolve()))


def test_the_kept_opencode_export_is_redacted_private_and_pruned(tmp_path: Path) -> None:
    """The export quotes the whole session: what is kept of it holds no secret and outlives no need."""
    sys.path.insert(0, str(ROOT / "tests"))
    from fake_secrets import fake_secrets

    secrets = fake_secrets(3)
    document = json.loads((FIXTURES / "opencode" / "session-export.json").read_text())
    session = document["info"]["id"]
    first = document["messages"][0]["parts"][0]
    first["text"] += "\n" + "\n".join(secret.context for secret in secrets)
    export = tmp_path / "export.json"
    export.write_text(json.dumps(document, indent=2))
    state = tmp_path / "state"
    (state / "opencode").mkdir(parents=True, mode=0o755)
    (state / "opencode").chmod(0o755)  # as an older version left it
    stale = state / "opencode" / "ses_stale.json"
    stale.write_text("{}")
    os.utime(stale, (0, 0))
    fresh = state / "opencode" / "ses_other.json"
    fresh.write_text("{}")
    env = fake_opencode(tmp_path / "bin", export) | {"ARTIFACT_INDEX_STATE_HOME": str(state)}

    done = hook(
        {"hook_event_name": "PreCompact", "session_id": session, "cwd": str(tmp_path)},
        "--agent",
        "opencode",
        "--store",
        str(tmp_path / "s.db"),
        env=env,
    )
    assert done.returncode == 0 and done.stderr == ""
    assert "src/title.ts" in done.stdout  # the trail is read from the redacted copy
    kept = state / "opencode" / f"{session}.json"
    text = kept.read_text()
    assert [s.kind for s in secrets if any(n in text for n in s.needles)] == []
    assert json.loads(text)["info"]["id"] == session
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert stat.S_IMODE(kept.parent.stat().st_mode) == 0o700
    assert not stale.exists() and fresh.exists()
    leaked = [s.kind for s in secrets if any(n in done.stdout for n in s.needles)]
    assert leaked == []


def test_opencode_compacting_exports_with_the_opencode_the_plugin_names_when_none_is_on_path(
    tmp_path: Path,
) -> None:
    # A real OpenCode 1.18.33 started by its full path gave its plugin a PATH without `opencode`; the plugin
    # names the binary it runs in instead.
    export = FIXTURES / "opencode" / "session-export.json"
    session = json.loads(export.read_text())["info"]["id"]
    fake_opencode(tmp_path / "bin", export)
    named = tmp_path / "bin" / "opencode"
    env = {
        "PATH": os.path.dirname(sys.executable),
        "ARTIFACT_INDEX_STATE_HOME": str(tmp_path / "state"),
    }
    payload = {"hook_event_name": "PreCompact", "session_id": session, "cwd": str(tmp_path)}
    done = hook({**payload, "opencode": str(named)}, "--agent", "opencode", env=env)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("Keep every file path below in the summary")
    # Only an OpenCode: a plugin input naming another program is not run.
    other = tmp_path / "bin" / "python-not-opencode"
    other.write_bytes(named.read_bytes())
    other.chmod(named.stat().st_mode)
    refused = hook({**payload, "opencode": str(other)}, "--agent", "opencode", env=env)
    assert (
        refused.returncode == 0
        and refused.stdout == ""
        and "the plugin named no OpenCode" in refused.stderr
    )


def test_an_unknown_agent_fails_open() -> None:
    done = hook(
        {"transcript_path": str(EXAMPLES / "claude-code-session.jsonl")}, "--agent", "cursor"
    )
    assert done.returncode == 0 and done.stdout == "" and "unknown agent 'cursor'" in done.stderr
