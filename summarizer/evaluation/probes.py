"""Probe-based evaluation of a summary against the index (the context-engineering guides).

After a compaction, probes ask what the agent must still know; a summary
passes a probe when it states the answer.  The index knows the answers to
four kinds of probe exactly, so they are scored here without a judge:

- *artifact*: "Which files did we create, modify or delete?": every changed path;
- *recall*: "What was the original error?": its exact first line;
- *continuation*: "What is left to do?": every open task;
- *decision*: "What did we decide?": the files and symbols each decision names.

Each score is the share of expected items the summary names (1.0 when there
is nothing to name).  Judging accuracy or continuity of the prose needs an
LLM and is not done here.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from summarizer.sections.summary_facts import SessionFacts

__all__ = ["Probe", "ProbeReport", "probe_summary"]


class Probe(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)

    kind: str
    question: str
    expected: list[str]
    missing: list[str]

    @property
    def score(self) -> float:
        return 1.0 if not self.expected else 1 - len(self.missing) / len(self.expected)


class ProbeReport(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)

    probes: list[Probe]

    @property
    def overall(self) -> float:
        asked = [p for p in self.probes if p.expected]
        return sum(p.score for p in asked) / len(asked) if asked else 1.0


def _probe(kind: str, question: str, expected: list[str], text: str) -> Probe:
    unique = list(dict.fromkeys(e for e in expected if e))
    lowered = text.lower()
    return Probe(
        kind=kind,
        question=question,
        expected=unique,
        missing=[e for e in unique if e.lower() not in lowered],
    )


def probe_summary(summary: str, facts: SessionFacts) -> ProbeReport:
    """Score ``summary`` on the probes whose answers the index knows."""
    original = (
        facts.original_error.message.splitlines()[0].strip() if facts.original_error else None
    )
    decisions = [name for d in facts.decisions for name in [*d.files, *d.symbols]]
    return ProbeReport(
        probes=[
            _probe(
                "artifact",
                "Which files did we create, modify or delete?",
                [f.path for f in facts.changed],
                summary,
            ),
            _probe(
                "recall", "What was the original error?", [original] if original else [], summary
            ),
            _probe(
                "continuation",
                "What is left to do?",
                [t.content for t in facts.open_tasks],
                summary,
            ),
            _probe(
                "decision", "What did we decide, about which files and symbols?", decisions, summary
            ),
        ]
    )
