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


def _export(
    replies: list[tuple[list[tuple[str, int]], list[str], dict[str, str]]],
) -> dict[str, Any]:
    """A hand-made OpenCode export: per reply, its bash calls (command, exit), the snapshot's files
    and the reply's net diffs (relative path -> added / modified / deleted), all in one step each."""
    root = "/home/dev/site"
    messages: list[dict[str, Any]] = []
    for n, (calls, snapshot, net) in enumerate(replies):
        diffs = [
            {"file": path, "before": "", "after": "", "additions": 1, "deletions": 0, "status": s}
            for path, s in net.items()
        ]
        messages.append(
            {
                "info": {
                    "id": f"msg_u{n}",
                    "role": "user",
                    "time": {"created": n},
                    "summary": {"title": "t", "diffs": diffs},
                },
                "parts": [{"id": f"prt_u{n}", "type": "text", "text": "go on"}],
            }
        )
        parts: list[dict[str, Any]] = [{"id": f"prt_s{n}", "type": "step-start"}]
        for k, (command, code) in enumerate(calls):
            output = (
                "done\n" if code == 0 else "Found 3 errors.\nCommand failed with exit code 1.\n"
            )
            parts.append(
                {
                    "id": f"prt_c{n}_{k}",
                    "type": "tool",
                    "callID": f"call_{n}_{k}",
                    "tool": "bash",
                    "state": {
                        "status": "completed",
                        "input": {"command": command, "workdir": root},
                        "output": output,
                        "metadata": {"output": output, "exit": code},
                    },
                }
            )
        parts.append(
            {
                "id": f"prt_p{n}",
                "type": "patch",
                "hash": "0" * 40,
                "files": [f"{root}/{path}" for path in snapshot],
            }
        )
        messages.append(
            {
                "info": {
                    "id": f"msg_a{n}",
                    "role": "assistant",
                    "time": {"created": n},
                    "parentID": f"msg_u{n}",
                    "modelID": "m",
                    "path": {"cwd": root, "root": root},
                },
                "parts": parts,
            }
        )
    return {
        "info": {"id": "ses_hand", "directory": root, "version": "1.18.0"},
        "messages": messages,
    }


def _trail_of(document: dict[str, Any], tmp_path: Path) -> dict[str, Any]:
    path = tmp_path / "session.json"
    path.write_text(json.dumps(document))
    return _trail(path)


def test_a_fixer_that_exits_non_zero_after_formatting_still_made_what_the_step_saw(
    tmp_path: Path,
) -> None:
    # `pnpm fix` formats, then its lint pass fails: the snapshot shows the formatted file.
    trail = _trail_of(
        _export([([("pnpm fix 2>&1", 1)], ["docs/guide.mdx"], {"docs/guide.mdx": "modified"})]),
        tmp_path,
    )
    assert _changed(trail) == {"docs/guide.mdx": "modified"}
    assert trail["seen_not_made"] == []


def test_a_command_refused_before_it_ran_made_nothing_the_step_saw(tmp_path: Path) -> None:
    document = _export([([("pnpm fix", 0)], ["docs/guide.mdx"], {"docs/guide.mdx": "modified"})])
    state = document["messages"][1]["parts"][1]["state"]
    state.update(
        status="error", error="The user rejected permission to use this specific tool call."
    )
    trail = _trail_of(document, tmp_path)
    assert _changed(trail) == {}
    assert [entry["path"] for entry in trail["seen_not_made"]] == ["docs/guide.mdx"]


def test_moving_away_a_file_that_appeared_during_the_session_deletes_nothing_old(
    tmp_path: Path,
) -> None:
    # A build no call could be held to wrote public/r/card.json; the session then renames it.
    trail = _trail_of(
        _export(
            [
                (
                    [("pnpm build 2>&1 | tail -5", 0)],
                    ["public/r/card.json"],
                    {"public/r/card.json": "added"},
                ),
                (
                    [("mv public/r/card.json public/r/tile.json", 0)],
                    ["public/r/tile.json"],
                    {"public/r/card.json": "deleted", "public/r/tile.json": "added"},
                ),
            ]
        ),
        tmp_path,
    )
    assert _changed(trail) == {"public/r/tile.json": "created"}


def test_a_project_fixer_known_by_its_script_made_what_the_step_saw(tmp_path: Path) -> None:
    # The session wrote package.json, whose `fix` script runs `ultracite fix`, and registry.json.
    # `pnpm fix` then formats the project and exits 1 on lint errors left: the files the
    # step's snapshot shows are its change, and registry.json's text is no longer the one the
    # session wrote, so no count of its changed lines rests on it.
    package = '{"scripts": {"check": "ultracite check", "fix": "ultracite fix"}}'
    write = f"cat > package.json <<'EOF'\n{package}\nEOF\nprintf '{{\"a\": 1}}\\n' > registry.json"
    document = _export(
        [
            ([(write, 0)], ["package.json", "registry.json"], {}),
            (
                [("pnpm fix", 1)],
                ["registry.json", "docs/guide.mdx"],
                {"registry.json": "added", "docs/guide.mdx": "modified"},
            ),
        ]
    )
    path = tmp_path / "session.json"
    path.write_text(json.dumps(document))
    index, loaded = build_index(str(path))
    trail = files_json(index, loaded.skipped)
    assert _changed(trail) == {
        "package.json": "created",
        "registry.json": "created",
        "docs/guide.mdx": "modified",
    }
    assert trail["seen_not_made"] == []
    assert index.content("registry.json") is None
