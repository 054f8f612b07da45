"""A span longer than one request: one request, its end always kept, its middle cut and said so.

The hand-written session below is long: two hundred turns of reading and
test runs between the user's first request, a correction given while a
command ran, and the agent's last message.  Cut to a request budget far
below its length, the request must still show where the work stopped (the
latest turns, the agent's last message whole), every word the user said,
a note for each stretch left out (its turns and what it held), and index
facts of the same turn as the span's end.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import anthropic
import pytest

from artifact_index.ingestion.events import (
    AssistantMessage,
    Event,
    ToolCall,
    ToolResult,
    UserMessage,
)
from summarizer.narrative.llm import LLMWriter
from summarizer.narrative.span import fit_span
from summarizer.providers.anthropic_api import AnthropicClient
from summarizer.sections.templates import load_template
from summarizer.summary import summarize
from summarizer.tokens import count_tokens
from tests.support.fake_anthropic import FakeAnthropic, tool_reply
from tests.support.loopback_guard import only_loopback
from tests.support.summary_fixtures import ScriptedWriter, reply

DEFAULT = load_template("default")
FIRST_REQUEST = "Find why the nightly export drops rows with a null region, and fix it."
CORRECTION = "Do not touch the CSV writer; the bug is upstream of it."
LAST_MESSAGE = (
    "The null regions come from `load_regions`, which skips unknown codes. "
    + "I traced each caller of it and every one expects the code kept. " * 12
    + "Next I will make `load_regions` keep unknown codes as None and rerun the export tests."
)


def _long_session(middle_turns: int = 200) -> list[Event]:
    events: list[Event] = [UserMessage(turn=1, text=FIRST_REQUEST)]
    for turn in range(2, middle_turns + 2):
        call = f"call-{turn}"
        events += [
            AssistantMessage(
                turn=turn, text=f"Step {turn}: reading the exporter. " + "Checked a caller. " * 15
            ),
            ToolCall(turn=turn, call_id=call, tool="Bash", arguments={"command": "pytest -q"}),
            ToolResult(
                turn=turn,
                call_id=call,
                status="failure" if turn % 3 else "success",
                output=(
                    "FAILED tests/test_export.py::test_null_region\n" + "trace line\n" * 30
                    if turn % 3
                    else "12 passed"
                ),
            ),
        ]
        if turn == middle_turns // 2:
            events.append(UserMessage(turn=turn, text=CORRECTION, channel="interjection"))
    end = middle_turns + 2
    events.append(AssistantMessage(turn=end, text=LAST_MESSAGE))
    return events


def _turns(text: str) -> list[int]:
    return [int(t) for t in re.findall(r"^\[turn (\d+)\]", text, re.M)]


def test_a_span_too_long_for_its_budget_keeps_its_end_the_users_words_and_says_what_was_cut() -> (
    None
):
    events = _long_session()
    shown = fit_span(events, max_tokens=4_000)
    assert count_tokens(shown.text) <= 4_000
    assert (shown.first_turn, shown.last_turn) == (1, 202)
    # The end: the agent's last message whole, and the turns right before it.
    assert LAST_MESSAGE in shown.text
    assert _turns(shown.text)[-1] == 202 and 201 in _turns(shown.text)
    # The user's words, wherever they stood in the middle.
    assert f"[turn 1] USER: {FIRST_REQUEST}" in shown.text
    assert CORRECTION in shown.text
    # What was cut: the turns of each stretch and what it held, counts that add up.
    notes = re.findall(
        r"\[… turns (\d+)-(\d+) cut to fit the request \((\d+) assistant messages, (\d+) tool calls, "
        r"(\d+) tool results, (\d+) failed tool results\)",
        shown.text,
    )
    assert len(notes) == 2  # one before the user's correction, one after it
    assert sum(int(n[2]) + int(n[3]) + int(n[4]) for n in notes) == shown.cut_events
    kept_or_cut = len(_turns(shown.text)) + shown.cut_events
    assert kept_or_cut == len(events)
    assert int(notes[0][0]) > 1 and int(notes[-1][1]) < 202


def test_a_span_that_fits_is_shown_whole_without_a_note() -> None:
    events = _long_session(middle_turns=4)
    shown = fit_span(events, max_tokens=60_000)
    assert shown.cut_events == 0 and "cut to fit" not in shown.text
    assert len(_turns(shown.text)) == len(events)


def test_a_last_message_longer_than_its_share_keeps_its_head_and_tail() -> None:
    long_last = "BEGIN of the report. " + "A finding about the exporter. " * 3_000 + "END."
    events = [*_long_session(middle_turns=20), AssistantMessage(turn=30, text=long_last)]
    shown = fit_span(events, max_tokens=2_000)
    assert count_tokens(shown.text) <= 2_000
    last = shown.text.rsplit("[turn 30] ASSISTANT: ", 1)[1]
    assert last.startswith("BEGIN of the report.") and last.endswith("END.")
    assert "characters elided" in last


def test_summarize_sends_one_request_whose_facts_are_of_the_turn_the_span_ends_at() -> None:
    events = _long_session()
    writer = ScriptedWriter([reply({"current_state": ["Tracing load_regions"]})])
    summary = summarize(
        events, template=DEFAULT, writer=writer, format="fixture", span_tokens=4_000
    )
    (request,) = writer.requests
    assert summary.requests == 1
    assert request.span_turns == (1, 202) and request.facts_turn == 202
    assert LAST_MESSAGE in request.span


@pytest.fixture
def api(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeAnthropic]:
    only_loopback(monkeypatch)
    with FakeAnthropic() as server:
        yield server


def test_the_request_the_sdk_sends_shows_the_end_of_the_conversation_next_to_facts_of_that_turn(
    api: FakeAnthropic,
) -> None:
    api.replies = [
        tool_reply(
            {
                s.key: {
                    "items": ["Tracing load_regions"] if s.key == "current_state" else [],
                    "superseded": [],
                }
                for s in DEFAULT.narrative_sections
            }
        )
    ]
    client = anthropic.Anthropic(base_url=api.url, api_key="sk-test-local", max_retries=0)
    writer = LLMWriter(AnthropicClient("claude-test-model", client=client, retries=0))
    summarize(_long_session(), template=DEFAULT, writer=writer, format="fixture", span_tokens=4_000)
    (sent,) = api.messages_requests
    prompt = sent.prompt
    span = prompt.split('<new_span turns="1-202">\n', 1)[1].split("\n</new_span>", 1)[0]
    assert LAST_MESSAGE in span and _turns(span)[-1] == 202
    assert CORRECTION in span and FIRST_REQUEST in span
    assert "cut to fit the request" in span
    assert '<index_facts as_of_turn="202">' in prompt
    # The facts' last test run is the one the span's end shows (turn 201, failing).
    facts = prompt.split("<index_facts", 1)[1].split("</index_facts>", 1)[0]
    assert "turn 201" in facts
