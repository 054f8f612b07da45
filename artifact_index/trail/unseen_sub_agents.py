"""Sub-agents whose own calls the transcript does not hold, and the files their prompts or reports name.

Claude Code keeps a sub-agent's tool calls in a transcript of its own: the
main one holds the ``Agent``/``Task`` call's prompt and the sub-agent's final
report (for one launched in the background, a ``<task-notification>`` that
comes in later).  What such a sub-agent did to a file is not seen, so the
trail cannot say the file was only read, is still deleted, or changed by
exactly the counted lines.  A file named in the prompt or the report of a run
that could have touched it is said with that run: what was seen (the run,
its turn, that it named the file), never a guessed change.
"""

from __future__ import annotations

import re

from artifact_index.ingestion.events import ToolCall, ToolResult, UserMessage
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.answers import FileReport, SubAgentNote
from artifact_index.trail.session_state import SessionState, SubAgentRun
from artifact_index.trail.tracker.sub_agent_reports import SUB_AGENT_TOOLS

__all__ = ["note_sub_agent_call", "note_sub_agent_notices", "sub_agent_naming", "sub_agent_notes"]

# Sub-agents made to look, not to write: Claude Code's built-in Explore and Plan agents have no tool
# that writes a file, and a plugin's agent typed as an explorer, locator, analyzer or reviewer reports
# on the code rather than changing it.
_LOOKING_AGENT = lazy_pattern(r"explor|locat|analy[sz]|review|^plan$|guide", re.I)
# A prompt that asks for a change ("Create `src/x.ts`", "add ... to `a.py`"): the files it names are the
# sub-agent's to write; a prompt without such a word asks it to look (a review, a search).
_ASKS_CHANGE = lazy_pattern(
    r"\b(?:create|write|edit|modify|update|add|fix|implement|refactor|rename|delete|remove|replace|change)\b",
    re.I,
)
# A line of a report that says a file was made or changed: its paths are the sub-agent's work; the report's
# other paths are files it looked at.
_CHANGE_LINE = lazy_pattern(
    r"\b(?:created|creates|wrote|written|added|adds|modified|updated|changed|edited|rewrote|deleted|removed|"
    r"new (?:test )?files?)\b",
    re.I,
)
# An absolute or home-relative path a prompt names (`/home/me/repo`, `~/dev/neo/`).
_ABSOLUTE = lazy_pattern(
    r"(?<![\w.~/-])(?:~|/(?:home|Users|root|srv|opt|var|tmp|mnt|workspace|work))(?:/[\w.@-]+)+/?"
)
_LAUNCHED = lazy_pattern(r"^\s*Async agent launched successfully\.[^\n]*\n\s*agentId:\s*(\w+)")
_AGENT_ID = lazy_pattern(r"\bagentId:\s*(\w+)")
_NOTICE = lazy_pattern(r"<task-notification>(?P<body>.*?)(?:</task-notification>|\Z)", re.S)


def _field(body: str, name: str) -> str:
    found = re.search(f"<{name}>(.*?)</{name}>", body, re.S)
    return found.group(1).strip() if found else ""


# A change the prompt forbids ("Do not fix or edit anything else", "without modifying them"): its words
# ask for no change, while the prompt's own request ("Update `PLAN.md`") still asks for one.
_CHANGE_WORDS = (
    r"(?:create|write|edit|modify|update|add|fix|implement|refactor|rename|delete|remove|replace|change)\w*"
    r"(?:\s*(?:,|/|\bor\b|\band\b|\bnor\b)\s*"
    r"(?:create|write|edit|modify|update|add|fix|implement|refactor|rename|delete|remove|replace|change)\w*)*"
)
_NOT = r"\b(?:do\s+not|don'?t|never|must\s+not|should\s+not|without)\s+(?:\w+\s+){0,2}?"
_FORBIDS_CHANGE = lazy_pattern(_NOT + _CHANGE_WORDS, re.I)
# A prompt that forbids every change ("Do NOT edit any files", "make no changes", "read-only"): a
# look, however it words what the look is for ("list what to fix").
_FORBIDS_EVERY_CHANGE = lazy_pattern(
    # "Read-only:", "a read-only review", "stay read-only" (not "the config is read-only").
    r"^\W*read[- ]only\b|\bread[- ]only\s+(?:task|review|audit|analysis|mode|investigation|research|pass)\b"
    r"|\b(?:stay|remain|be)\s+read[- ]only\b"
    r"|\bmake\s+no\s+(?:changes|edits)\b(?!\s+(?:to|outside)\b)"
    r"|\b(?:do\s+not|don'?t|never|must\s+not)\s+"
    r"(?:make\s+any\s+(?:changes|edits)|"
    + _CHANGE_WORDS
    + r"\s+(?:anything|any\s+(?:files?|code)|(?:the\s+)?(?:files|code)))\b"
    # "... anything else", "... any files outside src/", "... any changes to b.py": a limit, not a ban.
    r"(?!\s+(?:else|other|outside|except|besides|but|beyond|apart|to)\b)",
    re.I | re.M,
)


# A sentence or line of a prompt: split after a sentence's end or at a line's.
_SENTENCE_END = lazy_pattern(r"(?<=[.!?])\s+(?=[\"'`(\[A-Z/~])|\n")
# What opens a line before its words: a bullet or number, a label ("STYLE —", "Context:", "Note this
# first:"), a filler.
_LEAD = lazy_pattern(
    r"^(?:\s*(?:[-*\u2022>#]+|\d+[.)])\s*|\s*(?-i:[A-Z][A-Za-z /&]{1,30})(?:\s*(?:\u2014|--|:)|\s+-)\s+"
    r"|\s*(?:first|also|then|please|and|next|before\s+\w+ing)\b,?\s*|[^:.\n`/]{1,50}:\s+)+",
    re.I,
)
# A sentence that opens by sending the sub-agent to read ("Read X first", "Use X as a style reference",
# "Match the style of X"): the files it names are there to be read, not changed.
_TO_READ = lazy_pattern(
    r"^(?:read|re-read|study|consult|skim|see|review|inspect|examine|look\s+(?:at|over|through)"
    r"|refer\s+to|use\s+[^\n]{1,120}?\bas\s+(?:a\s+|an\s+|the\s+)?(?:style\s+)?"
    r"(?:reference|example|template|model|guide)"
    r"|(?:follow|match|mirror)\s+(?:the\s+|their\s+)?(?:house\s+)?(?:style|patterns?|conventions?|structure|format))\b",
    re.I,
)
# A prompt whose task is a review ("You're reviewing a PR ...", "Your job: review the diff for
# code quality issues"): its words about changes describe the change under review, and it asks
# for findings.
_REVIEW_TASK = lazy_pattern(
    r"\byou(?:'re| are) reviewing\b"
    r"|\byour (?:job|task)(?: is)?\W{0,3}(?:to )?(?:review|scan|audit|assess|evaluate|inspect)\b"
    r"|^\W*(?:review|audit|scan|inspect)\s+(?:the|this)\s+(?:diff|pr|pull request|changes?|code|patch)\b",
    re.I | re.M,
)
# ... unless it also asks to act on what the review finds.
_ACTS_ON_FINDINGS = lazy_pattern(
    r"\b(?:and|then)\s+(?:fix|apply|implement|make)\b|\bapply (?:the |your |any )?(?:fix|change|suggestion)"
    r"|\bmake the (?:changes|edits|fixes)\b|\bfix (?:them|it|each|every|all|any)\b",
    re.I,
)


# Where a sentence's main clause ends and its details begin ("match their house style: a Scope
# section (writes local files only)").
_DETAILS = lazy_pattern(r"[:;(\u2014]")
# A prompt that confines its change to what it asks for ("touch nothing else in the repo", "change
# nothing else", "do not modify anything else"): a file named in no sentence asking for a change
# is there to be read or kept in mind.
_CONFINES_CHANGE = lazy_pattern(
    r"\b(?:touch|change|modify|edit)\s+nothing\s+else\b"
    r"|\b(?:do\s+not|don'?t|never)\s+(?:touch|change|modify|edit)\s+anything\s+else\b",
    re.I,
)


def _asks_change(sentence: str) -> bool:
    return _ASKS_CHANGE.search(_FORBIDS_CHANGE.sub(" ", sentence)) is not None


def _read_only(sentence: str) -> bool:
    """Whether a sentence of a prompt names its files only to be read: it opens by sending the
    sub-agent to read them, and its main clause asks for no change ("Read X and fix it" does)."""
    words = _LEAD.sub("", sentence, count=1)
    return bool(_TO_READ.match(words)) and not _asks_change(_DETAILS.split(words, 1)[0])


def _looks_only(prompt: str) -> bool:
    """Whether a prompt asks the sub-agent to look and report, changing nothing.

    It forbids every change ("do NOT edit any files"), or its task is a review that does not ask
    for the findings to be acted on.
    """
    if _FORBIDS_EVERY_CHANGE.search(prompt):
        return True
    return _REVIEW_TASK.search(prompt) is not None and not _ACTS_ON_FINDINGS.search(prompt)


def _asked(prompt: str) -> str:
    """The part of a prompt that says which files the sub-agent may change: all of it but the
    sentences that only send it to read, or nothing.

    A prompt that only looks (:func:`_looks_only`), or that asks for no change once the changes it
    forbids are set apart, leaves the files it names as they were seen; so does a sentence that
    names files as something to read ("Read X and Y first and match their house style"), and, in
    a prompt that confines its change ("touch nothing else"), a sentence that asks for none.
    """
    if _looks_only(prompt):
        return ""
    if not _ASKS_CHANGE.search(_FORBIDS_CHANGE.sub(" ", prompt)):
        return ""
    confined = _CONFINES_CHANGE.search(prompt) is not None
    return "\n".join(
        sentence
        for sentence in _SENTENCE_END.split(prompt)
        if not _read_only(sentence) and (not confined or _asks_change(sentence))
    )


def _report_of_changes(run: SubAgentRun, report: str) -> str:
    """The lines of a run's report that say a file was made or changed.

    None of a run whose prompt forbade every change: a research summary's "adds retry to
    `src/api.rs`" tells what the sub-agent read, not what it did.
    """
    if run.looks_only:
        return ""
    return "\n".join(line for line in report.splitlines() if _CHANGE_LINE.search(line))


def note_sub_agent_call(session: SessionState, call: ToolCall, result: ToolResult) -> None:
    """Record a main-agent sub-agent call: a finished run with its report, or a launch in the background."""
    if call.sidechain is not None:
        if call.sidechain not in session.sidechains_seen:
            session.sidechains_seen.append(call.sidechain)
        return
    prompt = call.arguments.get("prompt")
    if (
        call.tool not in SUB_AGENT_TOOLS
        or not isinstance(prompt, str)
        or result.status == "failure"
    ):
        return
    kind = call.arguments.get("subagent_type")
    if isinstance(kind, str) and _LOOKING_AGENT.search(kind.rsplit(":", 1)[-1]):
        return
    description = str(call.arguments.get("description") or "a sub-agent")
    output = result.output or ""
    run = SubAgentRun(
        turn=call.turn,
        description=description,
        text=_asked(prompt),
        finished=False,
        seq=session.op_count,
        looks_only=_looks_only(prompt),
    )
    launched = _LAUNCHED.match(output)
    if launched:
        session.sub_agent_launches[launched.group(1)] = run
        return
    agent = _AGENT_ID.search(output)
    if agent and agent.group(1) in session.sidechains_seen:
        return  # its calls were in this transcript: the trail followed them
    session.unseen_sub_agents.append(
        run.model_copy(update={"report": _report_of_changes(run, output), "finished": True})
    )


def note_sub_agent_notices(session: SessionState, message: UserMessage) -> None:
    """A background sub-agent's completion notice: its run ends here, with its report."""
    if "<task-notification>" not in message.text:
        return
    for notice in _NOTICE.finditer(message.text):
        body = notice.group("body")
        run = session.sub_agent_launches.pop(_field(body, "task-id"), None)
        if run is None:
            continue  # a background shell command's notice, or an agent launched before the span
        session.unseen_sub_agents.append(
            run.model_copy(
                update={
                    "turn": message.turn,
                    "report": _report_of_changes(run, _field(body, "result")),
                    "finished": True,
                    "seq": session.op_count,
                }
            )
        )


def _names(text: str, path: str, root: str | None) -> bool:
    """Whether ``text`` names the file: its absolute path, or its workspace path as a whole token."""
    if root and not path.startswith("/") and f"{root.rstrip('/')}/{path}" in text:
        return True
    if path not in text:
        return False
    return (
        re.search(r"(?<![\w./-])(?:\./)?" + re.escape(path) + r"(?![\w/-]|\.\w)", text) is not None
    )


def _sent_elsewhere(prompt: str, root: str | None) -> bool:
    """Whether the prompt sends the sub-agent to a directory outside the workspace (``In ~/dev/neo/: ...``)."""
    top = (root or "").rstrip("/")
    # The workspace as a home-relative path too: /Users/me/dev/duet is ~/dev/duet.
    home = re.sub(r"^/(?:home|Users)/[^/]+", "~", top)
    for found in _ABSOLUTE.finditer(prompt):
        place = found.group(0).rstrip("/")
        inside = (top, home) if top else ()
        if not any(place == base or place.startswith(base + "/") for base in inside):
            return True
    return False


# A sentence that keeps the sub-agent off what it names ("Another agent is editing search_cache.go —
# do not touch those"): the file is named, but not to be changed.
_HANDS_OFF = lazy_pattern(
    r"\b(?:do not|don't|never|must not|mustn't)\s+(?:touch|edit|modify|change|write)\b"
    r"|\bleave\b[^.\n]{0,80}\balone\b|\boff[- ]limits\b|\bread[- ]only\b|\banother agent\b",
    re.IGNORECASE,
)
# Sentences and their clauses: a path's own dots ("search_cache.go") end none.
_CLAUSE_END = lazy_pattern(r"(?<=[.!?;])\s+|\n+|\s+[—–]\s+|\s+-\s+")


def _asked_to_change(prompt: str, path: str, root: str | None) -> bool:
    """Whether the prompt names the file in a sentence that does not keep the sub-agent off it."""
    if not _names(prompt, path, root):
        return False
    return any(
        _names(sentence, path, root) and not _HANDS_OFF.search(sentence)
        for sentence in _CLAUSE_END.split(_outside_hands_off(prompt))
    )


def _outside_hands_off(prompt: str) -> str:
    """The prompt without its hands-off lists: a section headed "Files you MUST NOT touch", or the
    items after a line such as "Do not modify these:" up to the next blank line."""
    kept: list[str] = []
    section_off = list_off = False
    for line in prompt.split("\n"):
        stripped = line.strip()
        if stripped.startswith("#"):
            section_off, list_off = bool(_HANDS_OFF.search(stripped)), False
            if not section_off:
                kept.append(line)  # a heading may name the file it is about ("## Scope: a.go")
            continue
        if not stripped:
            list_off = False
        elif stripped.endswith(":") and _HANDS_OFF.search(stripped):
            list_off = True
            continue
        if not (section_off or list_off):
            kept.append(line)
    return "\n".join(kept)


def _run_names(run: SubAgentRun, path: str, root: str | None) -> bool:
    """Whether the run's prompt asks for changes to the file, or its report by a path with a folder names it.

    A bare file name (``README.md``) may be another repository's: it is taken as the workspace's
    only from a prompt that sends the sub-agent nowhere else, never from a report.
    """
    if "/" in path:
        return _asked_to_change(run.text, path, root) or _names(run.report, path, root)
    return not _sent_elsewhere(run.text, root) and _asked_to_change(run.text, path, root)


def _runs(session: SessionState) -> list[SubAgentRun]:
    """The unseen runs, each ending at its report's turn; one still running at the cut, at its launch."""
    return sorted(
        [*session.unseen_sub_agents, *session.sub_agent_launches.values()], key=lambda r: r.turn
    )


def sub_agent_naming(session: SessionState, path: str) -> SubAgentRun | None:
    """The latest unseen sub-agent run so far whose prompt asked for changes to the file ``path`` (a file key), or whose report said it changed it."""
    for run in reversed(_runs(session)):
        if _run_names(run, path, session.root):
            return run
    return None


def sub_agent_notes(
    session: SessionState, reports: list[FileReport], *, after_last_change: bool
) -> dict[str, SubAgentNote]:
    """Per file: the latest unseen sub-agent run that names it and could have touched it.

    ``after_last_change``: only a run at or after the file's latest seen change counts (a deletion
    stands unless something later could have written the file again); otherwise any run does (a file
    only read is not known unchanged when a sub-agent given it ran at any time in the session).
    """
    runs = _runs(session)
    found: dict[str, SubAgentNote] = {}
    if not runs:
        return found
    for report in reports:
        since = max(report.changed_turns, default=0) if after_last_change else 0
        naming = [
            run for run in runs if run.turn >= since and _run_names(run, report.path, session.root)
        ]
        if naming:
            run = naming[-1]
            found[report.path] = SubAgentNote(
                turn=run.turn,
                description=run.description,
                finished=run.finished,
                before_first=bool(report.turns) and run.turn < min(report.turns),
                reported="/" in report.path and _names(run.report, report.path, session.root),
                earlier=len(naming) - 1,
            )
    return found
