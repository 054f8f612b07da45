"""Decisions for the offline narrative: the agent's reasoned choices and root causes, and the user's own.

The index proposes the agent's decisions (a choice with its reason, a root
cause found); :func:`worth_stating` keeps the ones a reader can act on.  The
user settles choices too, in their own words: "No I think this is fine ...
This is fine.", "let's do the hint if it's small", "no, don't commit".  Those
are read from every user message after the first (the first states the task,
which the intent already holds) and quoted: the sentences that settle the
choice, not a paraphrase.  A reply that answers the agent's numbered questions
by number ("1. no 2. we look at 50 commits") is stated with the questions it
answers (see :mod:`artifact_index.trail.conversation.question_answers`).
"""

from __future__ import annotations

import re

from artifact_index.facts.decisions import Decision
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.conversation.told import Answer
from artifact_index.trail.session_state import UserSaid
from summarizer.sections.summary_facts import SessionFacts
from summarizer.sections.text import sentences
from summarizer.sections.thread import latest_request, thread_start
from summarizer.sections.user_words import is_pasted_document

__all__ = ["answers_text", "decisions", "user_choices", "worth_stating"]

# Words that give a choice its reason or its object: without one, "I'll use that alias" says nothing
# to a reader who has not seen what "that" was.
_REASONED = lazy_pattern(
    r"\b(?:because|since|so that|so the|to avoid|to keep|to make|instead of|rather than|"
    r"otherwise|which means|trade-?off)\b",
    re.I,
)
_DEICTIC = lazy_pattern(
    r"\b(?:use|keep|go with|stick with|switch to|choose|chose)\s+(?:that|this|it|those|these|them)\b",
    re.I,
)
# A sentence of the user's that settles a choice: accepts ("this is fine", "go ahead"), picks ("let's do X",
# "go with", "instead"), or refuses ("no, ...", "don't ...", "no need to").
_SETTLES = lazy_pattern(
    r"\b(?:this|that|it)(?:'s| is) (?:fine|ok|okay|good enough)\b|\blet'?s (?:do|go with|use|keep|stick with|not|"
    r"try|apply|skip|leave)\b|\bgo with\b|\binstead\b|\bi(?:'d)? prefer\b|\bno need to\b|\bsounds good\b|"
    r"\bgo ahead\b|^(?:no|nope)\b[,.!]|^(?:please )?(?:don'?t|do not)\b",
    re.I,
)
# A sentence that announces what the agent does next ("I'll update issue #532 ...", "Let me create ..."):
# an action about to be taken, not a choice made or a cause found.
_ANNOUNCES = lazy_pattern(
    r"^(?:(?:now|next|then|ok(?:ay)?|first)[,!.]?\s+)*(?:I'll|I will|let me|let's|I'm going to|I need to|"
    r"I should)\b",
    re.I,
)
_EARLIER_KEPT = 3  # decisions from before the current thread: the latest few, said as earlier
_USER_CHOICES = 4
_ANSWER_SETS = (
    2  # the user's latest replies to numbered questions: earlier designs were often revisited
)
_QUOTE_CHARS = 300
_SHORT = 8  # words: a settling sentence this short refers to the one before it


# "Understood — I'll work only from what you shared rather than ...": the agent taking up the user's
# instruction, which User Messages quote in the user's words; not a choice of its own, and read as one it
# outlived the user's next request that lifted it.
_ACKNOWLEDGES = lazy_pattern(
    r"^(?:understood|got it|noted|ok(?:ay)?|sure|will do|of course)\b\s*[—–,.!:;-]", re.I
)


def worth_stating(decision: Decision) -> bool:
    """A decision the reader can act on: a root cause, a rejected alternative, a reasoned or concrete choice."""
    if decision.kind == "root-cause":
        # A cause found is stated, not announced: "I'll update issue #532 ..." is an action about to be taken.
        return not _ANNOUNCES.match(decision.text.strip().lstrip("*#> ").strip())
    if _ACKNOWLEDGES.match(decision.text.strip().lstrip("*#> ").strip()):
        return False
    if decision.kind != "choice":
        return True
    if _DEICTIC.search(decision.text) and not decision.files and not decision.symbols:
        return False
    return bool(decision.files or decision.symbols or _REASONED.search(decision.text))


def _settling(message: UserSaid) -> str | None:
    """The sentences of a user message that settle a choice, quoted; None when none does."""
    said = [s.strip() for s in sentences(message.text.strip()) if s.strip()]
    settling = [
        n for n, s in enumerate(said) if _SETTLES.search(s) and not s.endswith("?")
    ]  # a question
    if not settling:  # settles nothing
        return None
    # The settling sentences, each short one ("This is fine.") with the sentence it refers to; not the
    # questions and requests around them, which are under User Messages.
    kept = sorted(
        {
            m
            for n in settling
            for m in ((n - 1, n) if len(said[n].split()) < _SHORT else (n,))
            if m >= 0
        }
    )
    text = ""
    for previous, n in zip([None, *kept], kept, strict=False):
        text += (
            " " if previous is not None and n == previous + 1 else (" … " if text else "")
        ) + said[n]
    return text if len(text) <= _QUOTE_CHARS else text[: _QUOTE_CHARS - 1].rstrip() + "…"


def user_choices(facts: SessionFacts) -> list[UserSaid]:
    """The user's messages that settle a choice, the settling sentences quoted; the latest few.

    The first message states the task and the latest is the request in hand: the intent holds both.
    """
    found = []
    latest = latest_request(facts.user_messages)
    for message in facts.user_messages[1:]:
        if message.channel == "command" or message is latest:
            continue  # the latest request is the task in hand, stated whole as such
        if is_pasted_document(message.text):
            continue  # a pasted guide's "don't ..." is the guide's rule, not a choice made in the session
        quoted = _settling(message)
        if quoted is not None:
            found.append(UserSaid(turn=message.turn, text=quoted, channel=message.channel))
    return found[-_USER_CHOICES:]


def decisions(facts: SessionFacts, *, with_root_causes: bool = True) -> list[str]:
    """The user's choices and the agent's decisions worth stating, in the order they were made; the latest few.

    Root causes found belong here too, unless the template gives them a section of their own.  Those from
    before the current thread are fewer and said as earlier: raters read them as the state of things when
    the work had since reversed them.
    """
    agent = [
        (d.turn, f"{'Root cause: ' if d.kind == 'root-cause' else ''}{d.text}")
        for d in facts.decisions
        if (with_root_causes or d.kind != "root-cause") and worth_stating(d)
    ][-8:]
    answered = {a.turn for a in facts.answers}
    user = [
        (
            m.turn,
            "The user"
            + (" (refusing a call)" if m.channel == "feedback" else "")
            + f': "{m.text}"',
        )
        for m in user_choices(facts)
        # "2. That sounds good." says nothing without what it answers (the message is under User Messages).
        if m.turn not in answered and len(m.text.split()) >= _SHORT - 2
    ]
    answers = [(a.turn, answers_text(a, dated=False)) for a in facts.answers[-_ANSWER_SETS:]]
    since = thread_start(facts)
    found = sorted([*agent, *user, *answers], key=lambda pair: pair[0])
    said: set[str] = set()
    unique = []
    for turn, text in found:  # a message sent twice (a resumed session) settles one choice
        if text not in said:
            said.add(text)
            unique.append((turn, text))
    earlier = [pair for pair in unique if pair[0] < since][-_EARLIER_KEPT:]
    current = [pair for pair in unique if pair[0] >= since]
    # The agent's earlier words are quoted as said then: nothing here knows whether later work reversed them.
    theirs = set(agent)
    return [
        f"(turn {turn}, before the latest request{_MAY_BE_SUPERSEDED if (turn, text) in theirs else ''}) {text}"
        for turn, text in earlier
    ] + [f"(turn {turn}) {text}" for turn, text in current]


_MAY_BE_SUPERSEDED = "; the agent's words then, later work may have changed it"


def answers_text(found: Answer, *, dated: bool = True) -> str:
    """The user's answers to the agent's numbered questions, on one line, each after the question it answers."""
    return (
        (f"(turn {found.turn}) " if dated else "")
        + f"The user answered the agent's questions (turn {found.asked_turn}): "
        + "; ".join(
            f'{a.number}. {a.question} → "{" ".join(a.answer.split())}"' for a in found.answers
        )
    )
