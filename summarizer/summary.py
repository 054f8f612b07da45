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
from .templates import Section, Template
from .tokens import count_tokens

__all__ = ["Summary", "parse_previous", "render_summary", "summarize"]

_STATE = re.compile(r"<!-- artifact-index:narrative (\{.*?\}) -->", re.S)
_FLAG = re.compile(r"\s*⚠ \[index: [^\]]*\]\s*$")


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
    bodies: list[tuple[Section, str]] = []
    for section in template.sections:
        if section.fill == "index":
            body = render_index_section(section.key, facts, detail)
        else:
            body = _narrative_body(narrative.items(section.key))
        bodies.append((section, body))
    if template.style == "claude-code":
        # The narrative section keyed `analysis` (whatever its title) is the <analysis> block.
        analysis = [b for s, b in bodies if s.fill == "narrative" and s.key == "analysis"]
        rest = [(s.title, b) for s, b in bodies if not (s.fill == "narrative" and s.key == "analysis")]
        text = "<analysis>\n" + (analysis[0] if analysis else "") + "\n</analysis>\n\n<summary>\n"
        text += "\n\n".join(f"### {title}\n{body}" for title, body in rest) + "\n</summary>\n"
    else:
        text = "# Session summary\n\n" + "\n\n".join(f"## {s.title}\n{body}" for s, body in bodies) + "\n"
    # Compact: defaults left out, flags too (they are recomputed against the index on resume).
    state = narrative.model_copy(update={"sections": {
        key: [item.model_copy(update={"flag": None}) for item in items]
        for key, items in narrative.sections.items()
    }}).model_dump_json(exclude_defaults=True)
    return text + f"\n<!-- artifact-index:narrative {state} -->\n"


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
    found = _STATE.search(markdown)
    if found:
        try:
            return Narrative.model_validate_json(found.group(1))
        except ValidationError:
            pass
    named: list[tuple[str, str]] = []
    for section in template.narrative_sections:
        named += [(_heading_key(section.title), section.key), (_heading_key(section.key), section.key)]
    sections: dict[str, list[NarrativeItem]] = {}
    current: str | None = None
    for line in markdown.splitlines():
        # Markdown headings and numbered "N. Title:" lines always start a section;
        # a bare "Title:" line only when it names one (else it is content).
        heading = re.match(r"^(?:#{1,6}\s+(.+?)|\d+\.\s+([^:]{3,80}):|([A-Z][^:]{2,60}):)\s*$", line)
        if heading:
            words = _heading_key(next(g for g in heading.groups() if g))
            match = next((key for name, key in named if words == name), None)
            if match is None:
                match = next((key for name, key in named if name and words.startswith(name + " ")), None)
            if match is not None or heading.group(3) is None:
                current = match
                continue
        if line.strip().startswith(("<", "```")):
            continue  # <analysis>, <summary>, the state comment, code fences
        if current and line.strip():
            text = re.sub(r"^\s*([-*]|\d+[.)])\s+", "", line).strip()
            text = _FLAG.sub("", text).strip()
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
    last_turn = max([narrative.last_turn, *(e.turn for e in events)])
    span = span_after(events, narrative.last_turn)
    if strategy == "regenerative":
        # Regenerative: summarise everything again each time, replacing the narrative.
        span = list(events)
    if getattr(writer, "needs_span", True):
        # Nothing new since the previous summary: no request (the anchor stands as it is).
        chunks = list(chunk_span(span, max_tokens=span_tokens))
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
    if not chunks:
        narrative = narrative.model_copy(update={"last_turn": last_turn})
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
