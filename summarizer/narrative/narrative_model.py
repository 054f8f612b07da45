"""The narrative half of a summary: its model, the writer protocol, and anchored merging.

A :class:`Narrative` holds, per narrative section, items that each remember
the compaction cycle they came from.  A writer (the LLM, or the offline
extractive writer) answers a :class:`NarrativeRequest` with a
:class:`NarrativeReply`: new items from the span just dropped from context,
and which earlier items that span superseded.  :func:`merge` applies the
reply: under the *anchored* strategy earlier items stay unless superseded;
under the *regenerative* strategy (kept for comparison) the reply replaces
everything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, create_model

from summarizer.sections.summary_facts import SessionFacts
from summarizer.sections.templates import Section

__all__ = [
    "FILE_NOTES",
    "Narrative",
    "NarrativeItem",
    "NarrativeReply",
    "NarrativeRequest",
    "NarrativeWriter",
    "SectionReply",
    "Strategy",
    "changed_since",
    "file_notes_model",
    "merge",
    "reply_model",
]

# The reply's field holding one line per changed file, keyed by the index's exact paths.
FILE_NOTES = "files_changed"

Strategy = Literal["anchored", "regenerative"]


class NarrativeItem(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)

    text: str = Field(min_length=1)
    cycle: int = Field(ge=0)
    origin: Literal["llm", "extractive", "previous"] = "llm"
    flag: str | None = None  # set when the index contradicts the item


class Narrative(BaseModel):
    """The narrative sections after ``cycle`` compactions, covering turns up to ``last_turn``."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    cycle: int = 0
    last_turn: int = 0
    sections: dict[str, list[NarrativeItem]] = Field(default_factory=dict)
    # What each change does and why, by the index's path (an LLM's; the offline writer leaves it empty).
    file_notes: dict[str, str] = Field(default_factory=dict)

    def items(self, key: str) -> list[NarrativeItem]:
        return self.sections.get(key, [])


class SectionReply(BaseModel):
    """A writer's answer for one narrative section."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    items: list[str] = Field(
        default_factory=list,
        description="New items this span adds: short, self-contained statements; exact names of files, "
        "symbols and errors.",
    )
    superseded: list[int] = Field(
        default_factory=list,
        description="1-based numbers of the previous items of this section that the new span makes wrong "
        "or obsolete (finished work, reversed decisions). Items not listed are kept.",
    )


class NarrativeReply(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    sections: dict[str, SectionReply]
    origin: Literal["llm", "extractive"] = "llm"
    file_notes: dict[str, str] = Field(default_factory=dict)


class NarrativeRequest(BaseModel):
    """What a writer needs: the sections, the anchor, the new span and the index facts."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True, defer_build=True)

    sections: list[Section]
    previous: Narrative
    span: str  # the newly dropped span, rendered with long tool outputs trimmed
    span_turns: tuple[int, int]
    facts: SessionFacts
    cycle: int
    strategy: Strategy = "anchored"
    extra_context: list[str] = Field(default_factory=list)  # e.g. from a PreCompact-style hook
    # The index sections the summary shows beside the narrative (their keys): what a writer need not repeat.
    shown: frozenset[str] = frozenset()
    # The last turn the index facts cover (the end of the session so far); 0: the span's last turn.
    facts_turn: int = 0


class NarrativeWriter(Protocol):
    def write(self, request: NarrativeRequest) -> NarrativeReply:
        """New items for each section of ``request.sections``; raises NarrativeError on failure."""
        ...


def changed_since(facts: SessionFacts, turn: int) -> list[str]:
    """The changed paths with a change after ``turn``: an earlier line on them may no longer hold."""
    files = [*facts.created, *facts.modified, *facts.deleted, *facts.reverted]
    return sorted(f.path for f in files if any(t > turn for t in f.changed_turns))


def file_notes_model(paths: Sequence[str]) -> type[BaseModel]:
    """The model of the per-file lines: one required string per changed path, keyed by the path itself.

    The index keeps the list exact: a reply can neither drop a path (each is
    required) nor add one (unknown keys are rejected), so the file list the
    summary shows stays the index's.
    """
    # pydantic's create_model takes each field as a (type, FieldInfo) pair.
    fields: dict[str, Any] = {
        f"file_{number}": (
            str,
            Field(alias=path, min_length=1, max_length=400, description=f"`{path}`"),
        )
        for number, path in enumerate(paths)
    }
    model: type[BaseModel] = create_model(
        "FilesChanged", __config__=ConfigDict(extra="forbid"), **fields
    )
    return model


def reply_model(sections: list[Section], files: Sequence[str] = ()) -> type[BaseModel]:
    """The pydantic model of a reply for these sections: the schema of the LLM's forced tool.

    Every section is required: a reply that leaves one out is malformed (and
    retried), never read as "nothing new"; nothing new is an empty ``items``.
    With ``files`` (the changed paths the index lists), the reply also holds
    one line per path on what its change does and why (:func:`file_notes_model`).
    """
    fields: dict[str, Any] = {
        s.key: (SectionReply, Field(description=f"{s.title}: {s.instructions}")) for s in sections
    }
    if files:
        fields[FILE_NOTES] = (
            file_notes_model(files),
            Field(
                description="One line per changed file, keyed by its exact path as the index lists it (every "
                "path, no other): what the change does and why it matters to the task, in a sentence. Name "
                "the definitions it touched; say when it only supports another change or is unrelated."
            ),
        )
    model: type[BaseModel] = create_model(
        "NarrativeSections", __config__=ConfigDict(extra="forbid"), **fields
    )
    return model


def merge(
    previous: Narrative,
    reply: NarrativeReply,
    *,
    cycle: int,
    last_turn: int,
    strategy: Strategy = "anchored",
    changed_since: Sequence[str] = (),
) -> Narrative:
    """The narrative after applying ``reply`` to ``previous``; ``changed_since``: the paths the span changed."""
    sections: dict[str, list[NarrativeItem]] = {}
    keys = list(dict.fromkeys([*previous.sections, *reply.sections]))
    for key in keys:
        answer = reply.sections.get(key, SectionReply())
        kept: list[NarrativeItem] = []
        if strategy == "anchored":
            dropped = set(answer.superseded)
            kept = [
                item
                for number, item in enumerate(previous.items(key), start=1)
                if number not in dropped
            ]
        seen = {item.text for item in kept}
        for text in answer.items:
            # One line per item: a summary renders each as one bullet, and
            # reading a previous summary back relies on that.
            text = " ".join(text.split())
            if text and text not in seen:
                kept.append(NarrativeItem(text=text, cycle=cycle, origin=reply.origin))
                seen.add(text)
        sections[key] = kept
    # An earlier line on a file stays while the file is unchanged since (anchored); a file changed since gets
    # the reply's line, written knowing the change, or none: the earlier one may no longer hold.
    stale = set(changed_since)
    still = {p: n for p, n in previous.file_notes.items() if p not in stale}
    notes = {**(still if strategy == "anchored" else {}), **reply.file_notes}
    return Narrative(cycle=cycle, last_turn=last_turn, sections=sections, file_notes=notes)
