"""A glob over a directory the session listed: it names the files the listing showed."""

from __future__ import annotations

from pathlib import Path

from artifact_index.shell.ls_output import listed_files

from .claude_bash import changed

ROOT = "/home/dev/sim"

LONG = """total 12
drwxr-xr-x 1 dev dev    0 Jun 25 00:10 .
drwxr-xr-x 1 dev dev    0 Jun 25 00:09 ..
-rw-r--r-- 1 dev dev   10 Mar 31  2009 batch_1
-rw-r--r-- 1 dev dev   10 Mar 31  2009 batch_2
-rw-r--r-- 1 dev dev   10 Mar 31  2009 notes.txt
drwxr-xr-x 1 dev dev    0 Jun 25 00:10 batch_dir
"""


def test_a_glob_move_names_the_files_an_earlier_listing_showed(tmp_path: Path) -> None:
    files, unknown = changed(
        tmp_path,
        ROOT,
        [("ls -la data/", LONG), ("cd data && mkdir -p batches && mv batch_* batches/", "")],
    )
    assert files == {
        "data/batch_1": "deleted",
        "data/batch_2": "deleted",
        "data/batches/batch_1": "created",
        "data/batches/batch_2": "created",
    }
    assert unknown == []


def test_without_a_listing_the_glob_stays_an_unknown_effect(tmp_path: Path) -> None:
    files, unknown = changed(
        tmp_path,
        ROOT,
        [("ls -la data/ | head -3", LONG), ("cd data && mv batch_* batches/", "")],
    )
    assert files == {}
    assert any("batch_*" in (detail or "") for _, detail in unknown)


def test_a_file_removed_since_the_listing_is_not_matched(tmp_path: Path) -> None:
    files, _ = changed(
        tmp_path,
        ROOT,
        [("ls data", "a.log\nb.log\n"), ("rm data/a.log", ""), ("rm data/*.log", "")],
    )
    assert files == {"data/a.log": "deleted", "data/b.log": "deleted"}


def test_only_a_listing_alone_is_read() -> None:
    assert listed_files("ls -la data", ROOT, LONG) == (
        f"{ROOT}/data",
        ["batch_1", "batch_2", "notes.txt"],
    )
    assert listed_files("ls -R data", ROOT, "a\n") is None
    assert listed_files("ls data other", ROOT, "a\n") is None
    assert listed_files("echo hi; ls data", ROOT, "hi\na\n") is None
    assert listed_files("ls -la data", ROOT, "ls: data: No such file or directory\n") is None


def test_an_ls_spelled_through_quotes_or_variables_is_still_a_listing() -> None:
    # Commands that cannot run `ls` are passed over before their words are expanded; one whose
    # `ls` only appears once the shell has taken out quotes or put in a value is not.
    for command in ("l's' data", 'l"s" data', "L=ls; $L data", "L=l; ${L}s data"):
        assert listed_files(command, ROOT, "a.log\nb.log\n") == (
            f"{ROOT}/data",
            ["a.log", "b.log"],
        ), command
    assert listed_files("cat data/names.txt", ROOT, "a.log\nb.log\n") is None
