"""SWE-agent trajectories: the 0.x ACI, the 1.0 windowed tools, the 1.x editor, and the real corpus."""

from __future__ import annotations

import gzip
import json
from functools import partial
from pathlib import Path

import pytest

from artifact_index.ingestion.adapters.str_replace_editor import parse_editor_command_line
from artifact_index.ingestion.adapters.swe_agent import (
    SweAgentAdapter,
    diff_changes,
    split_commands,
)
from artifact_index.ingestion.events import (
    AssistantMessage,
    Event,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
)
from artifact_index.ingestion.source import Source
from artifact_index.trail.tracker import Tracker

from ..conftest import Loader
from ..helpers import read_events, result_of

ADAPTER = SweAgentAdapter()
_events = partial(read_events, ADAPTER)
_result = result_of


def _calls(events: list[Event]) -> list[ToolCall]:
    return [e for e in events if isinstance(e, ToolCall)]


def _call_at(events: list[Event], line: int) -> ToolCall:
    return next(c for c in _calls(events) if c.line == line)


@pytest.fixture(scope="module")
def editor(fixtures_dir: Path) -> list[Event]:
    return _events(fixtures_dir / "swe_agent" / "editor-1x.traj")[0]


@pytest.fixture(scope="module")
def aci(fixtures_dir: Path) -> list[Event]:
    return _events(fixtures_dir / "swe_agent" / "aci-0x.traj")[0]


@pytest.fixture(scope="module")
def windowed(fixtures_dir: Path) -> list[Event]:
    return _events(fixtures_dir / "swe_agent" / "windowed-fc.traj")[0]


# -- the session frame ----------------------------------------------------------------------------
def test_session_names_the_repository_root_version_and_model(
    editor: list[Event], aci: list[Event]
) -> None:
    info = editor[0]
    assert isinstance(info, SessionInfo)
    assert (info.cwd, info.version, info.model, info.session_id) == (
        "/testbed",
        "1.1.0",
        "gpt-4o",
        "demo__calc-1",
    )
    # 0.x: the root comes from the JSON-string state.
    assert isinstance(aci[0], SessionInfo) and aci[0].cwd == "/repo"


def test_the_task_is_the_first_user_message_and_each_step_is_one_turn(editor: list[Event]) -> None:
    users = [e for e in editor if isinstance(e, UserMessage)]
    assert len(users) == 1 and users[0].turn == 1 and "add() subtracts" in users[0].text
    calls = _calls(editor)
    assert [c.turn for c in calls[:3]] == [2, 3, 4]
    thought = next(e for e in editor if isinstance(e, AssistantMessage) and e.text == "Reproduce.")
    assert thought.turn == calls[2].turn
    # A step with no action still counts as a model response.
    assert calls[-1].turn == calls[-2].turn + 2


def test_every_call_gets_exactly_one_result(
    editor: list[Event], aci: list[Event], windowed: list[Event]
) -> None:
    for events in (editor, aci, windowed):
        ids = [c.call_id for c in _calls(events)]
        assert len(ids) == len(set(ids))
        assert ids == [e.call_id for e in events if isinstance(e, ToolResult)]


# -- 1.x str_replace_editor ---------------------------------------------------------------------------
def test_editor_view_of_a_directory_reads_no_file_but_a_file_view_is_a_windowed_read(
    editor: list[Event],
) -> None:
    assert _call_at(editor, 1).operations == ()
    (read,) = _call_at(editor, 2).operations
    assert (read.action, read.path, read.start_line, read.end_line) == (
        "read",
        "/testbed/calc/core.py",
        1,
        2,
    )


def test_editor_create_and_str_replace_come_from_the_json_tool_call(editor: list[Event]) -> None:
    (create,) = _call_at(editor, 3).operations
    assert (create.action, create.path, create.content) == (
        "create",
        "/testbed/repro.py",
        "import calc\nprint(calc.add(1, 2))\n",
    )
    (edit,) = _call_at(editor, 5).operations
    assert (edit.action, edit.old, edit.new) == ("edit", "    return a - b", "    return a + b")
    assert _result(editor, _call_at(editor, 5).call_id).status == "success"


@pytest.mark.parametrize(
    ("line", "failure"),
    [(6, "not_found"), (7, "not_unique"), (8, "invalid")],
    ids=["did-not-appear-verbatim", "multiple-occurrences", "parent-directory-missing"],
)
def test_failed_editor_calls_are_failures_with_their_reason(
    editor: list[Event], line: int, failure: str
) -> None:
    result = _result(editor, _call_at(editor, line).call_id)
    assert (result.status, result.failure) == ("failure", failure)


def test_editor_command_line_is_parsed_exactly_when_no_tool_call_was_recorded(
    editor: list[Event],
) -> None:
    call = _call_at(editor, 9)
    assert call.call_id == "step-9"
    assert call.arguments["insert_line"] == 1
    (insert,) = call.operations
    # The value was shell-quoted with '"'"' around the apostrophe and spans a newline.
    assert (insert.action, insert.new, insert.start_line, insert.detail) == (
        "edit",
        "    # it's addition\n",
        1,
        "insert",
    )


def test_undo_edit_is_an_undo(editor: list[Event]) -> None:
    (undo,) = _call_at(editor, 10).operations
    assert (undo.action, undo.path) == ("undo", "/testbed/calc/core.py")


def test_shell_commands_keep_their_text_and_directory_and_have_unknown_status(
    editor: list[Event],
) -> None:
    call = _call_at(editor, 4)
    (shell,) = call.operations
    assert (shell.action, shell.command, shell.cwd, shell.source) == (
        "shell",
        "cd /testbed && python repro.py",
        "/testbed",
        "shell",
    )
    result = _result(editor, call.call_id)
    assert (result.status, result.exit_code, result.output) == ("unknown", None, "-1\n")


def test_harness_messages_that_replace_output_mark_shell_failures(editor: list[Event]) -> None:
    assert (
        _result(editor, _call_at(editor, 12).call_id).failure == "interrupted"
    )  # cancelled after 30 s
    assert _result(editor, _call_at(editor, 13).call_id).failure == "invalid"  # bash -n refused it


def test_diff_state_reports_what_each_step_changed_including_shell_side_effects(
    editor: list[Event],
) -> None:
    def reported(line: int) -> list[tuple[str, str]]:
        result = _result(editor, _call_at(editor, line).call_id)
        return [(r.path, r.change) for r in result.reported or ()]

    assert reported(3) == [("/testbed/repro.py", "created")]
    assert reported(4) == []  # running the script changed nothing
    assert reported(5) == [("/testbed/calc/core.py", "modified")]
    assert reported(11) == [("/testbed/out.txt", "created")]  # written by `python -c`
    assert sorted(reported(14)) == [
        ("/testbed/out.txt", "deleted"),
        ("/testbed/repro.py", "deleted"),
    ]


def test_the_whole_1x_session_nets_out_to_the_fixed_file(editor: list[Event]) -> None:
    index = Tracker(format="swe-agent").feed_all(editor)
    statuses = {f.path: f.status for f in index.files()}
    assert statuses["calc/core.py"] == "modified"
    assert {
        path for path, status in statuses.items() if status in ("created", "modified", "deleted")
    } == {"calc/core.py"}


# -- 0.x ACI ------------------------------------------------------------------------------------------------
def test_aci_open_reads_the_window_it_showed(aci: list[Event]) -> None:
    (read,) = _call_at(aci, 2).operations
    assert (read.action, read.path, read.start_line, read.end_line) == ("read", "src/app.py", 5, 7)


def test_aci_create_makes_a_one_line_file_and_edit_targets_the_open_file(aci: list[Event]) -> None:
    (create,) = _call_at(aci, 3).operations
    assert (create.action, create.path, create.content) == ("create", "reproduce.py", "\n")
    (edit,) = _call_at(aci, 4).operations
    assert (edit.action, edit.path, edit.start_line, edit.end_line) == (
        "edit",
        "/repo/reproduce.py",
        1,
        1,
    )
    assert edit.new == "from src.app import run\nprint(run(2))"


def test_aci_edit_rejected_by_the_linter_is_a_verification_failure(aci: list[Event]) -> None:
    failed, fixed = _call_at(aci, 7), _call_at(aci, 8)
    assert failed.operations[0].path == fixed.operations[0].path == "/repo/src/app.py"
    assert (_result(aci, failed.call_id).status, _result(aci, failed.call_id).failure) == (
        "failure",
        "verification",
    )
    assert _result(aci, fixed.call_id).status == "success"


def test_aci_navigation_reads_the_open_file(aci: list[Event]) -> None:
    goto, scroll, search = (_call_at(aci, n).operations[0] for n in (9, 10, 11))
    assert (goto.path, goto.start_line, goto.end_line) == ("/repo/src/app.py", 39, 41)
    assert (scroll.path, scroll.start_line) == ("/repo/src/app.py", 41)
    assert (search.action, search.path) == ("read", "/repo/src/app.py")


def test_aci_open_of_a_missing_file_fails_and_searches_touch_nothing(aci: list[Event]) -> None:
    missing = _call_at(aci, 12)
    assert (_result(aci, missing.call_id).status, _result(aci, missing.call_id).failure) == (
        "failure",
        "not_found",
    )
    assert _call_at(aci, 13).operations == ()  # find_file
    assert _call_at(aci, 16).operations == ()  # submit


def test_a_tool_after_cd_in_the_same_action_resolves_against_the_new_directory(
    aci: list[Event],
) -> None:
    call = _call_at(aci, 14)
    assert (call.tool, call.arguments) == ("bash", {"command": "cd src && create helper.py\n"})
    assert [(op.action, op.path, op.command, op.cwd) for op in call.operations] == [
        ("shell", None, "cd src", "/repo"),
        ("create", "/repo/src/helper.py", None, None),
    ]
    # Several commands in one action: only the observation as a whole is known.
    assert _result(aci, call.call_id).status == "unknown"


def test_aci_session_nets_out_to_the_edited_file(aci: list[Event]) -> None:
    statuses = {f.path: f.status for f in Tracker(format="swe-agent").feed_all(aci).files()}
    assert statuses["src/app.py"] == "modified"
    assert statuses["src/helper.py"] == "created"
    assert statuses["src/missing.py"] is None  # the failed open read nothing


# -- 1.0 windowed tools with function calling ---------------------------------------------------------------
def test_windowed_edit_replace_and_insert_use_the_open_file(windowed: list[Event]) -> None:
    (insert,) = _call_at(windowed, 2).operations
    assert (insert.action, insert.path, insert.new, insert.detail) == (
        "edit",
        "reproduce.py",
        "print(1)",
        "insert",
    )
    (replace_all,) = _call_at(windowed, 6).operations
    assert (replace_all.path, replace_all.old, replace_all.new, replace_all.replace_all) == (
        "/testbed/src/app.py",
        "x - 1",
        "x + 1",
        True,
    )


def test_windowed_edit_failures(windowed: list[Event]) -> None:
    assert _result(windowed, _call_at(windowed, 4).call_id).failure == "not_found"
    assert _result(windowed, _call_at(windowed, 5).call_id).failure == "not_unique"


def test_repeated_tool_call_ids_are_made_unique(windowed: list[Event]) -> None:
    ids = [_call_at(windowed, n).call_id for n in (7, 8)]
    assert ids == ["call_G", "call_G#step-8"]


# -- malformed input and helpers ------------------------------------------------------------------------------
def test_malformed_trajectory_is_read_as_far_as_possible(fixtures_dir: Path) -> None:
    events, source = _events(fixtures_dir / "swe_agent" / "malformed.traj")
    assert [c.operations[0].command for c in _calls(events)] == ["ls"]
    assert [s.line for s in source.skipped] == [1]


def test_not_a_trajectory_is_not_sniffed() -> None:
    assert not ADAPTER.sniff(Source("x.json", '{"messages": []}'))
    events = list(ADAPTER.events(Source("x.json", "[1, 2]")))
    assert events == []


def test_split_commands_respects_quotes_and_heredocs() -> None:
    assert split_commands("cd /x && create 'a && b.py'; ls") == [
        "cd /x",
        "create 'a && b.py'",
        "ls",
    ]
    assert split_commands("cat <<'EOF' > f\na && b\nEOF") == ["cat <<'EOF' > f\na && b\nEOF"]


def test_diff_changes_reads_created_modified_deleted_and_renamed_files() -> None:
    diff = (
        "diff --git a/new.py b/new.py\nnew file mode 100644\n--- /dev/null\n+++ b/new.py\n@@ -0,0 +1 @@\n+x\n"
        "diff --git a/old.py b/old.py\ndeleted file mode 100644\n--- a/old.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n"
        "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+y\n"
        "diff --git a/m.py b/n.py\nsimilarity index 100%\nrename from m.py\nrename to n.py\n"
    )
    changes = {path: (c.change, c.move_to) for path, c in diff_changes(diff).items()}
    assert changes == {
        "new.py": ("created", None),
        "old.py": ("deleted", None),
        "a.py": ("modified", None),
        "m.py": ("modified", "n.py"),
    }


def test_detection_picks_swe_agent(load: Loader, fixtures_dir: Path) -> None:
    for name in ("editor-1x.traj", "aci-0x.traj", "windowed-fc.traj"):
        assert load("swe-agent", fixtures_dir / "swe_agent" / name).detected == "swe-agent"


# -- the real corpus ----------------------------------------------------------------------------------------------
def test_real_trajectories_parse(corpus_dir: Path) -> None:
    files = sorted((corpus_dir / "swe_agent").glob("*.gz"))
    assert files
    for path in files:
        events, source = _events(path)
        assert isinstance(events[0], SessionInfo) and events[0].cwd, path.name
        calls = [c.call_id for c in _calls(events)]
        assert calls == [e.call_id for e in events if isinstance(e, ToolResult)], path.name
        assert source.skipped == [], path.name


def test_real_editor_edits_land_on_the_submitted_files(corpus_dir: Path) -> None:
    """Every file of a christsakm submission that a successful editor call touched is reported changed."""
    path = (
        corpus_dir
        / "swe_agent"
        / "christsakm__getmoto__moto-6510__trace_01_gpt-5-2025-08-07.traj.gz"
    )
    events, _ = _events(path)
    changed = {
        op.path
        for call in _calls(events)
        for op in call.operations
        if op.action in ("create", "edit") and _result(events, call.call_id).status == "success"
    }
    assert changed == {
        "/testbed/moto/scheduler/models.py",
        "/testbed/repro_scheduler_get_schedule.py",
    }


def test_real_editor_command_lines_parse_to_the_recorded_json_arguments(corpus_dir: Path) -> None:
    """The shell-quoted command line SWE-agent records equals the tool call's exact JSON arguments."""
    checked = 0
    for path in sorted((corpus_dir / "swe_agent").glob("christsakm__*.gz")):
        doc = json.loads(gzip.decompress(path.read_bytes()))
        for message in doc["history"]:
            for call in message.get("tool_calls") or []:
                if call["function"]["name"] != "str_replace_editor":
                    continue
                arguments = {
                    k: v
                    for k, v in json.loads(call["function"]["arguments"]).items()
                    if v is not None
                }
                assert parse_editor_command_line(message["action"]) == arguments, path.name
                checked += 1
    assert checked > 100


def test_a_history_that_is_not_a_list_is_ignored() -> None:
    # Regression: ``"history": true`` raised TypeError (not iterable).
    events = list(ADAPTER.events(Source("t.traj", json.dumps({"trajectory": [], "history": True}))))
    assert [type(e) for e in events] == [SessionInfo]
