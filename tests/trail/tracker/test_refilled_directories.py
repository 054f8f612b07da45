"""A folder `rm -rf` emptied and a build or generator run after it may refill: what it held is not said to be gone."""

from __future__ import annotations

import pytest

from artifact_index.ingestion.events import Event, FileOperation, SessionInfo, ToolCall, ToolResult
from artifact_index.trail.file_reports import file_reports
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.tracker import Tracker

PACKAGE_FILE = "build/packages/yay/src/yay.gleam"


def _index(commands: list[str | tuple[str, str]]) -> ArtifactIndex:
    """A session of shell calls in /repo; a (command, output) pair records what the command printed."""
    events: list[Event] = [SessionInfo(turn=0, cwd="/repo")]
    for turn, call in enumerate(commands, start=1):
        command, output = call if isinstance(call, tuple) else (call, "")
        events += [
            ToolCall(
                turn=turn,
                call_id=f"c{turn}",
                tool="bash",
                operations=(FileOperation(action="shell", command=command, source="shell"),),
            ),
            ToolResult(turn=turn, call_id=f"c{turn}", status="success", output=output),
        ]
    return Tracker(format="mini-swe-agent").feed_all(events)


def _status(commands: list[str | tuple[str, str]], path: str = PACKAGE_FILE) -> str | None:
    return {f.path: f.status for f in _index(commands).files()}[path]


@pytest.mark.parametrize(
    "rebuild",
    [
        ["rm -rf build", "gleam build"],
        ["rm -rf build && gleam deps download"],
        ["rm -rf /repo/build", "cd /repo && gleam test 2>&1 | head -20"],
        ["gleam clean && rm -rf build && gleam build"],
    ],
)
def test_a_build_output_removed_and_then_built_again_is_back(rebuild: list[str]) -> None:
    assert _status([f"cat {PACKAGE_FILE}", *rebuild]) == "reverted"


@pytest.mark.parametrize(
    "removal",
    [
        ["rm -rf build"],
        ["gleam build && rm -rf build"],
        ["rm -rf build", "cd /elsewhere && make"],
        ["rm -rf build", "gleam build && rm -rf build"],
    ],
)
def test_a_removal_no_later_program_could_undo_stays_a_deletion(removal: list[str]) -> None:
    assert _status([f"cat {PACKAGE_FILE}", *removal]) == "deleted"


def test_a_file_the_session_made_and_a_generator_remade_exists_and_rests_on_the_generator() -> None:
    index = _index(
        [
            "mkdir -p nix/_sources && printf '{ }' > nix/_sources/generated.nix",
            "rm -rf nix/_sources && nvfetcher -o nix/_sources",
        ]
    )
    told = {r.path: (r.status, r.shell_command) for r in file_reports(index)}
    assert told["nix/_sources/generated.nix"] == ("created", "nvfetcher -o nix/_sources")


def test_a_put_back_build_output_rests_on_the_build_not_the_removal() -> None:
    index = _index([f"cat {PACKAGE_FILE}", "rm -rf build && gleam build"])
    told = {r.path: (r.status, r.shell_command) for r in file_reports(index)}
    assert told[PACKAGE_FILE] == ("reverted", "gleam build")


def test_a_read_that_shows_a_deleted_file_shows_it_is_there_again() -> None:
    removed = [("cat notes/todo.md", "- ship it\n"), "rm notes/todo.md"]
    assert _status([*removed, "cat notes/todo.md"], "notes/todo.md") == "deleted"
    # Shown again, though not known to hold what it held before (a program wrote it again): changed.
    assert _status([*removed, ("cat notes/todo.md", "- ship\n")], "notes/todo.md") == "modified"


def test_a_change_after_the_refill_is_told_by_its_own_command() -> None:
    index = _index(
        [f"cat {PACKAGE_FILE}", "rm -rf build && gleam build", f"sed -i 's/x/y/' {PACKAGE_FILE}"]
    )
    told = {r.path: (r.status, r.shell_command) for r in file_reports(index)}
    assert told[PACKAGE_FILE] == ("modified", f"sed -i 's/x/y/' {PACKAGE_FILE}")
