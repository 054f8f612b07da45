"""Every summary within its template's budget, whatever the session: long texts condensed, never unbounded.

A pasted console log of ninety thousand characters (the same React stack
frames again and again) as the latest user message must not make a summary
of a hundred thousand characters: the log keeps its opening, its end and
its distinct lines, the repeats collapsed with their count, and says what
was cut; the person's own words in it stay.
"""

from __future__ import annotations

import functools
import itertools
import random
import string

import pytest

from artifact_index.ingestion.events import (
    AssistantMessage,
    Event,
    FileOperation,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
)
from summarizer.budget import condense_facts, cut_to_budget, text_limit_ladder
from summarizer.narrative.extractive import ExtractiveWriter
from summarizer.sections.condense import condense_text
from summarizer.sections.templates import builtin_templates, load_template
from summarizer.summary import Summary, summarize
from summarizer.tokens import count_tokens

OPENING = "the settings page crashes as soon as I open it, here is the console:"
CLOSING = "can you fix it? it started after the theme toggle change, keep the toggle"
_FRAMES = [
    "renderWithHooks",
    "updateFunctionComponent",
    "beginWork",
    "performUnitOfWork",
    "workLoopSync",
    "renderRootSync",
    "performWorkOnRoot",
    "performSyncWorkOnRoot",
    "flushSyncWorkAcrossRoots",
    "processRootScheduleInMicrotask",
]


def console_log(size: int = 90_000) -> str:
    """A pasted browser console: one error and its stack, again and again, at other line numbers."""
    rng = random.Random(7)
    lines = [OPENING]
    repeat = 0
    while sum(len(line) + 1 for line in lines) < size:
        repeat += 1
        lines.append(
            "Uncaught Error: Maximum update depth exceeded. This can happen when a component "
            "repeatedly calls setState inside componentWillUpdate or componentDidUpdate."
        )
        lines.append(
            f"    at SettingsPanel (http://localhost:5173/src/components/SettingsPanel.tsx:{40 + repeat % 3}:15)"
        )
        lines += [
            f"    at {name} (http://localhost:5173/node_modules/.vite/deps/react-dom_client.js"
            f"?v=8d1e2f3a:{rng.randint(1000, 20000)}:{rng.randint(1, 80)})"
            for name in _FRAMES
        ]
    lines.append(CLOSING)
    return "\n".join(lines)


# --- condensing one text ------------------------------------------------------------------------


def test_a_text_within_the_limit_is_returned_as_it_is() -> None:
    assert condense_text("short\ntext", 100) == "short\ntext"


def test_repeated_lines_are_shown_once_with_their_count_and_the_words_stay() -> None:
    log = console_log()
    condensed = condense_text(log, 6000)
    assert len(condensed) <= 6000
    assert condensed.startswith(OPENING) and CLOSING in condensed
    assert condensed.count("at beginWork") == 1
    repeats = log.count("at beginWork")
    assert "at beginWork (http://localhost:5173/node_modules" in condensed
    assert f"(×{repeats})" in condensed
    assert condensed.splitlines()[-1] == (
        f"[condensed to fit: {len(log):,} characters, {len(log.splitlines()):,} lines; "
        f"{len(log.splitlines()) - len(condensed.splitlines()[:-1]):,} repeated lines shown once with a count]"
    )


def test_past_the_distinct_lines_the_opening_the_end_and_the_errors_are_kept() -> None:
    log = console_log()
    condensed = condense_text(log, 900)
    assert len(condensed) <= 900
    assert condensed.startswith(OPENING)
    assert CLOSING in condensed
    assert "Maximum update depth exceeded" in condensed  # a telling line of the middle
    assert "[…]" in condensed
    assert "other lines cut]" in condensed.splitlines()[-1]


def test_one_enormous_line_keeps_its_start_and_its_end() -> None:
    line = "x" * 50_000 + " END"
    condensed = condense_text(line, 500)
    assert len(condensed) <= 500
    assert condensed.startswith("xxx") and "END" in condensed and "characters cut" in condensed


@pytest.mark.parametrize("limit", [300, 700, 2000, 8000])
def test_a_condensed_text_stays_within_its_limit(limit: int) -> None:
    rng = random.Random(limit)
    text = "\n".join(
        " ".join(
            rng.choice(["alpha", "beta", "gamma", "error:", "x" * rng.randint(1, 300)])
            for _ in range(rng.randint(1, 30))
        )
        for _ in range(2000)
    )
    assert len(condense_text(text, limit)) <= limit


# --- the ladder ---------------------------------------------------------------------------------


def test_the_ladder_tightens_and_cuts_the_users_words_last() -> None:
    ladder = text_limit_ladder(2400)
    assert ladder[0].words == ladder[0].last_message == ladder[0].other == 8400
    for earlier, later in itertools.pairwise(ladder):
        assert later.words <= earlier.words and later.other <= earlier.other
        assert later.last_message <= earlier.last_message
    # The other texts reach the floor before the agent's last message shrinks, and that before the user's words.
    first_last = next(n for n, limits in enumerate(ladder) if limits.last_message < 8400)
    first_words = next(n for n, limits in enumerate(ladder) if limits.words < 8400)
    assert ladder[first_last - 1].other == 300 and first_last < first_words
    assert ladder[-1].words == 300


def test_cutting_sections_reaches_the_budget_and_says_so() -> None:
    bodies = {
        "a": "\n".join(f"- line {n} of a long list of things" for n in range(400)),
        "b": "short",
    }
    markdown = cut_to_budget(bodies, lambda b: "\n\n".join(b.values()), 300)
    assert count_tokens(markdown) <= 300
    assert "- line 0 of" in markdown and "- line 399 of" in markdown
    assert "line(s) cut here to fit the summary's budget]" in markdown


# --- a whole session whose latest message is the log ---------------------------------------------


@functools.cache
def monster_session(size: int = 90_000) -> tuple[Event, ...]:
    root = "/work/app"
    events: list[Event] = [SessionInfo(turn=0, cwd=root)]
    events.append(UserMessage(turn=1, text="Add a theme toggle to the settings panel."))
    for turn, path in ((2, "src/components/SettingsPanel.tsx"), (3, "src/theme.ts")):
        op = FileOperation(action="create", path=path, content=f"export const x{turn} = 1;\n")
        events += [
            ToolCall(
                turn=turn,
                call_id=f"c{turn}",
                tool="Write",
                arguments={"path": path},
                operations=(op,),
            ),
            ToolResult(turn=turn, call_id=f"c{turn}", status="success", output="ok"),
        ]
    events.append(
        AssistantMessage(turn=4, text="The toggle is in place; it stores the theme in context.")
    )
    events.append(UserMessage(turn=5, text=console_log(size)))
    return tuple(events)


@functools.cache
def monster_summary(name: str) -> Summary:
    return summarize(
        list(monster_session()),
        template=load_template(name),
        writer=ExtractiveWriter(),
        format="fixture",
    )


@pytest.mark.parametrize("name", builtin_templates())
def test_a_pasted_console_log_keeps_every_template_within_its_budget(name: str) -> None:
    summary = monster_summary(name)
    assert summary.tokens <= summary.template.budget_tokens, summary.tokens


def test_the_log_keeps_the_persons_words_its_distinct_lines_and_says_what_was_cut() -> None:
    markdown = monster_summary("default").markdown
    assert OPENING in markdown and CLOSING in markdown
    assert "Maximum update depth exceeded" in markdown
    assert "[condensed to fit: " in markdown
    assert markdown.count("at SettingsPanel (") == 1
    # The rest of the summary is still there: the files, where it stopped.
    assert "`src/components/SettingsPanel.tsx`" in markdown and "`src/theme.ts`" in markdown
    assert "## Where It Stopped" in markdown


def test_condensing_keeps_the_facts_it_does_not_need_to_touch() -> None:
    facts = monster_summary("default").facts
    ladder = text_limit_ladder(2400)
    condensed = condense_facts(facts, ladder[-1])
    assert condensed.user_messages[0] == facts.user_messages[0]  # short: as it was
    assert len(condensed.user_messages[-1].text) <= 300
    assert condensed.changed == facts.changed


def test_cutting_items_keeps_the_first_and_latest_requests_feedback_and_what_is_open() -> None:
    from artifact_index.trail.session_state import UserSaid
    from summarizer.budget import cut_items, protected_items

    facts = monster_summary("default").facts.model_copy(
        update={
            "user_messages": [
                UserSaid(turn=1, text="the first request", channel="prompt"),
                *(
                    UserSaid(turn=n, text=f"an early message, number {n}, " * 6, channel="prompt")
                    for n in range(2, 40)
                ),
                UserSaid(turn=40, text="no, keep the toggle", channel="feedback"),
                *(
                    UserSaid(turn=n, text=f"a later message, number {n}, " * 6, channel="prompt")
                    for n in range(41, 60)
                ),
                UserSaid(turn=60, text="the latest request", channel="prompt"),
            ]
        }
    )
    from summarizer.sections.index_sections import render_index_section

    bodies = {
        "user_messages": render_index_section("user_messages", facts, 3),
        "errors": "- [OPEN] TypeError `x is undefined`\n- [resolved] `a`\n- [resolved] `b`",
    }
    kept = cut_items(bodies, lambda b: "\n\n".join(b.values()), 400, protected_items(facts))
    assert count_tokens("\n\n".join(kept.values())) <= 400
    messages = kept["user_messages"]
    assert messages.startswith("- (turn 1) the first request")
    assert "no, keep the toggle" in messages and messages.endswith("- (turn 60) the latest request")
    assert "item(s) (turns 2–" in messages and "cut here to fit the summary's budget]" in messages
    assert "[OPEN] TypeError" in kept["errors"]


def test_a_line_cut_to_fit_leaves_no_piece_of_a_key_it_cut_through() -> None:
    # A path whose folder is a key, in a line too long to keep: cut first, the key's tail was no
    # key to any rule and reached the summary.
    rng = random.Random(3)
    key = "AGE-SECRET-KEY-1" + "".join(rng.choice(string.ascii_uppercase) for _ in range(58))
    line = " ".join(f"/srv/app/f{n}.txt" for n in range(300)) + f" /srv/{key}/a.jpg"
    condensed = condense_text(line, 300)
    assert len(condensed) < len(line)
    assert key[-10:] not in condensed
