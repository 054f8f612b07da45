"""Flattening a plain command list into its simple commands."""

from __future__ import annotations

from artifact_index.shell.listing import SimpleCommand, simple_commands


def test_a_list_gives_each_command_its_directory_and_output_file() -> None:
    steps = simple_commands("cd /testbed && git diff -- 'a b.py' > patch.txt; cat patch.txt", "/")
    assert steps == (
        SimpleCommand(("cd", "/testbed"), "cd", "/"),
        SimpleCommand(
            ("git", "diff", "--", "a b.py"), "git", "/testbed", stdout="/testbed/patch.txt"
        ),
        SimpleCommand(("cat", "patch.txt"), "cat", "/testbed"),
    )


def test_pipes_mark_every_command_but_the_last() -> None:
    steps = simple_commands("git diff | tee out.patch | head", "/r")
    assert steps is not None
    assert [(s.program, s.piped) for s in steps] == [("git", True), ("tee", True), ("head", False)]


def test_a_pipe_binds_closer_than_a_list_whatever_the_redirections() -> None:
    # bash reads `a 2>x && b 2>y | c || d` as `a && (b | c) || d`: only b feeds c.
    for command in (
        "ls .claude/ 2>/dev/null && cat .claude/mcp.json 2>/dev/null | head -5 || echo none",
        "ls .claude/ && cat .claude/mcp.json | head -5 || echo none",
    ):
        steps = simple_commands(command, "/r")
        assert steps is not None
        assert [(s.program, s.piped) for s in steps] == [
            ("ls", False),
            ("cat", True),
            ("head", False),
            ("echo", False),
        ], command
    braced = simple_commands("{ ls d 2>/dev/null && cat d/f; } | head", "/r")
    assert braced is not None and [s.piped for s in braced] == [True, True, False]


def test_groups_are_flattened_and_variables_expand() -> None:
    steps = simple_commands('P=fix.patch; { echo DONE; cat "$P"; }', "/r")
    assert steps is not None and [s.argv for s in steps] == [("echo", "DONE"), ("cat", "fix.patch")]


def test_an_unknown_start_directory_keeps_paths_relative() -> None:
    steps = simple_commands("git diff > p.txt && cd sub && cat x", None)
    assert steps is not None
    assert [(s.cwd, s.stdout) for s in steps] == [(None, "p.txt"), (None, None), ("sub", None)]


def test_structure_that_is_not_a_plain_list_gives_none() -> None:
    for command in (
        "(cd src && git diff)",
        "for f in *.py; do cat $f; done",
        "if true; then git diff; fi",
        "git diff >> all.patch",
        "echo 'unterminated",
    ):
        assert simple_commands(command, "/r") is None, command
