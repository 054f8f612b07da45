"""Harness instructions never reach a summary as the user's words: not in its sections, not in the request sent.

Claude Code injects its own compaction instruction on the user's side when it
compacts ("Your task is to create a detailed summary of the conversation so
far... respond with TEXT ONLY"); read as a request, it becomes the session's
"latest request" and the next agent summarizes instead of working.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from artifact_index.ingestion.loading import open_transcript
from summarizer.narrative.extractive import ExtractiveWriter
from summarizer.narrative.llm import build_prompt
from summarizer.narrative.narrative_model import Narrative, NarrativeReply, NarrativeRequest
from summarizer.sections.templates import load_template
from summarizer.summary import summarize
from tests.support.transcript_writers import ROOT, Step, claude_code

_COMPACTION_PROMPTS = [
    "Your task is to create a detailed summary of the conversation so far, paying close attention to "
    "the user's explicit requests and your previous actions.\nThis summary should be thorough.",
    "CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.\n\nYour task is to create a detailed "
    "summary of the conversation so far.",
]


class _Recording(ExtractiveWriter):
    """The offline writer, keeping the prompt an LLM would have been sent."""

    needs_span = True

    def __init__(self) -> None:
        self.prompts: list[str] = []

    def write(self, request: NarrativeRequest) -> NarrativeReply:
        self.prompts.append(build_prompt(request))
        return super().write(request)


@pytest.mark.parametrize("instruction", _COMPACTION_PROMPTS)
def test_the_agents_compaction_instruction_is_no_user_request(
    tmp_path: Path, instruction: str
) -> None:
    path = tmp_path / "session.jsonl"
    path.write_text(
        claude_code(
            [
                Step("user", text="Round the cart total to cents."),
                Step(
                    "edit", path=f"{ROOT}/cart.py", old="return total", new="return round(total, 2)"
                ),
                Step("assistant", text="Done: the total is rounded."),
                Step("user", text=instruction),
            ]
        ),
        encoding="utf-8",
    )
    events = list(open_transcript(path).events())
    writer = _Recording()
    summary = summarize(
        events, template=load_template("default"), writer=writer, previous=Narrative()
    )
    assert "Round the cart total to cents." in summary.markdown
    assert "detailed summary" not in summary.markdown and "TEXT ONLY" not in summary.markdown
    assert writer.prompts and all(
        "detailed summary of the conversation" not in p and "TEXT ONLY" not in p
        for p in writer.prompts
    )
