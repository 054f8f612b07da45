"""Nothing inside a directory the session made (or emptied) existed before it, so such files are never deleted."""

from __future__ import annotations

import pytest

from artifact_index.ingestion.events import Event, FileOperation, SessionInfo, ToolCall, ToolResult
from artifact_index.trail.build import build_index
from artifact_index.trail.tracker import Tracker
from tests.support.paths import FIXTURES

FIXTURE = FIXTURES / "mini_swe_agent" / "sphinx-build-output.traj.json"


def _shell(commands: list[str], cwd: str | None = "/repo") -> dict[str, str | None]:
    events: list[Event] = [SessionInfo(turn=0, cwd=cwd)] if cwd else []
    for turn, command in enumerate(commands, start=1):
        events += [
            ToolCall(
                turn=turn,
                call_id=f"c{turn}",
                tool="bash",
                operations=(FileOperation(action="shell", command=command, source="shell"),),
            ),
            ToolResult(turn=turn, call_id=f"c{turn}", status="success"),
        ]
    index = Tracker(format="mini-swe-agent").feed_all(events)
    return {f.path: f.status for f in index.files()}


def test_a_build_output_read_then_removed_was_never_there_before() -> None:
    index, _ = build_index(FIXTURE)
    assert {f.path: f.status for f in index.files()} == {
        "sphinx/builders/gettext.py": "modified",
        "reproduction/source/conf.py": "reverted",
        "reproduction/source/index.rst": "reverted",
        "reproduction/build/index.pot": "reverted",
    }
    submission = index.submission()
    assert submission is not None and submission.files == ["sphinx/builders/gettext.py"]


@pytest.mark.parametrize(
    "made",
    [
        "mkdir out && cd out && python ../gen.py",
        "sphinx-build -b html docs out",
        "python -m sphinx -b html docs out",
        "rm -rf out && make html",
    ],
)
def test_files_first_seen_in_a_directory_the_session_made_or_emptied_are_never_deleted(
    made: str,
) -> None:
    assert (
        _shell([made, "cat out/index.html | head -5", "rm -rf out"])["out/index.html"] == "reverted"
    )


def test_a_file_seen_before_its_directory_was_emptied_existed() -> None:
    assert _shell(["cat out/index.html | head -5", "rm -rf out"])["out/index.html"] == "deleted"


def test_a_relative_cd_is_not_applied_twice_when_the_start_is_unknown() -> None:
    assert _shell(["cd pkg && cat > a.py <<'EOF'\nx = 1\nEOF"], cwd=None) == {"pkg/a.py": "created"}
