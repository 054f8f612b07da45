"""What a command's own output shows about the directory it ran in and the files it wrote."""

from __future__ import annotations

from pathlib import Path

from artifact_index.shell.analysis import analyze_command

from .claude_bash import changed

ROOT = "/home/dev/app"
ZOXIDE = "zoxide: detected a possible configuration issue.\n\nzoxide: you are already in the only match\n"


def test_a_zoxide_cd_to_where_the_shell_already_is_stays_there() -> None:
    # The shell is in apps/api already; zoxide's `cd apps/api` matches where it is.
    here = f"{ROOT}/apps/api"
    stayed = analyze_command(
        "cd apps/api && cat app/main.py", here, succeeded=True, output=ZOXIDE + "print('hi')\n"
    )
    assert [(op.action, op.path) for op in stayed.operations] == [("read", f"{here}/app/main.py")]
    # Without zoxide's words, `cd` is the shell's own and goes where its path says.
    plain = analyze_command("cd apps/api && cat app/main.py", here, succeeded=True, output="x\n")
    assert [op.path for op in plain.operations] == [f"{here}/apps/api/app/main.py"]


def test_a_write_that_a_later_read_in_the_command_found_missing_made_nothing(
    tmp_path: Path,
) -> None:
    # A hook ran the `tail` as another reader, which complains in its own words.
    files, _ = changed(
        tmp_path,
        ROOT,
        [
            (
                "python run.py > /tmp/out.txt 2>&1; echo exit=$?; tail -25 /tmp/out.txt",
                "exit=1\ncat: /tmp/out.txt: No such file or directory (os error 2)",
            )
        ],
    )
    assert files == {}
