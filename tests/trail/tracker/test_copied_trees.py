"""A tree copied into the workspace: its files are named by a later listing, else an unknown effect."""

from __future__ import annotations

from pathlib import Path

from .claude_bash import changed

ROOT = "/home/dev/mono"

STATUS = """On branch main
Changes not staged for commit:
\tmodified:   README.md

Untracked files:
  (use "git add <file>..." to include in what will be committed)
\tlibs/parser/Package.swift
\tlibs/parser/Sources/Parser/Lexer.swift
\tnotes/todo.txt

nothing added to commit but untracked files present
"""


def test_a_copied_tree_is_unknown_until_a_status_names_its_files(tmp_path: Path) -> None:
    files, unknown = changed(
        tmp_path,
        ROOT,
        [
            ("cat /home/dev/parser/Package.swift", "// swift-tools-version:6.0\n"),
            ("mkdir -p libs && cp -R /home/dev/parser libs/", ""),
            ("git status -u", STATUS),
        ],
    )
    # notes/todo.txt and README.md lie outside the copied tree: the status
    # does not say this session made them.
    assert files == {
        "libs/parser/Package.swift": "created",
        "libs/parser/Sources/Parser/Lexer.swift": "created",
    }
    assert any("cp -r copies /home/dev/parser" in (detail or "") for _, detail in unknown)


def test_a_porcelain_status_names_the_copied_files_too(tmp_path: Path) -> None:
    files, _ = changed(
        tmp_path,
        ROOT,
        [
            ("cat /home/dev/parser/README.md", "parser\n"),
            ("cp -r /home/dev/parser libs/parser", ""),
            ("git status --porcelain", "?? libs/parser/Package.swift\n?? scratch.txt\n"),
        ],
    )
    assert files == {"libs/parser/Package.swift": "created", "libs/parser/README.md": "created"}


def test_without_a_copy_a_status_of_untracked_files_changes_nothing(tmp_path: Path) -> None:
    files, _ = changed(tmp_path, ROOT, [("git status -u", STATUS)])
    assert files == {}


def test_a_directory_mkdir_p_names_may_hold_files_from_before(tmp_path: Path) -> None:
    # `mkdir -p` of a directory that was already there: its untracked files
    # may predate the session, so the status does not make them the session's.
    files, _ = changed(
        tmp_path,
        ROOT,
        [("mkdir -p libs/parser", ""), ("git status -u", STATUS)],
    )
    assert files == {}
