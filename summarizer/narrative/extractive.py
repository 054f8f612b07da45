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
from summarizer.sections.facts import DecisionFact, ErrorFact, SessionFacts, WorkItemFact
from summarizer.sections.file_lists import moved_files
from summarizer.sections.index_sections import latest_request
from summarizer.sections.progress import (
    checks_owed,
    item_progress,
    items_in_progress,
    request_files_not_changed,
    shown_command,
    turns_text,
)

__all__ = ["ExtractiveWriter", "worth_stating"]

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
    items = [f"The user asked (turn {first.turn}): {_first_line(first.text, 200)}"]
    if latest is not None and latest is not first:
        items.append(f"Latest request (turn {latest.turn}): {_first_line(latest.text, 200)} "
                     f"(whole under User Messages, with the {len(facts.user_messages)} messages in order)")
    return items


def _item_name(item: WorkItemFact, limit: int = 100) -> str:
    return f"`{item.id}`" + (f" ({_first_line(item.title, limit)})" if item.title else "")


def _owed_summary(facts: SessionFacts) -> list[str]:
    """One line per group of changes some check has not seen: which files, after which run."""
    lines = []
    for group in checks_owed(facts):
        runs = [r for r in group.runs if not (r.category == "build" and any(x.category == "test" for x in group.runs))]
        by_turn: dict[int, list[str]] = {}
        for run in runs:
            by_turn.setdefault(run.turn, []).append({"typecheck": "type check"}.get(run.category, run.category))
        last = " and ".join(f"{' and '.join(kinds)} (turn {turn})" for turn, kinds in sorted(by_turn.items()))
        files = ", ".join(f"`{f.path}` ({turns_text(f.turns)})" for f in group.files[:4])
        more = f" and {len(group.files) - 4} more" if len(group.files) > 4 else ""
        lines.append(f"Unverified: {len(group.files)} changed file(s) came after the last {last} run: {files}{more}.")
    return lines


def _current_state(facts: SessionFacts) -> list[str]:
    items = [f"Working on {_item_name(item)}, in progress since turn {item.started_turn}."
             if item.started_turn is not None else f"{_item_name(item)} is in progress."
             for item in items_in_progress(facts)]
    owed = checks_owed(facts)
    owed_tests = {r.turn for group in owed for r in group.runs if r.category == "test"}
    for test in facts.tests[-2:]:
        later = "; files changed after it are not yet tested" if test.turn in owed_tests else ""
        items.append(f"Last run of `{_first_line(test.command, 80)}` (turn {test.turn}): "
                     f"{test.passed} passed, {test.failed} failed{later}.")
    items += _owed_summary(facts)
    open_errors = facts.open_errors
    if open_errors:
        items.append(f"{len(open_errors)} error(s) open; latest: `{_first_line(open_errors[-1].message, 160)}`.")
    elif facts.errors:
        last = max((e.resolved_turn or e.last_turn for e in facts.errors), default=0)
        items.append(f"All {len(facts.errors)} error(s) seen were resolved, the last at turn {last}.")
    if facts.changed or facts.reverted:
        items.append(_change_counts(facts))
    return items


def _change_counts(facts: SessionFacts) -> str:
    """How many files were created, modified, deleted, reverted and moved (a move counted once, as a move)."""
    moved = moved_files(facts)
    sources, targets = set(moved), set(moved.values())
    created = sum(1 for f in facts.created if f.path not in targets)
    modified = sum(1 for f in facts.modified if f.path not in targets)
    deleted = sum(1 for f in facts.deleted if f.path not in sources)
    reverted = sum(1 for f in facts.reverted if f.path not in sources)
    also = (f", {reverted} reverted" if reverted else "") + (f", {len(moved)} moved" if moved else "")
    work = facts.work
    committed = (f"; {len(work.commits)} commit(s) made, {len(work.uncommitted)} changed file(s) not committed"
                 if work.commits else "; no commit made in the session")
    return f"{created} file(s) created, {modified} modified, {deleted} deleted{also}{committed}."


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


# A sentence that announces a change ("Now add the flash rendering", "**Item 3: Extract the helper**"):
# carried out only by a change, not by the searches and reads that prepare it.
_ANNOUNCED_CHANGE = re.compile(
    r"^[#*\s]*(?:(?:item|step|task|part)\s*\d+\s*[:.)-]\s*)?(?:(?:now|next|then|first|finally),?\s+)?"
    r"(?:(?:let me|let's|I'll|I will|I'm going to|I need to|we need to)\s+)?(?:also\s+)?"
    r"(?:add|extract|update|fix|implement|create|write|remove|delete|refactor|move|rename|replace|change|modify|"
    r"wire|install|apply|introduce|convert|split|make)\b", re.I)


def _announced_change(facts: SessionFacts) -> list[str]:
    """What the agent's last message said it would change, when calls followed but none changed a file."""
    last = facts.last_assistant
    if last is None or not _carried_out(facts):
        return []  # no call followed: the stated plan says it
    if any(turn >= last.turn for f in [*facts.changed, *facts.reverted] for turn in f.changed_turns):
        return []
    announced = [s.strip().strip("*#").strip() for s in _SENTENCE.split(last.text)
                 if _ANNOUNCED_CHANGE.match(s.strip()) and len(s.split()) >= 3]
    return [f"Carry out what the agent last announced (turn {last.turn}); the calls since changed no file yet: "
            f"{_first_line(s, 250)}" for s in announced[:2]]


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


def _item_steps(facts: SessionFacts) -> tuple[list[str], bool]:
    """Finishing the work items in progress; and whether that covers the checks owed."""
    items = []
    covers_checks = False
    for item in items_in_progress(facts):
        progress = item_progress(facts, item)
        text = f"Finish {_item_name(item)}"
        if progress.remaining:
            peers = ", ".join(f"`{i.id}`" for i in progress.finished[-3:])
            text += f": still to do, as done for {peers}: {', '.join(progress.remaining)}"
            covers_checks = covers_checks or any(step.startswith("`") and not step.startswith(("`bd ", "`gh "))
                                                 for step in progress.remaining)
        items.append(text + ".")
    return items, covers_checks


def _owed_steps(facts: SessionFacts) -> list[str]:
    steps = []
    for group in checks_owed(facts):
        runs = [r for r in group.runs if not (r.category == "build" and any(x.category == "test" for x in group.runs))]
        commands = list(dict.fromkeys(f"`{shown_command(r.command)}`" for r in runs))
        files = ", ".join(f"`{f.path}`" for f in group.files[:4])
        more = f" and {len(group.files) - 4} more" if len(group.files) > 4 else ""
        last = max(r.turn for r in runs)
        steps.append(f"Run {' and '.join(commands)} again: {files}{more} changed after its last run (turn {last}).")
    return steps


def _waiting_items(facts: SessionFacts) -> list[str]:
    waiting = [i for i in facts.work_items if i.status == "open" and i.kind != "epic"]
    if not waiting or (not items_in_progress(facts) and not any(i.closed_turn for i in facts.work_items)):
        return []
    shown = ", ".join(_item_name(i, 80) for i in waiting[:3])
    more = f" and {len(waiting) - 3} more" if len(waiting) > 3 else ""
    return [f"Then the open tracker item(s) the session looked at: {shown}{more}."]


def _next_steps(facts: SessionFacts) -> list[str]:
    items = _unanswered(facts) + _announced_change(facts)
    finishing, covers_checks = _item_steps(facts)
    items += finishing
    if not covers_checks:
        items += _owed_steps(facts)
    for task in facts.open_tasks:
        verb = "Continue" if task.status == "in_progress" else "Do"
        if task.done_evidence:
            items.append(f"Check whether this is already done ({task.done_evidence}): {task.content}")
        else:
            items.append(f"{verb}: {task.content}")
    named = request_files_not_changed(facts)
    if named is not None:
        turn, missing = named
        more = f" and {len(missing) - 6} more" if len(missing) > 6 else ""
        items.append(f"Files the latest request (turn {turn}) names and the session has not changed yet: "
                     + ", ".join(f"`{p}`" for p in missing[:6]) + more + ".")
    items += [f"The agent said it would: {s}" for s in _stated_plan(facts)]
    items += [f"Resolve the open error `{_first_line(e.message, 150)}`" for e in facts.open_errors[:3]]
    refused = [e for e in facts.open_errors if e.command and "git commit" in e.command]
    if refused and facts.work.uncommitted:
        items.append(f"Then commit: the last `git commit` (turn {refused[-1].last_turn}) failed on it, and "
                     f"{len(facts.work.uncommitted)} changed file(s) are not committed.")
    items += _waiting_items(facts)
    if not items:
        latest = latest_request(facts.user_messages)
        where = ""
        if facts.activity:
            last = facts.activity[-1]
            where = f"; the last call was {last.tool} `{_first_line(last.target, 100)}` (turn {last.turn}, {last.status})"
        found = "; what it had established so far is under Findings" if facts.findings else ""
        if latest is not None:
            items.append(f"Carry on with the latest request (turn {latest.turn}): "
                         f"\"{_first_line(latest.text, 200)}\"{where}{found}.")
        elif where:
            items.append(f"Carry on from where the work stopped{where}{found}.")
    return items


# Words that give a choice its reason or its object: without one, "I'll use that alias" says nothing
# to a reader who has not seen what "that" was.
_REASONED = re.compile(r"\b(?:because|since|so that|so the|to avoid|to keep|to make|instead of|rather than|"
                       r"otherwise|which means|trade-?off)\b", re.I)
_DEICTIC = re.compile(r"\b(?:use|keep|go with|stick with|switch to|choose|chose)\s+(?:that|this|it|those|these|them)\b",
                      re.I)


def worth_stating(decision: DecisionFact) -> bool:
    """A decision the reader can act on: a root cause, a rejected alternative, a reasoned or concrete choice."""
    if decision.kind != "choice":
        return True
    if _DEICTIC.search(decision.text) and not decision.files and not decision.symbols:
        return False
    return bool(decision.files or decision.symbols or _REASONED.search(decision.text))


def _decisions(facts: SessionFacts, *, with_root_causes: bool = True) -> list[str]:
    # The latest few: earlier ones were often revisited, and each costs the reader's attention.
    # Root causes found belong here too, unless the template gives them a section of their own.
    return [f"(turn {d.turn}) {'Root cause: ' if d.kind == 'root-cause' else ''}{d.text}" for d in facts.decisions
            if (with_root_causes or d.kind != "root-cause") and worth_stating(d)][-8:]


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
