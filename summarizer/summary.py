"""Building a summary: index sections from the facts, narrative sections from a writer.

:func:`summarize` feeds the transcript's events to the tracker (or takes an
index already built), asks the writer for the narrative of the span after
the previous summary (chunk by chunk when the span is larger than one
request should be), merges each answer into the anchor, flags what the
index contradicts, and renders the template within its token budget.

The rendered Markdown ends with an HTML comment holding the narrative's
state (items and their cycles), so ``--previous SUMMARY.md`` resumes the
anchored merge exactly.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict

from artifact_index.ingestion.events import Event
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.tracker import Tracker
from summarizer.budget import (
    condense_facts,
    cut_items,
    cut_to_budget,
    protected_items,
    text_limit_ladder,
)
from summarizer.narrative.consistency import check_narrative
from summarizer.narrative.narrative_model import (
    Narrative,
    NarrativeItem,
    NarrativeRequest,
    NarrativeWriter,
    Strategy,
    changed_since,
    merge,
)
from summarizer.narrative.span import SpanText, fit_span, span_after
from summarizer.sections.file_lists import changed_paths
from summarizer.sections.index_sections import MAX_DETAIL, render_index_section
from summarizer.sections.session_facts import session_facts
from summarizer.sections.summary_facts import SessionFacts
from summarizer.sections.templates import Section, Template, builtin_templates, load_template
from summarizer.tokens import count_tokens

__all__ = [
    "Summary",
    "fit_to_budget",
    "parse_previous",
    "render_summary",
    "session_facts",
    "summarize",
]

_STATE = lazy_pattern(r"<!-- artifact-index:state (\{.*?\}) -->", re.S)
# The index sections that carry the writer's line on each changed file, and one bullet of them:
# "- `path` (status): line; facts" (the status may hold a path in backticks, never parentheses).
_FILE_SECTIONS = ("files_changed", "files_and_code")
_FILE_BULLET = lazy_pattern(r"^- `(?P<path>[^`]+)`(?: \((?:[^()`]|`[^`]*`)*\))?: (?P<rest>.*)$")
_FLAG = lazy_pattern(r"\s*⚠ \[index: [^\]]*\]\s*$")
_CUT_NOTE = lazy_pattern(
    r"^\[… .*\]$"
)  # a line saying what the budget cut (summarizer.budget), not an item


class Summary(BaseModel):
    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True, defer_build=True)

    template: Template
    facts: SessionFacts
    narrative: Narrative
    detail: int
    markdown: str
    requests: int  # narrative requests made (LLM calls or offline passes)

    @property
    def tokens(self) -> int:
        return count_tokens(self.markdown)


# What an empty narrative section says: what is not known, never a guess to fill it.
_NOT_KNOWN = {
    "intent": "No request recorded.",
    # Whoever wrote the narrative found no choice stated: that is what is known, not that none was made.
    "decisions": "No decision recorded in the agent's words.",
    "current_state": "Nothing stated beyond the sections above.",
    "next_steps": "No next step stated in the transcript.",
    "root_cause": "No root cause established in the session's words.",
}
# "None recorded." is how earlier versions said an empty Decisions section: a previous summary may carry it.
_EMPTY_TEXTS = frozenset({"Nothing recorded.", "None recorded.", *_NOT_KNOWN.values()})


def _narrative_body(items: list[NarrativeItem], key: str = "") -> str:
    if not items:
        return _NOT_KNOWN.get(key, "Nothing recorded.")
    lines = []
    for item in items:
        flag = f" ⚠ [index: {item.flag}]" if item.flag else ""
        lines.append(f"- {item.text}{flag}")
    return "\n".join(lines)


def _section_bodies(
    template: Template,
    facts: SessionFacts,
    narrative: Narrative,
    detail: int = 0,
    finer: Mapping[str, int] | None = None,
) -> dict[str, str]:
    """Each section's Markdown body, by key, in template order."""
    bodies: dict[str, str] = {}
    for section in template.sections:
        if section.fill == "index":
            bodies[section.key] = render_index_section(
                section.key, facts, (finer or {}).get(section.key, detail)
            )
        else:
            bodies[section.key] = _narrative_body(narrative.items(section.key), section.key)
    return bodies


# Said in every summary whose narrative no LLM wrote, so a reader does not take quoted lines for
# a model's judgement, and knows how to get one.
OFFLINE_NOTE = "_Narrative written offline (no LLM): see `summary --help` for one._"


def written_offline(template: Template, narrative: Narrative) -> bool:
    """Whether the offline writer wrote the narrative: it wrote items there, and nothing else did."""
    origins = {
        item.origin
        for section in template.narrative_sections
        for item in narrative.items(section.key)
    }
    return origins == {"extractive"}


def _assemble(template: Template, bodies: Mapping[str, str], narrative: Narrative) -> str:
    """The Markdown of the template's sections with these bodies, and the narrative state appended."""
    pairs = [(section, bodies[section.key]) for section in template.sections]
    note = OFFLINE_NOTE + "\n" if written_offline(template, narrative) else ""
    if template.style == "claude-code":
        # The narrative section keyed `analysis` (whatever its title) is the <analysis> block.
        analysis = [b for s, b in pairs if s.fill == "narrative" and s.key == "analysis"]
        rest = [
            (s.title, b) for s, b in pairs if not (s.fill == "narrative" and s.key == "analysis")
        ]
        text = (
            "<analysis>\n"
            + (analysis[0] if analysis else "")
            + "\n</analysis>\n\n<summary>\n"
            + note
        )
        text += "\n\n".join(f"### {title}\n{body}" for title, body in rest) + "\n</summary>\n"
    else:
        text = (
            "# Session summary\n\n"
            + (note + "\n" if note else "")
            + "\n\n".join(f"## {s.title}\n{body}" for s, body in pairs)
            + "\n"
        )
    # Only what the Markdown cannot say: each item's cycle and origin, in
    # bullet order. The texts are read back from the bullets, so the state
    # costs a few tokens instead of repeating the narrative.
    marks = {(item.cycle, item.origin) for items in narrative.sections.values() for item in items}
    items: dict[str, object] = {
        key: [[item.cycle, item.origin] for item in section]
        for key, section in narrative.sections.items()
    }
    shared: dict[str, object] = {}
    if len(marks) == 1:
        # Every item carries the same mark (an offline narrative is all of one cycle): the mark
        # once and each section's count, which keeps the summary within its tokens.
        [(cycle, origin)] = marks
        items = {key: len(section) for key, section in narrative.sections.items()}
        shared = {"mark": [cycle, origin]}
    notes = _file_note_marks(template, bodies, narrative)
    if notes:
        shared["file_notes"] = notes
    state = json.dumps(
        {"cycle": narrative.cycle, "last_turn": narrative.last_turn, "items": items, **shared},
        separators=(",", ":"),
    )
    return text + f"\n<!-- artifact-index:state {state} -->\n"


def _file_bullets(body: str) -> list[str]:
    return [line for line in body.splitlines() if line.startswith("- `")]


def _file_note_marks(
    template: Template, bodies: Mapping[str, str], narrative: Narrative
) -> list[int]:
    """Per bullet of the file section, the length of the writer's line it opens with (0: none).

    The lines are read back from the bullets (``--previous``), so the next cycle
    keeps the line of a file not changed since: the state says where each line
    ends, which the line's own words cannot (it may hold a semicolon).
    """
    key = next((s.key for s in template.sections if s.key in _FILE_SECTIONS), None)
    if key is None or not narrative.file_notes or key not in bodies:
        return []
    marks = []
    for line in _file_bullets(bodies[key]):
        found = _FILE_BULLET.match(line)
        note = narrative.file_notes.get(found["path"], "").rstrip(".") if found else ""
        rest = found["rest"] if found else ""
        whole = bool(note) and rest.startswith(note) and rest[len(note) :][:1] in ("", ";")
        marks.append(len(note) if whole else 0)
    return marks if any(marks) else []


def _file_notes(markdown: str, template: Template) -> dict[str, str]:
    """The writer's line on each changed file, read back from a summary this package wrote."""
    found = _STATE.search(markdown)
    section = next((s for s in template.sections if s.key in _FILE_SECTIONS), None)
    if not found or section is None:
        return {}
    try:
        marks = json.loads(found.group(1)).get("file_notes", [])
    except (json.JSONDecodeError, AttributeError):
        return {}
    if not isinstance(marks, list) or not all(isinstance(m, int) for m in marks):
        return {}
    heading = re.search(rf"^#{{2,3}} {re.escape(section.title)}\n", markdown, re.M)
    if heading is None:
        return {}
    body = re.split(r"^#{1,6} |^</summary>", markdown[heading.end() :], maxsplit=1, flags=re.M)[0]
    bullets = _file_bullets(body)
    if len(bullets) != len(marks):
        return {}  # edited by hand since: the bullets no longer line up with the state
    notes = {}
    for line, mark in zip(bullets, marks, strict=True):
        bullet = _FILE_BULLET.match(line)
        if mark > 0 and bullet is not None and len(bullet["rest"]) >= mark:
            notes[bullet["path"]] = bullet["rest"][:mark] + "."
    return notes


def render_summary(
    template: Template,
    facts: SessionFacts,
    narrative: Narrative,
    detail: int = 0,
    finer: Mapping[str, int] | None = None,
) -> str:
    """The Markdown of ``template`` at index detail level ``detail``, with the narrative state appended.

    ``finer`` gives some index sections (by key) a more detailed level than ``detail``.
    """
    return _assemble(
        template, _section_bodies(template, facts, narrative, detail, finer), narrative
    )


def _heading_key(heading: str) -> str:
    """A heading reduced to comparable words: "### 1. Primary Request and Intent:" -> "primary request and intent"."""
    text = re.sub(r"^[\s\d.)]*", "", heading.replace("*", "").replace("_", " "))
    return " ".join(re.sub(r"[^\w\s]", " ", text).lower().split())


def parse_previous(markdown: str, template: Template) -> Narrative:
    """The anchor from a previous summary: its exact state when we wrote it, else its bullets by heading.

    A foreign summary's headings match a narrative section by title or key,
    ignoring case, numbering and punctuation ("1. Primary Request and
    Intent:" is the section titled "Primary Request"); text under other
    headings (the file lists the index recomputes anyway) is left out.
    """
    parsed = _parse_narrative(markdown, template.narrative_sections)
    notes = _file_notes(markdown, template)
    return parsed.model_copy(update={"file_notes": notes}) if notes else parsed


def _parse_narrative(markdown: str, narrative_sections: Sequence[Section]) -> Narrative:
    named: list[tuple[str, str]] = []
    for section in narrative_sections:
        named += [
            (_heading_key(section.title), section.key),
            (_heading_key(section.key), section.key),
        ]
    sections: dict[str, list[NarrativeItem]] = {}
    current: str | None = None
    for line in markdown.splitlines():
        # Markdown headings and numbered "N. Title:" lines always start a section;
        # a bare "Title:" line only when it names one (else it is content).
        heading = re.match(
            r"^(?:#{1,6}\s+(.+?)|\d+\.\s+([^:]{3,80}):|([A-Z][^:]{2,60}):)\s*$", line
        )
        if heading:
            words = _heading_key(next(g for g in heading.groups() if g))
            match = next((key for name, key in named if words == name), None)
            if match is None:
                match = next(
                    (key for name, key in named if name and words.startswith(name + " ")), None
                )
            if match is not None or heading.group(3) is None:
                current = match
                continue
        if line.strip() == "<analysis>" and any(k == "analysis" for _, k in named):
            current = "analysis"
            continue
        if line.strip().startswith(("<", "```")) or _CUT_NOTE.match(line.strip()):
            current = None if line.strip() == "</analysis>" else current
            continue  # <summary>, the state comment, code fences
        if current and line.strip():
            text = re.sub(r"^\s*([-*]|\d+[.)])\s+", "", line).strip()
            text = _FLAG.sub("", text).strip()
            if text and text not in _EMPTY_TEXTS:
                sections.setdefault(current, []).append(
                    NarrativeItem(text=text, cycle=0, origin="previous")
                )
    return _with_state(Narrative(cycle=0, last_turn=0, sections=sections), markdown)


def _with_state(parsed: Narrative, markdown: str) -> Narrative:
    """Give the parsed bullets back their cycles and origins from our embedded state, where it matches."""
    found = _STATE.search(markdown)
    if not found:
        return parsed
    try:
        state = json.loads(found.group(1))
        cycle, last_turn, meta = int(state["cycle"]), int(state["last_turn"]), dict(state["items"])
    except (json.JSONDecodeError, KeyError, TypeError, ValueError):
        return parsed
    sections: dict[str, list[NarrativeItem]] = {}
    shared = state.get("mark")
    for key, items in parsed.sections.items():
        marks = meta.get(key)
        if isinstance(marks, int) and isinstance(shared, list) and len(shared) == 2:
            marks = [shared] * marks  # one mark for every item
        if isinstance(marks, list) and len(marks) == len(items):
            # The bullets are ours, unedited: each keeps the cycle it came from.
            items = [
                item.model_copy(update={"cycle": int(m[0]), "origin": str(m[1])})
                for item, m in zip(items, marks, strict=True)
            ]
        sections[key] = items
    return Narrative(cycle=cycle, last_turn=last_turn, sections=sections)


def summarize(
    events: Sequence[Event],
    *,
    template: Template,
    writer: NarrativeWriter,
    previous: Narrative | None = None,
    strategy: Strategy = "anchored",
    span_tokens: int = 60_000,
    index: ArtifactIndex | None = None,
    format: str | None = None,
    extra_context: Sequence[str] = (),
) -> Summary:
    """The summary of ``events`` (its index sections exact, its narrative from ``writer``)."""
    if index is None:
        index = Tracker(format=format).feed_all(events)
    facts = session_facts(index, events)
    narrative = previous if previous is not None else Narrative()
    last_turn = max([narrative.last_turn, *(e.turn for e in events)])
    span = span_after(events, narrative.last_turn)
    if strategy == "regenerative":
        # Regenerative: summarize everything again each time, replacing the narrative.
        span = list(events)
    shown: SpanText | None
    if getattr(writer, "needs_span", True):
        # One request, its end always kept; nothing new since the previous summary: no request.
        shown = fit_span(span, max_tokens=span_tokens)
        shown = shown if shown.text else None
    else:
        shown = SpanText("", span[0].turn if span else last_turn, last_turn)
    if shown is not None:
        cycle = narrative.cycle + 1
        request = NarrativeRequest(
            sections=template.narrative_sections,
            previous=narrative,
            span=shown.text,
            span_turns=(shown.first_turn, shown.last_turn),
            facts=facts,
            cycle=cycle,
            strategy=strategy,
            extra_context=list(extra_context),
            shown=frozenset(s.key for s in template.sections if s.fill == "index"),
            facts_turn=last_turn,
        )
        reply = writer.write(request)
        narrative = merge(
            narrative,
            reply,
            cycle=cycle,
            last_turn=last_turn,
            strategy=request.strategy,
            changed_since=changed_since(facts, narrative.last_turn),
        )
    else:
        narrative = narrative.model_copy(update={"last_turn": last_turn})
    narrative = check_narrative(narrative, facts)
    # The writer's line on each changed file goes beside the index's own facts of it.
    facts = facts.model_copy(update={"file_notes": narrative.file_notes})
    markdown, detail = fit_to_budget(template, facts, narrative)
    return Summary(
        template=template,
        facts=facts,
        narrative=narrative,
        detail=detail,
        markdown=markdown,
        requests=int(shown is not None),
    )


# What the budget left after the detail level is chosen goes, one section at a time, to what the reader
# needs most: the user's words, the agent's findings, then the facts of the work.
_FINER_FIRST = (
    "user_messages",
    "findings",
    "pending_tasks",
    "files_changed",
    "test_status",
    "errors",
    "work_state",
    "files_read",
)


def _spend_what_is_left(
    template: Template, facts: SessionFacts, narrative: Narrative, detail: int, markdown: str
) -> str:
    """``markdown`` with sections rendered finer than ``detail``, in priority order, while the budget holds."""
    keys = {section.key for section in template.sections if section.fill == "index"}
    finer: dict[str, int] = {}
    for key in (k for k in _FINER_FIRST if k in keys):
        for level in range(detail):  # the finest that fits
            candidate = render_summary(template, facts, narrative, detail, {**finer, key: level})
            if count_tokens(candidate) <= template.budget_tokens:
                finer[key], markdown = level, candidate
                break
    return markdown


def fit_to_budget(template: Template, facts: SessionFacts, narrative: Narrative) -> tuple[str, int]:
    """The summary's Markdown within ``template.budget_tokens``, and the detail level it was rendered at.

    See :mod:`summarizer.budget`: the detail level first (no text longer than
    the whole budget), then the long texts of errors and outputs condensed,
    then whole items cut from the longest sections, then the agent's last
    message and the user's latest words condensed, then lines cut.
    """
    budget = template.budget_tokens

    def assemble(bodies: Mapping[str, str]) -> str:
        return _assemble(template, bodies, narrative)

    ladder = text_limit_ladder(budget)
    shown = condense_facts(facts, ladder[0])
    for detail in range(MAX_DETAIL + 1):
        markdown = render_summary(template, shown, narrative, detail)
        if count_tokens(markdown) <= budget:
            return _spend_what_is_left(template, shown, narrative, detail, markdown), detail
    protect = protected_items(facts)
    bodies: dict[str, str] = {}
    for limits in ladder[1:]:
        shown = condense_facts(facts, limits)
        bodies = _section_bodies(template, shown, narrative, MAX_DETAIL)
        markdown = assemble(bodies)
        if count_tokens(markdown) <= budget:
            return markdown, MAX_DETAIL
        if not limits.others_at_floor:
            continue  # items are cut only once the other texts are as short as they get
        # Every path before any description: the list is what the next agent must not lose.
        compact = {"files_changed": changed_paths(shown)} if "files_changed" in bodies else {}
        bodies = cut_items(bodies, assemble, budget, protect, compact)
        markdown = assemble(bodies)
        if count_tokens(markdown) <= budget:
            return markdown, MAX_DETAIL
    return cut_to_budget(bodies, assemble, budget), MAX_DETAIL


def narrative_state(markdown: str, template: Template | None = None) -> dict[str, object] | None:
    """The narrative of a summary this package wrote (items with cycles and origins), for tools that inspect it.

    Without ``template`` the narrative sections of every built-in template are recognized.
    """
    if not _STATE.search(markdown):
        return None
    if template is not None:
        return parse_previous(markdown, template).model_dump()
    sections = [s for name in builtin_templates() for s in load_template(name).narrative_sections]
    return _parse_narrative(markdown, sections).model_dump()
