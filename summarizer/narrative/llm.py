"""The narrative written by an LLM: the prompt, the forced tool, and the writer.

:class:`LLMWriter` writes the narrative sections with one forced tool call
per request, through any provider (:mod:`summarizer.providers`: Anthropic,
or an OpenAI-compatible endpoint).  The tool's input schema is the pydantic
model of the template's narrative sections
(:func:`summarizer.narrative.narrative_model.reply_model`), and the provider validates
the reply against it: a malformed reply is answered with the validation
error and retried, and after the last retry
:class:`~summarizer.exceptions.NarrativeError` is raised.  An empty section
is never invented from a bad reply.

The prompt holds the instructions (before the transcript span, and again,
shortened, after it), the previous narrative (the anchor, items numbered per
section), the index facts with their evidence (an error resolved names the
run that showed it, an open task what was done since the list was written),
every user message whatever its channel, and only the span newly dropped
from context.  Every request, token counts included, is
redacted (:mod:`artifact_index.redaction`) before it leaves.  The SDK reads
``ANTHROPIC_API_KEY`` and ``ANTHROPIC_BASE_URL``; tests point it at a local
server.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel

from summarizer.budget import TextLimits, condense_facts
from summarizer.exceptions import LLMError, NarrativeError
from summarizer.narrative.narrative_model import (
    FILE_NOTES,
    NarrativeReply,
    NarrativeRequest,
    SectionReply,
    changed_since,
    reply_model,
)
from summarizer.providers.structured import StructuredAsk, StructuredClient
from summarizer.sections.index_sections import render_index_section
from summarizer.sections.thread import latest_request

if TYPE_CHECKING:
    from summarizer.providers.anthropic_api import AnthropicClient

__all__ = [
    "SYSTEM",
    "TOOL_NAME",
    "LLMWriter",
    "build_prompt",
    "count_prompt_tokens",
    "narrative_ask",
    "noted_files",
]

TOOL_NAME = "record_narrative"

SYSTEM = (
    "You maintain the narrative sections of a structured compaction summary of a coding-agent session. Its "
    "reader is the agent that continues the session right after the compaction, with nothing else in its "
    "context. Files, symbols, errors, tests, commits and tasks are tracked exactly by an index, and each fact "
    "comes with its evidence; you write only what code cannot know: intent, decisions and their reasons, the "
    "current state, the next steps. Use exact file paths, symbol names and error messages. Answer only by "
    f"calling the {TOOL_NAME} tool."
)

# What the index states, in the order a reader needs it, at the detail the prompt can afford.
_FACTS: tuple[tuple[str, str, int], ...] = (
    (
        "User messages, every channel, in order (the latest request and all feedback whole)",
        "user_messages",
        1,
    ),
    # Every detail, the turns of each file's changes with it: an older statement about a file is checked by them.
    ("Files changed (exact), with the turns of their changes", "files_changed", 0),
    (
        "Errors: open ones with the lines that explain them; resolved ones with the run that showed it",
        "errors",
        1,
    ),
    (
        "Test status: the last run of each test command, and the changes no check has seen since",
        "test_status",
        1,
    ),
    (
        "Work state: branch, commits made, changes not committed, other repositories",
        "work_state",
        1,
    ),
    (
        "Open tasks: the agent's list, with what the index saw done since it was written; the issue-tracker items "
        "(bd, gh) the session drove, the one in progress with the finishing steps it still lacks",
        "pending_tasks",
        1,
    ),
    (
        "What the session established: conclusions, constraints learned and acted on, where the current searches "
        "matched",
        "findings",
        1,
    ),
    ("Where the work stopped: the agent's last message and tool calls", "last_activity", 1),
)


_PROMPT_TEXT_LIMITS = TextLimits(words=16_000, last_message=16_000, other=4_000)


def _facts_text(request: NarrativeRequest) -> str:
    # Only the span's own words travel: what the agent said before it is the anchor's business.
    first = request.span_turns[0]
    facts = request.facts
    last = (
        facts.last_assistant
        if facts.last_assistant is not None and facts.last_assistant.turn >= first
        else None
    )
    facts = facts.model_copy(
        update={
            "recent_messages": [m for m in facts.recent_messages if m.turn >= first],
            "activity": [a for a in facts.activity if a.turn >= first],
            "last_assistant": last,
            "findings": [m for m in facts.findings if m.turn >= first],
            "replied_to": (
                facts.replied_to
                if facts.replied_to is not None and facts.replied_to.turn >= first
                else None
            ),
            "lessons": [m for m in facts.lessons if m.turn >= first],
        }
    )
    # A pasted log is in the span as it was: the facts need only its distinct lines.
    facts = condense_facts(facts, _PROMPT_TEXT_LIMITS)
    return "\n\n".join(
        f"### {title}\n{render_index_section(key, facts, detail)}" for title, key, detail in _FACTS
    )


def _anchor_text(request: NarrativeRequest) -> str:
    blocks = []
    for section in request.sections:
        items = request.previous.items(section.key)
        lines = [f"  {n}. {item.text}" for n, item in enumerate(items, start=1)] or ["  (none)"]
        blocks.append(f"{section.key} ({section.title}):\n" + "\n".join(lines))
    # The earlier line on each file asked again: changed since, it is to be updated, not repeated.
    earlier = [
        f"  `{path}`: {request.previous.file_notes[path]}"
        for path in noted_files(request)
        if path in request.previous.file_notes
    ]
    if earlier:
        blocks.append(
            f"{FILE_NOTES} (the earlier line on each file changed since):\n" + "\n".join(earlier)
        )
    return "\n".join(blocks)


_READING = (
    "How to read what follows:\n"
    "- The index facts are exact. An error marked [resolved] was fixed: the run that showed it is named, so "
    "never call it open or list fixing it as a next step. An error marked [OPEN] is still open. A file listed "
    "only as read was not changed. Never contradict a fact; say what it means for the work.\n"
    "- What the user said is the task: feedback given when refusing a tool call and text typed while a tool "
    "ran are instructions as binding as a prompt. Keep every distinct request and constraint in the intent.\n"
    "- Next steps continue the latest user request and the work in progress where it stopped. A step the "
    'transcript shows done is not a next step (a sentence like "Let me check X" followed by the call that '
    "checked X is done); open tasks with evidence of being done since the list was written need checking, "
    "not redoing.\n"
    '- A test or lint result is the state of the code only if nothing changed after it: files listed as "Not tested by '
    'any run seen" (or linted, built) are unverified, so a fix made since is in progress, not done, and running the '
    "check is a next step. An issue-tracker item in progress is unfinished until the steps listed as not done "
    "for it are taken.\n"
    "- Every statement has a time: the index facts are the current state, as of the turn their tag names; the "
    "previous narrative was written as of an earlier turn, and the span's early turns are older than its late "
    "ones. Where something older (a file called not yet edited, an error seen and fixed later, a plan carried "
    "out since, a todo list since updated) disagrees with the facts or a later turn, the later one holds: list "
    "the older item in `superseded` and never repeat the older claim."
)

_FILE_LINES = (
    f"- `{FILE_NOTES}`: one line for each file its schema lists (the files changed since the previous summary, "
    "and those without a line yet), keyed by that exact path (every one, no other): what the change does and "
    "why it matters to the task. Take it from the agent's words, "
    "the definitions and code the index shows, and the span; for a file changed before this span, from the "
    "facts and the previous narrative. Never a guess: say only what these show."
)


def build_prompt(request: NarrativeRequest) -> str:
    """The user message of a narrative request: instructions, the anchor, the facts, the span, the instructions again.

    The instructions come before the transcript span and, shortened, after
    it, where a long span would otherwise leave them far behind.
    """
    first, last = request.span_turns
    facts_turn = max(request.facts_turn, last)
    # A first summary has no previous narrative, so nothing older to date.
    anchor_turn = (
        f' as_of_turn="{request.previous.last_turn}"' if request.previous.last_turn else ""
    )
    if request.strategy == "regenerative":
        how = (
            "Write every section from scratch for the whole session below (regenerative summary); "
            "leave `superseded` empty."
        )
    else:
        how = (
            "Anchored iterative summarization: the previous narrative stays as it is. For each section, give "
            "only NEW items that the new span adds, and list in `superseded` the numbers of previous items "
            "the new span makes wrong or obsolete (finished work still described as in progress, reversed "
            "decisions, errors since resolved). Do not restate previous items."
        )
    extra = "".join(
        f"\n<extra_context>\n{text}\n</extra_context>\n" for text in request.extra_context
    )
    sections = "\n".join(f"- {s.key}: {s.title}. {s.instructions}" for s in request.sections)
    reading = _READING + ("\n" + _FILE_LINES if noted_files(request) else "")
    latest = latest_request(request.facts.user_messages)
    latest_note = (
        f" the user's latest request (turn {latest.turn}) is reflected in the intent and the next steps;"
        if latest is not None
        else ""
    )
    return (
        f"<instructions>\nCompaction cycle {request.cycle}.\n{how}\n\n{reading}\n\nSections:\n{sections}\n"
        f"</instructions>\n\n"
        f"<previous_narrative{anchor_turn}>\n{_anchor_text(request)}\n</previous_narrative>\n\n"
        f'<index_facts as_of_turn="{facts_turn}">\n{_facts_text(request)}\n</index_facts>\n{extra}\n'
        f'<new_span turns="{first}-{last}">\n{request.span}\n</new_span>\n\n'
        f"<reminder>\nNow call {TOOL_NAME} with every section. {how} Before answering, check each item against "
        f"the index facts (turn {facts_turn}, the current state): no resolved error called open, no step already done "
        f"listed as next, no previous item the facts or a later turn contradict left unsuperseded;{latest_note} "
        f"feedback the user gave is kept.\n</reminder>"
    )


_MOST_NOTED = 60  # past this many changed files, the latest changed are noted; the others stay listed as they are


def noted_files(request: NarrativeRequest) -> list[str]:
    """The changed paths the reply must say a line about, the latest first past a cap.

    Anchored, a file unchanged since the previous summary keeps the line it has
    there: only the files changed since, and those without a line yet, are
    asked. Empty when the template shows no Files Changed section: the lines
    would have nowhere to go.
    """
    if "files_changed" not in request.shown:
        return []
    facts = request.facts
    # What a merge only brought in is counted, not described (the merged commits' work, not the session's).
    files = [
        f
        for f in (*facts.created, *facts.modified, *facts.deleted, *facts.reverted)
        if f.brought_in is None
    ]
    if request.strategy == "anchored":
        since = set(changed_since(facts, request.previous.last_turn))
        files = [f for f in files if f.path in since or f.path not in request.previous.file_notes]
    latest = sorted(files, key=lambda f: max(f.changed_turns, default=0), reverse=True)
    return sorted(f.path for f in latest[:_MOST_NOTED])


def narrative_ask(request: NarrativeRequest) -> StructuredAsk[BaseModel]:
    """The structured request a provider is sent for ``request``: the prompt and the forced tool's model."""
    files = noted_files(request)
    return StructuredAsk(
        system=SYSTEM,
        prompt=build_prompt(request),
        tool_name=TOOL_NAME,
        tool_description="Record the narrative sections of the summary.",
        reply=reply_model(request.sections, files),
        what="narrative reply",
        # A line per changed file comes on top of the sections.
        max_tokens=4096 + 60 * len(files),
    )


def count_prompt_tokens(client: AnthropicClient, request: NarrativeRequest) -> int:
    """Exact input tokens of a narrative request, from the Anthropic API's token counting endpoint."""
    try:
        return client.count_tokens(narrative_ask(request))
    except LLMError as exc:
        raise NarrativeError(str(exc)) from exc


class LLMWriter:
    """A :class:`~summarizer.narrative.narrative_model.NarrativeWriter` backed by an LLM provider's structured reply."""

    needs_span = True

    def __init__(self, client: StructuredClient) -> None:
        self.client = client

    @property
    def model(self) -> str:
        return self.client.model

    def write(self, request: NarrativeRequest) -> NarrativeReply:
        try:
            parsed = self.client.ask(narrative_ask(request))
        except LLMError as exc:
            raise NarrativeError(str(exc)) from exc
        sections = {
            s.key: SectionReply.model_validate(getattr(parsed, s.key)) for s in request.sections
        }
        notes = getattr(parsed, FILE_NOTES, None)
        file_notes: dict[str, str] = (
            {path: " ".join(text.split()) for path, text in notes.model_dump(by_alias=True).items()}
            if isinstance(notes, BaseModel)
            else {}
        )
        return NarrativeReply(sections=sections, origin="llm", file_notes=file_notes)
