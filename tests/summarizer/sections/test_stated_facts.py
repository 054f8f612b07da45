"""Facts the hook states that a careful reader of the transcript would call false, one class a test.

Each hand-written session is shaped like the real one the class was seen in:
test counts read from output that ``tail`` cut, ...
"""

from __future__ import annotations

from artifact_index.ingestion.events import Event, SessionInfo
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.tracker import Tracker
from summarizer.integrations.hooks import file_trail_context
from summarizer.sections.session_facts import session_facts
from tests.support.session_steps import ROOT, edit, shell, write


def _index(*steps: list[Event] | Event) -> ArtifactIndex:
    events: list[Event] = [SessionInfo(turn=0, cwd=ROOT)]
    for step in steps:
        events += step if isinstance(step, list) else [step]
    return Tracker(format="claude-code").feed_all(events)


def _section(index: ArtifactIndex, title: str) -> str:
    hook = file_trail_context(session_facts(index))
    return hook.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0] if f"## {title}\n" in hook else ""


# --- counts read from output that head or tail cut ------------------------------------------------

_CARGO_TAIL = (
    "test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 2 filtered out; finished in 0.00s\n"
    "\n     Running tests/ui.rs (target/debug/deps/ui-93af32833c64d4e8)\n\nrunning 0 tests\n\n"
    "test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 20 filtered out; finished in 0.00s"
)


def test_a_run_whose_tail_kept_only_empty_sections_does_not_say_no_test_ran() -> None:
    index = _index(
        write(1, f"{ROOT}/src/revset.rs", "pub fn rebase_revset() {}\n"),
        shell(2, "cargo test test_rebase_revset 2>&1 | tail -20", _CARGO_TAIL),
    )

    tests = _section(index, "Test status")
    assert "`cargo test test_rebase_revset 2>&1 | tail -20`" in tests
    assert "no test ran" not in tests
    assert "no test counted in the lines `tail` kept, so how many ran is unknown" in tests


def test_a_whole_output_with_no_test_still_says_no_test_ran() -> None:
    index = _index(
        write(1, f"{ROOT}/src/revset.rs", "pub fn rebase_revset() {}\n"),
        shell(2, "cargo test test_nothing 2>&1", _CARGO_TAIL),
    )

    assert "no test ran" in _section(index, "Test status")
