"""The Aider chat-history adapter: edits count only when Aider applied them."""

from __future__ import annotations

from pathlib import Path

import pytest

from artifact_index.ingestion.adapters import adapter_named
from artifact_index.ingestion.events import ToolCall, UserMessage
from artifact_index.ingestion.source import read_source
from artifact_index.trail.build import build_index

from ..conftest import Loader, Run, Touch


@pytest.fixture(scope="module")
def run(load: Loader, fixtures_dir: Path) -> Run:
    return load("aider", fixtures_dir / "aider" / "chat.history.md")


def test_detected_as_aider(run: Run) -> None:
    assert run.detected == "aider"


def test_added_files_are_reads(run: Run) -> None:
    touches = run.touches()
    assert Touch("read", "success", None, 0, "add_to_chat") in touches["src/app.py"]
    assert [t.action for t in touches["docs/intro.md"]] == ["read"]
    # Answered "no" to "Add file to the chat?": never read.
    assert "tests/test_app.py" not in touches


def test_empty_search_with_create_prompt_is_a_create(run: Run) -> None:
    call = next(c for c in run.calls if c.arguments.get("path") == "src/greet.py")
    (op,) = call.operations
    assert op.action == "create"
    assert op.content is not None and op.content.startswith("def greet(name):")
    assert run.results[call.call_id].status == "success"


def test_applied_search_replace_is_an_edit_with_old_and_new(run: Run) -> None:
    call = next(
        c
        for c in run.calls
        if c.arguments.get("path") == "src/app.py" and c.operations[0].old == 'print("hi")\n'
    )
    assert call.operations[0].new == 'from greet import greet\nprint(greet("world"))\n'
    assert run.results[call.call_id].status == "success"
    assert call.line == 24  # the SEARCH marker of the block


def test_failed_block_is_not_found_and_the_others_still_count(run: Run) -> None:
    touches = run.touches()
    assert [(t.status, t.failure) for t in touches["src/util.py"]] == [("failure", "not_found")]
    assert [(t.action, t.status) for t in touches["README.md"]] == [("edit", "success")]


def test_edit_format_error_without_blocks_is_an_invalid_failure(run: Run) -> None:
    failures = [
        run.results[c.call_id] for c in run.calls if not c.operations and c.tool == "apply_edit"
    ]
    assert [(r.failure, r.output) for r in failures] == [
        ("invalid", "No filename provided before ``` in file listing")
    ]


def test_declined_edit_is_rejected(run: Run) -> None:
    assert [(t.status, t.failure) for t in run.touches()["CONVENTIONS.md"]] == [
        ("failure", "rejected")
    ]


def test_blocks_never_applied_do_not_change_files(run: Run) -> None:
    # The /ask reply proposes an edit to src/app.py that Aider never applied.
    ask = [t for t in run.touches()["src/app.py"] if t.status == "failure"]
    assert ask == [Touch("edit", "failure", "other", 10, "apply_edit")]


def test_architect_applied_lines_are_edits(run: Run) -> None:
    touches = run.touches()
    assert Touch("create", "success", None, 12, "apply_edit") in touches["settings.py"]
    assert Touch("edit", "success", None, 12, "apply_edit") in touches["src/app.py"]


def test_whole_file_listing_is_a_write_with_content(run: Run) -> None:
    call = next(c for c in run.calls if c.arguments.get("path") == "version.txt")
    assert [(op.action, op.content) for op in call.operations] == [("write", "2\n")]


def test_running_a_command_is_a_shell_call_with_unknown_status(run: Run) -> None:
    assert run.touches()["rm -f build.log"] == [Touch("shell", "unknown", None, 12, "shell")]


def test_undo_reverts_the_files_of_the_removed_commit(run: Run) -> None:
    undo = next(c for c in run.calls if c.tool == "undo")
    # The commit created settings.py: taking the commit back removes it.
    assert [(op.action, op.path) for op in undo.operations] == [
        ("delete", "settings.py"),
        ("undo", "src/app.py"),
    ]


def test_commits_are_recorded(run: Run) -> None:
    commits = [c.arguments["hash"] for c in run.calls if c.tool == "git_commit"]
    assert commits == ["dde0244", "1a2b3c4", "5e6f7a8"]


def test_unfinished_block_yields_no_edit_and_is_not_damage(run: Run) -> None:
    # The last reply stops inside a SEARCH block: the model's output, not a broken file.
    assert "CHANGELOG.md" not in run.touches()
    assert run.source.skipped == []


def test_turns_and_lines(run: Run) -> None:
    users = [e for e in run.events if isinstance(e, UserMessage)]
    assert [u.turn for u in users][:3] == [1, 3, 5]
    assert users[0].line == 9
    assert all(e.line is not None for e in run.events)


def test_multiline_user_input_is_one_message(load: Loader, tmp_path: Path) -> None:
    path = tmp_path / "h.md"
    path.write_text(
        "# aider chat started at 2025-01-01 10:00:00\n\n#### first line  \n#### second line  \n"
    )
    run = load("aider", path)
    users = [e for e in run.events if isinstance(e, UserMessage)]
    assert [u.text for u in users] == ["first line\nsecond line"]


def test_corpus_histories_parse_and_applied_lines_become_edits(
    load: Loader, corpus_dir: Path
) -> None:
    files = sorted((corpus_dir / "aider").glob("*.gz"))
    assert files
    for path in files:
        run = load("aider", path)
        assert run.detected == "aider", path.name
        applied = run.source.text.count("\n> Applied edit to ")
        successes = [
            c
            for c in run.calls
            if c.tool == "apply_edit" and run.results[c.call_id].status == "success"
        ]
        assert len(successes) >= applied, path.name
        assert run.changed(), path.name
        for call in run.calls:
            assert isinstance(call, ToolCall) and call.call_id in run.results


def test_text_that_is_not_a_chat_history_is_reported(load: Loader, tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_text("Just some notes.\n\n```python\nprint(1)\n```\n")
    source = read_source(path)
    events = list(adapter_named("aider").events(source))
    assert [e.kind for e in events] == ["session"]
    assert [s.reason for s in source.skipped] == [
        "no Aider chat history lines (# aider chat, ####, >) found"
    ]


# -- /undo in older versions, Windows paths, files created on confirmation -------


@pytest.fixture(scope="module")
def windows(load: Loader, fixtures_dir: Path) -> Run:
    return load("aider", fixtures_dir / "aider" / "windows-undo.chat.history.md")


def test_a_reset_commit_is_an_undo_not_a_commit(windows: Run) -> None:
    assert [c.arguments["hash"] for c in windows.calls if c.tool == "git_commit"] == [
        "bbde768",
        "0e5a7f2",
    ]
    (undo,) = [c for c in windows.calls if c.tool == "undo"]
    assert [(op.action, op.path) for op in undo.operations] == [("undo", "src\\stock.py")]


def test_the_undone_file_is_back_to_what_it_was(fixtures_dir: Path) -> None:
    index, _ = build_index(fixtures_dir / "aider" / "windows-undo.chat.history.md")
    statuses = {f.path: f.status for f in index.files()}
    assert statuses["src/stock.py"] == "reverted"


def test_an_absolute_windows_add_is_the_same_file_as_the_relative_edit(fixtures_dir: Path) -> None:
    index, _ = build_index(fixtures_dir / "aider" / "windows-undo.chat.history.md")
    assert index.root == "c:/Users/dev/inventory"
    assert [f.path for f in index.files()] == ["src/stock.py", "src/report.py", "README.md"]
    assert [op.action for op in index.history("src/stock.py")] == ["read", "edit", "undo"]


def test_a_file_created_on_confirmation_whose_edit_failed_is_created(fixtures_dir: Path) -> None:
    index, _ = build_index(fixtures_dir / "aider" / "windows-undo.chat.history.md")
    report = next(f for f in index.files() if f.path == "src/report.py")
    assert report.status == "created"
    assert [(op.action, op.result) for op in report.ops] == [
        ("create", "success"),
        ("edit", "failure"),
    ]
    readme = next(f for f in index.files() if f.path == "README.md")
    assert readme.status == "modified"  # "the other block was applied successfully"


@pytest.mark.parametrize(
    "message",
    [
        "> Commit `4c1d2e9` was reset and removed from git.  ",
        "> Commit 4c1d2e9 was reset and removed from git.  ",
        "> aider: add the helper\n> The above commit 4c1d2e9 was reset and removed from git.  ",
        "> Removed: 4c1d2e9 feat: add the helper  \n> Now at:  0000001 init  ",
    ],
)
def test_every_undo_message_takes_the_commit_back(
    load: Loader, tmp_path: Path, message: str
) -> None:
    history = tmp_path / ".aider.chat.history.md"
    history.write_text(
        "# aider chat started at 2025-01-01 10:00:00\n\n#### add helper.py  \n\n"
        "app.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```\n\n"
        "> Applied edit to app.py  \n> Commit 4c1d2e9 feat: add the helper  \n\n#### /undo  \n"
        + message
        + "\n"
    )
    index, _ = build_index(history)
    assert [(f.path, f.status) for f in index.files()] == [("app.py", "reverted")]


def _trail(tmp_path: Path, text: str) -> dict[str, str]:
    history = tmp_path / ".aider.chat.history.md"
    history.write_text(text)
    index, _ = build_index(history)
    return {f.path: f.status for f in index.files()}


def test_aider_adding_itself_to_gitignore_changes_it(tmp_path: Path) -> None:
    existing_repo = (
        "\n# aider chat started at 2026-01-05 10:00:00\n\n"
        "> You can skip this check with --no-gitignore  \n"
        "> Add .aider* to .gitignore (recommended)? (Y)es/(N)o [Yes]: y  \n"
        "> Added .aider* to .gitignore  \n"
        "> /usr/local/bin/aider  \n"
        "> Aider v0.86.1  \n\n"
        "#### hello  \n\nHi.\n\n> Tokens: 2.1k sent, 10 received.  \n"
    )
    assert _trail(tmp_path, existing_repo) == {".gitignore": "modified"}
    new_repo = (
        "\n# aider chat started at 2026-01-05 10:00:00\n\n"
        "> No git repo found, create one to track aider's changes (recommended)? (Y)es/(N)o [Yes]: y  \n"
        "> Added .aider* to .gitignore  \n"
        "> Git repository created in /home/dev/site  \n"
        "> Aider v0.86.1  \n\n"
        "#### hello  \n\nHi.\n\n> Tokens: 2.1k sent, 10 received.  \n"
    )
    assert _trail(tmp_path, new_repo) == {".gitignore": "created"}
    several = new_repo.replace("Added .aider* to", "Added .aider*, .env to")
    assert _trail(tmp_path, several) == {".gitignore": "created"}
    declined = existing_repo.replace("[Yes]: y", "[Yes]: n").replace(
        "> Added .aider* to .gitignore  \n", ""
    )
    assert _trail(tmp_path, declined) == {}


def test_an_undo_takes_back_the_edits_applied_after_the_commit_that_changed_nothing(
    tmp_path: Path,
) -> None:
    # A re-applied edit with no commit after it changed nothing (Aider commits every change,
    # and refuses to undo a commit whose files have uncommitted changes): undoing the two
    # commits leaves the file as it was.
    block = "app.py\n```python\n<<<<<<< SEARCH\nx = {}\n=======\nx = {}\n>>>>>>> REPLACE\n```\n\n"
    statuses = _trail(
        tmp_path,
        "# aider chat started at 2025-01-01 10:00:00\n\n#### set x  \n\n"
        + block.format(1, 2)
        + "> Applied edit to app.py  \n> Commit 1111111 set x to 2  \n\n#### set it again  \n\n"
        + block.format(2, 3)
        + "> Applied edit to app.py  \n> Commit 2222222 set x to 3  \n\n#### and again  \n\n"
        + block.format(3, 3)
        + "> Applied edit to app.py  \n\n#### /undo  \n> Removed: 2222222 set x to 3  \n\n"
        "#### /undo  \n> Removed: 1111111 set x to 2  \n",
    )
    assert statuses == {"app.py": "reverted"}


def test_a_question_asked_again_keeps_its_file(tmp_path: Path) -> None:
    # Aider's reminder after an answer it did not take is no file name.
    statuses = _trail(
        tmp_path,
        "# aider chat started at 2025-01-01 10:00:00\n\n#### translate the page  \n\n"
        "I need to see index.html first.\n\n"
        "> index.html  \n> Please answer with one of: yes, no, skip, all, don't  \n"
        "> Add file to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: y  \n",
    )
    assert statuses == {"index.html": "read"}


def test_old_style_questions_read_and_create(tmp_path: Path) -> None:
    # Aider before 0.50 named the file in the question itself.
    statuses = _trail(
        tmp_path,
        "# aider chat started at 2024-03-01 10:00:00\n\n#### add a greeting  \n\n"
        "> Add src/app.py to the chat? y  \n"
        "> Allow creation of new file src/hello.py? y  \n\n"
        "src/hello.py\n```python\nprint('hello')\n```\n\n"
        "> Applied edit to src/hello.py  \n",
    )
    assert statuses == {"src/app.py": "read", "src/hello.py": "created"}


_TWO_COMMITS = (
    "# aider chat started at 2025-01-01 10:00:00\n\n#### add notes  \n\n"
    "app.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```\n\n"
    "> Applied edit to app.py  \n> Commit 4c1d2e9 feat: change x  \n\n"
    "#### add the notes file  \n\n"
    "notes.md\n```\nhello\n```\n\n"
    "> notes.md  \n> Create new file? (Y)es/(N)o [Yes]: y  \n"
    "> Applied edit to notes.md  \n> Commit 5d2e3f0 docs: add notes  \n\n"
    "# aider chat started at 2025-01-01 11:00:00\n\n"
)


@pytest.mark.parametrize(("reset", "undone"), [("HEAD^", 1), ("HEAD~1", 1), ("HEAD~2", 2)])
def test_a_git_reset_hard_back_over_aider_s_commits_takes_them_back(
    tmp_path: Path, reset: str, undone: int
) -> None:
    # A new chat's /undo refuses an earlier chat's commit and suggests `/git reset --hard HEAD^`:
    # the file the last commit created is gone, and going back two takes app.py's edit back too.
    text = _TWO_COMMITS + f"#### /git reset --hard {reset}  \n> HEAD is now at 0000001 init  \n"
    history = tmp_path / ".aider.chat.history.md"
    history.write_text(text)
    index, _ = build_index(history)
    trail = {f.path: f.status for f in index.files()}
    assert trail["notes.md"] == "reverted"
    if undone == 2:
        assert trail["app.py"] == "reverted"
    undo_calls = [op for f in index.files() for op in f.ops if op.action in ("delete", "undo")]
    assert len(undo_calls) == undone


def test_a_git_reset_hard_to_head_or_past_the_commits_seen_assumes_no_commit_undone(
    tmp_path: Path,
) -> None:
    for reset in ("HEAD", "HEAD~3", "HEAD~0"):
        text = _TWO_COMMITS + f"#### /git reset --hard {reset}  \n"
        assert _trail(tmp_path, text)["notes.md"] == "created", reset
