"""What the tracker knows of a file's content, and what it makes of it: net diffs, symbols, tasks."""

from __future__ import annotations

from artifact_index.ingestion.events import Event, ReportedChange, ToolCall, ToolResult
from artifact_index.ingestion.events import FileOperation as Op
from artifact_index.ingestion.vocabulary import operations_for
from artifact_index.trail.tracker import Tracker

from .conftest import Call

SOURCE = "def a():\n    return 1\n\n\ndef b():\n    return 2\n"


def numbered(text: str) -> str:
    """``cat -n`` output: real lines, the number right-aligned in six columns."""
    return "".join(f"{n:>6}\t{line}\n" for n, line in enumerate(text.splitlines(), start=1))


def read(turn: int, path: str, output: str, tool: str = "Read", **op: object) -> list[Event]:
    call_id = f"r{turn}"
    return [
        ToolCall(
            turn=turn, call_id=call_id, tool=tool, operations=(Op(action="read", path=path, **op),)
        ),
        ToolResult(turn=turn, call_id=call_id, status="success", output=output),
    ]


def shell(turn: int, command: str, output: str) -> list[Event]:
    call_id = f"s{turn}"
    return [
        ToolCall(
            turn=turn,
            call_id=call_id,
            tool="Bash",
            operations=(Op(action="shell", command=command, source="shell"),),
        ),
        ToolResult(turn=turn, call_id=call_id, status="success", exit_code=0, output=output),
    ]


def test_net_diff_of_an_edited_file_that_was_read_whole(session: list[Event], call: Call) -> None:
    events = (
        session
        + read(1, "/repo/m.py", numbered(SOURCE))
        + call(
            Op(action="edit", path="/repo/m.py", old="    return 2\n", new="    return 3\n"), turn=2
        )
    )
    index = Tracker(format="claude-code").feed_all(events)
    assert index.net_diff("m.py") == (
        "--- a/m.py\n+++ b/m.py\n@@ -3,4 +3,4 @@\n \n \n def b():\n-    return 2\n+    return 3\n"
    )
    # The absolute spelling under the root names the same file.
    assert index.net_diff("/repo/m.py") == index.net_diff("./m.py") == index.net_diff("m.py")
    assert index.net_diff("/elsewhere/m.py") is None


def test_net_diff_of_a_long_file_adds_before_its_last_brace_without_touching_it(
    session: list[Event], call: Call
) -> None:
    # In a file of 200 lines or more a line as common as `}` no longer anchors difflib's default
    # matching: the insertion read as that `}` removed and added again (+1/-1 more than git).
    blocks = "".join(
        f"impl X{n} {{\n    fn f(&self) -> u32 {{\n        {n}\n    }}\n}}\n\n" for n in range(40)
    )
    source = f"{blocks}mod tests {{\n    fn t() {{\n    }}\n}}\n"
    added = "\n    fn u() {\n        check();\n    }\n"
    events = (
        session
        + read(1, "/repo/x.rs", numbered(source))
        + call(
            Op(
                action="edit",
                path="/repo/x.rs",
                old="    fn t() {\n    }\n}",
                new=f"    fn t() {{\n    }}\n{added}}}",
            ),
            turn=2,
        )
    )
    diff = Tracker(format="claude-code").feed_all(events).net_diff("x.rs")
    assert diff is not None
    changed = [line for line in diff.splitlines()[2:] if line[:1] in "+-"]
    assert changed == ["+", "+    fn u() {", "+        check();", "+    }"]


def test_net_diff_is_unknown_without_the_content_before(session: list[Event], call: Call) -> None:
    events = session + call(
        Op(action="edit", path="/repo/m.py", old="    return 2\n", new="    return 3\n")
    )
    index = Tracker(format="claude-code").feed_all(events)
    assert index.net_diff("m.py") is None


def test_net_diff_of_created_deleted_reverted_and_read_files(
    session: list[Event], call: Call
) -> None:
    events = session + [
        *call(Op(action="write", path="/repo/new.py", content="x = 1"), tool="Write"),
        *read(2, "/repo/old.py", numbered("a\nb\n")),
        *call(Op(action="delete", path="/repo/old.py"), tool="Bash", turn=3),
        *read(4, "/repo/same.py", numbered("k = 1\n")),
        *call(Op(action="edit", path="/repo/same.py", old="k = 1", new="k = 2"), turn=5),
        *call(Op(action="edit", path="/repo/same.py", old="k = 2", new="k = 1"), turn=6),
        *read(7, "/repo/seen.py", numbered("s = 1\n")),
    ]
    index = Tracker(format="claude-code").feed_all(events)
    # git's marker for a last line without a newline
    assert (
        index.net_diff("new.py")
        == "--- /dev/null\n+++ b/new.py\n@@ -0,0 +1 @@\n+x = 1\n\\ No newline at end of file\n"
    )
    assert index.net_diff("old.py") == "--- a/old.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n"
    assert index.net_diff("same.py") == ""
    assert index.net_diff("seen.py") is None


def test_harness_original_makes_the_net_diff_known(session: list[Event], call: Call) -> None:
    events = session + call(
        Op(action="edit", path="/repo/m.py", old="    return 1\n", new="    return 10\n"),
        reported=(ReportedChange(path="/repo/m.py", change="modified", original=SOURCE),),
    )
    assert Tracker(format="claude-code").feed_all(events).net_diff("m.py") == (
        "--- a/m.py\n+++ b/m.py\n@@ -1,5 +1,5 @@\n def a():\n-    return 1\n+    return 10\n \n \n def b():\n"
    )


def test_a_claude_code_read_keeps_the_missing_final_newline(session: list[Event]) -> None:
    # Claude Code numbers content.split("\n"): no empty last line, no final newline.
    output = "     1→x = 1\n     2→y = 2"
    index = Tracker(format="claude-code").feed_all(session + read(1, "/repo/m.py", output))
    assert index.file_state("m.py").content == "x = 1\ny = 2"  # type: ignore[index]


def test_a_read_with_only_a_limit_is_a_window_not_the_file(session: list[Event]) -> None:
    [op] = operations_for("Read", {"file_path": "/repo/m.py", "limit": 2}, "/repo")
    assert (op.start_line, op.end_line) == (None, 2)
    index = Tracker(format="claude-code").feed_all(
        session
        + read(1, "/repo/m.py", "     1→def a():\n     2→    return 1", start_line=None, end_line=2)
    )
    file = index.file_state("m.py")
    assert (
        file is not None
        and file.content is None
        and file.windows == [(1, ["def a():", "    return 1"])]
    )


def test_shell_output_is_the_file_only_when_the_read_is_the_whole_command(
    session: list[Event],
) -> None:
    piped = Tracker(format="claude-code").feed_all(
        session + shell(1, "cat -n m.py | head -2", numbered("def a():\n    return 1\n"))
    )
    assert piped.file_state("m.py").content is None  # type: ignore[index]
    two = Tracker(format="claude-code").feed_all(
        session + shell(1, "cat -n m.py n.py", numbered(SOURCE))
    )
    assert two.file_state("m.py").content is None and two.file_state("n.py").content is None  # type: ignore[index]
    alone = Tracker(format="claude-code").feed_all(
        session + shell(1, "cat -n m.py", numbered(SOURCE))
    )
    assert alone.file_state("m.py").content == SOURCE  # type: ignore[index]


def test_an_edit_inside_a_partial_window_names_its_enclosing_definition(
    session: list[Event], call: Call
) -> None:
    window = (
        "[File: /repo/m.py (900 lines total)]\n(399 more lines above)\n"
        + "".join(f"{n}:{line}\n" for n, line in enumerate(SOURCE.splitlines(), start=400))
        + "(495 more lines below)\n"
    )
    events = (
        session
        + read(1, "/repo/m.py", window, tool="open")
        + call(
            Op(action="edit", path="/repo/m.py", old="    return 2\n", new="    return 3\n"), turn=2
        )
        + call(
            Op(action="edit", path="/repo/m.py", old="    return 3\n", new="    return 4\n"), turn=3
        )
    )
    index = Tracker(format="swe-agent").feed_all(events)
    changed = [(s.name, s.change, s.turns) for s in index.symbols()["m.py"] if s.change != "read"]
    # the window follows the first edit, so the second is placed too
    assert changed == [("b", "modified", [1, 2, 3])]


def test_deleting_a_file_removes_the_definitions_reads_showed(
    session: list[Event], call: Call
) -> None:
    window = "".join(f"{n:>6}→{line}\n" for n, line in enumerate(SOURCE.splitlines()[:2], start=1))
    events = (
        session
        + read(1, "/repo/m.py", window, start_line=1, end_line=2)
        + call(Op(action="delete", path="/repo/m.py"), tool="Bash", turn=2)
    )
    index = Tracker(format="claude-code").feed_all(events)
    assert [(s.name, s.change) for s in index.symbols()["m.py"]] == [("a", "removed")]


def test_a_sub_agents_todo_list_does_not_replace_the_main_agents(
    session: list[Event], call: Call
) -> None:
    def todo(turn: int, content: str, sidechain: str | None = None) -> list[Event]:
        call_id = f"t{turn}"
        return [
            ToolCall(
                turn=turn,
                call_id=call_id,
                tool="TodoWrite",
                sidechain=sidechain,
                arguments={"todos": [{"content": content, "status": "pending"}]},
            ),
            ToolResult(turn=turn, call_id=call_id, status="success"),
        ]

    only_sub = Tracker(format="claude-code").feed_all(session + todo(1, "sub step", "agent-1"))
    assert [t.content for t in only_sub.tasks()] == ["sub step"]
    both = Tracker(format="claude-code").feed_all(
        session
        + todo(1, "main step")
        + todo(2, "sub step", "agent-1")
        + todo(3, "other sub step", "agent-2")
    )
    assert [t.content for t in both.tasks()] == ["main step"]


def test_a_read_of_a_changed_file_showing_other_lines_says_something_unseen_changed_it(
    session: list[Event], call: Call
) -> None:
    """The person reverted the session's edit between turns: the next read showed it gone."""
    edited = SOURCE.replace("return 2", "return 3")
    edit = call(
        Op(action="edit", path="/repo/m.py", old="    return 2\n", new="    return 3\n"), turn=2
    )
    events = session + read(1, "/repo/m.py", numbered(SOURCE)) + edit
    # A window of lines 4-6 as the edit left them: nothing unseen.
    same = "".join(f"{n:>6}\t{line}\n" for n, line in enumerate(edited.splitlines()[3:], start=4))
    index = Tracker(format="claude-code").feed_all(
        events + read(3, "/repo/m.py", same, start_line=4)
    )
    file = index.file_state("m.py")
    assert file is not None and file.changed_unseen_turn is None
    # The same window showing the old line: changed since, by something the trail does not follow.
    gone = "".join(f"{n:>6}\t{line}\n" for n, line in enumerate(SOURCE.splitlines()[3:], start=4))
    index = Tracker(format="claude-code").feed_all(
        events + read(3, "/repo/m.py", gone, start_line=4)
    )
    file = index.file_state("m.py")
    assert file is not None and (file.changed_unseen_turn, file.content) == (3, None)
    # A whole read showing the file as it was before the session: put back.
    index = Tracker(format="claude-code").feed_all(events + read(3, "/repo/m.py", numbered(SOURCE)))
    file = index.file_state("m.py")
    assert file is not None and file.changed_unseen_turn == 3 and file.status == "reverted"
