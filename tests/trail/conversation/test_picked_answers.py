"""The user's picks in the agent's question tool, read from the tool's result."""

from __future__ import annotations

from artifact_index.ingestion.events import ToolCall, ToolResult
from artifact_index.trail.conversation.picked_answers import picked_answers

_PICKED = (
    'User has answered your questions: "Which store?"="The \\"main\\" one", "Commit how?"="New commit". '
    "You can now continue with the user's answers in mind."
)


def test_each_pick_is_beside_its_question() -> None:
    [answer] = picked_answers(
        [
            ToolCall(turn=4, call_id="q", tool="AskUserQuestion", arguments={}),
            ToolResult(turn=5, call_id="q", status="success", output=_PICKED),
        ]
    )
    assert (answer.turn, answer.asked_turn) == (5, 4)
    assert [(a.number, a.question, a.answer) for a in answer.answers] == [
        (1, "Which store?", 'The "main" one'),
        (2, "Commit how?", "New commit"),
    ]


def test_a_sub_agents_question_is_not_the_users() -> None:
    result = ToolResult(turn=5, call_id="q", status="success", output=_PICKED, sidechain="a1")
    assert picked_answers([result]) == []


def test_other_results_hold_no_picks() -> None:
    result = ToolResult(turn=5, call_id="q", status="success", output='"a"="b"')
    assert picked_answers([result]) == []
