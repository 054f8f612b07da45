"""What is known of an error not seen resolved: still open, gone past, or its file changed since.

An error the index did not see resolved is not always one still to fix.  A
command that is no check failed and the session went on another way (an
``ls`` confirming a folder is gone); or the file the failing check named was
changed after it and the check was not run again (``ruff format --check
x.py`` failing, then ``x.py`` rewritten).  Calling those "open" sent the next
agent to fix what was done or was never a fault.  Only an error with neither
is said to be open; the others are said with what happened after them,
which is certain, and without a verdict, which is not.
"""

from __future__ import annotations

from dataclasses import dataclass

from artifact_index.trail.answers import ErrorReport
from summarizer.sections.summary_facts import SessionFacts

__all__ = ["ErrorState", "changed_after_words", "error_state", "open_count_sentence"]


@dataclass(frozen=True)
class ErrorState:
    """An unresolved error and what came after it."""

    error: ErrorReport
    # Files the error names (its location or its command) changed after it last appeared: (path, turn).
    changed_after: tuple[tuple[str, int], ...]

    @property
    def open(self) -> bool:
        """Still to fix as far as the index can tell: the session neither went past it nor changed its file."""
        return self.error.went_on is None and not self.changed_after


def _names(error: ErrorReport, path: str) -> bool:
    """Whether the error names ``path``: as its location, or in the command that showed it."""
    if error.file and (path == error.file or path.endswith("/" + error.file.lstrip("./"))):
        return True
    command = error.command or ""
    return bool(command) and (path in command or ("/" in path and path.split("/", 1)[1] in command))


def error_state(error: ErrorReport, facts: SessionFacts) -> ErrorState:
    """``error`` with the files it names that changed after it last appeared, the latest change of each."""
    changed = []
    for f in facts.changed:
        later = [t for t in f.changed_turns if t > error.last_turn]
        if later and _names(error, f.path):
            changed.append((f.path, max(later)))
    return ErrorState(error, tuple(changed))


def changed_after_words(state: ErrorState) -> str:
    """What changed after the error, said as what happened: no claim that it fixed it."""
    files = ", ".join(f"`{path}` (turn {turn})" for path, turn in state.changed_after[:3])
    return f"changed after it: {files}; the check was not seen run again"


def open_count_sentence(facts: SessionFacts, first_line: int = 160) -> str | None:
    """The Current State line on unresolved errors: how many are open, how many the session went past."""
    states = [error_state(e, facts) for e in facts.open_errors]
    if not states:
        return None
    still = [s for s in states if s.open]
    past = len(states) - len(still)
    parts = []
    if still:
        message = " ".join(still[-1].error.message.split())
        if len(message) > first_line:
            message = message[: first_line - 1] + "…"
        parts.append(f"{len(still)} error(s) open; latest: `{message}`")
    if past:
        parts.append(
            f"{past} {'more ' if still else ''}error(s) not seen resolved, but the session went on past "
            "them or changed their file after (under Errors)"
        )
    return "; ".join(parts) + "."
