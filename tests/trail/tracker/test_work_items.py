"""Issue-tracker items driven from the shell (`bd`, `gh`): what the session started, closed, created and looked at.

The outputs below are written in the shapes `bd` 0.x/1.x and `gh` print;
the items and titles are made up.
"""

from __future__ import annotations

from itertools import count
from typing import Any

from artifact_index.ingestion.events import Event, FileOperation, SessionInfo, ToolCall, ToolResult
from artifact_index.trail.tracker import Tracker

_ids = count(1)

SHOW_CART_2 = """\
○ shop-cart.2 · Round line totals to cents   [● P2 · OPEN]
Owner: Dana · Type: task
Created: 2026-02-11 · Updated: 2026-02-11

DESCRIPTION
Totals drift by a cent on large carts.

Definition of Done:
- `Cart.total` rounds each line half-even.
- Tests cover a 99-line cart.

PARENT
  ↑ ○ shop-cart: (EPIC) Correct cart arithmetic ● P2

BLOCKS
  ← ○ shop-cart.3: Show rounding in the receipt ● P2
"""

LIST_OPEN = """\
○ shop-cart.3 [● P2] [task] - Show rounding in the receipt (blocked by: shop-cart.2)
◐ shop-cart.2 [● P2] [task] - Round line totals to cents
○ shop-infra.9 [● P3] [task] - Rotate the staging keys
"""


def shell(command: str, output: str, turn: int, ok: bool = True) -> list[Event]:
    call_id = f"b{next(_ids)}"
    return [
        ToolCall(
            turn=turn,
            call_id=call_id,
            tool="Bash",
            arguments={"command": command},
            operations=(FileOperation(action="shell", command=command, source="shell"),),
        ),
        ToolResult(
            turn=turn,
            call_id=call_id,
            status="success" if ok else "failure",
            failure=None if ok else "exit_status",
            output=output,
        ),
    ]


def items(*steps: list[Event]) -> dict[str, dict[str, Any]]:
    events: list[Event] = [SessionInfo(turn=0, cwd="/shop")]
    for step in steps:
        events += step
    stored = Tracker(format="claude-code").feed_all(events).session.work_items.items
    return {item.id: item.model_dump() for item in stored.values()}


def test_a_bead_shown_started_and_closed_carries_its_title_description_and_turns() -> None:
    found = items(
        shell("bd show shop-cart.2", SHOW_CART_2, 2),
        shell("bd update shop-cart.2 --status in_progress", "✓ Updated issue: shop-cart.2\n", 3),
        shell(
            'bd close shop-cart.2 --reason="Rounded per line" 2>&1',
            "✓ Closed shop-cart.2: Rounded per line\n",
            9,
        ),
    )
    item = found["shop-cart.2"]
    assert (item["title"], item["status"], item["kind"]) == (
        "Round line totals to cents",
        "closed",
        "task",
    )
    assert (item["started_turn"], item["closed_turn"], item["closed_reason"]) == (
        3,
        9,
        "Rounded per line",
    )
    assert item["description"].startswith(
        "Totals drift by a cent on large carts.\n\nDefinition of Done:"
    )
    assert "PARENT" not in item["description"]


def test_a_listing_refreshes_the_items_the_session_knows_and_adds_none_of_the_backlog() -> None:
    found = items(
        shell("bd show shop-cart.2", SHOW_CART_2, 2),
        shell("bd update shop-cart.2 --status=in_progress", "✓ Updated issue: shop-cart.2\n", 3),
        shell("bd list --status=open 2>&1", LIST_OPEN, 4),
        shell(
            "bd ready",
            "📋 Ready work (1 issues with no blockers):\n\n1. [● P3] [task] shop-infra.9: Rotate\n",
            5,
        ),
    )
    assert list(found) == ["shop-cart.2"]
    assert found["shop-cart.2"]["status"] == "in_progress"


def test_created_items_take_the_id_the_tracker_printed() -> None:
    found = items(
        shell(
            'bd create --title="Receipt shows rounding" --type=bug --parent=shop-cart',
            "✓ Created issue: shop-cart.4\n  Title: Receipt shows rounding\n  Priority: P2\n  Status: open\n",
            6,
        ),
        shell(
            'bd create "epic(cart): currency support" --type epic',
            "✓ Created issue: shop-fx — epic(cart): currency support\n  Priority: P2\n",
            7,
        ),
    )
    assert (
        found["shop-cart.4"]["title"],
        found["shop-cart.4"]["kind"],
        found["shop-cart.4"]["created_turn"],
    ) == ("Receipt shows rounding", "bug", 6)
    assert found["shop-fx"]["title"] == "epic(cart): currency support"
    assert found["shop-fx"]["status"] == "open"


def test_a_failed_update_changes_nothing() -> None:
    found = items(
        shell("bd show shop-cart.2", SHOW_CART_2, 2),
        shell(
            "bd update shop-cart.2 --status in_progress",
            "Error: Database out of sync with JSONL. Run 'bd sync --import-only' to fix.\n",
            3,
            ok=False,
        ),
    )
    assert (found["shop-cart.2"]["status"], found["shop-cart.2"]["started_turn"]) == ("open", None)


def test_bd_show_json_is_read_too() -> None:
    output = (
        '[\n  {\n    "id": "av-12.1",\n    "title": "Plan the sync",\n    "status": "in_progress",\n'
        '    "issue_type": "task",\n    "acceptance_criteria": "No force push."\n  }\n]\n'
    )
    found = items(shell("bd show av-12.1 --json", output, 4))
    assert (found["av-12.1"]["title"], found["av-12.1"]["status"]) == (
        "Plan the sync",
        "in_progress",
    )
    assert found["av-12.1"]["description"] == "Acceptance criteria:\nNo force push."


def test_github_pull_requests_and_issues_the_session_acted_on() -> None:
    found = items(
        shell(
            'gh pr create --title "Round totals" --body "Fixes #12"',
            "https://github.com/acme/shop/pull/754\n",
            10,
        ),
        shell(
            "gh pr merge 754 --squash --delete-branch",
            "✓ Squashed and merged pull request #754 (Round totals)\n",
            11,
        ),
        shell("gh issue close 12", "✓ Closed issue #12 (Totals drift)\n", 12),
        shell("gh pr view 800 --json title,state", '{"title": "Unrelated", "state": "OPEN"}', 13),
    )
    assert (found["#754"]["tracker"], found["#754"]["status"], found["#754"]["title"]) == (
        "gh pr",
        "merged",
        "Round totals",
    )
    assert (found["#12"]["tracker"], found["#12"]["status"], found["#12"]["title"]) == (
        "gh issue",
        "closed",
        "Totals drift",
    )
    assert "#800" not in found  # looked at, never acted on


def test_a_note_added_to_an_item_never_seen_tracks_nothing() -> None:
    assert (
        items(
            shell(
                "bd update av-raf --append-notes 'Draft PR opened'",
                "✓ Updated issue: av-raf — Sync\n",
                3,
            )
        )
        == {}
    )


SHOW_EPIC = """\
○ shop-cart [EPIC] · Correct cart arithmetic   [● P2 · OPEN]
Owner: Dana · Type: epic

DESCRIPTION
Totals, receipts and currencies agree to the cent.

CHILDREN
  ↳ ✓ shop-cart.1: Round line totals ● P2
  ↳ ◐ shop-cart.2: Show rounding on the receipt ● P2
  ↳ ○ shop-cart.3: Currency symbols ● P2
"""


def listing(*steps: list[Event]) -> dict[str, Any] | None:
    events: list[Event] = [SessionInfo(turn=0, cwd="/shop")]
    for step in steps:
        events += step
    found = Tracker(format="claude-code").feed_all(events).session.work_items.listing
    return found.model_dump() if found is not None else None


def test_the_latest_listing_is_kept_whole_beside_the_items_the_session_tracks() -> None:
    """What `bd ready`, `bd list` or an epic's children showed last is where the next item comes from."""
    kept = listing(
        shell("bd list --status=open 2>&1", LIST_OPEN, 4), shell("bd show shop-cart", SHOW_EPIC, 6)
    )
    assert kept is not None
    assert (kept["turn"], kept["command"]) == (6, "bd show shop-cart")
    assert [(i["id"], i["title"], i["status"]) for i in kept["items"]] == [
        ("shop-cart.1", "Round line totals", "closed"),
        ("shop-cart.2", "Show rounding on the receipt", "in_progress"),
        ("shop-cart.3", "Currency symbols", "open"),
    ]


def test_bd_list_and_bd_ready_lines_are_read_with_their_titles_and_kinds() -> None:
    kept = listing(shell("bd list --status=open 2>&1", LIST_OPEN, 4))
    assert kept is not None
    assert [(i["id"], i["title"], i["kind"], i["status"]) for i in kept["items"]] == [
        ("shop-cart.3", "Show rounding in the receipt", "task", "open"),
        ("shop-cart.2", "Round line totals to cents", "task", "in_progress"),
        ("shop-infra.9", "Rotate the staging keys", "task", "open"),
    ]
    ready = listing(
        shell(
            "bd ready",
            "📋 Ready work (1 issues with no blockers):\n\n"
            "1. [● P3] [task] shop-infra.9: Rotate the staging keys\n",
            5,
        )
    )
    assert ready is not None
    assert [(i["id"], i["title"], i["status"]) for i in ready["items"]] == [
        ("shop-infra.9", "Rotate the staging keys", "open")
    ]


def test_showing_one_item_leaves_the_latest_listing_as_it_was() -> None:
    kept = listing(
        shell("bd list --status=open 2>&1", LIST_OPEN, 4),
        shell("bd show shop-cart.2", SHOW_CART_2, 5),
    )
    assert kept is not None and (kept["turn"], kept["command"]) == (4, "bd list --status=open")


def test_a_pr_listing_with_every_state_shows_the_followed_prs_merged() -> None:
    # `gh pr list --state all` prints number, title, branch, state and date, tab-separated.
    listed = (
        "7\tdocs(npm): feature spec\tdocs/npm-provider\tMERGED\t2026-02-24T22:55:33Z\n"
        "5\tdocs(specs): epic spec\tdocs/npm\tOPEN\t2026-02-24T22:45:21Z\n"
        "4\tfeat(cli): skeleton\tfeat/2-cli\tMERGED\t2026-02-24T21:45:36Z\n"
    )
    found = items(
        shell('gh pr create --title "feature spec"', "https://github.com/acme/shop/pull/7\n", 10),
        shell('gh pr create --title "epic spec"', "https://github.com/acme/shop/pull/5\n", 11),
        shell("gh pr list --repo acme/shop --state all --limit 10", listed, 12),
    )
    assert found["#7"]["status"] == "merged"
    assert found["#5"]["status"] == "open"
    assert "#4" not in found and "acme/shop#4" not in found  # listed, never followed


def test_a_json_issue_listing_closes_a_followed_issue() -> None:
    found = items(
        shell(
            'gh issue create --title "Totals drift"', "https://github.com/acme/shop/issues/12\n", 10
        ),
        shell(
            "gh issue list --state all --json number,state",
            '[{"number": 12, "state": "CLOSED"}, {"number": 13, "state": "OPEN"}]',
            11,
        ),
    )
    assert found["#12"]["status"] == "closed"
    assert "#13" not in found


def test_a_pull_request_viewed_merged_among_other_commands_output_is_merged() -> None:
    # A code cell ran several commands at once: the view's JSON is one line of their output.
    found = items(
        shell(
            'gh pr create --title "Argv commands" --body "..."',
            "https://github.com/jdx/hk/pull/1066\n",
            10,
        ),
        shell(
            "git status -sb; gh pr view 1066 --json state,mergedAt,url; git log -1 --oneline",
            "## main...origin/main\n"
            '{"mergedAt":"2026-07-13T19:58:02Z","state":"MERGED","url":"https://github.com/jdx/hk/pull/1066"}\n'
            "3f2a1bc feat: argv commands\n",
            11,
        ),
    )
    assert found["#1066"]["status"] == "merged"


def test_a_listing_shaped_by_a_template_shows_a_followed_pr_merged() -> None:
    # `-q` with a jq template prints one line per PR, the state among other words; the output of
    # the commands chained after it follows.
    listed = (
        "PR #2 [MERGED] merged=2026-07-31T19:48:09Z — Security policy writes\n"
        "PR #1 [OPEN] merged=null — Add license scan report\n"
        "=== origin/main recent ===\n5f58924 Merge pull request #2 from acme/policy\n"
    )
    found = items(
        shell(
            'gh pr create --title "Security policy writes"',
            "https://github.com/acme/shop/pull/2\n",
            10,
        ),
        shell(
            "gh pr list --state all --json number,title,state,mergedAt -q '.[] | \"PR #\\(.number) [\\(.state)]\"'"
            " && git log --oneline -4 origin/main",
            listed,
            12,
        ),
    )
    assert found["#2"]["status"] == "merged"
    assert found["#2"]["closed_turn"] is None  # seen merged, not merged by the session
    assert "#1" not in found


def test_each_pull_request_closed_in_one_command_is_closed() -> None:
    closed = items(
        shell(
            'gh pr close 44 --comment "$COMMENT_44"; echo "---"; gh pr close 43 --comment "$C43"',
            "✓ Closed pull request darthzen/float#44 ([T-003] Far backdrop)\n---\n"
            "✓ Closed pull request darthzen/float#43 ([T-004] Star volume)\n",
            4,
        )
    )
    assert {key: (item["status"], item["title"]) for key, item in closed.items()} == {
        "#44": ("closed", "[T-003] Far backdrop"),
        "#43": ("closed", "[T-004] Star volume"),
    }
