"""What was tried against an error that is still open: so the agent that continues does not try it again.

An error that survived several attempts (Dialyzer's "pattern can never match"
after a ``@spec``, a ``with``, a ``.dialyzerignore``, an ignore comment and
``git commit --no-verify``) is the most expensive thing to forget.  Between
two runs that showed the same error, what the session did is an attempt that
did not resolve it; :func:`failed_attempts` reads each from the events:

* the agent's own sentence announcing it ("Let me add a spec to
  ``get_current_trace_id``..."), from the message right before a change in
  that interval (to the error's own file when it has one), else the last
  message announcing anything;
* the files the interval changed, when the sentence does not name them;
* the options the rerun added to the command (``--no-verify``).

An interval in which nothing changed and the command stayed the same is a
plain rerun, not an attempt; nor is a long stretch of other work, or a
generic failure ("exit code 1") met again in another command.  Nothing is
paraphrased.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from artifact_index.ingestion.events import AssistantMessage, Event, ToolCall
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.simple_commands import simple_commands
from artifact_index.trail.answers import ErrorReport, FileReport
from artifact_index.trail.conversation.told import Attempt

__all__ = ["failed_attempts"]

_SENTENCES = lazy_pattern(r"(?<=[.!?:])\s+|\n+")
# A sentence that announces something done to the code or the command, not a look or a run.
_ANNOUNCES = lazy_pattern(
    r"\b(?:let me|let's|I'll|I will|I need to|I'm going to|try(?:ing)?|now)\b.*?\b(?:add|use|create|make|change|"
    r"replace|remove|wrap|skip|ignore|simplify|extract|move|rewrite|annotate|convert|switch|fix|restructure|"
    r"refactor|return|handle|pass|set|disable|suppress|bypass|update|commit)\w*\b",
    re.I,
)
# "Let me check the wrapt version": a look, whatever words follow.
_LOOKS = lazy_pattern(
    r"\b(?:let me|let's|I'll|I will|now)\s+(?:also\s+|first\s+)?(?:check|look|see|read|run|verify|"
    r"examine|inspect|search|find|understand|investigate|test|confirm)\b",
    re.I,
)
_MAX_GAP = 30  # turns between two runs beyond which what happened in between was other work
_MAX_SENTENCE = 140
_MAX_ATTEMPTS = 8


def _cut(text: str, limit: int = _MAX_SENTENCE) -> str:
    text = " ".join(text.split()).strip("*# ")
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _announced(text: str) -> str | None:
    """The first sentence of a message that announces a change."""
    return next(
        (
            _cut(s)
            for s in _SENTENCES.split(text)
            if _ANNOUNCES.search(s) and not _LOOKS.search(s) and not s.rstrip().endswith("?")
        ),
        None,
    )


def _options(command: str | None) -> set[str]:
    """The options the first line of ``command`` passes, read by the shell layer's parser."""
    if not command:
        return set()
    words = [word for _, argv in simple_commands(command.split("\n", 1)[0]) for word in argv]
    return {w for w in words if w.startswith("-") and len(w) > 1 and "=" not in w[:3]}


def _program(command: str | None) -> list[str]:
    """The program and its sub-command (``git commit``): what a rerun has in common with the run before."""
    return command.split()[:2] if command else []


def _run_at(calls: Sequence[ToolCall], turn: int, command: str | None) -> str | None:
    """The shell command of ``turn`` that ran the check showing the error (its first program like ``command``)."""
    first = command.split()[0] if command else None
    found = [
        op.command
        for call in calls
        if call.turn == turn
        for op in call.operations
        if op.action == "shell" and op.command
    ]
    return next(
        (c for c in found if first and c.split()[:1] == [first]), found[0] if found else None
    )


def failed_attempts(
    events: Sequence[Event], error: ErrorReport, changed: Sequence[FileReport]
) -> list[Attempt]:
    """What the session did between the runs that showed ``error`` again, oldest first (the latest few)."""
    turns = sorted(set(error.seen_turns))
    if error.resolved or len(turns) < 2:
        return []
    messages = [
        e
        for e in events
        if isinstance(e, AssistantMessage) and e.sidechain is None and e.text.strip()
    ]
    calls = [e for e in events if isinstance(e, ToolCall) and e.sidechain is None]
    own = error.file.replace("\\", "/").rsplit("/", 1)[-1] if error.file else None
    attempts: list[Attempt] = []
    for before, after in pairwise(turns):
        ran = (_run_at(calls, before, error.command), _run_at(calls, after, error.command))
        if after - before > _MAX_GAP or (
            error.kind == "generic" and _program(ran[0]) != _program(ran[1])
        ):
            continue  # not the same failure met again: other work came between
        files = [f for f in changed if any(before < t <= after for t in f.changed_turns)]
        mine = [f for f in files if own and f.path.rsplit("/", 1)[-1] == own] or files
        change_turns = sorted(t for f in mine for t in f.changed_turns if before < t <= after)
        said = [m for m in messages if before < m.turn <= after]
        sentences: list[str] = []
        for turn in change_turns or [after]:
            # What the agent said last before this change: the change it announced.
            found = next(
                (
                    _announced(m.text)
                    for m in reversed(said)
                    if m.turn <= turn and _announced(m.text)
                ),
                None,
            )
            if found and found not in sentences:
                sentences.append(found)
        sentences = sentences if len(sentences) <= 2 else [sentences[0], sentences[-1]]
        added = _options(ran[1]) - _options(ran[0])
        if not files and not added:
            continue  # the same command again, nothing changed: a rerun, not an attempt
        parts = [" then ".join(f'"{s}"' for s in sentences)] if sentences else []
        # The error's own file goes without saying; another file changed for it does not.
        named = [
            f.path
            for f in files
            if f.path.rsplit("/", 1)[-1] not in (own, *" ".join(sentences).split())
        ]
        if named:
            parts.append(
                "changed "
                + ", ".join(f"`{p}`" for p in named[:3])
                + (" …" if len(named) > 3 else "")
            )
        unsaid = sorted(o for o in added if o not in " ".join(sentences))
        if unsaid:
            parts.append("re-ran with " + " ".join(f"`{o}`" for o in unsaid))
        if not parts:
            parts.append("changed its file")
        attempts.append(Attempt(turn=(change_turns or [after])[-1], text="; ".join(parts)))
    return attempts[-_MAX_ATTEMPTS:]
