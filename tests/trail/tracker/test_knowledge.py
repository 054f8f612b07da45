"""What the tracker learns beyond file state: contents, symbols, tasks, decisions, user messages."""

from __future__ import annotations

from artifact_index.ingestion.events import (
    AssistantMessage,
    Event,
    ToolCall,
    ToolResult,
    UserMessage,
)
from artifact_index.ingestion.events import FileOperation as Op
from artifact_index.trail.tracker import Tracker

from .conftest import Call

AUTH = "class AuthService:\n    def create_token(self, user):\n        return sign(user)\n\n    def verify(self, token):\n        return True\n"
# Claude Code numbers the pieces of content.split("\n"): a final newline shows as a last empty line.
GUTTERED = "".join(f"{n:>6}→{line}\n" for n, line in enumerate(AUTH.split("\n"), start=1))


def test_symbols_changed_by_an_edit_of_a_file_that_was_read(session: list[Event]) -> None:
    events = session + [
        ToolCall(
            turn=1, call_id="r", tool="Read", operations=(Op(action="read", path="/repo/auth.py"),)
        ),
        ToolResult(turn=1, call_id="r", status="success", output=GUTTERED),
        ToolCall(
            turn=2,
            call_id="e",
            tool="Edit",
            operations=(
                Op(
                    action="edit",
                    path="/repo/auth.py",
                    old="        return sign(user)\n",
                    new="        return sign(user, exp=3600)\n\n    def refresh(self, token):\n        return token\n",
                ),
            ),
        ),
        ToolResult(turn=2, call_id="e", status="success"),
    ]
    index = Tracker(format="claude-code").feed_all(events)
    symbols = {(s.container, s.name): s.change for s in index.symbols()["auth.py"]}
    assert symbols == {
        (None, "AuthService"): "read",  # its own lines did not change: the methods did
        ("AuthService", "create_token"): "modified",
        ("AuthService", "refresh"): "added",
        ("AuthService", "verify"): "read",
    }
    assert index.file_state("auth.py").content == AUTH.replace(  # type: ignore[union-attr]
        "return sign(user)\n",
        "return sign(user, exp=3600)\n\n    def refresh(self, token):\n        return token\n",
    )


def test_symbols_of_an_edit_without_known_content(session: list[Event], call: Call) -> None:
    events = session + call(
        Op(
            action="edit",
            path="/repo/util.py",
            old="def helper():\n    return 1\n",
            new="def helper():\n    return 2\n",
        )
    )
    index = Tracker(format="claude-code").feed_all(events)
    assert [(s.name, s.change) for s in index.symbols()["util.py"]] == [("helper", "modified")]


def test_created_file_symbols_are_added(session: list[Event], call: Call) -> None:
    events = session + call(
        Op(
            action="write",
            path="/repo/new.py",
            content="def a():\n    pass\n\nclass B:\n    pass\n",
        ),
        tool="Write",
    )
    index = Tracker(format="claude-code").feed_all(events)
    assert [(s.name, s.change) for s in index.symbols()["new.py"]] == [
        ("a", "added"),
        ("B", "added"),
    ]


def test_tasks_decisions_and_user_messages(session: list[Event], call: Call) -> None:
    events = session + [
        UserMessage(turn=1, text="Fix the login bug"),
        UserMessage(turn=1, text="<system-reminder>x</system-reminder>", synthetic=True),
        *call(
            tool="TodoWrite",
            turn=2,
            todos=[{"content": "Fix token expiry", "status": "in_progress"}],
        ),
        *call(Op(action="edit", path="/repo/auth.py", old="a", new="b"), turn=3),
        AssistantMessage(
            turn=4, text="The root cause is that `create_token` in auth.py never sets `exp`."
        ),
    ]
    index = Tracker(format="claude-code").feed_all(events)
    assert [m.model_dump() for m in index.user_messages()] == [
        {"turn": 1, "text": "Fix the login bug", "channel": "prompt"}
    ]
    assert [(t.content, t.status) for t in index.tasks()] == [("Fix token expiry", "in_progress")]
    [decision] = index.decisions()
    assert decision.kind == "root-cause" and decision.files == ["auth.py"] and decision.turn == 4
    assert ("decision:1", "file:auth.py") in index.graph.edges()


def test_known_content_follows_patches_and_line_edits(session: list[Event], call: Call) -> None:
    from artifact_index.ingestion.events import ReportedChange

    original = "a = 1\nb = 2\nc = 3\n"
    events = session + [
        *call(
            Op(
                action="edit",
                path="/repo/m.py",
                diff="@@\n a = 1\n-b = 2\n+b = 20\n",
                source="patch",
            ),
            tool="apply_patch",
            reported=(ReportedChange(path="/repo/m.py", change="modified", original=original),),
        ),
        *call(
            Op(action="edit", path="/repo/m.py", new="x = 0\n", start_line=0, detail="insert"),
            tool="str_replace_editor",
        ),
        *call(
            Op(action="edit", path="/repo/m.py", new="c = 30\n", start_line=4, end_line=4),
            tool="edit",
        ),
    ]
    file = Tracker(format="swe-agent").feed_all(events).file_state("m.py")
    assert file is not None
    assert file.original == original
    assert file.content == "x = 0\na = 1\nb = 20\nc = 30\n"


def test_an_edit_that_does_not_apply_makes_the_content_unknown(
    session: list[Event], call: Call
) -> None:
    events = session + [
        *call(Op(action="write", path="/repo/m.py", content="a\n"), tool="Write"),
        *call(
            Op(action="edit", path="/repo/m.py", diff="@@\n-zzz\n+y\n", source="patch"),
            tool="apply_patch",
        ),
    ]
    file = Tracker(format="codex").feed_all(events).file_state("m.py")
    assert file is not None and file.content is None


def test_an_error_is_linked_to_the_symbol_around_its_line(session: list[Event], call: Call) -> None:
    from artifact_index.ingestion.events import ToolCall, ToolResult

    source = "def ok():\n    return 1\n\n\ndef create_token(user):\n    return user['exp']\n"
    traceback = (
        "Traceback (most recent call last):\n"
        '  File "/repo/auth.py", line 6, in create_token\n'
        "    return user['exp']\n"
        "KeyError: 'exp'\n"
    )
    events = session + [
        *call(Op(action="write", path="/repo/auth.py", content=source), tool="Write"),
        ToolCall(
            turn=3,
            call_id="t",
            tool="Bash",
            operations=(Op(action="shell", command="python auth.py", source="shell"),),
        ),
        ToolResult(turn=3, call_id="t", status="failure", exit_code=1, output=traceback),
    ]
    index = Tracker(format="claude-code").feed_all(events)
    [error] = index.errors()
    assert (error.message, error.file, error.line, error.symbol) == (
        "KeyError: 'exp'",
        "/repo/auth.py",
        6,
        "create_token",
    )
    assert ("error:" + index.ledger.errors[0].signature, "file:auth.py") in index.graph.edges()
