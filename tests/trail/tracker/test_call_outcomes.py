"""A call's outcome decides whether its effects count: one that never ran or failed changed nothing."""

from __future__ import annotations

from artifact_index.presentation.render import files_json
from artifact_index.trail.build import build_index
from tests.support.paths import FIXTURES

REFUSALS = FIXTURES / "claude_code" / "refusals.jsonl"


def test_only_the_calls_that_ran_and_succeeded_change_files() -> None:
    index, _ = build_index(REFUSALS)
    out = files_json(index)
    # The mv failed, the first heredoc's folder did not exist, the rm and its redirect were
    # refused, the cp was stopped at its prompt, the Write was refused, the last one never
    # got an answer: only the heredoc written after the mkdir happened.
    assert {f["path"]: f["status"] for f in out["files"]} == {"notes/CHANGELOG.md": "created"}
    assert out["unknown_effects"] == []  # the refused `rm -rf drafts` removed nothing


def test_calls_that_never_ran_are_kept_as_failed_attempts() -> None:
    index, _ = build_index(REFUSALS)
    failed = {
        f["path"]: [(op["failure"], op.get("command")) for op in f["ops"]]
        for f in files_json(index)["failed"]
    }
    assert failed == {
        "cleanup.log": [("rejected", "echo cleaned > cleanup.log")],
        "README.md": [("interrupted", "cp -f README.md notes/README.md")],
        "notes/index.md": [("rejected", None)],
    }
    assert [call.call_id for call in index.pending_calls()] == ["toolu_w2"]


def test_a_codex_command_the_person_declined_to_approve_did_nothing() -> None:
    index, _ = build_index(FIXTURES / "codex" / "rollout-declined.jsonl")
    out = files_json(index)
    assert {f["path"]: f["status"] for f in out["files"]} == {"status.txt": "created"}
    assert [f["path"] for f in out["failed"]] == ["build.log"]
    assert out["unknown_effects"] == []
