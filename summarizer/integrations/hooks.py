"""Agent hooks: put the exact file trail back into the context after a compaction.

Claude Code and Codex run a ``SessionStart`` hook with ``"source":
"compact"`` right after they compact, and add what the hook returns as
``additionalContext`` to the new context.  Claude Code also runs
``PreCompact`` before (2.1.328 appends its plain output to the summary
prompt as "Additional Instructions", cut at 10,000 characters: seen in the
real agent, not documented) and ``PostCompact`` after, with the summary it
wrote (``compact_summary``).  OpenCode's plugin hook
``experimental.session.compacting`` adds context strings to the compaction
prompt; our plugin asks this module for them as a ``PreCompact``.  Every
hook gets its input on standard input; :mod:`~summarizer.integrations.agents`
finds the transcript it is about.

:func:`hook_response` answers with the index's exact sections (files
changed with their symbols, open errors, test status, open tasks, files
read), so the agent neither forgets an edit nor re-reads a file to learn
what it already knew.  ``PreCompact`` also stores a snapshot of the trail in
the session store, and ``PostCompact`` scores the agent's summary and logs
what it missed (:mod:`~summarizer.integrations.compactions`).

Two promises to the host:

* **Fail open.** A hook that exits 2 blocks the compaction (Claude Code
  2.1.105 and later), so :func:`run_hook` turns every error into exit 0 and
  one line for standard error; the session goes on without our context.
* **Stay under the host's cap.** Claude Code keeps at most
  :data:`HOOK_OUTPUT_LIMIT` characters of a hook's output (beyond it, only a
  short preview); Codex 0.169 cuts lines out of the middle of an
  ``additionalContext`` over 2,500 tokens, which it estimates as a quarter
  of the length (seen in the real agent: 10,015 ASCII characters counted
  2,504 tokens).  So the output is measured in UTF-8 bytes, never fewer
  than the characters or the UTF-16 units either host may count.  It is
  filled by priority (changed files, open errors, tests, open tasks, then
  reverted and read files), at the most detailed level that fits; what is
  left out is counted, with the command that shows it.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from artifact_index.ingestion.events import JSONObject
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.redaction import redact_text
from artifact_index.trail.build import build_index
from artifact_index.trail.collection import collector_paused
from artifact_index.trail.file_reports import ReportCache
from artifact_index.trail.index import ArtifactIndex
from summarizer.exceptions import SummarizerError
from summarizer.integrations.agents import AGENTS, transcript_of
from summarizer.integrations.hook_limits import (
    MEMORY_MB_VARIABLE,
    Deadline,
    HookLimits,
    Offers,
    answer_within,
)
from summarizer.sections.index_sections import MAX_DETAIL, render_index_section
from summarizer.sections.session_facts import session_facts
from summarizer.sections.summary_facts import SessionFacts

if TYPE_CHECKING:
    from artifact_index.live.store import SessionStore
    from summarizer.integrations.compactions import ReadTranscript

__all__ = [
    "ECHOED_PRE_COMPACT_LIMIT",
    "HOOK_OUTPUT_LIMIT",
    "HookRun",
    "changed_paths_text",
    "file_trail_context",
    "hook_response",
    "least_length",
    "run_bounded_hook",
    "run_hook",
]

HOOK_OUTPUT_LIMIT = 10_000

_TITLE = "# What this session has done so far (computed from the transcript by artifact-index)"
_PRE_COMPACT_LEAD = (
    "Keep every file path below in the summary, with what changed; they are exact.\n\n"
)
# Claude Code (2.1.328) also echoes a manual /compact's PreCompact output into the conversation, next
# to the SessionStart context that carries the whole trail: that echo gets the paths alone, so the
# trail is not in the new context twice (seen in the real agent: tests/summarizer/integrations/test_real_agents.py).
ECHOED_PRE_COMPACT_LIMIT = 2_000
_ECHOED_LEAD = (
    "Keep every file path below in the summary, with what changed; they are exact "
    "(the whole trail comes back after the compaction).\n"
)
_PATH_GROUPS = (("created", "Created"), ("modified", "Modified"), ("deleted", "Deleted"))

# Highest priority first: (title, section key, what its items are, the command that lists them all).
_SECTIONS = (
    ("Files created", "files_created", "created files", "files"),
    ("Files modified", "files_modified", "modified files", "files"),
    ("Files deleted", "files_deleted", "deleted files", "files"),
    (
        "Issued, result not recorded (effect unknown)",
        "pending_calls",
        "calls with no result",
        "files",
    ),
    ("Errors", "error_messages", "error lines", "errors"),
    ("Test status", "test_status", "test lines", "errors"),
    ("Open tasks", "pending_tasks", "task lines", "tasks"),
    (
        "Files changed, then put back (no net change seen)",
        "files_reverted",
        "reverted files",
        "files",
    ),
    ("Files read (unchanged)", "files_read", "read-file lines", "files"),
)
_EMPTY = ("None", "No test run", "No task list")
_EARLIER_CALLS = lazy_pattern(r"^- (\d+) earlier call\(s\) with no result recorded$")
_EVENTS = ("SessionStart", "PreCompact", "PostCompact")


def _items(body: str) -> list[str]:
    """The top-level items of a section body; an item's indented lines stay with it."""
    items: list[str] = []
    for line in body.split("\n"):
        if items and line.startswith("  "):
            items[-1] += "\n" + line
        else:
            items.append(line)
    return items


def file_trail_context(
    facts: SessionFacts,
    limit: int = HOOK_OUTPUT_LIMIT,
    transcript: str | None = None,
    *,
    rendered_bodies: dict[tuple[str, int], str] | None = None,
) -> str:
    """The exact sections as Markdown, at most ``limit`` characters, for an agent that just lost its context.

    The most detailed rendering that fits is used whole; when even the most
    compact one does not fit, items are taken in priority order while they
    fit, and a closing line says what was left out and which command
    (on ``transcript``) shows it.  ``rendered_bodies``: the sections of the
    same ``facts`` already rendered, by key and detail, for a caller that
    tries several limits (a section's body does not depend on the limit);
    those rendered here are added to it.
    """
    bodies = rendered_bodies if rendered_bodies is not None else {}
    rendered: list[tuple[str, str, str, str]] = []
    for detail in range(1, MAX_DETAIL + 1):
        last = detail == MAX_DETAIL
        rendered = []
        # The length the whole would have: the title, its newline, and per section its heading.
        length = len(_TITLE) + 1
        for title, key, noun, command in _SECTIONS:
            body = bodies.get((key, detail))
            if body is None and not last:
                least = length + len(title) + least_length(key, facts) + 6
                if least > limit:
                    length = least  # this detail cannot fit, whatever the section says:
                    break  # it need not be rendered
            if body is None:
                body = bodies[key, detail] = render_index_section(key, facts, detail)
            if body.startswith(_EMPTY):
                continue
            rendered.append((title, body, noun, command))
            length += len(title) + len(body) + 6  # "\n\n## " + title + "\n" + body
            if length > limit and not last:
                break  # this detail cannot fit: the sections after it need not be rendered
        if length <= limit:
            return (
                "\n\n".join([_TITLE, *(f"## {title}\n{body}" for title, body, _, _ in rendered)])
                + "\n"
            )
    return _fill_by_priority(rendered, limit, transcript)


# The sections of one status's files: each of the session's own files is a line of its own,
# starting with its path (see summarizer.sections.index_sections).
_OWN_FILES = {"files_created": "created", "files_modified": "modified", "files_deleted": "deleted"}


def least_length(key: str, facts: SessionFacts) -> int:
    """No more characters than the body of the section ``key`` has at any detail.

    Each of the session's own files of a status is a line ``- `PATH`...``: a
    long session's file list is known to overflow the hook's room without
    being rendered (rendering it is most of a long session's hook).
    """
    status = _OWN_FILES.get(key)
    if status is None:
        return 0
    own = [f.path for f in getattr(facts, status) if f.brought_in is None]
    return sum(len(path) + 5 for path in own) - 1 if own else 0


def _fill_by_priority(
    rendered: list[tuple[str, str, str, str]], limit: int, transcript: str | None
) -> str:
    target = shlex.quote(transcript) if transcript else "TRANSCRIPT"
    # Room for the closing line: one clause per section that may lose items.
    reserve = 120 + sum(len(noun) + 12 for _, _, noun, _ in rendered) + 40 * 3 + len(target) * 3
    budget = limit - reserve - len(_TITLE) - 1
    parts = [_TITLE]
    left_out: list[str] = []
    commands: list[str] = []
    for title, body, noun, command in rendered:
        heading = f"\n\n## {title}"
        kept: list[str] = []
        dropped = 0
        for item in _items(body):
            cost = len(item) + 1 + (len(heading) if not kept else 0)
            if cost <= budget:
                kept.append(item)
                budget -= cost
            else:
                # "- 21 earlier call(s) with no result recorded" stands for 21 calls, not one.
                earlier = _EARLIER_CALLS.match(item)
                dropped += int(earlier.group(1)) if earlier is not None else 1
        if kept:
            parts.append(heading + "\n" + "\n".join(kept))
        if dropped:
            left_out.append(f"{dropped} {noun}")
            if command not in commands:
                commands.append(command)
    text = "".join(parts) + "\n"
    if left_out:
        how = "; ".join(f"`artifact-index {command} {target}`" for command in commands)
        text += f"\n(Left out to stay under {limit:,} characters: {', '.join(left_out)}. All of it: {how}.)\n"
    return text


def changed_paths_text(
    index: ArtifactIndex, limit: int = ECHOED_PRE_COMPACT_LIMIT, lead: str = _ECHOED_LEAD
) -> str:
    """The changed paths alone, grouped by status, in at most ``limit`` UTF-8 bytes, after ``lead``.

    Paths are taken in order while they fit; the rest are counted.
    """
    groups = {
        status: [path for path, changed in index.changed_paths() if changed == status]
        for status, _ in _PATH_GROUPS
    }
    total = sum(len(paths) for paths in groups.values())
    if not total:
        return "This session has changed no file yet.\n"

    def closing(left_out: int) -> str:
        return f"(and {left_out} more: `artifact-index files`)\n"

    budget = (
        limit - len(lead.encode()) - len(closing(total).encode())
    )  # room for the longest closing
    lines: list[str] = []
    shown = 0
    for status, title in _PATH_GROUPS:
        kept: list[str] = []
        for path in groups[status]:
            item = f"`{path}`"
            cost = len(item.encode()) + (len(title) + 3 if not kept else 2)
            if cost > budget:
                break
            kept.append(item)
            budget -= cost
        if kept:
            lines.append(f"{title}: {', '.join(kept)}")
            shown += len(kept)
    text = lead + "\n".join(lines) + "\n"
    if shown < total:
        text += closing(total - shown)
    return text


def hook_response(
    hook_input: JSONObject,
    limit: int = HOOK_OUTPUT_LIMIT,
    index: ArtifactIndex | None = None,
    *,
    echoed: bool = False,
    notice: str = "",
    kept: ReportCache | None = None,
) -> str:
    """What to print for a hook invocation (JSON for SessionStart, text for PreCompact).

    At most ``limit`` UTF-8 bytes, secrets redacted; ``index`` is the
    transcript's, when already built (``kept``: its files' reports as an
    earlier run made them, see
    :class:`~artifact_index.trail.file_reports.ReportCache`).  ``echoed`` says the host also shows a
    PreCompact's output in the conversation (a manual Claude Code
    ``/compact``): the output is then the changed paths alone
    (:func:`changed_paths_text`).  ``notice`` (a line saying the transcript
    was read only in part) closes the context.  Raises
    :class:`~summarizer.exceptions.SummarizerError` (or an engine error) when
    the input is unusable; :func:`run_hook` is the fail-open wrapper.
    """
    transcript = hook_input.get("transcript_path")
    if not isinstance(transcript, str) or not transcript:
        raise SummarizerError("the hook input has no transcript_path")
    event = str(hook_input.get("hook_event_name") or "SessionStart")
    if event not in ("SessionStart", "PreCompact"):
        raise SummarizerError(
            f"hook event {event!r} has no context to give (SessionStart, PreCompact)"
        )
    if index is None:
        index, _ = build_index(transcript)
    if echoed and event == "PreCompact":
        room = min(limit, ECHOED_PRE_COMPACT_LIMIT) - len(notice.encode())
        return redact_text(changed_paths_text(index, room) + notice)
    # The facts are kept to the end of the answer: built with the collector off, then moved past
    # the young collections rather than walked by the first one after (a tenth of a second at
    # 100 MB, for no garbage).
    with collector_paused(lasting=True):
        facts = session_facts(index, kept=kept)
    room = limit - len(notice.encode())
    rendered_bodies: dict[tuple[str, int], str] = {}
    # The wrapper and JSON escaping add characters; shrink until the whole output fits.
    for _ in range(8):
        context = redact_text(
            file_trail_context(facts, max(room, 0), transcript, rendered_bodies=rendered_bodies)
            + notice
        )
        if event == "SessionStart":
            output = json.dumps(
                {
                    "hookSpecificOutput": {
                        "hookEventName": "SessionStart",
                        "additionalContext": context,
                    }
                },
                ensure_ascii=False,
            )
        else:
            output = _PRE_COMPACT_LEAD + context
        size = len(output.encode("utf-8"))
        if size <= limit:
            return output
        # Shrink by the share that did not fit: multi-byte characters make bytes outrun characters.
        room = room * limit // size - 64
    raise SummarizerError(f"the file trail does not fit in {limit} characters")


@dataclass(frozen=True)
class HookRun:
    """What the ``hook`` command prints: ``output`` on standard output, ``note`` (one line) on standard error.

    ``late``: the deadline passed before the work ended; the output is the
    best it had, and the process should end without waiting for the rest.
    """

    output: str
    note: str | None
    exit_code: int = 0
    late: bool = False


def _reason(exc: BaseException) -> str:
    reason = (
        str(exc)
        if isinstance(exc, SummarizerError) or type(exc).__module__.startswith("artifact_index")
        else f"{type(exc).__name__}: {exc}"
    )
    return " ".join(redact_text(reason).split())[:500]


def _skipped(reason: str) -> str:
    return f"artifact-index hook: skipped, the session goes on without the file trail ({reason})"


def _clipped(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` UTF-8 bytes, cut at a character and marked when cut."""
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    return data[: max(limit - 4, 0)].decode("utf-8", "ignore") + "…\n"


def _partial_notice(cut: str, transcript: str, seconds: float) -> str:
    return (
        f"\n(This hook read {cut} of the transcript to answer within its {seconds:g} s: "
        f"later changes are missing here. All of it: `artifact-index files {shlex.quote(transcript)}`.)\n"
    )


def _short_form(event: str, read: ReadTranscript, limit: int, seconds: float) -> str:
    """The changed paths alone: what the hook answers when the whole trail is not ready in time."""
    lead = (
        "Files this session changed (the full trail was not ready within the hook's "
        f"{seconds:g} s; `artifact-index files {shlex.quote(str(read.path))}` gives it):\n"
    )
    notice = _partial_notice(read.cut, str(read.path), seconds) if read.cut else ""
    room = min(limit, ECHOED_PRE_COMPACT_LIMIT) - len(notice.encode())
    return _hook_text(event, redact_text(changed_paths_text(read.index, room, lead) + notice))


def _unread_form(event: str, transcript: Path, seconds: float) -> str:
    """What the hook answers when not even the changed paths were ready in time: that they are not known here.

    Said rather than left empty, so that the agent knows the trail exists
    and how to get it, and does not take the silence for "nothing changed".
    """
    command = f"`artifact-index files {shlex.quote(str(transcript))}`"
    context = redact_text(
        "Files this session changed: not known here (the hook could not read the transcript "
        f"within the hook's {seconds:g} s). {command} gives them.\n"
    )
    return _hook_text(event, context)


def _hook_text(event: str, context: str) -> str:
    """``context`` as the host takes it for ``event``: a SessionStart's JSON, else the text itself."""
    if event == "SessionStart":
        return json.dumps(
            {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": context}},
            ensure_ascii=False,
        )
    return context


def _read(
    event: str,
    path: Path,
    limits: HookLimits,
    deadline: Deadline,
    on_read: Callable[[ReadTranscript], None] | None = None,
) -> ReadTranscript:
    """The transcript the hook is about: followed from what an earlier run kept, or (to score a summary) whole.

    Either way within the hook's bounds: reading stops in time to render
    what was read, and after ``limits.transcript_bytes``; ``on_read`` gets
    what was read as soon as reading stops (before the followed state is
    kept and the end of the file read).
    """
    from artifact_index.state_files import user_state_directory
    from summarizer.integrations.compactions import follow_transcript, read_transcript
    from summarizer.integrations.hook_state import HookStates

    stop, most = deadline.reading_over, limits.transcript_bytes
    if event == "PostCompact":
        return read_transcript(path, stop=stop, max_bytes=most)
    states = HookStates(user_state_directory() / "hooks")
    return follow_transcript(path, states, stop=stop, max_bytes=most, on_read=on_read)


def _answer(
    hook_input: JSONObject,
    agent: str,
    limit: int,
    store: Callable[[], SessionStore] | None,
    limits: HookLimits,
    deadline: Deadline,
    offers: Offers[HookRun] | None,
    keep_alive: list[object] | None = None,
) -> HookRun:
    from summarizer.integrations.compactions import score_summary, snapshot

    event = str(hook_input.get("hook_event_name") or "SessionStart")
    if event not in _EVENTS:
        raise SummarizerError(f"hook event {event!r} is not supported ({', '.join(_EVENTS)})")
    late = f"no full answer within {deadline.seconds:g} s"

    def offer_short(read: ReadTranscript) -> None:
        """The changed paths alone, for the deadline to fall back on while the rest is worked out."""
        if offers is not None and event != "PostCompact":
            short = _short_form(event, read, limit - 1, deadline.seconds) + "\n"
            offers.offer(
                HookRun(
                    short,
                    _note(_cut_note(read, deadline), f"{late}: the changed paths alone were given"),
                )
            )

    transcript = transcript_of(agent, hook_input, seconds=deadline.remaining())
    if offers is not None and event != "PostCompact":
        # On a machine slow enough that reading stops late, an answer still goes out.
        offers.offer(
            HookRun(
                _unread_form(event, transcript, deadline.seconds) + "\n",
                f"{late}: the transcript could not be read in time",
            )
        )
    read = _read(event, transcript, limits, deadline, offer_short)
    if keep_alive is not None:
        keep_alive.append(read)
    hook_input = {**hook_input, "transcript_path": str(read.path)}
    trigger = given if isinstance(given := hook_input.get("trigger"), str) else None
    if event == "PostCompact":
        summary = hook_input.get("compact_summary")
        if not isinstance(summary, str) or not summary.strip():
            raise SummarizerError("the PostCompact hook input has no compact_summary to score")
        if (
            read.cut
        ):  # a score against part of the trail would blame the summary for what we skipped
            raise SummarizerError(
                f"no score: only {read.cut} of the transcript could be read within "
                f"{deadline.seconds:g} s"
            )
        line = redact_text(score_summary(read, summary, trigger, store() if store else None))
        return HookRun(_clipped(line + "\n", limit), None)
    cut = _cut_note(read, deadline)
    offer_short(read)
    echoed = agent == "claude-code" and event == "PreCompact" and trigger == "manual"
    notice = _partial_notice(read.cut, str(read.path), deadline.seconds) if read.cut else ""
    try:
        output = (
            hook_response(
                hook_input, limit - 1, read.index, echoed=echoed, notice=notice, kept=read.reports
            )
            + "\n"
        )
    finally:
        problem = read.keep() or read.problem  # the next run starts from this run's reports
    kept = redact_text(problem) if problem else None
    if event != "PreCompact" or store is None:
        return HookRun(output, _note(cut, kept))
    if read.cut:  # a snapshot of part of the session would replace the stored whole
        return HookRun(output, _note(cut, kept, "no snapshot in the session store"))
    if offers is not None:
        offers.offer(
            HookRun(output, _note(kept, "no snapshot in the session store within the time"))
        )
    try:
        snapshot(read, trigger, store())
    except Exception as exc:  # the snapshot is a record; the context still goes out
        return HookRun(output, _note(kept, f"no snapshot in the session store ({_reason(exc)})"))
    return HookRun(output, _note(kept))


def _cut_note(read: ReadTranscript, deadline: Deadline) -> str | None:
    if not read.cut:
        return None
    return (
        f"read {read.cut} of {read.path} within {deadline.seconds:g} s, so the trail leaves out "
        "what came later"
    )


def _note(*parts: str | None) -> str | None:
    said = [part for part in parts if part]
    return "artifact-index hook: " + "; ".join(said) if said else None


def _hook_input(raw_input: str, event: str | None, agent: str) -> JSONObject:
    try:
        hook_input = json.loads(raw_input or "{}")
    except json.JSONDecodeError as exc:
        raise SummarizerError(f"the hook input on standard input is not JSON ({exc.msg})") from exc
    except RecursionError as exc:
        raise SummarizerError("the hook input on standard input nests too deeply") from exc
    if not isinstance(hook_input, dict):
        raise SummarizerError("the hook input on standard input is not a JSON object")
    if agent not in AGENTS:
        raise SummarizerError(f"unknown agent {agent!r} ({', '.join(AGENTS)})")
    if event:
        hook_input["hook_event_name"] = event
    return hook_input


def run_hook(
    raw_input: str,
    event: str | None = None,
    limit: int = HOOK_OUTPUT_LIMIT,
    *,
    agent: str = "claude-code",
    store: Callable[[], SessionStore] | None = None,
    limits: HookLimits | None = None,
    deadline: Deadline | None = None,
    offers: Offers[HookRun] | None = None,
    keep_alive: list[object] | None = None,
) -> HookRun:
    """Answer a hook invocation of ``agent``, failing open: any error gives exit 0, no output and a one-line note.

    ``store`` opens the session store that ``PreCompact`` snapshots and
    ``PostCompact`` logs into (none: nothing is kept).  Reading stops in
    time for ``deadline`` (by default ``limits.seconds`` from now) and at
    ``limits.transcript_bytes``; ``offers`` receives the better answers as
    they are ready, for :func:`run_bounded_hook` to fall back on.  The
    output is at most ``limit`` UTF-8 bytes, whatever the event.
    ``keep_alive`` gets what the work read (the session's index), for a
    process that ends with the answer without freeing it (see
    :func:`run_bounded_hook`).
    """
    limits = limits or HookLimits.from_environment()
    deadline = deadline or Deadline(limits.seconds)
    try:
        hook_input = _hook_input(raw_input, event, agent)
        run = _answer(hook_input, agent, limit, store, limits, deadline, offers, keep_alive)
    except MemoryError:
        bound = f"{limits.memory_bytes // 2**20} MB" if limits.memory_bytes else "the system's"
        return HookRun(
            "",
            _skipped(
                f"reading the transcript needs more memory than the hook's bound ({bound}, "
                f"{MEMORY_MB_VARIABLE})"
            ),
        )
    except Exception as exc:  # never stop the agent: every failure is a note, never a block
        return HookRun("", _skipped(_reason(exc)))
    if len(run.output.encode("utf-8")) > limit:  # never past the host's cap, whatever went wrong
        return HookRun("", _skipped(f"the answer came out over {limit:,} bytes"))
    return run


def run_bounded_hook(
    read_input: Callable[[int], str],
    event: str | None = None,
    limit: int = HOOK_OUTPUT_LIMIT,
    *,
    agent: str = "claude-code",
    store: Callable[[], SessionStore] | None = None,
    limits: HookLimits | None = None,
    deadline: Deadline | None = None,
    keep_alive: list[object] | None = None,
) -> HookRun:
    """:func:`run_hook` with the hook input read by ``read_input(max_bytes)``, all of it within the deadline.

    When the deadline passes first, the answer is the best the work offered
    (the changed paths alone, when the index was ready) with a note, or no
    output and a note; :attr:`HookRun.late` then says the work still runs.
    The deadline is ``limits.seconds`` from now, unless ``deadline`` is given.
    ``keep_alive``: see :func:`run_hook`; a process that ends with the
    answer (:func:`os._exit`) passes it, so that a long session's index is
    not freed object by object first (a tenth of a second at 100 MB).
    """
    limits = limits or HookLimits.from_environment()
    # From now, by default: the command line passes one counted from the process's start.
    deadline = deadline or Deadline(limits.seconds)

    def work(offers: Offers[HookRun]) -> HookRun:
        try:
            raw = read_input(limits.input_bytes)
        except Exception as exc:
            return HookRun("", _skipped(f"standard input cannot be read: {_reason(exc)}"))
        return run_hook(
            raw,
            event,
            limit,
            agent=agent,
            store=store,
            limits=limits,
            deadline=deadline,
            offers=offers,
            keep_alive=keep_alive,
        )

    try:
        within = answer_within(work, deadline)
    except BaseException as exc:  # the work's thread failed outside run_hook's own net
        return HookRun("", _skipped(_reason(exc)))
    if not within.late:
        assert within.answer is not None
        return within.answer
    if within.answer is None:
        return HookRun("", _skipped(f"no answer within {deadline.seconds:g} s"), late=True)
    return replace(within.answer, late=True)
