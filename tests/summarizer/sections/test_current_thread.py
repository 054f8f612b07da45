"""The current thread: what is left of the task in hand, what the user settled, where an investigation stands.

Small hand-written sessions summarized offline with the default template.
A sub-step of the current task (from the tracker item's definition of done
or the agent's own plan) is left only while no later change did it; the
user's own choices are quoted among the decisions; a session that stopped
in the middle of an investigation says the open question, the agent's
latest conclusion and the checks it announced since; the findings are the
thread's own; the next open tracker item is the next sibling the latest
listing showed.
"""

from __future__ import annotations

from artifact_index.ingestion.events import AssistantMessage, UserMessage
from tests.support.session_steps import ROOT, bead, edit, read, search, section, shell, summary_of

DONE_WHEN = (
    "Wire the receipt into the dashboard.\n\nOutput files:\n- `lib/shop_web/live/receipt_live.ex`\n"
    "- `assets/css/shop.css` (or the existing stylesheet)\n- `test/shop_web/live/receipt_live_test.exs`\n\n"
    "Definition of Done:\n- Clicking `Print` prints the receipt.\n- `mix test` passes.\n"
    "- LiveView tests cover printing with and without lines.\n"
)


def _item_started(turn: int) -> list[object]:
    return [
        *bead(turn, "shop-cart.2", "Print the receipt", DONE_WHEN),
        *shell(
            turn + 1, "bd update shop-cart.2 --status in_progress", "✓ Updated issue: shop-cart.2\n"
        ),
    ]


def test_a_definition_of_done_asking_for_tests_no_change_wrote_leads_the_next_steps() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Work through shop-cart."),
        *_item_started(2),
        edit(4, f"{ROOT}/lib/shop_web/live/receipt_live.ex"),
        edit(5, f"{ROOT}/priv/static/shop.css"),
    )
    steps = section(summary, "Next Steps")
    assert steps.startswith(
        '- Not done yet: "LiveView tests cover printing with and without lines." (the definition '
        "of done of `shop-cart.2`); no test file changed since turn 3.\n"
    )
    # Only what a change can show undone: a behaviour ("Clicking `Print`") or a check that passes is not guessed at.
    assert "Clicking" not in steps and "`mix test` passes" not in steps
    pending = section(summary, "Pending Tasks")
    assert (
        '  - not done yet, by its definition of done: "LiveView tests cover printing with and without lines." '
        "(no test file changed since turn 3)"
    ) in pending


def test_a_sub_step_is_done_once_a_later_change_did_it() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Work through shop-cart."),
        *_item_started(2),
        edit(4, f"{ROOT}/lib/shop_web/live/receipt_live.ex"),
        edit(6, f"{ROOT}/test/shop_web/live/receipt_live_test.exs"),
    )
    assert "Not done yet" not in summary.markdown


def test_a_named_file_the_agent_found_elsewhere_is_not_called_unchanged() -> None:
    """The item names `assets/css/shop.css`; the session found and changed `priv/static/shop.css`."""
    summary = summary_of(
        UserMessage(turn=1, text="Work through shop-cart."),
        *_item_started(2),
        edit(4, f"{ROOT}/priv/static/shop.css"),
    )
    pending = section(summary, "Pending Tasks")
    assert "shop.css" not in pending.split("named in its description", 1)[-1]
    assert (
        "  - named in its description, not changed since it started: `lib/shop_web/live/receipt_live.ex` "
        "(never opened in the session), `test/shop_web/live/receipt_live_test.exs` (never opened in the session)"
    ) in pending


def test_the_agents_own_plan_leaves_the_steps_no_change_carried_out() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Show a live status badge on the receipt page."),
        AssistantMessage(
            turn=2,
            text="Now I have everything I need. Let me implement the changes to ReceiptLive and "
            "CartLive, add CSS, and write tests.",
        ),
        edit(2, f"{ROOT}/lib/shop_web/live/receipt_live.ex"),
        edit(3, f"{ROOT}/priv/static/shop.css"),
        edit(4, f"{ROOT}/lib/shop_web/live/cart_live.ex"),
        AssistantMessage(turn=5, text="The badge renders."),
        search(5, f"{ROOT}/lib"),
    )
    steps = section(summary, "Next Steps")
    assert steps.startswith(
        '- Not done yet: "write tests" (the agent\'s plan at turn 2); no test file changed since '
        "turn 2.\n"
    )
    assert "ReceiptLive" not in steps and "CSS" not in steps


def test_the_next_open_item_is_the_next_sibling_the_latest_listing_showed() -> None:
    epic = (
        "○ shop-cart [EPIC] · Cart arithmetic   [● P2 · OPEN]\nOwner: Dana · Type: epic\n\nCHILDREN\n"
        "  ↳ ✓ shop-cart.1: Round line totals ● P2\n  ↳ ○ shop-cart.2: Print the receipt ● P2\n"
        "  ↳ ○ shop-cart.3: Currency symbols ● P2\n"
    )
    summary = summary_of(
        UserMessage(turn=1, text="Work through shop-cart."),
        shell(2, "bd show shop-cart", epic),
        *_item_started(3),
        edit(5, f"{ROOT}/lib/shop_web/live/receipt_live.ex"),
        edit(6, f"{ROOT}/test/shop_web/live/receipt_live_test.exs"),
    )
    assert (
        "- Then the next open tracker item(s) (open in the last `bd show shop-cart`, turn 2): `shop-cart.3` "
        "(Currency symbols).\n"
    ) in section(summary, "Next Steps")


def test_a_choice_the_user_settled_is_a_decision_quoted_with_what_it_refers_to() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Review the stash handling."),
        AssistantMessage(
            turn=2, text="Stashed files drop out of the carry-forward. Should I track them too?"
        ),
        UserMessage(
            turn=3,
            text="No I think this is fine and has too much risk of false positives. If the user "
            "stashed and ran a new prompt, the stashed files are forgotten by our logic. This is "
            "fine. Clarification: do we still commit only the second prompt's files?",
        ),
        AssistantMessage(turn=4, text="Yes, only those."),
        UserMessage(turn=5, text="Does the doc say so?"),
        AssistantMessage(turn=6, text="It does."),
    )
    decisions = section(summary, "Decisions Made")
    assert decisions == (
        '- (turn 3, before the latest request) The user: "No I think this is fine and has too much risk of false positives. If '
        "the user stashed and ran a new prompt, the stashed files are forgotten by our logic. This is "
        'fine."\n'
    )


def test_findings_are_the_current_threads_not_earlier_answers() -> None:
    design = (
        "## Proposed design\n\n```\n┌────────┐\n│ branch │\n└────────┘\n```\n"
        + "The view lists branches. " * 8
    )
    cause = (
        "The issue is that `find_branches` walks every commit of each branch, including those merged from main, "
        "so every session shows under every branch."
    )
    summary = summary_of(
        UserMessage(turn=1, text="How should the session list look?"),
        AssistantMessage(turn=2, text=design),
        UserMessage(turn=3, text="It lists these sessions under every branch, why?"),
        search(4, f"{ROOT}/list/data.go"),
        AssistantMessage(turn=4, text=cause),
        edit(5, f"{ROOT}/list/data.go"),
        AssistantMessage(turn=6, text="Fixed."),
    )
    findings = section(summary, "Findings")
    assert findings == f"- (turn 4) {cause}\n"


def test_a_session_stopped_mid_investigation_states_the_question_the_latest_conclusion_and_the_checks() -> (
    None
):
    conclusion = (
        "**Found it!** The Bash commands `rm -rf app` and `cp -r src api/` are not in FileModificationTools, "
        "so the files they changed are never committed."
    )
    summary = summary_of(
        UserMessage(turn=1, text="Can you look into why the last files were left uncommitted?"),
        search(2, f"{ROOT}/hooks.go"),
        AssistantMessage(turn=3, text=conclusion),
        search(3, f"{ROOT}/transcript.go"),
        AssistantMessage(
            turn=4,
            text="The transcript shows them, but let me check if they are filtered out by "
            "`FilterAndNormalizePaths`:",
        ),
        search(4, f"{ROOT}/paths.go"),
        AssistantMessage(turn=5, text="Let me check the order of the events:"),
        shell(5, "git log --format='%h %ai' -5", "a1e8483 2026-01-08 14:29:55\n"),
    )
    steps = section(summary, "Next Steps")
    assert steps.startswith(
        '- Answer the open request (turn 1, shown under User Messages): "Can you look into why the last files '
        'were left uncommitted?"; 4 calls since, no file changed.\n'
        "- Its latest conclusion (turn 3), to confirm or correct: Found it! The Bash commands `rm -rf app` and "
        "`cp -r src api/` are not in FileModificationTools, so the files they changed are never committed. (whole "
        "under Findings)\n"
        "- The checks it announced since, the last one where it stopped: (turn 4) The transcript shows them, but let "
        "me check if they are filtered out by `FilterAndNormalizePaths`; (turn 5) Let me check the order of the "
        "events.\n"
    )
    assert "Investigating the request of turn 1: 4 tool calls since" in section(
        summary, "Current State"
    )
    assert section(summary, "Findings").startswith(f"- (turn 3) {conclusion}")


def test_reading_before_a_change_is_asked_for_is_no_investigation() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Add VAT to the cart."),
        search(2, f"{ROOT}/shop/cart.py"),
        search(3, f"{ROOT}/shop/receipt.py"),
        AssistantMessage(turn=4, text="Let me check how totals are rounded:"),
        search(4, f"{ROOT}/shop/money.py"),
    )
    assert "open request" not in summary.markdown and "Investigating" not in summary.markdown


def test_files_an_item_names_to_read_are_not_files_left_to_change() -> None:
    description = (
        "Close the review in one action.\n\nOutput files:\n- `lib/shop_web/live/review_live.ex` (modify)\n\n"
        "Source references:\n- `lib/shop/annotation.ex`\n- `lib/shop_web/live/session_live.ex`\n\n"
        "Definition of Done:\n- Tests to verify the behaviour exist or were added, and executed and pass.\n"
    )
    summary = summary_of(
        UserMessage(turn=1, text="Work through shop-review."),
        *bead(2, "shop-review.6", "Close the review", description),
        *shell(
            3, "bd update shop-review.6 --status in_progress", "✓ Updated issue: shop-review.6\n"
        ),
        edit(4, f"{ROOT}/lib/shop/annotation.ex"),
        edit(5, f"{ROOT}/lib/shop_web/live/session_live.ex"),
    )
    pending = section(summary, "Pending Tasks")
    assert (
        "  - named in its description, not changed since it started: `lib/shop_web/live/review_live.ex` (never "
        "opened in the session)\n"
    ) in pending
    # Tests that "exist or were added" may need no change: not a step left.
    assert "Not done yet" not in section(summary, "Next Steps")


def test_the_items_of_a_plan_announced_as_a_list_are_left_until_a_change_touches_what_they_name() -> (
    None
):
    plan = (
        "Now I have the full picture. Let me implement all the pieces. I'll update:\n\n"
        "1. **ReceiptComputers** - implement visible_lines filtering\n"
        "2. **ReceiptComponents** - add the debug sidecar\n3. **app.js** - add debug JSON highlighting\n\n"
        "Let me start:"
    )
    summary = summary_of(
        UserMessage(turn=1, text="Add the debug sidecar to the receipt."),
        read(2, f"{ROOT}/assets/js/app.js", "export const hooks = {}\n"),
        AssistantMessage(turn=3, text=plan),
        edit(3, f"{ROOT}/lib/shop_web/live/receipt_computers.ex"),
        AssistantMessage(turn=4, text="Now the components:"),
        edit(4, f"{ROOT}/lib/shop_web/components/receipt_components.ex"),
    )
    assert section(summary, "Next Steps").startswith(
        '- Not done yet: "app.js - add debug JSON highlighting" (the agent\'s plan at turn 3); `assets/js/app.js` not '
        "changed since turn 3.\n"
    )
