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
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, ValidationError

from artifact_index.events import Event
from artifact_index.index import ArtifactIndex
from artifact_index.tracker import Tracker

from .consistency import check_narrative
from .facts import SessionFacts, facts_from_index
from .index_sections import MAX_DETAIL, render_index_section
from .narrative import Narrative, NarrativeItem, NarrativeRequest, NarrativeWriter, Strategy, merge
from .span import chunk_span, span_after
from .templates import Template
from .tokens import count_tokens

__all__ = ["Summary", "parse_previous", "render_summary", "summarize"]

_STATE = re.compile(r"<!-- artifact-index:narrative (\{.*?\}) -->", re.S)


class Summary(BaseModel):
    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    template: Template
    facts: SessionFacts
    narrative: Narrative
    detail: int
    markdown: str
    requests: int  # narrative requests made (LLM calls or offline passes)

    @property
    def tokens(self) -> int:
        return count_tokens(self.markdown)


def _narrative_body(items: list[NarrativeItem]) -> str:
    if not items:
        return "Nothing recorded."
    lines = []
    for item in items:
        flag = f" ⚠ [index: {item.flag}]" if item.flag else ""
        lines.append(f"- {item.text}{flag}")
    return "\n".join(lines)


def render_summary(template: Template, facts: SessionFacts, narrative: Narrative, detail: int = 0) -> str:
    """The Markdown of ``template`` at index detail level ``detail``, with the narrative state appended."""
    bodies: list[tuple[str, str]] = []
    for section in template.sections:
        if section.fill == "index":
            body = render_index_section(section.key, facts, detail)
        else:
            body = _narrative_body(narrative.items(section.key))
        bodies.append((section.title, body))
    if template.style == "claude-code":
        analysis = [b for t, b in bodies if t == "Analysis"]
        rest = [(t, b) for t, b in bodies if t != "Analysis"]
        text = "<analysis>\n" + (analysis[0] if analysis else "") + "\n</analysis>\n\n<summary>\n"
        text += "\n\n".join(f"### {title}\n{body}" for title, body in rest) + "\n</summary>\n"
    else:
        text = "# Session summary\n\n" + "\n\n".join(f"## {title}\n{body}" for title, body in bodies) + "\n"
    state = narrative.model_dump_json()
    return text + f"\n<!-- artifact-index:narrative {state} -->\n"


def parse_previous(markdown: str, template: Template) -> Narrative:
    """The anchor from a previous summary: its exact state when we wrote it, else its bullets by heading."""
    found = _STATE.search(markdown)
    if found:
        try:
            return Narrative.model_validate_json(found.group(1))
        except ValidationError:
            pass
    titles = {s.title.lower(): s.key for s in template.narrative_sections}
    sections: dict[str, list[NarrativeItem]] = {}
    current: str | None = None
    for line in markdown.splitlines():
        heading = re.match(r"^#{1,4}\s+(.+?)\s*$", line)
        if heading:
            current = titles.get(heading.group(1).lower())
            continue
        if current and line.strip():
            text = re.sub(r"^\s*([-*]|\d+[.)])\s+", "", line).strip()
            if text and text != "Nothing recorded.":
                sections.setdefault(current, []).append(NarrativeItem(text=text, cycle=0, origin="previous"))
    return Narrative(cycle=0, last_turn=0, sections=sections)


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
    facts = facts_from_index(index)
    narrative = previous if previous is not None else Narrative()
    last_turn = max((e.turn for e in events), default=narrative.last_turn)
    span = span_after(events, narrative.last_turn)
    if strategy == "regenerative":
        # Regenerative: summarise everything again each time, replacing the narrative.
        span = list(events)
    if getattr(writer, "needs_span", True):
        chunks = list(chunk_span(span, max_tokens=span_tokens)) or [("", last_turn, last_turn)]
    else:
        chunks = [("", span[0].turn if span else last_turn, last_turn)]
    for number, (text, first, last) in enumerate(chunks):
        cycle = narrative.cycle + 1
        request = NarrativeRequest(
            sections=template.narrative_sections, previous=narrative, span=text, span_turns=(first, last),
            facts=facts, cycle=cycle, strategy=strategy if number == 0 else "anchored",
            extra_context=list(extra_context),
        )
        reply = writer.write(request)
        narrative = merge(narrative, reply, cycle=cycle, last_turn=last if number < len(chunks) - 1 else last_turn,
                          strategy=request.strategy)
    narrative = check_narrative(narrative, facts)
    detail = 0
    markdown = render_summary(template, facts, narrative, detail)
    while count_tokens(markdown) > template.budget_tokens and detail < MAX_DETAIL:
        detail += 1
        markdown = render_summary(template, facts, narrative, detail)
    return Summary(template=template, facts=facts, narrative=narrative, detail=detail, markdown=markdown,
                   requests=len(chunks))


def narrative_state(markdown: str) -> dict[str, object] | None:
    """The raw narrative state embedded in a summary, for tools that inspect it."""
    found = _STATE.search(markdown)
    return json.loads(found.group(1)) if found else None
