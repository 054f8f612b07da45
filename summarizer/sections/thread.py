"""The current thread: the work since the user's latest request, or since the item in progress was started.

An agent that continues after a compaction picks up one thread of work:
what the user last asked for, or the tracker item it set in progress after
that.  The summary spends its detail there (the definitions the thread
changed, the conclusions it reached) and says of earlier work only what
still bears on it.  When the thread changed no file and the agent was only
reading, searching and querying, it is an investigation: the summary then
states the open question, the agent's latest hypothesis in its own words
and the check it last announced.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.session_state import AssistantSaid, UserSaid
from summarizer.sections.summary_facts import SessionFacts

__all__ = [
    "SESSION_COMMANDS",
    "Investigation",
    "agent_turn",
    "first_request",
    "investigation",
    "is_request",
    "latest_request",
    "planned_at",
    "request_in_hand",
    "thread_start",
]

# Commands that act on the conversation itself, not requests to the agent: a bare `/compact` typed as
# the last message is what made the summary, never the task in hand nor something to answer after it.
# Signing in again, leaving or looking at settings asks the agent for nothing either.
SESSION_COMMANDS = frozenset(
    {
        "/compact",
        "/clear",
        "/context",
        "/cost",
        "/status",
        "/model",
        "/config",
        "/resume",
        "/help",
        "/login",
        "/logout",
        "/exit",
        "/quit",
        "/doctor",
        "/usage",
        "/permissions",
        "/mcp",
        "/ide",
        "/theme",
        "/vim",
    }
)

# A reply that agrees with what the agent proposed or goes on with it ("yes", "proceed", "option 2"): the
# agent's plan from before it still holds.
GO_AHEAD = lazy_pattern(
    r"^\s*(?:yes|yeah|yep|ok|okay|sure|great|thanks|thank you|good|perfect|sounds good|go ahead|"
    r"do it|let'?s|proceed|continue|go on|approved?|agreed|lgtm|no feedback)\b"
    r"|\boption\s*(?:\d+|[a-d])\b",
    re.I,
)

# A sentence that puts forward an explanation, not only a search for one.
_HYPOTHESIS = lazy_pattern(
    r"\b(?:found (?:it|the)|I (?:think|suspect|believe)|likely|probably|suspect|might be|may be|could be|seems? to|"
    r"appears? to|the (?:real |actual |root )?(?:issue|problem|cause|bug|reason) (?:is|was|might|may|could)|"
    r"this (?:explains|means|confirms)|which (?:means|explains))\b",
    re.I,
)
# A sentence that announces a check: "Let me check the actual order of events".
_CHECK = lazy_pattern(
    r"\b(?:let me|let's|I'll|I will|I need to|I should)\s+(?:also\s+)?(?:check|verify|look|see|trace|"
    r"confirm|find|compare|inspect|search|grep|read|examine|investigate|figure|validate|correlate)\b",
    re.I,
)
_SEARCHING = lazy_pattern(r"\b(?:let me|let's|I'll|I will|I need to)\b", re.I)
_SENTENCE = lazy_pattern(r"(?<=[.!?:])\s+|\n+")
# A request for an answer rather than a change: a question, or asked to look into something.
_INQUIRY = lazy_pattern(
    r"\?|\b(?:check|look|investigate|figure out|find out|debug|validate|verify|review|explain|"
    r"analy[sz]e|trace|why|how come|whether|what happens|is there|are there)\b",
    re.I,
)
_MIN_CALLS = 3  # fewer calls since the request is an answer, not an investigation
_CONCLUSION_CHARS = 360


def is_request(message: UserSaid) -> bool:
    """A message that asks something of the agent: not a bare slash command, nor a command on the session
    itself (``/compact`` typed as text)."""
    text = message.text.strip()
    # "/compact keep the API notes" or "/model opus" still acts on the session, whatever its arguments.
    if not text or text.split(maxsplit=1)[0].lower() in SESSION_COMMANDS:
        return False
    return message.channel != "command" or " " in text


def latest_request(messages: list[UserSaid]) -> UserSaid | None:
    """The user's latest request: their last message that is not a bare slash command."""
    for message in reversed(messages):
        if is_request(message):
            return message
    return messages[-1] if messages else None


def request_in_hand(
    messages: list[UserSaid], *, planned_at: int | None = None, agent_turn: int | None = None
) -> UserSaid | None:
    """The request the agent was working on: the latest one, or, when that was typed while the agent worked
    (queued), the latest one before it that was not: a queued message is delivered into that work, which went
    on ("changelog", "do we not have uv run in permissions?" while the agent got a PR merged).

    ``planned_at``: the turn the agent last wrote its task list.  Written after the queued message, the plan
    took it up ("Found new bug ..." queued, then a task "Investigate the sync crash" in progress): the queued
    message is then the request in hand.

    ``agent_turn``: the agent's last turn (a call or a message).  Nothing it did came after the queued message:
    the work it was typed into had ended, so it is the request now waiting, not an aside to that work (the first
    of those queued since that turn, when there are several).
    """
    latest = latest_request(messages)
    if latest is None or latest.channel != "queued":
        return latest
    if agent_turn is not None and agent_turn <= latest.turn:
        # The first of the messages since the agent's last turn (a prompt, then what was queued with it): the ones
        # after it follow it, in order.
        waiting = latest
        for message in reversed(messages[: messages.index(latest)]):
            if message.turn < agent_turn:
                break
            if is_request(message):
                waiting = message
        return waiting
    if planned_at is not None and planned_at > latest.turn:
        return latest
    before = [
        m for m in messages if m.turn < latest.turn and is_request(m) and m.channel != "queued"
    ]
    return before[-1] if before else latest


def agent_turn(facts: SessionFacts) -> int | None:
    """The agent's last turn: its last call or message, whichever came later."""
    turns = [call.turn for call in facts.activity]
    if facts.last_assistant is not None:
        turns.append(facts.last_assistant.turn)
    return max(turns, default=None)


def planned_at(facts: SessionFacts) -> int | None:
    """The turn the agent last wrote its task list, if it kept one."""
    return max((task.turn for task in facts.tasks), default=None)


def first_request(messages: list[UserSaid]) -> UserSaid | None:
    """The task as the user first stated it: their first message that is not a bare slash command."""
    for message in messages:
        if is_request(message):
            return message
    return None


def thread_start(facts: SessionFacts) -> int:
    """The turn the current thread started: the latest request, or a tracker item set in progress after it."""
    latest = latest_request(facts.user_messages)
    turns = [latest.turn] if latest is not None else []
    turns += [
        item.started_turn
        for item in facts.work_items
        if item.status == "in_progress" and item.started_turn is not None
    ]
    return max(turns, default=0)


@dataclass(frozen=True)
class Investigation:
    """A thread that changed no file: what was asked, what the agent concluded, what it checked since."""

    question: UserSaid
    calls: int  # tool calls since the question
    conclusion: (
        AssistantSaid | None
    )  # the agent's latest conclusion or explanation, its prose cut short
    checks: list[AssistantSaid]  # the checks it announced after that conclusion, the latest last


def _prose(text: str, limit: int = _CONCLUSION_CHARS) -> str:
    """``text`` without its code blocks and tables, on one line, cut to ``limit`` characters."""
    kept: list[str] = []
    in_code = False
    for line in text.splitlines():
        if line.strip().startswith("```"):
            in_code = not in_code
            continue
        if not in_code and line.strip() and not line.strip().startswith("|"):
            kept.append(line.strip())
    prose = " ".join(kept).replace("’", "'")
    return prose if len(prose) <= limit else prose[: limit - 1].rstrip() + "…"


def _explaining(text: str) -> str:
    """The sentences of ``text`` that put an explanation forward (not only announce a search for one)."""
    kept = [
        s.strip()
        for s in _SENTENCE.split(_prose(text, len(text)))
        if _HYPOTHESIS.search(s) and not _SEARCHING.search(s)
    ]
    explained = " ".join(kept)
    return (
        explained
        if len(explained) <= _CONCLUSION_CHARS
        else explained[: _CONCLUSION_CHARS - 1].rstrip() + "…"
    )


def investigation(facts: SessionFacts) -> Investigation | None:
    """The investigation the session stopped in the middle of, or None.

    None when the request asks for a change rather than an answer, or the thread changed files, made few
    calls, took up a tracker item, or ended with the agent's answer rather than its calls.
    """
    question = latest_request(facts.user_messages)
    if question is None or facts.thread_calls < _MIN_CALLS or not _INQUIRY.search(question.text):
        return None  # reading before a change asked for is preparation, not an investigation
    if question.channel == "queued":
        return None  # typed while the agent worked: the calls since are that work's, not a search for the answer
    if any(
        turn >= question.turn for f in [*facts.changed, *facts.reverted] for turn in f.changed_turns
    ):
        return None
    if any(
        item.status == "in_progress" and (item.started_turn or 0) >= question.turn
        for item in facts.work_items
    ):
        return None  # an item taken up since: work about to start, not a question
    last = facts.last_assistant
    if last is None or not any(call.turn >= last.turn for call in facts.activity):
        return None  # the agent's last word came after its calls: an answer given, not a search under way
    said = [m for m in facts.thread_messages if m.turn >= question.turn]
    found = [m for m in facts.findings if m.turn >= question.turn]
    conclusion = AssistantSaid(turn=found[-1].turn, text=_prose(found[-1].text)) if found else None
    if conclusion is None:
        explained = [(m, _explaining(m.text)) for m in said[:-1]]
        latest = [(m, text) for m, text in explained if text]
        if latest:
            conclusion = AssistantSaid(turn=latest[-1][0].turn, text=latest[-1][1])
    after = conclusion.turn if conclusion is not None else question.turn
    checks = []
    for message in said:
        if message.turn > after:
            announced = [
                s.strip().rstrip(":") for s in _SENTENCE.split(message.text) if _CHECK.search(s)
            ]
            if announced:
                checks.append(AssistantSaid(turn=message.turn, text=announced[-1]))
    return Investigation(
        question=question, calls=facts.thread_calls, conclusion=conclusion, checks=checks[-3:]
    )
