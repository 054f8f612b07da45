"""What a summary takes from the index alone, as a hook with only the saved index has it: the key code
of each current change and the changes left on a branch switched away from."""

from __future__ import annotations

from artifact_index.ingestion.events import Event, SessionInfo, UserMessage
from artifact_index.trail.tracker import Tracker
from summarizer.sections.session_facts import session_facts
from summarizer.sections.summary_facts import LatestCode
from tests.support.session_steps import ROOT, edit, shell

STATUS_AFTER = """\
On branch fix/paths
Changes not staged for commit:
\tmodified:   shop/tax.py
"""


def _events() -> list[Event]:
    return [
        SessionInfo(turn=0, cwd=ROOT),
        UserMessage(turn=1, text="Fix the cart."),
        *edit(2, f"{ROOT}/shop/cart.py", new="    return 1"),
        *shell(3, "git switch fix/paths", "Switched to branch 'fix/paths'\n"),
        UserMessage(turn=4, text="Now the tax."),
        *edit(5, f"{ROOT}/shop/tax.py", new="        rate = 0.2\n        return total * rate\n"),
        *shell(6, "git status", STATUS_AFTER),
    ]


def test_the_index_alone_gives_the_latest_code_and_what_was_left_on_a_branch() -> None:
    events = _events()
    index = Tracker(format="claude-code").feed_all(events)

    alone = session_facts(index)

    assert alone.latest_code == {
        "shop/tax.py": LatestCode(turn=5, text="rate = 0.2\nreturn total * rate")
    }
    assert [(f.path, f.switch_turn, f.branch) for f in alone.left_behind] == [
        ("shop/cart.py", 3, "fix/paths")
    ]
    # With the events, the same facts: none of them is read from the events again.
    whole = session_facts(index, events)
    assert (whole.latest_code, whole.left_behind) == (alone.latest_code, alone.left_behind)
