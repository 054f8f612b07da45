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

from collections.abc import Callable

from summarizer.narrative.consistency import contradictions
from summarizer.sections.facts import ErrorFact, MessageFact, SessionFacts
from summarizer.sections.file_lists import changed_files, files_of_status, read_files

__all__ = ["MAX_DETAIL", "latest_request", "render_index_section"]

MAX_DETAIL = 3
_MESSAGE_AT = {0: 1200, 1: 500, 2: 240, 3: 140}  # characters kept of an early user message
_RESOLVED_AT = {0: 12, 1: 6, 2: 3, 3: 0}  # resolved errors listed one by one (the latest)
_CHANNEL_WORDS = {
    "prompt": "",
    "feedback": "feedback when refusing a call",
    "interjection": "typed while a tool ran",
    "queued": "queued while the agent worked",
    "command": "slash command",
}


def _one_line(text: str, limit: int) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _block(text: str) -> str:
    """A multi-line text as an indented fenced block under a list item."""
    body = text.rstrip("\n").replace("\n", "\n  ")
    return f"\n  ```\n  {body}\n  ```"


# --- errors ---------------------------------------------------------------------------------------


def _where(e: ErrorFact) -> str:
    if not e.file:
        return ""
    where = f" in `{e.file}" + (f":{e.line}" if e.line else "") + "`"
    return where + (f" (`{e.symbol}`)" if e.symbol else "")


def _command(command: str | None, limit: int = 80) -> str:
    return f"`{_one_line(command, limit)}`" if command else "a later run"


def _open_error(e: ErrorFact, detail: int) -> str:
    turns = f"turn {e.first_turn}" if e.first_turn == e.last_turn else f"turns {e.first_turn}–{e.last_turn}"
    source = f" from {_command(e.command)}" if e.command and detail <= 2 else ""
    head = f"- [OPEN] {e.kind}{_where(e)}, {turns}{source}:"
    message = f"{_block(e.message)}" if "\n" in e.message else f" `{e.message}`"
    detail_block = _block(e.detail) if e.detail else ""
    return head + message + detail_block


def _resolved_error(e: ErrorFact, detail: int) -> str:
    how = f"{e.resolution} at turn {e.resolved_turn}" if e.resolution else f"resolved at turn {e.resolved_turn}"
    by = f" (`{_one_line(e.resolved_by, 60)}`)" if e.resolved_by and detail <= 1 else ""
    fixed = f"; fixed by {', '.join(f'`{p}`' for p in e.fixed_by[:3])}" if e.fixed_by else ""
    return f"- [resolved] `{_one_line(e.message, 160)}`{_where(e) if detail <= 1 else ''}: {how}{by}{fixed}"


def _errors(facts: SessionFacts, detail: int, *, resolved: bool = True) -> str:
    lines = []
    if facts.original_error is not None:
        first = facts.original_error
        state = "resolved" if first.resolved else "still open"
        lines.append(f"Original error (turn {first.first_turn}, {state}): `{_one_line(first.message, 200)}`")
    lines += [_open_error(e, detail) for e in facts.open_errors]
    if resolved:
        closed = [e for e in facts.errors if e.resolved]
        limit = _RESOLVED_AT[detail]
        shown = closed[-limit:] if limit else []
        if len(closed) > len(shown):
            lines.append(f"- {len(closed) - len(shown)} {'more ' if shown else ''}error(s) seen and resolved")
        lines += [_resolved_error(e, detail) for e in shown]
    return "\n".join(lines) if lines else "None recorded."


# --- tests ----------------------------------------------------------------------------------------


def _test_status(facts: SessionFacts, detail: int) -> str:
    if not facts.tests:
        return "No test run recorded."
    runs = facts.tests if detail == 0 else facts.tests[-{1: 6, 2: 4, 3: 3}[detail]:]
    lines = []
    if len(runs) < len(facts.tests):
        lines.append(f"- {len(facts.tests) - len(runs)} earlier test command(s) not shown")
    for t in runs:
        counts = f"{t.passed} passed, {t.failed} failed" + (f", {t.skipped} skipped" if t.skipped else "")
        lines.append(f"- `{_one_line(t.command, 100)}` (last run turn {t.turn}): {counts}")
        limit = {0: 20, 1: 10, 2: 5, 3: 3}[detail]
        lines += [f"  - failing: `{name}`" for name in t.failing[:limit]]
        if len(t.failing) > limit:
            lines.append(f"  - and {len(t.failing) - limit} more failing")
    return "\n".join(lines)


# --- tasks ----------------------------------------------------------------------------------------


def _pending(facts: SessionFacts, detail: int) -> str:
    tasks = facts.open_tasks
    if not tasks:
        done = len(facts.tasks)
        return f"None open ({done} task(s) completed)." if done else "No task list was kept."
    marks = {"in_progress": "[in progress]", "pending": "[pending]"}
    written = max(t.turn for t in facts.tasks)
    lines = [f"The agent's list as last written (turn {written}):"]
    for t in tasks:
        line = f"- {marks[t.status]} {t.content}"
        if t.done_evidence:
            line += f" (but since then: {t.done_evidence})"
        lines.append(line)
    return "\n".join(lines)


# --- user messages --------------------------------------------------------------------------------


def latest_request(messages: list[MessageFact]) -> MessageFact | None:
    """The user's latest request: their last message that is not a bare slash command."""
    for message in reversed(messages):
        if message.channel != "command" or " " in message.text.strip():
            return message
    return messages[-1] if messages else None


def _user_messages(facts: SessionFacts, detail: int) -> str:
    messages: list[MessageFact] = []
    for m in facts.user_messages:  # the same words twice in a row are one message
        if not messages or (m.text.strip(), m.channel) != (messages[-1].text.strip(), messages[-1].channel):
            messages.append(m)
    if not messages:
        return "None."
    latest = latest_request(messages)
    limit = _MESSAGE_AT[detail]
    lines = []
    for m in messages:
        how = _CHANNEL_WORDS.get(m.channel, m.channel)
        label = f"(turn {m.turn}{', ' + how if how else ''})"
        whole = m is latest or m is messages[-1] or m.channel == "feedback"
        if whole:
            text = m.text.strip()
            lines.append(f"- {label} " + text.replace("\n", "\n  "))
        else:
            lines.append(f"- {label} {_one_line(m.text, limit)}")
    return "\n".join(lines)


# --- the work unit and the last activity ----------------------------------------------------------


def _work_state(facts: SessionFacts, detail: int) -> str:
    work = facts.work
    if not work.branch and not work.commits:
        changed = len(work.uncommitted)
        return (f"No branch or commit seen in the session's commands: the {changed} changed file(s) are uncommitted."
                if changed else "No branch or commit seen in the session's commands.")
    lines = [f"Branch: `{work.branch}`" if work.branch else "Branch: not seen in the session's commands"]
    commits = work.commits if detail <= 1 else work.commits[-3:]
    if work.commits:
        lines.append(f"Commits made in the session ({len(work.commits)}):")
        if len(commits) < len(work.commits):
            lines.append(f"- {len(work.commits) - len(commits)} earlier commit(s)")
        for c in commits:
            pushed = ", pushed" if c.pushed else ", not pushed"
            lines.append(f"- `{c.hash}` {_one_line(c.message, 100)} (turn {c.turn}{pushed})")
    else:
        lines.append("Commits made in the session: none.")
    if work.uncommitted:
        lines.append("Changed and not committed: " + ", ".join(f"`{p}`" for p in work.uncommitted))
    elif facts.changed:
        lines.append("Every changed file is committed.")
    return "\n".join(lines)


_EARLIER_MESSAGES_AT = {0: 5, 1: 4, 2: 2, 3: 0}


def _last_activity(facts: SessionFacts, detail: int) -> str:
    lines = []
    last = facts.last_assistant
    earlier = [m for m in facts.recent_messages if last is None or m.turn < last.turn]
    earlier = earlier[len(earlier) - _EARLIER_MESSAGES_AT[detail]:] if _EARLIER_MESSAGES_AT[detail] else []
    if earlier:
        lines.append("Before that, the agent said (the thread of its work):")
        lines += [f"- (turn {m.turn}) {_one_line(m.text, 160)}" for m in earlier]
    if last is not None:
        lines.append(f"The agent's last message (turn {last.turn}):\n  " + last.text.strip().replace("\n", "\n  "))
        # The agent's own words are a claim like any other: "all tests pass" with a failing run is flagged.
        flags = contradictions(last.text, facts)
        if flags:
            lines.append(f"  ⚠ [index: {'; '.join(flags)}]")
    calls = facts.activity if detail <= 1 else facts.activity[-1:]
    if calls:
        lines.append("Its last tool calls, oldest first:")
    for call in calls:
        line = f"- (turn {call.turn}) {call.tool} `{call.target}` → {call.status}"
        if call.output and (detail <= 1 or call is calls[-1]):
            line += _block(call.output)
        lines.append(line)
    return "\n".join(lines) if lines else "Nothing recorded."


def _files_and_code(facts: SessionFacts, detail: int) -> str:
    return f"{changed_files(facts, detail)}\nRead only:\n{read_files(facts, max(detail, 1))}"


_RENDERERS: dict[str, Callable[[SessionFacts, int], str]] = {
    "files_created": lambda f, d: files_of_status(f.created, d),
    "files_modified": lambda f, d: files_of_status(f.modified, d),
    "files_deleted": lambda f, d: files_of_status(f.deleted, d),
    "files_reverted": lambda f, d: files_of_status(f.reverted, d),
    "files_changed": changed_files,
    "files_read": read_files,
    "files_and_code": _files_and_code,
    "errors": _errors,
    "errors_and_fixes": _errors,
    "error_messages": lambda f, d: _errors(f, d, resolved=False),
    "test_status": _test_status,
    "pending_tasks": _pending,
    "user_messages": _user_messages,
    "work_state": _work_state,
    # Where the work stopped is what the continuing agent needs first: it keeps its detail
    # while file lists and resolved errors shrink.
    "last_activity": lambda f, d: _last_activity(f, min(d, 1)),
}


def render_index_section(key: str, facts: SessionFacts, detail: int = 0) -> str:
    """Markdown body of the index section ``key`` at ``detail`` (0..MAX_DETAIL)."""
    return _RENDERERS[key](facts, max(0, min(detail, MAX_DETAIL)))
