"""What the agent that continues reads in the default summary: the user's words, where it stopped, what is next.

Small hand-written sessions, summarized offline: the latest request and
feedback stay whole while early messages shorten; a sentence the next tool
call carried out is not a next step; an open task the index saw done since
the list was written says so; an unanswered message comes first.
"""

from __future__ import annotations

from itertools import count

from artifact_index.ingestion.events import (
    AssistantMessage,
    Event,
    FileOperation,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
)
from summarizer.narrative.extractive import ExtractiveWriter
from summarizer.sections.index_sections import MAX_DETAIL, render_index_section
from summarizer.sections.templates import load_template
from summarizer.summary import Summary, summarize

_ids = count(1)
LONG = (
    "Please look at the importer. " + "It drops rows whose amount has more than two decimals. " * 30
)


def call(
    turn: int,
    tool: str,
    op: FileOperation,
    output: str = "",
    status: str = "success",
    **arguments: object,
) -> list[Event]:
    call_id = f"c{next(_ids)}"
    return [
        ToolCall(
            turn=turn, call_id=call_id, tool=tool, arguments=dict(arguments), operations=(op,)
        ),
        ToolResult(
            turn=turn,
            call_id=call_id,
            status=status,
            output=output,  # type: ignore[arg-type]
            failure="exit_status" if status == "failure" else None,
        ),
    ]


def summary_of(*steps: Event | list[Event]) -> Summary:
    events: list[Event] = [SessionInfo(turn=0, cwd="/shop")]
    for step in steps:
        events += step if isinstance(step, list) else [step]
    return summarize(
        events, template=load_template("default"), writer=ExtractiveWriter(), format="fixture"
    )


def section(summary: Summary, title: str) -> str:
    return summary.markdown.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_early_messages_shorten_but_the_latest_request_and_feedback_stay_whole() -> None:
    feedback = (
        "no, keep the rounding in cents: "
        + "the ledger must match the bank statement to the cent. " * 20
    )
    summary = summary_of(
        UserMessage(turn=1, text=LONG),
        call(
            2, "Read", FileOperation(action="read", path="/shop/importer.py"), "def load(): ...\n"
        ),
        UserMessage(turn=2, text=feedback, channel="feedback"),
        UserMessage(turn=3, text=LONG.replace("importer", "exporter")),
    )
    for detail in range(MAX_DETAIL + 1):
        shown = render_index_section("user_messages", summary.facts, detail)
        assert " ".join(feedback.split()) in " ".join(shown.split())
        assert " ".join(LONG.replace("importer", "exporter").split()) in " ".join(shown.split())
    assert (
        "(turn 2, feedback when refusing a call) no, keep the rounding in cents" in summary.markdown
    )
    assert "…" in render_index_section("user_messages", summary.facts, MAX_DETAIL).splitlines()[0]


def test_a_sentence_the_next_call_carried_out_is_not_a_next_step() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Fix the rounding in the importer."),
        AssistantMessage(turn=2, text="Let me check how the importer rounds amounts today:"),
        call(2, "Read", FileOperation(action="read", path="/shop/importer.py"), "round(x, 2)\n"),
    )
    steps = section(summary, "Next Steps")
    # Said as what the agent was doing, with the call that did it, not as a step still to take.
    assert steps.startswith(
        "- Where the work stood when the context filled, on the latest request (turn 1, under Session "
        "Intent). What the agent was doing, in its last words (turn 2): "
        '"Let me check how the importer rounds amounts today:"; calls made since: Read `importer.py` '
        "(turn 2, success)."
    )
    assert "The agent said it would" not in steps
    stopped = section(summary, "Where It Stopped")
    assert (
        "The agent's last message (turn 2):\n  Let me check how the importer rounds amounts today:"
        in stopped
    )
    assert (
        "- (turn 2) Read `importer.py` → success" in stopped
    )  # inside the workspace, relative to it


def test_a_call_in_the_same_turn_as_the_last_message_means_mid_work_not_waiting() -> None:
    """The text of a turn comes before its calls: a message followed by a call of its own turn was not the
    agent handing back to the user."""
    summary = summary_of(
        UserMessage(turn=1, text="Fix the rounding in the importer."),
        AssistantMessage(turn=2, text="The importer rounds too early. Checking the tests."),
        call(2, "Read", FileOperation(action="read", path="/shop/test_importer.py"), "x\n"),
    )
    steps = section(summary, "Next Steps")
    assert "waiting for the user" not in steps
    assert steps.startswith(
        "- Where the work stood when the context filled, on the latest request (turn 1"
    )


def test_a_plan_no_call_followed_is_a_next_step() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Fix the rounding in the importer."),
        call(
            2,
            "Edit",
            FileOperation(
                action="edit", path="/shop/importer.py", old="round(x)", new="round(x, 2)"
            ),
        ),
        AssistantMessage(
            turn=3, text="The rounding is fixed. Next I'll add a test for three-decimal amounts."
        ),
    )
    assert "- The agent said it would: Next I'll add a test for three-decimal amounts." in section(
        summary, "Next Steps"
    )


def test_an_unanswered_message_comes_first() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Fix the rounding in the importer."),
        AssistantMessage(turn=2, text="Done: amounts are rounded to cents."),
        UserMessage(turn=3, text="Does the exporter round the same way?"),
    )
    assert section(summary, "Next Steps").startswith(
        "- Answer the user's latest message (turn 3, whole under User Messages): "
        '"Does the exporter round the same way?"'
    )


def test_a_bare_compact_command_is_not_a_message_to_answer() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Fix the rounding in the importer."),
        AssistantMessage(turn=2, text="Done: amounts are rounded to cents."),
        UserMessage(turn=3, text="/compact"),
    )
    assert "Answer the user's latest message" not in section(summary, "Next Steps")


def test_signing_in_again_is_not_a_message_to_answer_and_the_question_before_it_is() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Fix the rounding in the importer."),
        AssistantMessage(turn=2, text="Done: amounts are rounded to cents."),
        UserMessage(turn=3, text="what can we do next?"),
        AssistantMessage(turn=4, text="API Error: 401 token expired · Please run /login"),
        UserMessage(turn=5, text="/login", channel="command"),
    )
    steps = section(summary, "Next Steps")
    assert steps.startswith("- Answer the user's latest message (turn 3, ")
    assert "API Error" not in section(summary, "Where It Stopped")


def test_waiting_for_a_workflow_it_started_is_not_waiting_for_the_user() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Verify the importer change."),
        call(2, "Bash", FileOperation(action="shell", path="/shop"), "verification running\n"),
        AssistantMessage(turn=3, text="I'll wait for the verification workflow to finish."),
    )
    steps = section(summary, "Next Steps")
    assert "waiting for the user" not in steps
    assert steps.startswith(
        "- The agent's last message (turn 3) ended its turn to wait for work it had started, not for the "
        'user: "I\'ll wait for the verification workflow to finish."'
    )
    assert "The agent said it would" not in steps


def test_an_open_task_the_index_saw_done_since_says_so() -> None:
    todo = {
        "todos": [
            {"content": "Add `round_cents` to money.py", "status": "pending"},
            {"content": "Update the changelog", "status": "pending"},
        ]
    }
    summary = summary_of(
        UserMessage(turn=1, text="Round amounts to cents everywhere."),
        call(2, "TodoWrite", FileOperation(action="unknown", detail="todo list"), "ok", **todo),
        call(
            4,
            "Write",
            FileOperation(
                action="create",
                path="/shop/money.py",
                content="def round_cents(x):\n    return round(x, 2)\n",
            ),
        ),
    )
    tasks = section(summary, "Pending Tasks")
    assert (
        "- [pending] Add `round_cents` to money.py (but since then: `round_cents` added at turn 4;"
        in tasks
    )
    assert "- [pending] Update the changelog\n" in tasks + "\n"
    steps = section(summary, "Next Steps")
    assert "Check whether this is already done (`round_cents` added at turn 4" in steps
    assert "- Do: Update the changelog" in steps


def test_a_refused_commit_leaves_the_fix_then_the_commit_as_next_steps() -> None:
    commit = "git add -A && git commit -m 'round to cents'"
    summary = summary_of(
        UserMessage(turn=1, text="Round amounts to cents and commit."),
        call(
            2,
            "Edit",
            FileOperation(action="edit", path="/shop/money.py", old="round(x)", new="round(x, 2)"),
        ),
        call(
            3,
            "Bash",
            FileOperation(action="shell", command=commit, source="shell"),
            "Pre-commit validation failed:\n[FORMAT] money.py is not formatted.\nRun 'ruff format' to fix.\n",
            status="failure",
            command=commit,
        ),
    )
    work = section(summary, "Work State")
    assert (
        work
        == "No commit seen from the session's own calls.\nChanged and not committed: `money.py`\n"
    )
    steps = section(summary, "Next Steps")
    # What no one stated as a step is not guessed as one: the refusal is under Errors, the change under Work State.
    assert "Resolve the open error" not in steps
    assert "Pre-commit validation failed: [FORMAT] money.py is not formatted." in section(
        summary, "Errors"
    )


def test_an_agent_mid_task_is_not_said_to_wait_for_the_user() -> None:
    # A call in the same response as the message, or a message saying what it does next.
    for steps in (
        [
            AssistantMessage(turn=2, text="The importer rounds twice. Checking the tests."),
            call(2, "Read", FileOperation(action="read", path="/shop/importer.py"), "x\n"),
        ],
        [
            call(2, "Read", FileOperation(action="read", path="/shop/importer.py"), "x\n"),
            AssistantMessage(turn=3, text="Found it. Now I'll fix the rounding in load()."),
        ],
    ):
        summary = summary_of(UserMessage(turn=1, text="Fix the rounding in the importer."), *steps)
        steps_said = section(summary, "Next Steps")
        assert "waiting for the user" not in steps_said


def test_an_agent_that_handed_over_is_waiting_for_the_user() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Fix the rounding in the importer."),
        call(2, "Read", FileOperation(action="read", path="/shop/importer.py"), "x\n"),
        AssistantMessage(turn=3, text="Fixed the rounding in load(); the tests pass."),
    )
    assert "waiting for the user" in section(summary, "Next Steps")
