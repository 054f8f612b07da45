"""Next steps and decisions say only what the session stated: no request restated as a step, no pasted rule as a choice."""

from __future__ import annotations

from artifact_index.ingestion.events import AssistantMessage, ToolCall, ToolResult, UserMessage
from tests.support.session_steps import ROOT, bead, edit, read, section, shell, summary_of, write

_REQUEST = (
    "Build the threshold engine: it reads the feeds, scores each signal against its threshold and raises "
    "an alert when two of them cross in the same hour."
)


def test_work_in_flight_does_not_restate_the_request_as_a_step() -> None:
    summary = summary_of(
        UserMessage(turn=1, text=_REQUEST),
        AssistantMessage(
            turn=2, text="Now the hook that runs the evaluation after the feeds update."
        ),
        write(2, f"{ROOT}/src/hooks/useThreshold.js", "export function useThreshold() {}\n"),
    )
    steps = section(summary, "Next Steps")
    assert (
        "scores each signal" not in steps
    )  # the request is under Session Intent, in the user's words
    assert "scores each signal" in section(summary, "Session Intent")
    assert steps.startswith(
        "- Where the work stood when the context filled, on the latest request (turn 1, under Session "
        'Intent). What the agent was doing, in its last words (turn 2): "Now the hook that runs the '
        'evaluation after the feeds update."; calls made since: Write `src/hooks/useThreshold.js`'
    )


def test_a_step_the_agent_announced_and_has_not_taken_is_stated() -> None:
    summary = summary_of(
        UserMessage(turn=1, text=_REQUEST),
        read(2, f"{ROOT}/src/engine.js", "export const engine = {}\n"),
        AssistantMessage(
            turn=3, text="Next, I'll add the hourly window to the alert rule in engine.js."
        ),
    )
    steps = section(summary, "Next Steps")
    assert "I'll add the hourly window to the alert rule" in steps
    assert "scores each signal" not in steps


def test_a_finished_report_is_handed_back_not_a_step_to_redo() -> None:
    summary = summary_of(
        UserMessage(turn=1, text=_REQUEST),
        edit(2, f"{ROOT}/src/engine.js", old="a", new="b"),
        AssistantMessage(
            turn=3, text="The engine is done: feeds are scored and alerts fire on two crossings."
        ),
    )
    steps = section(summary, "Next Steps")
    assert steps.startswith(
        "- No next step stated: the agent's last message (turn 3) reported back"
    )
    assert "scores each signal" not in steps


_GUIDE = "\n".join(
    [
        "# Quality Assurance",
        "",
        "This document defines the review checklist.",
        "- Tests required before any commit.",
        "Don't modify tests to make them pass.",
        "- **Confirm API changes** Don't change API names without approval.",
        "- Keep functions small.",
        "- Review every diff.",
        "- Document public functions.",
    ]
)


def test_a_pasted_guides_rules_are_not_the_users_decisions() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Migrate each guide I paste into docs/guides/."),
        UserMessage(turn=2, text=_GUIDE),
        write(3, f"{ROOT}/docs/guides/quality.md", "# Quality\n"),
        UserMessage(turn=4, text="Let's keep the original headings instead of renaming them."),
        UserMessage(turn=5, text="Next one: security.md"),
    )
    decisions = section(summary, "Decisions Made")
    assert "Don't modify tests" not in decisions
    assert "Let's keep the original headings instead of renaming them." in decisions


def test_the_work_in_hand_comes_before_the_trackers_next_items() -> None:
    # The open tracker items had come first, above what the agent was in the middle of.
    summary = summary_of(
        UserMessage(turn=1, text="Work through the beads of shop-cart."),
        bead(2, "shop-cart.1", "Round line totals"),
        shell(3, "bd close shop-cart.1", "✓ Closed shop-cart.1: Closed\n"),
        bead(4, "shop-cart.2", "Currency symbols"),
        UserMessage(turn=5, text="Before that, move the feature branch onto develop."),
        AssistantMessage(
            turn=6, text="The stash was made on the old branch, so it goes on a new one."
        ),
        shell(6, "git checkout -b docs/move", "Switched to a new branch 'docs/move'\n"),
    )
    steps = section(summary, "Next Steps").splitlines()
    assert steps[0].startswith(
        "- Where the work stood when the context filled, on the latest request (turn 5"
    )
    assert steps[1].startswith("- Then the next open tracker item(s)")


def test_a_long_request_the_user_wrote_still_gives_their_choices() -> None:
    request = "\n".join(
        [
            "Make the following documentation-only changes.",
            "1) Replace the README overview.",
            "2) Add a Windows section.",
            "3) Add a Unix section.",
            "4) Link the scripts.",
            "5) Mention the lint runner.",
            "6) Mention the dev runner.",
            "Let's keep the old screenshots instead of new ones.",
        ]
    )
    summary = summary_of(
        UserMessage(turn=1, text="Document the project."),
        UserMessage(turn=2, text=request),
        write(3, f"{ROOT}/README.md", "# Shop\n"),
        UserMessage(turn=4, text="Next: the changelog."),
    )
    assert "Let's keep the old screenshots instead of new ones." in section(
        summary, "Decisions Made"
    )


def test_the_choices_the_user_picked_in_the_question_tool_are_decisions() -> None:
    # Picked, not typed: the choice is in the question tool's result alone.
    picked = (
        'User has answered your questions: "Where should the trainer\'s workouts appear?"="In the existing '
        '\\"Personal\\" segment", "How does the CMS identify users?"="Firebase UID". You can now continue '
        "with the user's answers in mind."
    )
    summary = summary_of(
        UserMessage(turn=1, text="Fetch the trainer's PDF workouts from the CMS."),
        ToolCall(turn=2, call_id="q1", tool="AskUserQuestion", arguments={"questions": []}),
        ToolResult(turn=3, call_id="q1", status="success", output=picked),
        write(4, f"{ROOT}/app/cms.swift", "struct CMS {}\n"),
    )
    decisions = section(summary, "Decisions Made")
    assert (
        "The user answered the agent's questions (turn 2): 1. Where should the trainer's workouts appear? → "
        '"In the existing "Personal" segment"; 2. How does the CMS identify users? → "Firebase UID"'
    ) in decisions


def test_a_question_tool_result_without_picks_gives_no_answer() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Fetch the trainer's PDF workouts from the CMS."),
        ToolCall(turn=2, call_id="q1", tool="AskUserQuestion", arguments={"questions": []}),
        ToolResult(
            turn=3, call_id="q1", status="failure", output="The user dismissed the questions."
        ),
    )
    assert "answered the agent's questions" not in summary.markdown


_PYTEST_FAILED = (
    "FAILED tests/test_cart.py::test_round_total - assert 10.004 == 10.0\n"
    "1 failed, 5 passed in 0.12s\n"
)


def test_a_step_to_fix_the_failing_check_names_the_check() -> None:
    # "Let me fix the test." said nothing of which test: the run that failed just before says it.
    summary = summary_of(
        UserMessage(turn=1, text="Round the cart total to cents."),
        edit(2, f"{ROOT}/shop/cart.py", old="return total", new="return round(total, 2)"),
        shell(3, "pytest -q", _PYTEST_FAILED, ok=False),
        AssistantMessage(turn=4, text="One failure left. Let me fix the test."),
        read(4, f"{ROOT}/tests/test_cart.py", "def test_round_total(): ...\n"),
    )
    steps = section(summary, "Next Steps")
    assert (
        "Let me fix the test. (the check failing then: `pytest -q`, turn 3, 1 failed: "
        "`tests/test_cart.py::test_round_total`)"
    ) in steps


def test_a_step_about_something_else_names_no_check() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Round the cart total to cents."),
        shell(2, "pytest -q", _PYTEST_FAILED, ok=False),
        AssistantMessage(turn=3, text="Now add the currency symbol to the receipt."),
        read(3, f"{ROOT}/shop/receipt.py", "def receipt(): ...\n"),
    )
    assert "the check failing then" not in section(summary, "Next Steps")
