"""Sections filled from the index: exact, complete, deterministic.

Each renderer takes the facts and a *detail level* (0 = everything, higher =
more compact) and returns Markdown.  Compaction only ever shortens detail:
read files are counted by directory, symbol lists shorten, resolved errors
collapse, early user messages keep their first words.  What is never
dropped or cut, at any level: a created, modified, deleted or reverted
file's path; an open error's exact message and the lines that explain it;
the latest user request and every piece of feedback the user gave, whole.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import assert_never, cast

from artifact_index.facts.work_items import WorkItem
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.answers import CommitReport, ErrorReport, FileReport, WorkReport
from artifact_index.trail.conversation.agent_findings import concludes
from artifact_index.trail.conversation.told import Attempt
from artifact_index.trail.session_state import AssistantSaid, UserSaid
from summarizer.sections.claim_wording import (
    pending_calls,
    test_result,
    went_on,
    written_first_line,
)
from summarizer.sections.drafts import superseded_names
from summarizer.sections.error_state import changed_after_words, error_state
from summarizer.sections.file_lists import (
    brought_in_count,
    changed_files,
    files_of_status,
    left_behind_lines,
    moved_files,
    read_files,
)
from summarizer.sections.index_keys import INDEX_KEYS, IndexKey
from summarizer.sections.progress import (
    checks_owed,
    item_progress,
    items_in_progress,
    open_in_epic,
    owed_kinds,
    owed_sentence,
    shown_command,
    turns_text,
)
from summarizer.sections.search_matches import in_common_folder, place_path, place_progress
from summarizer.sections.substeps import SubStep, remaining_steps
from summarizer.sections.summary_facts import SessionFacts
from summarizer.sections.text import block, code_span, one_line, shorten, whole_sentences
from summarizer.sections.thread import GO_AHEAD, first_request, latest_request, thread_start
from summarizer.sections.where_stopped import last_activity

__all__ = ["MAX_DETAIL", "render_index_section"]

MAX_DETAIL = 3
# Characters kept of an early user message, and findings (how many, characters of each): the
# user's words and the agent's conclusions shrink slower than the rest.
_MESSAGE_AT = {0: 100_000, 1: 1500, 2: 800, 3: 400}
_EARLY_MESSAGE_AT = {0: 100_000, 1: 1000, 2: 300, 3: 160}
_FIRST_REQUEST_AT = {0: 100_000, 1: 1500, 2: 600, 3: 300}  # the task as first stated keeps more
_RECENT_MESSAGES = 6
_RESOLVED_AT = {0: 12, 1: 6, 2: 3, 3: 0}
_ONE_BY_ONE = 3  # at full detail, the resolved errors of one run listed one by one  # resolved errors listed one by one (the latest)
_CHANNEL_WORDS = {
    "prompt": "",
    "feedback": "feedback when refusing a call",
    "interjection": "typed while a tool ran",
    "queued": "queued while the agent worked",
    "command": "slash command",
}


# --- errors ---------------------------------------------------------------------------------------


def _where(e: ErrorReport) -> str:
    if not e.file:
        return ""
    where = f" in `{e.file}" + (f":{e.line}" if e.line else "") + "`"
    return where + (f" (`{e.symbol}`)" if e.symbol else "")


def _command(command: str | None, limit: int = 80) -> str:
    return code_span(one_line(command, limit)) if command else "a later run"


def _open_error(e: ErrorReport, attempts: list[Attempt], detail: int, facts: SessionFacts) -> str:
    turns = (
        f"turn {e.first_turn}"
        if e.first_turn == e.last_turn
        else f"turns {e.first_turn}–{e.last_turn}"
    )
    source = f" from {_command(e.command)}" if e.command and detail <= 2 else ""
    if e.went_on is not None:
        # The session went another way: what ran next, and no verdict. Read as "still open", a
        # label like "not seen resolved" was wrong whenever that next command was the same
        # step done right (`python3` after `python` was not found).
        return (
            f"- [failed; the session went on] {e.kind}{_where(e)}, {turns} from "
            f"{_command(e.command)}: {code_span(one_line(e.message, 160))}; {went_on(e)}"
        )
    state = error_state(e, facts)
    if state.changed_after:
        # Its file changed after it and the check did not run again: neither open nor fixed, as far as seen.
        return (
            f"- [not seen resolved] {e.kind}{_where(e)}, {turns}{source}: "
            f"{code_span(one_line(e.message, 160))}; {changed_after_words(state)}"
        )
    head = f"- [OPEN] {e.kind}{_where(e)}, {turns}{source}:"
    message = f"{block(e.message)}" if "\n" in e.message else f" {code_span(e.message)}"
    detail_block = block(e.detail) if e.detail else ""
    return head + message + detail_block + _attempts(attempts, detail)


# Attempts listed (the latest) and characters of each: what not to try again shrinks slower than the rest.
_ATTEMPTS_AT = {0: (8, 200), 1: (6, 160), 2: (6, 110), 3: (5, 90)}


def _attempts(attempts: list[Attempt], detail: int) -> str:
    """What was tried since the error first appeared, each followed by a run that still showed it."""
    if not attempts:
        return ""
    count, limit = _ATTEMPTS_AT[detail]
    shown = attempts[-count:]
    earlier = (
        f" ({len(attempts) - len(shown)} earlier not shown)" if len(shown) < len(attempts) else ""
    )
    lines = [f"\n  - tried, and the next run still showed it{earlier}:"]
    lines += [f"\n    - (turn {a.turn}) {one_line(a.text, limit)}" for a in shown]
    return "".join(lines)


def _resolved_error(e: ErrorReport, detail: int) -> str:
    how = (
        f"{e.resolution} at turn {e.resolved_turn}"
        if e.resolution
        else f"resolved at turn {e.resolved_turn}"
    )
    by = f" ({code_span(one_line(e.resolved_by, 60))})" if e.resolved_by and detail <= 1 else ""
    fixed = f"; fixed by {', '.join(f'`{p}`' for p in e.fixed_by[:3])}" if e.fixed_by else ""
    return f"- [resolved] {code_span(one_line(e.message, 160 if detail == 0 else 100))}{_where(e) if detail <= 1 else ''}: {how}{by}{fixed}"


def _resolved_errors(closed: list[ErrorReport], detail: int) -> list[str]:
    """The latest resolved errors, one line each; past full detail (and at it, more than a few) those one run
    showed gone share a line.

    A resolved error tells the agent that continues what not to break again, no more: three lint findings
    fixed together are one fact, not three blocks.
    """
    by_run: dict[tuple[int | None, str | None], list[ErrorReport]] = {}
    for e in closed:
        by_run.setdefault((e.resolved_turn, e.resolution), []).append(e)
    groups = list(by_run.values())
    if detail == 0:
        # Full detail lists a few errors one run fixed one by one; twelve failing tests one run showed passing
        # stay one fact, not twelve lines.
        groups = [
            part
            for group in groups
            for part in ([group] if len(group) > _ONE_BY_ONE else [[e] for e in group])
        ]
    limit = _RESOLVED_AT[detail]
    shown = groups[-limit:] if limit else []
    lines = []
    hidden = sum(len(group) for group in groups[: len(groups) - len(shown)])
    if hidden:
        lines.append(f"- {hidden} {'more ' if shown else ''}error(s) seen and resolved")
    for group in shown:
        line = _resolved_error(group[0], detail)
        if len(group) > 1:
            line = line.replace("- [resolved] ", f"- [resolved] {len(group)} errors, the first ", 1)
        lines.append(line)
    return lines


def _pre_existing(errors: list[ErrorReport], detail: int) -> list[str]:
    """Findings that were there before the session, by file: listed apart, never as an error to resolve."""
    if not errors:
        return []
    by_file: dict[str | None, list[ErrorReport]] = {}
    for e in errors:
        by_file.setdefault(e.file, []).append(e)
    # Whether they are the session's to fix is the person's call (they may have asked for it): what
    # was seen is that they were there before.
    lines = ["Reported, but there before the session:"]
    shown = list(by_file.items())[: {0: 4, 1: 3, 2: 2, 3: 1}[detail]]
    for file, found in shown:
        where = f"`{file}`: " if file else ""
        more = f" and {len(found) - 1} other finding(s)" if len(found) > 1 else ""
        lines.append(
            f"- [pre-existing] {where}`{one_line(found[0].message, 90)}`{more}; "
            f"{one_line(found[0].pre_existing or '', 200 if detail <= 1 else 90)}"
        )
    rest = list(by_file.values())[len(shown) :]
    if rest:
        # Distinct findings, not lines of output: one message seen in several places counts once.
        lines.append(f"- and {sum(len(found) for found in rest)} more distinct finding(s)")
    return lines


def _errors(facts: SessionFacts, detail: int, *, resolved: bool = True) -> str:
    lines = []
    if facts.original_error is not None:
        first = facts.original_error
        state = (
            "resolved"
            if first.resolved
            else "from tests written before their code"
            if first.tests_written_first is not None
            else "the session went on past it"
            if first.went_on is not None
            else "still open"
        )
        lines.append(
            f"Original error (turn {first.first_turn}, {state}): `{one_line(first.message, 200)}`"
        )
    lines += [
        _open_error(e, facts.attempts.get(e.signature, []), detail, facts)
        for e in facts.open_errors
    ]
    lines += [written_first_line(e) for e in facts.written_first_errors]
    lines += _pre_existing(facts.pre_existing_errors, detail)
    if resolved:
        lines += _resolved_errors([e for e in facts.errors if e.resolved], detail)
    return "\n".join(lines) if lines else "None recorded."


# --- tests ----------------------------------------------------------------------------------------


def _test_status(facts: SessionFacts, detail: int) -> str:
    owed = checks_owed(facts)
    if not facts.tests and not owed:
        # Said as what the index knows: a run it cannot read (in the background, or by a runner it does not know)
        # is not one it saw, not proof that no test ran.
        return "No test run the index recognizes (background runs are not seen)."
    runs = facts.tests if detail == 0 else facts.tests[-{1: 6, 2: 4, 3: 3}[detail] :]
    lines = []
    if len(runs) < len(facts.tests):
        # Counted as what they are: the runs whose results the index read, not every test command
        # (a `make check` whose output it cannot read is none of them).
        lines.append(
            f"- {len(facts.tests) - len(runs)} earlier test result(s) the index read are not shown"
        )
    for t in runs:
        lines.append(f"- {test_result(t)}")
        if t.superseded_by is not None:
            continue  # its failures are not the current state
        limit = {0: 20, 1: 10, 2: 5, 3: 3}[detail]
        lines += [f"  - failing: `{name}`" for name in t.failing[:limit]]
        if len(t.failing) > limit:
            lines.append(f"  - and {len(t.failing) - limit} more failing")
    # What changed after the last run of each kind of check: those results are not the current state.
    lines += [f"- {owed_sentence(group, {0: 12, 1: 8, 2: 5, 3: 3}[detail])}" for group in owed]
    return "\n".join(lines)


# --- tasks ----------------------------------------------------------------------------------------


_STATUS_MARKS = {
    "in_progress": "[in progress]",
    "pending": "[pending]",
    "open": "[open]",
    "blocked": "[blocked]",
    "deferred": "[deferred]",
}
_OPEN_ITEMS_AT = {0: 8, 1: 5, 2: 3, 3: 2}
_EPIC_ITEMS_AT = {
    0: 10,
    1: 8,
    2: 6,
    3: 4,
}  # the rest of the epic in hand: what the agent takes up next


def _item_title(item: WorkItem, limit: int = 120) -> str:
    kind = " (epic)" if item.kind == "epic" else ""
    return f"`{item.id}`{kind}" + (f" {one_line(item.title, limit)}" if item.title else "")


def _item_in_progress(facts: SessionFacts, item: WorkItem, detail: int) -> list[str]:
    started = f" (started turn {item.started_turn})" if item.started_turn is not None else ""
    lines = [f"- [in progress] {_item_title(item)}{started}"]
    progress = item_progress(facts, item)
    if progress.changed:
        shown = progress.changed[-{0: 10, 1: 6, 2: 4, 3: 3}[detail] :]
        more = len(progress.changed) - len(shown)
        lines.append(
            "  - changed since it started: "
            + ", ".join(f"`{p}` ({turns_text(t)})" for p, t in shown)
            + (f" and {more} more" if more else "")
        )
    elif item.started_turn is not None:
        lines.append("  - no file changed since it started")
    if progress.remaining:
        peers = ", ".join(f"`{i.id}`" for i in progress.finished[-3:])
        lines.append(f"  - not done for it yet, as for {peers}: {', '.join(progress.remaining)}")
    if progress.named_not_changed and detail <= 2:
        lines.append(
            "  - named in its description, not changed since it started: "
            + ", ".join(progress.named_not_changed[:8])
            + (
                f" and {len(progress.named_not_changed) - 8} more"
                if len(progress.named_not_changed) > 8
                else ""
            )
        )
    left = [step for step in remaining_steps(facts) if step.source.endswith(f"`{item.id}`")]
    if left and detail <= 1:
        lines.append(
            "  - not done yet, by its definition of done: "
            + "; ".join(
                f'"{one_line(step.text, 160)}" ({_missing(step)} since turn {step.since})'
                for step in left
            )
        )
    if progress.done_when and detail <= 1:
        lines.append(
            "  - its definition of done, as the tracker showed it:\n    "
            + shorten(progress.done_when, 700 if detail == 0 else 350).replace("\n", "\n    ")
        )
    return lines


def _listed_unseen(facts: SessionFacts) -> list[str]:
    """The files the latest status, shown after the last commit, listed as changed (not untracked)
    though no call the trail followed changed them: said with its turn, as what it showed."""
    status = facts.work.status
    commits = facts.work.commits
    if status is None or (commits and commits[-1].turn > status.turn):
        return []
    return sorted(
        f.path for f in status.files if not f.changed_in_session and f.state != "untracked"
    )


def _missing(step: SubStep) -> str:
    return (
        "no test file changed" if step.missing == "no test file" else f"{step.missing} not changed"
    )


_DONE_WORDS = lazy_pattern(r"\b(?:merged|accepted|approved|closed|landed|went in|is in)\b", re.I)
_PR_WORDS = lazy_pattern(r"\b(?:pull|PR|pull request|issue)\b", re.I)
# Words only a merge is said with, in the languages users write to agents in: of a pull request
# they need no "PR" beside them ("マージしました", "已合并").
_MERGE_WORDS = lazy_pattern(
    r"\bmerged\b|マージ(?:は|を|も)?(?:し(?!ない|ません)|済|完了|され(?!ない|ません))|已合并|合并了|合併",
    re.I,
)


def _said_done(facts: SessionFacts, item: WorkItem) -> UserSaid | None:
    """The user's first message after the item was last seen that says a pull request or issue is done."""
    if item.tracker == "bd":
        return None
    number = item.id.rsplit("#", 1)[-1]
    for message in facts.user_messages:
        if message.turn <= item.turn:
            continue
        if item.tracker == "gh pr" and _MERGE_WORDS.search(message.text):
            return message
        if not _DONE_WORDS.search(message.text):
            continue
        if _PR_WORDS.search(message.text) or re.search(rf"#{re.escape(number)}\b", message.text):
            return message
    return None


def _own_and_brought_in(
    files: list[FileReport], detail: int, facts: SessionFacts, status: str
) -> str:
    """One status's files; those a ``git pull`` or ``git merge`` only brought in, in one line.

    What a merge brought is the merged commits' content, not the session's own edit, and after
    a branch switch whose effect is unknown it may well have been there at the start.
    """
    left = {found.path: found for found in facts.left_behind}
    own = [f for f in files if f.brought_in is None and f.path not in left]
    brought: dict[str, list[FileReport]] = {}
    for f in files:
        if f.brought_in is not None and f.path not in left:
            brought.setdefault(f.brought_in, []).append(f)
    lines = [files_of_status(own, detail, accounts=facts.accounts)] if own else []
    lines += left_behind_lines([f for f in files if f.path in left], left)
    shown = {0: 40, 1: 20, 2: 10, 3: 5}[detail]
    for command, reports in brought.items():
        turns = sorted({t for r in reports for t in r.changed_turns})
        names = ", ".join(f"`{r.path}`" for r in reports[:shown])
        more = f" and {len(reports) - shown} more" if len(reports) > shown else ""
        count = brought_in_count(reports)
        named = (
            f" ({len(reports)} distinct names: some stand for several paths)"
            if count > len(reports)
            else ""
        )
        lines.append(
            f"- {count} file(s) `{command}` brought in ({turns_text(turns)}){named}, {status} in the "
            f"working tree by the merged commits, not by the session's own edits: {names}{more}"
        )
    return "\n".join(lines) if lines else "None."


def _deleted(facts: SessionFacts, detail: int) -> str:
    """The deleted files; one a later ``git status`` lists as there again is said as what each showed.

    A sub-agent's calls are not in the main transcript, nor is what a server writes: a file
    removed by ``rm`` and then made again that way is still "deleted" in the trail, while the
    status printed after it lists it as modified or untracked. Neither is certain of the other.
    """
    status = facts.work.status
    listed = (
        {listed.path: listed.state for listed in status.files if listed.state != "deleted"}
        if status is not None
        else {}
    )
    seen_again = [
        f
        for f in facts.deleted
        if status is not None
        and f.path in listed
        and f.changed_turns
        and status.turn > f.changed_turns[-1]
    ]
    lines = [
        f"- `{f.path}`: removed (turn {f.changed_turns[-1]}), but the later "
        f"`{status.command}` (turn {status.turn}) lists it as {listed[f.path]}: it was there "
        "again, made by something the calls seen do not show"
        for f in seen_again
        if status is not None
    ]
    rest = [f for f in facts.deleted if f not in seen_again]
    if rest or not lines:
        lines.append(_own_and_brought_in(rest, detail, facts, "deleted"))
    return "\n".join(lines)


def _tracker_items(facts: SessionFacts, detail: int) -> list[str]:
    items = facts.work_items
    trackers = ", ".join(f"`{t}`" for t in dict.fromkeys(i.tracker for i in items))
    lines = [f"Issue tracker ({trackers}), as the session's commands left it:"]
    mine = items_in_progress(facts)
    for item in mine:
        lines += _item_in_progress(facts, item, detail)
    # Items the tracker showed in progress (started before this session, or by someone else), then open ones.
    waiting = sorted(
        (
            i
            for i in items
            if i.status in ("in_progress", "open", "blocked", "deferred") and i not in mine
        ),
        key=lambda i: (i.status != "in_progress", i.turn),
    )
    limit = _OPEN_ITEMS_AT[detail]
    for item in waiting[:limit]:
        mark = (
            "[in progress, as the tracker showed it]"
            if item.status == "in_progress"
            else _STATUS_MARKS[item.status]
        )
        user_said = _said_done(facts, item)
        if user_said is not None:
            # The user's words are evidence the session's commands never checked: the state
            # last seen is said as that, beside them, not as the item's state now.
            mark = (
                f"[{item.status.replace('_', ' ')} when last seen, turn {item.turn}; "
                f'the user said at turn {user_said.turn}: "{one_line(user_said.text, 80)}"]'
            )
        lines.append(f"- {mark} {_item_title(item, 120 if detail <= 1 else 70)}")
    if len(waiting) > limit:
        lines.append(f"- and {len(waiting) - limit} more open item(s) the session looked at")
    # The rest of the epic in hand: what comes after the item in progress, or next when none is.
    listed = open_in_epic(facts)
    in_epic = listed[: _EPIC_ITEMS_AT[detail]]
    said: set[tuple[str, int]] = set()
    for seen in in_epic:
        source = (
            ""
            if (seen.command, seen.turn) in said
            else f" (open in `{one_line(seen.command, 40)}`, turn {seen.turn})"
        )
        said.add((seen.command, seen.turn))
        lines.append(
            f"- [open] `{seen.id}` {one_line(seen.title, 120 if detail <= 1 else 70)}{source}"
        )
    if len(listed) > len(in_epic):
        lines.append(f"- and {len(listed) - len(in_epic)} more open item(s) of the epic")
    closed = sorted(
        (i for i in items if i.status in ("closed", "merged")),
        key=lambda i: i.closed_turn or i.turn,
    )
    # Closed by the session's own command, or only shown closed by a listing or a view (someone
    # else merged it): the second is no work of the session's that closing left unfinished.
    for label, group in (
        ("closed", [i for i in closed if i.closed_turn is not None]),
        ("seen closed", [i for i in closed if i.closed_turn is None]),
    ):
        if not group:
            continue
        by_turn: dict[int, list[str]] = {}
        for item in group:
            verb = "merged" if item.status == "merged" else "closed"
            by_turn.setdefault(item.closed_turn or item.turn, []).append(
                f"`{item.id}`" + (" (merged)" if verb == "merged" else "")
            )
        in_session = [f"{', '.join(ids)} (turn {turn})" for turn, ids in by_turn.items()]
        lines.append(f"- {label}: " + "; ".join(in_session))
        if label == "closed":
            lines += _closed_uncommitted(facts, group)
    return lines


def _closed_uncommitted(facts: SessionFacts, closed: list[WorkItem]) -> list[str]:
    """A closed item whose changes are not committed: closing it did not finish it, and nothing else says so."""
    lines = []
    # A file git status did not list after an earlier change is no sure part of a commit to make.
    uncommitted = set(facts.work.uncommitted) - set(facts.work.unlisted)
    previous = 0
    for item in closed:
        end = item.closed_turn if item.closed_turn is not None else item.turn
        start = item.started_turn if item.started_turn is not None else previous
        previous = end
        left = []
        for f in facts.changed:
            during = [t for t in f.changed_turns if start <= t <= end]
            # No commit since its last change for the item holds it (a commit whose files are unknown might).
            if (
                f.path in uncommitted
                and during
                and not any(
                    c.turn >= max(during) and (c.files is None or f.path in c.files)
                    for c in facts.work.commits
                )
            ):
                left.append(f.path)
        left.sort()
        if left:
            lines.append(
                f"  - `{item.id}` was closed (turn {end}) with its changes not committed: "
                + ", ".join(f"`{p}`" for p in left[:6])
                + (f" and {len(left) - 6} more" if len(left) > 6 else "")
            )
    return lines


def _commit_command(commit: CommitReport) -> str | None:
    return next((e.command for e in commit.evidence if e.command), None)


def _unknown_commit_after(facts: SessionFacts) -> CommitReport | None:
    """The latest commit whose files are unknown (a script made it, or its staging was not followed) that
    came after a change of a file called uncommitted: it may hold that change, so "not committed" is no
    verdict."""
    uncommitted = set(facts.work.uncommitted) - set(facts.work.unlisted)
    changed = [
        max(f.changed_turns) for f in facts.changed if f.path in uncommitted and f.changed_turns
    ]
    earliest = min(changed, default=None)
    if earliest is None:
        return None
    return next(
        (c for c in reversed(facts.work.commits) if c.files is None and c.turn >= earliest), None
    )


def _todo_list(facts: SessionFacts) -> list[str]:
    tasks = facts.open_tasks
    written = max(t.turn for t in facts.tasks)
    if not tasks:
        # Said by what each became: a task taken off the list (deleted, cancelled) was not done.
        done = sum(1 for t in facts.tasks if t.status == "completed")
        dropped = len(facts.tasks) - done
        ended = ", ".join(
            part
            for part in (
                f"{done} completed" if done else "",
                f"{dropped} cancelled or deleted" if dropped else "",
            )
            if part
        )
        return [f"The agent's task list (last written turn {written}): nothing open, {ended}."]
    marks = {"in_progress": "[in progress]", "pending": "[pending]"}
    lines = [f"The agent's list as last written (turn {written}):"]
    for t in tasks:
        line = f"- {marks[t.status]} {t.content}"
        if t.done_evidence:
            line += f" (but since then: {t.done_evidence})"
        lines.append(line)
    return lines


# Characters of each item's words: the request is whole under User Messages, its number says which it is.
_ITEM_TEXT_AT = {0: 160, 1: 100, 2: 50, 3: 0}


def _request_items(facts: SessionFacts, detail: int) -> list[str]:
    """The latest request's numbered items, each with what the session's words and changes since say of it."""
    latest = latest_request(facts.user_messages)
    items = facts.request_items
    if latest is None or not items:
        return []
    lines = [f"The user's numbered request (turn {latest.turn}), item by item:"]
    for item in items:
        # At the compact levels a changed file goes by its name: its path is under Files Changed.
        touched = (
            item.changes[:3]
            if detail <= 1
            else [f"`{c.rsplit('/', 1)[-1]}" if c.startswith("`") else c for c in item.changes[:3]]
        )
        changes = f"; changed {', '.join(touched)}" if touched and item.status != "changed" else ""
        if item.status == "changed":
            changes = f": {', '.join(touched)}, {item.evidence}"
            evidence = ""
        else:
            evidence = f": {one_line(item.evidence, {0: 200, 1: 160, 2: 110, 3: 90}[detail])}"
        words = f" {one_line(item.text, _ITEM_TEXT_AT[detail])} —" if _ITEM_TEXT_AT[detail] else ""
        lines.append(f"- {item.number}.{words} [{item.status}]{evidence}{changes}")
    return lines


def _few_paths(paths: list[str], limit: int = 3) -> str:
    shown = ", ".join(f"`{p}`" for p in paths[:limit])
    return shown + (f" and {len(paths) - limit} more" if len(paths) > limit else "")


def _pending(facts: SessionFacts, detail: int) -> str:
    lines: list[str] = _request_items(facts, detail)
    if facts.work_items:
        lines += _tracker_items(facts, detail)
    if facts.tasks:
        lines += _todo_list(facts)
    open_items = [i for i in facts.work_items if i.status in ("in_progress", "open", "blocked")]
    if not facts.open_tasks and not open_items and not open_in_epic(facts):
        # An empty list is not finished work: changes not yet checked or committed are still open.
        unfinished = []
        owed = checks_owed(facts)
        # Said here in full (the section a reference would point to may not be shown), and by the kind of
        # check not seen since: changed files that were tested but not linted are not "unchecked".
        by_kind: dict[str, set[str]] = {}
        maybe: dict[str, set[str]] = {}
        for group in owed:
            by_kind.setdefault(owed_kinds(group), set()).update(f.path for f in group.files)
            if group.tasks_after:
                maybe.setdefault(owed_kinds(group), set()).update(
                    code_span(shown_command(run.command)) for run in group.tasks_after
                )
        for kinds, paths in by_kind.items():
            files = sorted(paths)
            # A task that ran after them may have checked them: what was seen, not a verdict.
            after = (
                f" (later runs of {', '.join(sorted(maybe[kinds]))} may have)"
                if kinds in maybe
                else ""
            )
            unfinished.append(
                f"{len(files)} changed file(s) not {kinds} by any run seen since their last change"
                f"{after}: " + _few_paths(files)
            )
        unlisted = facts.work.unlisted
        if unlisted:
            # Ignored by git, most likely: what was seen, not "not committed".
            unfinished.append(
                f"{len(unlisted)} changed file(s) `git status` did not list after an earlier change "
                f"(turn {max(unlisted.values())}), though no commit seen held them (ignored by git?), "
                "changed again since: " + _few_paths(sorted(unlisted))
            )
        pending = [p for p in facts.work.uncommitted if p not in unlisted]
        if facts.work.commits and pending:
            last = facts.work.commits[-1]
            quiet = [a.turn for a in facts.work.unconfirmed_commits if a.turn >= last.turn]
            unknown = _unknown_commit_after(facts)
            # Files changed since by a command that named them only at run time are not counted;
            # a `git status` after that command listed whatever it changed.
            listed_at = facts.work.status.turn if facts.work.status is not None else -1
            unnamed = [
                e for e in facts.unnamed_changes if e.turn >= last.turn and e.turn >= listed_at
            ]
            at_least = "at least " if unnamed else ""
            # A later `git commit` that printed no commit may hold them: say what was seen.
            unfinished.append(
                f"{at_least}{len(pending)} changed file(s) in no commit shown (the last commit "
                f"printed: `{last.hash}`, turn {last.turn}; `git commit` at turn {quiet[-1]} "
                "printed none, so it may hold them): " + _few_paths(pending)
                if quiet
                else f"{at_least}{len(pending)} changed file(s) in no commit shown (`{unknown.hash}`, "
                f"turn {unknown.turn}, made by {_command(_commit_command(unknown), 60)}, did not show "
                "what it holds, so it may hold them): " + _few_paths(pending)
                if unknown is not None
                else f"{at_least}{len(pending)} changed file(s) not committed (the last "
                f"commit: `{last.hash}`, turn {last.turn}): " + _few_paths(pending)
            )
            if unnamed:
                latest = unnamed[-1]
                unfinished[-1] += (
                    f", and the files {_command(latest.command or '', 60)} (turn {latest.turn}) "
                    "changed, which it named only when it ran"
                    + (
                        f" (and {len(unnamed) - 1} more such command(s))"
                        if len(unnamed) > 1
                        else ""
                    )
                )
            unseen = _listed_unseen(facts)
            if unseen:
                # A tool the session ran (`bd init`) changed files no call shows: the count above is
                # of the trail's changes, and the status's other files are said as what it showed.
                status = facts.work.status
                assert status is not None  # _listed_unseen found its files
                # A formatter over the project that named no file may be what changed them.
                unnamed_before = [e for e in facts.unnamed_changes if e.turn <= status.turn]
                maker = (
                    f" by name (`{one_line(unnamed_before[-1].command or '', 60)}`, turn "
                    f"{unnamed_before[-1].turn}, may have changed files it did not name)"
                    if unnamed_before
                    else ""
                )
                unfinished[-1] += (
                    f"; `git status` at turn {status.turn} also listed {len(unseen)} changed file(s) "
                    f"no call seen changed{maker}: " + _few_paths(unseen)
                )
        if detail <= 1:
            unfinished += [
                f'{step.source}: "{one_line(step.text, 160)}" ({_missing(step)} since turn {step.since})'
                for step in remaining_steps(facts)
            ]
        if unfinished:
            lines.append("Still unfinished: " + "; ".join(unfinished) + ".")
    if not lines:
        # What was not found, never that there was none: a task tool, a tracker or a comment on an
        # issue the index does not read may have held the session's tasks. The hook leaves it out.
        return "No task list or issue tracker state was read from the session's calls."
    return "\n".join(lines)


# --- user messages --------------------------------------------------------------------------------


def _user_messages(facts: SessionFacts, detail: int) -> str:
    messages: list[UserSaid] = []
    for m in facts.user_messages:  # the same words twice in a row are one message
        if not messages or (m.text.strip(), m.channel) != (
            messages[-1].text.strip(),
            messages[-1].channel,
        ):
            messages.append(m)
    if not messages and not facts.interruptions:
        return "None."
    latest = latest_request(messages)
    first = first_request(messages)
    lines = []
    order = {id(m): number for number, m in enumerate(messages)}
    # The times the person stopped the agent, in order among their words (before a message of the same turn).
    for m in sorted(
        [*messages, *facts.interruptions], key=lambda m: (m.turn, m.channel != "interrupt")
    ):
        if m.channel == "interrupt":
            lines.append(f"- (turn {m.turn}) [the user {m.text}]")
            continue
        number = order[id(m)]
        how = _CHANNEL_WORDS.get(m.channel, m.channel)
        label = f"(turn {m.turn}{', ' + how if how else ''})"
        whole = m is latest or m is messages[-1] or m.channel == "feedback"
        if whole:
            text = m.text.strip()
            lines.append(f"- {label} " + text.replace("\n", "\n  "))
        elif m is first:
            # The task as first stated: shortened at a sentence's end, never mid-sentence.
            text = whole_sentences(m.text, _FIRST_REQUEST_AT[detail])
            lines.append(f"- {label} " + text.replace("\n", "\n  "))
        else:
            # The latest few requests say what the work is now; the early ones shorten first.
            recent = number >= len(messages) - _RECENT_MESSAGES
            lines.append(
                f"- {label} {one_line(m.text, (_MESSAGE_AT if recent else _EARLY_MESSAGE_AT)[detail])}"
            )
    return "\n".join(lines)


# --- the work unit and the last activity ----------------------------------------------------------


def _commit_lines(commits: list[CommitReport], detail: int) -> list[str]:
    shown = commits if detail <= 1 else commits[-3:]
    lines = (
        [f"- {len(commits) - len(shown)} earlier commit(s)"] if len(shown) < len(commits) else []
    )
    for c in shown:
        # A push the session's commands did not show may still have happened (a hook, CI, another shell).
        pushed = ", pushed" if c.pushed else ", no push seen"
        lines.append(f"- `{c.hash}` {one_line(c.message, 100)} (turn {c.turn}{pushed})")
    return lines


def _work_state(facts: SessionFacts, detail: int) -> str:
    # Only what the session's git commands showed: a branch no command named is left unsaid.
    work = facts.work
    lines = [f"Branch: `{work.branch}`"] if work.branch else []
    if work.commits:
        lines.append(f"Commits made in the session ({len(work.commits)}):")
        lines += _commit_lines(work.commits, detail)
    elif not work.unconfirmed_commits:
        # Commits made in another checkout (a worktree) are said with it below.
        elsewhere = any(o.commits or o.unconfirmed_commits for o in work.elsewhere)
        # What was not seen is not known not to have happened: a hook's, a sub-agent's or the user's commit
        # leaves no call of the session's own.
        lines.append(
            "No commit seen in the workspace's own checkout from the session's own calls."
            if elsewhere
            else "No commit seen from the session's own calls."
        )
    last_commit = max((c.turn for c in work.commits), default=0)
    unconfirmed = [a.turn for a in work.unconfirmed_commits if a.turn >= last_commit]
    if unconfirmed:
        turns = ", ".join(str(turn) for turn in unconfirmed[-3:])
        lines.append(
            f"`git commit` ran at turn {turns} but printed no commit (quiet, or its output"
            " not recorded): whether it committed is not known."
        )
    pending = [p for p in work.uncommitted if p not in work.unlisted]
    if work.unlisted:
        # Most likely ignored by git: what was seen, not "not committed".
        lines.append(
            f"Changed again after `git status` (turn {max(work.unlisted.values())}) did not list an "
            "earlier change of them, though no commit seen held it (ignored by git?): "
            + _few_paths(sorted(work.unlisted), {0: 30, 1: 20, 2: 12, 3: 8}[detail])
        )
    if pending:
        limit = {0: 30, 1: 20, 2: 12, 3: 8}[detail]
        more = len(pending) - limit
        as_shown = (
            f", as the latest `{work.status.command}` (turn {work.status.turn}) showed"
            if work.status is not None and work.status.current
            else ""
        )
        lines.append(
            (
                "Changed and in no commit shown (the `git commit` above may hold them): "
                if unconfirmed
                else "Changed and not committed: "
            )
            + ", ".join(f"`{p}`" for p in pending[:limit])
            + (f" and {more} more" if more > 0 else "")
            + as_shown
        )
    elif facts.changed and not unconfirmed and not work.unlisted:
        lines.append("Every changed file is committed.")
    if work.status is not None:
        lines += _status_lines(work, detail)
    for other in work.elsewhere:
        # Another repository or checkout: its branch and commits are not the workspace's.
        said = [f"branch `{other.branch}` (turn {other.branch_turn})"] if other.branch else []
        if other.commits:
            said.append(f"{len(other.commits)} commit(s) made there")
        quiet = [
            t
            for t in other.unconfirmed_commits
            if t >= max((c.turn for c in other.commits), default=0)
        ]
        if quiet:
            said.append(
                f"`git commit` ran there at turn {', '.join(map(str, quiet[-3:]))} but printed no"
                " commit: whether it committed is not known"
            )
        elif not other.commits:
            said.append("no commit made there")
        place = "In the git worktree" if other.worktree else "In another repository or checkout,"
        lines.append(f"{place} `{other.path}` (some git commands ran there): {'; '.join(said)}.")
        lines += ["  " + line for line in _commit_lines(other.commits, detail)]
    return "\n".join(lines)


def _status_lines(work: WorkReport, detail: int) -> list[str]:
    """What the latest ``git status`` says beyond the list above: the changed files it showed are not uncommitted
    (it beats the trail), the files it listed that the session never changed."""
    status = work.status
    assert status is not None
    limit = {0: 12, 1: 8, 2: 6, 3: 4}[detail]
    latest = f"the latest `{status.command}` (turn {status.turn})"
    lines = []
    if status.not_shown:
        lines.append(
            f"Changed in the session but not listed by {latest}, so not uncommitted (committed, undone, "
            "ignored, or left on another branch): "
            + ", ".join(f"`{p}`" for p in status.not_shown[:limit])
            + "."
        )
    others = [f for f in status.files if not f.changed_in_session]
    if others and status.current:
        more = f" and {len(others) - limit} more" if len(others) > limit else ""
        lines.append(
            f"Also listed by {latest}, not changed in the session: "
            + ", ".join(f"`{f.path}` ({f.state})" for f in others[:limit])
            + more
            + "."
        )
    return lines


_FINDINGS_AT = {0: (4, 1600), 1: (4, 1200), 2: (3, 700), 3: (2, 400)}
# A latest request that answers the agent's last finding ("yeah let's apply this to carry forward too").
_DEICTIC = lazy_pattern(r"\b(?:this|that|these|those|it)\b", re.I)


# A message shorter than this ("Done.", "Committed.") says nothing the request could refer to.
_MIN_REPLIED_TO = 80


def _thread_findings(facts: SessionFacts) -> list[AssistantSaid]:
    """The conclusions of the current thread: since it started, and the one the latest request replies to.

    Earlier answers served earlier questions, and an item taken up since the request is work of its own:
    the agent that continues needs what this thread established.
    """
    latest = latest_request(facts.user_messages)
    if latest is None:
        return facts.findings
    start = thread_start(facts)
    since = [m for m in facts.findings if m.turn >= start]
    before = [m for m in facts.findings if m.turn < latest.turn]
    # "yeah let's apply this" answers the agent's last finding; "check if this is an issue elsewhere" refers to
    # its last conclusion (a root cause found), not to an earlier answer or design.
    old_reply = (
        bool(before)
        and start == latest.turn
        and (
            GO_AHEAD.match(latest.text) is not None
            or (_DEICTIC.search(latest.text) is not None and concludes(before[-1].text))
        )
    )
    replied = facts.replied_to
    last = facts.last_assistant
    # Best, the agent's message just before the request: not an older finding later turns may have disproved.
    if (
        replied is not None
        and start == latest.turn
        and len(replied.text) >= _MIN_REPLIED_TO
        and (last is None or last.turn != replied.turn)  # shown whole under Where It Stopped
        and (
            GO_AHEAD.search(latest.text) is not None
            or (_DEICTIC.search(latest.text) is not None and concludes(replied.text))
        )
    ):
        if not any(m.turn == replied.turn for m in since):
            since.insert(0, replied)
    elif old_reply:
        since.insert(0, before[-1])
    return since


def _findings(facts: SessionFacts, detail: int) -> str:
    count, limit = _FINDINGS_AT[detail]
    shown = _thread_findings(facts)[-count:]
    latest = latest_request(facts.user_messages)
    lines = [
        f"- (turn {m.turn}{_replied(m, facts, latest)}) "
        + shorten(m.text, limit).replace("\n", "\n  ")
        + _since(m, facts)
        for m in shown
    ]
    learned = facts.lessons[-_LESSONS_AT[detail] :]
    if learned:
        lines.append("Learned on the way, and acted on (the agent's words):")
        lines += [f"- (turn {m.turn}) {one_line(m.text, 240)}" for m in learned]
    lines += _search_lines(facts, detail)
    if not lines:
        latest = latest_request(facts.user_messages)
        since = f" since the latest request (turn {latest.turn})" if latest is not None else ""
        last = facts.last_assistant
        if (
            last is not None
            and (latest is None or last.turn > latest.turn)
            and concludes(last.text)
        ):
            # Findings leave the last message out (it is shown whole under Where It Stopped): saying no
            # conclusion was recorded would deny the answer the agent had just given.
            return (
                f"The agent's conclusion{since} is its last message (turn {last.turn}), under Where It "
                "Stopped; no other recorded in its words."
            )
        return f"No conclusion recorded in the agent's words{since}."
    return "\n".join(lines)


_LESSONS_AT = {0: 4, 1: 3, 2: 2, 3: 1}


def _replied(finding: AssistantSaid, facts: SessionFacts, latest: UserSaid | None) -> str:
    """Says which message the latest request replies to: the context its words ("option 2") refer to."""
    if latest is None or facts.replied_to is None or finding.turn != facts.replied_to.turn:
        return ""
    return f", the message the latest request (turn {latest.turn}) replies to"


def _since(finding: AssistantSaid, facts: SessionFacts) -> str:
    """What became of the names a finding proposed: the one each was written under, when it was renamed."""
    renamed = superseded_names(finding, facts)
    if not renamed:
        return ""
    return (
        "\n  (since then: "
        + "; ".join(
            f"`{draft}` was written as `{written}`, turn {turn}" for draft, written, turn in renamed
        )
        + ")"
    )


_SEARCHES_AT = {
    0: (3, 12),
    1: (3, 8),
    2: (2, 6),
    3: (1, 4),
}  # searches shown (the latest), places of each


def _search_lines(facts: SessionFacts, detail: int) -> list[str]:
    """Where the current thread's searches matched: what it established before it concluded anything."""
    count, limit = _SEARCHES_AT[detail]
    searches = facts.searches[-count:]
    if not searches:
        return []
    lines = [
        f"Where the searches since turn {thread_start(facts)} matched"
        + (
            f" ({len(facts.searches) - count} earlier not shown)"
            if len(facts.searches) > count
            else ""
        )
        + ":"
    ]
    for search in searches:
        # A place in a file changed since the search was likely dealt with, one in a file a later call named was
        # looked at: the others, first, are what is left to see to.
        progress = place_progress(search, facts)
        folder, unchanged = in_common_folder([*progress.left, *progress.seen])
        left, seen = unchanged[: len(progress.left)], unchanged[len(progress.left) :]
        more = f" and {len(left) - limit} more" if len(left) > limit else ""
        line = f"- (turn {search.turn}) `{search.query}`: " + (
            f"in `{folder}/`: " if folder else ""
        )
        line += ", ".join(f"`{p}`" for p in left[:limit]) + more
        if seen:
            line += (
                ("; " if left else "")
                + "looked at since: "
                + ", ".join(f"`{p}`" for p in seen[:limit])
            )
        if progress.changed:
            dealt = [place_path(p).rsplit("/", 1)[-1] for p in progress.changed]
            line += (
                "; " if left or seen else ""
            ) + f"also in {', '.join(f'`{name}`' for name in dealt)}, changed since"
        lines.append(line)
    return lines


def _files_and_code(facts: SessionFacts, detail: int) -> str:
    return f"{changed_files(facts, detail)}\nRead only:\n{read_files(facts, max(detail, 1))}"


def _put_back(facts: SessionFacts, detail: int) -> str:
    """The reverted files, less those moved away (see :func:`_renderer`)."""
    moved = moved_files(facts)  # once: a long session reverts thousands of files
    return files_of_status(
        [r for r in facts.reverted if r.path not in moved], detail, accounts=facts.accounts
    )


def _renderer(key: IndexKey) -> Callable[[SessionFacts, int], str]:
    """The renderer of each index section; mypy checks every key of ``IndexKey`` has one."""
    match key:
        case "files_created":
            return lambda f, d: _own_and_brought_in(f.created, d, f, "created")
        case "files_modified":
            return lambda f, d: _own_and_brought_in(f.modified, d, f, "modified")
        case "files_deleted":
            return _deleted
        case "files_reverted":
            # A file moved away lives on at its new path (listed there as "moved here from"):
            # it was not put back.
            return _put_back
        case "files_changed":
            return changed_files
        case "files_read":
            return read_files
        case "pending_calls":
            return lambda f, d: "\n".join(pending_calls(f.pending, d)) or "None"
        case "files_and_code":
            return _files_and_code
        case "errors" | "errors_and_fixes":
            return _errors
        case "error_messages":
            return lambda f, d: _errors(f, d, resolved=False)
        case "test_status":
            return _test_status
        case "pending_tasks":
            return _pending
        case "user_messages":
            return _user_messages
        case "work_state":
            return _work_state
        case "findings":
            return _findings
        case "last_activity":
            # Where the work stopped is what the continuing agent needs first: it keeps its
            # detail while file lists and resolved errors shrink.
            return lambda f, d: last_activity(f, min(d, 1), outline_recap=d >= MAX_DETAIL)
        case _:
            assert_never(key)


def render_index_section(key: str, facts: SessionFacts, detail: int = 0) -> str:
    """Markdown body of the index section ``key`` at ``detail`` (0..MAX_DETAIL)."""
    if key not in INDEX_KEYS:
        raise KeyError(key)
    return _renderer(cast(IndexKey, key))(facts, max(0, min(detail, MAX_DETAIL)))
