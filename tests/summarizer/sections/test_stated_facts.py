"""Facts the hook states that a careful reader of the transcript would call false, one class a test.

Each hand-written session is shaped like the real one the class was seen in:
a call with no result recorded, an error whose failing step ran again, ...
"""

from __future__ import annotations

from artifact_index.ingestion.events import Event, FileOperation, SessionInfo, ToolCall, ToolResult
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.tracker import Tracker
from summarizer.integrations.hooks import file_trail_context
from summarizer.sections.session_facts import session_facts
from tests.support.session_steps import ROOT, edit, read, shell, write


def _index(*steps: list[Event] | Event) -> ArtifactIndex:
    events: list[Event] = [SessionInfo(turn=0, cwd=ROOT)]
    for step in steps:
        events += step if isinstance(step, list) else [step]
    return Tracker(format="claude-code").feed_all(events)


def _section(index: ArtifactIndex, title: str) -> str:
    hook = file_trail_context(session_facts(index))
    return hook.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0] if f"## {title}\n" in hook else ""


# --- a call with no result recorded, and what it cannot change ------------------------------------


def _issued(turn: int, tool: str, action: str, path: str, **change: str) -> ToolCall:
    """A call the transcript holds no result for (the session was cut, or the result was lost)."""
    return ToolCall(
        turn=turn,
        call_id=f"pending-{turn}",
        tool=tool,
        arguments={"file_path": path},
        operations=(FileOperation(action=action, path=path, **change),),  # type: ignore[arg-type]
    )


def test_a_read_still_waiting_for_its_output_leaves_a_changed_file_as_seen() -> None:
    readme = f"{ROOT}/packaging/README.md"
    index = _index(
        write(1, readme, "These templates are rendered into the tap repo\n"),
        edit(2, readme, "tap repo", "external tap repo"),
        _issued(3, "Read", "read", readme),
    )

    modified = _section(index, "Files created")
    assert "`packaging/README.md`" in modified
    assert "state now is unknown" not in modified
    assert "- `Read` of `packaging/README.md` (turn 3)" in _section(
        index, "Issued, result not recorded (effect unknown)"
    )


def test_an_edit_with_no_result_then_a_read_of_the_file_says_the_file_was_seen_after_it() -> None:
    source = f"{ROOT}/src/bookmark.rs"
    index = _index(
        write(1, source, 'fn delete() { notify("Delete bookmarks") }\n'),
        _issued(
            2, "Edit", "edit", source, old="Delete bookmarks", new="Failed to delete bookmarks"
        ),
        read(3, source, 'fn delete() { notify("Failed to delete bookmarks") }\n'),
    )

    assert "state now is unknown" not in _section(index, "Files created")
    assert "- `Edit` of `src/bookmark.rs` (turn 2; read again at turn 3, after it)" in _section(
        index, "Issued, result not recorded (effect unknown)"
    )


def test_an_edit_with_no_result_and_nothing_after_it_leaves_the_file_unknown() -> None:
    source = f"{ROOT}/src/bookmark.rs"
    index = _index(
        write(1, source, 'fn delete() { notify("Delete bookmarks") }\n'),
        _issued(
            2, "Edit", "edit", source, old="Delete bookmarks", new="Failed to delete bookmarks"
        ),
    )

    assert "state now is unknown" in _section(index, "Files created")


# --- an error whose failing step ran again, word for word, in a later command that succeeded -----

_DECLARE = (
    "===== DRY RUN =====\n./sync-skills.sh: line 82: declare: -A: invalid option\n"
    "declare: usage: declare [-afFirtx] [-p] [name[=value] ...]\n"
)


def test_a_script_error_is_resolved_when_the_same_step_runs_again_and_succeeds() -> None:
    script = f"{ROOT}/sync-skills.sh"
    index = _index(
        write(1, script, "#!/bin/bash\ndeclare -A CHOSEN=()\n"),
        shell(
            2,
            f"cd {ROOT}\nchmod +x sync-skills.sh\necho '===== DRY RUN ====='\n"
            "./sync-skills.sh --dry-run --quiet",
            _DECLARE,
            False,
        ),
        edit(3, script, "declare -A CHOSEN=()\n", 'CHOSEN="$(mktemp)"\n'),
        shell(
            4,
            f"cd {ROOT}\necho '== all =='; ./sync-skills.sh --dry-run --quiet",
            "DRY RUN — nothing written.\nSkills found: 613\n",
        ),
    )

    [error] = index.errors()
    assert error.resolved and error.resolved_turn == 4
    errors = _section(index, "Errors")
    assert "not seen resolved" not in errors and "the session went on" not in errors


def test_a_script_error_stays_open_when_only_another_step_of_its_command_succeeds() -> None:
    index = _index(
        shell(2, "chmod +x sync-skills.sh && ./sync-skills.sh --dry-run", _DECLARE, False),
        shell(4, "chmod +x sync-skills.sh && echo ./sync-skills.sh --dry-run", "ok\n"),
    )

    [error] = index.errors()
    assert not error.resolved


# --- a fence of four backticks holding fences of three ---------------------------------------------


def test_headings_inside_a_longer_fence_are_not_the_documents_headings() -> None:
    prompt = (
        "# Prompt: turn a project into a plugin\n\nCopy the block below.\n\n"
        "````\n/prompt-engineering\n\n## Research first\n\n```bash\n# list the skills\nls\n```\n\n"
        "## Then build\n\n### Steps\n````\n\n## Why it works\n"
    )
    index = _index(write(1, f"{ROOT}/0-main/PROJECT-TO-PLUGIN.md", prompt))

    created = _section(index, "Files created")
    assert (
        "- `0-main/PROJECT-TO-PLUGIN.md`: headings: `Prompt: turn a project into a plugin`, "
        "`Why it works`" in created
    )
    assert "Research first" not in created and "Then build" not in created


# --- a PowerShell script its parser refused ran nothing ----------------------------------------------


def test_a_powershell_script_refused_by_its_parser_reads_no_heredoc_marker() -> None:
    command = (
        "cd C:\\Users\\dev\\shop\ngit add docs/log.md\ngit commit -q -F - << 'EOF'\n"
        "retro: what the drill caught\nEOF"
    )
    refused = (
        "Exit code 1\nParserError: \r\nLine |\r\n   3 |  git commit -q -F - << 'EOF'\r\n"
        "     |                      ~\r\n     | Missing file specification after redirection operator."
    )
    events: list[Event] = [
        SessionInfo(turn=0, cwd="C:\\Users\\dev\\shop"),
        ToolCall(
            turn=1,
            call_id="ps1",
            tool="PowerShell",
            arguments={"command": command},
            operations=(
                FileOperation(
                    action="shell", command=command, source="shell", dialect="powershell"
                ),
            ),
        ),
        ToolResult(turn=1, call_id="ps1", status="failure", failure="exit_status", output=refused),
    ]
    index = Tracker(format="claude-code").feed_all(events)

    assert [f.path for f in index.files()] == []


# --- the quoted error is the failure, not what earlier steps printed --------------------------------


def test_a_powershell_error_record_is_quoted_not_the_output_of_the_steps_that_succeeded() -> None:
    output = (
        "Exit code 1\n#2 added to project 6 (item id PVTI_x).\n#2 -> Todo\n"
        "Unknown status 'Backlog'. Valid values: Done, In Progress, Todo\r\n"
        "At C:\\Users\\dev\\shop\\scripts\\Board.psm1:58 char:5\r\n"
        "+     throw \"Unknown status '$StatusName'.\"\r\n+     ~~~~~~~~~~~~\r\n"
        "    + CategoryInfo          : OperationStopped: (Unknown status ...:String) [], RuntimeException"
    )
    index = _index(
        shell(1, "./scripts/board.ps1 add 2 Todo; ./scripts/board.ps1 add 3 Backlog", output, False)
    )

    [error] = index.errors()
    assert error.message == "Unknown status 'Backlog'. Valid values: Done, In Progress, Todo"


# --- several issues created by one command --------------------------------------------------------


def test_each_issue_created_in_one_command_gets_its_own_title() -> None:
    command = (
        f"cd {ROOT}\n"
        'gh issue create --repo dev/shop --label "area:tooling" --title "board.ps1 header is stale" '
        '--body "It names another project."\necho "---"\n'
        'gh issue create --repo dev/shop --label "area:process" --title "No area labels existed" '
        '--body "Labels were missing."'
    )
    output = "https://github.com/dev/shop/issues/2\n---\nhttps://github.com/dev/shop/issues/3\n"
    index = _index(shell(1, command, output))

    tasks = _section(index, "Open tasks")
    assert "`dev/shop#2` board.ps1 header is stale" in tasks
    assert "`dev/shop#3` No area labels existed" in tasks


# --- commits made from Git Bash in a Windows workspace, with a heredoc message --------------------


def test_a_quiet_heredoc_commit_from_git_bash_is_the_workspaces_commit() -> None:
    root = "C:\\Users\\dev\\shop"
    command = (
        "cd /c/Users/dev/shop\ngit add docs/setup.md\n"
        "git commit -q -m \"$(cat <<'EOF'\ndocs: setup - branch protection shipped\n\n"
        'The order moved to ready now.\nEOF\n)"\ngit log --oneline -1'
    )
    events: list[Event] = [
        SessionInfo(turn=0, cwd=root),
        *write(1, f"{root}\\docs\\setup.md", "# Setup\n"),
        *shell(2, command, "aeb42a0 docs: setup - branch protection shipped\n"),
    ]
    index = Tracker(format="claude-code").feed_all(events)
    facts = session_facts(index)

    assert [(c.hash, sorted(c.files or ())) for c in facts.work.commits] == [
        ("aeb42a0", ["docs/setup.md"])
    ]
    assert facts.work.uncommitted == []


def test_a_quiet_heredoc_commit_is_confirmed_by_the_log_line_of_its_subject() -> None:
    command = (
        "git add src/cart.py && git commit -q -m \"$(cat <<'EOF'\nfix: round the cart total\n\n"
        'Body.\nEOF\n)" && git log --oneline -1'
    )
    index = _index(
        write(1, f"{ROOT}/src/cart.py", "def total(): ...\n"),
        shell(2, command, "4f2a9c1 fix: round the cart total\n"),
    )

    assert [c.hash for c in session_facts(index).work.commits] == ["4f2a9c1"]


def test_git_bash_and_powershell_spellings_of_the_workspace_are_one_repository() -> None:
    root = "C:\\Users\\dev\\shop"
    events: list[Event] = [
        SessionInfo(turn=0, cwd=root),
        *write(1, f"{root}\\src\\cart.py", "def total(): ...\n"),
        *shell(
            2,
            "cd /c/Users/dev/shop && git add -A && git commit -m 'fix: cart'",
            "[dev 4f2a9c1] fix: cart\n",
        ),
    ]
    facts = session_facts(Tracker(format="claude-code").feed_all(events))

    assert [c.hash for c in facts.work.commits] == ["4f2a9c1"]
    assert facts.work.uncommitted == []


# --- a git step that refused as a whole in the middle of a chain ------------------------------------


def test_a_stash_pop_git_refused_mid_chain_touched_no_file() -> None:
    refused = (
        "Exit code 1\nerror: Your local changes to the following files would be overwritten by merge:\n"
        "\t.claude/settings.local.json\nPlease commit your changes or stash them before you merge.\n"
        "Aborting\nOn branch main\nChanges not staged for commit:\n"
        "\tmodified:   .claude/settings.local.json\n\tmodified:   .gitignore\n\n"
        "The stash entry is kept in case you need it again.\n"
    )
    index = _index(
        write(1, f"{ROOT}/code/train.py", "train(num_epochs=15)\n"),
        edit(1, f"{ROOT}/code/GetData.py", "DATA = 'data'", "DATA = os.path.join(ROOT, 'data')"),
        shell(
            1,
            "git stash 2>&1",
            "Saved working directory and index state WIP on main: c73dcc7 docs\n",
        ),
        shell(
            2,
            'echo "checkpoint.pth" >> .gitignore && git stash pop 2>&1 && git add .gitignore '
            '&& git commit -m "fix: ignore training outputs" 2>&1',
            refused,
            False,
        ),
    )

    files = _section(index, "Files created") + _section(index, "Files modified")
    assert "- `code/train.py`: first lines: `train(num_epochs=15)`" in files
    assert "stash" not in files
    assert "`code/GetData.py`: via `git stash 2>&1`" in _section(
        index, "Files changed, then put back (no net change seen)"
    )


# --- going back to HEAD leaves what a commit holds ----------------------------------------------------


def test_a_stash_after_a_commit_puts_back_only_the_uncommitted_changes() -> None:
    index = _index(
        edit(1, f"{ROOT}/code/train.py", "num_epochs=5", "num_epochs=15"),
        shell(
            2,
            "git add code/train.py && git commit -m 'train longer'",
            "[main 4f2a9c1] train longer\n",
        ),
        edit(3, f"{ROOT}/README.md", "old", "new"),
        shell(
            4,
            "git stash 2>&1",
            "Saved working directory and index state WIP on main: 4f2a9c1 train longer\n",
        ),
    )

    put_back = _section(index, "Files changed, then put back (no net change seen)")
    assert "`README.md`" in put_back
    assert "train.py" not in put_back
    assert "- `code/train.py`" in _section(index, "Files modified")


# --- a line the change only moved or re-indented is not replaced by another ---------------------------

_INIT_BEFORE = """package auth

func (ja *JWTSessionAuthenticator) Init() error {
\tif pubKey := os.Getenv("CROSS_LOGIN_JWT_HS512_KEY"); pubKey != "" {
\t\tbytes, err := base64.StdEncoding.DecodeString(pubKey)
\t\tif err != nil {
\t\t\treturn err
\t\t}
\t\tja.loginTokenKey = bytes
\t}
\treturn nil
}
"""
_INIT_AFTER = """package auth

func (ja *JWTSessionAuthenticator) Init() error {
\tpubKey := os.Getenv("CROSS_LOGIN_JWT_HS512_KEY")
\tif pubKey == "" {
\t\treturn errors.New("no login key")
\t}
\tbytes, err := base64.StdEncoding.DecodeString(pubKey)
\tif err != nil {
\t\treturn err
\t}
\tja.loginTokenKey = bytes
\treturn nil
}
"""


def test_a_re_indented_line_is_not_paired_with_the_line_that_took_its_place() -> None:
    path = f"{ROOT}/internal/auth/jwtSession.go"
    index = _index(
        read(1, path, _INIT_BEFORE),
        edit(2, path, _INIT_BEFORE.split("\n", 2)[2], _INIT_AFTER.split("\n", 2)[2]),
    )

    modified = _section(index, "Files modified")
    assert "`JWTSessionAuthenticator.Init` modified" in modified
    assert "DecodeString(pubKey)` →" not in modified
    assert "DecodeString" not in modified


# --- a file read twice with other content, the session having changed nothing -------------------------


def test_a_file_whose_reads_differ_is_not_listed_as_plainly_unchanged() -> None:
    config = f"{ROOT}/.tts/config.md"
    index = _index(
        read(1, config, '---\nnotify: "y"\n---\n'),
        shell(2, "echo 'set_config voice charlie (an MCP server writes the file)'"),
        read(3, config, '---\nnotify: "y"\nvoice: "charlie"\n---\n'),
        read(4, f"{ROOT}/README.md", "# Shop\n"),
        read(5, f"{ROOT}/README.md", "# Shop\n"),
    )

    files = _section(index, "Files read (unchanged)")
    assert (
        "- `.tts/config.md` (its read at turn 3 showed other content than an earlier read: "
        "something the calls seen do not show changed it)" in files
    )
    assert "- `README.md`\n" in files + "\n"


# --- a status printed after a change says whether HEAD holds it ---------------------------------------


def test_a_stash_leaves_a_file_a_later_status_shows_committed() -> None:
    index = _index(
        edit(1, f"{ROOT}/code/qformer.py", "layers = 2", "layers = 4"),
        shell(2, "git add -A && git commit -F notes/msg.txt", ""),
        shell(3, "git status -s 2>&1", " M .claude/settings.local.json\n"),
        shell(
            4,
            "git stash 2>&1",
            "Saved working directory and index state WIP on main: c73dcc7 docs\n",
        ),
    )

    assert "qformer.py" not in _section(index, "Files changed, then put back (no net change seen)")
    assert "- `code/qformer.py`" in _section(index, "Files modified")


# --- a line paired by its first word alone is paired within its own block of changes ---------------

_WRITER_BEFORE = """package store

func sortRows(rows []Row) {
\tsort.Slice(rows, func(i, j int) bool {
\t\treturn rows[i].Timestamp < rows[j].Timestamp
\t})
}

func newWriter() *Writer {
\tpanic("todo")
}
"""
_WRITER_AFTER = """package store

func newWriter() *Writer {
\treturn &Writer{
\t\tbatch: make([]Row, 0, 1024),
\t}
}
"""


def test_a_return_removed_in_another_definition_is_not_what_a_new_return_replaced() -> None:
    path = f"{ROOT}/store/writer.go"
    index = _index(
        read(1, path, _WRITER_BEFORE),
        edit(2, path, _WRITER_BEFORE.split("\n", 2)[2], _WRITER_AFTER.split("\n", 2)[2]),
    )

    modified = _section(index, "Files modified")
    assert "`newWriter` modified" in modified
    assert "Timestamp" not in modified


# --- commits a PowerShell session makes --------------------------------------------------------------


def test_a_powershell_commit_with_a_here_string_message_is_the_workspaces_commit() -> None:
    root = "C:\\Users\\dev\\shop"
    command = (
        f"cd {root}\ngit add docs/friction-log.md\n"
        "git commit -q -m @'\nretro: the drill's catches\n\nThree findings.\n'@\ngit log --oneline -1"
    )
    events: list[Event] = [
        SessionInfo(turn=0, cwd=root),
        *write(1, f"{root}\\docs\\friction-log.md", "# Friction\n"),
        ToolCall(
            turn=2,
            call_id="ps2",
            tool="PowerShell",
            arguments={"command": command},
            operations=(
                FileOperation(
                    action="shell", command=command, source="shell", dialect="powershell"
                ),
            ),
        ),
        ToolResult(
            turn=2, call_id="ps2", status="success", output="8f82464 retro: the drill's catches\n"
        ),
    ]
    facts = session_facts(Tracker(format="claude-code").feed_all(events))

    assert [(c.hash, sorted(c.files or ())) for c in facts.work.commits] == [
        ("8f82464", ["docs/friction-log.md"])
    ]
    assert facts.work.uncommitted == []


# --- what the hook leaves out is counted in what it counts ---------------------------------------------


def test_calls_left_out_are_counted_as_calls_not_lines() -> None:
    issued = [
        ToolCall(
            turn=n,
            call_id=f"web{n}",
            tool="WebFetch",
            arguments={"url": f"https://example.com/{n}"},
            operations=(),
        )
        for n in range(1, 31)
    ]
    index = _index(
        *[write(0, f"{ROOT}/src/m{n}.py", f"x = {n}\n" * 40) for n in range(60)], *issued
    )

    hook = file_trail_context(session_facts(index), limit=2500)
    note = hook.rsplit("(Left out", 1)[-1]
    shown = _section(index, "Issued, result not recorded (effect unknown)")
    assert "calls with no result" in note
    left = int(note.split(" calls with no result")[0].rsplit(" ", 1)[-1])
    listed = hook.count("`WebFetch`")
    earlier = sum(
        int(line.split()[1])
        for line in hook.splitlines()
        if line.startswith("- ") and "earlier call(s)" in line
    )
    assert listed + earlier + left == 30, (shown, note)


def test_a_file_a_status_showed_clean_stays_committed_after_a_commit_of_unknown_files() -> None:
    index = _index(
        edit(1, f"{ROOT}/code/qformer.py", "layers = 2", "layers = 4"),
        shell(2, "git add -A && git commit -F notes/msg.txt", ""),
        shell(3, "git status -s 2>&1", " M .claude/settings.local.json\n"),
        edit(4, f"{ROOT}/.gitignore", "venv/", "venv/\ncheckpoint.pth"),
        shell(
            5,
            "git add $(cat changed.txt) && git commit -m 'ignore outputs' 2>&1",
            "[main fb27f61] ignore outputs\n",
        ),
        edit(6, f"{ROOT}/README.md", "old", "new"),
    )

    uncommitted = session_facts(index).work.uncommitted
    assert "code/qformer.py" not in uncommitted and "README.md" in uncommitted


# --- a file the session made and then deleted is gone, not put back ------------------------------------


def test_a_file_created_then_deleted_is_said_to_be_gone_not_put_back() -> None:
    index = _index(
        write(1, f"{ROOT}/notes/scratch.py", "print('try')\n"),
        shell(2, "git rm -f notes/scratch.py 2>&1", "rm 'notes/scratch.py'\n"),
    )

    put_back = _section(index, "Files changed, then put back (no net change seen)")
    assert (
        "- `notes/scratch.py`: created (turn 1), deleted (turn 2, by "
        "`git rm -f notes/scratch.py 2>&1`); it does not exist now"
    ) in put_back


def test_a_made_file_written_again_before_its_deletion_was_rewritten_not_created_twice() -> None:
    index = _index(
        write(1, f"{ROOT}/zz_debug_test.go", "package sem\n"),
        write(3, f"{ROOT}/zz_debug_test.go", "package sem\n\nfunc TestDebug() {}\n"),
        shell(4, "rm zz_debug_test.go", ""),
    )

    put_back = _section(index, "Files changed, then put back (no net change seen)")
    assert (
        "- `zz_debug_test.go`: created (turn 1), rewritten (turn 3), deleted (turn 4, by "
        "`rm zz_debug_test.go`); it does not exist now"
    ) in put_back


def test_a_file_made_deleted_and_there_again_unseen_is_not_credited_to_its_first_maker() -> None:
    index = _index(
        shell(1, "printf 'X=1\\n' > .env.local && cat .env.local && rm -f .env.local", "X=1\n"),
        shell(2, "cat .env.local", "API_URL=https://example.test\n"),
        shell(3, "echo 'DEBUG=1' >> .env.local"),
    )

    created = _section(index, "Files created")
    assert (
        "- `.env.local`: created (turn 1), deleted (turn 1); there again at turn 2, though no"
        " call of the session is seen making it; changed since (turn 3)"
    ) in created
    assert "printf" not in created


def test_a_file_made_again_by_a_call_after_its_deletion_rests_on_that_call() -> None:
    index = _index(
        shell(1, "printf 'X=1\\n' > .env.local && rm -f .env.local"),
        shell(2, "printf 'Y=2\\n' > .env.local"),
    )

    created = _section(index, "Files created")
    assert "`.env.local`" in created
    assert "printf 'Y=2" in created
    assert "X=1" not in created


# --- a file the session edited after a pull changed it rests on the edit, not on the pull --------------


def test_a_file_edited_after_a_pull_changed_it_is_not_credited_to_the_pull() -> None:
    pulled = (
        "Updating a1b2c3d..e4f5a6b\nFast-forward\n src/app.py | 2 +-\n"
        " 1 file changed, 1 insertion(+), 1 deletion(-)\n"
    )
    index = _index(
        shell(1, "git pull origin main", pulled),
        edit(2, f"{ROOT}/src/app.py", "bootstrap()\n", ""),
    )

    modified = _section(index, "Files modified")
    assert "`src/app.py`" in modified
    assert "git pull" not in modified


# --- a path the transcript redacted stands for several files ----------------------------------------------


def test_a_redacted_path_is_neither_said_created_or_modified_nor_changed_unseen() -> None:
    # Two files hidden under one name: reads of each differ, a write creates the second.
    redacted = f"{ROOT}/REDACTED.swift"
    index = _index(
        read(1, redacted, "struct KeyManager {}\n"),
        read(2, redacted, "struct OpenAIClient {}\n"),
        write(3, f"{ROOT}/docs/REDACTED.md", "# Contributing\n"),
        read(4, f"{ROOT}/docs/REDACTED.md", "# Agent guidelines\n"),
    )
    hook = file_trail_context(session_facts(index))
    read_line = next(line for line in hook.splitlines() if "`REDACTED.swift`" in line)
    assert "several files may share it" in read_line
    assert "showed other content" not in read_line
    changed_line = next(line for line in hook.splitlines() if "`docs/REDACTED.md`" in line)
    assert (
        "whether each was created or changed, and what changed in each, is not known"
        in changed_line
    )


# --- files a status lists that no call seen changed are not left out of the count ------------------------


def test_files_a_status_lists_beyond_the_trails_changes_are_said_beside_its_count() -> None:
    status = (
        "On branch main\nChanges not staged for commit:\n"
        "\tmodified:   .beads/config.yaml\n\tmodified:   .beads/metadata.json\n\tmodified:   AGENTS.md\n\n"
        'no changes added to commit (use "git add" and/or "git commit -a")\n'
    )
    index = _index(
        edit(1, f"{ROOT}/src/app.py", "a = 1\n", "a = 2\n"),
        shell(
            2,
            "git add src/app.py && git commit -m 'bump'",
            "[main 3a5bc20] bump\n 1 file changed\n",
        ),
        shell(3, "bd init --force", "Added agent instructions to AGENTS.md\n"),
        edit(4, f"{ROOT}/.beads/config.yaml", "sync: false\n", "sync: true\n"),
        shell(5, "git status", status),
    )

    tasks = _section(index, "Open tasks")
    assert (
        "1 changed file(s) not committed (the last commit: `3a5bc20`, turn 2): `.beads/config.yaml`"
        in tasks
    )
    assert (
        "`git status` at turn 5 also listed 2 changed file(s) no call seen changed: "
        "`.beads/metadata.json`, `AGENTS.md`"
    ) in tasks


def test_files_a_status_lists_after_a_project_formatter_are_not_said_changed_by_no_call() -> None:
    status = (
        "On branch main\nChanges not staged for commit:\n\tmodified:   src/config.rs\n\n"
        'no changes added to commit (use "git add" and/or "git commit -a")\n'
    )
    index = _index(
        edit(1, f"{ROOT}/src/app.rs", "a = 1\n", "a = 2\n"),
        shell(2, "cargo fmt", ""),
        shell(
            3,
            "git add src/app.rs && git commit -m 'bump'",
            "[main 3a5bc20] bump\n 1 file changed\n",
        ),
        edit(4, f"{ROOT}/src/app.rs", "a = 2\n", "a = 3\n"),
        shell(
            4,
            "git status",
            status.replace("modified:   src", "modified:   src/app.rs\n\tmodified:   src"),
        ),
    )

    tasks = _section(index, "Open tasks")
    assert (
        "`git status` at turn 4 also listed 1 changed file(s) no call seen changed by name "
        "(`cargo fmt`, turn 2, may have changed files it did not name): `src/config.rs`"
    ) in tasks


def test_files_a_pull_brought_in_then_a_switch_left_behind_are_not_said_to_be_in_the_tree() -> None:
    pulled = (
        "Updating a1b2c3d..e4f5a6b\nFast-forward\n README.md | 2 +-\n"
        " 1 file changed, 1 insertion(+), 1 deletion(-)\n"
    )
    index = _index(
        shell(1, "git pull", pulled),
        shell(2, "git checkout feat/login", "Switched to branch 'feat/login'\n"),
    )

    assert _section(index, "Files modified") == (
        "- 1 file(s) `git pull` brought in (turn 1), left on the branch the session switched away"
        " from at turn 2 (to `feat/login`); not changes of the working tree now: `README.md`"
        " (modified)\n"
    )


def test_a_file_moved_away_and_back_is_put_back_and_its_stash_copy_said_moved_on() -> None:
    index = _index(
        shell(1, "mkdir -p /tmp/stash && mv PLAN.md /tmp/stash/"),
        shell(2, "mv /tmp/stash/PLAN.md ."),
    )

    put_back = _section(index, "Files changed, then put back (no net change seen)")
    assert "- `PLAN.md`" in put_back
    assert (
        "- `/tmp/stash/PLAN.md`: moved here from `PLAN.md` (turn 1), moved away again (turn 2, by"
        " `mv /tmp/stash/PLAN.md .`); it does not exist now"
    ) in put_back
    assert _section(index, "Files modified") == ""


def test_a_file_edited_then_formatted_rests_on_the_edit_not_on_the_formatter() -> None:
    index = _index(
        read(1, f"{ROOT}/cmd/root.go", "package cli\n"),
        edit(2, f"{ROOT}/cmd/root.go", "package cli\n", "package cli\n\nvar verbose bool\n"),
        shell(3, "gofmt -w cmd/root.go && go build ./..."),
        shell(4, "bin/rubocop -a app/models/user.rb", "Inspecting 1 file\n"),
    )

    modified = _section(index, "Files modified")
    root = next(line for line in modified.splitlines() if "cmd/root.go" in line)
    assert "gofmt" not in root
    # A file only a formatter ran on is said with it, and with what is not known.
    assert (
        "- `app/models/user.rb`: via `bin/rubocop -a app/models/user.rb`; a formatter's run on it,"
        " which may have left it as it was"
    ) in modified


def test_a_status_behind_a_wrapper_is_a_status() -> None:
    # A token-saving proxy runs git: its status listing the deleted file shows it there again.
    index = _index(
        read(1, f"{ROOT}/docs/tracing.md", "# Tracing\n"),
        shell(2, "rm docs/tracing.md"),
        shell(
            3,
            "rtk git status --porcelain=v1 -b --untracked-files=all",
            "## main...origin/main\n?? docs/tracing.md\n",
        ),
    )

    deleted = _section(index, "Files deleted")
    assert "`docs/tracing.md`: removed (turn 2), but the later" in deleted
    assert "it was there again" in deleted


def test_a_deleted_file_a_later_status_lists_untracked_is_no_change_left_to_commit() -> None:
    index = _index(
        read(1, f"{ROOT}/docs/tracing.md", "# Tracing\n"),
        write(1, f"{ROOT}/src/app.py", "print('hi')\n"),
        shell(2, "git add src/app.py && git commit -m 'Add app'", "[main 1a2b3c4] Add app\n"),
        write(3, f"{ROOT}/src/cli.py", "print('cli')\n"),
        shell(4, "rm docs/tracing.md"),
        shell(5, "git status --short", "?? docs/tracing.md\n?? src/cli.py\n"),
    )

    tasks = _section(index, "Open tasks")
    assert "`src/cli.py`" in tasks
    assert "docs/tracing.md" not in tasks


def test_a_file_deleted_and_shown_again_with_other_content_is_not_modified_by_the_rm() -> None:
    # A hook made the file again after the session removed it: the `rm` is no change left.
    index = _index(
        read(1, f"{ROOT}/docs/tracing.md", "# Tracing\n"),
        shell(2, "rm docs/tracing.md"),
        shell(3, "cat docs/tracing.md", "# Tracing checkpoints\nwritten by the hook\n"),
    )

    hook = file_trail_context(session_facts(index))
    line = next(line for line in hook.splitlines() if "`docs/tracing.md`" in line)
    assert line == (
        "- `docs/tracing.md`: deleted (turn 2); there again at turn 3, though no call of the"
        " session is seen making it"
    )


# --- files a command named only when it ran: the lists are some of the files, counts are floors ---------


def test_reads_by_a_loop_over_a_glob_make_the_read_counts_floors_and_name_the_loop() -> None:
    index = _index(
        read(1, f"{ROOT}/README.md", "# shop\n"),
        read(2, "/etc/hosts", "127.0.0.1 localhost\n"),
        shell(
            3,
            'for f in ../billing/runners/*.json; do echo "--- $f"; sed -n "1,40p" "$f"; done',
            '--- ../billing/runners/a.json\n{"id": 1}\n--- ../billing/runners/b.json\n{"id": 2}\n',
        ),
    )
    files_read = _section(index, "Files read (unchanged)")
    assert "outside the workspace (at least 1, the latest first): `/etc/hosts`" in files_read
    assert (
        "- and reads of files named only when they ran, which these lists may leave out: "
        '`sed -n "1,40p" "$f"` (turn 3, `for f in ../billing/runners/*.json`)'
    ) in files_read


def test_files_read_in_one_turn_are_latest_first_by_when_each_was_read() -> None:
    index = _index(
        read(1, f"{ROOT}/main.go", "package main\n"),
        read(1, "/srv/lib/a.go", "package lib\n"),
        read(1, "/srv/lib/b.go", "package lib\n"),
        read(2, "/srv/lib/c.go", "package lib\n"),
        read(2, "/srv/lib/a.go", "package lib\n"),
        read(2, "/srv/lib/b.go", "package lib\n"),
    )
    files_read = _section(index, "Files read (unchanged)")
    assert (
        "outside the workspace (3, the latest first): `/srv/lib/b.go`, `/srv/lib/a.go`, "
        "`/srv/lib/c.go`"
    ) in files_read


def test_reads_of_named_files_alone_leave_the_counts_exact() -> None:
    index = _index(
        read(1, f"{ROOT}/README.md", "# shop\n"),
        read(2, "/etc/hosts", "127.0.0.1 localhost\n"),
        shell(3, 'for f in a.json b.json; do sed -n 1,40p "$f"; done', "{}\n{}\n"),
    )
    files_read = _section(index, "Files read (unchanged)")
    assert "outside the workspace (1, the latest first)" in files_read
    assert "named only when they ran" not in files_read


def test_an_in_place_edit_of_files_named_at_run_time_makes_the_uncommitted_count_a_floor() -> None:
    index = _index(
        edit(1, f"{ROOT}/src/app.py", "a = 1\n", "a = 2\n"),
        shell(
            2,
            "git add src/app.py && git commit -m 'bump'",
            "[main 3a5bc20] bump\n 1 file changed\n",
        ),
        edit(3, f"{ROOT}/src/tools.py", "b = 1\n", "b = 2\n"),
        shell(4, "perl -pi -e 's/old-name/new-name/g' $(rg -l 'old-name' src)", ""),
    )
    tasks = _section(index, "Open tasks")
    assert (
        "at least 1 changed file(s) not committed (the last commit: `3a5bc20`, turn 2): "
        "`src/tools.py`, and the files `perl -pi -e 's/old-name/new-name/g' $(rg -l 'old-name' src)` "
        "(turn 4) changed, which it named only when it ran"
    ) in tasks


def test_a_git_status_after_the_command_lists_what_it_changed() -> None:
    # `cargo fmt --all` names no file; the `git status` after it shows it left only the edited one.
    index = _index(
        edit(1, f"{ROOT}/src/app.rs", "let a = 1;\n", "let a = 2;\n"),
        shell(2, "git commit -am 'bump'", "[main 3a5bc20] bump\n 1 file changed\n"),
        edit(3, f"{ROOT}/src/tools.rs", "let b = 1;\n", "let b = 2;\n"),
        shell(4, "perl -pi -e 's/old/new/g' $(rg -l old src)", ""),
        shell(5, "git status --short", " M src/tools.rs\n"),
    )
    tasks = _section(index, "Open tasks")
    assert (
        "1 changed file(s) not committed (the last commit: `3a5bc20`, turn 2): `src/tools.rs`."
    ) in tasks
    assert "named only when it ran" not in tasks


def test_a_changed_file_a_later_read_showed_changed_again_is_not_described_by_its_old_change() -> (
    None
):
    """The person reverted the session's README section between turns: its lines are not current."""
    before = "# Shop\n\nRun it.\n"
    index = _index(
        read(1, f"{ROOT}/README.md", before),
        edit(2, f"{ROOT}/README.md", "Run it.\n", "Run it.\n\n## Sizing Guidelines\n\nUse 4 GB.\n"),
        read(4, f"{ROOT}/README.md", "# Shop\n\nRun it with care.\n"),
    )

    modified = _section(index, "Files modified")
    assert (
        "`README.md`: changed by the session (turn 2), then its read at turn 4 showed other content "
        "than that change left (changed since by something the calls seen do not show, or the "
        "trail's copy of it was off), so its changed lines are not told"
    ) in modified
    assert "Sizing Guidelines" not in modified


def test_a_committed_file_restored_from_git_after_a_trial_change_holds_the_commit() -> None:
    """The fix was committed, overwritten with the old version to see the test fail, then restored."""
    index = _index(
        read(1, f"{ROOT}/src/auth.go", "func a() {}\n"),
        edit(2, f"{ROOT}/src/auth.go", "func a() {}\n", "func a() { fix() }\n"),
        shell(
            3,
            "git add -A && git commit -m 'Fix auth'",
            "[main 4ead9dc] Fix auth\n 1 file changed\n",
        ),
        shell(
            4,
            "git show HEAD~1:src/auth.go > src/auth.go && go test ./src",
            "FAIL\tshop/src\t0.1s\n",
        ),
        shell(5, "git checkout src/auth.go", "Updated 1 path from the index\n"),
    )

    assert "put back" not in file_trail_context(session_facts(index))
    modified = _section(index, "Files modified")
    assert (
        "`src/auth.go`: changed (turn 2), committed in `4ead9dc` (turn 3), then `git checkout "
        "src/auth.go` (turn 5) set it to a version git had"
    ) in modified


def test_a_script_owed_a_test_run_says_when_it_last_ran_itself() -> None:
    index = _index(
        shell(1, "bun test src/app.test.ts", "5 pass\n0 fail\n"),
        edit(2, f"{ROOT}/scripts/e2e.ts", "a\n", "b\n"),
        shell(3, "bun scripts/e2e.ts", "all 4 steps ok\n"),
        edit(4, f"{ROOT}/scripts/e2e.ts", "b\n", "c\n"),
    )

    status = _section(index, "Test status")
    assert (
        "Not tested by any run seen since their last change: `scripts/e2e.ts` (turns 2, 4; it last "
        "ran itself at turn 3); the last run was `bun test src/app.test.ts` (turn 1)."
    ) in status
