"""The offline narrative: extractive, deterministic, no API key needed.

Used when no key is configured or ``--no-llm`` is given.  It writes nothing
it did not read: the intent is the user's own requests, the current state is
the item in progress, the last test results, the checks owed, the open errors
and what is committed or under investigation, the decisions are the agent's
reasoned choices and the user's own (:mod:`summarizer.narrative.offline_decisions`),
the next steps what the session left to do
(:mod:`summarizer.narrative.next_steps`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.answers import ErrorReport
from summarizer.narrative.narrative_model import NarrativeReply, NarrativeRequest, SectionReply
from summarizer.narrative.next_steps import next_steps
from summarizer.narrative.offline_decisions import decisions
from summarizer.narrative.wording import first_line, item_name
from summarizer.sections.background import reported_paths
from summarizer.sections.claim_wording import test_counts
from summarizer.sections.error_state import error_state, open_count_sentence
from summarizer.sections.file_lists import created_then_moved, moved_files
from summarizer.sections.progress import checks_owed, items_in_progress, turns_text
from summarizer.sections.summary_facts import SessionFacts
from summarizer.sections.text import whole_sentences
from summarizer.sections.thread import (
    SESSION_COMMANDS,
    agent_turn,
    investigation,
    is_request,
    planned_at,
    request_in_hand,
)
from summarizer.sections.user_words import is_pasted_document

__all__ = ["ExtractiveWriter"]


def _intent(facts: SessionFacts) -> list[str]:
    said = [m for m in facts.user_messages if m.text.strip()]
    requests = [m for m in said if len(m.text.strip()) > 3 and is_request(m)]
    if not requests:
        return []
    # The task as first stated is a request of some length, and the latest whatever the user last asked: a
    # slash command with its arguments included ("/opsx:explore <issue URL>" is the task, not a setting).
    # A message queued while the agent worked is said after the request it was working on, as said after it.
    first, latest = (
        requests[0],
        request_in_hand(said, planned_at=planned_at(facts), agent_turn=agent_turn(facts)),
    )
    items = [f"The user asked (turn {first.turn}): {_opening(first.text)}"]
    if latest is not None and latest is not first:
        items.append(
            f"Latest request (turn {latest.turn}): {_opening(latest.text)} "
            f"(under User Messages, with the {len(facts.user_messages)} messages in order)"
        )
    # What they said after it (a bare slash command, "yes"): their last word, which the next agent must see.
    after = said[said.index(latest) + 1 :] if latest is not None else []
    # "/context" or "/cost" looks at the session and asks the agent nothing: not the user's last word.
    after = [m for m in after if m.text.split(maxsplit=1)[0].lower() not in SESSION_COMMANDS]
    if after:
        items.append(
            "Then the user said: "
            + "; ".join(f"(turn {m.turn}) {_opening(m.text)}" for m in after[-3:])
            + (f" (and {len(after) - 3} earlier)" if len(after) > 3 else "")
        )
    return items


# A line of prose, not a heading, a tag, a "Key: value" field or a list item.
_PROSE = lazy_pattern(r"^(?![#<>|`*-]|\d+[.)]|[\w -]{1,30}:\s)\S.*[.!?。]$")
_SAID_WHOLE = 240  # a request this short is the intent itself, said whole
# A longer one (a pasted plan, a log) is named by its opening: the message is under User Messages.
_NAMED_BY = 100


def _opening(text: str) -> str:
    """A request on one line: whole when short, else its opening sentences, a pointer to the message itself.

    A plan pasted as a request opens with what it is ("Implement the following plan: # Plan: Change
    ReadCommitted ..."); the message is under User Messages, so the cut says no more than "…".
    """
    flat = " ".join(text.split())
    if len(flat) <= _SAID_WHOLE:
        return flat
    if is_pasted_document(text):
        # A text that opens with its title ("# Security Principles", then "<meta>", "Priority: High", ...): its
        # title and its first line of prose name it; metadata lines quoted as the request say nothing of it.
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        title = lines[0].lstrip("#").strip()
        prose = next((line for line in lines[1:] if _PROSE.match(line)), "")
        said = f'"{title}" ({len(lines)} lines)'
        if not prose:
            return said
        opening = whole_sentences(prose, _NAMED_BY)
        cut = re.sub(r"\s*\[…[\d,]+ more characters\]$", "", opening)
        return f"{said}: {cut}" + (" …" if cut != opening else "")
    # A line's end is a sentence's: a heading ends at its line.
    shown = whole_sentences(text, _NAMED_BY)
    lines = re.sub(r"\s*\[…[\d,]+ more characters\]$", "", shown).splitlines()
    lines = [line for line in lines if line.strip()]
    # A heading the cut parted from its body names nothing the reader can use.
    if len(lines) > 1 and lines[-1].lstrip().startswith("#"):
        lines.pop()
    return " ".join(" ".join(lines).split()) + " …"


def _owed_summary(facts: SessionFacts) -> list[str]:
    """One line per group of changes some check has not seen: which files, after which run."""
    lines = []
    for group in checks_owed(facts):
        runs = [
            r
            for r in group.runs
            if not (r.category == "build" and any(x.category == "test" for x in group.runs))
        ]
        by_turn: dict[int, list[str]] = {}
        for run in runs:
            by_turn.setdefault(run.turn, []).append(
                {"typecheck": "type check"}.get(run.category, run.category)
            )
        last = " and ".join(
            f"{' and '.join(kinds)} (turn {turn})" for turn, kinds in sorted(by_turn.items())
        )
        files = ", ".join(f"`{f.path}` ({turns_text(f.turns)})" for f in group.files[:2])
        more = f" and {len(group.files) - 2} more" if len(group.files) > 2 else ""
        lines.append(
            f"Unverified: {len(group.files)} changed file(s) came after the last {last} run: {files}{more}."
        )
    return lines


def _current_state(facts: SessionFacts, shown: frozenset[str] = frozenset()) -> list[str]:
    items = [
        f"Working on {item_name(item)}, in progress since turn {item.started_turn}."
        if item.started_turn is not None
        else f"{item_name(item)} is in progress."
        for item in items_in_progress(facts)
    ]
    owed = checks_owed(facts)
    owed_tests = {r.turn for group in owed for r in group.runs if r.category == "test"}
    for test in facts.tests[-1:]:  # the earlier runs are under Test Status
        later = "; files changed after it are not yet tested" if test.turn in owed_tests else ""
        items.append(
            f"Last run of `{first_line(test.command, 80)}` (turn {test.turn}): "
            f"{test_counts(test)}{later}."
        )
    if "test_status" not in shown:
        items += _owed_summary(facts)  # else Test Status lists them
    open_errors = facts.open_errors
    own = [e for e in facts.errors if e.pre_existing is None]
    if open_errors:
        items.append(open_count_sentence(facts) or "")
    elif own:
        last = max((e.resolved_turn or e.last_turn for e in own), default=0)
        # What the index knows is the errors tool output showed: one the user only described is not among them.
        items.append(
            f"The {len(own)} error(s) seen in tool output were resolved, the last at turn {last} (errors "
            "only described in words are not tracked)."
        )
    if facts.pre_existing_errors:
        items.append(
            f"{len(facts.pre_existing_errors)} finding(s) reported were there before the session "
            "(listed apart under Errors), not errors to resolve."
        )
    if facts.changed or facts.reverted or facts.background:
        # Beside the Work State section, which says what was committed, the commits are not said twice.
        items.append(_change_counts(facts, commits="work_state" not in shown))
    found = investigation(facts)
    if found is not None:
        found_where = "; what it established is under Findings" if "findings" in shown else ""
        items.append(
            f"Investigating the request of turn {found.question.turn}: {found.calls} tool calls since "
            f"(reads, searches, queries), no file changed{found_where}."
        )
    return items


def _change_counts(facts: SessionFacts, commits: bool = True) -> str:
    """How many files were created, modified, deleted, reverted and moved (a move counted once, as a move).

    ``commits``: also how many commits were made and how many changed files are not committed.
    """
    # A file created and then moved is a created file at its new path; a move is of a file that existed before.
    new = created_then_moved(facts)
    moved = {old: path for old, path in moved_files(facts).items() if path not in new}
    sources, targets = set(moved_files(facts)), set(moved.values())
    # A change left on the branch the session switched away from is not in the working tree now: counted apart.
    gone = {found.path for found in facts.left_behind}
    created = sum(1 for f in facts.created if f.path not in targets and f.path not in gone)
    modified = sum(1 for f in facts.modified if f.path not in targets and f.path not in gone)
    deleted = sum(1 for f in facts.deleted if f.path not in sources and f.path not in gone)
    reverted = sum(1 for f in facts.reverted if f.path not in sources)
    also = (f", {reverted} reverted" if reverted else "") + (
        f", {len(moved)} moved" if moved else ""
    )
    also += f", {len(gone)} left on another branch" if gone else ""
    work = facts.work
    committed = (
        (
            f"; {len(work.commits)} commit(s) made, {len(work.uncommitted)} changed file(s) not committed"
            if work.commits
            else "; no commit made in the session"
        )
        if commits
        else ""
    )
    # A file created and changed again later counts as created: "0 modified" alone would hide the revisions.
    revised = sum(
        1
        for f in facts.created
        if f.path not in targets
        and f.path not in gone
        and f.renamed_from is None  # a move is a change of its own turn, not a revision
        and len(set(f.changed_turns)) > 1
    )
    made = f"{created} file(s) created" + (f" ({revised} revised after)" if revised else "")
    # The counts are of the agent's own calls: the sub-agents' edits are in their transcripts, named by their reports.
    counts = f"{made}, {modified} modified, {deleted} deleted{also}{committed}"
    reported = reported_paths(facts)
    if not facts.background:
        return counts + "."
    theirs = (
        f"sub-agents' reports name {len(reported)} file(s) they created or changed (under Files Changed)"
        if reported
        # Their reports name no path, or they had not reported yet: what they changed is not known here.
        else f"what the {len(facts.background)} sub-agent(s) it launched changed is in their own transcripts"
    )
    if not (created or modified or deleted or reverted or moved or gone):
        return f"No file changed by the agent's own calls{committed}; {theirs}."
    return f"By the agent's own calls: {counts}; {theirs}, not counted here."


def _root_cause(facts: SessionFacts) -> list[str]:
    causes = [f"(turn {d.turn}) {d.text}" for d in facts.decisions if d.kind == "root-cause"]
    if causes:
        return causes[-3:]
    if facts.original_error is not None:
        return [
            f"Not established; the original error was `{first_line(facts.original_error.message, 200)}`."
        ]
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


def _seen(error: ErrorReport) -> str:
    if error.first_turn == error.last_turn:
        return f"seen in turn {error.first_turn}"
    return f"seen in turns {error.first_turn}–{error.last_turn}"


def _problem_solving(facts: SessionFacts) -> list[str]:
    solved = [e for e in facts.errors if e.resolved]
    items = [
        f"Resolved `{first_line(e.message, 150)}` ({_seen(e)}): {e.resolution or 'resolved'}"
        + (
            f", after changes to {', '.join(f'`{p}`' for p in e.fixed_by[:3])}"
            if e.fixed_by
            else ""
        )
        + "."
        for e in solved[-8:]
    ]
    items += [
        f"Still open: `{first_line(e.message, 150)}`."
        for e in facts.open_errors
        if error_state(e, facts).open
    ][:5]
    return items


def _analysis(facts: SessionFacts) -> list[str]:
    return [
        f"Extractive summary written offline from {facts.turns} turns of a {facts.format or 'transcript'} session: "
        "file, symbol, error, test and task sections are exact; narrative sections quote the transcript.",
    ]


_SCHEMA_LIKE = lazy_pattern(r"(migrat|schema|\.sql$|models?\.py$|\.prisma$)", re.I)


def _source_schema(facts: SessionFacts) -> list[str]:
    # What the migration starts from: schema files it read, deleted or renamed away.
    paths = [f.path for f in [*facts.read, *facts.deleted] if _SCHEMA_LIKE.search(f.path)]
    paths += [
        f.renamed_from
        for f in facts.created
        if f.renamed_from and _SCHEMA_LIKE.search(f.renamed_from)
    ]
    paths += [f.path for f in facts.modified if _SCHEMA_LIKE.search(f.path)]
    if not paths:
        return []
    return [
        "Schema files as they were before the change: "
        + ", ".join(f"`{p}`" for p in dict.fromkeys(paths))
        + "."
    ]


def _target_schema(facts: SessionFacts) -> list[str]:
    paths = [f.path for f in [*facts.created, *facts.modified] if _SCHEMA_LIKE.search(f.path)]
    if not paths:
        return []
    return ["Schema files written for the target: " + ", ".join(f"`{p}`" for p in paths) + "."]


def _nothing(request: NarrativeRequest) -> list[str]:
    # A user template's own narrative section: nothing to quote for it offline.
    return []


def _own_root_cause(request: NarrativeRequest) -> bool:
    # Root causes found belong among the decisions, unless the template gives them a section of their own.
    return any(section.key == "root_cause" for section in request.sections)


_EXTRACTORS: dict[str, Callable[[NarrativeRequest], list[str]]] = {
    "intent": lambda r: _intent(r.facts),
    "current_state": lambda r: _current_state(r.facts, r.shown),
    "next_steps": lambda r: next_steps(r.facts, r.shown),
    "decisions": lambda r: decisions(r.facts, with_root_causes=not _own_root_cause(r)),
    "root_cause": lambda r: _root_cause(r.facts),
    "key_concepts": lambda r: _key_concepts(r.facts),
    "problem_solving": lambda r: _problem_solving(r.facts),
    "analysis": lambda r: _analysis(r.facts),
    "source_schema": lambda r: _source_schema(r.facts),
    "target_schema": lambda r: _target_schema(r.facts),
}


class ExtractiveWriter:
    """A :class:`~summarizer.narrative.narrative_model.NarrativeWriter` that quotes instead of writing.

    It regenerates from the facts of the whole index each time, so it
    supersedes every earlier item of its own; items of an earlier LLM cycle
    are kept (the anchor), since the index cannot contradict prose it did not
    write.
    """

    needs_span = False  # it reads the index facts, not the transcript text

    def write(self, request: NarrativeRequest) -> NarrativeReply:
        sections = {}
        for section in request.sections:
            items = _EXTRACTORS.get(section.key, _nothing)(request)
            earlier = request.previous.items(section.key)
            superseded = [
                n for n, item in enumerate(earlier, start=1) if item.origin == "extractive"
            ]
            sections[section.key] = SectionReply(items=items, superseded=superseded)
        return NarrativeReply(sections=sections, origin="extractive")
