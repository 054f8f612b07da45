"""The LLM path end to end: the real ``anthropic`` SDK against a local HTTP server.

The server (``fake_anthropic.FakeAnthropic``) listens on 127.0.0.1 on an
ephemeral port and records every request, so these tests check what the
summarizer really sends: the forced tool whose input schema is the pydantic
reply model, the anchor (the previous narrative, numbered), only the span
after the previous summary, and how a malformed reply is retried and then
reported.  A guard refuses any connection that is not to the loopback.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anthropic
import pytest

from artifact_index.ingestion.loading import load_events as load_transcript
from artifact_index.presentation.cli import main
from summarizer.exceptions import NarrativeError
from summarizer.narrative.extractive import ExtractiveWriter
from summarizer.narrative.llm import (
    SYSTEM,
    TOOL_NAME,
    LLMWriter,
    build_prompt,
    count_prompt_tokens,
)
from summarizer.narrative.narrative_model import (
    Narrative,
    NarrativeItem,
    NarrativeRequest,
    changed_since,
    reply_model,
)
from summarizer.providers.anthropic_api import AnthropicClient
from summarizer.sections.summary_facts import SessionFacts
from summarizer.sections.templates import Template, load_template
from summarizer.summary import narrative_state, parse_previous, summarize
from tests.support.fake_anthropic import FakeAnthropic, Recorded, text_reply, tool_reply
from tests.support.loopback_guard import only_loopback
from tests.support.summary_fixtures import SUMMARIES, load_events

CC_SESSION = SUMMARIES / "cc_two_compactions.jsonl"


@pytest.fixture(autouse=True)
def _loopback_only(monkeypatch: pytest.MonkeyPatch) -> None:
    only_loopback(monkeypatch)


@pytest.fixture
def api() -> Iterator[FakeAnthropic]:
    with FakeAnthropic() as server:
        yield server


@pytest.fixture
def api_env(api: FakeAnthropic, monkeypatch: pytest.MonkeyPatch) -> FakeAnthropic:
    """The SDK's own environment variables pointing at the local server (what the CLI reads)."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-local")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", api.url)
    return api


def _writer(api: FakeAnthropic, model: str = "claude-test-model", retries: int = 2) -> LLMWriter:
    client = anthropic.Anthropic(base_url=api.url, api_key="sk-test-local", max_retries=0)
    return LLMWriter(AnthropicClient(model, client=client, retries=retries))


def _sections(template: Template, **given: Any) -> dict[str, Any]:
    """A complete tool input: every narrative section, empty unless given."""
    return {
        s.key: given.get(s.key, {"items": [], "superseded": []})
        for s in template.narrative_sections
    }


def _new_span(request: Recorded) -> str:
    found = re.search(r"<new_span turns=\"(\d+)-(\d+)\">\n(.*)\n</new_span>", request.prompt, re.S)
    assert found, "the prompt has no <new_span> block"
    return found.group(3)


def _span_turns(request: Recorded) -> set[int]:
    return {int(t) for t in re.findall(r"^\[turn (\d+)\]", _new_span(request), re.M)}


DEFAULT = load_template("default")


def test_request_forces_the_tool_and_carries_anchor_and_only_the_new_span(
    api: FakeAnthropic,
) -> None:
    events = load_events("bugfix")
    first_part = [e for e in events if e.turn <= 3]
    api.replies = [
        tool_reply(
            _sections(
                DEFAULT,
                intent={"items": ["Fix the 401 on login for valid users"], "superseded": []},
                decisions={
                    "items": [
                        "Retry through `with_retry` in `auth/retry.py` rather than sleeping inline"
                    ],
                    "superseded": [],
                },
                current_state={
                    "items": ["`token_valid` fixed; `tests/test_auth.py` passes"],
                    "superseded": [],
                },
                next_steps={"items": ["Delete auth/legacy_auth.py"], "superseded": []},
            )
        ),
        tool_reply(
            _sections(
                DEFAULT,
                current_state={
                    "items": [
                        "Integration suite fails: Redis refuses connections on localhost:6379"
                    ],
                    "superseded": [],
                },
                next_steps={
                    "items": ["Start Redis with docker compose, then re-run tests/integration"],
                    "superseded": [1],
                },
            )
        ),
    ]
    writer = _writer(api)
    first = summarize(first_part, template=DEFAULT, writer=writer, format="fixture")
    anchor = parse_previous(first.markdown, DEFAULT)
    assert anchor.last_turn == 3 and anchor.cycle == 1
    second = summarize(events, template=DEFAULT, writer=writer, previous=anchor, format="fixture")

    assert [r.path for r in api.requests] == ["/v1/messages", "/v1/messages"]
    request = api.requests[1]
    body = request.body
    # The forced tool, whose schema is the pydantic model of the template's narrative sections.
    assert body["tool_choice"] == {"type": "tool", "name": TOOL_NAME}
    assert [t["name"] for t in body["tools"]] == [TOOL_NAME]
    schema = body["tools"][0]["input_schema"]
    # With a line for each changed path the first summary has none for, or changed since, keyed by the path.
    facts = second.facts
    changed = sorted(
        f.path for f in [*facts.created, *facts.modified, *facts.deleted, *facts.reverted]
    )
    assert changed and anchor.file_notes == first.narrative.file_notes
    asked = sorted(p for p in changed if p not in anchor.file_notes or p in changed_since(facts, 3))
    assert (
        asked == []
    )  # the new span changed no file: every earlier line stands, none is asked again
    assert schema == reply_model(DEFAULT.narrative_sections, asked).model_json_schema()
    assert schema["required"] == ["intent", "decisions", "current_state", "next_steps"]
    assert set(second.narrative.file_notes) == set(changed)  # ...and every file keeps its line
    assert body["model"] == "claude-test-model" and body["system"] == SYSTEM
    assert "sk-test-local" in (
        request.headers.get("x-api-key", "") + request.headers.get("authorization", "")
    )
    # The anchor: the previous narrative, numbered per section.
    anchor_block = request.prompt[
        request.prompt.index("<previous_narrative") : request.prompt.index("</previous_narrative>")
    ]
    assert (
        "decisions (Decisions Made):\n  1. Retry through `with_retry` in `auth/retry.py`"
        in anchor_block
    )
    assert "next_steps (Next Steps):\n  1. Delete auth/legacy_auth.py" in anchor_block
    # Only the new span: turns after the previous summary's last turn, never older ones.
    assert _span_turns(request) == {4, 5, 6}
    assert "[turn 4] USER: Good. Also make the integration suite pass." in _new_span(request)
    assert "Let me look at the auth service" not in request.prompt  # turn 2's words
    assert (
        "I'll use a retry helper in auth/retry.py rather than sleeping inline" not in request.prompt
    )  # turn 3
    assert _span_turns(api.requests[0]) == {1, 2, 3}
    # The index facts the narrative must agree with travel too.
    assert "`auth/retry.py`" in request.prompt[request.prompt.index("<index_facts ") :]

    # The reply's items land in their sections; superseded ones go, the rest keep their cycle.
    markdown = second.markdown
    assert (
        "## Decisions Made\n- Retry through `with_retry` in `auth/retry.py` rather than sleeping inline\n"
        in markdown
    )
    assert "## Current State\n- `token_valid` fixed; `tests/test_auth.py` passes" in markdown
    assert "- Integration suite fails: Redis refuses connections on localhost:6379" in markdown
    assert (
        "## Next Steps\n- Start Redis with docker compose, then re-run tests/integration\n"
        in markdown
    )
    assert "Delete auth/legacy_auth.py" not in markdown.split("<!--")[0]
    state = Narrative.model_validate(narrative_state(markdown))
    assert state.cycle == 2 and state.last_turn == 6
    assert [(i.text[:20], i.cycle) for i in state.items("current_state")] == [
        ("`token_valid` fixed;", 1),
        ("Integration suite fa", 2),
    ]
    assert {i.origin for key in state.sections for i in state.items(key)} == {"llm"}


def test_malformed_reply_is_retried_with_an_error_tool_result_then_accepted(
    api: FakeAnthropic,
) -> None:
    api.replies = [
        tool_reply({"summary": "The user fixed the login bug."}),  # wrong schema
        tool_reply(_sections(DEFAULT, intent={"items": ["Fix the login bug"], "superseded": []})),
    ]
    summary = summarize(
        load_events("bugfix"), template=DEFAULT, writer=_writer(api), format="fixture"
    )
    assert "## Session Intent\n- Fix the login bug\n" in summary.markdown
    first, retry = api.messages_requests
    messages = retry.body["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "user"]
    assert messages[0] == first.body["messages"][0]
    call = messages[1]["content"][0]
    assert call == {
        "type": "tool_use",
        "id": call["id"],
        "name": TOOL_NAME,
        "input": {"summary": "The user fixed the login bug."},
    }
    result = messages[2]["content"][0]
    assert (
        result["type"] == "tool_result"
        and result["tool_use_id"] == call["id"]
        and result["is_error"] is True
    )
    assert (
        "Field required" in result["content"]
        and "Extra inputs are not permitted" in result["content"]
    )
    assert retry.body["tool_choice"] == {"type": "tool", "name": TOOL_NAME}


def test_reply_that_stays_malformed_is_a_narrative_error_not_an_empty_section(
    api: FakeAnthropic,
) -> None:
    api.replies = [tool_reply({"intent": "a string, not a section"})] * 3
    with pytest.raises(
        NarrativeError,
        match=r"malformed after 3 attempt\(s\): the tool input did not match "
        r"the schema: intent: Input should be a valid dictionary",
    ):
        summarize(load_events("bugfix"), template=DEFAULT, writer=_writer(api), format="fixture")
    assert len(api.messages_requests) == 3


def test_reply_without_the_tool_call_is_retried_then_a_narrative_error(api: FakeAnthropic) -> None:
    api.replies = [text_reply("Here is a summary in prose.")] * 2
    with pytest.raises(
        NarrativeError,
        match=rf"malformed after 2 attempt\(s\): the reply did not call "
        rf"{TOOL_NAME} \(stop reason end_turn\)",
    ):
        summarize(
            load_events("bugfix"),
            template=DEFAULT,
            writer=_writer(api, retries=1),
            format="fixture",
        )
    retry = api.messages_requests[1].body["messages"]
    assert retry[1] == {
        "role": "assistant",
        "content": [{"type": "text", "text": "Here is a summary in prose."}],
    }
    assert retry[2]["content"] == [{"type": "text", "text": f"Call the {TOOL_NAME} tool."}]


def test_a_call_of_another_tool_gets_its_tool_result_on_retry(api: FakeAnthropic) -> None:
    api.replies = [tool_reply({"x": 1}, name="other_tool"), tool_reply(_sections(DEFAULT))]
    summarize(load_events("bugfix"), template=DEFAULT, writer=_writer(api), format="fixture")
    answer = api.messages_requests[1].body["messages"][2]["content"]
    assert answer[0]["type"] == "tool_result" and answer[0]["is_error"] is True
    assert (
        answer[0]["tool_use_id"] == api.messages_requests[1].body["messages"][1]["content"][0]["id"]
    )


def test_exact_token_count_through_the_count_tokens_endpoint(api: FakeAnthropic) -> None:
    api.token_counts = [1873]
    request = NarrativeRequest(
        sections=DEFAULT.narrative_sections,
        previous=Narrative(
            cycle=1, last_turn=3, sections={"intent": [NarrativeItem(text="Fix login", cycle=1)]}
        ),
        span="[turn 4] USER: Good. Also make the integration suite pass.",
        span_turns=(4, 4),
        facts=_facts(),
        cycle=2,
    )
    client = anthropic.Anthropic(base_url=api.url, api_key="sk-test-local", max_retries=0)
    assert count_prompt_tokens(AnthropicClient("claude-test-model", client=client), request) == 1873
    (counted,) = api.requests
    assert counted.path == "/v1/messages/count_tokens"
    assert counted.body["messages"] == [{"role": "user", "content": build_prompt(request)}]
    assert (
        counted.body["tools"][0]["input_schema"]
        == reply_model(DEFAULT.narrative_sections).model_json_schema()
    )
    assert counted.body["system"] == SYSTEM and "max_tokens" not in counted.body


def test_token_counting_failure_is_a_narrative_error(api: FakeAnthropic) -> None:
    request = NarrativeRequest(
        sections=DEFAULT.narrative_sections,
        previous=Narrative(),
        span="x",
        span_turns=(1, 1),
        facts=_facts(),
        cycle=1,
    )
    client = anthropic.Anthropic(base_url=api.url, api_key="sk-test-local", max_retries=0)
    with pytest.raises(NarrativeError, match="token counting failed"):
        count_prompt_tokens(AnthropicClient("claude-test-model", client=client), request)


def _facts() -> SessionFacts:
    return summarize(
        load_events("bugfix"), template=DEFAULT, writer=ExtractiveWriter(), format="fixture"
    ).facts


# -- the CLI, with the SDK configured by ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL only ----------------


def test_cli_llm_summary_then_resume_sends_only_turns_after_the_previous_summary(
    api_env: FakeAnthropic,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    api = api_env
    api.replies = [
        tool_reply(
            _sections(
                DEFAULT,
                intent={"items": ["Tags on notes"], "superseded": []},
                current_state={
                    "items": ["test_tags fails: NoteStore has no load()"],
                    "superseded": [],
                },
            )
        ),
        tool_reply(
            _sections(
                DEFAULT,
                current_state={
                    "items": ["CLI listing shows tags; all tests pass"],
                    "superseded": [1],
                },
            )
        ),
    ]
    assert (
        main(["summary", str(CC_SESSION), "--until-compaction", "1"]) == 0
    )  # the key alone turns the LLM on
    first = capsys.readouterr().out
    assert "## Session Intent\n- Tags on notes\n" in first
    previous = tmp_path / "first.md"
    previous.write_text(first, encoding="utf-8")

    assert (
        main(
            [
                "summary",
                str(CC_SESSION),
                "--llm",
                "--until-compaction",
                "2",
                "--previous",
                str(previous),
            ]
        )
        == 0
    )
    second = capsys.readouterr().out
    one, two = api.messages_requests
    assert (
        one.body["model"] == "claude-opus-4-6"
    )  # the session's model: no compactionModel configured
    assert max(_span_turns(one)) == 6
    assert min(_span_turns(two)) == 7 and max(_span_turns(two)) == 11
    assert "1. test_tags fails: NoteStore has no load()" in two.prompt
    assert "I'll read the store and the CLI first." not in two.prompt
    # The tests last ran at turn 9; notes/cli.py changed at turn 11: "all tests pass" is not the state now.
    assert (
        "## Current State\n- CLI listing shows tags; all tests pass ⚠ [index: 1 file(s) changed after the last "
        "test run (turn 9) are not yet tested]\n"
    ) in second
    assert "## Session Intent\n- Tags on notes\n" in second
    # The index sections are exact whatever the LLM said: every changed file by path.
    for path in ("tests/test_tags.py", "notes/store.py", "notes/cli.py", "scratch.py"):
        assert f"`{path}`" in second


def test_cli_reports_a_malformed_reply_in_one_sentence_with_exit_1(
    api_env: FakeAnthropic,
    capsys: pytest.CaptureFixture[str],
) -> None:
    api_env.replies = [tool_reply({"intent": ["not", "a", "section"]})] * 3
    assert main(["summary", str(CC_SESSION), "--llm"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith(
        "artifact-index: error: the narrative reply of claude-opus-4-6 was malformed "
        "after 3 attempt(s): the tool input did not match the schema: intent:"
    )
    assert len(api_env.messages_requests) == 3


def test_cli_reports_a_missing_tool_call_in_one_sentence_with_exit_1(
    api_env: FakeAnthropic,
    capsys: pytest.CaptureFixture[str],
) -> None:
    api_env.replies = [text_reply("No tool for you.")] * 3
    assert main(["summary", str(CC_SESSION), "--llm", "--template", "claude-code"]) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err
    assert err.endswith(f"the reply did not call {TOOL_NAME} (stop reason end_turn)")


def test_cli_llm_without_a_key_is_an_error_not_a_silent_fallback(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    assert main(["summary", str(CC_SESSION), "--llm"]) == 1  # the environment lacks a key
    assert (
        "--llm needs a provider: set ANTHROPIC_API_KEY or OPENAI_API_KEY" in capsys.readouterr().err
    )


def test_cli_no_llm_never_calls_the_api(
    api_env: FakeAnthropic, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["summary", str(CC_SESSION), "--no-llm"]) == 0
    assert "The user asked (turn 1)" in capsys.readouterr().out
    assert api_env.requests == []


def test_the_request_states_facts_with_their_evidence_and_instructions_around_the_span(
    api: FakeAnthropic,
) -> None:
    api.replies = [tool_reply(_sections(DEFAULT))]
    summarize(load_events("bugfix"), template=DEFAULT, writer=_writer(api), format="fixture")
    prompt = api.messages_requests[0].prompt
    # Instructions first, the transcript span, then the instructions again, shortened.
    assert (
        prompt.index("<instructions>") < prompt.index("<index_facts ") < prompt.index("<new_span")
    )
    assert prompt.index("</new_span>") < prompt.index("<reminder>")
    assert "never call it open" in prompt[: prompt.index("<new_span")]
    assert "no resolved error called open" in prompt[prompt.index("<reminder>") :]
    facts = prompt[prompt.index("<index_facts ") : prompt.index("</index_facts>")]
    # The fixed error comes with the run that showed it fixed; a changed file it does not name
    # (auth/service.py) is not said to have fixed it...
    assert (
        "- [resolved] `AssertionError: assert 401 == 200` in `tests/test_auth.py:12` (`test_login_valid`): "
        "the same check passed at turn 3 (`python -m pytest tests/test_auth.py -q`)\n" in facts
    )
    # ...the open one with its exact message, and the latest request is named in the reminder.
    assert "- [OPEN] pytest in `tests/integration/test_session.py:30`" in facts
    # What the session established travels too, so the model's narrative can rest on it.
    assert (
        "### What the session established: conclusions, constraints learned and acted on" in facts
    )
    assert "the user's latest request (turn 4)" in prompt[prompt.index("<reminder>") :]


def test_the_request_carries_the_users_words_from_every_channel(api: FakeAnthropic) -> None:
    api.replies = [tool_reply(_sections(DEFAULT))]
    events = load_transcript(SUMMARIES.parent / "claude_code" / "user_channels.jsonl")
    summarize(events, template=DEFAULT, writer=_writer(api), format="claude-code")
    prompt = api.messages_requests[0].prompt
    facts = prompt[prompt.index("<index_facts ") : prompt.index("</index_facts>")]
    for said in (
        "(turn 1, slash command) /review cart totals rounding",
        "(turn 4, typed while a tool ran) the rounding bug only shows with three items",
        "(turn 4, queued while the agent worked) only the cart package, not the whole repo",
        "(turn 5, feedback when refusing a call) don't commit yet, I want to read the diff first",
    ):
        assert said in facts, said
    span = _new_span(api.messages_requests[0])
    assert (
        "USER (feedback when refusing the call above): don't commit yet, I want to read the diff first"
        in span
    )
    assert (
        "USER (typed while the tool above ran): the rounding bug only shows with three items"
        in span
    )
