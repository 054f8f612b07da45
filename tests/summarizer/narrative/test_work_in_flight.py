"""What was in flight at the cut: the request the agent was on, in the user's words, and how far it got.

Blind raters scored continuity lowest: "No next step stated" while the
agent's last calls showed it working on the latest request; "answer the
latest message" with nothing saying what that message asked; and an earlier
request named as the latest because the last one was typed while the agent
worked, though nothing the agent did came after it.
"""

from __future__ import annotations

from artifact_index.ingestion.events import AssistantMessage, UserMessage
from tests.support.session_steps import ROOT, edit, read, section, shell, summary_of, write


def test_calls_on_the_latest_request_with_no_word_since_make_it_the_step() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Add a retry to the uploader"),
        edit(2, f"{ROOT}/uploader.py"),
        AssistantMessage(turn=3, text="Added the retry with a backoff of 2 seconds."),
        UserMessage(turn=4, text="The checkout page crashes on submit. Find the bug."),
        read(5, f"{ROOT}/checkout.py", "def submit(cart):\n    return cart.total\n"),
    )
    steps = section(summary, "Next Steps")
    assert steps.startswith(
        '- Go on with the latest request (turn 4): "The checkout page crashes on submit. Find the bug."; '
        "the agent had started on it and said nothing since; its calls: Read `checkout.py` (turn 5, success)"
    )
    assert "No next step stated" not in steps


def test_a_latest_request_not_yet_started_is_still_no_stated_step() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Add a retry to the uploader"),
        edit(2, f"{ROOT}/uploader.py"),
        AssistantMessage(turn=3, text="Added the retry. Now let me run the uploader tests."),
        read(3, f"{ROOT}/tests/test_uploader.py", "def test_retry():\n    pass\n"),
    )
    assert "Go on with the latest request" not in section(summary, "Next Steps")


def test_the_message_to_answer_is_quoted() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Add a retry to the uploader"),
        edit(2, f"{ROOT}/uploader.py"),
        AssistantMessage(turn=3, text="Added the retry with a backoff of 2 seconds."),
        UserMessage(turn=4, text="What happens when   the server\nreturns 429?"),
    )
    assert section(summary, "Next Steps").startswith(
        "- Answer the user's latest message (turn 4, whole under User Messages): "
        '"What happens when the server returns 429?"'
    )


def test_a_queued_message_nothing_followed_is_the_latest_request() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Speed up the test suite"),
        edit(2, f"{ROOT}/tests/conftest.py"),
        UserMessage(turn=3, text="Update the plan file and continue with tier 3", channel="queued"),
        AssistantMessage(turn=3, text="The fixtures are now session-scoped; the suite takes 40 s."),
    )
    intent = section(summary, "Session Intent")
    assert "Latest request (turn 3): Update the plan file and continue with tier 3" in intent
    assert "Then the user said" not in intent


def test_a_queued_message_the_agent_worked_past_stays_an_aside() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Speed up the test suite"),
        edit(2, f"{ROOT}/tests/conftest.py"),
        UserMessage(turn=2, text="also the changelog", channel="queued"),
        edit(3, f"{ROOT}/tests/test_cart.py"),
        AssistantMessage(turn=4, text="Now let me run the suite again."),
        read(4, f"{ROOT}/tests/test_cart.py", "def test_cart():\n    pass\n"),
    )
    intent = section(summary, "Session Intent")
    assert "Then the user said: (turn 2) also the changelog" in intent


def test_of_several_messages_queued_after_the_agents_last_turn_the_first_is_the_request() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Implement the tracked-bookmarks fetch"),
        edit(2, f"{ROOT}/fetch.rs"),
        AssistantMessage(turn=3, text="Implemented: F then T fetches tracked bookmarks only."),
        UserMessage(turn=3, text="How do I check it by hand?", channel="queued"),
        UserMessage(
            turn=3, text="Also check the notice wording with two remotes", channel="queued"
        ),
    )
    intent = section(summary, "Session Intent")
    assert "Latest request (turn 3): How do I check it by hand?" in intent
    assert "Then the user said: (turn 3) Also check the notice wording with two remotes" in intent


def test_a_prompt_with_a_message_queued_after_it_stays_the_request() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Implement the tracked-bookmarks fetch"),
        edit(2, f"{ROOT}/fetch.rs"),
        AssistantMessage(turn=3, text="Implemented: F then T fetches tracked bookmarks only."),
        UserMessage(turn=4, text="How do I check it by hand?"),
        UserMessage(
            turn=4, text="Also check the notice wording with two remotes", channel="queued"
        ),
    )
    intent = section(summary, "Session Intent")
    assert "Latest request (turn 4): How do I check it by hand?" in intent
    assert "Then the user said: (turn 4) Also check the notice wording with two remotes" in intent


def test_resolved_errors_are_said_as_the_ones_tool_output_showed() -> None:
    # "All errors resolved" read as false where the user had just described an error the tools never printed.
    summary = summary_of(
        UserMessage(turn=1, text="Fix the cart total"),
        write(2, f"{ROOT}/tests/test_cart.py", "def test_total():\n    assert total() == 3\n"),
        shell(
            3,
            "pytest tests/test_cart.py",
            "FAILED tests/test_cart.py::test_total - AssertionError: assert 2 == 3\n"
            "1 failed in 0.12s\n",
            ok=False,
        ),
        edit(4, f"{ROOT}/cart.py", old="return 2", new="return 3"),
        shell(5, "pytest tests/test_cart.py", "1 passed in 0.10s\n"),
        AssistantMessage(turn=6, text="The cart total is right now."),
        UserMessage(turn=7, text="The checkout page still shows an ImportError."),
    )
    state = section(summary, "Current State")
    assert "error(s) seen in tool output were resolved" in state
    assert "(errors only described in words are not tracked)" in state
