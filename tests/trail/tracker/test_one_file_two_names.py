"""One file, two spellings: case on macOS and Windows, Git Bash's /c/ drive on Windows."""

from __future__ import annotations

import pytest

from artifact_index.ingestion.events import Event, SessionInfo
from artifact_index.ingestion.events import FileOperation as Op
from artifact_index.trail.tracker import Tracker

from .conftest import Call


def _changed(root: str, events: list[Event], fmt: str = "claude-code") -> dict[str, str | None]:
    index = Tracker(format=fmt).feed_all([SessionInfo(turn=0, cwd=root), *events])
    return {f.path: f.status for f in index.files() if f.status != "read"}


@pytest.mark.parametrize("root", ["/Users/dev/cli", "C:\\Users\\dev\\cli"])
def test_names_that_differ_in_case_are_one_file_where_the_file_system_folds_case(
    call: Call, root: str
) -> None:
    events = [
        *call(Op(action="create", path="src/EntireCommand.ts", content="a\n"), tool="Write"),
        *call(Op(action="edit", path="src/entireCommand.ts", old="a", new="b"), turn=2),
    ]
    assert _changed(root, events) == {"src/EntireCommand.ts": "created"}


def test_on_linux_they_are_two_files(call: Call) -> None:
    events = [
        *call(Op(action="create", path="src/EntireCommand.ts", content="a\n"), tool="Write"),
        *call(Op(action="create", path="src/entireCommand.ts", content="b\n"), tool="Write"),
    ]
    assert _changed("/home/dev/cli", events) == {
        "src/EntireCommand.ts": "created",
        "src/entireCommand.ts": "created",
    }


def test_git_bash_drive_folders_name_the_windows_drive(call: Call) -> None:
    events = [
        *call(
            Op(action="shell", command="echo v2 > /c/Users/dev/cli/VERSION", source="shell"),
            tool="Bash",
        ),
        *call(Op(action="edit", path="C:\\Users\\dev\\cli\\VERSION", old="v2", new="v3"), turn=2),
        *call(
            Op(action="shell", command="echo x > /c/Users/dev/notes.txt", source="shell"),
            tool="Bash",
            turn=3,
        ),
        *call(Op(action="edit", path="C:/Users/dev/notes.txt", old="x", new="y"), turn=4),
    ]
    # Outside the workspace the file is shown as first spelled.
    assert _changed("C:\\Users\\dev\\cli", events) == {
        "VERSION": "created",
        "/c/Users/dev/notes.txt": "created",
    }
