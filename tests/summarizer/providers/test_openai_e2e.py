"""The OpenAI-compatible provider end to end: the real ``openai`` SDK against a local Chat Completions server.

The server (``fake_openai.FakeOpenAI``) listens on 127.0.0.1 and records
every request, so these tests check what the summarizer sends to OpenAI,
OpenRouter or a local model server: the forced function whose parameters
are the pydantic reply model, the same prompt the Anthropic provider sends,
a malformed reply answered with its validation error and retried, a reply
that stays malformed reported in one sentence.  A guard refuses any
connection that is not to the loopback.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openai
import pytest

from artifact_index.presentation.cli import main
from summarizer.exceptions import NarrativeError
from summarizer.narrative.extractive import ExtractiveWriter
from summarizer.narrative.llm import SYSTEM, TOOL_NAME, LLMWriter, build_prompt
from summarizer.narrative.narrative_model import reply_model
from summarizer.providers.openai_api import OpenAIClient
from summarizer.sections.templates import Template, load_template
from summarizer.summary import summarize
from tests.support.fake_openai import FakeOpenAI, error_reply, function_reply, text_reply
from tests.support.loopback_guard import only_loopback
from tests.support.summary_fixtures import SUMMARIES, load_events

DEFAULT = load_template("default")
CC_SESSION = SUMMARIES / "cc_two_compactions.jsonl"


@pytest.fixture(autouse=True)
def _loopback_only(monkeypatch: pytest.MonkeyPatch) -> None:
    only_loopback(monkeypatch)


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


def _writer(server: FakeOpenAI, retries: int = 2) -> LLMWriter:
    client = openai.OpenAI(base_url=server.base_url, api_key="sk-test-local", max_retries=0)
    return LLMWriter(OpenAIClient("local-model", client=client, retries=retries))


def _sections(template: Template, **given: Any) -> dict[str, Any]:
    return {
        s.key: given.get(s.key, {"items": [], "superseded": []})
        for s in template.narrative_sections
    }


def test_the_request_forces_the_function_whose_parameters_are_the_reply_model(
    server: FakeOpenAI,
) -> None:
    server.replies = [
        function_reply(
            _sections(
                DEFAULT,
                intent={"items": ["Fix the 401 on login for valid users"], "superseded": []},
                next_steps={"items": ["Run tests/integration again"], "superseded": []},
            )
        )
    ]
    summary = summarize(
        load_events("bugfix"), template=DEFAULT, writer=_writer(server), format="fixture"
    )
    (request,) = server.requests
    assert request.path == "/v1/chat/completions"
    body = request.body
    assert body["model"] == "local-model"
    assert body["tool_choice"] == {"type": "function", "function": {"name": TOOL_NAME}}
    (tool,) = body["tools"]
    assert tool["type"] == "function" and tool["function"]["name"] == TOOL_NAME
    facts = summary.facts
    changed = sorted(
        f.path for f in [*facts.created, *facts.modified, *facts.deleted, *facts.reverted]
    )
    assert (
        tool["function"]["parameters"]
        == reply_model(DEFAULT.narrative_sections, changed).model_json_schema()
    )
    # The same prompt the Anthropic provider sends: system first, then the one user message.
    assert body["messages"][0] == {"role": "system", "content": SYSTEM}
    assert body["messages"][1]["role"] == "user"
    assert "<new_span turns=" in request.prompt and "<index_facts " in request.prompt
    assert request.headers["authorization"] == "Bearer sk-test-local"
    assert "## Session Intent\n- Fix the 401 on login for valid users\n" in summary.markdown
    assert "## Next Steps\n- Run tests/integration again\n" in summary.markdown


def test_a_malformed_reply_gets_its_validation_error_as_the_function_result_then_is_accepted(
    server: FakeOpenAI,
) -> None:
    server.replies = [
        function_reply({"summary": "The user fixed the login bug."}),
        function_reply(
            _sections(DEFAULT, intent={"items": ["Fix the login bug"], "superseded": []})
        ),
    ]
    summary = summarize(
        load_events("bugfix"), template=DEFAULT, writer=_writer(server), format="fixture"
    )
    assert "## Session Intent\n- Fix the login bug\n" in summary.markdown
    first, retry = server.requests
    messages = retry.body["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "tool"]
    assert messages[:2] == first.body["messages"]
    call = messages[2]["tool_calls"][0]
    assert call["function"] == {
        "name": TOOL_NAME,
        "arguments": json.dumps({"summary": "The user fixed the login bug."}),
    }
    answer = messages[3]
    assert answer["tool_call_id"] == call["id"]
    assert (
        "Field required" in answer["content"]
        and "Extra inputs are not permitted" in answer["content"]
    )


def test_arguments_that_are_not_json_are_retried(server: FakeOpenAI) -> None:
    server.replies = [function_reply('{"intent": '), function_reply(_sections(DEFAULT))]
    summarize(load_events("bugfix"), template=DEFAULT, writer=_writer(server), format="fixture")
    assert (
        "the function arguments are not JSON" in server.requests[1].body["messages"][3]["content"]
    )


def test_a_server_that_writes_the_arguments_as_text_is_held_to_the_same_schema(
    server: FakeOpenAI,
) -> None:
    # Some local servers ignore the forced call and answer with the JSON as text.
    arguments = _sections(DEFAULT, intent={"items": ["Tags on notes"], "superseded": []})
    facts = summarize(
        load_events("bugfix"), template=DEFAULT, writer=ExtractiveWriter(), format="fixture"
    ).facts
    arguments["files_changed"] = {
        f.path: "What it does."
        for f in [*facts.created, *facts.modified, *facts.deleted, *facts.reverted]
    }
    server.replies = [text_reply("```json\n" + json.dumps(arguments) + "\n```")]
    summary = summarize(
        load_events("bugfix"), template=DEFAULT, writer=_writer(server), format="fixture"
    )
    assert "## Session Intent\n- Tags on notes\n" in summary.markdown


def test_prose_instead_of_the_call_is_retried_then_a_narrative_error(server: FakeOpenAI) -> None:
    server.replies = [text_reply("Here is a summary in prose.")] * 2
    with pytest.raises(
        NarrativeError,
        match=rf"malformed after 2 attempt\(s\): the reply did not call {TOOL_NAME} "
        r"\(finish reason stop\)",
    ):
        summarize(
            load_events("bugfix"),
            template=DEFAULT,
            writer=_writer(server, retries=1),
            format="fixture",
        )
    retry = server.requests[1].body["messages"]
    assert retry[2] == {"role": "assistant", "content": "Here is a summary in prose."}
    assert retry[3] == {"role": "user", "content": f"Call the {TOOL_NAME} function."}


def test_an_http_error_is_a_narrative_error_naming_the_endpoint(server: FakeOpenAI) -> None:
    server.replies = [error_reply(404, "model 'local-model' not found, try pulling it first")]
    with pytest.raises(
        NarrativeError, match=r"request to local-model at http://127\.0\.0\.1:\d+/v1 failed"
    ):
        summarize(load_events("bugfix"), template=DEFAULT, writer=_writer(server), format="fixture")


def test_the_prompt_is_the_one_the_anthropic_provider_sends(server: FakeOpenAI) -> None:
    captured: list[str] = []

    class Recording(LLMWriter):
        def write(self, request: Any) -> Any:
            captured.append(build_prompt(request))
            return super().write(request)

    server.replies = [function_reply(_sections(DEFAULT))]
    client = openai.OpenAI(base_url=server.base_url, api_key="k", max_retries=0)
    summarize(
        load_events("bugfix"),
        template=DEFAULT,
        writer=Recording(OpenAIClient("m", client=client)),
        format="fixture",
    )
    assert server.requests[0].prompt == captured[0]


# -- the CLI: flags, environment and config choose the endpoint --------------------------------------


def _cli_reply(server: FakeOpenAI) -> None:
    server.replies = [
        function_reply(_sections(DEFAULT, intent={"items": ["Tags on notes"], "superseded": []}))
    ]


def test_cli_a_local_server_by_flags_needs_no_key(
    server: FakeOpenAI, capsys: pytest.CaptureFixture[str]
) -> None:
    _cli_reply(server)
    code = main(
        [
            "summary",
            str(CC_SESSION),
            "--provider",
            "openai",
            "--base-url",
            server.base_url,
            "--model",
            "qwen2.5-coder:7b",
        ]
    )
    assert code == 0
    assert "## Session Intent\n- Tags on notes\n" in capsys.readouterr().out
    (request,) = server.requests
    assert request.body["model"] == "qwen2.5-coder:7b"
    assert request.headers["authorization"] == "Bearer no-key"


def test_cli_the_sdk_environment_alone_picks_the_provider(
    server: FakeOpenAI, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-or-test")
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    _cli_reply(server)
    assert main(["summary", str(CC_SESSION), "--model", "openai/gpt-4.1-mini"]) == 0
    assert "- Tags on notes" in capsys.readouterr().out
    assert server.requests[0].headers["authorization"] == "Bearer sk-or-test"


def test_cli_the_config_names_provider_endpoint_and_key_variable(
    server: FakeOpenAI,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    config = tmp_path / "artifact-index.toml"
    config.write_text(
        '[context]\ncompactionModel = "anthropic/claude-sonnet-4.5"\n\n'
        f'[llm]\nprovider = "openai"\nbase_url = "{server.base_url}"\n'
        'api_key_env = "OPENROUTER_API_KEY"\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("OPENROUTER_API_KEY", "sk-or-v1-test")
    _cli_reply(server)
    assert main(["summary", str(CC_SESSION), "--config", str(config)]) == 0
    assert "- Tags on notes" in capsys.readouterr().out
    (request,) = server.requests
    assert request.body["model"] == "anthropic/claude-sonnet-4.5"
    assert request.headers["authorization"] == "Bearer sk-or-v1-test"


def test_cli_a_custom_endpoint_without_a_model_is_one_sentence(
    server: FakeOpenAI, capsys: pytest.CaptureFixture[str]
) -> None:
    # The session's own model (a Claude model here) is no model a local server has.
    code = main(["summary", str(CC_SESSION), "--provider", "openai", "--base-url", server.base_url])
    assert code == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "name the model the OpenAI-compatible server at" in err[0]
    assert server.requests == []


def test_cli_a_reply_that_stays_malformed_is_one_sentence_with_exit_1(
    server: FakeOpenAI, capsys: pytest.CaptureFixture[str]
) -> None:
    server.replies = [function_reply({"intent": "not a section"})] * 3
    code = main(
        [
            "summary",
            str(CC_SESSION),
            "--provider",
            "openai",
            "--base-url",
            server.base_url,
            "--model",
            "m",
        ]
    )
    assert code == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(
        "artifact-index: error: the narrative reply of m was malformed after 3 attempt(s): "
        "the function arguments did not match the schema: intent:"
    )
