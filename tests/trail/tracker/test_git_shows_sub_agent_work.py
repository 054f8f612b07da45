"""What git printed after a sub-agent whose own calls are not seen settles what that sub-agent changed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from artifact_index.trail.answers import FileEntry
from artifact_index.trail.build import build_index

ROOT = "/home/dev/shop"
PROMPT = (
    "Implement the detail page.\n\n### Files to Create\n- `src/pages/detail.tsx`\n\n"
    "### Files to Modify\n- `src/router.tsx`: add the route\n"
)


def _session(tmp_path: Path, calls: list[tuple[str, dict[str, Any], str]]) -> dict[str, str | None]:
    """The statuses of a Claude Code session of ``calls`` (tool, input, result text)."""
    return {f.path: f.status for f in _files(tmp_path, calls)}


def _files(tmp_path: Path, calls: list[tuple[str, dict[str, Any], str]]) -> list[FileEntry]:
    records: list[dict[str, Any]] = [
        {
            "type": "user",
            "uuid": "u0",
            "cwd": ROOT,
            "sessionId": "s",
            "message": {"role": "user", "content": "build the detail page"},
        }
    ]
    for n, (tool, arguments, output) in enumerate(calls, 1):
        use = {"type": "tool_use", "id": f"t{n}", "name": tool, "input": arguments}
        result = {"type": "tool_result", "tool_use_id": f"t{n}", "content": output}
        records.append(
            {
                "type": "assistant",
                "uuid": f"a{n}",
                "cwd": ROOT,
                "sessionId": "s",
                "message": {"role": "assistant", "content": [use]},
            }
        )
        records.append(
            {
                "type": "user",
                "uuid": f"r{n}",
                "cwd": ROOT,
                "sessionId": "s",
                "message": {"role": "user", "content": [result]},
            }
        )
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    index, _ = build_index(path)
    return index.files()


def _read(path: str, text: str) -> tuple[str, dict[str, Any], str]:
    return ("Read", {"file_path": f"{ROOT}/{path}"}, f"     1\u2192{text}\n")


def _agent(prompt: str) -> tuple[str, dict[str, Any], str]:
    return ("Agent", {"description": "Detail page", "prompt": prompt}, "Done: the page is in.")


def _bash(command: str, output: str) -> tuple[str, dict[str, Any], str]:
    return ("Bash", {"command": command}, output)


STATUS = " M src/router.tsx\n?? src/pages/\n"
COMMIT = (
    "[main 57b38c4] Add the detail page\n 2 files changed, 80 insertions(+)\n"
    " create mode 100644 src/pages/detail.tsx\n"
)


def test_a_status_and_a_commit_after_the_sub_agent_show_what_it_changed(tmp_path: Path) -> None:
    statuses = _session(
        tmp_path,
        [
            _read("src/router.tsx", "export const routes = [];"),
            _agent(PROMPT),
            _bash("git status --short", STATUS),
            _bash("git add -A && git commit -m 'Add the detail page'", COMMIT),
        ],
    )
    # Read before the run, then listed modified: the sub-agent changed it. The untracked folder
    # names no file; the commit's summary shows the page new, which the prompt asked for.
    assert statuses == {"src/router.tsx": "modified", "src/pages/detail.tsx": "created"}


def test_a_file_the_sub_agent_was_not_asked_to_change_is_not_credited_to_it(
    tmp_path: Path,
) -> None:
    statuses = _session(
        tmp_path,
        [
            _read("src/router.tsx", "export const routes = [];"),
            _agent("Review `src/router.tsx` and `src/pages/detail.tsx`. Do not edit any files."),
            _bash("git status --short", " M src/router.tsx\n?? src/pages/detail.tsx\n"),
            _bash("git commit -am 'Add the detail page'", COMMIT),
        ],
    )
    assert statuses == {"src/router.tsx": "read"}


def test_a_change_listed_before_the_sub_agent_ran_may_predate_it(tmp_path: Path) -> None:
    statuses = _session(
        tmp_path,
        [
            _bash("git status --short", " M src/router.tsx\n"),
            _agent(PROMPT),
            _bash("git status --short", STATUS),
        ],
    )
    assert statuses == {}


def test_a_file_the_session_wrote_itself_is_not_credited_to_the_sub_agent(tmp_path: Path) -> None:
    (page,) = _files(
        tmp_path,
        [
            _agent(PROMPT),
            ("Write", {"file_path": f"{ROOT}/src/pages/detail.tsx", "content": "x\n"}, "ok"),
            _bash("git commit -m 'Add the detail page'", COMMIT),
        ],
    )
    assert (page.status, [op.action for op in page.ops]) == ("created", ["write"])


def test_the_change_is_told_at_the_sub_agents_turn(tmp_path: Path) -> None:
    # The person's message is turn 1, the sub-agent's run turn 2, the status turn 3.
    files = _files(tmp_path, [_agent(PROMPT), _bash("git status --short", STATUS)])
    assert [(f.path, f.status, [(op.turn, op.detail) for op in f.ops]) for f in files] == [
        (
            "src/router.tsx",
            "modified",
            [(2, 'listed modified by git status after the sub-agent "Detail page" (turn 2)')],
        )
    ]


def test_a_file_a_prompt_names_only_to_keep_its_sub_agent_off_is_not_that_sub_agents(
    tmp_path: Path,
) -> None:
    owner = (
        "FILE OWNERSHIP (strict): you may edit ONLY src/cache.ts and src/cache.test.ts. "
        "Another agent is concurrently editing src/deps.ts - do not touch it."
    )
    other = (
        "You may edit ONLY src/deps.ts. Another agent is concurrently editing src/cache.ts "
        "— do not touch those or any other files."
    )
    files = _files(
        tmp_path,
        [
            ("Agent", {"description": "Fix 2: cache key", "prompt": owner}, "Done."),
            ("Agent", {"description": "Fix 1: deps", "prompt": other}, "Done."),
            _bash("git status --short", " M src/cache.ts\n M src/deps.ts\n"),
        ],
    )
    made = {f.path: [op.detail for op in f.ops] for f in files}
    assert any("Fix 2: cache key" in (d or "") for d in made["src/cache.ts"])
    assert any("Fix 1: deps" in (d or "") for d in made["src/deps.ts"])


def test_a_file_listed_under_a_hands_off_heading_is_not_that_sub_agents(tmp_path: Path) -> None:
    owner = (
        "Implement the cache key.\n\n## Scope (ONLY src/cache.ts)\n\nMake it stable.\n\n"
        "## Files you MUST NOT touch\n\n- `src/deps.ts` (Task 1)\n- anything else\n"
    )
    other = (
        "Fix the deps loop.\n\nYou may edit src/deps.ts.\n\nDo not modify these:\n"
        "- src/cache.ts\n\nRun the tests when done."
    )
    files = _files(
        tmp_path,
        [
            ("Agent", {"description": "Fix 2: cache key", "prompt": owner}, "Done."),
            ("Agent", {"description": "Fix 1: deps", "prompt": other}, "Done."),
            _bash("git status --short", " M src/cache.ts\n M src/deps.ts\n"),
        ],
    )
    made = {f.path: [op.detail for op in f.ops] for f in files}
    assert any("Fix 2: cache key" in (d or "") for d in made["src/cache.ts"])
    assert any("Fix 1: deps" in (d or "") for d in made["src/deps.ts"])
