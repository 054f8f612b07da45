"""The offline narrative: extractive, deterministic, no API key needed.

Used when no key is configured or ``--no-llm`` is given.  It writes nothing
it did not read: the intent is the user's own requests, the current state is
the last test results, the open errors and what is committed, the next steps
are the user's unanswered message, the open tasks, the open errors, and the
agent's own plan only when no tool call carried it out already (a "Let me
check X:" followed by the call that checked X is what the agent was doing,
shown under Where It Stopped, not a step still to take).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from summarizer.narrative.model import NarrativeReply, NarrativeRequest, SectionReply
from summarizer.sections.facts import ErrorFact, SessionFacts
from summarizer.sections.index_sections import latest_request

__all__ = ["ExtractiveWriter"]

_PLAN = re.compile(
    r"^(next,?|then,?|now,?|finally,?)?\s*(I'll|I will|I'm going to|let me|let's|we should|we need to|"
    r"the next step|next step|next,|todo:|remaining:)", re.I)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_MIN_PLAN_WORDS = 5


def _first_line(text: str, limit: int = 300) -> str:
    line = " ".join(text.strip().split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _intent(facts: SessionFacts) -> list[str]:
    requests = [m for m in facts.user_messages if len(m.text.strip()) > 3 and m.channel != "command"]
    if not requests:
        return []
    first, latest = requests[0], latest_request(requests)
    items = [f"The user asked (turn {first.turn}): {_first_line(first.text, 300)}"]
    if latest is not None and latest is not first:
        items.append(f"Latest request (turn {latest.turn}): {_first_line(latest.text, 200)} "
                     f"(whole under User Messages, with the {len(facts.user_messages)} messages in order)")
    return items


def _current_state(facts: SessionFacts) -> list[str]:
    items = []
    for test in facts.tests[-2:]:
        items.append(f"Last run of `{_first_line(test.command, 80)}` (turn {test.turn}): "
                     f"{test.passed} passed, {test.failed} failed.")
    open_errors = facts.open_errors
    if open_errors:
        items.append(f"{len(open_errors)} error(s) open; latest: `{_first_line(open_errors[-1].message, 160)}`.")
    elif facts.errors:
        items.append(f"All {len(facts.errors)} error(s) seen were resolved.")
    changed = facts.changed
    if changed or facts.reverted:
        reverted = f", {len(facts.reverted)} reverted" if facts.reverted else ""
        work = facts.work
        committed = (f"; {len(work.commits)} commit(s) made, {len(work.uncommitted)} changed file(s) not committed"
                     if work.commits else "; nothing committed in the session")
        items.append(f"{len(facts.created)} file(s) created, {len(facts.modified)} modified, "
                     f"{len(facts.deleted)} deleted{reverted}{committed}.")
    return items


def _carried_out(facts: SessionFacts) -> bool:
    """Whether a tool call came after the agent's last message (so what it announced was done)."""
    last = facts.last_assistant
    return last is not None and any(call.turn >= last.turn for call in facts.activity)


def _stated_plan(facts: SessionFacts) -> list[str]:
    if facts.last_assistant is None or _carried_out(facts):
        return []
    plan = [s.strip() for s in _SENTENCE.split(facts.last_assistant.text)
            if _PLAN.match(s.strip()) and len(s.split()) >= _MIN_PLAN_WORDS and not s.strip().endswith(":")]
    return [_first_line(s, 250) for s in plan[:3]]


def _unanswered(facts: SessionFacts) -> list[str]:
    """The user's last message, when nothing the agent did came after it."""
    latest = facts.user_messages[-1] if facts.user_messages else None
    if latest is None:
        return []
    agent_turns = [call.turn for call in facts.activity]
    if facts.last_assistant is not None:
        agent_turns.append(facts.last_assistant.turn)
    if agent_turns and max(agent_turns) > latest.turn:
        return []
    return [f"Answer the user's latest message (turn {latest.turn}), shown whole under User Messages."]


def _next_steps(facts: SessionFacts) -> list[str]:
    items = _unanswered(facts)
    for task in facts.open_tasks:
        verb = "Continue" if task.status == "in_progress" else "Do"
        if task.done_evidence:
            items.append(f"Check whether this is already done ({task.done_evidence}): {task.content}")
        else:
            items.append(f"{verb}: {task.content}")
    items += [f"The agent said it would: {s}" for s in _stated_plan(facts)]
    items += [f"Resolve the open error `{_first_line(e.message, 150)}`" for e in facts.open_errors[:3]]
    refused = [e for e in facts.open_errors if e.command and "git commit" in e.command]
    if refused and facts.work.uncommitted:
        items.append(f"Then commit: the last `git commit` (turn {refused[-1].last_turn}) failed on it, and "
                     f"{len(facts.work.uncommitted)} changed file(s) are not committed.")
    if not items:
        latest = latest_request(facts.user_messages)
        where = ""
        if facts.activity:
            last = facts.activity[-1]
            where = f"; the last call was {last.tool} `{_first_line(last.target, 100)}` (turn {last.turn}, {last.status})"
        if latest is not None:
            items.append(f"Carry on with the latest request (turn {latest.turn}): "
                         f"\"{_first_line(latest.text, 200)}\"{where}.")
        elif where:
            items.append(f"Carry on from where the work stopped{where}.")
    return items


def _decisions(facts: SessionFacts, *, with_root_causes: bool = True) -> list[str]:
    # The latest few: earlier ones were often revisited, and each costs the reader's attention.
    # Root causes found belong here too, unless the template gives them a section of their own.
    return [f"(turn {d.turn}) {'Root cause: ' if d.kind == 'root-cause' else ''}{d.text}" for d in facts.decisions
            if with_root_causes or d.kind != "root-cause"][-8:]


def _root_cause(facts: SessionFacts) -> list[str]:
    causes = [f"(turn {d.turn}) {d.text}" for d in facts.decisions if d.kind == "root-cause"]
    if causes:
        return causes[-3:]
    if facts.original_error is not None:
        return [f"Not established; the original error was `{_first_line(facts.original_error.message, 200)}`."]
    return []


def _key_concepts(facts: SessionFacts) -> list[str]:
    languages: dict[str, int] = {}
    for f in [*facts.changed, *facts.read]:
        ext = f.path.rsplit(".", 1)[-1] if "." in f.path.rsplit("/", 1)[-1] else ""
        if ext:
            languages[ext] = languages.get(ext, 0) + 1
    items = []
    if languages:
        top = sorted(languages.items(), key=lambda item: (-item[1], item[0]))[:6]
        items.append("File types worked on: " + ", ".join(f".{ext} ({n})" for ext, n in top) + ".")
    symbols = [s.name for f in facts.changed for s in f.symbols][:12]
    if symbols:
        items.append("Symbols changed: " + ", ".join(f"`{s}`" for s in symbols) + ".")
    return items


def _seen(error: ErrorFact) -> str:
    if error.first_turn == error.last_turn:
        return f"seen in turn {error.first_turn}"
    return f"seen in turns {error.first_turn}–{error.last_turn}"


def _problem_solving(facts: SessionFacts) -> list[str]:
    solved = [e for e in facts.errors if e.resolved]
    items = [f"Resolved `{_first_line(e.message, 150)}` ({_seen(e)}): {e.resolution or 'resolved'}"
             + (f", after changes to {', '.join(f'`{p}`' for p in e.fixed_by[:3])}" if e.fixed_by else "") + "."
             for e in solved[-8:]]
    items += [f"Still open: `{_first_line(e.message, 150)}`." for e in facts.open_errors[:5]]
    return items


def _analysis(facts: SessionFacts) -> list[str]:
    return [
        f"Extractive summary written offline from {facts.turns} turns of a {facts.format or 'transcript'} session: "
        "file, symbol, error, test and task sections are exact; narrative sections quote the transcript.",
    ]


_SCHEMA_LIKE = re.compile(r"(migrat|schema|\.sql$|models?\.py$|\.prisma$)", re.I)


def _source_schema(facts: SessionFacts) -> list[str]:
    # What the migration starts from: schema files it read, deleted or renamed away.
    paths = [f.path for f in [*facts.read, *facts.deleted] if _SCHEMA_LIKE.search(f.path)]
    paths += [f.renamed_from for f in facts.created if f.renamed_from and _SCHEMA_LIKE.search(f.renamed_from)]
    paths += [f.path for f in facts.modified if _SCHEMA_LIKE.search(f.path)]
    if not paths:
        return []
    return ["Schema files as they were before the change: "
            + ", ".join(f"`{p}`" for p in dict.fromkeys(paths)) + "."]


def _target_schema(facts: SessionFacts) -> list[str]:
    paths = [f.path for f in [*facts.created, *facts.modified] if _SCHEMA_LIKE.search(f.path)]
    if not paths:
        return []
    return ["Schema files written for the target: " + ", ".join(f"`{p}`" for p in paths) + "."]


def _nothing(facts: SessionFacts) -> list[str]:
    # A user template's own narrative section: nothing to quote for it offline.
    return []


_EXTRACTORS: dict[str, Callable[[SessionFacts], list[str]]] = {
    "intent": _intent,
    "current_state": _current_state,
    "next_steps": _next_steps,
    "decisions": _decisions,
    "root_cause": _root_cause,
    "key_concepts": _key_concepts,
    "problem_solving": _problem_solving,
    "analysis": _analysis,
    "source_schema": _source_schema,
    "target_schema": _target_schema,
}


class ExtractiveWriter:
    """A :class:`~summarizer.narrative.model.NarrativeWriter` that quotes instead of writing.

    It regenerates from the facts of the whole index each time, so it
    supersedes every earlier item of its own; items of an earlier LLM cycle
    are kept (the anchor), since the index cannot contradict prose it did not
    write.
    """

    needs_span = False  # it reads the index facts, not the transcript text

    def write(self, request: NarrativeRequest) -> NarrativeReply:
        sections = {}
        own_root_cause = any(section.key == "root_cause" for section in request.sections)
        for section in request.sections:
            extractor = _EXTRACTORS.get(section.key, _nothing)
            if section.key == "decisions":
                items = _decisions(request.facts, with_root_causes=not own_root_cause)
            else:
                items = extractor(request.facts)
            earlier = request.previous.items(section.key)
            superseded = [n for n, item in enumerate(earlier, start=1) if item.origin == "extractive"]
            sections[section.key] = SectionReply(items=items, superseded=superseded)
        return NarrativeReply(sections=sections, origin="extractive")
