"""A file a sub-agent reports it created at the prompt's request is the session's creation."""

from __future__ import annotations

from artifact_index.ingestion.events import Event, FileOperation, SessionInfo, ToolCall, ToolResult
from artifact_index.trail.tracker import Tracker
from artifact_index.trail.tracker.sub_agent_reports import reported_created

PROMPT = (
    "Create a new API endpoint file at `/repo/app/api/query/route.ts`. Follow the pattern of"
    " `/repo/app/api/tables/route.ts`."
)
REPORT = (
    "The file has been created successfully at `/repo/app/api/query/route.ts`. It follows"
    " `/repo/app/api/tables/route.ts`; I also created `/repo/lib/extra.ts` for the helpers."
)


def _session(*before: Event) -> Tracker:
    events: list[Event] = [
        SessionInfo(turn=0, cwd="/repo"),
        *before,
        ToolCall(turn=2, call_id="agent", tool="Agent", arguments={"prompt": PROMPT}),
        ToolResult(turn=2, call_id="agent", status="success", output=REPORT),
        ToolCall(
            turn=3,
            call_id="r",
            tool="Read",
            operations=(FileOperation(action="read", path="/repo/app/api/query/route.ts"),),
        ),
        ToolResult(
            turn=3, call_id="r", status="success", output="     1\texport async function GET() {}\n"
        ),
    ]
    tracker = Tracker(format="claude-code")
    tracker.feed_all(events)
    return tracker


def test_the_file_the_prompt_asked_for_and_the_report_says_was_created_is_created() -> None:
    index = _session().index
    assert {f.path: f.status for f in index.files()} == {"app/api/query/route.ts": "created"}
    [made] = [op for op in index.history("app/api/query/route.ts") if op.action == "create"]
    assert (made.tool, made.result, made.turn) == ("Agent", "unknown", 2)


def test_a_file_the_session_knew_before_the_sub_agent_ran_is_left_as_it_was() -> None:
    read_first = [
        ToolCall(
            turn=1,
            call_id="r0",
            tool="Read",
            operations=(FileOperation(action="read", path="/repo/app/api/query/route.ts"),),
        ),
        ToolResult(turn=1, call_id="r0", status="success", output="     1\t// old\n"),
    ]
    index = _session(*read_first).index
    assert {f.path: f.status for f in index.files()} == {"app/api/query/route.ts": "read"}


def test_a_report_that_names_its_files_by_name_or_in_a_created_list_makes_them_created() -> None:
    prompt = (
        "Create `plugins/collab/SKILL.md` and `plugins/collab/references/schema.md`.\n"
        "Then `plugins/collab/agents/worker.md`. Follow `docs/other/SKILL.md` and `README.md`."
    )
    call = ToolCall(turn=2, call_id="agent", tool="Agent", arguments={"prompt": prompt})
    by_name = "Done.\n- Wrote `schema.md` with the full content\n- Wrote `worker.md`\n"
    assert reported_created(call, by_name) == [
        "plugins/collab/references/schema.md",
        "plugins/collab/agents/worker.md",
    ]
    # Two paths of the prompt share the name SKILL.md: the name alone tells neither.
    assert reported_created(call, "Wrote `SKILL.md`.") == []
    listed = (
        "All three files have been created and committed successfully:\n"
        "**Task 2** — `plugins/collab/references/schema.md`\n"
        "**Task 4** — `plugins/collab/agents/worker.md` (75 lines)\n"
    )
    assert reported_created(call, listed) == [
        "plugins/collab/references/schema.md",
        "plugins/collab/agents/worker.md",
    ]
    # Without saying they were created, paths named in a report are not.
    assert reported_created(call, "I read `plugins/collab/agents/worker.md`.") == []
