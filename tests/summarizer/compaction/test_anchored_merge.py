"""Anchored iterative merging over several compaction cycles, the regenerative strategy, and resuming.

The context-engineering guides: summarize only the span newly dropped from context and merge
it into the previous narrative; items from earlier cycles stay unless the
new span supersedes them, and each remembers its cycle.  The regenerative
strategy (kept for comparison) rewrites everything each time.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from artifact_index.ingestion.events import (
    AssistantMessage,
    Event,
    ToolCall,
    UserMessage,
)
from artifact_index.presentation.cli import main
from summarizer.compaction.index_summarizer import IndexSummarizer
from summarizer.narrative.extractive import ExtractiveWriter
from summarizer.narrative.llm import build_prompt
from summarizer.narrative.narrative_model import (
    Narrative,
    NarrativeItem,
    NarrativeReply,
    SectionReply,
    merge,
)
from summarizer.narrative.span import fit_span
from summarizer.sections.templates import load_template
from summarizer.summary import narrative_state, parse_previous, render_summary, summarize
from summarizer.tokens import count_tokens
from tests.support.summary_fixtures import SUMMARIES, ScriptedWriter, load_events, reply

DEFAULT = load_template("default")
CLAUDE_CODE = load_template("claude-code")
EVENTS = load_events("bugfix")


def _upto(turn: int) -> list[Event]:
    return [e for e in EVENTS if e.turn <= turn]


def _texts(narrative: Narrative, key: str) -> list[tuple[str, int]]:
    return [(item.text, item.cycle) for item in narrative.items(key)]


def test_three_cycles_keep_earlier_items_unless_superseded_each_with_its_cycle() -> None:
    writer = ScriptedWriter(
        [
            reply(
                {
                    "intent": ["Fix the 401 on login"],
                    "decisions": ["Inspect auth/service.py first"],
                    "current_state": ["Reproduced: test_login_valid fails with 401"],
                    "next_steps": ["Fix token_valid"],
                }
            ),
            reply(
                {
                    "decisions": ["Use with_retry in auth/retry.py rather than sleeping inline"],
                    "current_state": (["token_valid fixed; tests/test_auth.py passes"], [1]),
                    "next_steps": (["Make the integration suite pass"], [1]),
                }
            ),
            reply(
                {
                    "current_state": (["Integration suite fails: Redis refuses connections"], []),
                    "next_steps": (["Start Redis with docker compose"], []),
                }
            ),
        ]
    )
    first = summarize(_upto(2), template=DEFAULT, writer=writer, format="fixture")
    second = summarize(
        _upto(4),
        template=DEFAULT,
        writer=writer,
        format="fixture",
        previous=parse_previous(first.markdown, DEFAULT),
    )
    third = summarize(
        EVENTS,
        template=DEFAULT,
        writer=writer,
        format="fixture",
        previous=parse_previous(second.markdown, DEFAULT),
    )
    final = third.narrative

    assert final.cycle == 3 and final.last_turn == 6
    assert _texts(final, "intent") == [("Fix the 401 on login", 1)]
    assert _texts(final, "decisions") == [
        ("Inspect auth/service.py first", 1),
        ("Use with_retry in auth/retry.py rather than sleeping inline", 2),
    ]
    assert _texts(final, "current_state") == [
        ("token_valid fixed; tests/test_auth.py passes", 2),
        ("Integration suite fails: Redis refuses connections", 3),
    ]
    assert _texts(final, "next_steps") == [
        ("Make the integration suite pass", 2),
        ("Start Redis with docker compose", 3),
    ]
    # Each request saw the anchor it merges into and only its own span.
    spans = [request.span_turns for request in writer.requests]
    assert spans == [(1, 2), (3, 4), (5, 6)]
    assert writer.requests[2].previous == second.narrative.model_copy(
        update={
            "sections": {
                k: [i.model_copy(update={"flag": None}) for i in v]
                for k, v in second.narrative.sections.items()
            }
        }
    )
    assert all("[turn 2]" not in request.span for request in writer.requests[1:])
    # Superseded items are gone from the rendered summary, not just from the state.
    body = third.markdown.split("<!--")[0]
    assert "Reproduced: test_login_valid fails with 401" not in body
    assert "- Inspect auth/service.py first\n- Use with_retry in auth/retry.py" in body


def test_regenerative_strategy_resends_everything_and_replaces_the_narrative() -> None:
    writer = ScriptedWriter(
        [
            reply(
                {"intent": ["Fix the 401 on login"], "decisions": ["Inspect auth/service.py first"]}
            ),
            reply(
                {
                    "intent": ["Fix login and the integration suite"],
                    "current_state": ["Redis is down"],
                }
            ),
        ]
    )
    first = summarize(_upto(3), template=DEFAULT, writer=writer, format="fixture")
    second = summarize(
        EVENTS,
        template=DEFAULT,
        writer=writer,
        format="fixture",
        strategy="regenerative",
        previous=parse_previous(first.markdown, DEFAULT),
    )
    request = writer.requests[1]
    assert request.strategy == "regenerative"
    assert request.span_turns == (1, 6) and "[turn 1] USER: Login fails with 401" in request.span
    assert "from scratch" in build_prompt(request)
    assert _texts(second.narrative, "intent") == [("Fix login and the integration suite", 2)]
    assert second.narrative.items("decisions") == []  # not superseded, yet gone: regenerated
    assert "Inspect auth/service.py first" not in second.markdown


def test_anchored_prompt_asks_for_new_items_and_superseded_numbers_only() -> None:
    writer = ScriptedWriter([reply({}), reply({})])
    first = summarize(_upto(3), template=DEFAULT, writer=writer, format="fixture")
    anchor = first.narrative.model_copy(
        update={"sections": {"decisions": [NarrativeItem(text="Keep X", cycle=1)]}}
    )
    summarize(EVENTS, template=DEFAULT, writer=writer, format="fixture", previous=anchor)
    prompt = build_prompt(writer.requests[1])
    assert "give only NEW items" in prompt and "`superseded`" in prompt
    assert "decisions (Decisions Made):\n  1. Keep X" in prompt
    assert "intent (Session Intent):\n  (none)" in prompt


def test_a_span_larger_than_its_budget_is_one_request_that_keeps_its_end() -> None:
    writer = ScriptedWriter([reply({"current_state": ["Integration suite blocked on Redis"]})])
    summary = summarize(EVENTS, template=DEFAULT, writer=writer, format="fixture", span_tokens=150)
    assert summary.requests == 1
    (request,) = writer.requests
    assert request.span_turns == (1, 6) and request.facts_turn == 6
    assert "cut to fit the request" in request.span
    assert "[turn 6]" in request.span
    assert _texts(summary.narrative, "current_state") == [("Integration suite blocked on Redis", 1)]
    assert summary.narrative.last_turn == 6


def test_nothing_new_since_the_previous_summary_sends_no_request() -> None:
    writer = ScriptedWriter([reply({"intent": ["Fix login"]})])
    first = summarize(EVENTS, template=DEFAULT, writer=writer, format="fixture")
    again = summarize(
        EVENTS,
        template=DEFAULT,
        writer=writer,
        format="fixture",
        previous=parse_previous(first.markdown, DEFAULT),
    )
    assert len(writer.requests) == 1 and again.requests == 0
    assert again.narrative == first.narrative


def test_merge_deduplicates_ignores_unknown_numbers_and_keeps_sections_not_in_the_reply() -> None:
    previous = Narrative(
        cycle=1,
        last_turn=4,
        sections={
            "intent": [NarrativeItem(text="A", cycle=1)],
            "decisions": [NarrativeItem(text="B", cycle=1)],
        },
    )
    answer = NarrativeReply(
        sections={"intent": SectionReply(items=["A", " C ", ""], superseded=[7])}
    )
    merged = merge(previous, answer, cycle=2, last_turn=9)
    assert _texts(merged, "intent") == [("A", 1), ("C", 2)]
    assert _texts(merged, "decisions") == [("B", 1)]
    assert (merged.cycle, merged.last_turn) == (2, 9)


def test_embedded_state_round_trips_items_cycles_and_origins() -> None:
    narrative = Narrative(
        cycle=4,
        last_turn=57,
        sections={
            "intent": [
                NarrativeItem(text="Port the parser", cycle=1),
                NarrativeItem(text="Keep the CLI", cycle=3),
            ],
            "next_steps": [
                NarrativeItem(text="Run `cargo test` --> fix", cycle=4, origin="extractive")
            ],
        },
    )
    facts = summarize(EVENTS, template=DEFAULT, writer=ExtractiveWriter(), format="fixture").facts
    markdown = render_summary(DEFAULT, facts, narrative)
    assert parse_previous(markdown, DEFAULT) == narrative
    assert narrative_state(markdown) is not None


def test_foreign_markdown_summary_is_parsed_by_headings() -> None:
    foreign = """# Handoff

## Session Intent
- Fix the 401 on login
- Add a retry helper

## Files Modified
- auth/service.py: fixed the comparison

## decisions made
1. Use exponential backoff in the retry helper
2) Keep the Redis URL in auth/config.py

### Next steps:
* Start Redis
"""
    anchor = parse_previous(foreign, DEFAULT)
    assert (anchor.cycle, anchor.last_turn) == (0, 0)
    assert _texts(anchor, "intent") == [("Fix the 401 on login", 0), ("Add a retry helper", 0)]
    assert _texts(anchor, "decisions") == [
        ("Use exponential backoff in the retry helper", 0),
        ("Keep the Redis URL in auth/config.py", 0),
    ]
    assert _texts(anchor, "next_steps") == [("Start Redis", 0)]
    assert "files_modified" not in anchor.sections  # the index recomputes file sections exactly
    assert {i.origin for k in anchor.sections for i in anchor.items(k)} == {"previous"}


def test_claude_codes_own_numbered_summary_is_parsed_into_the_claude_code_template() -> None:
    own = """<analysis>
Looked at the whole conversation.
</analysis>

<summary>
1. Primary Request and Intent:
   The user wants tags on notes.
2. Key Technical Concepts:
   - JSON storage
3. Files and Code Sections:
   - notes/store.py
4. Pending Tasks:
   - Show tags in the CLI
9. Optional Next Step:
   Document the tags option.
</summary>
"""
    anchor = parse_previous(own, CLAUDE_CODE)
    assert _texts(anchor, "intent") == [("The user wants tags on notes.", 0)]
    assert _texts(anchor, "key_concepts") == [("JSON storage", 0)]
    assert _texts(anchor, "next_steps") == [("Document the tags option.", 0)]
    assert "notes/store.py" not in str(
        anchor.sections
    )  # under an index heading: recomputed, not kept


def test_foreign_anchor_items_stay_and_the_whole_transcript_is_the_span() -> None:
    anchor = parse_previous("## Decisions Made\n- Use exponential backoff\n", DEFAULT)
    writer = ScriptedWriter([reply({"decisions": ["Keep SessionStore.save synchronous"]})])
    summary = summarize(EVENTS, template=DEFAULT, writer=writer, format="fixture", previous=anchor)
    assert writer.requests[0].span_turns == (1, 6)
    assert _texts(summary.narrative, "decisions") == [
        ("Use exponential backoff", 0),
        ("Keep SessionStore.save synchronous", 1),
    ]


def test_flag_text_of_a_rendered_item_is_not_read_back_as_part_of_the_item() -> None:
    markdown = "## Current State\n- All tests pass ⚠ [index: the last run of `pytest` (turn 5) had 1 failing]\n"
    assert _texts(parse_previous(markdown, DEFAULT), "current_state") == [("All tests pass", 0)]


# -- the CLI: --previous with the offline narrative --------------------------------------------------

CC_SESSION = SUMMARIES / "cc_two_compactions.jsonl"


def test_cli_previous_keeps_the_llm_anchor_and_refreshes_the_offline_items(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    earlier = Narrative(
        cycle=1,
        last_turn=6,
        sections={
            "decisions": [NarrativeItem(text="Store tags as a list on each note dict", cycle=1)],
            "current_state": [
                NarrativeItem(text="Offline line from before", cycle=1, origin="extractive")
            ],
        },
    )
    facts = summarize(EVENTS, template=DEFAULT, writer=ExtractiveWriter(), format="fixture").facts
    previous = tmp_path / "previous.md"
    previous.write_text(render_summary(DEFAULT, facts, earlier), encoding="utf-8")

    assert main(["summary", str(CC_SESSION), "--no-llm", "--previous", str(previous)]) == 0
    out = capsys.readouterr().out
    state = Narrative.model_validate(narrative_state(out))
    assert state.cycle == 2 and state.last_turn == 12
    assert _texts(state, "decisions")[0] == ("Store tags as a list on each note dict", 1)
    assert "Offline line from before" not in out
    assert "## Decisions Made\n- Store tags as a list on each note dict\n" in out


def test_cli_previous_that_cannot_be_read_is_one_sentence(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (
        main(["summary", str(CC_SESSION), "--no-llm", "--previous", "/nonexistent/summary.md"]) == 1
    )
    err = capsys.readouterr().err
    assert err.startswith(
        "artifact-index: error: previous summary /nonexistent/summary.md cannot be read"
    )
    assert err.count("\n") == 1


# -- the compactor's bridge: each cycle's tracker continues, the narrative anchors -------------------


def test_index_summarizer_cycles_cover_every_file_but_send_only_the_new_messages(
    tmp_path: Path,
) -> None:
    def exchange(n: int, path: str) -> list[dict[str, object]]:
        return [
            {"role": "user", "content": f"Step {n}: create {path}"},
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": f"t{n}",
                        "name": "Write",
                        "input": {"file_path": path, "content": f"x = {n}\n"},
                    }
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": f"t{n}",
                        "content": f"File created successfully at: {path}",
                    }
                ],
            },
        ]

    writer = ScriptedWriter(
        [reply({"intent": ["Create the step files"]}), reply({"current_state": ["Two steps done"]})]
    )
    summarizer = IndexSummarizer(DEFAULT, writer, state_dir=tmp_path / "state")
    first = summarizer.summarize(exchange(1, "src/one.py"), None, 1)
    # A fresh summarizer resumes the tracker from the state directory, as a new process would.
    resumed = IndexSummarizer(DEFAULT, writer, state_dir=tmp_path / "state")
    second = resumed.summarize(exchange(2, "src/two.py"), first, 2)
    assert "Step 1" in writer.requests[0].span and "Step 1" not in writer.requests[1].span
    assert "Step 2" in writer.requests[1].span
    assert writer.requests[1].span_turns[0] > writer.requests[0].span_turns[1]
    assert "`src/one.py`" in second and "`src/two.py`" in second
    state = Narrative.model_validate(narrative_state(second))
    assert _texts(state, "intent") == [("Create the step files", 1)]
    assert _texts(state, "current_state") == [("Two steps done", 2)]


def test_the_request_says_how_old_the_anchor_is_against_the_current_facts() -> None:
    """An item an earlier summary wrote ("X not yet edited") is older than the index facts: the request says which
    turn each stands at, and that the later one holds, so the writer supersedes the stale item."""
    writer = ScriptedWriter([reply({}), reply({})])
    first = summarize(_upto(3), template=DEFAULT, writer=writer, format="fixture")
    summarize(
        EVENTS,
        template=DEFAULT,
        writer=writer,
        format="fixture",
        previous=parse_previous(first.markdown, DEFAULT),
        span_tokens=150,
    )
    prompt = build_prompt(writer.requests[1])
    assert '<previous_narrative as_of_turn="3">' in prompt
    assert '<index_facts as_of_turn="6">' in prompt and '<new_span turns="4-6">' in prompt
    assert "the later one holds" in prompt and "list the older item in `superseded`" in prompt
    # The facts carry the turns of each file's changes, which an older statement is checked by.
    files = prompt.split("### Files changed", 1)[1].split("###", 1)[0]
    assert "turn" in files


def _talk(turns: range) -> list[Event]:
    return [
        AssistantMessage(
            turn=turn, text=f"Step {turn}: " + "checked the parser and its tests. " * 20
        )
        for turn in turns
    ]


def test_a_call_whose_result_never_came_does_not_hold_the_span_past_its_budget() -> None:
    # An interrupted call has no result: the request still keeps to its budget, which the
    # model's context window depends on, and to the span's end.
    events = [
        ToolCall(turn=1, call_id="lost", tool="Bash", arguments={"command": "make test"}),
        *_talk(range(2, 200)),
    ]
    shown = fit_span(events, max_tokens=1_000)
    assert count_tokens(shown.text) <= 1_000 and shown.cut_events > 100
    assert shown.text.splitlines()[-1].startswith("[turn 199] ASSISTANT: Step 199")


def test_one_message_larger_than_the_budget_keeps_its_head_and_tail_within_it() -> None:
    pasted = "BEGIN " + "a log line that repeats\n" * 20_000 + " END"
    events = [UserMessage(turn=1, text=pasted), *_talk(range(2, 4))]
    shown = fit_span(events, max_tokens=2_000)
    assert count_tokens(shown.text) <= 2_000
    first = shown.text
    assert first.startswith("[turn 1] USER: BEGIN") and "END" in first
    assert "characters elided" in first
