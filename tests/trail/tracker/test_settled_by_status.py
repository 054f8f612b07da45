"""A change a command said it may make, settled by a later ``git status``: listed, it is the command's."""

from __future__ import annotations

from pathlib import Path

from artifact_index.trail.build import build_index
from artifact_index.trail.file_reports import file_reports
from artifact_index.trail.verification import unverified_changes

from .claude_bash import changed, transcript

ROOT = "/home/dev/tally"

MANIFEST = '[package]\nname = "tally"\nversion = "0.4.5"\n'

LOCK_MODIFIED = """On branch main
Changes not staged for commit:
  (use "git add <file>..." to update what will be committed)
\tmodified:   Cargo.lock
\tmodified:   Cargo.toml
\tmodified:   notes.md

no changes added to commit (use "git add" and/or "git commit -a")
"""

CLEAN = "On branch main\nnothing to commit, working tree clean\n"


def test_a_build_after_the_manifest_changed_rewrote_the_lock_a_status_lists(
    tmp_path: Path,
) -> None:
    files, _ = changed(
        tmp_path,
        ROOT,
        [
            ("cat Cargo.toml", MANIFEST),
            ("sed -i 's/0.4.5/0.4.6/' Cargo.toml", ""),
            ("cargo test 2>&1 | tail -3", "test result: ok. 12 passed; 0 failed\n"),
            ("git status", LOCK_MODIFIED),
        ],
    )
    # notes.md was changed by no command of the session: the status says nothing of whose it is.
    assert files == {"Cargo.toml": "modified", "Cargo.lock": "modified"}


def test_without_a_status_the_lock_stays_an_unknown_effect(tmp_path: Path) -> None:
    files, unknown = changed(
        tmp_path,
        ROOT,
        [
            ("cat Cargo.toml", MANIFEST),
            ("sed -i 's/0.4.5/0.4.6/' Cargo.toml", ""),
            ("cargo check", "    Finished `dev` profile\n"),
        ],
    )
    assert files == {"Cargo.toml": "modified"}
    assert any("Cargo.lock in line with Cargo.toml" in (detail or "") for _, detail in unknown)


def test_a_build_of_an_unchanged_manifest_says_nothing_of_the_lock(tmp_path: Path) -> None:
    files, unknown = changed(
        tmp_path, ROOT, [("cargo test", "test result: ok.\n"), ("git status", LOCK_MODIFIED)]
    )
    assert files == {}
    assert unknown == []


def test_a_lock_listed_before_the_build_is_not_credited_to_it(tmp_path: Path) -> None:
    files, _ = changed(
        tmp_path,
        ROOT,
        [
            ("git status", LOCK_MODIFIED),
            ("cat Cargo.toml", MANIFEST),
            ("sed -i 's/0.4.5/0.4.6/' Cargo.toml", ""),
            ("cargo build", "    Finished `dev` profile\n"),
            ("git status", LOCK_MODIFIED),
        ],
    )
    assert files == {"Cargo.toml": "modified"}


def test_a_status_that_did_not_list_it_settles_it_unchanged(tmp_path: Path) -> None:
    # The install left the lock alone (the first status says so); a later
    # change of it is someone else's.
    untracked = "On branch main\nUntracked files:\n\tweb/pnpm-lock.yaml\n"
    files, _ = changed(
        tmp_path,
        ROOT,
        [
            ("cd web && pnpm install", "Done in 2.5s\n"),
            ("git status", CLEAN),
            ("git status", untracked),
        ],
    )
    assert files == {}


def test_an_install_that_wrote_a_new_lock_created_it(tmp_path: Path) -> None:
    untracked = (
        "On branch main\nUntracked files:\n"
        '  (use "git add <file>..." to include in what will be committed)\n'
        "\tweb/pnpm-lock.yaml\n\tscratch.txt\n"
    )
    files, _ = changed(
        tmp_path,
        ROOT,
        [
            ("git status", CLEAN),
            ("cd web && pnpm install", "Done in 2.5s\n"),
            ("git status", untracked),
        ],
    )
    assert files == {"web/pnpm-lock.yaml": "created"}


def test_a_short_status_settles_it_too(tmp_path: Path) -> None:
    files, _ = changed(
        tmp_path,
        ROOT,
        [
            ("cat Cargo.toml", MANIFEST),
            ("sed -i 's/0.4.5/0.4.6/' Cargo.toml", ""),
            ("cargo clippy", "    Finished `dev` profile\n"),
            ("git status --short", " M Cargo.lock\n M Cargo.toml\n?? notes.md\n"),
        ],
    )
    assert files == {"Cargo.toml": "modified", "Cargo.lock": "modified"}


def test_a_swift_build_of_a_changed_package_rewrote_its_resolved_file(tmp_path: Path) -> None:
    package = "// swift-tools-version:6.0\nimport PackageDescription\n"
    files, _ = changed(
        tmp_path,
        ROOT,
        [
            ("cat agent/Package.swift agent/Package.resolved", package + '{\n  "pins": []\n}\n'),
            ("echo '// local libs' >> agent/Package.swift", ""),
            ("swift build --package-path agent 2>&1 | tail -2", "Build complete! (41.2s)\n"),
            (
                "git status -u",
                "On branch main\nChanges not staged for commit:\n"
                "\tmodified:   agent/Package.resolved\n\tmodified:   agent/Package.swift\n",
            ),
        ],
    )
    assert files == {"agent/Package.swift": "modified", "agent/Package.resolved": "modified"}


def test_the_first_build_since_the_manifest_changed_is_credited(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    calls = [
        ("cat Cargo.toml", MANIFEST),
        ("sed -i 's/0.4.5/0.4.6/' Cargo.toml", ""),
        ("cargo check", "    Finished `dev` profile\n"),
        ("cargo test", "test result: ok.\n"),
        ("git status", LOCK_MODIFIED),
    ]
    path.write_text(transcript(ROOT, calls), encoding="utf-8")
    index, _ = build_index(path)
    lock = next(f for f in index.files() if f.path == "Cargo.lock")
    details = [op.detail for op in index.history(lock.path) if op.detail]
    assert details == ["listed modified by git status after `cargo check`, which may change it"]


def test_a_lock_a_status_settles_changed_when_its_command_ran_not_when_the_status_showed_it(
    tmp_path: Path,
) -> None:
    # `uv sync` rewrote uv.lock (turn 2); the tests ran after that (turn 3); the status (turn 4)
    # only showed it.  The lock is told as uv sync's change, and no run is owed for it.
    path = tmp_path / "session.jsonl"
    calls = [
        ("uv sync 2>&1 | tail -3", "Resolved 41 packages in 12ms\n"),
        ("uv run pytest -q 2>&1 | tail -2", "12 passed in 0.40s\n"),
        (
            "git status -u",
            "On branch main\nChanges not staged for commit:\n\tmodified:   uv.lock\n",
        ),
    ]
    path.write_text(transcript(ROOT, calls), encoding="utf-8")
    index, _ = build_index(path)
    [lock] = [f for f in file_reports(index) if f.path == "uv.lock"]
    assert (lock.status, lock.shell_command, lock.changed_turns) == (
        "modified",
        "uv sync 2>&1",
        [2],
    )
    assert unverified_changes(index) == []


def test_a_file_put_back_that_a_later_status_lists_modified_is_modified_again(
    tmp_path: Path,
) -> None:
    # Restored with `git checkout`, then `make docs` regenerated it: the status shows the change,
    # not who made it. A status behind the `rtk proxy` wrapper is a status all the same.
    path = tmp_path / "session.jsonl"
    path.write_text(
        transcript(
            "/home/dev/app",
            [
                ("cat docs/overview.md", "# Overview\n"),
                ("sed -i 's/Overview/Components/' docs/overview.md", ""),
                ("git checkout -- docs/overview.md", ""),
                ("make docs 2>&1 | tail -2", "Generated docs/overview.md\n"),
                ("rtk proxy git --no-pager status --short", " M docs/overview.md\n"),
            ],
        ),
        encoding="utf-8",
    )
    index, _ = build_index(path)
    [report] = [f for f in file_reports(index) if f.path == "docs/overview.md"]
    assert (report.status, report.shell_command) == ("modified", None)


FORMATTED = """On branch main
Changes not staged for commit:
\tmodified:   README.md
\tmodified:   src/config.rs

no changes added to commit (use "git add" and/or "git commit -a")
"""


def test_a_file_a_project_formatter_may_have_changed_is_its_when_a_status_lists_it(
    tmp_path: Path,
) -> None:
    before = "On branch main\nChanges not staged for commit:\n\tmodified:   README.md\n\n"
    files, _ = changed(
        tmp_path,
        ROOT,
        [("git status", before), ("cargo fmt", ""), ("git status", FORMATTED)],
    )
    # README.md was listed changed before the formatter ran: not its change.
    assert files == {"src/config.rs": "modified"}
    # With no listing before it, a change listed after it may predate it: nothing is credited.
    files, _ = changed(tmp_path, ROOT, [("cargo fmt", ""), ("git status", FORMATTED)])
    assert files == {}


def test_a_file_the_session_changed_that_a_status_lists_deleted_is_deleted(
    tmp_path: Path,
) -> None:
    # The session rewrote GEMINI.md; the person then removed it. No call shows the removal, but
    # the status does: the file is gone, and no change the session wrote into it is still there.
    status = (
        "On branch main\nChanges not staged for commit:\n"
        '  (use "git add/rm <file>..." to update what will be committed)\n'
        "\tdeleted:    GEMINI.md\n\tmodified:   notes.md\n"
    )
    files, _ = changed(
        tmp_path,
        ROOT,
        [
            ("cat GEMINI.md notes.md", "@a\nnotes\n"),
            ("printf '@b\\n' > GEMINI.md", ""),
            ("git status", status),
        ],
    )
    assert files == {"GEMINI.md": "deleted"}
    reports = {r.path: r for r in file_reports(build_index(tmp_path / "session.jsonl")[0])}
    assert reports["GEMINI.md"].shell_command is None  # the status only showed it
