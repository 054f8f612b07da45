"""What the harness appends to a user's message is not the user's words."""

from __future__ import annotations

from artifact_index.ingestion.events import UserMessage
from tests.support.session_steps import section, summary_of

_PLAN = "Implement the following plan:\n\n# Split the importer\n\n1. Move parsing to `parse.py`."
_NOTE = (
    "\n\n\nIf you need specific details from before exiting plan mode (like exact code snippets, error "
    "messages, or content you generated), read the full transcript at: /home/u/.claude/projects/x/abc.jsonl"
)


def test_the_plan_mode_pointer_after_an_approved_plan_is_not_in_the_users_words() -> None:
    summary = summary_of(UserMessage(turn=1, text=_PLAN + _NOTE))
    messages = section(summary, "User Messages")
    assert "Move parsing to `parse.py`." in messages
    assert "exiting plan mode" not in summary.markdown
    assert "abc.jsonl" not in summary.markdown


def test_a_user_who_writes_the_same_words_mid_message_keeps_them() -> None:
    text = "If you need specific details from before exiting plan mode, ask me.\nThen fix the importer."
    summary = summary_of(UserMessage(turn=1, text=text))
    assert "ask me." in section(summary, "User Messages")
