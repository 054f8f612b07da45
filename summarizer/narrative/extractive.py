"""The offline narrative: extractive, deterministic, no API key needed.

Used when no key is configured or ``--no-llm`` is given.  It writes nothing
it did not read: the intent is the user's own requests, the current state is
the last test results, the open errors and the agent's last message, the
next steps are the open tasks and the plan the agent stated, decisions are
the index's candidate decisions.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from summarizer.narrative.model import NarrativeReply, NarrativeRequest, SectionReply
from summarizer.sections.facts import ErrorFact, SessionFacts

__all__ = ["ExtractiveWriter"]

_PLAN = re.compile(
    r"^(next,?|then,?|now,?|finally,?)?\s*(I'll|I will|I'm going to|let me|let's|we should|we need to|"
    r"the next step|next step|next,|todo:|remaining:)", re.I)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


def _first_line(text: str, limit: int = 300) -> str:
    line = " ".join(text.strip().split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _intent(facts: SessionFacts) -> list[str]:
    requests = [m for m in facts.user_messages if len(m.text.strip()) > 3]
    if not requests:
        return []
    first = requests[0]
    items = [f"The user asked (turn {first.turn}): {_first_line(first.text, 600)}"]
    items += [f"Then (turn {m.turn}): {_first_line(m.text, 200)}" for m in requests[1:8]]
    if len(requests) > 8:
        items.append(f"…and {len(requests) - 8} more user messages (see All User Messages).")
    return items


def _current_state(facts: SessionFacts) -> list[str]:
    items = []
    for test in facts.tests[-3:]:
        items.append(f"Last run of `{_first_line(test.command, 80)}` (turn {test.turn}): "
                     f"{test.passed} passed, {test.failed} failed.")
    open_errors = facts.open_errors
    if open_errors:
        items.append(f"{len(open_errors)} error(s) still open; latest: `{_first_line(open_errors[-1].message, 200)}`.")
    elif facts.errors:
        items.append(f"All {len(facts.errors)} error(s) seen were resolved.")
    changed = facts.changed
    if changed or facts.reverted:
        reverted = f", {len(facts.reverted)} reverted" if facts.reverted else ""
        items.append(f"{len(facts.created)} file(s) created, {len(facts.modified)} modified, "
                     f"{len(facts.deleted)} deleted{reverted} so far.")
    if facts.last_assistant is not None:
        items.append(f"The agent's last message (turn {facts.last_assistant.turn}): "
                     f"{_first_line(facts.last_assistant.text, 500)}")
    return items


def _stated_plan(facts: SessionFacts) -> list[str]:
    if facts.last_assistant is None:
        return []
    plan = [s.strip() for s in _SENTENCE.split(facts.last_assistant.text) if _PLAN.match(s.strip())]
    return [_first_line(s, 250) for s in plan[:4]]


def _next_steps(facts: SessionFacts) -> list[str]:
    items = [f"{'Continue' if t.status == 'in_progress' else 'Do'}: {t.content}" for t in facts.open_tasks]
    items += [f"Stated plan: {s}" for s in _stated_plan(facts)]
    items += [f"Resolve the open error `{_first_line(e.message, 150)}`" for e in facts.open_errors[:3]]
    return items


def _decisions(facts: SessionFacts) -> list[str]:
    return [f"(turn {d.turn}) {d.text}" for d in facts.decisions if d.kind != "root-cause"][:15]


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
    items = [f"Resolved `{_first_line(e.message, 150)}` ({_seen(e)})." for e in solved[:8]]
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
        for section in request.sections:
            extractor = _EXTRACTORS.get(section.key, _nothing)
            items = extractor(request.facts)
            earlier = request.previous.items(section.key)
            superseded = [n for n, item in enumerate(earlier, start=1) if item.origin == "extractive"]
            sections[section.key] = SectionReply(items=items, superseded=superseded)
        return NarrativeReply(sections=sections, origin="extractive")
