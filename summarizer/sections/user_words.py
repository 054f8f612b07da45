"""What the user wrote, told apart from the wrappers a host app puts around it.

Text in the user's slot that nobody typed (a background task's notice,
another agent's report, the harness's own output) is marked ``synthetic`` by
the adapter (:mod:`artifact_index.ingestion.harness_text`) and never reaches
the session's user messages.  What remains here is the user's message with a
host app's wrappers around their words (Conductor's ``<system_instruction>``,
Cursor's ``<timestamp>``/``<user_query>``, a ``<system_reminder>`` holding an
AGENTS.md, Gemini CLI's ``<session_context>``): wrappers are taken off and
the user's own words kept.
"""

from __future__ import annotations

import re

from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.session_state import UserSaid

__all__ = ["in_own_words", "is_pasted_document", "users_words"]

# Blocks a host app wraps around the user's words: instructions to the agent, not things the user asked.
_WRAPPER = lazy_pattern(
    r"<(?P<tag>system[_-]instructions?|system[_-]reminder|session[_-]context|timestamp)\b[^>]*>"
    r".*?</(?P=tag)>",
    re.I | re.S,
)
# The user's own words inside a host app's envelope.
_USER_QUERY = lazy_pattern(r"<user[_-]query>(?P<words>.*?)</user[_-]query>", re.I | re.S)
# What an attachment note names: the files the user attached, which the request refers to.
_ATTACHED = lazy_pattern(r"attached these files", re.I)
_LISTED = lazy_pattern(r"^\s*-\s+(?P<item>\S.*)$", re.M)


# A pasted document (a guide, a spec, a README) opens with its title as a heading and runs on: its rules are the
# document's, not choices the user made in the conversation.  A long request the user wrote opens with what they
# ask ("Make the following changes: ..."), and stays theirs.
_OPENING_HEADING = lazy_pattern(r"\A\s*#{1,6}\s+\S")
_DOCUMENT_LINES = 8


def is_pasted_document(text: str) -> bool:
    """Whether a user message is a pasted document rather than the user's own sentences."""
    lines = [line for line in text.splitlines() if line.strip()]
    return len(lines) >= _DOCUMENT_LINES and bool(_OPENING_HEADING.match(text))


def _attachments(block: str) -> str:
    if not _ATTACHED.search(block):
        return ""
    items = [m.group("item").strip() for m in _LISTED.finditer(block)]
    return f"(attached: {', '.join(items)})" if items else ""


def users_words(text: str) -> str:
    """``text`` without a host app's wrappers: the user's own words, empty when there are none."""
    query = _USER_QUERY.search(text)
    if query is not None:
        return query.group("words").strip()
    if not _WRAPPER.search(text):
        return text
    notes = [note for m in _WRAPPER.finditer(text) if (note := _attachments(m.group(0)))]
    words = _WRAPPER.sub("", text).strip()
    if not words:
        return ""
    return "\n".join([*notes, words]) if notes else words


def in_own_words(messages: list[UserSaid]) -> list[UserSaid]:
    """The user's messages in their own words: wrappers taken off, messages that were only wrappers dropped."""
    kept = []
    for message in messages:
        words = users_words(message.text)
        if not words.strip():
            continue
        kept.append(
            message if words == message.text else message.model_copy(update={"text": words})
        )
    return kept
