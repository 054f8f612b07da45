"""No secret leaves: every kind of fake secret, planted in places of a session, reaches no surface.

For each format with a transcript writer (Claude Code, Codex, OpenCode, an
Anthropic and an OpenAI request body), one session holds every kind of
``fake_secrets.KINDS`` (more than forty), each in three places of
``planted_secrets.PLACES`` (a dozen, every one used: user and assistant text, thinking,
tool input and output, files written and edited, shell commands, errors,
test output, todo items, path components), each planting a value of its
own.  Every surface then runs on it (``planted_secrets.surfaces``): the
views, summaries offline and through the real ``anthropic`` SDK against a
local fake API (whose requests are checked too), the hook events and what
they store, the session store, the HTTP API and the MCP server, and
``compact`` with its state for request bodies.  A control run with
``--no-redact`` must find planted values on every surface (so this test can
fail); the redacted run must find none.  The quick run takes one format
with each kind in one place, a group of surfaces per test; ``-m slow`` runs them all.  The formats without a writer get
the kinds planted into their fixtures and the engine's views checked.

``pytest -s`` prints the table of cells (kind and place) per surface.
"""

from __future__ import annotations

import io
import json
import os
import random
import string
import uuid
from pathlib import Path
from typing import Any

import pytest
from fake_secrets import FakeSecret, fake_secrets

from artifact_index.presentation.cli import main
from tests.support.fake_anthropic import FakeAnthropic, tool_reply
from tests.support.paths import FIXTURES
from tests.support.planted_secrets import (
    PLACES,
    SURFACE_GROUPS,
    cells,
    planted_session,
    surfaces,
)
from tests.support.transcript_writers import ROOT, WRITERS, Step

SECRETS = fake_secrets()


def _table(
    format_name: str, plantings: int, control: dict[str, set[Any]], leaked: dict[str, set[Any]]
) -> str:
    rows = [
        f"{format_name}: {plantings} plantings; per surface: reached without redaction / leaked with it"
    ]
    rows += [
        f"  {surface:<52} {len(control[surface]):>4} / {len(leaked.get(surface, ())):>3}"
        for surface in control
    ]
    return "\n".join(rows)


# The quick run: one format, each kind in one place (every place still holds some), every
# surface, a group of surfaces per test (so no one test takes long, and they run side by side);
# the slow run: every format, each kind in three places, all surfaces in one test.
@pytest.mark.parametrize(
    ("format_name", "places_per_kind", "groups"),
    [
        *(
            pytest.param("claude-code", 1, (group,), id=f"claude-code-quick-{group}")
            for group in SURFACE_GROUPS
        ),
        *(
            pytest.param(name, 3, SURFACE_GROUPS, id=name, marks=pytest.mark.slow)
            for name in sorted(WRITERS)
        ),
    ],
)
def test_no_surface_of_any_format_leaks_a_planted_secret(
    format_name: str,
    places_per_kind: int,
    groups: tuple[str, ...],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    transcript, plantings = planted_session(format_name, tmp_path, places_per_kind=places_per_kind)
    assert len({p.kind for p in plantings}) >= 40
    assert len({p.place for p in plantings}) == len(PLACES) >= 10

    control_outputs = surfaces(
        format_name,
        transcript,
        tmp_path / "control",
        capsys,
        monkeypatch,
        redact=False,
        groups=groups,
    )
    outputs = surfaces(
        format_name,
        transcript,
        tmp_path / "redacted",
        capsys,
        monkeypatch,
        redact=True,
        groups=groups,
    )
    control = {surface: cells(plantings, text) for surface, text in control_outputs.items()}
    leaked = {
        surface: found for surface, text in outputs.items() if (found := cells(plantings, text))
    }

    table = _table(format_name, len(plantings), control, leaked)
    with capsys.disabled():
        print("\n" + table)
    if os.environ.get("ARTIFACT_INDEX_LEAK_TABLE"):
        with open(os.environ["ARTIFACT_INDEX_LEAK_TABLE"], "a", encoding="utf-8") as out:
            out.write(
                json.dumps(
                    {
                        "format": format_name,
                        "plantings": len(plantings),
                        "surfaces": {s: [len(control[s]), len(leaked.get(s, ()))] for s in control},
                    }
                )
                + "\n"
            )

    if os.environ.get("ARTIFACT_INDEX_LEAK_DETAILS"):
        with open(os.environ["ARTIFACT_INDEX_LEAK_DETAILS"], "a", encoding="utf-8") as out:
            for surface in leaked:
                out.writelines(
                    f"{format_name} | {surface} | {line}\n"
                    for line in _shown(plantings, outputs[surface])
                )
    # The control run finds planted values on every surface: each check below can fail.
    assert [surface for surface, found in control.items() if not found] == []
    assert {surface: _shown(plantings, outputs[surface])[:6] for surface in leaked} == {}


def _shown(plantings: list[Any], text: str) -> list[str]:
    """Each leaked planting with the text around it, to see how it got out."""
    found = []
    for planting in plantings:
        for needle in planting.secret.needles:
            at = text.find(needle)
            if at >= 0:
                around = text[max(0, at - 70) : at + len(needle) + 30].replace("\n", "⏎")
                found.append(f"{planting.kind} in {planting.place}: …{around}…")
                break
    return found


def test_paths_with_a_secret_component_stay_distinct_and_keep_their_other_components(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    transcript, plantings = planted_session("claude-code", tmp_path)
    main(["--no-redact", "files", str(transcript), "--json"])
    plain = json.loads(capsys.readouterr().out)["files"]
    main(["files", str(transcript), "--json"])
    redacted = json.loads(capsys.readouterr().out)["files"]
    components = [p for p in plantings if p.place == "path component"]
    assert len(components) >= 20
    uploads = [f["path"] for f in redacted if f["path"].startswith("uploads/")]
    assert (
        len(uploads)
        == len(components)
        == len({f["path"] for f in plain if f["path"].startswith("uploads/")})
    )
    assert len(set(uploads)) == len(uploads)  # no two paths became one
    assert all(p.startswith("uploads/") and p.endswith("/photo.jpg") for p in uploads)
    assert not cells(plantings, json.dumps(redacted))


# -- the formats without a writer: the kinds planted into their fixtures ------------------------

TRANSCRIPTS = {
    "swe-agent": "swe_agent/editor-1x.traj",
    "mini-swe-agent": "mini_swe_agent/v1.traj.json",
    "openhands": "openhands/legacy.json",
    "aider": "aider/chat.history.md",
    "cline": "cline/api_conversation_history.json",
    "cline-ui": "cline-ui/ui_messages.json",
    "gemini-cli": "gemini_cli/checkpoint-release.json",
    "copilot-cli": "copilot_cli/events.jsonl",
    "entire-compact": "entire_compact/transcript.jsonl",
    "git-ai-note": "git_ai_note/claude-with-results.txt",
    "amp": "other_agents/amp.json",
    "cursor": "other_agents/cursor.jsonl",
    "windsurf": "other_agents/windsurf.jsonl",
}
_UNTOUCHED_KEYS = {
    "type",
    "role",
    "id",
    "uuid",
    "name",
    "tool",
    "kind",
    "status",
    "say",
    "ask",
    "call_id",
    "tool_use_id",
    "tool_call_id",
    "toolCallId",
    "sessionId",
    "parentUuid",
    "model",
    "cwd",
    "path",
    "file_path",
    "filePath",
    "timestamp",
    "action",
    "state",
    "recipient_name",
    "agent",
}
VIEWS = ["files", "symbols", "errors", "decisions", "tasks", "show", "refetch"]


def _plant(value: Any, counter: list[int], key: str | None = None) -> Any:
    """Every text of a JSON value with one of the secrets added (identifiers and paths left alone)."""
    if isinstance(value, dict):
        return {k: _plant(v, counter, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_plant(v, counter, key) for v in value]
    if isinstance(value, str) and key not in _UNTOUCHED_KEYS and (" " in value or "\n" in value):
        counter[0] += 1
        return f"{value}\n{SECRETS[counter[0] % len(SECRETS)].context}\n"
    return value


def _planted_fixture(tmp_path: Path, fixture: str) -> Path:
    source = FIXTURES / fixture
    text = source.read_text(encoding="utf-8")
    counter = [0]
    target = tmp_path / source.name
    if source.suffix == ".txt":
        # A git-ai note: attestation lines, then "---", then its JSON.
        head, _, document = text.partition("\n---\n")
        planted = json.dumps(_plant(json.loads(document), counter), indent=2)
        target.write_text(f"{head}\n---\n{planted}\n", encoding="utf-8")
    elif source.suffix == ".md":
        # Aider's chat history: a secret after every line of prose, all of them at the end.
        lines = [
            f"{line} {SECRETS[n % len(SECRETS)].context.splitlines()[0]}"
            if " " in line and not line.startswith(("#", ">", "```", "<<<", "===", ">>>"))
            else line
            for n, line in enumerate(text.split("\n"))
        ]
        target.write_text(
            "\n".join(lines) + "\n" + "\n".join(s.context for s in SECRETS), encoding="utf-8"
        )
    elif text.lstrip().startswith(("[", "{")) and source.suffix != ".jsonl":
        target.write_text(json.dumps(_plant(json.loads(text), counter)), encoding="utf-8")
    else:
        records = [json.loads(line) for line in text.split("\n") if _is_record(line)]
        target.write_text(
            "".join(json.dumps(_plant(r, counter)) + "\n" for r in records), encoding="utf-8"
        )
    return target


def _is_record(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except json.JSONDecodeError:
        return False


def _leaks(text: str, secrets: list[FakeSecret] = SECRETS) -> list[str]:
    return [s.kind for s in secrets if any(needle in text for needle in s.needles)]


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    main(list(args))
    captured = capsys.readouterr()
    return captured.out + captured.err


@pytest.mark.parametrize("format_name", sorted(TRANSCRIPTS))
def test_the_views_and_summaries_of_every_other_format_hold_no_planted_secret(
    format_name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    transcript = _planted_fixture(tmp_path, TRANSCRIPTS[format_name])
    arguments = [str(transcript), "--format", format_name]
    control = _run(capsys, "--no-redact", "show", *arguments, "--json") + _run(
        capsys, "--no-redact", "summary", *arguments, "--no-llm"
    )
    assert _leaks(control), (
        "the planted secrets never reach an output: the test would prove nothing"
    )

    outputs = {
        f"{view}{' --json' if as_json else ''}": _run(
            capsys, view, *arguments, *(("--json",) if as_json else ())
        )
        for view in VIEWS
        for as_json in (False, True)
    }
    outputs["summary"] = _run(capsys, "summary", *arguments, "--no-llm")
    leaked = {name: kinds for name, text in outputs.items() if (kinds := _leaks(text))}
    assert leaked == {}


def _narrative_replies(count: int) -> list[dict[str, Any]]:
    from summarizer.sections.templates import load_template

    template = load_template("default")
    empty = {s.key: {"items": [], "superseded": []} for s in template.narrative_sections}
    return [tool_reply(empty) for _ in range(count)]


def test_a_tool_definition_of_a_request_holds_no_secret_once_compacted_or_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The token-count request sends the tool definitions along with the messages."""
    secret = next(s for s in SECRETS if s.kind == "github-classic-pat")
    body = json.loads(WRITERS["anthropic-messages"][1]([]))
    body["messages"] = [{"role": "user", "content": "Deploy it."}]
    body["tools"] = [
        {
            "name": "deploy",
            "description": f"Deploys the service. {secret.context}",
            "input_schema": {"type": "object", "properties": {}},
        }
    ]
    request = tmp_path / "request.json"
    request.write_text(json.dumps(body), encoding="utf-8")
    with FakeAnthropic(replies=_narrative_replies(5), token_counts=[5000] * 5) as api:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-local")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", api.url)
        output = _run(capsys, "compact", str(request), "--force", "--llm", "--exact-tokens")
        sent = json.dumps([r.body for r in api.requests])
    assert "/v1/messages/count_tokens" in {r.path for r in api.requests}
    assert _leaks(output + sent, [secret]) == []
    assert "[REDACTED github-token]" in sent


# -- what looks random but is no secret ----------------------------------------------------------

_B62 = string.digits + string.ascii_uppercase + string.ascii_lowercase


def _drawn(rng: random.Random, alphabet: str, size: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(size))


def _ksuid(rng: random.Random) -> str:
    """A KSUID minted in 2023: four bytes of seconds since its epoch, sixteen random ones, base62."""
    number = (300_000_000 << 128) | rng.getrandbits(128)
    digits = ""
    while number:
        number, digit = divmod(number, 62)
        digits = _B62[digit] + digits
    return digits.rjust(27, "0")


def _harmless_session(tmp_path: Path, rng: random.Random) -> tuple[Path, dict[str, str]]:
    """A session full of names, digests and ids that look random, with where each one stands."""
    hexes = string.digits + "abcdef"
    values = {
        "upload id": _drawn(rng, _B62, 26),
        "next.js chunk hash": _drawn(rng, hexes + "ABCDEF", 20),
        "s3 key folder": _drawn(rng, _B62, 28),
        "git commit": _drawn(rng, hexes, 40),
        "go.sum hash": _drawn(rng, _B62 + "+/", 43) + "=",
        "ksuid": _ksuid(rng),
        "opencode part id": "prt_" + _drawn(rng, hexes, 12) + _drawn(rng, _B62, 14),
        "uuid": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
    }
    steps = [
        Step("user", text="Ship the photo upload."),
        Step("write", path=f"{ROOT}/uploads/{values['upload id']}/photo.jpg", content="JFIF"),
        Step(
            "write",
            path=f"{ROOT}/.next/static/chunks/pages/_app-{values['next.js chunk hash']}.js",
            content="export {}",
        ),
        Step(
            "shell",
            command=f"aws s3 cp logo.png s3://shop-assets/{values['s3 key folder']}/logo.png",
            output=f"upload: ./logo.png to s3://shop-assets/{values['s3 key folder']}/logo.png",
        ),
        Step("shell", command="git log -1 --oneline", output=f"commit {values['git commit']}"),
        Step(
            "read",
            path=f"{ROOT}/go.sum",
            content=f"github.com/acme/queue v1.4.2 h1:{values['go.sum hash']}",
        ),
        Step(
            "assistant",
            text=(
                f"Job {values['ksuid']} queued (part {values['opencode part id']}, "
                f"request {values['uuid']})."
            ),
        ),
    ]
    transcript = tmp_path / "session.jsonl"
    transcript.write_text(WRITERS["claude-code"][1](steps), encoding="utf-8")
    return transcript, values


def test_paths_digests_and_ids_that_look_random_survive_every_surface(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    transcript, values = _harmless_session(tmp_path, random.Random(29))

    def outputs(redact: bool) -> dict[str, str]:
        flag = () if redact else ("--no-redact",)
        store = tmp_path / f"store-{redact}.db"
        said = {
            view: _run(capsys, *flag, view, str(transcript), "--json") for view in ("show", "files")
        }
        said["summary --no-llm"] = _run(capsys, *flag, "summary", str(transcript), "--no-llm")
        hook_input = {"transcript_path": str(transcript), "hook_event_name": "PreCompact"}
        monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(hook_input)))
        said["hook PreCompact"] = _run(capsys, *flag, "hook", "--store", str(store))
        said["store"] = _run(capsys, *flag, "store", str(transcript), "--store", str(store))
        said["store"] += _run(
            capsys,
            *flag,
            "where",
            f"{ROOT}/uploads/{values['upload id']}/photo.jpg",
            "--store",
            str(store),
            "--json",
        )
        return said

    control, redacted = outputs(redact=False), outputs(redact=True)
    reached = {(name, s) for name, v in values.items() for s, text in control.items() if v in text}
    assert len({name for name, _ in reached}) >= 6  # the check below can fail
    lost = sorted((name, s) for name, s in reached if values[name] not in redacted[s])
    assert lost == []
