"""Changes seen in the working tree are the session's only when one of its calls could have made them.

The fixture is an OpenCode export of a session sharing its checkout: the user
edits TODO.md and src/cart.ts while the agent works, a generator whose text is
not known writes docs, ``rm -r`` removes a directory, ``bun install`` saves
its lock file, and a sub-agent commits.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from artifact_index import build_index
from artifact_index.presentation.render import files_json
from tests.support.paths import FIXTURES

SHARED = FIXTURES / "opencode" / "shared-checkout.json"


def _trail(path: Path) -> dict[str, Any]:
    index, loaded = build_index(str(path))
    return files_json(index, loaded.skipped)


def _changed(trail: dict[str, Any]) -> dict[str, str]:
    return {
        f["path"]: f["status"]
        for f in trail["files"]
        if f["status"] in ("created", "modified", "deleted")
    }


@pytest.fixture(scope="module")
def trail() -> dict[str, Any]:
    return _trail(SHARED)


def test_only_what_the_sessions_calls_could_change_is_its_change(trail: dict[str, Any]) -> None:
    assert _changed(trail) == {
        "README.md": "modified",  # apply_patch's own change
        "docs/out/index.md": "created",  # the generator's step, created by the reply's net diff
        "build-cache/old.bin": "deleted",  # under the directory rm -r removed
        "bun.lock": "modified",  # `bun install` said "Saved lockfile"
    }


def test_changes_no_call_could_make_are_listed_apart_with_their_evidence(
    trail: dict[str, Any],
) -> None:
    seen = {entry["path"]: entry for entry in trail["seen_not_made"]}
    # TODO.md changed beside an edit of README.md; notes.md and src/cart.ts beside a read,
    # a command that was aborted, a sub-agent, and `git diff`.
    assert sorted(seen) == ["TODO.md", "notes.md", "src/cart.ts"]
    # (Beside the read it is not listed: the reply's net diff says it came back as it was.)
    assert seen["src/cart.ts"]["turns"] == [8, 10]
    assert "no call of the session" in seen["TODO.md"]["evidence"]
    statuses = {f["path"]: f["status"] for f in trail["files"]}
    assert statuses.get("notes.md") == "read" and "TODO.md" not in statuses


def test_a_file_made_and_removed_within_one_reply_is_no_change(trail: dict[str, Any]) -> None:
    assert "docs/out/draft.md" not in {f["path"] for f in trail["files"]}


def test_without_net_diffs_the_seen_files_are_modified_and_rm_r_still_deletes(
    tmp_path: Path,
) -> None:
    document = json.loads(SHARED.read_text())
    del document["messages"][0]["info"]["summary"]
    older = tmp_path / "older.json"
    older.write_text(json.dumps(document))
    changed = _changed(_trail(older))
    assert changed["docs/out/draft.md"] == "modified"
    assert changed["build-cache/old.bin"] == "deleted"
    assert "TODO.md" not in changed and "src/cart.ts" not in changed
