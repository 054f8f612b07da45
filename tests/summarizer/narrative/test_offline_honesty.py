"""What the offline summary says is what the transcript shows: the user's last words, the files read, the revisions."""

from __future__ import annotations

from artifact_index.ingestion.events import AssistantMessage, UserMessage
from summarizer.sections.templates import load_template
from summarizer.summary import parse_previous
from tests.support.session_steps import ROOT, edit, read, section, summary_of, write


def test_a_slash_command_after_the_latest_request_is_in_the_intent() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Round the cart total to cents."),
        edit(2, f"{ROOT}/shop/cart.py", old="return total", new="return round(total, 2)"),
        UserMessage(turn=3, text="/commit", channel="command"),
    )
    intent = section(summary, "Session Intent")
    assert "The user asked (turn 1): Round the cart total to cents." in intent
    assert "Then the user said: (turn 3) /commit" in intent


def test_a_short_reply_after_the_latest_request_is_its_latest_word() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Round the cart total to cents."),
        UserMessage(turn=2, text="Should I also round the tax? Tell me first."),
        UserMessage(turn=3, text="yes"),
    )
    intent = section(summary, "Session Intent")
    assert "Latest request (turn 3): yes" in intent


def test_files_read_and_then_changed_are_not_called_none_read() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Round the cart total to cents."),
        read(2, f"{ROOT}/shop/cart.py", "return total"),
        edit(3, f"{ROOT}/shop/cart.py", old="return total", new="return round(total, 2)"),
    )
    assert section(summary, "Files Read").startswith(
        "None read without being changed; 1 of the changed files were read too."
    )


def test_nothing_read_is_still_none() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Round the cart total to cents."),
        edit(2, f"{ROOT}/shop/cart.py", old="return total", new="return round(total, 2)"),
    )
    assert section(summary, "Files Read").startswith("None.")


def test_a_created_file_revised_after_is_not_hidden_behind_zero_modified() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Add a tax module."),
        write(2, f"{ROOT}/shop/tax.py", "RATE = 0.2\n"),
        edit(3, f"{ROOT}/shop/tax.py", old="RATE = 0.2", new="RATE = 0.21"),
    )
    assert "1 file(s) created (1 revised after), 0 modified" in summary.markdown


def test_a_namespaced_slash_command_with_its_arguments_is_the_first_request() -> None:
    # "/opsx:explore <issue>" was the task; the intent had opened with the user's second message instead.
    summary = summary_of(
        UserMessage(
            turn=1, text="/opsx:explore https://github.com/acme/shop/issues/532", channel="command"
        ),
        read(2, f"{ROOT}/shop/cart.py", "return total"),
        UserMessage(turn=3, text="The log file is in /home/dev/Downloads/build.log"),
    )
    intent = section(summary, "Session Intent")
    assert (
        "The user asked (turn 1): /opsx:explore https://github.com/acme/shop/issues/532" in intent
    )
    assert "Latest request (turn 3): The log file is in /home/dev/Downloads/build.log" in intent


def test_a_session_command_with_arguments_is_no_request() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="/model opus", channel="command"),
        UserMessage(turn=2, text="Round the cart total to cents."),
        edit(3, f"{ROOT}/shop/cart.py", old="return total", new="return round(total, 2)"),
        UserMessage(turn=4, text="/compact keep the rounding notes", channel="command"),
    )
    intent = section(summary, "Session Intent")
    assert intent.startswith("- The user asked (turn 2): Round the cart total to cents.")
    assert "Latest request" not in intent


def test_no_decision_in_the_agents_words_is_said_as_such_and_not_carried_as_one() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Round the cart total to cents."),
        AssistantMessage(turn=2, text="I looked at the cart."),
    )
    decisions = section(summary, "Decisions Made")
    assert decisions.strip() == "No decision recorded in the agent's words."
    # The next summary, anchored on this one, does not take the sentence for a decision.
    anchor = parse_previous(summary.markdown, load_template("default"))
    assert anchor.items("decisions") == []
