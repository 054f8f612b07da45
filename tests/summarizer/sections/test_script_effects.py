"""Files a script of the session's may have changed: read files it could reach are not told as unchanged.

Hand-written sessions: a migration script the session wrote loops over a glob and
rewrites what it finds, at paths the trail cannot name before it runs; a
``rm -rf`` with a wildcard folder removes the files the session read under it.
"""

from __future__ import annotations

from artifact_index.ingestion.events import (
    FileOperation,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
)
from artifact_index.trail.tracker import Tracker
from tests.support.session_steps import edit, read, section, shell, summary_of, write

MIGRATE = """from pathlib import Path

E2E = Path(__file__).parent.parent / "tests" / "e2e"

for conftest in E2E.glob("*/conftest.py"):
    text = conftest.read_text()
    (conftest.parent / "steps").mkdir(exist_ok=True)
    conftest.write_text(text.replace("@given", "# moved"))
"""


def test_a_read_file_the_sessions_script_could_rewrite_is_not_told_unchanged() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Move the step definitions out of the conftest files."),
        read(2, "/home/dev/shop/tests/e2e/cart/conftest.py", "@given('a cart')\ndef cart(): ..."),
        read(2, "/home/dev/shop/docs/TESTING.md", "# Testing"),
        read(2, "/home/dev/shop/tests/e2e/NOTES.txt", "run with -n 2"),
        write(3, "/home/dev/shop/scripts/migrate.py", MIGRATE),
        shell(4, "python scripts/migrate.py", "cart: 1 step moved\n"),
    )
    files = section(summary, "Files Read")
    assert (
        "- read, but `python scripts/migrate.py` (turn 4) writes files at paths computed at run "
        "time and may have changed or created them (not known): `tests/e2e/cart/conftest.py`"
    ) in files
    # Out of the script's reach: no literal of it names the file, its folder or a pattern of its name;
    # nor a file of another kind in a folder it names.
    assert "- `docs/TESTING.md`" in files
    assert "- `tests/e2e/NOTES.txt`" in files


def test_a_read_file_is_plain_when_no_script_wrote_at_computed_paths() -> None:
    summary = summary_of(
        read(2, "/home/dev/shop/tests/e2e/cart/conftest.py", "@given('a cart')\ndef cart(): ..."),
        shell(4, "pytest -q", "1 passed in 0.1s\n"),
    )
    assert "- `tests/e2e/cart/conftest.py`" in section(summary, "Files Read")


def test_rm_with_a_wildcard_folder_deletes_the_known_files_under_the_folders_it_matches() -> None:
    summary = summary_of(
        read(2, "/home/dev/shop/tests/e2e/cart/steps/given_a_cart.py", "def given_a_cart(): ..."),
        read(2, "/home/dev/shop/tests/e2e/cart/conftest.py", "import steps"),
        shell(3, "rm -rf tests/e2e/*/steps/"),
    )
    assert "`tests/e2e/cart/steps/given_a_cart.py` (deleted)" in section(summary, "Files Changed")
    assert "given_a_cart.py" not in section(summary, "Files Read")
    assert "- `tests/e2e/cart/conftest.py`" in section(summary, "Files Read")


def test_a_silenced_read_that_printed_nothing_is_not_a_read() -> None:
    summary = summary_of(
        shell(2, "cat src/extractor.ts 2>/dev/null | head -60", ""),
        read(3, "/home/dev/shop/src/cart.ts", "export const total = 1"),
    )
    files = section(summary, "Files Read")
    assert "extractor.ts" not in files and "- `src/cart.ts`" in files


def test_silenced_reads_between_echoed_markers_that_printed_only_the_markers_are_not_reads() -> (
    None
):
    # Each config looked for is missing: all the output shows is the separators echoed between.
    summary = summary_of(
        shell(
            2,
            'cat .mcp.json 2>/dev/null; echo "---"; cat /home/dev/.claude/mcp.json 2>/dev/null',
            "Exit code 1\n---\n",
            False,
        ),
        read(3, "/home/dev/shop/src/cart.ts", "export const total = 1"),
    )
    files = section(summary, "Files Read")
    assert "mcp.json" not in files and "- `src/cart.ts`" in files


def test_the_fallback_of_a_read_that_printed_is_not_a_read() -> None:
    summary = summary_of(
        shell(
            2,
            "cat dist/sitemap-0.xml 2>/dev/null || cat dist/sitemap.xml 2>/dev/null || echo none",
            '<?xml version="1.0"?>\n<urlset></urlset>\n',
        ),
    )
    files = section(summary, "Files Read")
    assert "- `dist/sitemap-0.xml`" in files and "`dist/sitemap.xml`" not in files


def test_cp_r_into_a_folder_a_read_found_missing_makes_that_folder() -> None:
    """`cp -r SRC DEST` with DEST missing copies SRC's files to DEST/..., not DEST/SRC/..."""
    summary = summary_of(
        read(1, "/home/dev/wt/skills/setup/SKILL.md", "# Setup"),
        [
            ToolCall(
                turn=2,
                call_id="missing",
                tool="Read",
                arguments={"file_path": "/home/dev/shop/skills/setup/SKILL.md"},
                operations=(
                    FileOperation(action="read", path="/home/dev/shop/skills/setup/SKILL.md"),
                ),
            ),
            ToolResult(turn=2, call_id="missing", status="failure", output="File does not exist."),
        ],
        shell(
            3, "cp -r /home/dev/wt/skills/setup /home/dev/shop/skills/setup && echo done", "done\n"
        ),
    )
    changed = section(summary, "Files Changed")
    assert "`skills/setup/SKILL.md`" in changed and "skills/setup/setup" not in changed


def test_a_stash_and_its_pop_are_not_what_changed_a_file() -> None:
    summary = summary_of(
        read(1, "/home/dev/shop/src/routes.py", "def route():\n    return 1\n"),
        edit(2, "/home/dev/shop/src/routes.py", "return 1", "return 2"),
        shell(3, "git stash && make lint", "Saved working directory and index state WIP on main\n"),
        shell(
            4,
            "git stash pop",
            "On branch main\nChanges not staged for commit:\n\tmodified:   src/routes.py\n",
        ),
    )
    changed = section(summary, "Files Changed")
    assert "`src/routes.py`" in changed and "git stash" not in changed


def test_a_comment_added_deep_in_a_fenced_block_is_no_heading() -> None:
    """The hunk shows no opening fence: the whole document says the `#` line is inside one."""
    body = "\n".join(f"kubectl get pods -n ns{n}" for n in range(8))
    doc = f"# Fleet\n\nSteps:\n\n```bash\n{body}\nkubectl apply -f x.yaml\n```\n\n## Notes\n"
    summary = summary_of(
        read(1, "/home/dev/shop/README.md", doc),
        edit(
            2,
            "/home/dev/shop/README.md",
            "kubectl apply -f x.yaml",
            "# deploy the studio last\nkubectl apply -f x.yaml",
        ),
    )
    changed = section(summary, "Files Changed")
    assert "`README.md`" in changed and "headings: `deploy the studio last`" not in changed


def test_a_silenced_read_whose_output_was_not_recorded_is_still_a_read() -> None:
    """A format that keeps no output (a git-ai note) cannot show that a read printed nothing."""
    command = "cat src/extractor.ts 2>/dev/null"
    index = Tracker(format="claude-code").feed_all(
        [
            SessionInfo(turn=0, cwd="/home/dev/shop"),
            ToolCall(
                turn=2,
                call_id="unrecorded",
                tool="Bash",
                arguments={"command": command},
                operations=(FileOperation(action="shell", command=command, source="shell"),),
            ),
            ToolResult(turn=2, call_id="unrecorded", status="unknown", output=""),
        ]
    )
    assert [f.path for f in index.files() if f.status == "read"] == ["src/extractor.ts"]


def test_a_file_first_seen_after_the_script_that_could_write_it_is_not_told_as_there_before() -> (
    None
):
    # The script makes a steps/ folder per service and writes its files; the agent then reads one
    # and rewrites it.  That file may be the script's: "modified" alone would say it predates the
    # session.  A file read before the script ran is known to have been there.
    summary = summary_of(
        UserMessage(turn=1, text="Move the step definitions out of the conftest files."),
        read(2, "/home/dev/shop/tests/e2e/cart/conftest.py", "@given('a cart')\ndef cart(): ..."),
        write(3, "/home/dev/shop/scripts/migrate.py", MIGRATE + 'STEP = "__init__.py"\n'),
        shell(4, "python scripts/migrate.py", "cart: 1 step moved\n"),
        read(5, "/home/dev/shop/tests/e2e/cart/steps/__init__.py", '"""Steps."""\n'),
        write(6, "/home/dev/shop/tests/e2e/cart/steps/__init__.py", '"""Cart steps."""\n'),
        edit(7, "/home/dev/shop/tests/e2e/cart/conftest.py", "@given", "# moved"),
    )
    modified = section(summary, "Files Changed")
    assert (
        "first seen after `python scripts/migrate.py` (turn 4), which writes files at paths computed"
        " at run time and may have created it: whether it was there before the session is not known"
    ) in next(line for line in modified.splitlines() if "steps/__init__.py" in line)
    assert "may have created it" not in next(
        line for line in modified.splitlines() if "cart/conftest.py" in line
    )


def test_a_read_file_a_later_command_said_it_may_rewrite_is_not_told_unchanged() -> None:
    # `go mod tidy` may rewrite go.mod and go.sum; nothing after it showed whether it did.
    summary = summary_of(
        read(2, "/home/dev/shop/go.mod", "module shop\n\ngo 1.24\n"),
        read(2, "/home/dev/shop/main.go", "package main\n"),
        shell(3, "go mod tidy 2>&1", ""),
    )
    files = section(summary, "Files Read")
    assert (
        "- read, but `go mod tidy` (turn 3) may have rewritten them after their last read "
        "(not known): `go.mod`" in files
    )
    assert "- `main.go`" in files
    # Read after it, the file is as that read showed it.
    after = section(
        summary_of(
            shell(2, "go mod tidy 2>&1", ""),
            read(3, "/home/dev/shop/go.mod", "module shop\n\ngo 1.24\n"),
        ),
        "Files Read",
    )
    assert "may have rewritten" not in after and "`go.mod`" in after


def test_a_read_file_put_back_as_git_holds_it_is_not_told_unchanged() -> None:
    # A stash pop left a conflict in the ledger the agent read; it then took HEAD's copy. What the
    # file held that git does not is gone, and whether it held any is not known: not "unchanged".
    # A read after the restore, in the same command, shows it as it now is.
    summary = summary_of(
        read(2, "/home/dev/shop/docs/ledger.md", "<<<<<<< Updated upstream\nA\n=======\nB\n"),
        read(2, "/home/dev/shop/docs/notes.md", "notes\n"),
        shell(3, "git restore --source=HEAD --staged --worktree docs/ledger.md", ""),
        shell(4, "git checkout -- docs/notes.md && cat docs/notes.md", "notes\n"),
    )
    files = section(summary, "Files Read")
    line = next(line for line in files.splitlines() if "ledger.md" in line)
    assert line.startswith("- read, but `git restore --source=HEAD --staged --worktree") and (
        "may have rewritten them after their last read (not known)" in line
    )
    assert "- `docs/notes.md`" in files


def test_golden_files_a_test_run_regenerated_are_not_told_unchanged() -> None:
    # `go test -update` writes the expected output of each test at a path the test computes: the
    # golden files the session then reads may be that run's work; a fixture the tests read is not.
    summary = summary_of(
        UserMessage(turn=1, text="Add golden snapshots for the provider."),
        shell(
            2,
            "go test ./internal/sem -run TestGolden -update",
            "ok  \texample/internal/sem\t0.9s\n",
        ),
        read(3, "/home/dev/shop/internal/sem/testdata/go-basic.ndjson.golden", '{"a": 1}'),
        read(3, "/home/dev/shop/internal/sem/testdata/go-basic/auth.go", "package auth"),
        read(3, "/home/dev/shop/internal/other/testdata/b.golden", "x"),
        shell(4, "go test ./...", "ok  \texample/internal/sem\t0.9s\n"),
    )
    files = section(summary, "Files Read")
    assert (
        "- read, but `go test ./internal/sem -run TestGolden -update` (turn 2) writes files at "
        "paths computed at run time and may have changed or created them (not known): "
        "`internal/sem/testdata/go-basic.ndjson.golden`"
    ) in files
    # Not a golden file, or not under the package the run tested: plainly read.
    assert "- `internal/sem/testdata/go-basic/auth.go`" in files
    assert "- `internal/other/testdata/b.golden`" in files


def test_a_test_run_that_does_not_update_its_snapshots_writes_none() -> None:
    summary = summary_of(
        shell(2, "npx jest src/cart", "Tests: 3 passed, 3 total\n"),
        read(3, "/home/dev/shop/src/cart/__snapshots__/cart.test.ts.snap", "exports[`a`] = 1;"),
    )
    assert "- `src/cart/__snapshots__/cart.test.ts.snap`" in section(summary, "Files Read")
