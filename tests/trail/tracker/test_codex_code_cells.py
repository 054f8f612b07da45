"""Codex code mode: the commands a JavaScript cell runs through tools.exec_command are shell calls."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from artifact_index.ingestion.adapters.codex.code_cells import CellCommand, cell_commands
from artifact_index.trail.build import build_index
from artifact_index.trail.index import ArtifactIndex

ROOT = "/home/dev/shop"


def _rollout(
    tmp_path: Path, cells: list[tuple[str, str]], *, then: list[dict[str, Any]] | None = None
) -> tuple[dict[str, str], list[str]]:
    """A code-mode rollout, one cell per (JavaScript, output), then ``then``'s payloads:
    (changed files, unknown effects)."""
    index = _rollout_index(tmp_path, cells, then=then)
    changed = {f.path: f.status for f in index.files() if f.status != "read"}
    return changed, [u.detail or "" for u in index.unknown_effects()]


def _rollout_index(
    tmp_path: Path, cells: list[tuple[str, str]], *, then: list[dict[str, Any]] | None = None
) -> ArtifactIndex:
    """The index of a code-mode rollout, one cell per (JavaScript, output), then ``then``'s payloads."""
    records: list[dict[str, Any]] = [
        {
            "timestamp": "2026-08-01T10:00:00.000Z",
            "type": "session_meta",
            "payload": {
                "id": "019f0000-cccc-7000-8000-000000000001",
                "cwd": ROOT,
                "cli_version": "0.150.0",
                "originator": "codex-tui",
            },
        },
        {
            "timestamp": "2026-08-01T10:00:00.100Z",
            "type": "turn_context",
            "payload": {"turn_id": "t1", "cwd": ROOT, "model": "gpt-5.5"},
        },
        {
            "timestamp": "2026-08-01T10:00:00.200Z",
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "clean the local state"}],
            },
        },
    ]
    for n, (cell, output) in enumerate(cells):
        records.append(
            {
                "timestamp": "2026-08-01T10:00:01.000Z",
                "type": "response_item",
                "payload": {
                    "type": "custom_tool_call",
                    "status": "completed",
                    "call_id": f"call_{n}",
                    "name": "exec",
                    "input": cell,
                },
            }
        )
        records.append(
            {
                "timestamp": "2026-08-01T10:00:02.000Z",
                "type": "response_item",
                "payload": {
                    "type": "custom_tool_call_output",
                    "call_id": f"call_{n}",
                    "output": [
                        {
                            "type": "input_text",
                            "text": "Script completed\nWall time 0.2 seconds\nOutput:\n",
                        },
                        {"type": "input_text", "text": output},
                    ],
                },
            }
        )
    for payload in then or []:
        kind = "event_msg" if payload["type"].endswith("_end") else "response_item"
        records.append({"timestamp": "2026-08-01T10:00:03.000Z", "type": kind, "payload": payload})
    path = tmp_path / "rollout.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    index, _ = build_index(path)
    return index


def test_a_cells_command_with_variables_and_escaped_quotes_removes_its_files(
    tmp_path: Path,
) -> None:
    cell = (
        "const r = await tools.exec_command({\n"
        '  cmd:"d=.state/db; f=\\"$d/main.sqlite\\"; rm -f \\"$f\\" \\"$f-wal\\"; ls \\"$d\\"",\n'
        f'  workdir:"{ROOT}",\n  yield_time_ms:10000\n}});\ntext(r.output);\n'
    )
    changed, unknown = _rollout(tmp_path, [(cell, "meta.sqlite\n")])
    assert changed == {".state/db/main.sqlite": "deleted", ".state/db/main.sqlite-wal": "deleted"}
    assert unknown == []


def test_parallel_commands_each_run_in_their_own_directory(tmp_path: Path) -> None:
    cell = (
        "const results = await Promise.all([\n"
        f'  tools.exec_command({{cmd:"git status --short","workdir":"{ROOT}"}}),\n'
        f"  tools.exec_command({{cmd:'printf \"x\\\\n\" > out.txt', workdir:'{ROOT}/docs'}}),\n"
        "]);\ntext(results.map(r => r.output).join('\\n'));\n"
    )
    changed, _ = _rollout(tmp_path, [(cell, "")])
    assert changed == {"docs/out.txt": "created"}


def test_a_command_built_at_run_time_is_an_unknown_effect(tmp_path: Path) -> None:
    cell = (
        "for (const f of ['a.txt', 'b.txt']) {\n"
        f"  await tools.exec_command({{cmd: `rm ${{f}}`, workdir: '{ROOT}'}});\n}}\n"
    )
    changed, unknown = _rollout(tmp_path, [(cell, "")])
    assert changed == {}
    assert unknown == ["a code cell runs a command built at run time"]


_VITEST_FAILED = (
    "$ vitest run\n\n FAIL  src/feed.test.ts > feeds > parses the feed\n"
    "Error: getaddrinfo ENOTFOUND feeds.example\n\n"
    " Test Files  1 failed | 2 passed (3)\n      Tests  1 failed | 9 passed (10)\n"
    "exit=1"
)


def test_a_cells_failing_test_is_not_resolved_by_its_linter_passing_alone(
    tmp_path: Path,
) -> None:
    # One cell runs the linter and the tests at once; only the tests fail. The linter passing
    # later on its own is not the tests passing: the failure stays open.
    both = (
        "const results = await Promise.all([\n"
        f'  tools.exec_command({{"cmd":"pnpm exec oxlint src","workdir":"{ROOT}"}}),\n'
        f'  tools.exec_command({{"cmd":"pnpm test:run","workdir":"{ROOT}"}})\n'
        "]); results.forEach((r,i)=>text(`---${i+1}---\\n${r.output}`))\n"
    )
    lint = f'const r = await tools.exec_command({{"cmd":"pnpm exec oxlint src","workdir":"{ROOT}"}}); text(r.output)\n'
    lint_clean = "Found 0 warnings and 0 errors.\nFinished in 12ms on 40 files with 90 rules.\n"
    index = _rollout_index(
        tmp_path,
        [(both, f"---1---\n{lint_clean}exit=0\n---2---\n{_VITEST_FAILED}"), (lint, lint_clean)],
    )
    failures = [e for e in index.ledger.errors if e.kind == "test-runner"]
    assert failures and not any(e.resolved for e in failures)
    # Said as the cell's commands, one after the other.
    assert failures[0].commands[0] == "pnpm exec oxlint src; pnpm test:run"


def test_a_wait_on_a_running_cell_shows_its_commands_failing_again(tmp_path: Path) -> None:
    # The first cell's tests fail; the second cell is still running when its time is up (no
    # result yet), and the `wait` on it prints the same failure: it is seen again, not passed.
    tests = f'const r = await tools.exec_command({{"cmd":"pnpm test:run","workdir":"{ROOT}"}}); text(r.output)\n'
    waited = [
        {"type": "custom_tool_call", "call_id": "late", "name": "exec", "input": tests},
        {
            "type": "custom_tool_call_output",
            "call_id": "late",
            "output": "Script running with cell ID 7\nWall time 10.0 seconds\nOutput:\n",
        },
        {
            "type": "function_call",
            "name": "wait",
            "call_id": "wait_7",
            "arguments": json.dumps({"cell_id": "7", "yield_time_ms": 30000}),
        },
        {
            "type": "function_call_output",
            "call_id": "wait_7",
            "output": f"Script completed\nWall time 16.9 seconds\nOutput:\n{_VITEST_FAILED}",
        },
    ]
    index = _rollout_index(tmp_path, [(tests, _VITEST_FAILED)], then=waited)
    [failure] = [e for e in index.ledger.errors if e.kind == "test-runner"]
    assert (failure.resolved, len(failure.seen_turns)) == (False, 2)


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ('tools.exec_command({cmd:"echo \\u00e9\\x41\\tb"})', [CellCommand("echo éA\tb", None)]),
        ("tools.exec_command({'cmd': 'a' + b, workdir: \"/r\"})", [CellCommand(None, "/r")]),
        ("tools.exec_command({...opts, cmd: 'ls'})", [CellCommand(None, None)]),
        ("text(ALL_TOOLS.map(t => t.name))", []),
    ],
)
def test_cell_commands_read_literals_only(cell: str, expected: list[CellCommand]) -> None:
    assert cell_commands(cell) == expected


def test_a_patch_that_deletes_and_adds_a_file_the_session_read_rewrote_it(tmp_path: Path) -> None:
    # The read is a cell's `sed -n`; the patch deletes the file and adds it anew in one go,
    # and the harness reports the add: an existing file rewritten is modified, not created.
    read = f'const r = await tools.exec_command({{cmd:"sed -n 1,40p docs/guide.md","workdir":"{ROOT}"}});'
    patch = (
        "*** Begin Patch\n*** Delete File: docs/guide.md\n*** Add File: docs/guide.md\n"
        "+# Guide\n*** End Patch"
    )
    changed, _ = _rollout(
        tmp_path,
        [(read, "# Old guide\n")],
        then=[
            {
                "type": "custom_tool_call",
                "status": "completed",
                "call_id": "call_p",
                "name": "apply_patch",
                "input": patch,
            },
            {
                "type": "patch_apply_end",
                "call_id": "call_p",
                "success": True,
                "stdout": "Success. Updated the following files:\nA docs/guide.md\n",
                "changes": {f"{ROOT}/docs/guide.md": {"type": "add", "content": "# Guide\n"}},
            },
            {
                "type": "custom_tool_call_output",
                "call_id": "call_p",
                "output": "Success. Updated the following files:\nA docs/guide.md\n",
            },
        ],
    )
    assert changed == {"docs/guide.md": "modified"}


def test_a_cells_json_stringified_results_are_read_as_the_commands_output(
    tmp_path: Path,
) -> None:
    # `text(JSON.stringify(r))` prints the exec_command result as one JSON line: the test summary
    # is inside it, its newlines escaped. The targeted run fails, then the package passes, in a
    # cell that ran past its time and a `wait` on it: the failure is settled, not left current.
    def go_test(args: str) -> str:
        return (
            f'const r = await tools.exec_command({{cmd: "go test ./internal/sem {args}", '
            f'workdir: "{ROOT}"}});\ntext(JSON.stringify(r));\n'
        )

    failed = json.dumps(
        {
            "chunk_id": "a1",
            "exit_code": 1,
            "output": "--- FAIL: TestMasks (0.00s)\n    masks_test.go:12: broken\nFAIL\n"
            "FAIL\texample.com/shop/internal/sem\t0.2s\nFAIL\n",
        }
    )
    passed = json.dumps(
        {"chunk_id": "b2", "exit_code": 0, "output": "ok  \texample.com/shop/internal/sem\t1.4s\n"}
    )
    waited = [
        {"type": "custom_tool_call", "call_id": "late", "name": "exec", "input": go_test("")},
        {
            "type": "custom_tool_call_output",
            "call_id": "late",
            "output": "Script running with cell ID 9\nWall time 10.0 seconds\nOutput:\n",
        },
        {
            "type": "function_call",
            "name": "wait",
            "call_id": "wait_9",
            "arguments": json.dumps({"cell_id": "9", "yield_time_ms": 30000}),
        },
        {
            "type": "function_call_output",
            "call_id": "wait_9",
            "output": [
                {
                    "type": "input_text",
                    "text": "Script completed\nWall time 4.0 seconds\nOutput:\n",
                },
                {"type": "input_text", "text": passed},
            ],
        },
    ]
    index = _rollout_index(tmp_path, [(go_test("-run '^TestMasks' -v"), failed)], then=waited)
    [first, last] = index.tests()
    assert (first.outcome, first.failed, first.failing) == ("failed", 1, ["TestMasks"])
    assert (last.outcome, last.passed, last.unit) == ("passed", 1, "packages")
    assert first.superseded_by is not None
    assert not [e for e in index.ledger.errors if e.kind == "test-runner" and not e.resolved]


_RUN = "go test ./internal/sem -run 'TestAnalyze(Marks|Keeps)' -count=1"


@pytest.mark.parametrize(
    "retry",
    [
        f'const r = await tools.exec_command({{cmd:"mise exec -- {_RUN}","workdir":"{ROOT}",'
        '"yield_time_ms":1000}); text(JSON.stringify(r))\n',
        # Two commands; the one printed as JSON is the one still running.
        f'const a = await tools.exec_command({{cmd:"mkdir -p /tmp/gocache","workdir":"{ROOT}"}});\n'
        f'const b = await tools.exec_command({{cmd:"mise exec -- {_RUN}","workdir":"{ROOT}"}});\n'
        "text(a.output); text(JSON.stringify(b));\n",
    ],
    ids=["one command", "the command printed as JSON"],
)
def test_a_poll_of_a_cells_running_command_is_that_commands_result(
    tmp_path: Path, retry: str
) -> None:
    # The first cell formats, then tests: the test binary fails to build (a toolchain mismatch).
    # The retry under `mise exec` is still running when its cell returns ("session_id", no exit
    # code); a later cell's `tools.write_stdin` poll of that session prints its end: the package
    # passed. The build failure is settled and the first run is superseded, not current.
    run = _RUN
    first = (
        f'const a = await tools.exec_command({{cmd:"gofmt -w internal/sem/analyze.go","workdir":"{ROOT}"}});\n'
        f'const b = await tools.exec_command({{cmd:"{run}","workdir":"{ROOT}"}});\n'
        "text(a.output); text(JSON.stringify(b));\n"
    )
    build_failed = json.dumps(
        {
            "chunk_id": "c1",
            "exit_code": 1,
            "output": '# internal/godebugs\ncompile: version "go1.24.13" does not match go tool '
            'version "go1.26.1"\nFAIL\texample.com/shop/internal/sem [build failed]\nFAIL\n',
        }
    )
    still_running = json.dumps(
        {"chunk_id": "c2", "session_id": 17504, "output": "# example.com/lua\nparser.c: warning\n"}
    )
    poll = 'const r = await tools.write_stdin({session_id:17504,chars:"",yield_time_ms:10000}); text(JSON.stringify(r))\n'
    ended = json.dumps(
        {"chunk_id": "c3", "exit_code": 0, "output": "ok  \texample.com/shop/internal/sem\t1.1s\n"}
    )
    index = _rollout_index(tmp_path, [(first, build_failed), (retry, still_running), (poll, ended)])
    reports = index.tests()
    assert (reports[-1].outcome, reports[-1].passed, reports[-1].unit) == ("passed", 1, "packages")
    assert reports[-1].command.startswith("mise exec -- go test")
    assert all(r.outcome == "passed" or r.superseded_by is not None for r in reports)
    assert not [e for e in index.ledger.errors if e.kind == "test-runner" and not e.resolved]


def test_a_rerun_still_running_settles_nothing(tmp_path: Path) -> None:
    # The tests fail; their rerun is still running when its cell returns, having printed only a
    # build warning. It neither passed nor failed yet: the failure stays open, and the rerun is
    # no passing run of the check.
    cell = (
        f'const r = await tools.exec_command({{cmd:"{_RUN}","workdir":"{ROOT}"}});'
        " text(JSON.stringify(r))\n"
    )
    failed = json.dumps(
        {
            "chunk_id": "f1",
            "exit_code": 1,
            "output": "--- FAIL: TestAnalyzeMarks (0.00s)\n    analyze_test.go:9: wrong\nFAIL\n"
            "FAIL\texample.com/shop/internal/sem\t0.2s\nFAIL\n",
        }
    )
    running = json.dumps({"chunk_id": "f2", "session_id": 8, "output": "# building\n"})
    index = _rollout_index(tmp_path, [(cell, failed), (cell, running)])
    failures = [e for e in index.ledger.errors if e.kind == "test-runner"]
    assert failures and not any(e.resolved for e in failures)
    assert not [r for r in index.session.check_runs if r.passed]


def test_a_server_retried_and_left_running_has_started(tmp_path: Path) -> None:
    # The preview server could not listen in the sandbox; the retry with more permissions is
    # still running when its cell returns, and has printed that it is ready: it started, and
    # the failure to listen is settled. (A check still running has not passed, a server has.)
    preview = "./node_modules/.bin/astro preview --host 127.0.0.1 --port 4321"
    cell = f'const r = await tools.exec_command({{cmd:"{preview}","workdir":"{ROOT}"}}); text(JSON.stringify(r))\n'
    refused = json.dumps(
        {
            "chunk_id": "s1",
            "exit_code": 1,
            "output": "17:39:38 [ERROR] Error: listen EPERM: operation not permitted 127.0.0.1:4321\n",
        }
    )
    ready = json.dumps(
        {
            "chunk_id": "s2",
            "session_id": 9,
            "output": " astro  v6.4.6 ready in 7 ms\nLocal http://127.0.0.1:4321/\n",
        }
    )
    index = _rollout_index(tmp_path, [(cell, refused), (cell, ready)])
    assert index.ledger.errors and all(e.resolved for e in index.ledger.errors)


def test_a_run_s_counts_are_over_all_it_printed_across_its_polls(tmp_path: Path) -> None:
    # `go test ./...` prints two packages before its cell returns, the poll prints the last one.
    cell = (
        f'const r = await tools.exec_command({{cmd:"go test -race ./...","workdir":"{ROOT}"}});'
        " text(JSON.stringify(r))\n"
    )
    running = json.dumps(
        {
            "chunk_id": "r1",
            "session_id": 39705,
            "output": "ok  \texample.com/shop/cmd\t2.2s\nok  \texample.com/shop/bench\t1.7s\n",
        }
    )
    poll = (
        'const r = await tools.write_stdin({session_id:39705,chars:""}); text(JSON.stringify(r))\n'
    )
    ended = json.dumps(
        {"chunk_id": "r2", "exit_code": 0, "output": "ok  \texample.com/shop/sem\t87.1s\n"}
    )
    index = _rollout_index(tmp_path, [(cell, running), (poll, ended)])
    [report] = index.tests()
    assert (report.outcome, report.passed, report.unit) == ("passed", 3, "packages")
