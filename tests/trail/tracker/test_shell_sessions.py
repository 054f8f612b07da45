"""Shell semantics through whole hand-written sessions: what the trail says a Bash call changed."""

from __future__ import annotations

from pathlib import Path

from artifact_index.ingestion.events import (
    POLLED_COMMAND,
    FileOperation,
    SessionInfo,
    ToolCall,
    ToolResult,
)
from artifact_index.trail.build import build_index
from artifact_index.trail.file_reports import file_reports
from artifact_index.trail.tracker import Tracker

from .claude_bash import changed, transcript

WINDOWS = "C:\\Users\\dev\\source\\repos\\pruner"


def test_claude_code_bash_on_windows_is_bash_not_cmd(tmp_path: Path) -> None:
    # Claude Code's Bash tool runs Git Bash on Windows: `%` in a git format string
    # is no cmd.exe variable, `<`/`>` inside quotes no redirection, and `2>nul`
    # goes to the NUL device, while a real redirection still writes its file.
    files, unknown = changed(
        tmp_path,
        WINDOWS,
        [
            (
                "echo '== commit =='; git log -1 --format='%H%nauthor: %an <%ae>%ndate: %ad' abc1234",
                "== commit ==\nabc1234\nauthor: Dev <dev@example.com>\ndate: Mon",
            ),
            ("git branch --show-current 2>nul; ls -a > listing.txt", "main\n"),
        ],
    )
    assert files == {"listing.txt": "created"}
    assert unknown == []


def test_removing_a_file_the_session_pulled_deletes_nothing_that_was_there(tmp_path: Path) -> None:
    # `vercel env pull` wrote .env.check (its report says so), so the later `rm` takes away a
    # file of the session's own making: no file that predates the session was deleted.
    files, unknown = changed(
        tmp_path,
        "/home/dev/site",
        [
            (
                "npx vercel env pull .env.check --environment production 2>&1"
                " && grep API_URL .env.check",
                "Retrieving project…\nCreated .env.check file  [189ms]\nAPI_URL=https://x\n",
            ),
            ("rm -f .env.check", ""),
        ],
    )
    assert files == {".env.check": "reverted"}
    assert unknown == []


def test_a_fast_forward_brings_in_the_files_its_report_lists(tmp_path: Path) -> None:
    files, unknown = changed(
        tmp_path,
        "/home/dev/notes",
        [
            ("echo draft >> notes.md", ""),
            (
                "git stash push -u -- notes.md; git merge --ff-only origin/main; git stash pop",
                "Saved working directory and index state On main: wip\n"
                "Updating 1a2b3c4..5d6e7f8\nFast-forward\n"
                " src/graph.py | 21 ++++\n src/ingest.py |  2 +-\n"
                " 2 files changed, 22 insertions(+), 1 deletion(-)\n"
                " create mode 100644 src/graph.py\n"
                "On branch main\nChanges not staged for commit:\n\tmodified:   notes.md\n",
            ),
        ],
    )
    assert files == {"notes.md": "modified", "src/graph.py": "created", "src/ingest.py": "modified"}
    assert unknown == []


def test_a_new_branch_from_another_start_point_is_an_unknown_effect(tmp_path: Path) -> None:
    command = "git switch -c docs/config origin/main"
    files, unknown = changed(
        tmp_path,
        "/home/dev/notes",
        [(command, "Switched to a new branch 'docs/config'\n")],
    )
    assert files == {}
    assert [c for c, _ in unknown] == [command]


def test_a_read_of_a_file_that_is_not_there_is_no_read(tmp_path: Path) -> None:
    # The reader's complaint, or the words of a `|| echo` fallback that runs only when the
    # read failed, say no file was read; a read that printed its file still counts.
    path = tmp_path / "session.jsonl"
    path.write_text(
        transcript(
            "/home/dev/app",
            [
                ("cat missing.txt", "cat: missing.txt: No such file or directory"),
                (
                    "head -5 'gone.md'",
                    "head: cannot open 'gone.md' for reading: No such file or directory",
                ),
                (
                    'ls .conf && cat .conf/local.json 2>/dev/null || echo "(no local.json)"',
                    "base.json\n(no local.json)",
                ),
                ("cat notes.txt | grep todo || echo 'nothing to do'", "nothing to do"),
                ("cat present.txt 2>/dev/null || echo '(no present.txt)'", "hello"),
                # Each read tried in turn failed: the last fallback's words were printed.
                (
                    'cat .eslintrc.json 2>/dev/null || cat .eslintrc.js 2>/dev/null || echo "No eslintrc found"',
                    "No eslintrc found",
                ),
                (
                    'cat first.md 2>/dev/null || cat second.md 2>/dev/null || echo "none found"',
                    "# First",
                ),
                (
                    'cat token.json 2>/dev/null || env | grep -i token || echo "not found"',
                    "not found",
                ),
            ],
        ),
        encoding="utf-8",
    )
    index, _ = build_index(path)
    assert sorted(f.path for f in index.files() if f.status == "read") == [
        "first.md",
        "notes.txt",
        "present.txt",
    ]


def test_a_silenced_read_of_a_file_its_folder_listing_lacks_is_no_read(tmp_path: Path) -> None:
    # `ls docs` lists every file of docs: PLAN.md is not among them, so the silenced `cat` found
    # nothing to read (its complaint went to /dev/null).  A listed file read the same way counts.
    path = tmp_path / "session.jsonl"
    path.write_text(
        transcript(
            "/home/dev/app",
            [
                ("ls docs; cat docs/PLAN.md 2>/dev/null", "README.md\nusage.md"),
                ("ls -la notes && cat notes/todo.txt 2>/dev/null", "todo.txt\nbuy milk"),
                ("ls src; cat src/app.py 2>/dev/null", "main.py\nmain app"),
                # The listing is no part of the pipe: `ls && (cat | head)`.
                (
                    "ls .claude/ 2>/dev/null && cat .claude/mcp.json 2>/dev/null | head -5"
                    ' || echo "no mcp.json"',
                    "settings.json\nskills",
                ),
            ],
        ),
        encoding="utf-8",
    )
    index, _ = build_index(path)
    assert sorted(f.path for f in index.files() if f.status == "read") == ["notes/todo.txt"]


def test_a_silenced_read_of_a_file_its_own_ls_did_not_print_is_no_read(tmp_path: Path) -> None:
    # `ls FILE` prints FILE as it was given when it exists: here only another folder's
    # .gitignore was printed, so the silenced `cat` of the root one read nothing.  A file
    # `ls` did print, read the same way, counts.
    path = tmp_path / "session.jsonl"
    path.write_text(
        transcript(
            "/home/dev/app",
            [
                (
                    "ls /home/dev/app/.gitignore 2>/dev/null; cat /home/dev/app/.gitignore"
                    ' 2>/dev/null | head -20; echo "---"; ls /home/dev/app/reference/.gitignore',
                    "---\n/home/dev/app/reference/.gitignore\n",
                ),
                ("ls -la .env 2>/dev/null; cat .env 2>/dev/null", "-rw-r--r-- 1 u s 9 .env\nA=1\n"),
            ],
        ),
        encoding="utf-8",
    )
    index, _ = build_index(path)
    assert sorted(f.path for f in index.files() if f.status == "read") == [".env"]


def test_an_in_place_edit_of_a_file_that_is_not_there_changes_nothing(tmp_path: Path) -> None:
    # After `cd go`, `go/internal/run.go` names go/go/internal/run.go, which does not exist:
    # gofmt and sed say so, and no such file may be listed as modified.  The file the same
    # command did find is changed.
    files, _ = changed(
        tmp_path,
        "/home/dev/app",
        [
            (
                "cd go && gofmt -w go/internal/run.go internal/store.go",
                "lstat go/internal/run.go: no such file or directory",
            ),
            (
                "sed -i 's/a/b/' docs/gone.md",
                "sed: can't read docs/gone.md: No such file or directory",
            ),
            ("sed -i 's/a/b/' notes.txt", ""),
        ],
    )
    assert files == {"go/internal/store.go": "modified", "notes.txt": "modified"}


def test_a_created_file_is_told_with_the_command_that_created_it(tmp_path: Path) -> None:
    # A later `sed -i` only edited it: "created via sed -i ..." would name the wrong command.
    path = tmp_path / "session.jsonl"
    path.write_text(
        transcript(
            "/home/dev/app",
            [
                ("cat > /tmp/t.js <<'EOF'\nconst s = require('./a')\nEOF\nnode /tmp/t.js", ""),
                ("sed -i 's|./a|/home/dev/app/a|' /tmp/t.js && node /tmp/t.js", "ok"),
                ("echo one > notes.txt", ""),
                ("sed -i 's/one/two/' notes.txt", ""),
            ],
        ),
        encoding="utf-8",
    )
    index, _ = build_index(path)
    told = {r.path: (r.status, r.shell_command) for r in file_reports(index)}
    assert told["/tmp/t.js"][0] == "created"
    assert (told["/tmp/t.js"][1] or "").startswith("cat > /tmp/t.js")
    assert told["notes.txt"] == ("created", "echo one > notes.txt")


def test_a_download_a_later_command_finds_missing_wrote_nothing(tmp_path: Path) -> None:
    missing = "grep: opts.ts: No such file or directory"
    files, _ = changed(
        tmp_path,
        "/home/dev/app",
        [
            (
                'curl -sL --max-time 90 "https://example.test/raw/opts.ts" -o opts.ts;'
                " grep -n java opts.ts",
                missing,
            ),
            # Here grep looked before the download: the file was written after it.
            (
                "grep -n java page.ts; curl -sL https://example.test/page.ts -o page.ts",
                "grep: page.ts: No such file or directory",
            ),
            ("curl -sL https://example.test/b.ts -o b.ts; grep -n java b.ts", missing),
        ],
    )
    assert files == {"page.ts": "created", "b.ts": "created"}


def test_a_poll_of_a_running_command_reports_that_commands_run() -> None:
    """Codex gives `go test` back still running; the empty `write_stdin` that polls it gets its result."""
    command = "go test ./..."
    shell = FileOperation(action="shell", command=command, cwd="/repo", source="shell")
    events = [
        SessionInfo(turn=0, cwd="/repo"),
        ToolCall(
            turn=1,
            call_id="run",
            tool="exec_command",
            arguments={"cmd": command},
            operations=(shell,),
        ),
        ToolResult(
            turn=1, call_id="run", status="success", output="?   \tex.com/cmd\t[no test files]\n"
        ),
        ToolCall(
            turn=2,
            call_id="poll",
            tool="write_stdin",
            arguments={"session_id": 7, "chars": "", POLLED_COMMAND: command},
        ),
        ToolResult(
            turn=2,
            call_id="poll",
            status="success",
            output="ok  \tex.com/cli\t0.8s\nok  \tex.com/sem\t1.7s\n",
        ),
    ]
    tracker = Tracker(format="codex")
    tracker.feed_all(events)
    [status] = tracker.index.ledger.tests
    assert (status.command, status.turn) == (command, 2)
    assert (status.passed, status.unit) == (2, "packages")


def test_a_file_a_read_found_missing_then_a_folder_copy_brought_is_the_sessions_own() -> None:
    # The Read found no SKILL.md; `cp -r` then copied the whole skill folder into place, so the
    # SKILL.md read afterwards is a file the session made, not one that predates it.
    skill = "/repo/.claude/skills/setup/SKILL.md"
    copy = "cp -r /work/tree/.claude/skills/setup /repo/.claude/skills/setup && echo done"
    events = [
        SessionInfo(turn=0, cwd="/repo"),
        ToolCall(
            turn=1,
            call_id="r1",
            tool="Read",
            operations=(FileOperation(action="read", path=skill),),
        ),
        ToolResult(turn=1, call_id="r1", status="failure", output="File does not exist."),
        ToolCall(
            turn=2,
            call_id="cp",
            tool="Bash",
            operations=(FileOperation(action="shell", command=copy, cwd="/repo", source="shell"),),
        ),
        ToolResult(turn=2, call_id="cp", status="success", output="done\n"),
        ToolCall(
            turn=3,
            call_id="r2",
            tool="Read",
            operations=(FileOperation(action="read", path=skill),),
        ),
        ToolResult(turn=3, call_id="r2", status="success", output="     1\t# Setup\n"),
    ]
    index = Tracker(format="claude-code").feed_all(events)
    file = index.file_state(".claude/skills/setup/SKILL.md")
    assert file is not None and file.status == "created"
    [made] = [op for op in index.history(file.path) if op.action == "create"]
    assert (made.turn, made.command) == (
        2,
        "cp -r /work/tree/.claude/skills/setup /repo/.claude/skills/setup",
    )


def test_a_silenced_read_that_printed_nothing_is_no_read(tmp_path: Path) -> None:
    # The harness's own "Exit code 1" is not the command's output: the silenced `cat` of the
    # first file printed nothing and the `&&` chain stopped there.  After a marker the command
    # echoed, an output that ends with the marker shows the read after it printed nothing.
    path = tmp_path / "session.jsonl"
    path.write_text(
        transcript(
            "/home/dev/app",
            [
                (
                    "cat .entire/tmp/start 2>/dev/null && echo && cat .entire/tmp/active"
                    " 2>/dev/null && echo",
                    "Exit code 1",
                ),
                (
                    'cat config/importmap.rb; echo "---"; cat package.json 2>/dev/null | head -40',
                    'pin "application"\n---\n',
                ),
            ],
        ),
        encoding="utf-8",
    )
    index, _ = build_index(path)
    assert sorted(f.path for f in index.files() if f.status == "read") == ["config/importmap.rb"]


def test_a_modified_file_is_not_told_with_a_copy_of_it_made_elsewhere(tmp_path: Path) -> None:
    # `cp` read pyproject.toml to stage it: what it rests on is the `sed -i` that changed it.
    path = tmp_path / "session.jsonl"
    path.write_text(
        transcript(
            "/home/dev/app",
            [
                ("cat pyproject.toml", 'version = "1"\n'),
                ('sed -i \'s/"1"/"2"/\' pyproject.toml', ""),
                ("mkdir -p /tmp/ctx && cp pyproject.toml uv.lock /tmp/ctx/", ""),
            ],
        ),
        encoding="utf-8",
    )
    index, _ = build_index(path)
    told = {r.path: (r.status, r.shell_command) for r in file_reports(index)}
    assert told["pyproject.toml"] == ("modified", 'sed -i \'s/"1"/"2"/\' pyproject.toml')
    assert "uv.lock" not in told
